// Command wasmstrip writes a WebAssembly module without its custom sections (see
// package wasmstrip): wasmstrip IN OUT.
package main

import (
	"fmt"
	"os"

	"github.com/cdaedge/cdaedge/wasm/wasmstrip"
)

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: wasmstrip IN OUT")
		os.Exit(2)
	}
	in, err := os.ReadFile(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, "wasmstrip:", err)
		os.Exit(1)
	}
	out, err := wasmstrip.Strip(in)
	if err != nil {
		fmt.Fprintf(os.Stderr, "wasmstrip: %s: %v\n", os.Args[1], err)
		os.Exit(1)
	}
	if err := os.WriteFile(os.Args[2], out, 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "wasmstrip:", err)
		os.Exit(1)
	}
}
