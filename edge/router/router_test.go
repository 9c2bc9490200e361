package router

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/cdaedge/cdaedge/edge"
	"github.com/cdaedge/cdaedge/snapshot"
	"github.com/cdaedge/cdaedge/snapshot/snapshottest"
	"github.com/tidwall/gjson"
)

// unitItems is a small environment for the router's unit tests; the conformance suite
// (edge/edgetest, testdata/conformance) covers the demo environment in every runtime.
var unitItems = []string{
	`{"ContentID":"Content_1","Status":"Published","Name":"Welcome home","CreatedBy":"Erian Suwandi","CreatedAt":"2021-04-23T10:00:00.000Z","TemplateName":"Page","Data":{"urlPath":"/create-content","price":10}}`,
	`{"ContentID":"Content_2","Status":"Published","Name":"Café Müller","CreatedBy":"Ana Lima","CreatedAt":"2022-01-01T00:00:00.000Z","TemplateName":"Article","Data":{"urlPath":"/create-content-template","price":2.5}}`,
	`{"ContentID":"Content_3","Status":"Published","Name":"Erian's notes","CreatedBy":"Erian Ho","CreatedAt":"2021-04-23T10:00:00.000Z","TemplateName":"Article","Data":{"price":100}}`,
	`{"ContentID":"Content_4","Status":"Published","CreatedBy":"Bo","TemplateName":"Page","Data":{}}`,
}

func unitRouter(t testing.TB, opts Options, preview bool) *Router {
	t.Helper()
	r := New(opts)
	r.Load(snapshottest.Open(t, "unit", preview, unitItems...))
	return r
}

func ids(body string) string {
	var out []string
	data := gjson.Get(body, "data")
	if data.IsObject() {
		return data.Get("ContentID").String()
	}
	for _, it := range data.Array() {
		out = append(out, strings.TrimPrefix(it.Get("ContentID").String(), "Content_"))
	}
	return strings.Join(out, ",")
}

func TestRESTList(t *testing.T) {
	r := unitRouter(t, Options{}, false)
	for _, tc := range []struct {
		name, query string
		status      int
		want        string // ids without the Content_ prefix, or the error code
		total       int
	}{
		{"D6 default CreatedAt desc, missing last, ties by ContentID", "", 200, "2,1,3,4", 4},
		{"D6 sortAsc keeps missing last", "sortAsc=true", 200, "1,3,2,4", 4},
		{"D6 sort name case-insensitive", "sort=name&sortAsc=TRUE", 200, "2,3,1,4", 4},
		{"D6 sort Data path numerically", "sort=Data.price&sortAsc=1", 200, "2,1,3,4", 4},
		{"D12 sort Data path nobody has", "sort=Data.nope", 200, "1,2,3,4", 4},
		{"D6 unknown top-level sort", "sort=Nope", 400, "invalid_argument", 0},
		{"D4 token subset", "searchByCreatedBy=erian", 200, "1,3", 2},
		{"D4 all tokens", "searchByCreatedBy=Suwandi%20Erian", 200, "1", 1},
		{"D4 apostrophe token", "searchByName=erian's", 200, "3", 1},
		{"D4 non-ASCII", "searchByName=caf%C3%A9", 200, "2", 1},
		{"D4 template", "searchByTemplateName=page", 200, "1,4", 2},
		{"D4 empty filter ignored", "searchByName=", 200, "2,1,3,4", 4},
		{"D4 punctuation-only filter", "searchByName=%2F%2F", 400, "invalid_argument", 0},
		{"D7 page size and page", "pageSize=2&page=2", 200, "3,4", 4},
		{"D7 page past the end", "page=9", 200, "", 4},
		{"D7 pageSize 0", "pageSize=0", 400, "invalid_argument", 0},
		{"D7 pageSize 1001", "pageSize=1001", 400, "invalid_argument", 0},
		{"D12 page 2^31", "page=2147483648", 400, "invalid_argument", 0},
		{"D12 empty page is absent", "page=&pageSize=", 200, "2,1,3,4", 4},
		{"D12 repeated parameter", "page=1&page=2", 400, "invalid_argument", 0},
		{"D12 wrong case", "pagesize=2", 400, "invalid_argument", 0},
		{"D12 unknown ignored", "_=123&foo=bar", 200, "2,1,3,4", 4},
		{"D12 sortAsc yes", "sortAsc=yes", 400, "invalid_argument", 0},
		{"D12 bad escape", "searchByName=%zz", 400, "invalid_argument", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			resp := r.Serve(&edge.Request{Method: "GET", Path: "/cda/rest/v1/unit/contents", RawQuery: tc.query})
			body := string(resp.Body)
			if resp.Status != tc.status {
				t.Fatalf("status %d, body %s", resp.Status, body)
			}
			if tc.status != 200 {
				if got := gjson.Get(body, "error.code").String(); got != tc.want {
					t.Errorf("code %q, want %q: %s", got, tc.want, body)
				}
				return
			}
			if got := ids(body); got != tc.want {
				t.Errorf("ids %q, want %q", got, tc.want)
			}
			if got := gjson.Get(body, "totalItems").Int(); int(got) != tc.total {
				t.Errorf("totalItems %d, want %d", got, tc.total)
			}
		})
	}
}

func TestRouting(t *testing.T) {
	r := unitRouter(t, Options{}, false)
	for _, tc := range []struct {
		method, path string
		status       int
		code         string
	}{
		{"GET", "/cda/rest/v1/unit/contents/Content_2", 200, ""},
		{"HEAD", "/cda/rest/v1/unit/contents/Content_2", 200, ""},
		{"GET", "/cda/rest/v1/unit/contents/Content_9", 404, "content_not_found"},
		{"GET", "/cda/rest/v1/Unit/contents", 404, "environment_not_found"},
		{"GET", "/cda/rest/v1/..%2f..%2fetc/contents", 404, "environment_not_found"},
		{"GET", "/cda/rest/v2/unit/contents", 404, "not_found"},
		{"GET", "/cda/rest/v1/unit/contents/", 404, "not_found"},
		{"GET", "/", 404, "not_found"},
		{"POST", "/cda/rest/v1/unit/contents", 405, "method_not_allowed"},
		{"OPTIONS", "/cda/rest/v1/unit/contents", 204, ""},
		{"GET", "/cda/rest/v1/unit/contents?" + strings.Repeat("a", 9000), 414, "uri_too_long"},
	} {
		t.Run(tc.method+" "+tc.path[:min(len(tc.path), 48)], func(t *testing.T) {
			path, query, _ := strings.Cut(tc.path, "?")
			resp := r.Serve(&edge.Request{Method: tc.method, Path: path, RawQuery: query})
			if resp.Status != tc.status {
				t.Fatalf("status %d: %s", resp.Status, resp.Body)
			}
			if got := gjson.GetBytes(resp.Body, "error.code").String(); got != tc.code {
				t.Errorf("code %q, want %q", got, tc.code)
			}
			if tc.status == 405 && edge.HeaderValue(resp.Headers, "Allow") == "" {
				t.Error("405 without Allow")
			}
			if tc.method == "HEAD" && len(resp.Body) != 0 {
				t.Error("HEAD with a body")
			}
		})
	}
}

func TestSingleItemEnvelope(t *testing.T) {
	r := unitRouter(t, Options{}, false)
	resp := r.Serve(&edge.Request{Method: "GET", Path: "/cda/rest/v1/unit/contents/Content_4"})
	want := `{"status":200,"data":{"Status":"Published","CreatedBy":"Bo","Data":{},"TemplateName":"Page","ContentID":"Content_4"}}`
	if string(resp.Body) != want {
		t.Errorf("body\n got %s\nwant %s", resp.Body, want)
	}
	if got := edge.HeaderValue(resp.Headers, "Content-Type"); got != "application/json; charset=utf-8" {
		t.Errorf("content type %q", got)
	}
}

func TestETagAndPreview(t *testing.T) {
	r := unitRouter(t, Options{}, false)
	req := &edge.Request{Method: "GET", Path: "/cda/rest/v1/unit/contents", RawQuery: "pageSize=1"}
	first := r.Serve(req)
	etag := edge.HeaderValue(first.Headers, "ETag")
	if etag == "" || edge.HeaderValue(first.Headers, "Cache-Control") != "public, max-age=60" {
		t.Fatalf("headers %v", first.Headers)
	}
	req.Headers = []edge.Header{{Name: "If-None-Match", Value: `"x", ` + etag}}
	if again := r.Serve(req); again.Status != 304 || len(again.Body) != 0 {
		t.Errorf("If-None-Match: %d %q", again.Status, again.Body)
	}
	other := r.Serve(&edge.Request{Method: "GET", Path: "/cda/rest/v1/unit/contents", RawQuery: "pageSize=2"})
	if edge.HeaderValue(other.Headers, "ETag") == etag {
		t.Error("ETag does not change with the request")
	}

	p := unitRouter(t, Options{PreviewTokens: map[string]string{"unit": "s3cret"}}, true)
	for _, tc := range []struct {
		auth   string
		status int
	}{{"", 401}, {"Bearer wrong", 401}, {"Bearer s3cret", 200}, {"s3cret", 200}} {
		resp := p.Serve(&edge.Request{Method: "GET", Path: "/cda/rest/v1/unit/contents", Headers: []edge.Header{{Name: "Authorization", Value: tc.auth}}})
		if resp.Status != tc.status {
			t.Errorf("auth %q: status %d", tc.auth, resp.Status)
		}
		if resp.Status == 200 && edge.HeaderValue(resp.Headers, "Cache-Control") != "private, no-store" {
			t.Errorf("preview cache-control %q", edge.HeaderValue(resp.Headers, "Cache-Control"))
		}
	}
	noToken := unitRouter(t, Options{}, true)
	if resp := noToken.Serve(&edge.Request{Method: "GET", Path: "/cda/rest/v1/unit/contents"}); resp.Status != 401 {
		t.Errorf("preview without configured token: %d", resp.Status)
	}
}

func ExampleRouter_Serve() {
	w, _ := snapshot.NewWriter("demo", false)
	_ = w.Add([]byte(`{"ContentID":"Content_1","Status":"Published","Name":"Hello"}`))
	b, _ := w.Bytes()
	snap, _ := snapshot.Open(b)
	r := New(Options{})
	r.Load(snap)
	resp := r.Serve(&edge.Request{Method: "GET", Path: "/cda/rest/v1/demo/contents", RawQuery: "searchByName=hello"})
	fmt.Println(resp.Status, string(resp.Body))
	// Output: 200 {"status":200,"data":[{"Status":"Published","Name":"Hello","ContentID":"Content_1"}],"totalItems":1}
}

// TestLendBodies checks that a router that lends its bodies answers the same bytes as
// one that copies them, and that a lent body is the router's own buffer.
func TestLendBodies(t *testing.T) {
	copying, lending := unitRouter(t, Options{}, false), unitRouter(t, Options{LendBodies: true}, false)
	reqs := []edge.Request{
		{Method: "GET", Path: "/cda/rest/v1/unit/contents", RawQuery: "sort=name"},
		{Method: "GET", Path: "/cda/rest/v1/unit/contents/Content_2"},
		{Method: "POST", Path: "/cda/graphql/v1/unit", Body: []byte(`{"query":"{ content { Name } }"}`)},
		{Method: "POST", Path: "/cda/es/v1/unit", Body: []byte(`{"query":{"match":{"Name":"erian"}}}`)},
	}
	for _, req := range reqs {
		want := copying.Serve(&req)
		got := lending.Serve(&req)
		if got.Status != 200 || string(got.Body) != string(want.Body) {
			t.Fatalf("%s %s: lent %d %s, copied %d %s", req.Method, req.Path, got.Status, got.Body, want.Status, want.Body)
		}
		if &got.Body[0] != &lending.buf[:1][0] {
			t.Errorf("%s: the lent body is not the router's buffer", req.Path)
		}
	}
}

// TestBodyHeadroom checks that a router keeping room before its lent bodies answers the
// same as one that copies them, headers and all, that Headroom gives that room followed
// by the body, and that the response size limit still counts the body alone.
func TestBodyHeadroom(t *testing.T) {
	const room = 64
	reqs := []edge.Request{
		{Method: "GET", Path: "/cda/rest/v1/unit/contents", RawQuery: "sort=name"},
		{Method: "GET", Path: "/cda/rest/v1/unit/contents/Content_2"},
		{Method: "HEAD", Path: "/cda/rest/v1/unit/contents/Content_2"},
		{Method: "GET", Path: "/cda/rest/v1/unit/contents/Content_404"},
		{Method: "POST", Path: "/cda/graphql/v1/unit", Body: []byte(`{"query":"{ content { Name } }"}`)},
		{Method: "POST", Path: "/cda/es/v1/unit", Body: []byte(`{"query":{"match":{"Name":"erian"}}}`)},
		{Method: "POST", Path: "/cda/es/v1/unit/_msearch", Body: []byte("{}\n{\"query\":{\"match_all\":{}}}\n{}\n{\"query\":{\"nope\":{}}}\n")},
	}
	for _, req := range reqs {
		// Each request once without a limit, then with its body's size as the limit
		// (answered) and one byte less (too_complex), in both routers.
		full := unitRouter(t, Options{MaxResponseBytes: -1}, false).Serve(&req)
		for _, limit := range []int{-1, len(full.Body), len(full.Body) - 1} {
			if limit == 0 {
				continue
			}
			copying := unitRouter(t, Options{MaxResponseBytes: limit}, false)
			framing := unitRouter(t, Options{LendBodies: true, BodyHeadroom: room, MaxResponseBytes: limit}, false)
			want, got := copying.Serve(&req), framing.Serve(&req)
			if got.Status != want.Status || string(got.Body) != string(want.Body) || !reflect.DeepEqual(got.Headers, want.Headers) {
				t.Fatalf("%s %s, limit %d: with headroom %d %v %s; copied %d %v %s", req.Method, req.Path, limit,
					got.Status, got.Headers, got.Body, want.Status, want.Headers, want.Body)
			}
			if full.Status == 200 && len(full.Body) > 0 {
				if limit == len(full.Body) && got.Status != 200 {
					t.Errorf("%s %s: a body at the limit answered %d %s", req.Method, req.Path, got.Status, got.Body)
				}
				if limit == len(full.Body)-1 && got.Status != 400 {
					t.Errorf("%s %s: a body one byte over the limit answered %d", req.Method, req.Path, got.Status)
				}
			}
			whole := framing.Headroom(got.Body)
			switch {
			case got.Status != 200 || len(got.Body) == 0:
				if whole != nil {
					t.Errorf("%s %s: Headroom of a body the router did not lend", req.Method, req.Path)
				}
			case len(whole) != room+len(got.Body) || &whole[room] != &got.Body[0]:
				t.Errorf("%s %s: Headroom gave %d bytes, not the room and the lent body", req.Method, req.Path, len(whole))
			}
		}
	}
}

// framingTwin is a router as the wasm module runs it, to answer beside one with the
// defaults: it lends its bodies with room before them (the module's 2 KB).
func framingTwin(t testing.TB) *Router {
	return unitRouter(t, Options{LendBodies: true, BodyHeadroom: 2048}, false)
}

// checkSameFramed fails t unless req gets the same answer from plain, a router with the
// defaults, and from framed (framingTwin), and Headroom hands back framed's room and
// its lent body; it returns plain's answer.
func checkSameFramed(t *testing.T, plain, framed *Router, req *edge.Request) *edge.Response {
	t.Helper()
	want, got := plain.Serve(req), framed.Serve(req)
	if got.Status != want.Status || string(got.Body) != string(want.Body) || !reflect.DeepEqual(got.Headers, want.Headers) {
		t.Fatalf("%s %s?%s %q: framed %d %v %s; plain %d %v %s", req.Method, req.Path, req.RawQuery, req.Body,
			got.Status, got.Headers, got.Body, want.Status, want.Headers, want.Body)
	}
	if room := framed.Headroom(got.Body); room != nil && (len(room) != 2048+len(got.Body) || &room[2048] != &got.Body[0]) {
		t.Fatalf("%s %s: Headroom gave %d bytes, not the room and the lent body", req.Method, req.Path, len(room))
	}
	return want
}

// A query_string over every field searches each field by its own name, even a name
// with a '^' (which a list the request gives reads as a boost) or a '*' (read as a
// pattern, which matches the field itself).
func TestQueryStringOverOddFieldNames(t *testing.T) {
	r := New(Options{})
	r.Load(snapshottest.Open(t, "odd", false,
		`{"ContentID":"Content_1","Status":"Published","Name":"One","Data":{"x^2":"espresso tonic"}}`,
		`{"ContentID":"Content_2","Status":"Published","Name":"Two","Data":{"a*b":"espresso"}}`,
		`{"ContentID":"Content_3","Status":"Published","Name":"Three","Data":{"ab":"espresso beans"}}`,
		`{"ContentID":"Content_4","Status":"Published","Name":"Coffee","Data":{}}`,
	))
	for _, c := range []struct {
		body string
		want int64
	}{
		{`{"query":{"query_string":{"query":"espresso"}}}`, 3},
		{`{"query":{"query_string":{"query":"espresso OR nothing"}},"size":0}`, 3},
		{`{"query":{"simple_query_string":{"query":"espresso"}}}`, 3},
		{`{"query":{"query_string":{"query":"espresso","fields":["Data.a*"]}}}`, 2},
		{`{"query":{"query_string":{"query":"Data.a\\*b:espresso"}}}`, 2},
	} {
		resp := r.Serve(&edge.Request{Method: "POST", Path: "/cda/es/v1/odd", Body: []byte(c.body)})
		if got := gjson.GetBytes(resp.Body, "totalItems").Int(); resp.Status != 200 || got != c.want {
			t.Errorf("%s: %d %s, want %d items", c.body, resp.Status, resp.Body, c.want)
		}
	}
}
