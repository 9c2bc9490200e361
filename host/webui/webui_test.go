package webui_test

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/cdaedge/cdaedge/edge/edgetest"
	"github.com/cdaedge/cdaedge/edge/router"
	"github.com/cdaedge/cdaedge/host/server"
	"github.com/cdaedge/cdaedge/host/snapdir"
	"github.com/cdaedge/cdaedge/host/webui"
	"github.com/cdaedge/cdaedge/snapshot"
)

// TestOpenAPIMatchesRoutes checks openapi.json against the router's route table, so the
// document cannot drift from what the host answers: every path is a route of the API
// (or one of the host's own), its operations are the route's methods but HEAD and
// OPTIONS, which every route answers, and every route of the API is documented once.
func TestOpenAPIMatchesRoutes(t *testing.T) {
	b := serve(webui.Handler(webui.Options{}), "GET", "/openapi.json").Body.Bytes()
	for _, p := range openAPIProblems(t, b) {
		t.Error(p)
	}
}

// TestOpenAPICheckCatchesDrift feeds the check a document with a route missing, a
// method the route does not take and a path no route answers.
func TestOpenAPICheckCatchesDrift(t *testing.T) {
	b := serve(webui.Handler(webui.Options{}), "GET", "/openapi.json").Body.Bytes()
	var doc map[string]any
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	paths := doc["paths"].(map[string]any)
	delete(paths, "/cda/es/v1/{env}/_validate/query")
	paths["/cda/rest/v1/{env}/contents"].(map[string]any)["post"] = map[string]any{}
	paths["/cda/rest/v2/{env}/things"] = map[string]any{"get": map[string]any{}}
	b, _ = json.Marshal(doc)
	got := openAPIProblems(t, b)
	if len(got) != 3 {
		t.Errorf("the check found %d problems, want 3 (a missing route, a wrong method, an unrouted path): %q", len(got), got)
	}
}

func openAPIProblems(t *testing.T, b []byte) (problems []string) {
	t.Helper()
	var doc struct {
		OpenAPI string                                `json:"openapi"`
		Paths   map[string]map[string]json.RawMessage `json:"paths"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	if doc.OpenAPI != "3.1.0" {
		problems = append(problems, fmt.Sprintf("openapi = %q, want 3.1.0", doc.OpenAPI))
	}
	samples := strings.NewReplacer("{env}", "demo", "{contentId}", "Content_x")
	documented := map[documentedRoute]string{}
	for p, item := range doc.Paths {
		var methods []string
		for k := range item {
			switch k {
			case "get", "put", "post", "delete", "options", "head", "patch", "trace":
				methods = append(methods, strings.ToUpper(k))
			}
		}
		sort.Strings(methods)
		if !strings.HasPrefix(p, "/cda/") {
			if name, _ := server.Classify(p); name != "healthz" && name != "readyz" {
				problems = append(problems, fmt.Sprintf("%s: not a path of the API or of the host's health endpoints (route %q)", p, name))
			}
			continue
		}
		// A path names {env} or is a route of the base path, which serves no one
		// environment (the Elasticsearch-compatible info document and _msearch).
		wantEnv := ""
		if strings.Contains(p, "{env}") {
			wantEnv = "demo"
		}
		rt, env := router.Classify(samples.Replace(p))
		if rt == router.RouteNone || env != wantEnv {
			problems = append(problems, fmt.Sprintf("%s: the router does not route it (route %v, env %q)", p, rt, env))
			continue
		}
		key := documentedRoute{rt, wantEnv != ""}
		if prev, ok := documented[key]; ok {
			problems = append(problems, fmt.Sprintf("%s and %s are both route %v", prev, p, rt))
		}
		documented[key] = p
		var want []string
		for _, m := range strings.Split(rt.Allowed(), ", ") {
			if m != "HEAD" && m != "OPTIONS" {
				want = append(want, m)
			}
		}
		sort.Strings(want)
		if !slices.Equal(methods, want) {
			problems = append(problems, fmt.Sprintf("%s: operations %v, the router allows %v (and HEAD, OPTIONS)", p, methods, want))
		}
	}
	for _, rt := range router.Routes() {
		if _, ok := documented[documentedRoute{rt, true}]; !ok && !documentedAtBase(documented, rt) {
			problems = append(problems, fmt.Sprintf("route %v (%s) is not in openapi.json: add it to web/playground/openapi.mjs and run go tool task web:build", rt, rt.Allowed()))
		}
	}
	sort.Strings(problems)
	return problems
}

// documentedRoute is a route and whether the documented path names an environment: a
// route may be documented once per environment and once at the base path (_msearch).
type documentedRoute struct {
	route   router.Route
	withEnv bool
}

// documentedAtBase reports whether rt is documented at the base path only.
func documentedAtBase(documented map[documentedRoute]string, rt router.Route) bool {
	_, ok := documented[documentedRoute{rt, false}]
	return ok
}

func serve(h http.Handler, method, target string, hdr ...string) *httptest.ResponseRecorder {
	r := httptest.NewRequest(method, target, nil)
	for i := 0; i+1 < len(hdr); i += 2 {
		r.Header.Set(hdr[i], hdr[i+1])
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w
}

func testHandler(t *testing.T) http.Handler {
	pub, err := snapshot.Open(edgetest.DemoSnapshot(t))
	if err != nil {
		t.Fatal(err)
	}
	prev, err := snapshot.Open(edgetest.DemoPreviewSnapshot(t))
	if err != nil {
		t.Fatal(err)
	}
	files := []snapdir.File{
		{Env: "demo", Meta: snapdir.MetaOf(pub), Data: edgetest.DemoSnapshot(t), Snap: pub},
		{Env: "secret", Meta: snapdir.MetaOf(prev), Data: edgetest.DemoPreviewSnapshot(t), Snap: prev},
	}
	next := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusTeapot) })
	return webui.Handler(webui.Options{Module: []byte("\x00asm fake module"), Snapshots: func() []snapdir.File { return files }, Next: next})
}

func TestPages(t *testing.T) {
	h := testHandler(t)
	for _, c := range []struct{ path, ctype, contains string }{
		{"/", "text/html", "web/playground.js"},
		{"/playground", "text/html", "web/playground.js"},
		{"/graphiql", "text/html", "web/graphiql.js"},
		{"/docs", "text/html", "web/docs.js"},
		{"/openapi.json", "application/json", `"openapi": "3.1.0"`},
		{"/web/playground.js", "text/javascript", ""},
		{"/web/graphiql.css", "text/css", ""},
		{"/web/module.wasm", "application/wasm", "fake module"},
	} {
		w := serve(h, "GET", c.path)
		if w.Code != 200 || !strings.HasPrefix(w.Header().Get("Content-Type"), c.ctype) || !strings.Contains(w.Body.String(), c.contains) {
			t.Errorf("GET %s: %d %q, body has %q: %v", c.path, w.Code, w.Header().Get("Content-Type"), c.contains, strings.Contains(w.Body.String(), c.contains))
		}
		if w.Header().Get("ETag") == "" || w.Header().Get("X-Content-Type-Options") != "nosniff" {
			t.Errorf("GET %s: headers %v", c.path, w.Header())
		}
		if again := serve(h, "GET", c.path, "If-None-Match", w.Header().Get("ETag")); again.Code != http.StatusNotModified {
			t.Errorf("GET %s with its ETag: %d, want 304", c.path, again.Code)
		}
	}
	if w := serve(h, "GET", "/"); !strings.Contains(w.Header().Get("Content-Security-Policy"), "'wasm-unsafe-eval'") {
		t.Errorf("the page's CSP does not let it compile the module: %q", w.Header().Get("Content-Security-Policy"))
	}
}

// TestSnapshotWithBodiesOnDisk checks that a snapshot the host does not hold (opened by
// OpenIndex, the host's --bodies=file) is still downloaded whole, with ranges, by the
// in-browser mode.
func TestSnapshotWithBodiesOnDisk(t *testing.T) {
	whole := edgetest.DemoSnapshot(t)
	path := filepath.Join(t.TempDir(), "demo.snap")
	if err := os.WriteFile(path, whole, 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := snapdir.OpenIndex(path)
	if err != nil {
		t.Fatal(err)
	}
	if f.Data != nil || f.Snap != nil {
		t.Fatalf("the host holds %d bytes of the file", len(f.Data))
	}
	h := webui.Handler(webui.Options{Snapshots: func() []snapdir.File { return []snapdir.File{f} }, Next: http.NotFoundHandler()})
	w := serve(h, "GET", "/web/snapshots/demo.snap")
	if w.Code != 200 || !bytes.Equal(w.Body.Bytes(), whole) {
		t.Fatalf("demo.snap: %d, %d bytes, want the %d bytes of the file", w.Code, w.Body.Len(), len(whole))
	}
	if again := serve(h, "GET", "/web/snapshots/demo.snap", "If-None-Match", w.Header().Get("ETag")); again.Code != http.StatusNotModified {
		t.Errorf("with its ETag: %d, want 304", again.Code)
	}
	if part := serve(h, "GET", "/web/snapshots/demo.snap", "Range", "bytes=100-199"); part.Code != http.StatusPartialContent || !bytes.Equal(part.Body.Bytes(), whole[100:200]) {
		t.Errorf("a range: %d, %d bytes", part.Code, part.Body.Len())
	}
}

func TestSnapshotsAndErrors(t *testing.T) {
	h := testHandler(t)
	if w := serve(h, "GET", "/web/snapshots/demo.snap"); w.Code != 200 || w.Body.Len() != len(edgetest.DemoSnapshot(t)) {
		t.Errorf("demo.snap: %d, %d bytes", w.Code, w.Body.Len())
	}
	for _, p := range []string{"/web/snapshots/secret.snap", "/web/snapshots/nope.snap", "/web/nope.js", "/web/snapshots/..%2Fdemo.snap"} {
		if w := serve(h, "GET", p); w.Code != 404 || !strings.Contains(w.Body.String(), `"code":"not_found"`) {
			t.Errorf("GET %s: %d %s, want a 404 envelope", p, w.Code, w.Body)
		}
	}
	if w := serve(h, "POST", "/openapi.json"); w.Code != 405 || w.Header().Get("Allow") != "GET, HEAD" {
		t.Errorf("POST /openapi.json: %d, Allow %q", w.Code, w.Header().Get("Allow"))
	}
	if w := serve(h, "HEAD", "/docs"); w.Code != 200 || w.Body.Len() != 0 {
		t.Errorf("HEAD /docs: %d, %d bytes", w.Code, w.Body.Len())
	}
	for _, p := range []string{"/cda/rest/v1/demo/contents", "/playground/", "/index.html", "/webx"} {
		if w := serve(h, "GET", p); w.Code != http.StatusTeapot {
			t.Errorf("GET %s: %d, want it passed to the API", p, w.Code)
		}
	}
}

func TestGzip(t *testing.T) {
	h := testHandler(t)
	plain := serve(h, "GET", "/web/graphiql.js")
	w := serve(h, "GET", "/web/graphiql.js", "Accept-Encoding", "br, gzip;q=0.5")
	if w.Header().Get("Content-Encoding") != "gzip" || w.Header().Get("ETag") == plain.Header().Get("ETag") {
		t.Fatalf("gzip: %v", w.Header())
	}
	zr, err := gzip.NewReader(w.Body)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(zr)
	if string(b) != plain.Body.String() {
		t.Error("the gzipped body differs")
	}
	t.Logf("graphiql.js: %d bytes, %d gzipped", plain.Body.Len(), w.Body.Len())
	if w := serve(h, "GET", "/web/graphiql.js", "Accept-Encoding", "gzip;q=0"); w.Header().Get("Content-Encoding") != "" {
		t.Error("gzip;q=0 got gzip")
	}
}
