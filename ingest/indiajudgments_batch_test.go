package ingest

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode"

	"github.com/quarrydata/quarry/adapters/memory"
	"github.com/quarrydata/quarry/domain/judgment"
	"github.com/quarrydata/quarry/domain/pii"
	"github.com/quarrydata/quarry/domain/source"
	"github.com/quarrydata/quarry/ports"
)

// sampleMetadata lays the bundled sample's real judgments out as their
// sources publish them, split in two metadata files, a.jsonl and
// b.jsonl: each judgment's metadata (its parties named by the sample's
// tokens, which a run tokenizes again) and its text in a file beside.
func sampleMetadata(t *testing.T) map[string]string {
	t.Helper()
	js, err := LoadJudgmentsSample()
	if err != nil || len(js) < 4 {
		t.Fatal(len(js), err)
	}
	files := map[string]string{}
	for i, j := range js {
		parties := make([]map[string]string, len(j.Parties))
		for k, p := range j.Parties {
			parties[k] = map[string]string{"name": p.Token, "role": string(p.Role)}
		}
		text := fmt.Sprintf("j%02d.txt", i)
		line, err := json.Marshal(map[string]any{"court": j.Court, "bench": j.Bench, "case_number": j.CaseNumber, "title": j.Title,
			"parties": parties, "judges": j.Judges, "decision_date": j.DecisionDate, "citations": j.Citations,
			"language": j.Language, "page_count": j.PageCount, "text_file": text})
		if err != nil {
			t.Fatal(err)
		}
		meta := "a.jsonl"
		if i >= len(js)/2 {
			meta = "b.jsonl"
		}
		files[meta] += string(line) + "\n"
		files[text] = j.Text
	}
	return files
}

// retrieved is when the test's files were modified, so that the same
// judgments from files and from an archive are equal.
var retrieved = time.Date(2026, 11, 27, 0, 0, 0, 0, time.UTC)

// onDisk writes files into a new folder and returns it.
func onDisk(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, body := range files {
		writeRetrieved(t, filepath.Join(dir, name), []byte(body))
	}
	return dir
}

func writeRetrieved(t *testing.T, name string, data []byte) {
	t.Helper()
	if err := os.WriteFile(name, data, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(name, retrieved, retrieved); err != nil {
		t.Fatal(err)
	}
}

// zipped writes files into a new zip archive, in a folder of it, and
// returns its path.
func zipped(t *testing.T, files map[string]string) string {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for name, body := range files {
		w, err := zw.Create("delivery/" + name)
		if err != nil {
			t.Fatal(err)
		}
		_, _ = w.Write([]byte(body))
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	name := filepath.Join(t.TempDir(), "delivery.zip")
	writeRetrieved(t, name, buf.Bytes())
	return name
}

// judgmentWrites records a run's writes in order, and checks, as each
// batch of judgments is written, that the vault reveals every token the
// batch holds.
type judgmentWrites struct {
	ports.JudgmentStore
	vault *memory.Vault
	// known holds the tokens of the run in one batch, to tell them from
	// the sample's own tokens its texts hold; nil for that run.
	known  ports.Vault
	t      *testing.T
	writes []string // "vault N" (entries) and "store N" (judgments)
}

func newJudgmentWrites(t *testing.T, known ports.Vault) *judgmentWrites {
	w := &judgmentWrites{JudgmentStore: memory.NewJudgments(), vault: memory.NewVault(), known: known, t: t}
	if known == nil {
		w.known = w.vault
	}
	return w
}

func (w *judgmentWrites) Put(ctx context.Context, entries []pii.Entry) error {
	w.writes = append(w.writes, fmt.Sprintf("vault %d", len(entries)))
	return w.vault.Put(ctx, entries)
}

func (w *judgmentWrites) Reveal(ctx context.Context, token string) (pii.Entry, error) {
	return w.vault.Reveal(ctx, token)
}

func (w *judgmentWrites) UpsertJudgments(ctx context.Context, js []judgment.Judgment) (int, error) {
	w.writes = append(w.writes, fmt.Sprintf("store %d", len(js)))
	for _, j := range js {
		for _, tok := range tokensOf(j, w.known) {
			if _, err := w.vault.Reveal(ctx, tok); err != nil {
				w.t.Errorf("judgment %s is written before the vault holds its token %s: %v", j.ID, tok, err)
			}
		}
	}
	return w.JudgmentStore.UpsertJudgments(ctx, js)
}

// tokensOf lists the tokens a judgment holds: its parties' and those in
// its title and text that known reveals (the sample's texts hold tokens
// of their own, tokenized when it was assembled, whose mapping is kept
// nowhere).
func tokensOf(j judgment.Judgment, known ports.Vault) []string {
	var out []string
	for _, p := range j.Parties {
		out = append(out, p.Token)
	}
	words := strings.FieldsFunc(j.Title+" "+j.Text, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_' })
	for _, w := range words {
		if _, err := known.Reveal(context.Background(), w); pii.IsToken(w) && err == nil {
			out = append(out, w)
		}
	}
	return out
}

// stored returns every judgment the store holds, by id.
func stored(t *testing.T, s ports.JudgmentStore) []judgment.Judgment {
	t.Helper()
	versions, _, err := s.JudgmentVersions(context.Background(), 0)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for id := range versions {
		ids = append(ids, id)
	}
	js, err := s.JudgmentsByID(context.Background(), ids)
	if err != nil {
		t.Fatal(err)
	}
	return js
}

var testKey, _ = pii.NewKey(bytes.Repeat([]byte{7}, 32))

// run writes the judgments of names into w, in batches of limit bytes.
func (w *judgmentWrites) run(names []string, limit int) (JudgmentCounts, error) {
	return writeJudgmentBatches(context.Background(), &judgmentBatch{key: testKey, store: w, vault: w}, names, limit)
}

// TestJudgmentsAreWrittenInBatchesVaultFirst: a run over two metadata
// files, in batches of a few judgments, writes every judgment and every
// token, each batch's tokens to the vault before its judgments, as one
// batch does; an archive of the same files is written alike.
func TestJudgmentsAreWrittenInBatchesVaultFirst(t *testing.T) {
	files := sampleMetadata(t)
	dir := onDisk(t, files)
	names := []string{filepath.Join(dir, "a.jsonl"), filepath.Join(dir, "b.jsonl")}
	whole := newJudgmentWrites(t, nil)
	want, err := whole.run(names, math.MaxInt)
	if err != nil || want.Read < 4 || want.Records != want.Read || want.Tokens == 0 || !slices.Equal(whole.writes, []string{fmt.Sprintf("vault %d", want.Tokens), fmt.Sprintf("store %d", want.Read)}) {
		t.Fatalf("in one batch: %+v, writes %v, %v", want, whole.writes, err)
	}
	for label, names := range map[string][]string{"files": names, "archive": {zipped(t, files)}} {
		t.Run(label, func(t *testing.T) {
			w := newJudgmentWrites(t, whole.vault)
			got, err := w.run(names, 40<<10)
			if err != nil || got != want {
				t.Fatalf("in batches: %+v, %v; want %+v", got, err, want)
			}
			if len(w.writes) < 6 {
				t.Fatalf("writes %v: want several batches", w.writes)
			}
			for i, op := range w.writes {
				if strings.HasPrefix(op, "vault") != (i%2 == 0) {
					t.Fatalf("writes %v: want a vault write before each batch of judgments", w.writes)
				}
			}
			all := stored(t, whole)
			if got := stored(t, w); !slices.EqualFunc(got, all, judgment.Judgment.Equal) {
				t.Fatalf("stored %d judgments, unlike the %d of one batch", len(got), len(all))
			}
			for _, j := range all {
				for _, tok := range tokensOf(j, whole.vault) {
					if _, err := w.Reveal(context.Background(), tok); err != nil {
						t.Fatalf("token %s of %s: %v", tok, j.ID, err)
					}
				}
			}
		})
	}
}

// TestABadTextInTheSecondFileWritesNothing: a text that fails its checks,
// or is missing, in the second metadata file or archive of a run refuses
// the run before anything is written, to the documents or the vault,
// however small the batches.
func TestABadTextInTheSecondFileWritesNothing(t *testing.T) {
	files := sampleMetadata(t)
	last := strings.Split(strings.TrimSpace(files["b.jsonl"]), "\n")
	var line struct {
		Text string `json:"text_file"`
	}
	if err := json.Unmarshal([]byte(last[len(last)-1]), &line); err != nil {
		t.Fatal(err)
	}
	bad := map[string]string{}
	for name, body := range files {
		bad[name] = body
	}
	bad[line.Text] = "\xff\n"
	missing := map[string]string{"a.jsonl": files["a.jsonl"], "b.jsonl": files["b.jsonl"]}
	for name, body := range files {
		if strings.HasSuffix(name, ".txt") && name != line.Text {
			missing[name] = body
		}
	}
	dir, badDir := onDisk(t, files), onDisk(t, bad)
	for label, c := range map[string]struct {
		names []string
		want  string
	}{
		"not UTF-8": {[]string{filepath.Join(badDir, "a.jsonl"), filepath.Join(badDir, "b.jsonl")},
			fmt.Sprintf("b.jsonl:%d: text_file %s", len(last), line.Text)},
		"missing in an archive": {[]string{filepath.Join(dir, "a.jsonl"), zipped(t, missing)},
			fmt.Sprintf("delivery/b.jsonl:%d: text_file %s: not in the archive", len(last), line.Text)},
	} {
		t.Run(label, func(t *testing.T) {
			w := newJudgmentWrites(t, nil)
			got, err := w.run(c.names, 1)
			if !errors.Is(err, source.ErrBadInput) || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %v, want ErrBadInput naming %q", err, c.want)
			}
			if got != (JudgmentCounts{}) || len(w.writes) != 0 || len(stored(t, w)) != 0 {
				t.Fatalf("a refused run wrote %v (%+v)", w.writes, got)
			}
		})
	}
}
