package cli

import (
	"context"
	"fmt"
	"io"

	"github.com/quarrydata/quarry/bootstrap"
	"github.com/quarrydata/quarry/domain/ledger"
)

// VerifyLedger checks every account's balance against its entries and fails
// when any differ. On the embedded backend it reads beside a running server.
func VerifyLedger(ctx context.Context, cfg bootstrap.Config, out io.Writer) error {
	var mismatches []ledger.Mismatch
	err := bootstrap.WithPlatform(ctx, cfg, false, func(store bootstrap.OperatorStore) (err error) {
		mismatches, err = store.Verify(ctx)
		return err
	})
	if err != nil {
		return err
	}
	for _, m := range mismatches {
		fmt.Fprintf(out, "MISMATCH account %s: balance %d, sum of entries %d\n", m.AccountID, m.Balance, m.Sum)
	}
	if len(mismatches) > 0 {
		return fmt.Errorf("ledger verify: %d account(s) out of balance", len(mismatches))
	}
	fmt.Fprintln(out, "ledger verify: every balance equals the sum of its entries")
	return nil
}
