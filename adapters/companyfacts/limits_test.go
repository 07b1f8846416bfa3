package companyfacts_test

import (
	"errors"
	"io"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/quarrydata/quarry/adapters/companyfacts"
	"github.com/quarrydata/quarry/domain/source"
)

// repeated is an endless-looking document: head, then fill repeated until
// size bytes have been read, then tail.
type repeated struct {
	head, tail string
	fill       byte
	size, read int64
}

func (r *repeated) Read(p []byte) (int, error) {
	head, fillEnd := int64(len(r.head)), int64(len(r.head))+r.size
	end := fillEnd + int64(len(r.tail))
	n := 0
	for n < len(p) && r.read < end {
		var m int
		switch {
		case r.read < head:
			m = copy(p[n:], r.head[r.read:])
		case r.read < fillEnd:
			m = int(min(int64(len(p)-n), fillEnd-r.read))
			for i := range p[n : n+m] {
				p[n+i] = r.fill
			}
		default:
			m = copy(p[n:], r.tail[r.read-fillEnd:])
		}
		n += m
		r.read += int64(m)
	}
	if n == 0 {
		return 0, io.EOF
	}
	return n, nil
}

// TestAHugeDocumentIsRefusedInBoundedMemory: 1 GiB of whitespace, or one
// string of 1 GiB, once took 5.3 and 9.0 GB to refuse; the reader stops
// once a document passes source.MaxDocumentBytes.
func TestAHugeDocumentIsRefusedInBoundedMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("reads 256 MiB per case")
	}
	cases := map[string]*repeated{
		"whitespace":    {head: `{"cik":320193,"entityName":"Apple","facts":{}}`, fill: ' ', size: 1 << 30},
		"a long string": {head: `{"cik":320193,"entityName":"`, tail: `","facts":{}}`, fill: 'A', size: 1 << 30},
	}
	for name, doc := range cases {
		t.Run(name, func(t *testing.T) {
			src := companyfacts.Source{Name: "CIK0000320193.json", Open: func() (io.ReadCloser, error) { return io.NopCloser(doc), nil }}
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			var err error
			for _, err = range companyfacts.Stream([]companyfacts.Source{src}, nil) {
				break
			}
			runtime.ReadMemStats(&after)
			if !errors.Is(err, source.ErrTooLarge) || !strings.Contains(err.Error(), "CIK0000320193.json: larger than 256 MiB") {
				t.Fatalf("err = %v", err)
			}
			if doc.read > source.MaxDocumentBytes+1 {
				t.Fatalf("read %d bytes of a document refused at %d", doc.read, source.MaxDocumentBytes)
			}
			if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 3*source.MaxDocumentBytes {
				t.Fatalf("allocated %d MiB", alloc>>20)
			}
		})
	}
}

// TestARefusalQuotesAShortPrefix: a 100 MB accession number, within the
// document bound, is cited by its first 64 characters and its length.
func TestARefusalQuotesAShortPrefix(t *testing.T) {
	accn := strings.Repeat("9", 100<<20)
	doc := `{"cik":320193,"entityName":"Apple","facts":{"us-gaap":{"Revenues":{"units":{"USD":[` +
		`{"end":"2024-09-28","val":1,"accn":"` + accn + `","fy":2024,"fp":"FY","form":"10-K","filed":"2024-11-01"}]}}}}}`
	_, err := companyfacts.Parse("CIK0000320193.json", []byte(doc), time.Now())
	if !errors.Is(err, source.ErrBadInput) || !strings.Contains(err.Error(), "USD[0].accn: ") || !strings.Contains(err.Error(), strings.Repeat("9", 64)+`"…(104857600 bytes)`) {
		t.Fatalf("err = %.300v", err)
	}
	if len(err.Error()) > 512 {
		t.Fatalf("the refusal is %d bytes long", len(err.Error()))
	}
}
