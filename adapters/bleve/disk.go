package bleve

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"os"

	blevesearch "github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/index/scorch"
	"github.com/blevesearch/bleve/v2/mapping"

	"github.com/quarrydata/quarry/ports"
)

// Keys of what an index keeps beside its documents (bleve's internal
// storage, written atomically with nothing else).
var (
	keyCheckpoint = []byte("quarry.checkpoint")
	keyMapping    = []byte("quarry.mapping")
)

// kept is what every index here shares: the bleve index and the checkpoint
// of how far its use case has read the store.
type kept struct {
	idx blevesearch.Index
}

// Checkpoint returns what SaveCheckpoint last stored with the index, nil
// if nothing.
func (k kept) Checkpoint(context.Context) ([]byte, error) {
	cp, err := k.idx.GetInternal(keyCheckpoint)
	if err != nil {
		return nil, fmt.Errorf("bleve: read checkpoint: %w: %v", ports.ErrUnavailable, err)
	}
	return cp, nil
}

// SaveCheckpoint stores cp with the index; on disk it survives a restart.
func (k kept) SaveCheckpoint(_ context.Context, cp []byte) error {
	if err := k.idx.SetInternal(keyCheckpoint, cp); err != nil {
		return fmt.Errorf("bleve: save checkpoint: %w: %v", ports.ErrUnavailable, err)
	}
	return nil
}

// Close closes the index; one on disk must be closed before another
// process may open it.
func (k kept) Close() error { return k.idx.Close() }

// newInMemory creates a scorch index that lives in memory only: the same
// engine as on disk, so that both rank alike, and far faster to search than
// bleve's in-memory default (upsidedown over a treap).
func newInMemory(m mapping.IndexMapping) (blevesearch.Index, error) {
	return blevesearch.NewUsing("", m, scorch.Name, scorch.Name, nil)
}

// openOnDisk opens the scorch index at path, or creates it with m when
// there is none. An index written with another mapping (an older binary)
// is removed and created anew: it is derived data, and its use case
// rebuilds it from the store when the checkpoint is gone.
func openOnDisk(path string, m mapping.IndexMapping) (blevesearch.Index, error) {
	sum, err := mappingSum(m)
	if err != nil {
		return nil, err
	}
	idx, err := blevesearch.Open(path)
	if err == nil {
		held, gerr := idx.GetInternal(keyMapping)
		if gerr == nil && string(held) == string(sum) {
			return idx, nil
		}
		_ = idx.Close()
	}
	if err != nil && !errors.Is(err, blevesearch.ErrorIndexPathDoesNotExist) {
		return nil, fmt.Errorf("bleve: open %s: %w", path, err)
	}
	if err := os.RemoveAll(path); err != nil {
		return nil, fmt.Errorf("bleve: remove %s: %w", path, err)
	}
	idx, err = blevesearch.New(path, m)
	if err != nil {
		return nil, fmt.Errorf("bleve: create %s: %w", path, err)
	}
	if err := idx.SetInternal(keyMapping, sum); err != nil {
		_ = idx.Close()
		return nil, fmt.Errorf("bleve: create %s: %w", path, err)
	}
	return idx, nil
}

// mappingSum identifies a mapping by the SHA-256 of its JSON form.
func mappingSum(m mapping.IndexMapping) ([]byte, error) {
	raw, err := json.Marshal(m)
	if err != nil {
		return nil, fmt.Errorf("bleve: mapping: %w", err)
	}
	sum := sha256.Sum256(raw)
	return sum[:], nil
}
