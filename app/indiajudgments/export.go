package indiajudgments

import (
	"context"
	"fmt"
	"iter"
	"strings"
	"time"

	"github.com/quarrydata/quarry/app/usecase"

	"github.com/quarrydata/quarry/domain/dataset"
	"github.com/quarrydata/quarry/domain/judgment"
	"github.com/quarrydata/quarry/domain/scope"
	"github.com/quarrydata/quarry/domain/table"
	"github.com/quarrydata/quarry/ports"
)

// judgmentColumns are the columns of an india.judgments export: the
// metadata GET /india/judgments/{judgment_id} answers, parties as their
// tokens, never a text or an original name. Lists are joined with "; ",
// a party written "token (role)".
var judgmentColumns = []table.Column{
	{Name: "judgment_id", Kind: table.String}, {Name: "court", Kind: table.String},
	{Name: "bench", Kind: table.String, Nullable: true}, {Name: "case_number", Kind: table.String},
	{Name: "title", Kind: table.String}, {Name: "parties", Kind: table.String}, {Name: "judges", Kind: table.String},
	{Name: "decision_date", Kind: table.Date}, {Name: "citations", Kind: table.String},
	{Name: "language", Kind: table.String}, {Name: "page_count", Kind: table.Int, Nullable: true},
}

// ListSeparator joins a judgment's parties, judges and citations in an
// export's cell.
const ListSeparator = "; "

// ExportDataset is india.judgments (litigation:read besides the route's
// permissions): the filters of POST /india/search without the query and
// paging, validated as it validates them, every matching judgment's
// metadata by decision date then id. Judgments have no as_of: X-As-Of is
// when they were read.
func (u *Service) ExportDataset() usecase.ExportDataset {
	return usecase.ExportDataset{
		Name:        "india.judgments",
		ID:          dataset.IndiaJudgments,
		Permissions: []scope.Permission{scope.LitigationRead},
		Filters:     []string{"court", "decided_from", "decided_to"},
		Held:        u.JudgmentsProbe().Probe,
		Plan: func(f map[string]string) (usecase.ExportPlan, error) {
			court, from, to, err := parseJudgmentFilters(f["court"], f["decided_from"], f["decided_to"])
			if err != nil {
				return nil, err
			}
			q := ports.JudgmentListQuery{Court: court, DecidedFrom: dateOrEmpty(from), DecidedTo: dateOrEmpty(to)}
			return func(context.Context) (usecase.Export, error) {
				return usecase.Export{Source: judgmentTable{store: u.store, q: q}, AsOf: u.now(), Stem: judgmentStem(q)}, nil
			}, nil
		},
	}
}

func dateOrEmpty(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.Format(time.DateOnly)
}

// judgmentStem names a judgments export: the court (its letters and
// digits, "_" between words; "all" for every court) and the date range,
// such as india_judgments_Supreme_Court_of_India_2018-01-01_all.
func judgmentStem(q ports.JudgmentListQuery) string {
	court := strings.Join(strings.FieldsFunc(q.Court, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9')
	}), "_")
	return fmt.Sprintf("india_judgments_%s_%s_%s", usecase.OrAll(court), usecase.OrAll(q.DecidedFrom), usecase.OrAll(q.DecidedTo))
}

// judgmentTable is the judgments a listing selects, as a table.
type judgmentTable struct {
	store ports.JudgmentStore
	q     ports.JudgmentListQuery
}

func (judgmentTable) Columns() []table.Column { return judgmentColumns }

func (t judgmentTable) Rows(ctx context.Context) iter.Seq2[table.Row, error] {
	return func(yield func(table.Row, error) bool) {
		row := make(table.Row, len(judgmentColumns))
		for j, err := range t.store.JudgmentList(ctx, t.q) {
			if err == nil {
				err = fillJudgmentRow(row, j)
			}
			if err != nil {
				yield(nil, err)
				return
			}
			if !yield(row, nil) {
				return
			}
		}
	}
}

func fillJudgmentRow(row table.Row, j judgment.Judgment) error {
	day, err := table.ParseDay(j.DecisionDate)
	if err != nil {
		return fmt.Errorf("judgment %s: decision %w", j.ID, err)
	}
	parties := make([]string, len(j.Parties))
	for i, p := range j.Parties {
		parties[i] = p.Token + " (" + string(p.Role) + ")"
	}
	row[0], row[1] = table.Value{Str: j.ID}, table.Value{Str: j.Court}
	row[2] = table.Value{Str: j.Bench, Null: j.Bench == ""}
	row[3], row[4] = table.Value{Str: j.CaseNumber}, table.Value{Str: j.Title}
	row[5], row[6] = table.Value{Str: strings.Join(parties, ListSeparator)}, table.Value{Str: strings.Join(j.Judges, ListSeparator)}
	row[7], row[8] = table.Value{Day: day}, table.Value{Str: strings.Join(j.Citations, ListSeparator)}
	row[9] = table.Value{Str: j.Language}
	row[10] = table.Value{Int: int64(j.PageCount), Null: j.PageCount <= 0}
	return nil
}
