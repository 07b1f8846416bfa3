// Package judgment holds what Quarry knows of an Indian court judgment: the
// document it serves (parties and PANs already replaced by tokens), the
// rules its identifier follows, and how a judgment as a court publishes it
// becomes that document (Tokenize). It does no I/O.
package judgment

import (
	"crypto/sha256"
	"encoding/base32"
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/quarrydata/quarry/domain/source"
)

// Judgment is one judgment as stored and served: every litigant's name and
// every PAN in it is a token (domain/pii); nothing in it is an original.
type Judgment struct {
	// ID is derived from the court, the case number and the decision
	// date (NewID).
	ID    string
	Court string
	// Bench names the bench or seat where the source gives it; empty
	// otherwise.
	Bench      string
	CaseNumber string
	// Title is the cause title, parties as tokens.
	Title   string
	Parties []Party
	Judges  []string
	// DecisionDate is YYYY-MM-DD.
	DecisionDate string
	Citations    []string
	// Language is the ISO 639-1 code of the text, such as "en".
	Language string
	// PageCount is the number of pages of the original where the source
	// gives it; 0 when it does not.
	PageCount int
	// Text is the full text, tokenized; source offsets count its Unicode
	// code points.
	Text string
	// RetrievedAt is when Quarry retrieved the source files.
	RetrievedAt time.Time
}

// Equal reports whether j and o hold the same judgment, field for field:
// when they do, they have the same Digest. Comparing is far cheaper than
// digesting, above all for texts read from one cache, which share their
// bytes.
func (j Judgment) Equal(o Judgment) bool {
	return j.ID == o.ID && j.Court == o.Court && j.Bench == o.Bench && j.CaseNumber == o.CaseNumber &&
		j.Title == o.Title && slices.Equal(j.Parties, o.Parties) && slices.Equal(j.Judges, o.Judges) &&
		j.DecisionDate == o.DecisionDate && slices.Equal(j.Citations, o.Citations) && j.Language == o.Language &&
		j.PageCount == o.PageCount && j.Text == o.Text && j.RetrievedAt.Equal(o.RetrievedAt)
}

// Party is a litigant as served: the token of its name and its role.
type Party struct {
	Token string
	Role  Role
}

// Role is a party's place in the case.
type Role string

// roles are the roles a party may have, as Indian cause titles name them.
var roles = []Role{
	"petitioner", "respondent", "appellant", "applicant", "plaintiff", "defendant",
	"complainant", "accused", "opposite_party", "intervenor", "caveator", "appellee",
}

// ParseRole returns s as a Role: one of the known roles, in any case, with
// a space or hyphen accepted for the underscore ("opposite party").
func ParseRole(s string) (Role, error) {
	r := Role(strings.NewReplacer(" ", "_", "-", "_").Replace(strings.ToLower(strings.TrimSpace(s))))
	for _, known := range roles {
		if r == known {
			return r, nil
		}
	}
	return "", fmt.Errorf("role %s is not one of %s", source.Quote(s), RoleNames())
}

// RoleNames lists the known roles, comma-separated.
func RoleNames() string {
	names := make([]string, len(roles))
	for i, r := range roles {
		names[i] = string(r)
	}
	return strings.Join(names, ", ")
}

// ErrInvalidID: the string is not a judgment id.
var ErrInvalidID = errors.New("not a judgment id")

// idPrefix starts every judgment id; idChars is the length of its hash.
const (
	idPrefix = "inj_"
	idChars  = 16
)

var idEncoding = base32.NewEncoding("abcdefghijklmnopqrstuvwxyz234567").WithPadding(base32.NoPadding)

// NewID derives a judgment's id: "inj_" and the lower-case base32 of the
// first 10 bytes of SHA-256(court ‖ 0x00 ‖ case number ‖ 0x00 ‖ decision
// date), court and case number with their white space runs made one space
// and upper-cased. The same judgment gets the same id in every run, and
// the id says nothing of the parties.
func NewID(court, caseNumber, decisionDate string) string {
	h := sha256.New()
	for i, part := range []string{court, caseNumber, decisionDate} {
		if i > 0 {
			h.Write([]byte{0})
		}
		h.Write([]byte(strings.ToUpper(strings.Join(strings.Fields(part), " "))))
	}
	return idPrefix + idEncoding.EncodeToString(h.Sum(nil)[:10])
}

// ParseID returns s as a judgment id: "inj_" and 16 characters of a-z and
// 2-7.
func ParseID(s string) (string, error) {
	body, ok := strings.CutPrefix(s, idPrefix)
	if !ok || len(body) != idChars {
		return "", fmt.Errorf("%w: %s: want inj_ and 16 characters a-z, 2-7", ErrInvalidID, source.Quote(s))
	}
	for _, c := range body {
		if (c < 'a' || c > 'z') && (c < '2' || c > '7') {
			return "", fmt.Errorf("%w: %s: want inj_ and 16 characters a-z, 2-7", ErrInvalidID, source.Quote(s))
		}
	}
	return s, nil
}

// Digest returns a digest of every field of j: two judgments have the same
// digest exactly when they hold the same contents, so what is derived from
// a judgment, such as its rendered PDF, can be kept under its id and digest
// and never outlive a change. Fields are written length-prefixed, so no
// two judgments' fields run together the same way.
func (j Judgment) Digest() string {
	h := sha256.New()
	var n [binary.MaxVarintLen64]byte
	field := func(s string) {
		h.Write(n[:binary.PutUvarint(n[:], uint64(len(s)))])
		h.Write([]byte(s))
	}
	for _, s := range []string{j.ID, j.Court, j.Bench, j.CaseNumber, j.Title, j.DecisionDate, j.Language, j.Text,
		strconv.Itoa(j.PageCount), j.RetrievedAt.UTC().Format(time.RFC3339Nano)} {
		field(s)
	}
	for _, list := range [][]string{j.Judges, j.Citations} {
		field(strconv.Itoa(len(list)))
		for _, s := range list {
			field(s)
		}
	}
	field(strconv.Itoa(len(j.Parties)))
	for _, p := range j.Parties {
		field(p.Token)
		field(string(p.Role))
	}
	return idEncoding.EncodeToString(h.Sum(nil)[:20])
}
