package sqlite_test

import (
	"context"
	"path/filepath"
	"testing"
)

// BenchmarkHotKeyDebit debits one account with one key from many
// goroutines at once, the metered hot key: every debit is durable when it
// returns, and group commit shares each fsync among the debits queued
// behind it.
func BenchmarkHotKeyDebit(b *testing.B) {
	s := open(b, filepath.Join(b.TempDir(), "platform.db"))
	accountID, keyID := funded(b, s, 1<<60)
	ctx := context.Background()
	b.SetParallelism(32)
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if _, err := s.Debit(ctx, debitOf(accountID, keyID)); err != nil {
				b.Error(err)
				return
			}
		}
	})
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "debits/s")
}
