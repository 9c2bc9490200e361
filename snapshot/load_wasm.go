//go:build wasm

package snapshot

import "unsafe"

// In WebAssembly, neither TinyGo's LLVM nor Go's wasm backend merges the byte loads of
// load_native.go's le64 into one: TinyGo made of it a 4-byte load and four 1-byte
// loads, each bounds-checked again by the runtime (wazero, V8). WebAssembly memory is
// little-endian and allows unaligned loads (an alignment is only a hint), so one load
// reads the same value. The bounds check stays, so a damaged file cannot read past b.

// le64 reads the little-endian u64 at the start of b.
func le64(b string) uint64 {
	_ = b[7]
	return *(*uint64)(unsafe.Pointer(unsafe.StringData(b)))
}

// le32 reads the little-endian u32 at the start of b.
func le32(b string) uint32 {
	_ = b[3]
	return *(*uint32)(unsafe.Pointer(unsafe.StringData(b)))
}
