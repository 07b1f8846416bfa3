package sourcesync

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/quarrydata/quarry/domain/feed"
	"github.com/quarrydata/quarry/ports"
)

// BulkOutcome is what one bulk backfill did.
type BulkOutcome struct {
	Source string
	// NotModified: the archive was still the version last loaded, and
	// nothing was fetched or loaded.
	NotModified bool
	// Files and Rows count what was loaded; Bytes the archive's size on disk.
	Files, Rows int
	Bytes       int64
	Elapsed     time.Duration
}

// BulkCheckpoint names the checkpoint of a source's bulk runs: the
// version of the archive last loaded, apart from the days it holds, since
// an archive covers no day range.
func BulkCheckpoint(source string) string { return source + "/bulk" }

// Bulk backfills the source named from its bulk archive, under its lease:
// the archive is downloaded into a directory of its own unless it is the
// version the bulk checkpoint holds, loaded whole, and only then is its
// version saved; a run that fails loads nothing and the next one fetches
// the archive again.
func (s *Syncer) Bulk(ctx context.Context, name string) (BulkOutcome, error) {
	picked, err := s.Pick([]string{name})
	if err != nil {
		return BulkOutcome{}, err
	}
	src, ok := picked[0].(ports.BulkSource)
	if !ok {
		return BulkOutcome{}, fmt.Errorf("%w: %s publishes no bulk archive", ErrUnknownSource, name)
	}
	var out BulkOutcome
	o := s.held(ctx, src, func(ctx context.Context) Outcome {
		return s.spooled(ctx, name, func(ctx context.Context) Outcome {
			out, err = s.bulk(ctx, src)
			return Outcome{Source: name, Err: err}
		})
	})
	return out, o.Err
}

func (s *Syncer) bulk(ctx context.Context, src ports.BulkSource) (BulkOutcome, error) {
	start := time.Now()
	out := BulkOutcome{Source: src.Name()}
	st, err := s.states.State(ctx, BulkCheckpoint(src.Name()))
	if err != nil {
		return out, err
	}
	got, err := src.Bulk(ctx, ports.SpoolFrom(ctx).Dir(), ports.Version{ETag: st.ETag, LastModified: st.LastModified})
	if err == nil && !got.NotModified {
		out.Rows, err = s.load.Load(ctx, got.Files)
		out.Files, out.Bytes = len(got.Files), bytesOf(got.Files)
	}
	out.NotModified, out.Elapsed = got.NotModified, time.Since(start)
	return out, s.saveBulk(ctx, st, got, out, err)
}

// saveBulk records the run on the bulk checkpoint: the version loaded and
// its counts, or why it failed.
func (s *Syncer) saveBulk(ctx context.Context, st feed.State, got ports.Bulk, out BulkOutcome, err error) error {
	if err != nil {
		st.LastError, st.LastErrorAt = err.Error(), s.now()
		_ = s.states.SaveState(context.WithoutCancel(ctx), st)
		return err
	}
	if !got.NotModified {
		st.ETag, st.LastModified = got.Version.ETag, got.Version.LastModified
		st.Files, st.Rows = st.Files+int64(out.Files), st.Rows+int64(out.Rows)
	}
	st.LastSuccess, st.LastError, st.LastErrorAt = s.now(), "", time.Time{}
	return s.states.SaveState(ctx, st)
}

// bytesOf sums the sizes of the files: on disk for those read in place.
func bytesOf(files []ports.SourceFile) int64 {
	var n int64
	for _, f := range files {
		if f.Path == "" {
			n += int64(len(f.Body))
			continue
		}
		if fi, err := os.Stat(f.Path); err == nil {
			n += fi.Size()
		}
	}
	return n
}
