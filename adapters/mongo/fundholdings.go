package mongo

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"

	"go.mongodb.org/mongo-driver/v2/bson"
	mongodrv "go.mongodb.org/mongo-driver/v2/mongo"

	"github.com/quarrydata/quarry/domain/holdings"
	"github.com/quarrydata/quarry/ports"
)

// The funds-holding dataset keeps these collections, every document keyed
// by a string _id, because FerretDB pushes down only {_id: <string>}
// filters and scans the collection for anything else:
//
//   - us_security_master: one document per key of a security ("ticker:AAPL",
//     "cusip:037833100", "cik:0000320193"), each holding the whole security;
//   - us_fund_holdings: one document per (CUSIP, report period),
//     "037833100|2023-12-31", holding every fund's rows in that security for
//     that quarter and the reports of every fund with rows in it: what a
//     write rewrites, never read by a lookup;
//   - us_fund_holder_ladders and us_fund_holder_pages: what a lookup reads,
//     laid out from those documents by each write (see fundholderpages.go);
//   - us_13f_filings: one document per filing (its accession number), with
//     the CUSIPs it reports and its rows, packed, so that a reload can remove
//     the rows it replaces and a lookup of one filing reads one document;
//   - us_13f_fund_reports: one document per fund and period,
//     "0001067983|2023-09-30", listing every filing the fund made for the
//     period with the CUSIPs each reports.
//
// A data directory written before the ladders (by a Quarry that read whole
// us_fund_holdings documents) answers no holders until its 13F files are
// loaded again: the reload lays out every (CUSIP, period) it touches.
const (
	masterCollection          = "us_security_master"
	fundHoldingsCollection    = "us_fund_holdings"
	thirteenFFilingCollection = "us_13f_filings"
	fundReportsCollection     = "us_13f_fund_reports"
	// fundPendingCollection holds the marks of the writes of 13F filings
	// not yet published (see fundbatch.go).
	fundPendingCollection = "us_13f_pending"
)

// FundHoldings is the funds-holding-a-security store, on the collections
// above.
type FundHoldings struct {
	db *mongodrv.Database
	// batches marks each write of filings, hidden until it is published.
	batches *batches
}

var _ ports.FundHoldingStore = (*FundHoldings)(nil)

// NewFundHoldings returns the funds-holding store of db.
func NewFundHoldings(db *mongodrv.Database) *FundHoldings {
	return &FundHoldings{db: db, batches: newBatches(db.Collection(fundPendingCollection), "13F filing")}
}

// fundCollection returns one of the dataset's collections.
func (s *FundHoldings) fundCollection(name string) *mongodrv.Collection {
	return s.db.Collection(name)
}

type masterDoc struct {
	Key    string `bson:"_id"`
	Ticker string `bson:"ticker"`
	CIK    string `bson:"cik"`
	CUSIP  string `bson:"cusip"`
	Name   string `bson:"name"`
}

// holdingDoc mirrors holdings.Holding field for field, so the two convert
// directly and a new domain field fails to compile until it is stored.
type holdingDoc struct {
	Accession    string `bson:"accession"`
	Row          int64  `bson:"row"`
	FundCIK      string `bson:"fund_cik"`
	FundName     string `bson:"fund_name"`
	ReportPeriod string `bson:"report_period"`
	FilingDate   string `bson:"filing_date"`
	CUSIP        string `bson:"cusip"`
	Issuer       string `bson:"issuer"`
	Class        string `bson:"class"`
	Shares       int64  `bson:"shares"`
	ShareType    string `bson:"share_type"`
	Value        int64  `bson:"value"`
	PutCall      string `bson:"put_call"`
	Discretion   string `bson:"discretion"`
}

// reportDoc is one filing among a fund's reports for a period; CUSIPs is
// kept in the fund-reports collection only.
type reportDoc struct {
	Accession  string   `bson:"accession"`
	FundCIK    string   `bson:"fund_cik"`
	Period     string   `bson:"report_period"`
	FilingDate string   `bson:"filing_date"`
	Amendment  string   `bson:"amendment,omitempty"`
	CUSIPs     []string `bson:"cusips,omitempty"`
	// Marks bound when the report is seen (see fundbatch.go).
	Marks marks `bson:",inline"`
}

func (r reportDoc) report() holdings.Report {
	return holdings.Report{Accession: r.Accession, FundCIK: r.FundCIK, ReportPeriod: r.Period, FilingDate: r.FilingDate, Amendment: r.Amendment}
}

type fundReportsDoc struct {
	ID      string      `bson:"_id"`
	FundCIK string      `bson:"fund_cik"`
	Period  string      `bson:"report_period"`
	Reports []reportDoc `bson:"reports"`
}

// cusips returns every CUSIP the fund reported for the period, sorted.
func (d *fundReportsDoc) cusips() []string {
	var out []string
	for _, r := range d.Reports {
		out = append(out, r.CUSIPs...)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

type thirteenFFilingDoc struct {
	Accession    string   `bson:"_id"`
	FormType     string   `bson:"form_type"`
	FundCIK      string   `bson:"fund_cik"`
	FundName     string   `bson:"fund_name"`
	ReportPeriod string   `bson:"report_period"`
	FilingDate   string   `bson:"filing_date"`
	Amendment    string   `bson:"amendment,omitempty"`
	CUSIPs       []string `bson:"cusips"`
	// Rows are the filing's rows, packed (see packRows).
	Rows []byte `bson:"rows,omitempty"`
	// Batch is the mark of the write that stored the filing, Digest sums
	// the filing as written, and Prev is the version readers see until
	// Batch is published (see fundbatch.go).
	Batch  string              `bson:"b,omitempty"`
	Digest string              `bson:"digest,omitempty"`
	Prev   *thirteenFFilingDoc `bson:"prev,omitempty"`
}

func fundGroupID(cusip, period string) string { return cusip + "|" + period }

// UpsertMasterSecurities stores each security under its three keys.
func (s *FundHoldings) UpsertMasterSecurities(ctx context.Context, secs []holdings.Security) error {
	var models []mongodrv.WriteModel
	for _, sec := range secs {
		for _, k := range sec.Keys() {
			doc := masterDoc{Key: k.String(), Ticker: sec.Ticker, CIK: sec.CIK, CUSIP: sec.CUSIP, Name: sec.Name}
			models = append(models, fundReplaceByID(k.String(), doc))
		}
	}
	return bulkWrite(ctx, s.fundCollection(masterCollection), "upsert master securities", models)
}

// MasterSecurity returns the security stored under key.
func (s *FundHoldings) MasterSecurity(ctx context.Context, key holdings.Key) (holdings.Security, error) {
	var d masterDoc
	if err := fundFindByID(ctx, s.fundCollection(masterCollection), key.String(), &d); err != nil {
		return holdings.Security{}, translate("find master security "+key.String(), err)
	}
	return holdings.Security{Ticker: d.Ticker, CIK: d.CIK, CUSIP: d.CUSIP, Name: d.Name}, nil
}

// ReplaceThirteenFFilings writes the filings as one batch (see
// fundbatch.go), leaving out those held the same under a published mark:
// it rewrites the (CUSIP, period) documents the filings touch, lays them
// out for lookups, then rewrites the funds' report lists and the filings.
func (s *FundHoldings) ReplaceThirteenFFilings(ctx context.Context, filings []holdings.Filing) error {
	pending, err := s.batches.pendingMarks(ctx)
	if err != nil {
		return err
	}
	olds, err := s.previousFilings(ctx, filings)
	if err != nil {
		return err
	}
	filings, digests := changedThirteenFs(filings, olds, pending)
	if len(filings) == 0 {
		return nil
	}
	return s.batches.publish(ctx, func(mark string) error {
		w := fundWrite{mark: mark, pending: pending, olds: olds, digests: digests}
		return s.replace(ctx, filings, w)
	})
}

// replace writes the filings under w's mark: the funds' report lists are
// worked out first, so that the (CUSIP, period) documents can then be
// rewritten and laid out a few at a time (rewriteGroups), then the report
// lists and the filings are written.
func (s *FundHoldings) replace(ctx context.Context, filings []holdings.Filing, w fundWrite) error {
	funds, before, err := s.replacedReports(ctx, filings, w)
	if err != nil {
		return err
	}
	if err := s.rewriteGroups(ctx, filings, w, funds, before); err != nil {
		return err
	}
	if err := s.writeFundReports(ctx, funds); err != nil {
		return err
	}
	return s.writeFilings(ctx, filings, w)
}

// writeFilings writes the filing documents, bulkChunk at a time, so that
// their packed rows are not all held at once.
func (s *FundHoldings) writeFilings(ctx context.Context, filings []holdings.Filing, w fundWrite) error {
	for start := 0; start < len(filings); start += bulkChunk {
		var models []mongodrv.WriteModel
		for _, f := range filings[start:min(start+bulkChunk, len(filings))] {
			rows, err := packRows(f.Holdings)
			if err != nil {
				return err
			}
			d := thirteenFFilingDoc{
				Accession: f.Accession, FormType: f.FormType, FundCIK: f.FundCIK, FundName: f.FundName,
				ReportPeriod: f.ReportPeriod, FilingDate: f.FilingDate, Amendment: f.Amendment, CUSIPs: f.CUSIPs(),
				Rows: rows, Batch: w.mark, Digest: w.digests[f.Accession],
			}
			if old, ok := w.olds[f.Accession]; ok {
				d.Prev = keptVersion(old, w.pending)
			}
			models = append(models, fundReplaceByID(f.Accession, d))
		}
		if err := bulkWrite(ctx, s.fundCollection(thirteenFFilingCollection), "replace 13F filings", models); err != nil {
			return err
		}
	}
	return nil
}

// previousFilings reads the stored documents of the filings loaded before.
func (s *FundHoldings) previousFilings(ctx context.Context, filings []holdings.Filing) (map[string]thirteenFFilingDoc, error) {
	olds := map[string]thirteenFFilingDoc{}
	for _, f := range filings {
		var old thirteenFFilingDoc
		err := fundFindByID(ctx, s.fundCollection(thirteenFFilingCollection), f.Accession, &old)
		if errors.Is(err, mongodrv.ErrNoDocuments) {
			continue
		}
		if err != nil {
			return nil, translate("find 13F filing", err)
		}
		olds[f.Accession] = old
	}
	return olds, nil
}

// replacedReports loads the report list of every fund and period the
// filings belong to, now or in their previous load, with the filings'
// entries replaced; before holds each list's CUSIPs as loaded.
func (s *FundHoldings) replacedReports(ctx context.Context, filings []holdings.Filing, w fundWrite) (map[string]*fundReportsDoc, map[string][]string, error) {
	docs, before := map[string]*fundReportsDoc{}, map[string][]string{}
	load := func(fund, period string) (*fundReportsDoc, error) {
		id := fund + "|" + period
		if d := docs[id]; d != nil {
			return d, nil
		}
		d := &fundReportsDoc{ID: id, FundCIK: fund, Period: period}
		err := fundFindByID(ctx, s.fundCollection(fundReportsCollection), id, d)
		if err != nil && !errors.Is(err, mongodrv.ErrNoDocuments) {
			return nil, translate("find 13F fund reports "+id, err)
		}
		docs[id], before[id] = d, d.cusips()
		return d, nil
	}
	for _, f := range filings {
		replaced := map[string]bool{f.Accession: true}
		for _, old := range w.held(f.Accession) {
			d, err := load(old.FundCIK, old.ReportPeriod)
			if err != nil {
				return nil, nil, err
			}
			d.Reports = w.reports(d.Reports, replaced, nil)
		}
		d, err := load(f.FundCIK, f.ReportPeriod)
		if err != nil {
			return nil, nil, err
		}
		d.Reports = w.reports(d.Reports, replaced, []reportDoc{{
			Accession: f.Accession, FundCIK: f.FundCIK, Period: f.ReportPeriod, FilingDate: f.FilingDate,
			Amendment: f.Amendment, CUSIPs: f.CUSIPs(),
		}})
	}
	return docs, before, nil
}

// writeFundReports replaces each fund's report list, deleting empty ones.
func (s *FundHoldings) writeFundReports(ctx context.Context, funds map[string]*fundReportsDoc) error {
	var models []mongodrv.WriteModel
	for _, id := range slices.Sorted(maps.Keys(funds)) {
		if d := funds[id]; len(d.Reports) > 0 {
			models = append(models, fundReplaceByID(id, d))
			continue
		}
		models = append(models, mongodrv.NewDeleteOneModel().SetFilter(bson.D{{Key: "_id", Value: id}}))
	}
	return bulkWrite(ctx, s.fundCollection(fundReportsCollection), "replace 13F fund reports", models)
}

// ThirteenFFilingCUSIPs returns the CUSIPs the filing reports.
func (s *FundHoldings) ThirteenFFilingCUSIPs(ctx context.Context, accession string) ([]string, error) {
	var d thirteenFFilingDoc
	if err := fundFindByID(ctx, s.fundCollection(thirteenFFilingCollection), accession, &d); err != nil {
		return nil, translate("find 13F filing "+accession, err)
	}
	pending, err := s.batches.unpublished(ctx, marksOf(d))
	if err != nil {
		return nil, err
	}
	seen, ok := seenVersion(d, pending)
	if !ok {
		return nil, fmt.Errorf("mongo: find 13F filing %s: %w: its write is not published", accession, ports.ErrNotFound)
	}
	return seen.CUSIPs, nil
}

// HoldsThirteenFFilings reports whether any filing is held.
func (s *FundHoldings) HoldsThirteenFFilings(ctx context.Context) (bool, error) {
	return holdsAny(ctx, s.fundCollection(thirteenFFilingCollection), "13F filings")
}

func fundFindByID(ctx context.Context, c *mongodrv.Collection, id string, out any) error {
	return c.FindOne(ctx, bson.D{{Key: "_id", Value: id}}).Decode(out)
}

func fundReplaceByID(id string, doc any) mongodrv.WriteModel {
	return mongodrv.NewReplaceOneModel().SetFilter(bson.D{{Key: "_id", Value: id}}).SetReplacement(doc).SetUpsert(true)
}
