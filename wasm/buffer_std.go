//go:build !tinygo

package main

// newBuffer returns a zeroed buffer of size bytes (never zero-sized, so never a shared
// address). Go's collector already neither scans a []byte nor lets one bound its pace
// by more than GOGC allows, so every size is an ordinary allocation here.
func newBuffer(size uint32) []byte { return make([]byte, size, max(size, 1)) }
