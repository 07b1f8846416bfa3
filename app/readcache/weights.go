package readcache

import (
	"unsafe"
)

// The weighers below estimate, in bytes, the memory a cached value holds:
// its own struct, the backing arrays of its slices (by capacity) and the
// bytes of its strings. They are estimates: a string shared by two values
// is counted in each, and the allocator's rounding is not counted. unsafe
// is used for Sizeof only, which the compiler answers.

// stringHeader is the size of a string's header, a pointer and a length.
const StringHeader = int(unsafe.Sizeof(""))

func StringBytes(ss ...string) int {
	n := 0
	for _, s := range ss {
		n += len(s)
	}
	return n
}

func StringWeight(s string) int { return StringHeader + len(s) }

func StringsWeight(ss []string) int {
	return int(unsafe.Sizeof(ss)) + cap(ss)*StringHeader + StringBytes(ss...)
}
