package parity

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestTinyGoRuntimePatched: the TinyGo that builds the shipped module carries
// wasm/tinygo/gc-large-objects.patch and gc-resident.patch in its runtime (install.sh
// applies them, and the module is rebuilt when a patch changes). Without it a large snapshot makes every
// collection walk its blocks once per false root, and the module answers several times
// slower at 10k items. CDA_TINYGO names the TinyGo binary.
func TestTinyGoRuntimePatched(t *testing.T) {
	tinygo := os.Getenv("CDA_TINYGO")
	if tinygo == "" {
		unavailable(t, "CDA_TINYGO is not set: no TinyGo (go tool task tools:tinygo)")
	}
	out, err := exec.Command(tinygo, "env", "TINYGOROOT").Output()
	if err != nil {
		unavailable(t, "%s env TINYGOROOT: %v", tinygo, err)
	}
	file := filepath.Join(strings.TrimSpace(string(out)), "src", "runtime", "gc_blocks.go")
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	for _, patch := range []struct{ file, marker string }{
		{"gc-large-objects.patch", "cdaedge: large objects"},
		{"gc-resident.patch", "cdaedge: resident"},
	} {
		if !strings.Contains(string(src), patch.marker) {
			t.Fatalf("%s lacks wasm/tinygo/%s: run wasm/tinygo/install.sh (go tool task tools:tinygo), then rebuild the module", file, patch.file)
		}
	}
}
