// Package wasmstrip removes a WebAssembly module's custom sections (function names,
// producer and feature notes).
//
// Custom sections have no meaning at run time (WebAssembly core spec, section 5.5.3), and
// the "name" section alone is 7% of the TinyGo build and 2% of the standard Go one;
// TinyGo keeps it even with -no-debug. The modules are shipped to edge workers, where
// every byte counts against a plan's script size limit.
package wasmstrip

import (
	"bytes"
	"encoding/binary"
	"errors"
	"strconv"
)

// wasmHeader is the magic number and version 1 that every module starts with.
var wasmHeader = []byte{0, 'a', 's', 'm', 1, 0, 0, 0}

// Strip returns module without its custom sections, the other sections copied byte for
// byte in their order. It fails on anything that is not a well-framed version-1 module.
func Strip(module []byte) ([]byte, error) {
	if !bytes.HasPrefix(module, wasmHeader) {
		return nil, errors.New("not a WebAssembly module (version 1)")
	}
	out := append(make([]byte, 0, len(module)), wasmHeader...)
	for rest := module[len(wasmHeader):]; len(rest) > 0; {
		id := rest[0]
		size, n := binary.Uvarint(rest[1:])
		if n <= 0 || size > uint64(len(rest)-1-n) {
			return nil, errors.New("section at offset " + strconv.Itoa(len(module)-len(rest)) + ": bad size")
		}
		end := 1 + n + int(size)
		if id != 0 {
			out = append(out, rest[:end]...)
		}
		rest = rest[end:]
	}
	return out, nil
}
