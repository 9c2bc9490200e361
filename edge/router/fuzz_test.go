package router

import (
	"testing"

	"github.com/cdaedge/cdaedge/edge"
	"github.com/tidwall/gjson"
)

// FuzzRESTList feeds arbitrary query strings to the list endpoint: every answer is a
// 200 list or a 4xx D8 envelope, never a panic or a 5xx (guide rule 8).
func FuzzRESTList(f *testing.F) {
	for _, seed := range []string{
		"", "page=2&pageSize=3", "searchByName=Erian%20Suwandi&sort=Name&sortAsc=true",
		"sort=Data.price", "%zz", "page=&pageSize=", "a=b&a=c&page=1&page=2", "pagesize=1",
		"searchByName=%2F%2F", "sort=Data", "sortAsc=yes", "status=published&searchByCreatedBy=a+b",
		"searchByName=%FF%FE", "page=99999999999999999999",
	} {
		f.Add(seed)
	}
	r, framed := unitRouter(f, Options{}, false), framingTwin(f)
	f.Fuzz(func(t *testing.T, raw string) {
		resp := checkSameFramed(t, r, framed, &edge.Request{Method: "GET", Path: "/cda/rest/v1/unit/contents", RawQuery: raw})
		if !gjson.ValidBytes(resp.Body) {
			t.Fatalf("invalid JSON for %q: %s", raw, resp.Body)
		}
		switch {
		case resp.Status == 200:
			if !gjson.GetBytes(resp.Body, "data").IsArray() {
				t.Fatalf("200 without a data array for %q", raw)
			}
		case resp.Status >= 400 && resp.Status < 500:
			if gjson.GetBytes(resp.Body, "error.code").String() == "" {
				t.Fatalf("%d without an error code for %q", resp.Status, raw)
			}
		default:
			t.Fatalf("status %d for %q: %s", resp.Status, raw, resp.Body)
		}
	})
}

// FuzzPath feeds arbitrary paths to the router.
func FuzzPath(f *testing.F) {
	for _, seed := range []string{"/cda/rest/v1/unit/contents", "/cda/rest/v1/unit/contents/Content_1", "/cda/rest/v1/..%2f..%2fetc/contents", "/cda/es/v1/unit/_validate/query", "//", "/cda/%zz/"} {
		f.Add(seed)
	}
	r := unitRouter(f, Options{}, false)
	f.Fuzz(func(t *testing.T, path string) {
		resp := r.Serve(&edge.Request{Method: "GET", Path: path})
		if resp.Status >= 500 || !gjson.ValidBytes(resp.Body) && len(resp.Body) > 0 {
			t.Fatalf("status %d for %q: %s", resp.Status, path, resp.Body)
		}
	})
}
