package form13f_test

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/quarrydata/quarry/adapters/form13f"
	"github.com/quarrydata/quarry/domain/holdings"
	"github.com/quarrydata/quarry/sampledata"
)

// sampleFilings are the bundled sample's filings, read as today's one-shot
// path (ParseFiles) reads them: real rows from a full submission, XML
// tables and the sample's data-set tables.
func sampleFilings(t *testing.T) []holdings.Filing {
	t.Helper()
	fs, err := form13f.ParseFiles(opener(sampledata.FundHolders), sampledata.FundHoldersFilings, readSubmissions)
	if err != nil {
		t.Fatal(err)
	}
	return fs
}

// asDataSet writes filings as the three tables of a Form 13F data set;
// interleaved deals the rows of the filings out in turn, so no filing's
// rows are contiguous.
func asDataSet(t *testing.T, filings []holdings.Filing, interleaved bool) (sub, cover, info string) {
	t.Helper()
	day := func(d string) string {
		v, err := time.Parse(time.DateOnly, d)
		if err != nil {
			t.Fatal(err)
		}
		return v.Format("02-Jan-2006")
	}
	var s, c strings.Builder
	s.WriteString("ACCESSION_NUMBER\tFILING_DATE\tSUBMISSIONTYPE\tCIK\tPERIODOFREPORT\n")
	c.WriteString("ACCESSION_NUMBER\tAMENDMENTTYPE\tFILINGMANAGER_NAME\n")
	var rows [][]string
	for _, f := range filings {
		fmt.Fprintf(&s, "%s\t%s\t%s\t%s\t%s\n", f.Accession, day(f.FilingDate), f.FormType, f.FundCIK, day(f.ReportPeriod))
		fmt.Fprintf(&c, "%s\t%s\t%s\n", f.Accession, f.Amendment, f.FundName)
		var lines []string
		for _, h := range f.Holdings {
			value := h.Value
			if h.FilingDate < holdings.DollarsCutover.Format(time.DateOnly) {
				value /= 1000
			}
			lines = append(lines, fmt.Sprintf("%s\t%d\t%s\t%s\t%s\t%d\t%d\t%s\t%s\t%s\n",
				h.Accession, h.Row, h.Issuer, h.Class, h.CUSIP, value, h.Shares, h.ShareType, h.PutCall, h.Discretion))
		}
		rows = append(rows, lines)
	}
	var i strings.Builder
	i.WriteString("ACCESSION_NUMBER\tINFOTABLE_SK\tNAMEOFISSUER\tTITLEOFCLASS\tCUSIP\tVALUE\tSSHPRNAMT\tSSHPRNAMTTYPE\tPUTCALL\tINVESTMENTDISCRETION\n")
	if !interleaved {
		for _, lines := range rows {
			i.WriteString(strings.Join(lines, ""))
		}
		return s.String(), c.String(), i.String()
	}
	for n := 0; slices.ContainsFunc(rows, func(l []string) bool { return n < len(l) }); n++ {
		for _, lines := range rows {
			if n < len(lines) {
				i.WriteString(lines[n])
			}
		}
	}
	return s.String(), c.String(), i.String()
}

// streamed checks the data set and collects the batches WriteBatches hands
// on with a batch limit of limit bytes.
func streamed(t *testing.T, sub, cover, info string, limit int64) (batches [][]holdings.Filing) {
	t.Helper()
	set, err := form13f.CheckDataSet(opener(dataSetFS(sub, cover, info)), dataSetNames)
	if err != nil {
		t.Fatal(err)
	}
	err = set.WriteBatches(limit, func(fs []holdings.Filing) error {
		batches = append(batches, fs)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return batches
}

func byAccession(fs []holdings.Filing) []holdings.Filing {
	out := slices.Clone(fs)
	slices.SortFunc(out, func(a, b holdings.Filing) int { return strings.Compare(a.Accession, b.Accession) })
	return out
}

func TestDataSetInBatchesGivesTheOneShotFilings(t *testing.T) {
	want := sampleFilings(t)
	rows := 0
	for _, f := range want {
		rows += len(f.Holdings)
	}
	if len(want) < 5 || rows < 20 {
		t.Fatalf("the sample has %d filings, %d rows: too few to test batches", len(want), rows)
	}
	for _, interleaved := range []bool{false, true} {
		sub, cover, info := asDataSet(t, want, interleaved)
		oneShot, err := parseDataSet(sub, cover, info)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(byAccession(oneShot), byAccession(want)) {
			t.Fatalf("interleaved %v: the data set reads as %+v, the sample as %+v", interleaved, oneShot, want)
		}
		batches := streamed(t, sub, cover, info, 1)
		if len(batches) != len(want) {
			t.Errorf("interleaved %v: %d batches of 1 byte, want one per filing (%d)", interleaved, len(batches), len(want))
		}
		if got := byAccession(slices.Concat(batches...)); !reflect.DeepEqual(got, byAccession(want)) {
			t.Errorf("interleaved %v: batches give %+v, want %+v", interleaved, got, want)
		}
		if whole := streamed(t, sub, cover, info, 1<<20); len(whole) != 1 || !reflect.DeepEqual(whole[0], byAccession(want)) {
			t.Errorf("interleaved %v: a batch of 1 MiB gives %d batches", interleaved, len(whole))
		}
	}
}

func TestDataSetWithAFilingWithoutRowsWritesIt(t *testing.T) {
	want := sampleFilings(t)
	want[0].Holdings = nil
	sub, cover, info := asDataSet(t, want, false)
	got := slices.Concat(streamed(t, sub, cover, info, 1)...)
	if !reflect.DeepEqual(byAccession(got), byAccession(want)) {
		t.Fatalf("got %+v, want %+v", got, want)
	}
}

func TestDataSetRefusesABadLastRowBeforeAnyBatch(t *testing.T) {
	sub, cover, info := asDataSet(t, sampleFilings(t), false)
	last := strings.Count(info, "\n") + 1
	info += "0001816616-21-000007\t999\tX\tCOM\t03783310!\t1\t1\tSH\t\tSOLE\n"
	_, err := form13f.CheckDataSet(opener(dataSetFS(sub, cover, info)), dataSetNames)
	if want := fmt.Sprintf("INFOTABLE.tsv:%d", last); err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("err = %v, want it at %s", err, want)
	}
}

func TestDataSetRefusesATableThatChangedBetweenItsReads(t *testing.T) {
	sub, cover, info := asDataSet(t, sampleFilings(t), false)
	folder := dataSetFS(sub, cover, info)
	set, err := form13f.CheckDataSet(opener(folder), dataSetNames)
	if err != nil {
		t.Fatal(err)
	}
	cut := strings.Index(info, "\n") + 1
	folder["INFOTABLE.tsv"].Data = []byte(info[:cut] + info[strings.Index(info[cut:], "\n")+cut+1:])
	if err := set.WriteBatches(1<<20, func([]holdings.Filing) error { return nil }); err == nil || !strings.Contains(err.Error(), "changed while read") {
		t.Fatalf("err = %v, want the table refused as changed", err)
	}
}
