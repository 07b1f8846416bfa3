package filing

import (
	"strings"
	"time"
)

// Section is the text of one item of a filing's primary document, the unit
// that search indexes and whose offsets results point into.
type Section struct {
	// ID names the section: the accession number and the item, for
	// example 0000320193-24-000123/1A.
	ID         string
	Accession  string
	CIK        string
	Ticker     string
	Form       string
	Filed      time.Time
	ItemNumber string
	ItemName   string
	// Text is the item's plain text, heading included; offsets into it
	// count Unicode code points.
	Text        string
	RetrievedAt time.Time
}

// SectionID names the section of an item of a filing.
func SectionID(accession, item string) string { return accession + "/" + item }

// itemNames are the items of Form 10-K (Regulation S-K), by number.
var itemNames = map[string]string{
	"1":  "Business",
	"1A": "Risk Factors",
	"1B": "Unresolved Staff Comments",
	"1C": "Cybersecurity",
	"2":  "Properties",
	"3":  "Legal Proceedings",
	"4":  "Mine Safety Disclosures",
	"5":  "Market for Registrant's Common Equity, Related Stockholder Matters and Issuer Purchases of Equity Securities",
	"6":  "[Reserved]",
	"7":  "Management's Discussion and Analysis of Financial Condition and Results of Operations",
	"7A": "Quantitative and Qualitative Disclosures About Market Risk",
	"8":  "Financial Statements and Supplementary Data",
	"9":  "Changes in and Disagreements with Accountants on Accounting and Financial Disclosure",
	"9A": "Controls and Procedures",
	"9B": "Other Information",
	"9C": "Disclosure Regarding Foreign Jurisdictions that Prevent Inspections",
	"10": "Directors, Executive Officers and Corporate Governance",
	"11": "Executive Compensation",
	"12": "Security Ownership of Certain Beneficial Owners and Management and Related Stockholder Matters",
	"13": "Certain Relationships and Related Transactions, and Director Independence",
	"14": "Principal Accountant Fees and Services",
	"15": "Exhibits and Financial Statement Schedules",
	"16": "Form 10-K Summary",
}

// itemOrder lists the items in the order a report presents them.
var itemOrder = []string{"1", "1A", "1B", "1C", "2", "3", "4", "5", "6", "7", "7A", "8", "9", "9A", "9B", "9C", "10", "11", "12", "13", "14", "15", "16"}

// ItemRank returns the position of an item in report order, or -1.
func ItemRank(number string) int {
	for i, n := range itemOrder {
		if strings.EqualFold(n, number) {
			return i
		}
	}
	return -1
}

// SplitsIntoItems reports whether a form's primary document is organised in
// the Form 10-K items, so that its text can be split into sections.
func SplitsIntoItems(form string) bool {
	switch strings.ToUpper(form) {
	case "10-K", "10-K/A", "10-K405", "10-KT", "10-KT/A":
		return true
	}
	return false
}

// FinalItem is the item every whole annual report reaches: Item 15,
// Exhibits and Financial Statement Schedules, which Form 10-K requires of
// every filer. Item 16, Form 10-K Summary, comes after it but cannot mark
// the end: it is optional, was only added in 2016, and many reports leave
// it out.
const FinalItem = "15"

// EndsAtFinalItem reports whether a report of form must reach FinalItem to
// be whole: an original annual report does; an amendment (10-K/A, 10-KT/A)
// restates only the items it changes and need not.
func EndsAtFinalItem(form string) bool {
	switch strings.ToUpper(form) {
	case "10-K", "10-K405", "10-KT":
		return true
	}
	return false
}

// ItemName returns the name of a Form 10-K item, and whether it is one.
func ItemName(number string) (string, bool) {
	n, ok := itemNames[strings.ToUpper(number)]
	return n, ok
}
