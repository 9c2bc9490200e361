//go:build tinygo

// The cgo import makes TinyGo compile arc4random_tinygo.c into the module (see there).
// Both files are TinyGo-only: the std build has no cgo on wasip1.

package main

import "C"
