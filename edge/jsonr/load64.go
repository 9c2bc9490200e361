//go:build !tinygo

package jsonr

// load64 reads s[i:i+8] little-endian; the compiler merges the bytes into one load.
// Callers check that i+8 <= len(s).
func load64(s string, i int) uint64 {
	s = s[i : i+8]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}
