package indiajudgments

import (
	"bytes"
	"context"
	"errors"
	"io"
	"slices"
	"sync"

	"github.com/quarrydata/quarry/app/readcache"

	"unsafe"

	"github.com/quarrydata/quarry/domain/judgment"
	"github.com/quarrydata/quarry/ports"
)

// JudgmentCache is a read-through cache in front of a JudgmentStore.
// Judgments change only when they are ingested, and on MongoDB a read of
// one is a round trip carrying its whole text, so serving it from memory
// takes the document store off the hot path of GET /india/judgments/{id}
// and of India search, which reads the judgments of a page of hits.
//
// A write through this cache forgets the judgments written. A write by
// another process (quarry ingest) is learnt from the versions the store
// reports: every call of JudgmentVersions, which the serving process makes
// each QUARRY_MONGO_REFRESH to bring its search index up to date, forgets
// the judgments it returns whose version is not the one last seen, before
// the index reads them again, and a call for every judgment (mark 0) also
// forgets those no longer held. The TTL bounds the rest.
//
// A listing (JudgmentList, an export's read) goes to the store: it reads
// no text and each export reads it once.
type Cache struct {
	ports.JudgmentStore
	judgments *readcache.Space[judgment.Judgment]
	mu        sync.Mutex
	// versions are the latest versions JudgmentVersions returned.
	versions map[string]string
}

// NewJudgmentCache wraps store, keeping judgments in shared.
func NewCache(store ports.JudgmentStore, shared *readcache.Cache) *Cache {
	return &Cache{JudgmentStore: store, judgments: readcache.NewSpace(shared, judgmentWeight), versions: map[string]string{}}
}

// Judgment returns the judgment, from the cache while it is fresh. The
// value is shared with other readers and must not be changed.
func (c *Cache) Judgment(ctx context.Context, id string) (judgment.Judgment, error) {
	return c.judgments.Get(ctx, id, c.JudgmentStore.Judgment)
}

// JudgmentsByID returns the judgments held under ids, ordered by id, each
// from the cache while it is fresh.
func (c *Cache) JudgmentsByID(ctx context.Context, ids []string) ([]judgment.Judgment, error) {
	sorted := slices.Compact(slices.Sorted(slices.Values(ids)))
	out := make([]judgment.Judgment, 0, len(sorted))
	for _, id := range sorted {
		j, err := c.Judgment(ctx, id)
		switch {
		case err == nil:
			out = append(out, j)
		case !errors.Is(err, ports.ErrNotFound):
			return nil, err
		}
	}
	return out, nil
}

// UpsertJudgments writes through, then forgets the judgments written.
func (c *Cache) UpsertJudgments(ctx context.Context, js []judgment.Judgment) (int, error) {
	n, err := c.JudgmentStore.UpsertJudgments(ctx, js)
	// Forgotten even when the write failed: it may have applied in part.
	for _, j := range js {
		c.judgments.Forget(j.ID)
	}
	return n, err
}

// JudgmentVersions returns the store's versions, and forgets every
// judgment returned whose version is not the one last seen; for mark 0,
// which returns every judgment held, also those no longer held.
func (c *Cache) JudgmentVersions(ctx context.Context, mark int64) (map[string]string, int64, error) {
	versions, next, err := c.JudgmentStore.JudgmentVersions(ctx, mark)
	if err != nil {
		return nil, 0, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for id, v := range versions {
		if c.versions[id] != v {
			c.judgments.Forget(id)
			c.versions[id] = v
		}
	}
	if mark == 0 {
		for id := range c.versions {
			if _, ok := versions[id]; !ok {
				c.judgments.Forget(id)
				delete(c.versions, id)
			}
		}
	}
	return versions, next, nil
}

// RenderCache is a JudgmentRenderer that renders each version of a
// judgment once and keeps the document: a PDF takes tens of milliseconds
// to lay out and compress, and a judgment is read far more often than it
// changes. Documents are kept under the judgment's id and digest
// (judgment.Digest), so a changed judgment is rendered again on its first
// read, whichever process wrote it; the TTL and the shared budget bound
// the memory they hold.
type RenderCache struct {
	ports.JudgmentRenderer
	documents *readcache.Space[[]byte]
	// digests keeps the last judgment digested under each id with its
	// digest: digesting a long text (SHA-256 over a copy of it) cost half
	// of a served PDF, and comparing it with the judgment digested is far
	// cheaper (judgment.Equal). A judgment read again from the store is a
	// new copy of its text, which the entry keeps until it is replaced or
	// evicted.
	digests *readcache.Memo[judgment.Judgment, string]
}

// NewRenderCache wraps r, keeping its documents in shared.
func NewRenderCache(r ports.JudgmentRenderer, shared *readcache.Cache) *RenderCache {
	return &RenderCache{
		JudgmentRenderer: r,
		documents:        readcache.NewSpace(shared, bytesWeight),
		digests: readcache.NewMemo(shared, judgment.Judgment.Equal,
			func(j judgment.Judgment, digest string) int { return judgmentWeight(j) + len(digest) }),
	}
}

// digest returns j.Digest(), computed once for each judgment held.
func (c *RenderCache) digest(j judgment.Judgment) string {
	return c.digests.Get(j.ID, j, judgment.Judgment.Digest)
}

// Render writes j's document to w, rendered once per version.
func (c *RenderCache) Render(ctx context.Context, w io.Writer, j judgment.Judgment) error {
	doc, err := c.documents.Get(ctx, j.ID+"@"+c.digest(j), func(ctx context.Context, _ string) ([]byte, error) {
		var buf bytes.Buffer
		if err := c.JudgmentRenderer.Render(ctx, &buf, j); err != nil {
			return nil, err
		}
		return slices.Clip(buf.Bytes()), nil
	})
	if err != nil {
		return err
	}
	_, err = w.Write(doc)
	return err
}

func judgmentWeight(j judgment.Judgment) int {
	var p judgment.Party
	n := int(unsafe.Sizeof(j)) + readcache.StringBytes(j.ID, j.Court, j.Bench, j.CaseNumber, j.Title, j.DecisionDate, j.Language, j.Text)
	n += cap(j.Parties) * int(unsafe.Sizeof(p))
	for _, p := range j.Parties {
		n += readcache.StringBytes(p.Token, string(p.Role))
	}
	return n + cap(j.Judges)*readcache.StringHeader + readcache.StringBytes(j.Judges...) + cap(j.Citations)*readcache.StringHeader + readcache.StringBytes(j.Citations...)
}

func bytesWeight(b []byte) int { return int(unsafe.Sizeof(b)) + cap(b) }
