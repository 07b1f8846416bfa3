package ask

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/quarrydata/quarry/app/chinaprices"
	"github.com/quarrydata/quarry/app/chinasecurities"
	"github.com/quarrydata/quarry/app/fundholders"
	"github.com/quarrydata/quarry/app/indiajudgments"
	"github.com/quarrydata/quarry/app/indiaprices"
	"github.com/quarrydata/quarry/app/readcache"
	"github.com/quarrydata/quarry/app/usecase"
	"github.com/quarrydata/quarry/app/usfilings"
	"github.com/quarrydata/quarry/app/usfinancials"

	"github.com/quarrydata/quarry/domain/dataset"
	"github.com/quarrydata/quarry/domain/pii"
	"github.com/quarrydata/quarry/ports"
)

// AnswererVersion names the extractive answerer below; meta carries it.
const AnswererVersion = "extractive-v1"

// ReasonNoSupportedAnswer is an answer withheld: the data supports none.
const ReasonNoSupportedAnswer = "no_supported_answer"

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

// Answer is Ask's answer: Text is empty and Reason set when the data
// supports no answer.
type Answer struct {
	Text      string
	Reason    string
	Citations []Citation
	Searched  []dataset.ID
	Excluded  []Exclusion
	// Licences are the licences of the datasets Citations cite, one per
	// dataset: an internal-only one may be read, not republished.
	Licences []DatasetLicence
	// Statement is GovernanceStatement.
	Statement string
	AsOf      time.Time
	// Answerer names what wrote the answer: AnswererVersion, or the
	// model answerer's name (chat-v1:<model>).
	Answerer string
}

// Ask answers questions from the datasets a credential may read, citing
// every sentence (spec-gaps A37).
type Service struct {
	fin       *usfinancials.Service
	china     *chinasecurities.Service
	sections  ports.SectionRetriever
	judgments ports.JudgmentRetriever
	// filings serves the filing indexes; the prices and the 13F holders,
	// when set, answer price and holder questions.
	filings     *usfilings.Service
	chinaPrices *chinaprices.Service
	indiaPrices *indiaprices.Service
	holders     *fundholders.Service
	sources     []usecase.DatasetProbe
	// model, when set, answers text questions from retrieved passages;
	// its sentences are kept only where the cited passage supports them.
	model ports.Answerer
	// sentences keeps the retrieved documents' sentences, stemmed.
	sentences sentenceMemo
	// parses keeps what the grammar read in each question.
	parses parseMemo
	// pans keeps whether each string an answer sends is PAN-shaped.
	pans panMemo
}

// WithModel makes a answer text questions through model instead of the
// extractive answerer, which remains the fallback when model fails.
func (a *Service) WithModel(model ports.Answerer) *Service {
	a.model = model
	return a
}

// WithJudgments makes a answer text questions from the India judgments'
// tokenized text too, found through j's index.
func (a *Service) WithJudgments(j *indiajudgments.Service) *Service {
	a.judgments = j
	a.sources = append(a.sources, j.JudgmentsProbe(), j.SearchProbe())
	return a
}

// NewAsk wires Ask over the US statements, the US filing sections (through
// the SectionRetriever port, which Filings implements over its index) and
// the China listings, keeping the sentences of what it reads in shared; a
// nil shared splits them for every question.
func New(fin *usfinancials.Service, china *chinasecurities.Service, filings *usfilings.Service, shared *readcache.Cache) *Service {
	return &Service{fin: fin, china: china, sections: filings, filings: filings,
		sources:   []usecase.DatasetProbe{fin.Probe(), filings.SearchProbe(), filings.IndexProbe(), china.Probe()},
		sentences: newSentenceMemo(shared), parses: newParseMemo(shared), pans: newPANMemo(shared)}
}

// Probe reports Ask available once any dataset it reads holds data. It
// asks the datasets' probes itself: the availability of every dataset is
// built from the probes, Ask's among them.
func (a *Service) Probe() usecase.DatasetProbe {
	return usecase.DatasetProbe{Dataset: dataset.AskRetrieval, Probe: func(ctx context.Context) (bool, error) {
		for _, p := range a.sources {
			if ok, err := p.Probe(ctx); err != nil || ok {
				return ok, err
			}
		}
		return false, nil
	}}
}

// Answer answers q from the datasets r searches (Governance). A question
// the data does not support is an Answer with Reason no_supported_answer,
// not an error; so is a question asking for a person's identifier (a PAN,
// an Aadhaar number, a party's phone or address), which reads nothing.
func (a *Service) Answer(ctx context.Context, q Query, r Reading) (Answer, error) {
	ans := Answer{Searched: r.Searched, Excluded: r.Excluded, Statement: GovernanceStatement, AsOf: q.AsOf, Answerer: AnswererVersion}
	var cited []sentence
	if p := a.parses.of(q.Question); !p.personal {
		var err error
		if cited, err = a.answerSentences(ctx, q, p, r.Searched, &ans); err != nil {
			return Answer{}, err
		}
	}
	cited = slices.DeleteFunc(cited, a.leaksPAN)
	if len(cited) == 0 {
		ans.Reason, ans.Citations, ans.Licences = ReasonNoSupportedAnswer, []Citation{}, []DatasetLicence{}
		return ans, nil
	}
	ans.Text, ans.Citations = numbered(cited)
	ans.Licences = licences(ans.Citations)
	return ans, nil
}

// answerSentences answers q by its kind (p, its parse), from the dataset
// that kind reads when it is searched: a listing question from the China
// listings, a figure question from the US statements, anything else from
// the 10-K sections and the judgments.
func (a *Service) answerSentences(ctx context.Context, q Query, p parsed, searched []dataset.ID, ans *Answer) ([]sentence, error) {
	if out, err := a.recordAnswer(ctx, q, p, searched); len(out) > 0 || err != nil {
		return out, err
	}
	lq, listing := p.listing, p.isListing
	fig, figure := p.figure, p.isFigure
	switch {
	case listing && slices.Contains(searched, dataset.ChinaSecurities):
		out, err := a.listing(ctx, lq, q.AsOf)
		if len(out) > 0 || err != nil || !slices.Contains(searched, dataset.USSearch) {
			return out, err
		}
		// No China listing is named: "Which exchange is Apple's stock
		// traded on?" may be about a 10-K's text.
		return a.text(ctx, q, searched, ans)
	case listing:
	case figure:
		if !slices.Contains(searched, dataset.USFinancials) {
			// A figure is never answered from a filing's text.
			return nil, nil
		}
		out, handled, err := a.figureAnswer(ctx, fig, q.AsOf)
		if handled || err != nil {
			return out, err
		}
		// No held company is named: the question may be about a filing's
		// text ("How did iPhone net sales change in 2024?").
		fallthrough
	default:
		if slices.Contains(searched, dataset.USSearch) || slices.Contains(searched, dataset.IndiaJudgments) {
			return a.text(ctx, q, searched, ans)
		}
	}
	return nil, nil
}

// recordAnswer answers a question about a stored record from the dataset
// holding it, when that dataset is searched: a filing's index, a day's
// prices, a security's 13F holders, a judgment's fields. The first of
// them to answer answers; none answering, the question is read as any
// other.
func (a *Service) recordAnswer(ctx context.Context, q Query, p parsed, searched []dataset.ID) ([]sentence, error) {
	reads := func(ids ...dataset.ID) bool {
		return slices.ContainsFunc(ids, func(id dataset.ID) bool { return slices.Contains(searched, id) })
	}
	answers := []struct {
		asked bool
		read  func() ([]sentence, error)
	}{
		{p.isIndex && reads(dataset.USFilingIndexes), func() ([]sentence, error) { return a.filingIndexAnswer(ctx, p.index, q.AsOf) }},
		{p.isPrice && reads(dataset.ChinaPrices, dataset.IndiaPrices), func() ([]sentence, error) { return a.priceAnswer(ctx, q, p.price, searched) }},
		{p.isHolders && a.holders != nil && reads(dataset.USFundHolders), func() ([]sentence, error) { return a.holdersAnswer(ctx, q, p.holders) }},
		{p.isJudgment && a.judgments != nil && reads(dataset.IndiaJudgments), func() ([]sentence, error) { return a.judgmentAnswer(ctx, q, p.judgment) }},
	}
	for _, ans := range answers {
		if !ans.asked {
			continue
		}
		if out, err := ans.read(); len(out) > 0 || err != nil {
			return out, err
		}
	}
	return nil, nil
}

// numbered writes the cited sentences as an answer's text, each followed by
// its marker, and lists their citations. One citation per source: sentences
// citing the same passage share its marker, numbered in order of first use.
func numbered(cited []sentence) (string, []Citation) {
	var citations []Citation
	parts := make([]string, len(cited))
	markers := map[string]int{}
	for i, s := range cited {
		var marks strings.Builder
		for _, c := range append([]Citation{s.cite}, s.more...) {
			key := c.DocumentID + "#" + c.Fields["field"] + "#" + c.Fields["row"]
			if o := c.Offsets; o != nil {
				key = fmt.Sprintf("%s%s:%d:%d", o.Section, o.Judgment, o.Start, o.End)
			}
			n, ok := markers[key]
			if !ok {
				citations = append(citations, c)
				n = len(citations)
				markers[key] = n
			}
			fmt.Fprintf(&marks, "[%d]", n)
		}
		parts[i] = s.text + " " + marks.String()
	}
	return strings.Join(parts, " "), citations
}

// sentence is one sentence of an answer and the source it comes from;
// a sentence showing arithmetic on figures of several records cites them
// all, the first as cite, the others as more.
type sentence struct {
	text string
	cite Citation
	more []Citation
}

// leaksPAN reports whether s would send a PAN-shaped string to the client,
// in its text or in its citation's title, snippet or fields. Judgments are
// tokenized at ingest, but a PAN printed glued to a word or spaced out can
// slip past the redactor, and a model may write one: every answer is
// scanned before it leaves, and a sentence holding one is dropped rather
// than redacted, since what is left of it could still say whose it is.
func (a *Service) leaksPAN(s sentence) bool {
	c := s.cite
	if a.pans.has(s.text) || a.pans.has(c.Title) || a.pans.has(c.Snippet) {
		return true
	}
	for _, v := range c.Fields {
		if a.pans.has(v) {
			return true
		}
	}
	return false
}

// panMemo keeps whether each string an answer sends holds a PAN-shaped
// run (pii.HasPANShaped): the scan was a third of a figure question's CPU,
// and an answer's titles, snippets and fields are those of the same few
// filings again and again. An entry is used only for the very string it
// was scanned from.
type panMemo struct {
	memo *readcache.Memo[string, bool]
}

// newPANMemo keeps scans in shared, nowhere when it is nil. An entry is
// weighed at twice its string (as key and as source) and a little more.
func newPANMemo(shared *readcache.Cache) panMemo {
	return panMemo{memo: readcache.NewMemo(shared, func(a, b string) bool { return a == b },
		func(s string, _ bool) int { return 2*len(s) + 64 })}
}

// has reports whether s holds a PAN-shaped run, scanned once per string.
func (m panMemo) has(s string) bool {
	return m.memo.Get(s, s, pii.HasPANShaped)
}
