// Package indiaprices is the india_prices slice: NSE bhavcopy rows, their
// query, page, stream, export and ingest use case.
package indiaprices
