package app

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/quarrydata/quarry/domain/ashare"
	"github.com/quarrydata/quarry/domain/dataset"
	"github.com/quarrydata/quarry/domain/filing"
	"github.com/quarrydata/quarry/domain/financials"
	"github.com/quarrydata/quarry/domain/judgment"
	"github.com/quarrydata/quarry/domain/pii"
	"github.com/quarrydata/quarry/domain/scope"
	"github.com/quarrydata/quarry/ports"
)

// AnswererVersion names the extractive answerer below; meta carries it.
const AnswererVersion = "extractive-v1"

// Reasons an answer is withheld or a dataset left out of an answer.
const (
	ReasonNoSupportedAnswer   = "no_supported_answer"
	ExcludedNotActivated      = "not_activated"
	ExcludedPermissionMissing = "permission_missing"
	ExcludedLicence           = "licence_internal_only"
	ExcludedNotRequested      = "not_requested"
	ExcludedNotIndexed        = "not_indexed_for_ask"
)

// askSources are the datasets Ask reads, each with the permissions its own
// routes require: Ask never shows a credential what the dataset's route
// would refuse it.
var askSources = []dataset.ID{dataset.USFinancials, dataset.USSearch, dataset.ChinaSecurities, dataset.IndiaJudgments, dataset.IndiaSearch}

// askTogether pairs the datasets Ask reads only as one: India judgments
// are found through India search's index of their tokenized text and
// cited as judgments, so a question reads them when both may be read
// (india:read, litigation:read and search:read), and naming either in
// datasets names both.
var askTogether = map[dataset.ID]dataset.ID{dataset.IndiaJudgments: dataset.IndiaSearch, dataset.IndiaSearch: dataset.IndiaJudgments}

// Governance says on every answer what Ask never reads.
const GovernanceStatement = "Parties and PANs in India judgments are tokens (PTY_, PAN_); Ask searches the tokenized text only, and the PII vault is never read: a party's real name finds nothing of theirs."

// AskRequest is an Ask body as the client sent it.
type AskRequest struct {
	Question      string
	Jurisdictions []string
	Datasets      []string
	AsOf          string
	MaxCitations  *int
}

// AskQuery is a validated AskRequest.
type AskQuery struct {
	Question      string
	Jurisdictions []string
	Datasets      []dataset.ID
	AsOf          time.Time
	MaxCitations  int
}

// Bounds of an Ask request.
const (
	maxQuestionChars   = 2000
	maxCitationsLimit  = 20
	defaultMaxCitation = 5
)

// ParseAsk validates an Ask request against now: a malformed value is
// ErrValidation (422); a dataset outside the jurisdictions given is
// ErrInvalidRequest (400).
func ParseAsk(r AskRequest, now time.Time) (AskQuery, error) {
	q := AskQuery{Question: strings.TrimSpace(r.Question), MaxCitations: defaultMaxCitation}
	if n := utf8.RuneCountInString(r.Question); q.Question == "" || n > maxQuestionChars {
		return q, fmt.Errorf("%w: question must hold 1 to %d characters, not only spaces", ErrValidation, maxQuestionChars)
	}
	for _, j := range r.Jurisdictions {
		if !slices.Contains([]string{"US", "CN", "IN"}, j) {
			return q, fmt.Errorf("%w: jurisdiction %q is not one of US, CN, IN", ErrValidation, j)
		}
		q.Jurisdictions = append(q.Jurisdictions, j)
	}
	for _, raw := range r.Datasets {
		d, ok := dataset.Lookup(dataset.ID(raw))
		if !ok || d.ID == dataset.AskRetrieval {
			return q, fmt.Errorf("%w: datasets: %q is not a dataset of the catalog", ErrValidation, raw)
		}
		if len(q.Jurisdictions) > 0 && !slices.Contains(q.Jurisdictions, d.Jurisdiction) {
			return q, fmt.Errorf("%w: dataset %s is in jurisdiction %s, which jurisdictions leaves out", ErrInvalidRequest, d.ID, d.Jurisdiction)
		}
		q.Datasets = append(q.Datasets, d.ID)
	}
	if r.MaxCitations != nil {
		if *r.MaxCitations < 1 || *r.MaxCitations > maxCitationsLimit {
			return q, fmt.Errorf("%w: max_citations must be an integer from 1 to %d", ErrValidation, maxCitationsLimit)
		}
		q.MaxCitations = *r.MaxCitations
	}
	var err error
	q.AsOf, err = ParseAsOf(r.AsOf, now)
	return q, err
}

// Citation is one source an answer relies on. A passage of a filing
// section has Offsets; a record (a statement row, a listing) has Fields,
// the stored values a record-rendered sentence may use.
type Citation struct {
	Dataset    dataset.ID
	DocumentID string
	Title      string
	Snippet    string
	Offsets    *PassageOffsets
	Fields     map[string]string
	Route      string
}

// PassageOffsets locate a cited passage in a section's or a judgment's
// stored text, in code points, end exclusive.
type PassageOffsets struct {
	// Section is the filing section's id, for a 10-K passage.
	Section string
	// Judgment is the judgment's id, for a passage of a judgment.
	Judgment   string
	Start, End int
}

// Exclusion is a dataset left out of an answer and why.
type Exclusion struct {
	Dataset dataset.ID
	Reason  string
}

// Answer is Ask's answer: Text is empty and Reason set when the data
// supports no answer.
type Answer struct {
	Text      string
	Reason    string
	Citations []Citation
	Searched  []dataset.ID
	Excluded  []Exclusion
	// Statement is GovernanceStatement.
	Statement string
	AsOf      time.Time
	// Answerer names what wrote the answer: AnswererVersion, or the
	// model answerer's name (chat-v1:<model>).
	Answerer string
}

// Ask answers questions from the datasets a credential may read, citing
// every sentence (spec-gaps A37).
type Ask struct {
	fin       *Financials
	china     *China
	sections  ports.SectionRetriever
	judgments ports.JudgmentRetriever
	sources   []DatasetProbe
	// model, when set, answers text questions from retrieved passages;
	// its sentences are kept only where the cited passage supports them.
	model ports.Answerer
	// sentences keeps the retrieved documents' sentences, stemmed.
	sentences *sentenceMemo
}

// WithModel makes a answer text questions through model instead of the
// extractive answerer, which remains the fallback when model fails.
func (a *Ask) WithModel(model ports.Answerer) *Ask {
	a.model = model
	return a
}

// WithJudgments makes a answer text questions from the India judgments'
// tokenized text too, found through j's index.
func (a *Ask) WithJudgments(j *Judgments) *Ask {
	a.judgments = j
	a.sources = append(a.sources, j.JudgmentsProbe(), j.SearchProbe())
	return a
}

// Statuses says whether each dataset is activated; Availability does.
type Statuses interface {
	Status(ctx context.Context, id dataset.ID) (dataset.Status, error)
}

// NewAsk wires Ask over the US statements, the US filing sections (through
// the SectionRetriever port, which Filings implements over its index) and
// the China listings.
func NewAsk(fin *Financials, china *China, filings *Filings) *Ask {
	return &Ask{fin: fin, china: china, sections: filings, sources: []DatasetProbe{fin.Probe(), filings.SearchProbe(), china.Probe()},
		sentences: newSentenceMemo()}
}

// Probe reports Ask available once any dataset it reads holds data. It
// asks the datasets' probes itself: the availability of every dataset is
// built from the probes, Ask's among them.
func (a *Ask) Probe() DatasetProbe {
	return DatasetProbe{Dataset: dataset.AskRetrieval, Probe: func(ctx context.Context) (bool, error) {
		for _, p := range a.sources {
			if ok, err := p.Probe(ctx); err != nil || ok {
				return ok, err
			}
		}
		return false, nil
	}}
}

// Reading is what a question may read for one credential: every dataset
// of the catalog but Ask itself, searched or excluded with its reason.
type Reading struct {
	Searched []dataset.ID
	Excluded []Exclusion
}

// Governance decides which datasets a question over q may read for a
// credential holding scopes. A question that may read nothing is refused
// before it is charged (spec-gaps B55): with ErrForbidden when a dataset it
// asks for is left out only for a permission the key lacks, else with
// ErrValidation; either message lists every exclusion.
func (a *Ask) Governance(ctx context.Context, q AskQuery, scopes []string, st Statuses) (Reading, error) {
	r, err := a.reading(ctx, q, scope.FromStrings(scopes), st)
	if err != nil || len(r.Searched) > 0 {
		return r, err
	}
	listed := make([]string, len(r.Excluded))
	forbidden := false
	for i, e := range r.Excluded {
		listed[i] = string(e.Dataset) + " (" + e.Reason + ")"
		forbidden = forbidden || e.Reason == ExcludedPermissionMissing
	}
	if forbidden {
		return r, fmt.Errorf("%w: nothing to search: the datasets this question could read need permissions the key lacks; excluded: %s",
			ErrForbidden, strings.Join(listed, ", "))
	}
	return r, fmt.Errorf("%w: nothing to search: datasets and jurisdictions leave no dataset Ask reads (%s) that is activated; excluded: %s",
		ErrValidation, strings.Join(askReadable(), ", "), strings.Join(listed, ", "))
}

// askReadable names the datasets Ask can read, for a refusal's message.
func askReadable() []string {
	out := make([]string, len(askSources))
	for i, id := range askSources {
		out[i] = string(id)
	}
	return out
}

// reading sorts every dataset of the catalog but Ask into searched and
// excluded, with the first reason that applies.
func (a *Ask) reading(ctx context.Context, q AskQuery, held []scope.Permission, st Statuses) (Reading, error) {
	var ids []dataset.ID
	reasons := map[dataset.ID]string{}
	for _, d := range dataset.Catalog() {
		if d.ID == dataset.AskRetrieval {
			continue
		}
		reason, err := exclusion(ctx, q, held, d, st)
		if err != nil {
			return Reading{}, err
		}
		ids, reasons[d.ID] = append(ids, d.ID), reason
	}
	var r Reading
	for _, id := range ids {
		reason := reasons[id]
		if partner, ok := askTogether[id]; ok && reason == "" {
			reason = reasons[partner] // read as one: what excludes one excludes both
		}
		if reason == "" {
			r.Searched = append(r.Searched, id)
		} else {
			r.Excluded = append(r.Excluded, Exclusion{Dataset: id, Reason: reason})
		}
	}
	return r, nil
}

func exclusion(ctx context.Context, q AskQuery, held []scope.Permission, d dataset.Dataset, statuses Statuses) (string, error) {
	switch {
	case len(q.Datasets) > 0 && !slices.Contains(q.Datasets, d.ID) && !slices.Contains(q.Datasets, askTogether[d.ID]),
		len(q.Jurisdictions) > 0 && !slices.Contains(q.Jurisdictions, d.Jurisdiction):
		return ExcludedNotRequested, nil
	case !d.Licence.RedistributionAllowed:
		// An answer quotes its sources to the client; a dataset held
		// for internal use only may not be quoted, so Ask never reads it.
		return ExcludedLicence, nil
	}
	st, err := statuses.Status(ctx, d.ID)
	switch {
	case err != nil:
		return "", err
	case !st.Serving():
		return ExcludedNotActivated, nil
	case !slices.Contains(askSources, d.ID):
		return ExcludedNotIndexed, nil
	}
	for _, rt := range d.Routes {
		if len(scope.Missing(held, rt.Permissions)) > 0 {
			return ExcludedPermissionMissing, nil
		}
	}
	return "", nil
}

// Answer answers q from the datasets r searches (Governance). A question
// the data does not support is an Answer with Reason no_supported_answer,
// not an error.
func (a *Ask) Answer(ctx context.Context, q AskQuery, r Reading) (Answer, error) {
	searched := r.Searched
	ans := Answer{Searched: searched, Excluded: r.Excluded, Statement: GovernanceStatement, AsOf: q.AsOf, Answerer: AnswererVersion}
	var cited []sentence
	var err error
	switch lq, fq := parseListingQuestion(q.Question), parseFinancialQuestion(q.Question); {
	case lq != "":
		if slices.Contains(searched, dataset.ChinaSecurities) {
			cited, err = a.listing(ctx, lq, q.AsOf)
		}
	case fq != nil:
		if slices.Contains(searched, dataset.USFinancials) {
			cited, err = a.figure(ctx, *fq, q.AsOf)
		}
	default:
		if slices.Contains(searched, dataset.USSearch) || slices.Contains(searched, dataset.IndiaJudgments) {
			cited, err = a.text(ctx, q, searched, &ans)
		}
	}
	if err != nil {
		return Answer{}, err
	}
	cited = slices.DeleteFunc(cited, leaksPAN)
	if len(cited) == 0 {
		ans.Reason, ans.Citations = ReasonNoSupportedAnswer, []Citation{}
		return ans, nil
	}
	// One citation per source: sentences citing the same passage share
	// its marker, numbered in order of first use.
	parts := make([]string, len(cited))
	markers := map[string]int{}
	for i, s := range cited {
		key := s.cite.DocumentID
		if o := s.cite.Offsets; o != nil {
			key = fmt.Sprintf("%s%s:%d:%d", o.Section, o.Judgment, o.Start, o.End)
		}
		n, ok := markers[key]
		if !ok {
			ans.Citations = append(ans.Citations, s.cite)
			n = len(ans.Citations)
			markers[key] = n
		}
		parts[i] = fmt.Sprintf("%s [%d]", s.text, n)
	}
	ans.Text = strings.Join(parts, " ")
	return ans, nil
}

// sentence is one sentence of an answer and the source it comes from.
type sentence struct {
	text string
	cite Citation
}

// leaksPAN reports whether s would send a PAN-shaped string to the client,
// in its text or in its citation's title, snippet or fields. Judgments are
// tokenized at ingest, but a PAN printed glued to a word or spaced out can
// slip past the redactor, and a model may write one: every answer is
// scanned before it leaves, and a sentence holding one is dropped rather
// than redacted, since what is left of it could still say whose it is.
func leaksPAN(s sentence) bool {
	c := s.cite
	if pii.HasPANShaped(s.text) || pii.HasPANShaped(c.Title) || pii.HasPANShaped(c.Snippet) {
		return true
	}
	for _, v := range c.Fields {
		if pii.HasPANShaped(v) {
			return true
		}
	}
	return false
}

// Listing questions: "When was 贵州茅台 listed?", "贵州茅台什么时候上市?",
// "When was 600519.SH listed?". The subject is a code or the exchange's
// short name; the listings hold no English names (spec-gaps B23), so an
// English name finds nothing.
var listingQuestions = []*regexp.Regexp{
	regexp.MustCompile(`(?i)^when (?:was|did) (.+?) (?:first )?(?:get )?list(?:ed)?\s*[?？]?$`),
	regexp.MustCompile(`(?i)^what (?:is|was) the listing date of (.+?)\s*[?？]?$`),
	regexp.MustCompile(`^(.+?)(?:是)?(?:什么时候|何时|哪天|哪一天|哪年)上市(?:的)?\s*[?？]?$`),
	regexp.MustCompile(`^(.+?)的上市日期(?:是)?(?:什么|哪天)?\s*[?？]?$`),
}

func parseListingQuestion(q string) string {
	for _, re := range listingQuestions {
		if m := re.FindStringSubmatch(q); m != nil {
			return strings.TrimSpace(m[1])
		}
	}
	return ""
}

func (a *Ask) listing(ctx context.Context, subject string, asOf time.Time) ([]sentence, error) {
	var found []ashare.Security
	if code, err := ashare.ParseCode(subject); err == nil {
		sec, err := a.china.Security(ctx, code)
		if err != nil && !errors.Is(err, ports.ErrNotFound) {
			return nil, err
		}
		if err == nil {
			found = append(found, sec)
		}
	} else if hasHan(subject) {
		if found, err = a.china.securities.SecuritiesByName(ctx, subject); err != nil {
			return nil, err
		}
	}
	// One listing only: a name two listings share does not say which.
	if len(found) != 1 || found[0].ListingDate > asOf.Format(time.DateOnly) {
		return nil, nil
	}
	s := found[0]
	fields := map[string]string{"code": s.Code, "company_name": s.CompanyName, "exchange": s.Exchange, "board": s.Board, "listing_date": s.ListingDate}
	text := fmt.Sprintf("%s (%s) was listed on the %s on %s.", s.CompanyName, s.Code, s.Exchange, s.ListingDate)
	if s.DelistingDate != "" {
		fields["delisting_date"] = s.DelistingDate
		text = fmt.Sprintf("%s (%s) was listed on the %s on %s and delisted on %s.", s.CompanyName, s.Code, s.Exchange, s.ListingDate, s.DelistingDate)
	}
	return []sentence{{text: text, cite: Citation{
		Dataset: dataset.ChinaSecurities, DocumentID: s.Code, Title: s.CompanyName + " (" + s.Code + ")",
		Snippet: recordSnippet(fields), Fields: fields, Route: "GET /china/securities/" + s.Code,
	}}}, nil
}

func hasHan(s string) bool {
	for _, r := range s {
		if unicode.Is(unicode.Han, r) {
			return true
		}
	}
	return false
}

// financialQuestion is "What was AAPL's revenue in fiscal 2023?", "…in
// Q2 fiscal 2024?" or "What was Apple's trailing twelve months revenue?".
type financialQuestion struct {
	company string
	field   financials.Field
	period  financials.Period
	// year and quarter ("Q1".."Q4") select the row of an annual or a
	// quarterly question; a ttm question takes the latest row known.
	year    int
	quarter string
}

// The three forms of a financial question; each captures the subject
// ("Apple's revenue") and what selects the row.
var (
	annualQuestionRE  = regexp.MustCompile(`(?i)^what (?:was|were) (?:the )?(.+) (?:in|for) (?:fiscal year|fiscal|fy) ?(\d{4})\s*\??$`)
	quarterQuestionRE = regexp.MustCompile(`(?i)^what (?:was|were) (?:the )?(.+) (?:in|for) (?:the )?(?:q([1-4])|(first|second|third|fourth) (?:fiscal )?quarter)(?: of)? (?:fiscal year|fiscal|fy) ?(\d{4})\s*\??$`)
	ttmQuestionRE     = regexp.MustCompile(`(?i)^what (?:was|were|is) (?:the )?(.+?)\s*\??$`)
	// ttmPhrase marks a question about the trailing twelve months.
	ttmPhrase = regexp.MustCompile(`(?i)\s*(?:\b(?:over|for|in) the )?(?:\bttm\b|\btrailing (?:twelve|12)[- ]months?\b|\blast (?:twelve|12) months\b)`)
)

// quarterWords are the ordinal names of fiscal quarters.
var quarterWords = map[string]string{"first": "Q1", "second": "Q2", "third": "Q3", "fourth": "Q4"}

// metricNames are the phrases naming the concept map's fields.
var metricNames = map[string]string{
	"revenue": "revenue", "revenues": "revenue", "total revenue": "revenue", "net sales": "revenue",
	"cost of revenue": "cost_of_revenue", "gross profit": "gross_profit", "gross margin": "gross_profit",
	"operating income": "operating_income", "net income": "net_income",
	"basic eps": "earnings_per_share_basic", "basic earnings per share": "earnings_per_share_basic",
	"diluted eps": "earnings_per_share_diluted", "diluted earnings per share": "earnings_per_share_diluted", "eps": "earnings_per_share_diluted",
	"total assets": "assets", "assets": "assets", "current assets": "current_assets",
	"cash and cash equivalents": "cash_and_equivalents", "cash": "cash_and_equivalents", "inventory": "inventory",
	"total liabilities": "liabilities", "liabilities": "liabilities", "current liabilities": "current_liabilities",
	"long-term debt": "long_term_debt", "long term debt": "long_term_debt",
	"shareholders' equity": "shareholders_equity", "shareholders equity": "shareholders_equity", "stockholders' equity": "shareholders_equity",
	"operating cash flow": "operating_cash_flow", "cash from operations": "operating_cash_flow",
	"investing cash flow": "investing_cash_flow", "financing cash flow": "financing_cash_flow",
	"capital expenditure": "capital_expenditure", "capital expenditures": "capital_expenditure", "capex": "capital_expenditure",
	"dividends paid": "dividends_paid",
}

func parseFinancialQuestion(q string) *financialQuestion {
	var fq financialQuestion
	var subject string
	if m := quarterQuestionRE.FindStringSubmatch(q); m != nil {
		subject, fq.period, fq.quarter = m[1], financials.Quarterly, "Q"+m[2]
		if m[2] == "" {
			fq.quarter = quarterWords[strings.ToLower(m[3])]
		}
		fq.year, _ = strconv.Atoi(m[4])
	} else if m := annualQuestionRE.FindStringSubmatch(q); m != nil {
		subject, fq.period = m[1], financials.Annual
		fq.year, _ = strconv.Atoi(m[2])
	} else if m := ttmQuestionRE.FindStringSubmatch(q); m != nil && ttmPhrase.MatchString(m[1]) {
		subject, fq.period = strings.TrimSpace(ttmPhrase.ReplaceAllString(m[1], "")), financials.TTM
	} else {
		return nil
	}
	company, name := splitMetric(subject)
	if company == "" {
		return nil
	}
	for _, f := range financials.Fields {
		// A balance is held at a moment, not over twelve months: a ttm
		// question about one has no answer to give.
		if f.Name == name && (fq.period != financials.TTM || f.Measure != financials.Stock) {
			fq.company, fq.field = company, f
			return &fq
		}
	}
	return nil
}

// splitMetric splits "Apple Inc.'s net income" into the company and the
// field the longest metric phrase ending it names; a possessive ending the
// company is dropped.
func splitMetric(subject string) (company, field string) {
	words := strings.Fields(subject)
	for i := 1; i < len(words); i++ {
		name, ok := metricNames[strings.ToLower(strings.Join(words[i:], " "))]
		if !ok {
			continue
		}
		company = strings.Join(words[:i], " ")
		for _, suffix := range []string{"'s", "’s", "'"} {
			company = strings.TrimSuffix(company, suffix)
		}
		return company, name
	}
	return "", ""
}

// figure answers a financial question from the statement row known at
// asOf that it selects, in a sentence rendered from the cited row
// (spec-gaps A37).
func (a *Ask) figure(ctx context.Context, fq financialQuestion, asOf time.Time) ([]sentence, error) {
	p, err := a.company(ctx, fq.company)
	if err != nil || p == nil {
		return nil, err
	}
	p.Period, p.AsOf, p.Limit = string(fq.period), asOf.Format(time.RFC3339Nano), 1000
	sq, err := ParseStatementsQuery(*p, asOf)
	if err != nil {
		return nil, nil
	}
	st, err := a.fin.Statements(ctx, sq, fq.field.Statement)
	if errors.Is(err, ports.ErrNotFound) {
		return nil, nil
	} else if err != nil {
		return nil, err
	}
	for _, r := range st.Pages[fq.field.Statement].Rows {
		if _, ok := r.Values[fq.field.Name]; ok && fq.selects(r) {
			return []sentence{renderFigure(fq, st, r, asOf)}, nil
		}
	}
	return nil, nil
}

// selects reports whether a row is the one the question asks for: its
// fiscal year (and quarter), or for ttm the newest row, rows coming newest
// first.
func (fq financialQuestion) selects(r financials.Row) bool {
	switch fq.period {
	case financials.Quarterly:
		return r.FiscalYear == fq.year && r.FiscalPeriod == fq.quarter
	case financials.TTM:
		return true
	default:
		return r.FiscalYear == fq.year
	}
}

// renderFigure writes the figure's sentence and its citation, every
// number of the sentence a number of the cited row's fields.
func renderFigure(fq financialQuestion, st Statements, r financials.Row, asOf time.Time) sentence {
	value := strconv.FormatFloat(r.Values[fq.field.Name], 'f', -1, 64)
	unit := r.Currency
	if fq.field.Measure == financials.PerShare {
		unit += " per share"
	}
	fields := map[string]string{
		"ticker": st.Ticker, "cik": st.CIK, "field": fq.field.Name, "fiscal_year": strconv.Itoa(r.FiscalYear),
		"fiscal_period": r.FiscalPeriod, "period_start": r.Start, "period_end": r.End, "value": value,
		"currency": r.Currency, "accession_number": r.Accession, "filed": r.Filed,
	}
	span := fmt.Sprintf("(%s to %s)", r.Start, r.End)
	if fq.field.Measure == financials.Stock {
		span = "(at " + r.End + ")"
		delete(fields, "period_start")
	}
	var text, title string
	switch fq.period {
	case financials.Quarterly:
		title = fmt.Sprintf("%s %s, %s of fiscal year %d", st.Ticker, fq.field.Statement, r.FiscalPeriod, r.FiscalYear)
		text = fmt.Sprintf("%s %s for %s of fiscal year %d %s was %s %s, as filed on %s in %s.",
			st.Ticker, fq.field.Name, r.FiscalPeriod, r.FiscalYear, span, value, unit, r.Filed, r.Accession)
	case financials.TTM:
		title = fmt.Sprintf("%s %s, trailing twelve months to %s", st.Ticker, fq.field.Statement, r.End)
		text = fmt.Sprintf("%s %s for the trailing twelve months %s was %s %s, computed from the filings known then, the latest filed on %s in %s.",
			st.Ticker, fq.field.Name, span, value, unit, r.Filed, r.Accession)
	default:
		delete(fields, "fiscal_period")
		title = fmt.Sprintf("%s %s, fiscal year %d", st.Ticker, fq.field.Statement, r.FiscalYear)
		text = fmt.Sprintf("%s %s for fiscal year %d %s was %s %s, as filed on %s in %s.",
			st.Ticker, fq.field.Name, r.FiscalYear, span, value, unit, r.Filed, r.Accession)
	}
	route := fmt.Sprintf("GET /us/financials/%s?ticker=%s&period=%s&as_of=%s",
		strings.ReplaceAll(string(fq.field.Statement), "_", "-"), st.Ticker, fq.period, asOf.Format(time.RFC3339))
	return sentence{text: text, cite: Citation{
		Dataset: dataset.USFinancials, DocumentID: r.Accession + ":" + r.End,
		Title: title, Snippet: recordSnippet(fields), Fields: fields, Route: route,
	}}
}

// company resolves the company a question names: digits are a CIK; a word
// that is a held ticker is that ticker; anything else is a name, resolved
// when exactly one held company has it (financials.NameMatches: "Apple"
// names Apple Inc.). A name two companies share resolves to nothing rather
// than to a guess; so does a name no company has.
func (a *Ask) company(ctx context.Context, named string) (*StatementsParams, error) {
	if strings.Trim(named, "0123456789") == "" {
		return &StatementsParams{CIK: named}, nil
	}
	ticker := strings.ToUpper(named)
	_, err := a.fin.store.CIKForTicker(ctx, ticker)
	switch {
	case err == nil:
		return &StatementsParams{Ticker: ticker}, nil
	case !errors.Is(err, ports.ErrNotFound):
		return nil, err
	}
	ciks, err := a.fin.store.CIKsForName(ctx, named)
	if err != nil || len(ciks) != 1 {
		return nil, err
	}
	return &StatementsParams{CIK: ciks[0]}, nil
}

// recordSnippet shows a record's fields in a fixed order.
func recordSnippet(fields map[string]string) string {
	keys := make([]string, 0, len(fields))
	for k := range fields {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k + ": " + fields[k]
	}
	return strings.Join(parts, "; ")
}

// Text answers: at most this many sentences, each from its own section,
// and only a sentence holding most of the question's content words.
const (
	maxTextSentences  = 2
	retrievedSections = 10
	// minCoverage is the share of the question's content words a
	// sentence must hold, and minMatched how many at least.
	minCoverage = 0.6
	minMatched  = 2
)

// passages answers from the best-matching sentences of the retrieved
// documents.
func (a *Ask) passages(ctx context.Context, q AskQuery, searched []dataset.ID) ([]sentence, error) {
	docs, named, err := a.retrieve(ctx, q, searched)
	if err != nil {
		return nil, err
	}
	words := contentStems(q.Question)
	words = slices.DeleteFunc(words, func(w string) bool { return named[w] })
	need := minMatched
	if len(named) > 0 {
		// A question about a named company may have one content word
		// left ("When was Microsoft founded?").
		need = 1
	}
	if len(words) < need {
		return nil, nil
	}
	// Numbers (years above all) narrow a question but do not say what it
	// is about: a sentence must also hold enough of its other words.
	topical := slices.DeleteFunc(slices.Clone(words), isNumber)
	needTopical := min(need, len(topical))
	type candidate struct {
		doc      retrieved
		sentence docSentence
		score    float64
	}
	var best []candidate
	for _, d := range docs {
		var top *candidate
		for _, sn := range a.sentences.of(d) {
			n := matched(words, sn.stems)
			score := float64(n) / float64(len(words))
			if n < need || matched(topical, sn.stems) < needTopical || score < minCoverage || !sn.proseEnough {
				continue
			}
			if top == nil || score > top.score {
				top = &candidate{doc: d, sentence: sn, score: score}
			}
		}
		if top != nil {
			best = append(best, *top)
		}
	}
	// Highest coverage first; the retriever's order breaks ties.
	slices.SortStableFunc(best, func(x, y candidate) int {
		switch {
		case x.score > y.score:
			return -1
		case x.score < y.score:
			return 1
		}
		return 0
	})
	limit := min(maxTextSentences, q.MaxCitations)
	if need == 1 {
		limit = 1 // one matching word makes a second sentence chance
	}
	var out []sentence
	for _, c := range best {
		sn := c.sentence
		// Later sentences must cover the question as well as the first,
		// and say something the answer does not already say.
		if len(out) == limit || c.score < best[0].score || slices.ContainsFunc(out, func(o sentence) bool { return o.text == sn.said }) {
			continue
		}
		out = append(out, sentence{text: sn.said, cite: c.doc.cite(sn.start, sn.end, sn.span)})
	}
	return out, nil
}

// retrieved is a document retrieved for a text question, a 10-K section or
// a judgment: its stored text, how that splits into sentences, and how a
// span of it is cited.
type retrieved struct {
	// id names the document among all retrieved ones.
	id    string
	text  string
	title string
	split func(string) [][2]int
	// say writes a span of text as a sentence of an answer.
	say func(string) string
	// cite cites the span [start, end) of text, whose text is snippet.
	cite func(start, end int, snippet string) Citation
}

// retrieve returns the documents retrieved for q from the datasets
// searched: the 10-K sections, kept to the companies the question names
// (mentioned), then the judgments, unless the question names a company.
// It also returns the stems of the naming words.
func (a *Ask) retrieve(ctx context.Context, q AskQuery, searched []dataset.ID) ([]retrieved, map[string]bool, error) {
	rq := ports.RetrievalQuery{Text: q.Question, AsOf: q.AsOf, Limit: retrievedSections}
	var docs []retrieved
	named := map[string]bool{}
	if slices.Contains(searched, dataset.USSearch) {
		hits, err := a.sections.Retrieve(ctx, rq)
		if err != nil {
			return nil, nil, err
		}
		if hits, named, err = a.mentioned(ctx, q.Question, hits); err != nil {
			return nil, nil, err
		}
		for _, h := range hits {
			docs = append(docs, sectionDoc(h.Section))
		}
	}
	if a.judgments == nil || len(named) > 0 || !slices.Contains(searched, dataset.IndiaJudgments) {
		return docs, named, nil
	}
	hits, err := a.judgments.Retrieve(ctx, rq)
	if err != nil {
		return nil, nil, err
	}
	for _, h := range hits {
		docs = append(docs, judgmentDoc(h.Judgment))
	}
	return docs, named, nil
}

func sectionDoc(s filing.Section) retrieved {
	title := fmt.Sprintf("%s %s %s, Item %s. %s", s.Ticker, s.Form, s.Accession, s.ItemNumber, s.ItemName)
	return retrieved{id: "section " + s.ID, text: s.Text, title: title, split: Sentences, say: func(s string) string { return s }, cite: func(start, end int, snippet string) Citation {
		return Citation{
			Dataset: dataset.USSearch, DocumentID: s.ID, Title: title, Snippet: snippet,
			Offsets: &PassageOffsets{Section: s.ID, Start: start, End: end}, Route: "POST /us/search",
		}
	}}
}

func judgmentDoc(j judgment.Judgment) retrieved {
	title := fmt.Sprintf("%s, %s, %s (decided %s)", j.Title, j.Court, j.CaseNumber, j.DecisionDate)
	return retrieved{id: "judgment " + j.ID, text: j.Text, title: title, split: JudgmentSentences, say: spoken, cite: func(start, end int, snippet string) Citation {
		return Citation{
			Dataset: dataset.IndiaJudgments, DocumentID: j.ID, Title: title, Snippet: snippet,
			Offsets: &PassageOffsets{Judgment: j.ID, Start: start, End: end}, Route: "GET /india/judgments/" + j.ID,
		}
	}}
}

// mentioned keeps the hits of the companies the question names, by ticker
// or by the first word of the company's name ("Apple's" names Apple Inc.),
// when it names any of the companies hit; it also returns the stems of the
// naming words, which are then no content words to match.
func (a *Ask) mentioned(ctx context.Context, question string, hits []ports.SectionHit) ([]ports.SectionHit, map[string]bool, error) {
	tokens := map[string]bool{}
	for _, w := range strings.FieldsFunc(question, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '\'' && r != '’' }) {
		w = strings.TrimSuffix(strings.TrimSuffix(strings.TrimSuffix(w, "'s"), "’s"), "'")
		tokens[strings.ToLower(w)] = true
	}
	names := map[string][]string{}
	named := map[string]bool{}
	for _, h := range hits {
		cik := h.Section.CIK
		if _, done := names[cik]; done {
			continue
		}
		ids := []string{strings.ToLower(h.Section.Ticker)}
		c, err := a.fin.store.Company(ctx, cik)
		if err != nil && !errors.Is(err, ports.ErrNotFound) {
			return nil, nil, err
		}
		if f := strings.Fields(c.Name); len(f) > 0 {
			ids = append(ids, strings.ToLower(strings.Trim(f[0], ",.")))
		}
		names[cik] = ids
	}
	keep := map[string]bool{}
	for cik, ids := range names {
		for _, id := range ids {
			if id != "" && tokens[id] {
				keep[cik] = true
				for _, st := range contentStems(id) {
					named[st] = true
				}
			}
		}
	}
	if len(keep) == 0 {
		return hits, named, nil
	}
	return slices.DeleteFunc(hits, func(h ports.SectionHit) bool { return !keep[h.Section.CIK] }), named, nil
}

// proseSentence reports whether a span reads as a sentence, not a heading:
// six words or more, ending in a full stop, question or exclamation mark.
func proseSentence(s string) bool {
	return len(strings.Fields(s)) >= 6 && strings.ContainsAny(s[len(s)-1:], ".?!")
}

// JudgmentSentences splits a judgment's text into sentences, as
// code-point ranges [start, end) with surrounding spaces left out. The text
// was extracted from a PDF, so its lines are the printed lines: a sentence
// ends at '.', '?' or '!' followed by white space, and at a line break
// unless the line before it ends in a lower-case letter, a comma, a
// semicolon, a hyphen or an opening bracket, which a printed sentence
// running on to the next line does. Headings, page numbers and neutral
// citations (2015:BHC-OS:12420-DB) end at their line. A full stop ending
// an abbreviation the courts write (No., Ltd., i.e., Rs.) or an initial
// (D. Desai) ends no sentence.
func JudgmentSentences(text string) [][2]int {
	rs := []rune(text)
	var out [][2]int
	start := 0
	flush := func(end int) {
		for start < end && unicode.IsSpace(rs[start]) {
			start++
		}
		e := end
		for e > start && unicode.IsSpace(rs[e-1]) {
			e--
		}
		if e > start {
			out = append(out, [2]int{start, e})
		}
		start = end
	}
	for i, r := range rs {
		switch {
		case r == '\n' && (i == 0 || !runsOn(rs[i-1])):
			flush(i)
		case (r == '.' || r == '?' || r == '!') && i+1 < len(rs) && unicode.IsSpace(rs[i+1]) && (r != '.' || !abbreviated(rs[:i])):
			flush(i + 1)
		}
	}
	flush(len(rs))
	return out
}

// courtAbbreviations are the words judgments abbreviate with a full stop,
// lower-cased, without it.
var courtAbbreviations = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`no nos mr mrs ms dr sr jr smt shri sri ltd pvt co corp inc anr ors vs v viz i.e e.g
		etc rs m/s art arts sec secs cl para paras vol p pp j jj cj hon'ble st govt dept`) {
		courtAbbreviations[w] = true
	}
}

// abbreviated reports whether the word that text ends with is an
// abbreviation or an initial, so a full stop after it ends no sentence.
// "etc." is one, though it often ends a sentence: a sentence that goes on
// is the lesser harm, since an answer's sentence must still end well.
func abbreviated(text []rune) bool {
	i := len(text)
	for i > 0 && !unicode.IsSpace(text[i-1]) && text[i-1] != '(' {
		i--
	}
	word := string(text[i:])
	if rs := []rune(word); len(rs) == 1 && unicode.IsUpper(rs[0]) {
		return true
	}
	return courtAbbreviations[strings.ToLower(word)]
}

// runsOn reports whether a line ending in r may run on to the next line.
func runsOn(r rune) bool {
	return unicode.IsLower(r) || strings.ContainsRune(",;-–(", r)
}

// spoken writes a cited span of a judgment as an answer's sentence: each
// line break, tab or form feed (the breaks of the printed lines and pages)
// as one space, so the sentence has the span's length in code points.
func spoken(span string) string {
	return strings.Map(func(r rune) rune {
		if strings.ContainsRune("\t\n\v\f\r", r) {
			return ' '
		}
		return r
	}, span)
}

// Sentences splits text into sentences, as code-point ranges [start, end)
// with surrounding spaces left out: a sentence ends at a line break, or at
// '.', '?' or '!' followed by a space.
func Sentences(text string) [][2]int {
	rs := []rune(text)
	var out [][2]int
	start := 0
	flush := func(end int) {
		for start < end && unicode.IsSpace(rs[start]) {
			start++
		}
		e := end
		for e > start && unicode.IsSpace(rs[e-1]) {
			e--
		}
		if e > start {
			out = append(out, [2]int{start, e})
		}
		start = end
	}
	for i, r := range rs {
		switch {
		case r == '\n':
			flush(i)
		case (r == '.' || r == '?' || r == '!') && i+1 < len(rs) && rs[i+1] == ' ':
			flush(i + 1)
		}
	}
	flush(len(rs))
	return out
}

// stopWords are left out of the words a sentence must share with a
// question.
var stopWords = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`a an and are as at be by did do does for from has have how in is it its of on or
		our the their this to was were what when where which who why will with about company company's say says said
		describe describes tell me list`) {
		stopWords[w] = true
	}
}

// contentStems lowers a text's words, drops stop words and one-letter
// words, and cuts each to its first five letters, a crude stem that makes
// "risks" meet "risk" and "competition" meet "competitive".
func contentStems(text string) []string {
	seen := map[string]bool{}
	var out []string
	for _, w := range strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		if stopWords[w] || utf8.RuneCountInString(w) < 2 {
			continue
		}
		w = stem(w)
		if !seen[w] {
			seen[w] = true
			out = append(out, w)
		}
	}
	return out
}

// isNumber reports whether a content word is a number, such as a year.
func isNumber(w string) bool {
	_, err := strconv.ParseFloat(w, 64)
	return err == nil
}

func matched(want, have []string) int {
	n := 0
	for _, w := range want {
		if slices.Contains(have, w) {
			n++
		}
	}
	return n
}
