// Package usfinancials is the us_financials slice: point-in-time
// statements from SEC companyfacts, over a read cache of the companies.
package usfinancials
