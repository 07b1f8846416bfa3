package app

import (
	"unsafe"

	"github.com/quarrydata/quarry/domain/ashare"
	"github.com/quarrydata/quarry/domain/filing"
	"github.com/quarrydata/quarry/domain/financials"
	"github.com/quarrydata/quarry/domain/holdings"
	"github.com/quarrydata/quarry/domain/judgment"
)

// The weighers below estimate, in bytes, the memory a cached value holds:
// its own struct, the backing arrays of its slices (by capacity) and the
// bytes of its strings. They are estimates: a string shared by two values
// is counted in each, and the allocator's rounding is not counted. unsafe
// is used for Sizeof only, which the compiler answers.

// stringHeader is the size of a string's header, a pointer and a length.
const stringHeader = int(unsafe.Sizeof(""))

func stringBytes(ss ...string) int {
	n := 0
	for _, s := range ss {
		n += len(s)
	}
	return n
}

func stringWeight(s string) int { return stringHeader + len(s) }

func stringsWeight(ss []string) int {
	return int(unsafe.Sizeof(ss)) + cap(ss)*stringHeader + stringBytes(ss...)
}

func securityWeight(s ashare.Security) int {
	return int(unsafe.Sizeof(s)) + stringBytes(s.Code, s.Exchange, s.Board, s.CompanyName, s.ListingDate, s.DelistingDate)
}

func companyWeight(c financials.Company) int {
	var f financials.Fact
	n := int(unsafe.Sizeof(c)) + stringBytes(c.CIK, c.Name) + cap(c.Tickers)*stringHeader + stringBytes(c.Tickers...)
	n += cap(c.Facts) * int(unsafe.Sizeof(f))
	for _, f := range c.Facts {
		n += stringBytes(f.Concept, f.Unit, f.Start, f.End, f.Accession, f.FiscalPeriod, f.Form, f.Filed)
	}
	return n
}

func masterSecurityWeight(s holdings.Security) int {
	return int(unsafe.Sizeof(s)) + stringBytes(s.Ticker, s.CIK, s.CUSIP, s.Name)
}

func heldRowsWeight(h heldRows) int {
	var row holdings.Holding
	var rep holdings.Report
	n := int(unsafe.Sizeof(h)) + cap(h.rows)*int(unsafe.Sizeof(row)) + cap(h.reports)*int(unsafe.Sizeof(rep))
	for _, r := range h.rows {
		n += stringBytes(r.Accession, r.FundCIK, r.FundName, r.ReportPeriod, r.FilingDate, r.CUSIP, r.Issuer,
			r.Class, r.ShareType, r.PutCall, r.Discretion)
	}
	for _, r := range h.reports {
		n += stringBytes(r.Accession, r.FundCIK, r.ReportPeriod, r.FilingDate, r.Amendment)
	}
	return n
}

func judgmentWeight(j judgment.Judgment) int {
	var p judgment.Party
	n := int(unsafe.Sizeof(j)) + stringBytes(j.ID, j.Court, j.Bench, j.CaseNumber, j.Title, j.DecisionDate, j.Language, j.Text)
	n += cap(j.Parties) * int(unsafe.Sizeof(p))
	for _, p := range j.Parties {
		n += stringBytes(p.Token, string(p.Role))
	}
	return n + cap(j.Judges)*stringHeader + stringBytes(j.Judges...) + cap(j.Citations)*stringHeader + stringBytes(j.Citations...)
}

func sectionWeight(s filing.Section) int {
	return int(unsafe.Sizeof(s)) + stringBytes(s.ID, s.Accession, s.CIK, s.Ticker, s.Form, s.ItemNumber, s.ItemName, s.Text)
}

func bytesWeight(b []byte) int { return int(unsafe.Sizeof(b)) + cap(b) }

func barsWeight(bars []ashare.Bar) int {
	var b ashare.Bar
	n := int(unsafe.Sizeof(bars)) + cap(bars)*int(unsafe.Sizeof(b))
	for _, b := range bars {
		n += stringBytes(b.Code, b.TradeDate, b.Source)
	}
	return n
}

func stepsWeight(steps []ashare.Step) int {
	var st ashare.Step
	n := int(unsafe.Sizeof(steps)) + cap(steps)*int(unsafe.Sizeof(st))
	for _, st := range steps {
		n += len(st.Date)
	}
	return n
}
