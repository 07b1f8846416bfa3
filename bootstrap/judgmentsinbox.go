package bootstrap

import (
	"context"
	"errors"
	"time"

	"go.uber.org/fx"
	"go.uber.org/zap"

	"github.com/quarrydata/quarry/adapters/inbox"
	"github.com/quarrydata/quarry/app/sourcesync"
	"github.com/quarrydata/quarry/app/usecase"
	"github.com/quarrydata/quarry/domain/dataset"
	"github.com/quarrydata/quarry/ports"
)

// judgmentsInbox names the India judgments inbox on the command line.
const judgmentsInbox = "judgments"

// inboxFills lists, by inbox, the catalog datasets its runs fill.
var inboxFills = map[string][]dataset.ID{
	judgmentsInbox: {dataset.IndiaJudgments, dataset.IndiaSearch},
}

// errInboxNotServed refuses the judgments inbox on the serve schedule.
var errInboxNotServed = errors.New("the judgments inbox tokenizes with " + EnvVaultKey +
	", which the serving process never holds; run `quarry sync judgments` with the key beside serve instead (a cron job or systemd timer), and leave judgments out of " + EnvSync)

// judgmentsRemedy is what configures the judgments' governed source, for
// the 503 of a judgments dataset that is source_required.
const judgmentsRemedy = "an operator sets " + EnvJudgmentsInbox + " and " + EnvVaultKey +
	" (never for serve) and runs `quarry sync judgments`, or loads files with `quarry ingest india_judgments FILE` and the key"

// syncInboxes builds the judgments inbox when it is configured, or names
// what is missing: the folder, or the vault key without which nothing
// could be tokenized.
func syncInboxes(cfg Config, now func() time.Time, log *zap.Logger) ([]ports.Inbox, []sourcesync.Unconfigured, error) {
	switch {
	case cfg.Sync.JudgmentsInbox == "":
		return nil, []sourcesync.Unconfigured{{Name: judgmentsInbox, Remedy: "set " + EnvJudgmentsInbox +
			" to the folder licensed judgment deliveries are dropped into, and " + EnvVaultKey}}, nil
	case len(cfg.VaultKey) == 0:
		return nil, []sourcesync.Unconfigured{{Name: judgmentsInbox, Remedy: errNoVaultKey.Error()}}, nil
	}
	in, err := inbox.New(inbox.Config{Name: judgmentsInbox, Dataset: string(dataset.IndiaJudgments), Dir: cfg.Sync.JudgmentsInbox,
		Suffix: ".zip", Settle: cfg.Sync.InboxSettle, Now: now, Log: log})
	if err != nil {
		return nil, nil, err
	}
	return []ports.Inbox{in}, nil, nil
}

// governJudgments makes the datasets the judgments fill alone
// source_required on an empty store until the judgments inbox has run:
// the serving process never holds the vault key, so what it can see of a
// configured governed source is the inbox's checkpoint, which only a run
// with the inbox and the key writes.
func governJudgments() fx.Option {
	return fx.Invoke(func(a *usecase.Availability, states ports.SyncStates) {
		ran := func(ctx context.Context) (bool, error) {
			st, err := states.State(ctx, judgmentsInbox)
			return !st.LastSuccess.IsZero() || !st.LastErrorAt.IsZero(), err
		}
		for _, id := range inboxFills[judgmentsInbox] {
			a.GovernUntil(id, ran, judgmentsRemedy)
		}
	})
}
