//go:build wasm

package snapshot

import (
	"io"

	"github.com/cdaedge/cdaedge/snapshot/internal/inflate"
)

// In the WebAssembly module body blocks are inflated by internal/inflate (the standard
// library's inflater without compress/flate's imports of fmt and os), and the module
// is single-threaded, so the body cache's lock does nothing.

type cacheLock struct{}

func (cacheLock) Lock()   {}
func (cacheLock) Unlock() {}

func newInflater(r io.Reader, dict []byte) io.ReadCloser { return inflate.NewReaderDict(r, dict) }

func resetInflater(f io.ReadCloser, r io.Reader, dict []byte) error {
	return f.(inflate.Resetter).Reset(r, dict)
}
