package usecase

import (
	"context"
	"encoding/json"
	"fmt"
)

// checkpointed is an index that keeps a checkpoint of its use case.
type Checkpointed interface {
	Checkpoint(ctx context.Context) ([]byte, error)
	SaveCheckpoint(ctx context.Context, cp []byte) error
}

// readCheckpoint decodes the index's checkpoint into v and says whether
// there was one. One that does not decode (written by another version) is
// no checkpoint: the index is then filled again from the store.
func ReadCheckpoint(ctx context.Context, x Checkpointed, v any) (bool, error) {
	raw, err := x.Checkpoint(ctx)
	if err != nil || len(raw) == 0 {
		return false, err
	}
	return json.Unmarshal(raw, v) == nil, nil
}

// saveCheckpoint stores v as the index's checkpoint.
func SaveCheckpoint(ctx context.Context, x Checkpointed, v any) error {
	raw, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("encode index checkpoint: %w", err)
	}
	return x.SaveCheckpoint(ctx, raw)
}
