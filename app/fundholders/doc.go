// Package fundholders is the us_fund_holders slice: the funds (13F
// filers) holding a security, over a read cache of the master and the
// holdings.
package fundholders
