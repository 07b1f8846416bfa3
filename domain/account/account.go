// Package account holds the sign-in rules: what makes an email address and a
// password acceptable, and the canonical form an email is stored in.
package account

import (
	"errors"
	"fmt"
	"net/mail"
	"strings"
	"time"
	"unicode/utf8"
)

// Password length bounds, in characters.
const (
	MinPassword = 12
	MaxPassword = 128
	maxEmail    = 254
)

// Validation errors, wrapped with detail.
var (
	ErrInvalidEmail    = errors.New("invalid email")
	ErrInvalidPassword = errors.New("invalid password")
)

// NormalizeEmail returns the canonical form of an address (trimmed, lower
// case) or ErrInvalidEmail. Addresses are not verified, only parsed.
func NormalizeEmail(s string) (string, error) {
	s = strings.ToLower(strings.TrimSpace(s))
	if s == "" || len(s) > maxEmail {
		return "", fmt.Errorf("%w: email must be 1 to %d characters", ErrInvalidEmail, maxEmail)
	}
	addr, err := mail.ParseAddress(s)
	if err != nil || addr.Address != s || addr.Name != "" {
		return "", fmt.Errorf("%w: %q is not a bare address like name@example.com", ErrInvalidEmail, s)
	}
	return s, nil
}

// CheckPassword enforces the length policy.
func CheckPassword(p string) error {
	if !utf8.ValidString(p) {
		return fmt.Errorf("%w: password must be valid UTF-8", ErrInvalidPassword)
	}
	if n := utf8.RuneCountInString(p); n < MinPassword || n > MaxPassword {
		return fmt.Errorf("%w: password must be %d to %d characters", ErrInvalidPassword, MinPassword, MaxPassword)
	}
	return nil
}

// Account is a signed-up user.
type Account struct {
	ID           string
	Email        string
	PasswordHash string
	CreatedAt    time.Time
}

// Session is a signed-in browser or CLI session; only the token's digest is held.
type Session struct {
	TokenHash string
	AccountID string
	CreatedAt time.Time
	ExpiresAt time.Time
}
