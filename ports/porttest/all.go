package porttest

import "testing"

// Stores names, for each port, how to make empty stores for one test. An
// adapter sets the fields of the ports it implements; RunAll skips the rest.
type Stores struct {
	// Platform runs the account-side suites: accounts, keys, ledger,
	// browser credentials, key watch, rate buckets and idempotency (the
	// last three skip themselves when the Platform leaves their store nil).
	Platform      NewPlatform
	Securities    NewSecurityStore
	ChinaPrices   NewChinaPriceStore
	IndiaPrices   NewIndiaPriceStore
	FundHoldings  NewFundHoldingStore
	Financials    NewFinancialsStore
	Filings       NewFilingStore
	Sections      NewSectionStore
	SectionIndex  NewSectionIndex
	Judgments     NewJudgmentStore
	JudgmentIndex NewJudgmentIndex
	Vault         NewVault
	SyncStates    NewSyncStates
	SourceLeases  NewSourceLeases
}

// suite is one port's contract as RunAll runs it: field is the Stores field
// it needs, given whether that field is set.
type suite struct {
	name, field string
	given       bool
	run         func(t *testing.T)
}

// RunAll runs the contract suite of every port s provides, each as a
// subtest named for it, so an adapter checks the whole contract with one
// call. A port left nil is a skipped subtest naming the missing field, so
// the test's output says what was not checked.
func RunAll(t *testing.T, s Stores) {
	for _, c := range s.suites() {
		t.Run(c.name, func(t *testing.T) {
			if !c.given {
				t.Skipf("Stores.%s is nil", c.field)
			}
			c.run(t)
		})
	}
}

func (s Stores) suites() []suite {
	return []suite{
		{"accounts", "Platform", s.Platform != nil, func(t *testing.T) { RunAccounts(t, s.Platform) }},
		{"keys", "Platform", s.Platform != nil, func(t *testing.T) { RunKeys(t, s.Platform) }},
		{"ledger", "Platform", s.Platform != nil, func(t *testing.T) { RunLedger(t, s.Platform) }},
		{"browser credentials", "Platform", s.Platform != nil, func(t *testing.T) { RunBrowserCredentials(t, s.Platform) }},
		{"key watch", "Platform", s.Platform != nil, func(t *testing.T) { RunKeyWatch(t, s.Platform) }},
		{"rate buckets", "Platform", s.Platform != nil, func(t *testing.T) { RunRateBuckets(t, s.Platform) }},
		{"idempotency", "Platform", s.Platform != nil, func(t *testing.T) { RunIdempotency(t, s.Platform) }},
		{"securities", "Securities", s.Securities != nil, func(t *testing.T) { RunSecurities(t, s.Securities) }},
		{"china prices", "ChinaPrices", s.ChinaPrices != nil, func(t *testing.T) { RunChinaPrices(t, s.ChinaPrices) }},
		{"india prices", "IndiaPrices", s.IndiaPrices != nil, func(t *testing.T) { RunIndiaPrices(t, s.IndiaPrices) }},
		{"fund holdings", "FundHoldings", s.FundHoldings != nil, func(t *testing.T) { RunFundHoldings(t, s.FundHoldings) }},
		{"financials", "Financials", s.Financials != nil, func(t *testing.T) { RunFinancials(t, s.Financials) }},
		{"filings", "Filings", s.Filings != nil, func(t *testing.T) { RunFilings(t, s.Filings) }},
		{"sections", "Sections", s.Sections != nil, func(t *testing.T) { RunSections(t, s.Sections) }},
		{"section index", "SectionIndex", s.SectionIndex != nil, func(t *testing.T) { RunSectionIndex(t, s.SectionIndex) }},
		{"judgments", "Judgments", s.Judgments != nil, func(t *testing.T) { RunJudgments(t, s.Judgments) }},
		{"judgment index", "JudgmentIndex", s.JudgmentIndex != nil, func(t *testing.T) { RunJudgmentIndex(t, s.JudgmentIndex) }},
		{"vault", "Vault", s.Vault != nil, func(t *testing.T) { RunVault(t, s.Vault) }},
		{"sync states", "SyncStates", s.SyncStates != nil, func(t *testing.T) { RunSyncStates(t, s.SyncStates(t)) }},
		{"source leases", "SourceLeases", s.SourceLeases != nil, func(t *testing.T) { RunSourceLeases(t, s.SourceLeases) }},
	}
}
