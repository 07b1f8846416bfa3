// Package usfilings is the us_filing_indexes and us_search slice: filings,
// their sections, the section search index and its read cache.
package usfilings
