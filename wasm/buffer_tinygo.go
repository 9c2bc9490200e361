//go:build tinygo

package main

import "unsafe"

// allocResident is the patched TinyGo runtime's resident allocation
// (wasm/tinygo/gc-resident.patch): size bytes the collector neither scans nor counts
// when it decides how far to grow the heap.
//
//go:linkname allocResident runtime.cdaedgeAllocResident
func allocResident(size uintptr) unsafe.Pointer

// newBuffer returns a zeroed buffer of size bytes (never zero-sized, so never a shared
// address). Buffers of residentMin bytes or more, in practice a snapshot's index part,
// are resident allocations: the heap then grows with the requests' working memory
// alone instead of doubling around the index (README.md, "TinyGo and its collector").
func newBuffer(size uint32) []byte {
	if size >= residentMin {
		return unsafe.Slice((*byte)(allocResident(uintptr(size))), size)
	}
	return make([]byte, size, max(size, 1))
}
