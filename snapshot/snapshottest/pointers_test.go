package snapshottest_test

import (
	"strings"
	"testing"

	"github.com/cdaedge/cdaedge/edge"
	"github.com/cdaedge/cdaedge/edge/router"
	"github.com/cdaedge/cdaedge/snapshot"
	"github.com/cdaedge/cdaedge/snapshot/snapshottest"
)

var items = []string{
	`{"ContentID":"a1","Name":"Café culture","TemplateName":"Article","Status":"Published","Data":{"title":"Garden paths","body":"<p>a headless garden in kyoto</p>","tags":["x","y"],"n":3}}`,
	`{"ContentID":"b2","Name":"River walk","TemplateName":"Page","Status":"Published","Data":{"title":"River","body":"<p>coffee by the river</p>","n":1.5,"ok":true}}`,
}

// TestNoInteriorPointers: what a runtime keeps while it serves a snapshot (the opened
// Snapshot, and the router with it loaded, after requests of every style) holds the
// file only by its first byte.
func TestNoInteriorPointers(t *testing.T) {
	data := snapshottest.Bytes(t, "env", false, items...)
	snap, err := snapshot.Open(data)
	if err != nil {
		t.Fatal(err)
	}
	if got := snapshottest.InteriorPointers(snap, data); len(got) > 0 {
		t.Errorf("the Snapshot points into the file:\n%s", strings.Join(got, "\n"))
	}
	r := router.New(router.Options{})
	r.Load(snap)
	for _, req := range []*edge.Request{
		{Method: "GET", Path: "/cda/rest/v1/env/contents", RawQuery: "searchByName=river&sort=Name"},
		{Method: "GET", Path: "/cda/rest/v1/env/contents/a1"},
		{Method: "POST", Path: "/cda/graphql/v1/env", Body: []byte(`{"query":"{ content(pageSize: 5) { Name, Data } }"}`)},
		{Method: "POST", Path: "/cda/es/v1/env", Body: []byte(`{"query":{"query_string":{"query":"gard* OR \"headless garden\""}},"aggs":{"t":{"terms":{"field":"TemplateName.keyword"}}}}`)},
	} {
		req.Headers = append(req.Headers, edge.Header{Name: "host", Value: "x"})
		if resp := r.Serve(req); resp.Status != 200 {
			t.Fatalf("%s %s: %d %s", req.Method, req.Path, resp.Status, resp.Body)
		}
	}
	if got := snapshottest.InteriorPointers(r, data); len(got) > 0 {
		t.Errorf("the router points into the file:\n%s", strings.Join(got, "\n"))
	}
}
