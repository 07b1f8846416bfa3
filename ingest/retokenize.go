package ingest

import (
	"context"
	"fmt"
	"maps"
	"slices"

	"github.com/quarrydata/quarry/domain/judgment"
	"github.com/quarrydata/quarry/domain/pii"
	"github.com/quarrydata/quarry/ports"
)

// retokenizePage is how many stored judgments RetokenizeJudgments reads
// and writes at a time: a judgment's text is some 12 KiB, so a page holds
// a few MiB.
const retokenizePage = 200

// RetokenizeJudgments brings every judgment the store holds up to the
// current rules of tokenization (judgment.Retokenize): persons and PANs
// that the rules of its time left in clear are replaced by their tokens
// under key, and the tokens it holds are kept. It reads the judgments'
// ids first, then their texts a page at a time, and writes each page's
// changed judgments after their vault entries (when vault is not nil), so
// every token served can be revealed. Read counts the judgments checked,
// Records those changed, Tokens the entries of the tokens added. Running
// it again changes nothing.
func RetokenizeJudgments(ctx context.Context, key pii.Key, store ports.JudgmentStore, vault ports.Vault) (JudgmentCounts, error) {
	var ids []string
	for j, err := range store.JudgmentList(ctx, ports.JudgmentListQuery{}) {
		if err != nil {
			return JudgmentCounts{}, fmt.Errorf("list the stored judgments: %w", err)
		}
		ids = append(ids, j.ID)
	}
	var got JudgmentCounts
	for page := range slices.Chunk(ids, retokenizePage) {
		if err := retokenizeOne(ctx, key, store, vault, page, &got); err != nil {
			return got, err
		}
	}
	return got, nil
}

// retokenizeOne retokenizes the judgments of ids and writes those changed.
func retokenizeOne(ctx context.Context, key pii.Key, store ports.JudgmentStore, vault ports.Vault, ids []string, got *JudgmentCounts) error {
	js, err := store.JudgmentsByID(ctx, ids)
	if err != nil {
		return fmt.Errorf("read the stored judgments: %w", err)
	}
	entries := map[string]pii.Entry{}
	var changed []judgment.Judgment
	for _, j := range js {
		out, es, err := judgment.Retokenize(key, j)
		if err != nil {
			return fmt.Errorf("judgment %s: %w", j.ID, err)
		}
		got.Read++
		if out.Equal(j) {
			continue
		}
		changed = append(changed, out)
		for _, e := range es {
			entries[e.Token] = e
		}
	}
	if len(changed) == 0 {
		return nil
	}
	if vault != nil {
		if err := vault.Put(ctx, slices.Collect(maps.Values(entries))); err != nil {
			return fmt.Errorf("write the vault: %w", err)
		}
	}
	n, err := store.UpsertJudgments(ctx, changed)
	got.Records += n
	got.Tokens += len(entries)
	if err != nil {
		return fmt.Errorf("write the retokenized judgments: %w", err)
	}
	return nil
}
