package memory

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"iter"
	"slices"
	"strings"
	"sync"

	"github.com/quarrydata/quarry/domain/judgment"
	"github.com/quarrydata/quarry/ports"
)

// Judgments holds India court judgments, tokenized, by judgment id, each
// with the digest of its contents as its version and the number of the
// write that last changed it.
type Judgments struct {
	mu   sync.RWMutex
	byID map[string]versionedJudgment
	// writes counts the writes that changed a judgment.
	writes int64
}

type versionedJudgment struct {
	j       judgment.Judgment
	version string
	write   int64
}

var _ ports.JudgmentStore = (*Judgments)(nil)

// NewJudgments returns an empty judgment store.
func NewJudgments() *Judgments { return &Judgments{byID: map[string]versionedJudgment{}} }

// Judgment returns the judgment with that id.
func (s *Judgments) Judgment(_ context.Context, id string) (judgment.Judgment, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	v, ok := s.byID[id]
	if !ok {
		return judgment.Judgment{}, fmt.Errorf("judgment %s: %w", id, ports.ErrNotFound)
	}
	return cloneJudgment(v.j), nil
}

// JudgmentsByID returns the judgments held under ids, ordered by id.
func (s *Judgments) JudgmentsByID(_ context.Context, ids []string) ([]judgment.Judgment, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	sorted := slices.Compact(slices.Sorted(slices.Values(ids)))
	out := make([]judgment.Judgment, 0, len(sorted))
	for _, id := range sorted {
		if v, ok := s.byID[id]; ok {
			out = append(out, cloneJudgment(v.j))
		}
	}
	return out, nil
}

// UpsertJudgments inserts or replaces judgments by id, counting those that
// were new or differed.
func (s *Judgments) UpsertJudgments(_ context.Context, js []judgment.Judgment) (int, error) {
	versions := make([]string, len(js))
	for i, j := range js {
		raw, err := json.Marshal(j)
		if err != nil {
			return 0, fmt.Errorf("memory: judgment %s: %w", j.ID, err)
		}
		sum := sha256.Sum256(raw)
		versions[i] = base64.RawStdEncoding.EncodeToString(sum[:16])
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	changed := map[string]bool{}
	for i, j := range js {
		if held, ok := s.byID[j.ID]; ok && held.version == versions[i] {
			continue
		}
		if len(changed) == 0 {
			s.writes++
		}
		s.byID[j.ID] = versionedJudgment{j: cloneJudgment(j), version: versions[i], write: s.writes}
		changed[j.ID] = true
	}
	return len(changed), nil
}

// JudgmentVersions returns the version of every judgment changed by a
// write numbered above mark, and the number of the last write.
func (s *Judgments) JudgmentVersions(_ context.Context, mark int64) (map[string]string, int64, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	out := map[string]string{}
	if mark >= s.writes {
		return out, s.writes, nil
	}
	for id, v := range s.byID {
		if v.write > mark {
			out[id] = v.version
		}
	}
	return out, s.writes, nil
}

func cloneJudgment(j judgment.Judgment) judgment.Judgment {
	j.Parties = slices.Clone(j.Parties)
	j.Judges = slices.Clone(j.Judges)
	j.Citations = slices.Clone(j.Citations)
	return j
}

// JudgmentList yields the matching judgments without their text, by
// decision date then id. The store is in memory already; the metadata of
// the matches is copied under the lock and yielded after it.
func (s *Judgments) JudgmentList(_ context.Context, q ports.JudgmentListQuery) iter.Seq2[judgment.Judgment, error] {
	s.mu.RLock()
	var out []judgment.Judgment
	for _, v := range s.byID {
		j := v.j
		if (q.Court == "" || strings.EqualFold(j.Court, q.Court)) &&
			(q.DecidedFrom == "" || j.DecisionDate >= q.DecidedFrom) && (q.DecidedTo == "" || j.DecisionDate <= q.DecidedTo) {
			j.Text = ""
			out = append(out, cloneJudgment(j))
		}
	}
	s.mu.RUnlock()
	slices.SortFunc(out, func(a, b judgment.Judgment) int {
		return cmp.Or(strings.Compare(a.DecisionDate, b.DecisionDate), strings.Compare(a.ID, b.ID))
	})
	return func(yield func(judgment.Judgment, error) bool) {
		for _, j := range out {
			if !yield(j, nil) {
				return
			}
		}
	}
}
