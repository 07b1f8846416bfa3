package pii

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base32"
	"errors"
	"fmt"
	"strings"

	"golang.org/x/text/cases"
	"golang.org/x/text/unicode/norm"
)

// nfc is the composed form names are matched and tokenized in; the text
// of a judgment is matched as it is.
func nfc(s string) string { return norm.NFC.String(s) }

// Kind is what a token stands for. It is part of the token's prefix and of
// the keyed hash, so a party and a PAN that happened to be spelt alike
// would still get different tokens.
type Kind string

// The kinds of personal data a judgment's text is tokenized for.
const (
	KindParty Kind = "party"
	KindPAN   Kind = "pan"
	// KindAddress is a postal address a judgment gives for a person.
	KindAddress Kind = "address"
)

// prefixes start each kind's tokens, so a reader of the tokenized text
// sees what was replaced without learning what it was.
var prefixes = map[Kind]string{KindParty: "PTY_", KindPAN: "PAN_", KindAddress: "ADR_"}

// MinKeyBytes is the shortest vault key accepted: HMAC-SHA256's own block
// of strength, 256 bits.
const MinKeyBytes = 32

// tokenBytes is how much of the HMAC a token keeps: 80 bits, 16 base32
// characters. A collision among a billion tokens has a chance near 4e-7.
const tokenBytes = 10

// ErrShortKey: the vault key is shorter than MinKeyBytes.
var ErrShortKey = fmt.Errorf("vault key shorter than %d bytes", MinKeyBytes)

// Key derives tokens. Whoever holds it can test a guessed name against a
// token, so it is given to `quarry ingest` only, never to the serving
// process.
type Key struct {
	secret []byte
}

// NewKey returns the key of secret, which must be at least MinKeyBytes long.
func NewKey(secret []byte) (Key, error) {
	if len(secret) < MinKeyBytes {
		return Key{}, ErrShortKey
	}
	return Key{secret: append([]byte(nil), secret...)}, nil
}

// Entry is one line of the vault: a token and the original it replaced.
type Entry struct {
	Token    string
	Kind     Kind
	Original string
}

var tokenEncoding = base32.StdEncoding.WithPadding(base32.NoPadding)

// Normalize is the form of original that a token is derived from: for a
// PAN its upper-case form; for a party name or an address the NFC form, case-folded, with
// every run of white space made one space and the ends trimmed. So
// "Ram  Kumar" and "RAM KUMAR" are one party, while "Ram Kumar" and
// "Ramkumar" stay two.
func Normalize(kind Kind, original string) string {
	if kind == KindPAN {
		return strings.ToUpper(strings.TrimSpace(original))
	}
	return strings.Join(strings.Fields(cases.Fold().String(norm.NFC.String(original))), " ")
}

// Token returns the token of original: the kind's prefix and the base32 of
// the first 10 bytes of HMAC-SHA256(key, kind || 0x00 || Normalize(original)).
// The same original gets the same token in every judgment and every run.
func (k Key) Token(kind Kind, original string) (string, error) {
	prefix, ok := prefixes[kind]
	if !ok {
		return "", fmt.Errorf("pii: unknown kind %q", kind)
	}
	if len(k.secret) == 0 {
		return "", ErrShortKey
	}
	n := Normalize(kind, original)
	if n == "" {
		return "", errors.New("pii: nothing to tokenize: the original is empty")
	}
	mac := hmac.New(sha256.New, k.secret)
	mac.Write([]byte(kind))
	mac.Write([]byte{0})
	mac.Write([]byte(n))
	return prefix + tokenEncoding.EncodeToString(mac.Sum(nil)[:tokenBytes]), nil
}

// IsToken reports whether s has the form of a token of some kind.
func IsToken(s string) bool {
	for _, p := range prefixes {
		body, ok := strings.CutPrefix(s, p)
		if ok && len(body) == tokenEncoding.EncodedLen(tokenBytes) {
			_, err := tokenEncoding.DecodeString(body)
			return err == nil
		}
	}
	return false
}
