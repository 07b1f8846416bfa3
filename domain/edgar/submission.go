package edgar

import "time"

// Submission is what the SEC's list of a company's submissions
// (data.sec.gov/submissions/CIK##########.json) says about one filing: who
// filed it, which form, on which day, for which period, and which of its
// files is the primary document. The readers of filing folders and of 13F
// information tables both identify a filing by it.
type Submission struct {
	CIK             string // the filer's, 10 digits
	Name            string // the filer's EDGAR name
	Ticker          string
	Form            string
	Filed           time.Time
	ReportDate      string // YYYY-MM-DD, empty when the list gives none
	PrimaryDocument string
}
