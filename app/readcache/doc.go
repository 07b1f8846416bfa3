// Package readcache is the one in-process read cache under
// QUARRY_CACHE_BYTES: each slice's cache and memo is a space of it, weighed
// in bytes against the one budget.
package readcache
