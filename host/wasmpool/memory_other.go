//go:build !linux

package wasmpool

import "github.com/tetratelabs/wazero/experimental"

// newMemoryAllocator returns the allocator of the pool's instances: elsewhere than on
// Linux, a Go slice (wazero's own way).
func newMemoryAllocator() experimental.MemoryAllocator {
	return experimental.MemoryAllocatorFunc(func(capacity, max uint64) experimental.LinearMemory {
		return &sliceMemory{}
	})
}
