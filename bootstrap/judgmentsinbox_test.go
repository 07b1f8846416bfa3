package bootstrap

import (
	"archive/zip"
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.uber.org/fx"
	"go.uber.org/zap"

	"github.com/quarrydata/quarry/adapters/inbox"
	"github.com/quarrydata/quarry/app/sourcesync"
	"github.com/quarrydata/quarry/ports"
	"github.com/quarrydata/quarry/sampledata"
)

// testVaultKey tokenizes the tests' deliveries; it is a test's, nobody's.
var testVaultKey = bytes.Repeat([]byte{7}, 32)

// sampleDelivery is a delivery zip re-laid from the bundled sample: the 21
// real judgments' metadata as a JSON lines file (their parties' names are
// the sample's tokens, which the run tokenizes again) and each text as a
// file beside it.
func sampleDelivery(t *testing.T) []byte {
	t.Helper()
	data, err := sampledata.IndiaJudgments.ReadFile(sampledata.IndiaJudgmentsFile)
	if err != nil {
		t.Fatal(err)
	}
	var meta bytes.Buffer
	texts := map[string]string{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<24)
	for i := 0; sc.Scan(); i++ {
		var j struct {
			Court, Bench, Title, Language string
			CaseNumber                    string   `json:"case_number"`
			DecisionDate                  string   `json:"decision_date"`
			PageCount                     int      `json:"page_count"`
			Judges, Citations             []string `json:",omitempty"`
			Parties                       []struct{ Token, Role string }
			Text                          string
		}
		if err := json.Unmarshal(sc.Bytes(), &j); err != nil {
			t.Fatal(err)
		}
		parties := make([]map[string]string, len(j.Parties))
		for k, p := range j.Parties {
			parties[k] = map[string]string{"name": p.Token, "role": p.Role}
		}
		text := filepath.Base(t.Name()) + "-" + string(rune('a'+i/26)) + string(rune('a'+i%26)) + ".txt"
		line, err := json.Marshal(map[string]any{"court": j.Court, "bench": j.Bench, "case_number": j.CaseNumber, "title": j.Title,
			"parties": parties, "judges": nonEmpty(j.Judges), "decision_date": j.DecisionDate, "citations": nonEmpty(j.Citations),
			"language": j.Language, "page_count": j.PageCount, "text_file": text})
		if err != nil {
			t.Fatal(err)
		}
		meta.Write(append(line, '\n'))
		texts[text] = j.Text
	}
	texts["judgments.jsonl"] = meta.String()
	return zipOf(t, texts)
}

func nonEmpty(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// kalawatiDelivery is the metadata of a real Supreme Court judgment
// (Kalawati (d) through LRs v Rakesh Kumar, 2018), its parties named in
// clear, and an excerpt of its text, in a folder of the zip.
func kalawatiDelivery(t *testing.T) []byte {
	t.Helper()
	return zipOf(t, map[string]string{
		"2018-02/meta.jsonl": `{"court":"Supreme Court of India","case_number":"Civil Appeal No. 2244 of 2018","title":"Kalawati (d), through Lrs. and others v Rakesh Kumar and others",` +
			`"parties":[{"name":"Kalawati","role":"appellant"},{"name":"Rakesh Kumar","role":"respondent"}],"judges":["Madan B. Lokur","Deepak Gupta"],"decision_date":"2018-02-16","text_file":"kalawati.txt"}` + "\n",
		"2018-02/kalawati.txt": "4. The appellants (Kalawati and others) are aggrieved by the judgment and decree dated 10th December, 2013. " +
			"Rakesh Kumar and others are the respondents.\n",
	})
}

func zipOf(t *testing.T, files map[string]string) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for name, body := range files {
		w, err := zw.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write([]byte(body)); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// drop writes a delivery into the inbox, modified at (the inbox takes
// only files left unmodified for a minute).
func drop(t *testing.T, dir, name string, body []byte, at time.Time) {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, body, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(p, at, at); err != nil {
		t.Fatal(err)
	}
}

// inboxRig is the sync use case on memory stores with the judgments inbox.
type inboxRig struct {
	dir       string
	syncer    *sourcesync.Syncer
	judgments ports.JudgmentStore
}

func newInboxRig(t *testing.T) *inboxRig {
	t.Helper()
	r := &inboxRig{dir: t.TempDir()}
	cfg := Config{VaultKey: testVaultKey, Sync: SyncConfig{JudgmentsInbox: r.dir, NSEBaseURL: defaultNSEBaseURL}}
	startSync(t, cfg, &r.syncer, &r.judgments)
	return r
}

func (r *inboxRig) take(t *testing.T) sourcesync.Outcome {
	t.Helper()
	out, _ := r.syncer.Sync(t.Context(), []string{judgmentsInbox}, sourcesync.Range{})
	if len(out) != 1 {
		t.Fatalf("%d outcomes", len(out))
	}
	return out[0]
}

// held returns every judgment stored, as JSON, by id.
func (r *inboxRig) held(t *testing.T) map[string]string {
	t.Helper()
	versions, _, err := r.judgments.JudgmentVersions(t.Context(), 0)
	if err != nil {
		t.Fatal(err)
	}
	ids := make([]string, 0, len(versions))
	for id := range versions {
		ids = append(ids, id)
	}
	js, err := r.judgments.JudgmentsByID(t.Context(), ids)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, j := range js {
		b, _ := json.Marshal(j)
		out[j.ID] = string(b)
	}
	return out
}

func ls(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		if !e.IsDir() {
			out = append(out, e.Name())
		}
	}
	return out
}

// TestTheJudgmentsInboxTakesWholeDeliveries drops two real deliveries, a
// truncated one, one still being written under a temporary name, one just
// written, and a file that is no delivery: the two are tokenized, stored
// and moved to done/, the truncated one is moved to refused/ with its
// reason and stores nothing, the rest are left. A second run takes a
// redelivery of the same file and changes nothing.
func TestTheJudgmentsInboxTakesWholeDeliveries(t *testing.T) {
	r := newInboxRig(t)
	old := time.Now().Add(-time.Hour)
	sample, kalawati := sampleDelivery(t), kalawatiDelivery(t)
	drop(t, r.dir, "2026-11-sample.zip", sample, old)
	drop(t, r.dir, "2026-11-kalawati.zip", kalawati, old)
	drop(t, r.dir, "2026-11-cut.zip", kalawati[:len(kalawati)/2], old)
	drop(t, r.dir, "2026-11-next.zip.part", sample[:100], old)
	drop(t, r.dir, "2026-11-fresh.zip", kalawati, time.Now())
	drop(t, r.dir, "README.txt", []byte("deliveries go here\n"), old)

	o := r.take(t)
	if o.Files != 2 || o.Rows != 22 || o.Refused != 1 || o.Err == nil || !strings.Contains(o.Err.Error(), "2026-11-cut.zip") {
		t.Fatalf("first run: %+v", o)
	}
	held := r.held(t)
	if len(held) != 22 {
		t.Fatalf("%d judgments held, want 22", len(held))
	}
	for id, j := range held {
		for _, name := range []string{"Kalawati", "Rakesh Kumar"} {
			if strings.Contains(j, name) {
				t.Fatalf("judgment %s holds %q in clear: %s", id, name, j)
			}
		}
	}
	if got := ls(t, r.dir); strings.Join(got, " ") != "2026-11-fresh.zip 2026-11-next.zip.part README.txt" {
		t.Fatalf("left in the inbox: %v", got)
	}
	done, refused := ls(t, filepath.Join(r.dir, inbox.DoneDir)), ls(t, filepath.Join(r.dir, inbox.RefusedDir))
	if len(done) != 2 || !strings.HasSuffix(done[0], "Z-2026-11-kalawati.zip") || !strings.HasSuffix(done[1], "Z-2026-11-sample.zip") {
		t.Fatalf("done: %v", done)
	}
	if len(refused) != 2 || !strings.HasSuffix(refused[0], "Z-2026-11-cut.zip") || refused[1] != refused[0]+inbox.ReasonSuffix {
		t.Fatalf("refused: %v", refused)
	}
	reason, err := os.ReadFile(filepath.Join(r.dir, inbox.RefusedDir, refused[1]))
	if err != nil || !strings.Contains(string(reason), "not a readable zip archive") {
		t.Fatalf("reason: %q, %v", reason, err)
	}

	// The same delivery again, as a copy keeping its modification time.
	drop(t, r.dir, "2026-11-kalawati.zip", kalawati, old)
	if o := r.take(t); o.Files != 1 || o.Rows != 1 || o.Refused != 0 || o.Err != nil {
		t.Fatalf("redelivery: %+v", o)
	}
	if again := r.held(t); len(again) != len(held) || !equalMaps(again, held) {
		t.Fatal("a redelivery changed what is held")
	}
	if o := r.take(t); o.Files != 0 || o.Err != nil {
		t.Fatalf("a run with nothing new: %+v", o)
	}
	st, err := r.syncer.Statuses(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range st {
		if s.Source == judgmentsInbox && (!s.Inbox || s.State.Files != 3 || s.State.Rows != 23 || s.State.Refused != 1 || s.State.LastSuccess.IsZero() || s.State.LastError != "") {
			t.Fatalf("status: %+v", s)
		}
	}
}

func equalMaps(a, b map[string]string) bool {
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return len(a) == len(b)
}

// TestSyncJudgmentsOnADataDirectory runs the judgments inbox on a data
// directory, as `quarry sync judgments` does: without the vault key it
// refuses, saying so; with it, it takes the sample delivery and the
// checkpoint counts it; a second run takes nothing.
func TestSyncJudgmentsOnADataDirectory(t *testing.T) {
	data, dir := t.TempDir(), t.TempDir()
	env := map[string]string{EnvDataDir: data, EnvJudgmentsInbox: dir}
	run := func() ([]sourcesync.Outcome, []sourcesync.Status, error) {
		cfg, err := LoadConfig(func(k string) string { return env[k] })
		if err != nil {
			t.Fatal(err)
		}
		var out []sourcesync.Outcome
		var st []sourcesync.Status
		err = WithSyncer(t.Context(), cfg, func(s *sourcesync.Syncer) error {
			var err error
			if out, err = s.Sync(t.Context(), []string{judgmentsInbox}, sourcesync.Range{}); err != nil {
				return err
			}
			st, err = s.Statuses(t.Context())
			return err
		})
		return out, st, err
	}
	drop(t, dir, "delivery.zip", sampleDelivery(t), time.Now().Add(-time.Hour))
	if _, _, err := run(); err == nil || !strings.Contains(err.Error(), "QUARRY_VAULT_KEY is not set: judgments are tokenized") {
		t.Fatalf("without the key: %v", err)
	}
	env[EnvVaultKey] = strings.Repeat("07", 32)
	start := time.Now()
	if out, _, err := run(); err != nil || out[0].Files != 1 || out[0].Rows != 21 || out[0].Refused != 0 {
		t.Fatalf("first run: %+v, %v", out, err)
	}
	t.Logf("took 1 delivery of 21 judgments into a data directory in %s", time.Since(start).Round(time.Millisecond))
	out, st, err := run()
	if err != nil || out[0].Files != 0 {
		t.Fatalf("second run: %+v, %v", out, err)
	}
	for _, s := range st {
		if s.Source == judgmentsInbox && (s.State.Files != 1 || s.State.Rows != 21 || s.State.LastSuccess.IsZero()) {
			t.Fatalf("status: %+v", s)
		}
	}
	if done := ls(t, filepath.Join(dir, inbox.DoneDir)); len(done) != 1 {
		t.Fatalf("done: %v", done)
	}
}

// TestServeRefusesTheJudgmentsInboxOnItsSchedule: the serving process
// never holds the vault key, so QUARRY_SYNC naming judgments is refused at
// start, saying where the inbox runs instead.
func TestServeRefusesTheJudgmentsInboxOnItsSchedule(t *testing.T) {
	cfg, err := LoadConfig(func(k string) string {
		return map[string]string{EnvSync: "judgments", EnvJudgmentsInbox: t.TempDir(), EnvHTTPAddr: "127.0.0.1:0", EnvMetricsAddr: "off"}[k]
	})
	if err != nil {
		t.Fatal(err)
	}
	app := fx.New(fx.NopLogger, Options(cfg, zap.NewNop()))
	err = app.Start(t.Context())
	if err == nil {
		_ = app.Stop(t.Context())
	}
	if err == nil || !strings.Contains(err.Error(), "QUARRY_SYNC names judgments") || !strings.Contains(err.Error(), "run `quarry sync judgments` with the key beside serve") {
		t.Fatalf("serve with QUARRY_SYNC=judgments: %v", err)
	}
}
