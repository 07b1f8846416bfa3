package mongo

import (
	"bytes"
	"compress/flate"
	"fmt"
	"io"

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

// packBSON marshals v to BSON and deflates it.
func packBSON(v any) ([]byte, error) {
	raw, err := bson.Marshal(v)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	w, err := flate.NewWriter(&b, flate.BestSpeed)
	if err != nil {
		return nil, err
	}
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
	raw, err := io.ReadAll(flate.NewReader(bytes.NewReader(b)))
	if err != nil {
		return fmt.Errorf("inflate: %w", err)
	}
	return bson.Unmarshal(raw, out)
}
