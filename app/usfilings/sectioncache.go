package usfilings

import (
	"context"
	"errors"
	"slices"

	"github.com/quarrydata/quarry/app/readcache"

	"unsafe"

	"github.com/quarrydata/quarry/domain/filing"
	"github.com/quarrydata/quarry/ports"
)

// SectionCache is a read-through cache in front of a SectionStore, for the
// sections that search results and Ask's passages are read from. A section
// changes only when a filing is ingested again, so serving one for up to
// the TTL after it changed is the price of taking the document store off
// search's path, as for the other reference data.
type SectionCache struct {
	ports.SectionStore
	sections *readcache.Space[filing.Section]
}

// NewSectionCache wraps store, keeping sections in shared.
func NewSectionCache(store ports.SectionStore, shared *readcache.Cache) *SectionCache {
	return &SectionCache{SectionStore: store, sections: readcache.NewSpace(shared, sectionWeight)}
}

// SectionsByID returns the sections held under ids, ordered by id, each
// from the cache while it is fresh; an id that is not held is left out.
func (c *SectionCache) SectionsByID(ctx context.Context, ids []string) ([]filing.Section, error) {
	ids = slices.Compact(slices.Sorted(slices.Values(ids)))
	out := make([]filing.Section, 0, len(ids))
	for _, id := range ids {
		s, err := c.sections.Get(ctx, id, c.section)
		switch {
		case err == nil:
			out = append(out, s)
		case !errors.Is(err, ports.ErrNotFound):
			return nil, err
		}
	}
	return out, nil
}

// section reads one section from the store, or ports.ErrNotFound.
func (c *SectionCache) section(ctx context.Context, id string) (filing.Section, error) {
	found, err := c.SectionStore.SectionsByID(ctx, []string{id})
	if err != nil {
		return filing.Section{}, err
	}
	if len(found) == 0 {
		return filing.Section{}, ports.ErrNotFound
	}
	return found[0], nil
}

// SectionsSince reads through, and forgets what this instance cached of
// the sections of each page before passing it on: they were written since
// the caller last looked, perhaps by another process, and the caller (the
// search index's refresh) is about to index their new text, which search
// offsets must then be read against.
func (c *SectionCache) SectionsSince(ctx context.Context, mark ports.SectionMark, limit int, page func([]filing.Section, ports.SectionMark) error) (ports.SectionMark, error) {
	return c.SectionStore.SectionsSince(ctx, mark, limit, func(secs []filing.Section, next ports.SectionMark) error {
		for _, sec := range secs {
			c.sections.Forget(sec.ID)
		}
		return page(secs, next)
	})
}

// UpsertSections writes through, then forgets what this instance cached
// of the sections written.
func (c *SectionCache) UpsertSections(ctx context.Context, s []filing.Section) error {
	err := c.SectionStore.UpsertSections(ctx, s)
	// Forgotten even when the write failed: it may have applied in part.
	for _, sec := range s {
		c.sections.Forget(sec.ID)
	}
	return err
}

func sectionWeight(s filing.Section) int {
	return int(unsafe.Sizeof(s)) + readcache.StringBytes(s.ID, s.Accession, s.CIK, s.Ticker, s.Form, s.ItemNumber, s.ItemName, s.Text)
}
