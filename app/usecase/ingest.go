package usecase

import "io"

// OpenFile opens a named input file of an ingestion run. The readers of
// source formats (adapters) take whatever opens files, so the ingest
// command can draw progress as they read.
type OpenFile func(name string) (io.ReadCloser, error)
