package ingest_test

import (
	"archive/zip"
	"bytes"
	"context"
	"errors"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/quarrydata/quarry/adapters/memory"
	"github.com/quarrydata/quarry/domain/judgment"
	"github.com/quarrydata/quarry/domain/pii"
	"github.com/quarrydata/quarry/domain/source"
	"github.com/quarrydata/quarry/ingest"
	"github.com/quarrydata/quarry/ports"
)

// kalawatiZip is a delivery of one real Supreme Court judgment's metadata
// (Kalawati (d) through LRs v Rakesh Kumar, 2018) and an excerpt of its
// text, in a folder of the archive.
func kalawatiZip(t testing.TB) []byte { return kalawatiZipNamed(t, "kalawati.txt") }

// kalawatiZipNamed is kalawatiZip with the text entry named text.
func kalawatiZipNamed(t testing.TB, text string) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, f := range [][2]string{
		{"2018-02/meta.jsonl", `{"court":"Supreme Court of India","case_number":"Civil Appeal No. 2244 of 2018","title":"Kalawati (d), through Lrs. and others v Rakesh Kumar and others",` +
			`"parties":[{"name":"Kalawati","role":"appellant"},{"name":"Rakesh Kumar","role":"respondent"}],"decision_date":"2018-02-16","text_file":"kalawati.txt"}` + "\n"},
		{"2018-02/" + text, "4. The appellants (Kalawati and others) are aggrieved by the judgment and decree dated 10th December, 2013.\n"},
	} {
		w, err := zw.Create(f[0])
		if err != nil {
			t.Fatal(err)
		}
		_, _ = w.Write([]byte(f[1]))
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// storedJudgments returns every judgment store holds.
func storedJudgments(t *testing.T, store ports.JudgmentStore) []judgment.Judgment {
	t.Helper()
	versions, _, err := store.JudgmentVersions(context.Background(), 0)
	if err != nil {
		t.Fatal(err)
	}
	js, err := store.JudgmentsByID(context.Background(), slices.Collect(maps.Keys(versions)))
	if err != nil {
		t.Fatal(err)
	}
	return js
}

// FuzzJudgmentArchive reads arbitrary bytes as a delivery zip: it is
// written whole or refused with source.ErrBadInput naming the archive,
// writing nothing, never a panic; what it writes names no party in clear.
func FuzzJudgmentArchive(f *testing.F) {
	valid := kalawatiZip(f)
	f.Add(valid)
	f.Add(valid[:len(valid)/2])
	key, err := pii.NewKey(bytes.Repeat([]byte{7}, 32))
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		name := filepath.Join(t.TempDir(), "delivery.zip")
		if err := os.WriteFile(name, data, 0o600); err != nil {
			t.Fatal(err)
		}
		store := memory.NewJudgments()
		_, err := ingest.IngestJudgmentFiles(context.Background(), key, store, memory.NewVault(), []string{name})
		js := storedJudgments(t, store)
		if err != nil {
			if len(js) != 0 {
				t.Fatalf("a refused archive wrote %d judgments", len(js))
			}
			if !errors.Is(err, source.ErrBadInput) || !strings.Contains(err.Error(), "delivery.zip") {
				t.Fatalf("refusal %v is not ErrBadInput naming the archive", err)
			}
			return
		}
		if len(js) == 0 {
			t.Fatal("accepted an archive with no judgment")
		}
		for _, j := range js {
			for _, p := range j.Parties {
				if !pii.IsToken(p.Token) {
					t.Fatalf("party %+v is not a token", p)
				}
			}
		}
	})
}

// TestAJudgmentArchiveIsReadInPlace: a delivery zip is tokenized like its
// metadata file and texts on disk; one without a metadata file, or whose
// metadata names a text it lacks, is refused saying so.
func TestAJudgmentArchiveIsReadInPlace(t *testing.T) {
	key, _ := pii.NewKey(bytes.Repeat([]byte{7}, 32))
	dir := t.TempDir()
	write := func(name string, data []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	ctx, store, vault := context.Background(), memory.NewJudgments(), memory.NewVault()
	got, err := ingest.IngestJudgmentFiles(ctx, key, store, vault, []string{write("k.zip", kalawatiZip(t))})
	js := storedJudgments(t, store)
	if err != nil || got != (ingest.JudgmentCounts{Read: 1, Records: 1, Tokens: got.Tokens}) || got.Tokens < 2 || len(js) != 1 ||
		strings.Contains(js[0].Text+js[0].Title, "Kalawati") {
		t.Fatalf("%+v, %+v, %v", js, got, err)
	}
	if e, err := vault.Reveal(ctx, js[0].Parties[0].Token); err != nil || e.Original != "Kalawati" {
		t.Fatalf("vault: %+v, %v", e, err)
	}
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	w, _ := zw.Create("2018-02/kalawati.txt")
	_, _ = w.Write([]byte("text\n"))
	_ = zw.Close()
	if _, err := ingest.IngestJudgmentFiles(ctx, key, store, nil, []string{write("texts.zip", buf.Bytes())}); err == nil || !strings.Contains(err.Error(), "no metadata file") {
		t.Fatalf("an archive of texts only: %v", err)
	}
	missing := kalawatiZipNamed(t, "other.txt")
	if _, err := ingest.IngestJudgmentFiles(ctx, key, store, nil, []string{write("missing.zip", missing)}); !errors.Is(err, source.ErrBadInput) ||
		!strings.Contains(err.Error(), "text_file kalawati.txt: not in the archive") {
		t.Fatalf("a text not in the archive: %v", err)
	}
}

// TestTheSampleNamesItsJudgesInClear: judges are no PII (spec-gaps B25),
// so no judge of the bundled sample is served with a token in the name.
func TestTheSampleNamesItsJudgesInClear(t *testing.T) {
	js, err := ingest.LoadJudgmentsSample()
	if err != nil {
		t.Fatal(err)
	}
	for _, j := range js {
		for _, judge := range j.Judges {
			for _, w := range strings.Fields(judge) {
				if pii.IsToken(strings.Trim(w, ".,")) {
					t.Errorf("%s: judge %q holds a token", j.ID, judge)
				}
			}
		}
	}
}
