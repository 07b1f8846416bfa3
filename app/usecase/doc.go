// Package usecase holds what the use cases of every slice share: the
// errors they return, the clock, as_of and date parsing, dataset
// availability, export datasets, search bounds and index checkpoints. It
// depends on the domain rules and on ports, never on an adapter.
package usecase
