//go:build tinygo

package jsonr

import "unsafe"

// load64 reads s[i:i+8] little-endian as one unaligned load (WebAssembly's i64.load is
// little-endian and takes any address). The portable form (load64.go) was a call of its
// own per eight bytes in the size-optimised TinyGo module, 14% of a GraphQL list's
// time. Callers check that i+8 <= len(s).
func load64(s string, i int) uint64 {
	return *(*uint64)(unsafe.Add(unsafe.Pointer(unsafe.StringData(s)), i))
}
