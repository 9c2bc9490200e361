//go:build cdaembed

package main

import _ "embed"

// embeddedModule is the engine's wasm module, copied to host/module.wasm by the build.
//
//go:embed module.wasm
var embeddedModule []byte
