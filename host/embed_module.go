//go:build cdaembed

package main

import _ "embed"

// embeddedModule is the engine's wasm module as it ships to the edge: host/module.wasm,
// the TinyGo build kept in the repository (`go tool task module:embed` refreshes it, and
// TestEmbeddedModuleIsFresh checks it against a fresh build). Building the host then
// needs no TinyGo toolchain.
//
//go:embed module.wasm
var embeddedModule []byte
