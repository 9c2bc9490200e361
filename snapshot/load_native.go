//go:build !wasm

package snapshot

// le64 reads the little-endian u64 at the start of b. Go's compilers for the native
// architectures merge these byte loads into one load.
func le64(b string) uint64 {
	_ = b[7]
	return uint64(b[0]) | uint64(b[1])<<8 | uint64(b[2])<<16 | uint64(b[3])<<24 |
		uint64(b[4])<<32 | uint64(b[5])<<40 | uint64(b[6])<<48 | uint64(b[7])<<56
}

// le32 reads the little-endian u32 at the start of b.
func le32(b string) uint32 {
	_ = b[3]
	return uint32(b[0]) | uint32(b[1])<<8 | uint32(b[2])<<16 | uint32(b[3])<<24
}
