// Package indiajudgments is the india_judgments and india_search slice:
// court judgments, their search index, rendered PDFs and exports.
package indiajudgments
