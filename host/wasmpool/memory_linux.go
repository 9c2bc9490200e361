package wasmpool

import (
	"syscall"
	"time"

	"github.com/tetratelabs/wazero/experimental"
)

// mmapMemory backs an instance's linear memory with an anonymous private mapping of its
// maximum size, reserved once and never moved: growing the memory only lengthens the
// slice. wazero's default memory is a Go slice that memory.grow extends by appending,
// which copies the whole memory and leaves the old copy to the host's collector, and
// whose pages all count towards the host's GOGC goal (so the host's heap could reach
// twice the instances' memory). Here memory.grow never copies, pages the guest never
// touched (the tail of a heap the guest doubled) take no physical memory, and the host's
// collector neither scans nor counts the mapping.
type mmapMemory struct {
	buf []byte // the whole reservation; the memory is buf[:size]
}

// newMemoryAllocator returns the allocator of the pool's instances.
func newMemoryAllocator() experimental.MemoryAllocator {
	return experimental.MemoryAllocatorFunc(func(capacity, max uint64) experimental.LinearMemory {
		// MAP_NORESERVE: the reservation is address space, not committed memory.
		b, err := syscall.Mmap(-1, 0, int(max), syscall.PROT_READ|syscall.PROT_WRITE,
			syscall.MAP_PRIVATE|syscall.MAP_ANON|syscall.MAP_NORESERVE)
		if err != nil {
			return &sliceMemory{} // no address space for it: wazero's way
		}
		// Huge pages where the kernel allows them: loading a snapshot's index part
		// touches hundreds of MiB at once, and one fault per 2 MiB instead of per 4 KiB
		// is most of an instance's start-up time on a virtual machine. Advice only: it
		// fails harmlessly where transparent huge pages are off.
		_ = syscall.Madvise(b, 14) // MADV_HUGEPAGE (not in package syscall)
		return &mmapMemory{buf: b}
	})
}

// Reallocate implements experimental.LinearMemory: the memory grows in place.
func (m *mmapMemory) Reallocate(size uint64) []byte {
	if m.buf == nil || size > uint64(len(m.buf)) {
		return nil
	}
	return m.buf[:size:size]
}

// unmapDelay is how long a freed memory stays mapped (its pages already given back).
// wazero frees a module's memory when the module is closed, and the runtime's Close
// closes modules even while a call runs in one (Pool.Close whose context ran out): that
// call then reads zeros instead of faulting on an unmapped page. Calls end within the
// engine's step budget (about a second of work, D11), well within this delay.
const unmapDelay = time.Minute

// Free implements experimental.LinearMemory: the pages go back to the system at once,
// the address space after unmapDelay.
func (m *mmapMemory) Free() {
	b := m.buf
	if b == nil {
		return
	}
	m.buf = nil
	_ = syscall.Madvise(b, syscall.MADV_DONTNEED)
	time.AfterFunc(unmapDelay, func() { _ = syscall.Munmap(b) })
}
