// Package cli is what the quarry commands do: serve, migrate, ingest,
// sync, back up, verify the ledger, the operator commands and the vault's.
// Each takes the configuration and the writers it reports on; bootstrap
// opens what it works on (the stores, the ingesters, the sources), so the
// commands' behaviour stays apart from the wiring. cmd/quarry parses the
// command line and calls them; the end-to-end tests call them too.
package cli
