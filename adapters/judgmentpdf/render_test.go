package judgmentpdf_test

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/quarrydata/quarry/adapters/judgmentpdf"
	"github.com/quarrydata/quarry/domain/judgment"
	"github.com/quarrydata/quarry/domain/pii"
)

// pdfText extracts a PDF's text with poppler's pdftotext, an extractor
// independent of the renderer, or skips the test when it is not installed.
func pdfText(t *testing.T, pdf []byte) string {
	t.Helper()
	bin, err := exec.LookPath("pdftotext")
	if err != nil {
		t.Skip("pdftotext not found: install poppler-utils (apt-get install -y poppler-utils) to run the PDF text test; .ci/run installs it")
	}
	dir := t.TempDir()
	in := filepath.Join(dir, "judgment.pdf")
	if err := os.WriteFile(in, pdf, 0o600); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(bin, "-enc", "UTF-8", in, "-").CombinedOutput()
	if err != nil {
		t.Fatalf("pdftotext: %v: %s", err, out)
	}
	return string(out)
}

// TestRenderedTextHoldsTokensOnly tokenizes a judgment in the shape of an
// Indian one (its parties and PAN are made up), renders it, and reads the
// PDF back with pdftotext: the tokens, the rupee sign and the diacritics
// are there, and no party's name or PAN is.
func TestRenderedTextHoldsTokensOnly(t *testing.T) {
	key, err := pii.NewKey(bytes.Repeat([]byte("k"), pii.MinKeyBytes))
	if err != nil {
		t.Fatal(err)
	}
	src := judgment.Source{
		Court: "High Court of Delhi", CaseNumber: "W.P.(C) 1234/2024", Title: "Suresh Kumar Jindal v. Meera Devi",
		Parties: []judgment.SourceParty{{Name: "Suresh Kumar Jindal", Role: "petitioner"}, {Name: "Meera Devi", Role: "respondent"}},
		Judges:  []string{"Justice A. Example"}, DecisionDate: "2024-04-15", Language: "en",
		Text: "1. The petitioner Suresh Kumar Jindal (PAN AAAPJ1234K) claims ₹ 5,00,000 from Meera Devi.\n" +
			"2. The Ṛgveda and the Mahābhārata are cited; café, naïve, Śrī.\n\f3. SURESH KUMAR JINDAL is heard.",
		RetrievedAt: time.Date(2026, 11, 26, 0, 0, 0, 0, time.UTC),
	}
	j, _, err := judgment.Tokenize(key, src)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	r := judgmentpdf.New()
	if err := r.Render(context.Background(), &buf, j); err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(buf.Bytes(), []byte("%PDF-")) || r.MediaType() != "application/pdf" {
		t.Fatalf("not a PDF: %q", buf.Bytes()[:min(16, buf.Len())])
	}
	text := pdfText(t, buf.Bytes())
	flat := strings.Join(strings.Fields(text), " ")
	for _, want := range []string{j.Parties[0].Token, j.Parties[1].Token, "₹ 5,00,000", "Ṛgveda", "Mahābhārata", "café", "Śrī", "W.P.(C) 1234/2024", "High Court of Delhi", "petitioner"} {
		if !strings.Contains(flat, want) {
			t.Errorf("the PDF's text lacks %q:\n%s", want, text)
		}
	}
	pan, _ := key.Token(pii.KindPAN, "AAAPJ1234K")
	if !strings.Contains(flat, pan) {
		t.Errorf("the PDF's text lacks the PAN's token %s", pan)
	}
	lower := strings.ToLower(flat)
	for _, original := range []string{"suresh", "jindal", "meera", "aaapj1234k"} {
		if strings.Contains(lower, original) {
			t.Errorf("the PDF's text holds %q:\n%s", original, text)
		}
	}

}
