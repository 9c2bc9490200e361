package parity

import (
	"bytes"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cdaedge/cdaedge/edge"
	"github.com/cdaedge/cdaedge/edge/edgetest"
)

// TestWorkerdPages: a bundle staged with --pages answers the playground's paths as the Go
// host does (host/webui), with the staged files' bytes, and the API as without them.
func TestWorkerdPages(t *testing.T) {
	dist := filepath.Join(edgetest.RepoRoot(t), "host", "webui", "dist")
	addr := startWorkerd(t, "--pages", dist)
	module, err := os.ReadFile(tinyGoModule(t))
	if err != nil {
		t.Fatal(err)
	}
	file := func(name string) []byte {
		b, err := os.ReadFile(filepath.Join(dist, name))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	client := &http.Client{Transport: &http.Transport{DisableCompression: true}, Timeout: 30 * time.Second}
	get := func(method, path string, header ...string) (*http.Response, []byte) {
		t.Helper()
		req, err := http.NewRequest(method, "http://"+addr+path, nil)
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i+1 < len(header); i += 2 {
			req.Header.Set(header[i], header[i+1])
		}
		resp, err := client.Do(req)
		if err != nil {
			t.Fatalf("%s %s: %v", method, path, err)
		}
		defer resp.Body.Close()
		body, err := io.ReadAll(resp.Body)
		if err != nil {
			t.Fatalf("%s %s: %v", method, path, err)
		}
		return resp, body
	}

	for _, c := range []struct {
		path, contentType string
		body              []byte
	}{
		{"/", "text/html; charset=utf-8", file("index.html")},
		{"/playground", "text/html; charset=utf-8", file("index.html")},
		{"/graphiql", "text/html; charset=utf-8", file("graphiql.html")},
		{"/docs", "text/html; charset=utf-8", file("docs.html")},
		{"/openapi.json", "application/json; charset=utf-8", file("openapi.json")},
		{"/web/playground.js", "text/javascript; charset=utf-8", file("web/playground.js")},
		{"/web/playground.css", "text/css; charset=utf-8", file("web/playground.css")},
		{"/web/module.wasm", "application/wasm", module},
		{"/web/snapshots/" + edgetest.DemoEnvironment + ".snap", "application/octet-stream", edgetest.DemoSnapshot(t)},
	} {
		resp, body := get("GET", c.path)
		if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != c.contentType || !bytes.Equal(body, c.body) {
			t.Errorf("GET %s: %d %q, %d bytes; want 200 %q, the staged file's %d bytes", c.path, resp.StatusCode, resp.Header.Get("Content-Type"), len(body), c.contentType, len(c.body))
			continue
		}
		etag := resp.Header.Get("ETag")
		if etag == "" || resp.Header.Get("Cache-Control") != "no-cache" {
			t.Errorf("GET %s: ETag %q, Cache-Control %q; want a tag and no-cache", c.path, etag, resp.Header.Get("Cache-Control"))
			continue
		}
		if resp, body := get("GET", c.path, "If-None-Match", etag); resp.StatusCode != 304 || len(body) != 0 {
			t.Errorf("GET %s with its ETag: %d, %d bytes; want 304 and none", c.path, resp.StatusCode, len(body))
		}
		if resp, body := get("HEAD", c.path); resp.StatusCode != 200 || len(body) != 0 || resp.Header.Get("Content-Type") != c.contentType {
			t.Errorf("HEAD %s: %d %q, %d bytes; want 200 %q, no body", c.path, resp.StatusCode, resp.Header.Get("Content-Type"), len(body), c.contentType)
		}
	}
	if resp, _ := get("GET", "/"); !strings.Contains(resp.Header.Get("Content-Security-Policy"), "'wasm-unsafe-eval'") {
		t.Errorf("GET /: Content-Security-Policy %q; want the pages' policy", resp.Header.Get("Content-Security-Policy"))
	}

	// Errors, as the host's envelopes: preview content is never downloadable.
	for _, c := range []struct {
		method, path string
		status       int
		code         string
	}{
		{"GET", "/web/snapshots/" + edgetest.DemoPreviewEnvironment + ".snap", 404, "not_found"},
		{"GET", "/web/snapshots/nowhere.snap", 404, "not_found"},
		{"GET", "/web/nothing.js", 404, "not_found"},
		{"POST", "/docs", 405, "method_not_allowed"},
	} {
		resp, body := get(c.method, c.path)
		if resp.StatusCode != c.status || !bytes.Contains(body, []byte(`"code":"`+c.code+`"`)) {
			t.Errorf("%s %s: %d %s; want %d %s", c.method, c.path, resp.StatusCode, body, c.status, c.code)
		}
	}

	// The API answers byte for byte as the native router does.
	req := &edge.Request{Method: "GET", Path: "/cda/rest/v1/" + edgetest.DemoEnvironment + "/contents", RawQuery: "pageSize=2"}
	want, err := edgetest.NativeHandler(t).Serve(req)
	if err != nil {
		t.Fatal(err)
	}
	got, err := sendHTTP(client, addr, req)
	if err != nil {
		t.Fatal(err)
	}
	if diffs := edgetest.CompareResponses(want, got); len(diffs) > 0 {
		t.Errorf("GET %s?%s differs from the native router's answer:\n%s", req.Path, req.RawQuery, strings.Join(diffs, "\n"))
	}
}
