// Package testsnap builds small snapshots and request sets for the host's tests.
package testsnap

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/cdaedge/cdaedge/edge"
	"github.com/cdaedge/cdaedge/edge/graphql"
	"github.com/cdaedge/cdaedge/snapshot"
)

// Env is the environment id of the published test snapshot.
const Env = "site"

// items returns n content items for a snapshot.
func items(n int) [][]byte {
	out := make([][]byte, n)
	for i := range out {
		out[i] = fmt.Appendf(nil, `{"ContentID":"Content_00000000-0000-4000-8000-%012d",`+
			`"Name":"Item %d","Status":"Published","TemplateName":"Page",`+
			`"TemplateID":"Template_00000000-0000-4000-8000-000000000001",`+
			`"CreatedBy":"ann","CreatedAt":"2021-04-%02dT10:00:00.000Z",`+
			`"UpdatedBy":"bob","UpdatedAt":"2021-05-01T10:00:00.000Z",`+
			`"PublishedBy":"cat","PublishedAt":"2021-05-02T10:00:00.000Z",`+
			`"Data":{"title":"Hello %d","tags":["red","blue"],"body":"<p>caf\u00e9 \u00fcber</p>"}}`,
			i+1, i+1, i%28+1, i+1)
	}
	return out
}

// ContentID is the id of the i-th (0-based) test item.
func ContentID(i int) string {
	return fmt.Sprintf("Content_00000000-0000-4000-8000-%012d", i+1)
}

// Build returns a snapshot file of environment env with n items.
func Build(t testing.TB, env string, n int) []byte {
	t.Helper()
	return build(t, env, items(n))
}

// BuildVersion returns a snapshot file of environment env with n items that all carry
// version v: in Data.version and in their names ("v<v> item <i>").
func BuildVersion(t testing.TB, env string, n, v int) []byte {
	t.Helper()
	its := make([][]byte, n)
	for i := range its {
		its[i] = fmt.Appendf(nil, `{"ContentID":"Content_00000000-0000-4000-8000-%012d",`+
			`"Name":"v%d item %d","Status":"Published","TemplateName":"Page",`+
			`"TemplateID":"Template_00000000-0000-4000-8000-000000000001",`+
			`"CreatedBy":"ann","CreatedAt":"2021-04-01T10:00:00.000Z",`+
			`"UpdatedBy":"bob","UpdatedAt":"2021-05-01T10:00:00.000Z",`+
			`"PublishedBy":"cat","PublishedAt":"2021-05-02T10:00:00.000Z",`+
			`"Data":{"version":%d}}`, i+1, v, i+1, v)
	}
	return build(t, env, its)
}

func build(t testing.TB, env string, its [][]byte) []byte {
	t.Helper()
	w, err := snapshot.NewWriter(env, false)
	if err != nil {
		t.Fatalf("new writer: %v", err)
	}
	w.Derive(graphql.ShapesSection, graphql.DeriveShapes) // as the builder does
	for _, it := range its {
		if err := w.Add(it); err != nil {
			t.Fatalf("add item: %v", err)
		}
	}
	b, err := w.Bytes()
	if err != nil {
		t.Fatalf("write snapshot: %v", err)
	}
	return b
}

// WriteDir writes a snapshot of env (n items) as DIR/<env>.snap into a new temporary
// directory and returns the directory.
func WriteDir(t testing.TB, env string, n int) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, env+".snap"), Build(t, env, n), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// Stub reports whether the snapshot package is still the contract stub (it accepts any
// bytes); tests of real content skip then.
func Stub() bool {
	_, err := snapshot.Open([]byte("not a snapshot"))
	return err == nil
}

// Requests is a varied set of requests against environment env: lists, items, errors,
// escapes, bodies, preflight.
func Requests(env string) []edge.Request {
	base := "/cda/rest/v1/" + env
	return []edge.Request{
		{Method: "GET", Path: base + "/contents"},
		{Method: "GET", Path: base + "/contents", RawQuery: "pageSize=2&page=2&sort=Name&sortAsc=true"},
		{Method: "GET", Path: base + "/contents", RawQuery: "searchByName=Item%203"},
		{Method: "GET", Path: base + "/contents/" + ContentID(1)},
		{Method: "GET", Path: base + "/contents/Content_missing"},
		{Method: "GET", Path: "/cda/rest/v1/nope/contents"},
		{Method: "GET", Path: "/cda/rest/v1/" + env + "%2Fx/contents"},
		{Method: "DELETE", Path: base + "/contents"},
		{Method: "OPTIONS", Path: base + "/contents", Headers: []edge.Header{
			{Name: "access-control-request-method", Value: "GET"}, {Name: "origin", Value: "https://example.com"}}},
		{Method: "GET", Path: base + "/contents", RawQuery: "pagesize=2"},
		{Method: "POST", Path: "/cda/graphql/v1/" + env, Headers: []edge.Header{{Name: "content-type", Value: "application/json"}},
			Body: []byte(`{"query":"{ content(pageSize: 2) { Name ContentID } }"}`)},
		{Method: "POST", Path: "/cda/search/v1/" + env, Body: []byte(`{"query":{"match_all":{}},"size":1}`)},
		{Method: "POST", Path: "/cda/search/v1/" + env, Body: []byte(`{"query":`)},
		{Method: "GET", Path: "/"},
		{Method: "GET", Path: "/%zz"},
	}
}
