package wasmpool

// sliceMemory is a linear memory in a Go slice that grows by appending (and so by
// copying), as wazero's default memory does.
type sliceMemory struct{ buf []byte }

// Reallocate implements experimental.LinearMemory.
func (m *sliceMemory) Reallocate(size uint64) []byte {
	if n := uint64(len(m.buf)); size > n {
		m.buf = append(m.buf, make([]byte, size-n)...)
	}
	return m.buf[:size]
}

// Free implements experimental.LinearMemory.
func (m *sliceMemory) Free() { m.buf = nil }
