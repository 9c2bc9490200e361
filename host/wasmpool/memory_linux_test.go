package wasmpool

import (
	"testing"
	"unsafe"
)

// TestMappedMemoryGrowsInPlace: growing never moves or copies the memory, and stops at
// the reservation.
func TestMappedMemoryGrowsInPlace(t *testing.T) {
	const page = 64 << 10
	m := newMemoryAllocator().Allocate(page, 16*page)
	b := m.Reallocate(page)
	if len(b) != page {
		t.Fatalf("len %d", len(b))
	}
	b[page-1] = 42
	g := m.Reallocate(8 * page)
	if len(g) != 8*page || unsafe.SliceData(g) != unsafe.SliceData(b) || g[page-1] != 42 {
		t.Fatal("the memory moved or lost its contents when it grew")
	}
	if m.Reallocate(17*page) != nil {
		t.Fatal("grew past the reservation")
	}
	m.Free()
	m.Free() // idempotent
}
