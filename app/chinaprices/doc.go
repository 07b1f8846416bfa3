// Package chinaprices is the china_prices slice: the query, page, read
// cache and ingest use case of China A-share daily bars.
package chinaprices
