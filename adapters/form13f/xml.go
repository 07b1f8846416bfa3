package form13f

import (
	"bufio"
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strings"
	"time"

	"github.com/quarrydata/quarry/domain/edgar"
	"github.com/quarrydata/quarry/domain/holdings"
	"github.com/quarrydata/quarry/domain/source"
)

// ParseInformationTable reads a 13F information table XML document
// (http://www.sec.gov/edgar/document/thirteenf/informationtable, as the
// default namespace, under a prefix such as ns1:, or with none) into the
// holdings of filing f. Rows are numbered by their position in the table.
// Errors cite line numbers of file, shifted by lineOffset when the document
// sits inside a larger file.
func ParseInformationTable(file string, r io.Reader, f holdings.Filing, lineOffset int) ([]holdings.Holding, error) {
	dec := xml.NewDecoder(r)
	dec.CharsetReader = asciiCharset
	var out []holdings.Holding
	root := false
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			line, _ := dec.InputPos()
			return nil, source.AtLine(file, line+lineOffset, "XML: %v", err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			if t.Name.Local == "informationTable" {
				root = true
				continue
			}
			if t.Name.Local != "infoTable" || !root {
				continue
			}
			line, _ := dec.InputPos()
			var row infoRow
			if err := dec.DecodeElement(&row, &t); err != nil {
				return nil, source.AtLine(file, line+lineOffset, "XML: %v", err)
			}
			h, err := row.holding(&f, int64(len(out)+1))
			if err != nil {
				return nil, source.AtLine(file, line+lineOffset, "infoTable %d: %v", len(out)+1, err)
			}
			out = append(out, h)
		}
	}
	// A document cut short fails above: the decoder reports the elements
	// left open at the end of the input.
	if !root {
		line, _ := dec.InputPos()
		return nil, source.AtLine(file, line+lineOffset, "no informationTable element: not a 13F information table")
	}
	return out, nil
}

// asciiCharset accepts the ASCII declarations some filers write; their
// bytes are valid UTF-8 already.
func asciiCharset(label string, in io.Reader) (io.Reader, error) {
	switch strings.ToLower(label) {
	case "us-ascii", "ascii":
		return in, nil
	}
	return nil, fmt.Errorf("unsupported encoding %q", label)
}

// amendmentType finds the amendment type on a 13F-HR/A's cover page
// (primary_doc.xml, under any namespace prefix).
var amendmentType = regexp.MustCompile(`<(?:\w+:)?amendmentType>\s*([^<]*?)\s*<`)

// submissionHeader maps the SEC header lines a full submission text file
// starts with to what they fill in; the first occurrence wins, which is the
// filer's own for the company fields.
var submissionHeader = []string{
	"ACCESSION NUMBER:", "CONFORMED SUBMISSION TYPE:", "CONFORMED PERIOD OF REPORT:",
	"FILED AS OF DATE:", "COMPANY CONFORMED NAME:", "CENTRAL INDEX KEY:",
}

// ParseFullSubmission reads a 13F-HR filing's full submission text file,
// as EDGAR serves it (<accession>.txt): the filing's identity from its SEC
// header and its holdings from the information table between <XML> tags.
func ParseFullSubmission(file string, r io.Reader) (holdings.Filing, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), maxLineBytes)
	header := map[string]string{}
	var xmlDoc bytes.Buffer
	amendment := ""
	line, xmlLine, state := 0, 0, "header"
	for sc.Scan() {
		line++
		text := strings.TrimSuffix(sc.Text(), "\r")
		switch state {
		case "header":
			state = readHeaderLine(header, text)
		case "documents":
			if strings.TrimSpace(text) == "<TYPE>INFORMATION TABLE" {
				state = "table"
			}
			if m := amendmentType.FindStringSubmatch(text); m != nil && amendment == "" {
				amendment = m[1]
			}
		case "table":
			if rest, ok := strings.CutPrefix(strings.TrimSpace(text), "<XML>"); ok {
				state, xmlLine = "xml", line
				xmlDoc.WriteString(rest + "\n")
			}
		case "xml":
			if strings.TrimSpace(text) == "</XML>" {
				state = "done"
				continue
			}
			xmlDoc.WriteString(text + "\n")
			if xmlDoc.Len() > source.MaxDocumentBytes {
				return holdings.Filing{}, source.TooLarge(fmt.Sprintf("%s:%d", file, xmlLine), "an information table larger than %s", source.Bytes(source.MaxDocumentBytes))
			}
		}
	}
	if err := sc.Err(); err != nil {
		return holdings.Filing{}, source.AtLine(file, line+1, "%v", lineError(err))
	}
	if state != "done" {
		return holdings.Filing{}, source.AtLine(file, line, "no complete INFORMATION TABLE document between <XML> and </XML> (reached %s): truncated or not a 13F-HR", state)
	}
	f, err := filingFromHeader(header)
	if err != nil {
		return holdings.Filing{}, source.AtLine(file, 1, "SEC header: %v", err)
	}
	if f.Amendment, err = holdings.ParseAmendment(f.FormType, amendment); err != nil {
		return holdings.Filing{}, source.AtLine(file, 1, "%v (the cover page's amendmentType)", err)
	}
	if f.Holdings, err = ParseInformationTable(file, &xmlDoc, f, xmlLine-1); err != nil {
		return holdings.Filing{}, err
	}
	if err := holdings.CheckPriceBand(f); err != nil {
		return holdings.Filing{}, source.LineError(file, xmlLine, err)
	}
	return f, nil
}

func readHeaderLine(header map[string]string, text string) string {
	if strings.HasPrefix(text, "</SEC-HEADER>") {
		return "documents"
	}
	trimmed := strings.TrimSpace(text)
	for _, k := range submissionHeader {
		if v, ok := strings.CutPrefix(trimmed, k); ok && header[k] == "" {
			header[k] = strings.TrimSpace(v)
		}
	}
	return "header"
}

func filingFromHeader(h map[string]string) (holdings.Filing, error) {
	acc, err := edgar.ParseAccession(h["ACCESSION NUMBER:"])
	if err != nil {
		return holdings.Filing{}, err
	}
	form := strings.ToUpper(h["CONFORMED SUBMISSION TYPE:"])
	if form != "13F-HR" && form != "13F-HR/A" {
		return holdings.Filing{}, fmt.Errorf("submission type %s is not 13F-HR or 13F-HR/A", source.Quote(form))
	}
	period, err := headerDay("CONFORMED PERIOD OF REPORT", h["CONFORMED PERIOD OF REPORT:"])
	if err != nil {
		return holdings.Filing{}, err
	}
	filed, err := headerDay("FILED AS OF DATE", h["FILED AS OF DATE:"])
	if err != nil {
		return holdings.Filing{}, err
	}
	cik, err := edgar.ParseCIK(h["CENTRAL INDEX KEY:"])
	if err != nil {
		return holdings.Filing{}, err
	}
	name := h["COMPANY CONFORMED NAME:"]
	if name == "" {
		return holdings.Filing{}, errors.New("COMPANY CONFORMED NAME is missing")
	}
	return holdings.Filing{Accession: acc, FormType: form, FundCIK: cik, FundName: name, ReportPeriod: period, FilingDate: filed}, nil
}

func headerDay(name, raw string) (string, error) {
	d, err := time.Parse("20060102", raw)
	if err != nil {
		return "", fmt.Errorf("%s %s is not YYYYMMDD", name, source.Quote(raw))
	}
	return d.Format(time.DateOnly), nil
}

// lineError says in words that a line passed the scanners' bound; other
// read errors are as they are.
func lineError(err error) error {
	if errors.Is(err, bufio.ErrTooLong) {
		return fmt.Errorf("a line longer than %s", source.Bytes(maxLineBytes))
	}
	return err
}
