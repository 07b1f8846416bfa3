// Package ask answers natural-language questions over the governed corpus
// (POST /ask): it reads the US statements, US filing sections, China
// listings and India judgments through their slices, and only what the
// caller's scopes and the datasets' availability allow.
package ask
