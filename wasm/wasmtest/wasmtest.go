// Package wasmtest gives tests the engine's WebAssembly module.
package wasmtest

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"

	"github.com/cdaedge/cdaedge/wasm/wasmstrip"
)

// EnvModule names an environment variable that, when set, is the path of a prebuilt
// module to use instead of building one (for example a TinyGo build).
const EnvModule = "CDA_WASM_MODULE"

// PackagePath is the import path of the module's main package.
const PackagePath = "github.com/cdaedge/cdaedge/wasm"

// built caches the module across the tests of one process: the build is the expensive
// part, and every test wants the same bytes.
var built struct {
	sync.Mutex
	wasm []byte
}

// Module returns the module's bytes: the file named by $CDA_WASM_MODULE if set, else a
// std Go build (GOOS=wasip1 GOARCH=wasm -buildmode=c-shared, stripped of custom sections
// as build:wasm:std does) made once per test process.
// Callers must not modify the returned slice.
func Module(t testing.TB) []byte {
	t.Helper()
	if path := os.Getenv(EnvModule); path != "" {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("read %s: %v", EnvModule, err)
		}
		return b
	}
	built.Lock()
	defer built.Unlock()
	if built.wasm == nil {
		built.wasm = build(t)
	}
	return built.wasm
}

// build compiles the module into a temporary directory of t and returns its bytes.
func build(t testing.TB) []byte {
	t.Helper()
	out := filepath.Join(t.TempDir(), "module.wasm")
	cmd := exec.Command("go", "build", "-buildmode=c-shared", "-trimpath", "-o", out, PackagePath)
	cmd.Env = append(os.Environ(), "GOOS=wasip1", "GOARCH=wasm", "CGO_ENABLED=0")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("build wasm module: %v\n%s", err, stderr.Bytes())
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatalf("read built module: %v", err)
	}
	// Strip as build:wasm:std does, so that tests see the bytes that ship.
	if b, err = wasmstrip.Strip(b); err != nil {
		t.Fatalf("strip built module: %v", err)
	}
	return b
}
