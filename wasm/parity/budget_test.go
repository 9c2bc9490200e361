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

// Size ceilings of the modules. ISSUE 5 asks for 512 KB (TinyGo) and 4 MB (std); the
// modules are 1.0 MB and 6.1 MB today, and the gap is not a matter of build flags:
// tidwall/pretty, which gjson links for its modifiers, brings encoding/json and reflect
// (~100 KB), the UAX #29 word tables are ~105 KB, and fmt, regexp and the engine's own
// code make up most of the rest. Until that work is done (see the issue), these ceilings
// keep the sizes from growing unnoticed; the targets are logged beside them.
const (
	tinyGoBudget = 1_024_000 // bytes; target 512 KiB
	stdBudget    = 6_200_000 // bytes; target 4 MiB
	tinyGoTarget = 512 << 10
	stdTarget    = 4 << 20
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
		target     int64
	}{{"TinyGo", tinygo, tinyGoBudget, tinyGoTarget}, {"std", std, stdBudget, stdTarget}} {
		t.Run(m.name, func(t *testing.T) {
			fi, err := os.Stat(m.path)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%s module: %d bytes (ceiling %d, ISSUE 5 target %d)", m.name, fi.Size(), m.budget, m.target)
			if fi.Size() > m.budget {
				t.Errorf("%s module is %d bytes, over its ceiling of %d bytes (ISSUE 5 targets %d)", m.name, fi.Size(), m.budget, m.target)
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
