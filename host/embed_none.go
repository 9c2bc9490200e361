//go:build !cdaembed

package main

// embeddedModule is empty in a build without -tags cdaembed: --engine wasm then needs
// --module FILE.
var embeddedModule []byte
