// Package apikey defines the format of Quarry API keys: "qk_", 32 base62
// characters of randomness (about 190 bits), and a 6-character base62 CRC-32
// checksum of them. The fixed prefix lets secret scanners recognise a leaked
// key, and the checksum lets the service refuse a mistyped key before any
// storage lookup.
package apikey

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"strings"
	"time"
)

const (
	// Marker starts every key.
	Marker = "qk_"
	// PrefixLen is how many leading characters are shown as the key prefix.
	PrefixLen   = 12
	bodyLen     = 32
	checksumLen = 6
	// Len is the full length of a well-formed key.
	Len = len(Marker) + bodyLen + checksumLen

	alphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
)

// ErrMalformed reports a string that is not a well-formed API key.
var ErrMalformed = errors.New("malformed api key")

// Generate draws a new key from rand, which should be crypto/rand.Reader.
func Generate(rand io.Reader) (string, error) {
	body := make([]byte, bodyLen)
	// Rejection sampling keeps every character uniform: 248 is the largest
	// multiple of 62 that fits in a byte.
	buf := make([]byte, 1)
	for i := 0; i < bodyLen; {
		if _, err := io.ReadFull(rand, buf); err != nil {
			return "", fmt.Errorf("read randomness: %w", err)
		}
		if buf[0] >= 248 {
			continue
		}
		body[i] = alphabet[buf[0]%62]
		i++
	}
	return Marker + string(body) + checksum(string(body)), nil
}

// Check reports whether key is well formed: marker, length, alphabet and checksum.
func Check(key string) error {
	if len(key) != Len || !strings.HasPrefix(key, Marker) {
		return ErrMalformed
	}
	body := key[len(Marker) : len(Marker)+bodyLen]
	for i := 0; i < len(body); i++ {
		if strings.IndexByte(alphabet, body[i]) < 0 {
			return ErrMalformed
		}
	}
	if key[len(Marker)+bodyLen:] != checksum(body) {
		return ErrMalformed
	}
	return nil
}

// Prefix returns the leading characters of key shown for recognition.
func Prefix(key string) string {
	if len(key) < PrefixLen {
		return key
	}
	return key[:PrefixLen]
}

// Digest returns the hex SHA-256 digest of key: the only form that is stored.
func Digest(key string) string {
	sum := sha256.Sum256([]byte(key))
	return hex.EncodeToString(sum[:])
}

func checksum(body string) string {
	n := crc32.ChecksumIEEE([]byte(body))
	out := make([]byte, checksumLen)
	for i := checksumLen - 1; i >= 0; i-- {
		out[i] = alphabet[n%62]
		n /= 62
	}
	return string(out)
}

// Key is an API key record; only the key's digest is held. A browser
// credential is a Key too, one that expires: it is stored, cached, watched
// and checked by the debit exactly like a key.
type Key struct {
	ID         string
	AccountID  string
	Name       string
	Prefix     string
	Hash       string
	Scopes     []string
	CreatedAt  time.Time
	LastUsedAt *time.Time
	RevokedAt  *time.Time
	// ExpiresAt is nil for a key, which lives until it is revoked, and set
	// for a browser credential.
	ExpiresAt *time.Time
}

// Kind tells a standing API key from a short-lived browser credential.
type Kind string

// The two kinds of credential sent in X-API-KEY.
const (
	Standing Kind = "key"
	Browser  Kind = "browser"
)

// Kind returns what the key is: a credential that expires is a browser
// credential.
func (k Key) Kind() Kind {
	if k.ExpiresAt != nil {
		return Browser
	}
	return Standing
}

// Expired reports whether the key had expired at t; a standing key never
// expires.
func (k Key) Expired(t time.Time) bool {
	return k.ExpiresAt != nil && !t.Before(*k.ExpiresAt)
}

// Live reports whether the key may be used at t: not revoked and not expired.
func (k Key) Live(t time.Time) bool { return k.RevokedAt == nil && !k.Expired(t) }
