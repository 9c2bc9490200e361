// Package edgetest holds the test helpers that every runtime's tests share: the demo
// environment (testdata/demo), built once per process into a snapshot; the native
// router as the reference Handler; and the conformance tables (testdata/conformance),
// which every runtime must answer exactly as the native router does, byte for byte.
//
// A runtime's test needs only a Handler:
//
//	func TestConformance(t *testing.T) {
//		edgetest.RunConformance(t, myRuntimeHandler(t))
//	}
package edgetest

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/cdaedge/cdaedge/edge"
	"github.com/cdaedge/cdaedge/edge/router"
	"github.com/cdaedge/cdaedge/snapshot"
)

// Module is the module path RepoRoot looks for in go.mod.
const Module = "github.com/cdaedge/cdaedge"

// The demo environments. DemoEnvironment holds the published items of
// testdata/demo/content.ndjson (API.md D3); DemoPreviewEnvironment holds every item of
// the same file and is served only to requests carrying DemoPreviewToken (D3).
const (
	DemoEnvironment        = "demo"
	DemoPreviewEnvironment = "demo-preview"
	DemoPreviewToken       = "demo-preview-token"
	// DemoData is the demo content file, relative to the repository root.
	DemoData = "testdata/demo/content.ndjson"
	// ConformanceDir holds the conformance tables, relative to the repository root.
	ConformanceDir = "testdata/conformance"
	// HostileDir holds the hostile request catalogue and the table of expensive request
	// shapes (budget.json, run as conformance cases), relative to the repository root.
	HostileDir = "testdata/hostile"
)

// Handler is any runtime that answers requests: the native router, the wasm module in
// wazero, Node, workerd over HTTP. An error means the runtime itself failed (a trap, a
// lost connection), never an HTTP error status.
type Handler interface {
	Serve(req *edge.Request) (*edge.Response, error)
}

// HandlerFunc adapts a function to Handler.
type HandlerFunc func(req *edge.Request) (*edge.Response, error)

// Serve calls f(req).
func (f HandlerFunc) Serve(req *edge.Request) (*edge.Response, error) { return f(req) }

// RepoRoot returns the repository root: the nearest directory, walking up from the
// working directory, whose go.mod declares Module.
func RepoRoot(t testing.TB) string {
	t.Helper()
	rootOnce.Do(func() {
		dir, err := os.Getwd()
		if err != nil {
			rootErr = err.Error()
			return
		}
		for {
			if isModuleRoot(filepath.Join(dir, "go.mod")) {
				root = dir
				return
			}
			parent := filepath.Dir(dir)
			if parent == dir {
				rootErr = "no go.mod of module " + Module + " above the working directory"
				return
			}
			dir = parent
		}
	})
	if rootErr != "" {
		t.Fatalf("edgetest: %s", rootErr)
	}
	return root
}

var (
	rootOnce sync.Once
	root     string
	rootErr  string
)

// isModuleRoot reports whether the go.mod at path declares Module (a nested go.mod of
// another module, for example a TinyGo or web build, is skipped).
func isModuleRoot(path string) bool {
	data, err := os.ReadFile(path)
	if err != nil {
		return false
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		line := bytes.TrimSpace(sc.Bytes())
		if rest, ok := bytes.CutPrefix(line, []byte("module")); ok {
			return string(bytes.Trim(bytes.TrimSpace(rest), `"`)) == Module
		}
	}
	return false
}

// built caches the snapshots built in this process, by environment id.
var built struct {
	sync.Mutex
	snaps map[string][]byte
}

// DemoSnapshot returns the snapshot of environment "demo": the published items of
// testdata/demo/content.ndjson, built once per process with the builder. The returned
// bytes are shared and must not be modified.
func DemoSnapshot(t testing.TB) []byte {
	t.Helper()
	return cachedSnapshot(t, DemoEnvironment, false)
}

// DemoPreviewSnapshot returns the preview snapshot of the same file, environment
// "demo-preview": every item, drafts and archived ones too (API.md D3). Built once
// per process; the bytes must not be modified.
func DemoPreviewSnapshot(t testing.TB) []byte {
	t.Helper()
	return cachedSnapshot(t, DemoPreviewEnvironment, true)
}

func cachedSnapshot(t testing.TB, env string, preview bool) []byte {
	t.Helper()
	built.Lock()
	defer built.Unlock()
	if snap, ok := built.snaps[env]; ok {
		return snap
	}
	path := filepath.Join(RepoRoot(t), filepath.FromSlash(DemoData))
	snap, warnings, err := buildSnapshot(env, preview, path)
	if err != nil {
		t.Fatalf("edgetest: building %s from %s: %v", env, DemoData, err)
	}
	for _, w := range warnings {
		// The demo data is meant to be clean: a warning is a mistake in it.
		t.Errorf("edgetest: building %s: warning: %s", env, w)
	}
	if built.snaps == nil {
		built.snaps = map[string][]byte{}
	}
	built.snaps[env] = snap
	return snap
}

// Snapshots returns the snapshots every runtime under test serves: "demo",
// "demo-preview" (behind DemoPreviewToken) and LuceneEnvironment.
func Snapshots(t testing.TB) [][]byte {
	t.Helper()
	return [][]byte{DemoSnapshot(t), DemoPreviewSnapshot(t), LuceneSnapshot(t)}
}

// NativeHandler returns a fresh native router serving Snapshots. It is the reference every other runtime is compared
// with. Like the router, it is not safe for concurrent use.
func NativeHandler(t testing.TB) Handler {
	t.Helper()
	r := router.New(NativeOptions())
	for _, data := range Snapshots(t) {
		snap, err := snapshot.Open(data)
		if err != nil {
			t.Fatalf("edgetest: opening the demo snapshot: %v", err)
		}
		r.Load(snap)
	}
	return &nativeHandler{r: r}
}

// NativeOptions are the router options the conformance tables assume: the defaults,
// plus DemoPreviewToken for DemoPreviewEnvironment. Every runtime under test must be
// configured the same way.
func NativeOptions() router.Options {
	return router.Options{PreviewTokens: map[string]string{DemoPreviewEnvironment: DemoPreviewToken}}
}

// nativeHandler is the native router as a Handler.
type nativeHandler struct{ r *router.Router }

func (h *nativeHandler) Serve(req *edge.Request) (*edge.Response, error) {
	return h.r.Serve(req), nil
}
