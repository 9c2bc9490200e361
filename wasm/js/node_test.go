package js

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/cdaedge/cdaedge/edge/edgetest"
)

// TestNodeTests runs the package's own Node tests (test/*.test.mjs, node --test) with
// module.wasm: item bodies read by range from bytes, a file and an async source, byte for
// byte as the whole file answers, and what that saves in wasm memory. They build their
// snapshots with the builder (go build) in a temporary folder.
func TestNodeTests(t *testing.T) {
	if testing.Short() {
		t.Skip("runs node and builds snapshots")
	}
	node, err := exec.LookPath("node")
	need(t, "node", err == nil)
	pkgDir := filepath.Join(edgetest.RepoRoot(t), "wasm", "js")
	_, err = os.Stat(filepath.Join(pkgDir, "module.wasm"))
	need(t, "wasm/js/module.wasm (go tool task build:wasm)", err == nil)
	files, err := filepath.Glob(filepath.Join(pkgDir, "test", "*.test.mjs"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no test/*.test.mjs in %s: %v", pkgDir, err)
	}
	out := edgetest.RunIn(t, pkgDir, nil, node, append([]string{"--test"}, files...)...)
	t.Logf("%s", out)
}
