// Package chinasecurities is the china_securities slice: looking up an
// A-share listing by code, over a read cache of the listings.
package chinasecurities
