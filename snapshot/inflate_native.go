//go:build !wasm

package snapshot

import (
	"compress/flate"
	"io"
	"sync"
)

// Natively body blocks are inflated by compress/flate, and the body cache is shared by
// the goroutines that serve requests, so it takes a mutex. (inflate_wasm.go: the
// module's single thread, and a copy of the same inflater without compress/flate's
// imports.)

type cacheLock = sync.Mutex

func newInflater(r io.Reader, dict []byte) io.ReadCloser { return flate.NewReaderDict(r, dict) }

func resetInflater(f io.ReadCloser, r io.Reader, dict []byte) error {
	return f.(flate.Resetter).Reset(r, dict)
}
