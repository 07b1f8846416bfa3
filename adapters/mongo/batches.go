package mongo

import (
	"context"
	"crypto/rand"
	"fmt"
	"iter"
	"sync"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	mongodrv "go.mongodb.org/mongo-driver/v2/mongo"
)

// batches lets a store's writes be seen whole or not at all without
// transactions (FerretDB has none). A write records its batch mark as
// pending (one insert into the dataset's pending collection, _id the mark),
// writes its documents carrying the mark, and publishes them with one
// delete of the record. Readers hide what carries a mark still pending. A
// write that stops part way leaves its documents hidden until the next
// run writes them again under a new mark; its record stays, a few bytes,
// and is never deleted, since that would publish the part written.
//
// A mark's record is deleted once and never written again, so a mark once
// seen published stays so: published remembers those marks, and reads of
// documents whose marks are all known published do not read the pending
// collection (a cached page would otherwise cost a store read each time).
type batches struct {
	pending *mongodrv.Collection
	// what names the dataset in errors.
	what string

	mu        sync.Mutex
	published map[string]bool
}

func newBatches(pending *mongodrv.Collection, what string) *batches {
	return &batches{pending: pending, what: what, published: map[string]bool{}}
}

// publish runs write with a new batch mark recorded as pending, and
// deletes the record once write succeeds.
func (b *batches) publish(ctx context.Context, write func(mark string) error) error {
	mark, err := newBatchMark()
	if err != nil {
		return err
	}
	if _, err := b.pending.InsertOne(ctx, bson.D{{Key: "_id", Value: mark}, {Key: "at", Value: time.Now().UTC()}}); err != nil {
		return translate("record a pending "+b.what+" batch", err)
	}
	if err := write(mark); err != nil {
		return err
	}
	if _, err := b.pending.DeleteOne(ctx, bson.D{{Key: "_id", Value: mark}}); err != nil {
		return translate("publish a "+b.what+" batch", err)
	}
	return nil
}

// newBatchMark returns a mark no other write has: the time and a random
// part.
func newBatchMark() (string, error) {
	r := make([]byte, 6)
	if _, err := rand.Read(r); err != nil {
		return "", err
	}
	return fmt.Sprintf("%x-%x", time.Now().UnixNano(), r), nil
}

// unpublished returns the marks of writes not yet published, read from the
// pending collection only when marks, the marks of documents already read,
// hold one not known published: the documents were read before it, so a
// mark it does not hold was published. Nil when every mark is known
// published; an empty mark is a document written before marks, always
// seen.
func (b *batches) unpublished(ctx context.Context, marks iter.Seq[string]) (map[string]bool, error) {
	if !b.unknown(marks) {
		return nil, nil
	}
	pending, err := b.pendingMarks(ctx)
	if err != nil {
		return nil, err
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	for m := range marks {
		if m != "" && !pending[m] {
			b.published[m] = true
		}
	}
	return pending, nil
}

// unknown reports whether marks hold one not known published.
func (b *batches) unknown(marks iter.Seq[string]) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	last := ""
	for m := range marks {
		if m != "" && m != last && !b.published[m] {
			return true
		}
		last = m
	}
	return false
}

// pendingMarks reads the marks of the writes not published.
func (b *batches) pendingMarks(ctx context.Context) (map[string]bool, error) {
	docs, err := readAll[struct {
		ID string `bson:"_id"`
	}](ctx, b.pending)
	if err != nil {
		return nil, translate("read the pending "+b.what+" batches", err)
	}
	out := make(map[string]bool, len(docs))
	for _, d := range docs {
		out[d.ID] = true
	}
	return out, nil
}

// batched is a document written in batches that keeps, while its own
// write is not published, the version a reader saw before it.
type batched[T any] interface {
	// mark is the batch mark of the write that stored the document.
	mark() string
	// previous is the version kept from before that write, if any.
	previous() *T
	// alone is the document without the version it keeps.
	alone() T
}

// seenVersion returns the version of d a reader sees, given the marks not
// published: d's own when its mark is published; else the one it kept
// from before its write, when that is published; else none.
func seenVersion[T batched[T]](d T, pending map[string]bool) (T, bool) {
	if !pending[d.mark()] {
		return d, true
	}
	if p := d.previous(); p != nil && !pending[(*p).mark()] {
		return *p, true
	}
	var zero T
	return zero, false
}

// keptVersion returns what a write over d keeps for readers until it is
// published: d when published, else what d kept (a write that stopped
// part way is overwritten).
func keptVersion[T batched[T]](d T, pending map[string]bool) *T {
	if !pending[d.mark()] {
		a := d.alone()
		return &a
	}
	return d.previous()
}

// marksOf yields the marks of docs and of the versions they keep.
func marksOf[T batched[T]](docs ...T) iter.Seq[string] {
	return func(yield func(string) bool) {
		for _, d := range docs {
			if !yield(d.mark()) {
				return
			}
			if p := d.previous(); p != nil && !yield((*p).mark()) {
				return
			}
		}
	}
}
