// Package js tests the npm package @cdaedge/engine (this folder) as a user gets it:
// `npm pack` gives a tarball with the module, types, README and LICENSE that installs
// in a fresh folder and answers all three query styles; the Eleventy example
// (examples/eleventy, Eleventy pinned by its package-lock.json) builds a site from a
// snapshot with it; and packing without a module fails with a message saying what to do.
//
// Needs node and npm, and module.wasm (go tool task build:wasm writes it); with
// CDA_PARITY_REQUIRED=1 (go tool task test) their absence fails instead of skipping.
package js

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cdaedge/cdaedge/edge/edgetest"
)

func need(t *testing.T, what string, ok bool) {
	t.Helper()
	if ok {
		return
	}
	if os.Getenv("CDA_PARITY_REQUIRED") == "1" {
		t.Fatalf("%s is missing", what)
	}
	t.Skipf("%s is missing", what)
}

func setup(t *testing.T) (pkgDir, tarball, snap string) {
	t.Helper()
	if testing.Short() {
		t.Skip("runs npm")
	}
	_, errNode := exec.LookPath("node")
	_, errNpm := exec.LookPath("npm")
	need(t, "node and npm", errNode == nil && errNpm == nil)
	pkgDir = filepath.Join(edgetest.RepoRoot(t), "wasm", "js")
	_, err := os.Stat(filepath.Join(pkgDir, "module.wasm"))
	need(t, "wasm/js/module.wasm (go tool task build:wasm)", err == nil)

	tmp := t.TempDir()
	out := string(edgetest.RunIn(t, pkgDir, nil, "npm", "pack", "--json", "--pack-destination", tmp, "--loglevel=error"))
	var packed []struct {
		Filename string `json:"filename"`
		Files    []struct {
			Path string `json:"path"`
		} `json:"files"`
	}
	if err := json.Unmarshal([]byte(out[strings.Index(out, "["):]), &packed); err != nil || len(packed) != 1 {
		t.Fatalf("npm pack --json: %v\n%s", err, out)
	}
	files := map[string]bool{}
	for _, f := range packed[0].Files {
		files[f.Path] = true
	}
	for _, want := range []string{"package.json", "README.md", "LICENSE", "module.wasm", "index.mjs", "index.d.ts", "engine.mjs", "wasi.mjs", "worker.mjs"} {
		if !files[want] {
			t.Errorf("the package lacks %s (it has %v)", want, files)
		}
	}
	for f := range files {
		if strings.HasPrefix(f, "tools/") || strings.HasPrefix(f, "test/") || strings.HasPrefix(f, "examples/") || strings.HasSuffix(f, ".go") {
			t.Errorf("the package ships %s", f)
		}
	}
	snap = filepath.Join(tmp, "demo.snap")
	if err := os.WriteFile(snap, edgetest.DemoSnapshot(t), 0o644); err != nil {
		t.Fatal(err)
	}
	return pkgDir, filepath.Join(tmp, packed[0].Filename), snap
}

// TestPackInstallsInAFreshFolder installs the packed tarball in an empty project and
// asks the demo snapshot in every style through the package's public entry point.
func TestPackInstallsInAFreshFolder(t *testing.T) {
	_, tarball, snap := setup(t)
	app := t.TempDir()
	if err := os.WriteFile(filepath.Join(app, "package.json"), []byte(`{"name":"app","private":true,"type":"module"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	edgetest.RunIn(t, app, nil, "npm", "install", "--no-audit", "--no-fund", "--loglevel=error", tarball)
	script := `import { readFile } from 'node:fs/promises';
import { open, CdaError } from '@cdaedge/engine';
const cda = await open(await readFile(process.argv[2]));
const rest = cda.rest({ searchByName: 'café', pageSize: 5 });
const gql = cda.graphql('query ($n: Int!) { content(pageSize: $n, sortAsc: true) { Name } }', { n: 2 });
const search = cda.search({ query: { match: { Name: 'coffee' } }, size: 1 });
let error = null;
try { cda.rest({ pageSize: '1e3' }); } catch (e) { error = e instanceof CdaError ? e.code : String(e); }
const raw = cda.request({ path: '/cda/rest/v1/demo/contents', query: 'pageSize=1' });
console.log(JSON.stringify({ env: cda.environment, rest: rest.totalItems, name: rest.data[0].Name, gql: gql.data.length, search: search.totalItems, error, status: raw.status, etag: !!raw.header('etag') }));
`
	if err := os.WriteFile(filepath.Join(app, "smoke.mjs"), []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	out := strings.TrimSpace(string(edgetest.RunIn(t, app, nil, "node", "smoke.mjs", snap)))
	want := `{"env":"demo","rest":1,"name":"Café Müller","gql":2,"search":`
	if !strings.HasPrefix(out, want) || !strings.HasSuffix(out, `"error":"invalid_argument","status":200,"etag":true}`) {
		t.Errorf("the installed package answered\n%s\nwant %s…", out, want)
	}
}

// TestEleventyExample builds examples/eleventy (Eleventy from its lock) with the packed
// package and checks the pages it wrote.
func TestEleventyExample(t *testing.T) {
	pkgDir, tarball, snap := setup(t)
	site := t.TempDir()
	example := filepath.Join(pkgDir, "examples", "eleventy")
	for _, f := range []string{"package.json", "package-lock.json", "eleventy.config.js", "src/index.njk", "src/article.njk", "src/_data/cda.js"} {
		b, err := os.ReadFile(filepath.Join(example, f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Dir(filepath.Join(site, f)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(site, f), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	edgetest.RunIn(t, site, nil, "npm", "ci", "--no-audit", "--no-fund", "--loglevel=error")
	edgetest.RunIn(t, site, nil, "npm", "install", "--no-save", "--no-audit", "--no-fund", "--loglevel=error", tarball)
	t.Logf("%s", edgetest.RunIn(t, site, []string{"CDA_SNAPSHOT=" + snap}, "node", filepath.Join("node_modules", "@11ty", "eleventy", "cmd.cjs")))
	index, err := os.ReadFile(filepath.Join(site, "_site", "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"<h1>demo</h1>", "Pages (", "Articles (8, GraphQL)", "hits, search)", `href="/articles/`} {
		if !strings.Contains(string(index), want) {
			t.Errorf("index.html lacks %q:\n%s", want, index)
		}
	}
	articles, _ := filepath.Glob(filepath.Join(site, "_site", "articles", "*", "index.html"))
	if len(articles) != 8 {
		t.Errorf("%d article pages, want 8", len(articles))
	}
}

// TestPackWithoutModuleFails packs a copy of the package that has no module.wasm, outside
// the repository: prepack must fail and say how to get the module.
func TestPackWithoutModuleFails(t *testing.T) {
	_, errNpm := exec.LookPath("npm")
	need(t, "npm", errNpm == nil)
	pkgDir := filepath.Join(edgetest.RepoRoot(t), "wasm", "js")
	dir := t.TempDir()
	for _, f := range []string{"package.json", "index.mjs", "index.d.ts", "engine.mjs", "wasi.mjs", "worker.mjs", "README.md", "tools/prepack.mjs"} {
		b, err := os.ReadFile(filepath.Join(pkgDir, f))
		if err != nil {
			t.Fatal(err)
		}
		_ = os.MkdirAll(filepath.Dir(filepath.Join(dir, f)), 0o755)
		if err := os.WriteFile(filepath.Join(dir, f), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command("npm", "pack", "--loglevel=error")
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err == nil {
		t.Fatalf("npm pack without module.wasm succeeded:\n%s", out)
	}
	if !strings.Contains(string(out), "module.wasm is missing") || !strings.Contains(string(out), "go tool task build:wasm") {
		t.Errorf("npm pack failed without saying how to get the module:\n%s", out)
	}
}
