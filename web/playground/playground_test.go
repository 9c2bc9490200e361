// Package playground tests the host's pages, built from this folder (web/playground) into
// host/webui/dist: that the committed build is what the sources build to, that the
// OpenAPI document validates (@apidevtools/swagger-parser), and, in Debian's Chromium
// driven by playwright-core, that a person can run a REST, a GraphQL and a search
// request from the page, against the host and with the module running in the page.
// The npm packages are the exact versions of package-lock.json (go tool task
// tools:npm:web installs them; these tests run npm ci when they are missing).
//
// Inputs, set by `go tool task test`:
//
//	CDA_HOST                the host binary to run (build/host); else the test builds one
//	CDA_WASM_MODULE_TINYGO  the module the host runs and the page loads (--module);
//	                        else the host's embedded module
//	CDA_CHROMIUM            the browser (default /usr/bin/chromium; go tool task
//	                        tools:chromium installs Debian's)
//	CDA_PARITY_REQUIRED=1   a missing node or browser fails instead of skipping
//
// Rebuild the pages after changing the sources: `go tool task web:build`.
package playground

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/cdaedge/cdaedge/edge/edgetest"
)

// setup returns node and this folder, with its npm packages installed.
func setup(t *testing.T) (node, dir string) {
	t.Helper()
	return edgetest.NodePackage(t, "web/playground")
}

// TestBuildIsCommitted builds the pages into a temporary folder and compares it, file by
// file and byte by byte, with host/webui/dist, which the host embeds.
func TestBuildIsCommitted(t *testing.T) {
	node, dir := setup(t)
	out := t.TempDir()
	edgetest.RunIn(t, dir, nil, node, "build.mjs", "--out", out)
	committed := filepath.Join(edgetest.RepoRoot(t), "host", "webui", "dist")
	want, got := readTree(t, out), readTree(t, committed)
	for name, b := range want {
		if c, ok := got[name]; !ok {
			t.Errorf("host/webui/dist/%s is missing", name)
		} else if !bytes.Equal(b, c) {
			t.Errorf("host/webui/dist/%s differs from a fresh build (%d bytes, built %d)", name, len(c), len(b))
		}
	}
	for name := range got {
		if _, ok := want[name]; !ok {
			t.Errorf("host/webui/dist/%s is not built from the sources", name)
		}
	}
	if t.Failed() {
		t.Log("rebuild with `go tool task web:build` and commit host/webui/dist")
	}
}

func readTree(t *testing.T, root string) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		rel, _ := filepath.Rel(root, p)
		files[filepath.ToSlash(rel)] = b
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// TestOpenAPIValidates validates the served document against the OpenAPI 3.1 schema.
// (host/webui's TestOpenAPIMatchesRoutes checks it against the router's routes.)
func TestOpenAPIValidates(t *testing.T) {
	node, dir := setup(t)
	doc := filepath.Join(edgetest.RepoRoot(t), "host", "webui", "dist", "openapi.json")
	t.Logf("%s", edgetest.RunIn(t, dir, nil, node, "validate.mjs", doc))
}

// TestBrowser runs browser.mjs: the playground, GraphiQL and the API reference in
// headless Chromium against the host, and the playground with the module in the page.
// Screenshots go to build/playground/.
func TestBrowser(t *testing.T) {
	node, dir := setup(t)
	browser := os.Getenv("CDA_CHROMIUM")
	if browser == "" {
		browser = "/usr/bin/chromium"
	}
	if _, err := os.Stat(browser); err != nil {
		edgetest.Need(t, browser) // skips or fails with the reason
	}
	addr := startHost(t)
	out := filepath.Join(edgetest.RepoRoot(t), "build", "playground")
	t.Logf("%s", edgetest.RunIn(t, dir, nil, node, "browser.mjs", "http://"+addr, out, browser))
}

// startHost serves the demo environment with the host, one instance, running the TinyGo
// module that the in-browser mode also loads.
func startHost(t *testing.T) string {
	t.Helper()
	m := os.Getenv("CDA_WASM_MODULE_TINYGO")
	if m == "" && os.Getenv("CDA_HOST") == "" {
		t.Skip("no CDA_HOST and no CDA_WASM_MODULE_TINYGO: the in-browser mode needs a module (go tool task test sets both)")
	}
	args := []string{"--instances", "1"}
	if m != "" {
		args = append(args, "--module", m)
	}
	return edgetest.StartHost(t, args...)
}
