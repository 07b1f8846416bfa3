package platform

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"

	"github.com/oklog/ulid/v2"
)

// NewID returns prefix + "_" + a ULID: sortable by creation time and unique
// without coordination between instances.
func NewID(prefix string) string {
	return prefix + "_" + ulid.Make().String()
}

// newToken returns a 256-bit random bearer token and its stored digest.
func newToken() (token, digest string) {
	b := make([]byte, 32)
	_, _ = rand.Read(b) // crypto/rand.Read never fails on supported platforms.
	token = "qs_" + base64.RawURLEncoding.EncodeToString(b)
	return token, digestOf(token)
}

func digestOf(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}
