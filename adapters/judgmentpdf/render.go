// Package judgmentpdf renders a judgment as a PDF from its tokenized
// fields and text, the only ones Quarry holds: the original document is
// never served. Text is set in Go Regular (golang.org/x/image/font/gofont),
// and every character Go Regular has no glyph for, such as the rupee sign
// ₹ and the dotted letters of transliterated Sanskrit (ṛ, ṣ, ṇ), in DejaVu
// Sans, embedded from fonts/. Both are embedded as TrueType subsets with a
// ToUnicode map, so a PDF reader extracts the text as it was stored.
package judgmentpdf

import (
	"context"
	_ "embed"
	"fmt"
	"io"
	"strings"
	"sync"
	"unicode"

	"github.com/go-pdf/fpdf"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/sfnt"

	"github.com/quarrydata/quarry/domain/judgment"
	"github.com/quarrydata/quarry/ports"
)

// dejaVuSans is DejaVu Sans 2.37 (fonts/LICENSE-DejaVu.txt).
//
//go:embed fonts/DejaVuSans.ttf
var dejaVuSans []byte

// MediaType is what Render writes.
const MediaType = "application/pdf"

// Font families as registered with fpdf.
const (
	familyGo      = "go"
	familyDejaVu  = "dejavu"
	bodySize      = 10.5
	lineHeight    = 5.2
	headingSize   = 14
	metadataSize  = 9.5
	marginMM      = 20
	footerFromEnd = -12
)

// Renderer renders judgments as PDF. It is safe for concurrent use: each
// Render builds its own document.
type Renderer struct{}

var _ ports.JudgmentRenderer = Renderer{}

// New returns a Renderer.
func New() Renderer { return Renderer{} }

// MediaType is application/pdf.
func (Renderer) MediaType() string { return MediaType }

// goCoverage reports whether Go Regular has a glyph for a rune.
var goCoverage = sync.OnceValues(func() (func(rune) bool, error) {
	f, err := sfnt.Parse(goregular.TTF)
	if err != nil {
		return nil, err
	}
	var mu sync.Mutex
	var buf sfnt.Buffer
	return func(r rune) bool {
		mu.Lock()
		defer mu.Unlock()
		i, err := f.GlyphIndex(&buf, r)
		return err == nil && i != 0
	}, nil
})

// Render writes j as a PDF to w: a heading with the title, the court and
// the case, the parties' tokens and roles, the judges and citations, then
// the full text, with page numbers and a line saying the names are tokens.
func (Renderer) Render(ctx context.Context, w io.Writer, j judgment.Judgment) error {
	hasGlyph, err := goCoverage()
	if err != nil {
		return fmt.Errorf("judgmentpdf: read Go Regular: %w", err)
	}
	pdf := fpdf.New("P", "mm", "A4", "")
	pdf.SetMargins(marginMM, marginMM, marginMM)
	pdf.SetAutoPageBreak(true, marginMM)
	pdf.SetCreationDate(j.RetrievedAt)
	pdf.SetModificationDate(j.RetrievedAt)
	pdf.SetTitle(j.Title, true)
	pdf.SetCreator("Quarry", true)
	pdf.AddUTF8FontFromBytes(familyGo, "", goregular.TTF)
	pdf.AddUTF8FontFromBytes(familyGo, "B", gobold.TTF)
	pdf.AddUTF8FontFromBytes(familyDejaVu, "", dejaVuSans)
	t := &typesetter{pdf: pdf, hasGlyph: hasGlyph}
	pdf.SetFooterFunc(func() {
		pdf.SetY(footerFromEnd)
		t.write("", 8, 4, fmt.Sprintf("%s · page %d · parties and PANs appear as tokens (PTY_, PAN_)", j.ID, pdf.PageNo()))
	})
	pdf.AddPage()
	t.write("B", headingSize, 7, j.Title)
	t.paragraph()
	for _, line := range metadataLines(j) {
		t.write("", metadataSize, 4.8, line)
		pdf.Ln(4.8)
	}
	t.paragraph()
	if err := ctx.Err(); err != nil {
		return err
	}
	t.write("", bodySize, lineHeight, j.Text)
	if err := pdf.Error(); err != nil {
		return fmt.Errorf("judgmentpdf: render %s: %w", j.ID, err)
	}
	return pdf.Output(w)
}

// metadataLines are the lines under the title.
func metadataLines(j judgment.Judgment) []string {
	lines := []string{j.Court}
	if j.Bench != "" {
		lines = append(lines, "Bench: "+j.Bench)
	}
	lines = append(lines, "Case: "+j.CaseNumber, "Decided: "+j.DecisionDate)
	parties := make([]string, len(j.Parties))
	for i, p := range j.Parties {
		parties[i] = p.Token + " (" + strings.ReplaceAll(string(p.Role), "_", " ") + ")"
	}
	lines = append(lines, "Parties: "+strings.Join(parties, "; "))
	if len(j.Judges) > 0 {
		lines = append(lines, "Judges: "+strings.Join(j.Judges, "; "))
	}
	if len(j.Citations) > 0 {
		lines = append(lines, "Citations: "+strings.Join(j.Citations, "; "))
	}
	return lines
}

// typesetter writes text in runs, each in Go Regular where it has the
// glyphs and in DejaVu Sans where it does not.
type typesetter struct {
	pdf      *fpdf.Fpdf
	hasGlyph func(rune) bool
}

// write flows text from the current position, wrapping at the margins.
func (t *typesetter) write(style string, size, height float64, text string) {
	var run strings.Builder
	runGo := true
	flush := func() {
		if run.Len() == 0 {
			return
		}
		family, st := familyGo, style
		if !runGo {
			family, st = familyDejaVu, ""
		}
		t.pdf.SetFont(family, st, size)
		t.pdf.Write(height, run.String())
		run.Reset()
	}
	for _, r := range strings.ReplaceAll(text, "\r\n", "\n") {
		if r != '\n' && unicode.IsControl(r) {
			r = ' ' // a tab, a form feed between pages of the source
		}
		inGo := r == '\n' || t.hasGlyph(r)
		if inGo != runGo {
			flush()
			runGo = inGo
		}
		run.WriteRune(r)
		// fpdf's Write measures its whole string again for each line it
		// breaks, so a long run costs time quadratic in its length: runs
		// end at a line break or at a space past maxRun bytes.
		if r == '\n' || r == ' ' && run.Len() >= maxRun {
			flush()
		}
	}
	flush()
}

// maxRun is the length in bytes past which a run of text is written out
// at its next space.
const maxRun = 160

// paragraph ends the line and leaves a gap.
func (t *typesetter) paragraph() { t.pdf.Ln(lineHeight * 1.6) }
