package mongo

import (
	"bytes"
	"compress/flate"
	"encoding/json"
	"fmt"
	"io"
	"sync"

	"go.mongodb.org/mongo-driver/v2/bson"
)

// Documents read whole on a hot path (fund holder pages and ladders, 13F
// rows, A-share year buckets) are packed: their contents are marshalled
// to BSON and deflated into one binary field. FerretDB keeps a document as
// JSON and decodes it field by field on every read, so an array of a few
// hundred subdocuments costs it milliseconds; one binary it decodes as a
// single string, and deflating shrinks that string several times, since
// the field names repeat in every subdocument. On MongoDB a packed
// document is smaller on disk and on the wire; neither store can filter on
// what is packed, and no read here needs to.

// deflaters keeps flate writers for reuse: each allocates about a
// megabyte of tables, which for a load of thousands of small filings
// cost more than compressing them.
var deflaters = sync.Pool{New: func() any {
	w, _ := flate.NewWriter(nil, flate.BestSpeed) // BestSpeed is a valid level: no error
	return w
}}

// packBSON marshals v to BSON and deflates it.
func packBSON(v any) ([]byte, error) {
	raw, err := bson.Marshal(v)
	if err != nil {
		return nil, err
	}
	return deflate(raw)
}

// packJSON marshals v to JSON and deflates it. JSON writes a map's keys in
// order, so the same value packs to the same bytes, as writeChanged's
// digests need; BSON writes them in Go's map order.
func packJSON(v any) ([]byte, error) {
	raw, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return deflate(raw)
}

// deflate compresses raw.
func deflate(raw []byte) ([]byte, error) {
	var b bytes.Buffer
	w := deflaters.Get().(*flate.Writer)
	defer deflaters.Put(w)
	w.Reset(&b)
	if _, err := w.Write(raw); err != nil {
		return nil, err
	}
	if err := w.Close(); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// unpackBSON inflates b and unmarshals the BSON into out.
func unpackBSON(b []byte, out any) error {
	raw, err := inflate(b)
	if err != nil {
		return err
	}
	return bson.Unmarshal(raw, out)
}

// unpackJSON inflates b and unmarshals the JSON into out.
func unpackJSON(b []byte, out any) error {
	raw, err := inflate(b)
	if err != nil {
		return err
	}
	return json.Unmarshal(raw, out)
}

// inflate decompresses b.
func inflate(b []byte) ([]byte, error) {
	raw, err := io.ReadAll(flate.NewReader(bytes.NewReader(b)))
	if err != nil {
		return nil, fmt.Errorf("inflate: %w", err)
	}
	return raw, nil
}
