//go:build tinygo

package main

// The cgo import makes TinyGo compile arc4random_tinygo.c into the module (see there).
// Both files are TinyGo-only: the std build has no cgo on wasip1.
import "C"
