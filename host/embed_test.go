package main

import (
	"bytes"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestEmbeddedModuleIsFresh checks that host/module.wasm, the module the host embeds,
// is the TinyGo build of this source: the same bytes as a fresh build
// ($CDA_WASM_MODULE_TINYGO, which `go tool task test` builds and names) when this
// machine's TinyGo is the toolchain that built the file (host/module.toolchain, the
// output of `tinygo version`, which names its Go and LLVM too). Another toolchain may
// build other bytes that behave the same, so it is not compared against.
func TestEmbeddedModuleIsFresh(t *testing.T) {
	fresh, tinygo := os.Getenv("CDA_WASM_MODULE_TINYGO"), os.Getenv("CDA_TINYGO")
	if fresh == "" || tinygo == "" {
		t.Skip("no CDA_WASM_MODULE_TINYGO and CDA_TINYGO: no fresh build to compare with (go tool task test sets both)")
	}
	recorded, err := os.ReadFile("module.toolchain")
	if err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(tinygo, "version").Output()
	if err != nil {
		t.Fatalf("%s version: %v", tinygo, err)
	}
	if mine, theirs := strings.TrimSpace(string(out)), strings.TrimSpace(string(recorded)); mine != theirs {
		t.Skipf("host/module.wasm was built by %q and this machine has %q: their bytes may differ, so they are not compared", theirs, mine)
	}
	want, err := os.ReadFile(fresh)
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile("module.wasm")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("host/module.wasm (%d bytes) is not the TinyGo build of this source (%s, %d bytes): run `go tool task module:embed` and commit host/module.wasm", len(got), fresh, len(want))
	}
}
