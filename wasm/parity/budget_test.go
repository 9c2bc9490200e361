package parity

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"

	"github.com/cdaedge/cdaedge/wasm/wasmtest"
)

// Size budgets of the modules: 1 MiB for the TinyGo module (the one that ships to the
// edge, where the compressed script size is limited), 6 MiB for the std one. Code that
// goes into the module stays small by design: no fmt, encoding/json, regexp, gjson or
// UAX #29 library in it (own small replacements, enforced by edge/tinygo_test.go), no
// fmt and os linked through encoding/hex or runtime/debug, stripped custom sections, and
// TinyGo-specific care (no ranging over array values, no wasi-libc arc4random and its
// printf). The room left is for features, not for trades such as -panic=trap.
const (
	tinyGoBudget = 1 << 20 // bytes
	stdBudget    = 6 << 20 // bytes
)

// TestModuleBudgets checks the sizes of both modules and that each imports only WASI
// functions that the JavaScript shim (wasm/js/wasi.mjs) provides: what workerd and Node
// can link. The measured sizes are logged (go test -v) either way.
func TestModuleBudgets(t *testing.T) {
	tinygo := tinyGoModule(t)
	std := os.Getenv(wasmtest.EnvModule)
	if std == "" {
		std = filepath.Join(t.TempDir(), "std.wasm")
		if err := os.WriteFile(std, wasmtest.Module(t), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	node := nodeBinary(t)
	for _, m := range []struct {
		name, path string
		budget     int64
	}{{"TinyGo", tinygo, tinyGoBudget}, {"std", std, stdBudget}} {
		t.Run(m.name, func(t *testing.T) {
			fi, err := os.Stat(m.path)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%s module: %d bytes (budget %d)", m.name, fi.Size(), m.budget)
			if fi.Size() > m.budget {
				t.Errorf("%s module is %d bytes, over its budget of %d bytes", m.name, fi.Size(), m.budget)
			}
			out, err := exec.Command(node, filepath.Join(jsDir(t), "test", "driver.mjs"), "imports", m.path).Output()
			if err != nil {
				t.Fatalf("list imports: %v", err)
			}
			var r struct {
				Imports []struct{ Module, Name, Kind string }
				Shim    []string
			}
			if err := json.Unmarshal(out, &r); err != nil {
				t.Fatal(err)
			}
			var names []string
			for _, imp := range r.Imports {
				names = append(names, imp.Module+"."+imp.Name)
				if imp.Module != "wasi_snapshot_preview1" || imp.Kind != "function" || !slices.Contains(r.Shim, imp.Name) {
					t.Errorf("%s module imports %s.%s (%s), which the JavaScript WASI shim does not provide", m.name, imp.Module, imp.Name, imp.Kind)
				}
			}
			t.Logf("%s module imports %d functions: %v", m.name, len(names), names)
		})
	}
}
