package tusharesource

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
)

// Answer is one answer of the Tushare Pro HTTP API: {code, msg, data:
// {fields, items}}. Code 0 is success; any other code is a refusal that
// Msg explains, and Data is then absent (null).
type Answer struct {
	Code int
	Msg  string
	// Table is the data of a successful answer.
	Table Table
}

// Table is an answer's data: the field names, and one row per item, each
// value as its literal text (a number as the API wrote it, so that 2055.0
// stays 2055.0) or empty for null.
type Table struct {
	Fields []string
	Items  [][]string
	// HasMore is the API's has_more: the answer stops short of every row.
	HasMore bool
}

// wire is the answer as JSON carries it.
type wire struct {
	Code *int   `json:"code"`
	Msg  string `json:"msg"`
	Data *struct {
		Fields  []string `json:"fields"`
		Items   [][]any  `json:"items"`
		HasMore bool     `json:"has_more"`
	} `json:"data"`
}

// Parse reads one answer whole. A body that is not one whole JSON object
// with a code, or a successful answer whose items do not match its
// fields, is refused with the reason.
func Parse(body []byte) (Answer, error) {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	var w wire
	if err := dec.Decode(&w); err != nil {
		return Answer{}, fmt.Errorf("not a whole JSON answer: %v", err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return Answer{}, errors.New("not a whole JSON answer: more follows the object")
	}
	if w.Code == nil {
		return Answer{}, errors.New("the answer has no code")
	}
	a := Answer{Code: *w.Code, Msg: w.Msg}
	if a.Code != 0 {
		return a, nil
	}
	if w.Data == nil {
		return Answer{}, errors.New("code 0 without data")
	}
	t, err := table(w.Data.Fields, w.Data.Items)
	if err != nil {
		return Answer{}, err
	}
	t.HasMore = w.Data.HasMore
	a.Table = t
	return a, nil
}

// table checks the fields and turns each item's values into text.
func table(fields []string, items [][]any) (Table, error) {
	for i, f := range fields {
		if f == "" || slices.Contains(fields[:i], f) {
			return Table{}, fmt.Errorf("field %d (%q) is empty or named twice", i+1, f)
		}
	}
	t := Table{Fields: fields, Items: make([][]string, len(items))}
	for i, item := range items {
		if len(item) != len(fields) {
			return Table{}, fmt.Errorf("item %d has %d values, the answer names %d fields", i+1, len(item), len(fields))
		}
		row := make([]string, len(item))
		for j, v := range item {
			s, err := text(v)
			if err != nil {
				return Table{}, fmt.Errorf("item %d, field %s: %v", i+1, fields[j], err)
			}
			row[j] = s
		}
		t.Items[i] = row
	}
	return t, nil
}

// text is a value as the CSV readers take it.
func text(v any) (string, error) {
	switch v := v.(type) {
	case nil:
		return "", nil
	case string:
		return v, nil
	case json.Number:
		return v.String(), nil
	default:
		return "", fmt.Errorf("value %v is neither a string, a number nor null", v)
	}
}

// CSV writes the columns named, in that order, with a header row: the
// layout the dataset's reader takes. A column the answer lacks refuses it.
func (t Table) CSV(columns []string) ([]byte, error) {
	at := make([]int, len(columns))
	for i, c := range columns {
		if at[i] = slices.Index(t.Fields, c); at[i] < 0 {
			return nil, fmt.Errorf("the answer lacks the field %s", c)
		}
	}
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	_ = w.Write(columns)
	rec := make([]string, len(columns))
	for _, item := range t.Items {
		for i, j := range at {
			rec[i] = item[j]
		}
		_ = w.Write(rec)
	}
	w.Flush()
	return buf.Bytes(), w.Error()
}

// Only refuses a table one of whose rows holds another value than want in
// field, naming the first such value; a table without the field is
// refused too.
func (t Table) Only(field, want string) error {
	at := slices.Index(t.Fields, field)
	if at < 0 {
		return fmt.Errorf("the answer lacks the field %s", field)
	}
	for i, item := range t.Items {
		if item[at] != want {
			return fmt.Errorf("item %d holds %s %s", i+1, field, dashed(item[at]))
		}
	}
	return nil
}
