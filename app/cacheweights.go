package app

import (
	"unsafe"
)

// The weighers below estimate, in bytes, the memory a cached value holds:
// its own struct, the backing arrays of its slices (by capacity) and the
// bytes of its strings. They are estimates: a string shared by two values
// is counted in each, and the allocator's rounding is not counted. unsafe
// is used for Sizeof only, which the compiler answers.

// stringHeader is the size of a string's header, a pointer and a length.
const stringHeader = int(unsafe.Sizeof(""))

func stringBytes(ss ...string) int {
	n := 0
	for _, s := range ss {
		n += len(s)
	}
	return n
}

func stringWeight(s string) int { return stringHeader + len(s) }

func stringsWeight(ss []string) int {
	return int(unsafe.Sizeof(ss)) + cap(ss)*stringHeader + stringBytes(ss...)
}
