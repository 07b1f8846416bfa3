// Package ingest loads source files, and the bundled samples, into the
// datasets' stores: it opens the files `quarry ingest` names (directories
// and zip archives, within the size bound), reads them with the source-
// format adapters and writes through the slices' use cases or stores. It
// composes adapters, so it is neither app (which imports no adapter) nor
// an adapter (which imports no other); bootstrap wires it, and tests load
// samples through it without the service's wiring.
package ingest
