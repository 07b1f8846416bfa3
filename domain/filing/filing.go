// Package filing holds the rules of EDGAR filings as Quarry serves them: the
// roles of a filing's files, where EDGAR publishes them, and the items of an
// annual or quarterly report that its text is split into for search.
package filing

import (
	"path"
	"regexp"
	"strings"
	"time"
)

// Role says what a file is within its filing.
type Role string

// The roles of a filing's files, as the OpenAPI document enumerates them.
const (
	RolePrimary        Role = "primary_document"
	RoleExhibit        Role = "exhibit"
	RoleXBRLInstance   Role = "xbrl_instance"
	RoleXBRLSchema     Role = "xbrl_schema"
	RoleXBRLLinkbase   Role = "xbrl_linkbase"
	RoleGraphic        Role = "graphic"
	RoleFullSubmission Role = "full_submission"
	RoleOther          Role = "other"
)

// File is one entry of a filing's index.
type File struct {
	Name string
	Role Role
	// Stored says whether Quarry holds the bytes; SHA256 is empty otherwise.
	Stored      bool
	ContentType string
	SHA256      string
	// Size is the byte size, or -1 when neither a stored copy nor EDGAR's
	// listing gives one.
	Size int64
}

// Filing is one EDGAR submission and the index of its files.
type Filing struct {
	Accession       string // dashed canonical form
	CIK             string // 10 digits
	Ticker          string
	Form            string
	Filed           time.Time // filing date, UTC midnight
	PrimaryDocument string
	Files           []File
	RetrievedAt     time.Time
}

// Directory returns the filing's folder on EDGAR, for example
// /Archives/edgar/data/320193/000032019324000123.
func Directory(cik, accession string) string {
	return "/Archives/edgar/data/" + strings.TrimLeft(cik, "0") + "/" + strings.ReplaceAll(accession, "-", "")
}

// SECURL returns the address of one of the filing's files on EDGAR.
func SECURL(cik, accession, name string) string {
	return "https://www.sec.gov" + Directory(cik, accession) + "/" + name
}

var (
	exhibitName  = regexp.MustCompile(`(?i)(exhibit|ex-?\d)`)
	linkbaseName = regexp.MustCompile(`(?i)_(cal|def|lab|pre)\.xml$`)
)

// RoleOf derives a file's role from its name, given the filing's accession
// number and primary document. Order matters: an XBRL instance of the
// primary document ends in _htm.xml and must not count as other XML.
func RoleOf(name, accession, primary string) Role {
	lower := strings.ToLower(name)
	switch ext := path.Ext(lower); {
	case name == primary:
		return RolePrimary
	case lower == accession+".txt":
		return RoleFullSubmission
	case strings.HasSuffix(lower, "_htm.xml"):
		return RoleXBRLInstance
	case linkbaseName.MatchString(lower):
		return RoleXBRLLinkbase
	case ext == ".xsd":
		return RoleXBRLSchema
	case ext == ".jpg" || ext == ".jpeg" || ext == ".gif" || ext == ".png":
		return RoleGraphic
	case exhibitName.MatchString(lower):
		return RoleExhibit
	}
	return RoleOther
}
