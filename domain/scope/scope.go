// Package scope holds the permissions an API key carries and the rules for
// checking them against what an operation requires.
package scope

import (
	"errors"
	"fmt"
	"slices"
)

// Permission names one access right carried by an API key.
type Permission string

// The seven self-serve permissions, plus the separately provisioned resale right.
const (
	USRead         Permission = "us:read"
	IndiaRead      Permission = "india:read"
	ChinaRead      Permission = "china:read"
	SearchRead     Permission = "search:read"
	RAGSearch      Permission = "rag:search"
	LitigationRead Permission = "litigation:read"
	DataExport     Permission = "data:export"
	ResaleRead     Permission = "resale:read"
)

// SelfServe returns the permissions every self-serve key carries, in the
// order the interface lists them.
func SelfServe() []Permission {
	return []Permission{USRead, IndiaRead, ChinaRead, SearchRead, RAGSearch, LitigationRead, DataExport}
}

// ErrUnknown reports a name that is not a permission.
var ErrUnknown = errors.New("unknown permission")

// Parse returns the permission with that wire name, self-serve or not.
func Parse(name string) (Permission, error) {
	p := Permission(name)
	if p == ResaleRead || slices.Contains(SelfServe(), p) {
		return p, nil
	}
	return "", fmt.Errorf("%w %q", ErrUnknown, name)
}

// Missing returns the permissions in required that held lacks, in the order
// of required. An empty result means access is granted.
func Missing(held, required []Permission) []Permission {
	var missing []Permission
	for _, p := range required {
		if !slices.Contains(held, p) {
			missing = append(missing, p)
		}
	}
	return missing
}

// Strings converts permissions to their wire names.
func Strings(ps []Permission) []string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = string(p)
	}
	return out
}

// FromStrings converts wire names back to permissions.
func FromStrings(ss []string) []Permission {
	out := make([]Permission, len(ss))
	for i, s := range ss {
		out[i] = Permission(s)
	}
	return out
}

// ErrEmpty and ErrRepeated report a set of permissions that names none, or
// one twice.
var (
	ErrEmpty    = errors.New("no permission named")
	ErrRepeated = errors.New("permission named twice")
)

// ParseSet parses a non-empty set of wire names, each named once, keeping
// their order.
func ParseSet(names []string) ([]Permission, error) {
	if len(names) == 0 {
		return nil, ErrEmpty
	}
	out := make([]Permission, 0, len(names))
	for _, n := range names {
		p, err := Parse(n)
		if err != nil {
			return nil, err
		}
		if slices.Contains(out, p) {
			return nil, fmt.Errorf("%w: %q", ErrRepeated, n)
		}
		out = append(out, p)
	}
	return out, nil
}
