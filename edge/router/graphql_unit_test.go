package router

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/cdaedge/cdaedge/edge"
	"github.com/cdaedge/cdaedge/snapshot"
	"github.com/cdaedge/cdaedge/snapshot/snapshottest"
	"github.com/tidwall/gjson"
)

func gqlPost(r *Router, env, doc string) *edge.Response {
	return r.Serve(&edge.Request{Method: "POST", Path: "/cda/graphql/v1/" + env, Body: []byte(doc),
		Headers: []edge.Header{{Name: "Content-Type", Value: "application/graphql"}}})
}

func snapshotOf(t testing.TB, env string, items []string) *snapshot.Snapshot {
	t.Helper()
	return snapshottest.Open(t, env, false, items...)
}

// TestGraphQLUnit covers rules the demo environment cannot show; the conformance table
// (testdata/conformance/graphql.json) covers the rest, natively and in wasm.
func TestGraphQLUnit(t *testing.T) {
	r := unitRouter(t, Options{}, false)
	r.Load(snapshotOf(t, "empty", nil))
	for _, tc := range []struct {
		name, env, doc string
		status         int
		want           string // the exact body, or the error code
	}{
		{"D9 no arguments on an empty environment: data null", "empty", `query { content(){ } }`, 200, `{"status":200,"data":null}`},
		{"D9 any argument on an empty environment: empty list", "empty", `{ content(page: 1) { Name } }`, 200, `{"status":200,"data":[],"totalItems":0}`},
		{"D9 no arguments: the first item in default order", "unit", `{ content { ContentID } }`, 200, `{"status":200,"data":{"ContentID":"Content_2"}}`},
		{"D4 D12 data number 10 equals stored 10", "unit", `{ content(data: {price: 10.0}) { ContentID } }`, 200, `{"status":200,"data":[{"ContentID":"Content_1"}],"totalItems":1}`},
		{"D4 data token subset does not match a longer path", "unit", `{ content(data: {urlPath: "/create-content-template"}) { ContentID } }`, 200, `{"status":200,"data":[{"ContentID":"Content_2"}],"totalItems":1}`},
		{"D9 __typename inside items", "unit", `{ content(contentId: "Content_4") { __typename t: __typename ContentID } }`, 200, `{"status":200,"data":[{"__typename":"Content","t":"Content","ContentID":"Content_4"}],"totalItems":1}`},
		{"D9 Data sub-selection on an item with an empty Data", "unit", `{ content(contentId: "Content_4") { Data { price } } }`, 200, `{"status":200,"data":[{"Data":{}}],"totalItems":1}`},
		{"D12 sort on a Data path nobody has keeps ContentID order", "unit", `{ content(sort: "Data.nope") { ContentID } }`, 200, `{"status":200,"data":[{"ContentID":"Content_1"},{"ContentID":"Content_2"},{"ContentID":"Content_3"},{"ContentID":"Content_4"}],"totalItems":4}`},
		{"D11 fragments nested too deep are too_complex", "unit", deepFragments(20), 400, "too_complex"},
		{"D11 fragments spread many times are expanded once per collection", "unit", fragmentBomb(15, 50), 200, `{"status":200,"data":{"Name":"Café Müller"}}`},
		{"D8 invalid UTF-8 is invalid_query", "unit", "{ content { Name } }\xff", 400, "invalid_query"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			resp := gqlPost(r, tc.env, tc.doc)
			body := string(resp.Body)
			if resp.Status != tc.status {
				t.Fatalf("status %d, want %d: %s", resp.Status, tc.status, body)
			}
			if tc.status >= 400 {
				if code := gjson.Get(body, "error.code").Str; code != tc.want {
					t.Fatalf("code %q, want %q: %s", code, tc.want, body)
				}
				if gjson.Get(body, "errors.0.extensions.code").Str != tc.want {
					t.Fatalf("no GraphQL errors form (D8): %s", body)
				}
				return
			}
			if body != tc.want {
				t.Fatalf("body\n got %s\nwant %s", body, tc.want)
			}
		})
	}
}

func deepFragments(n int) string {
	var b strings.Builder
	b.WriteString("{ content { ...F0 } }")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, " fragment F%d on Content { Name ...F%d }", i, i+1)
	}
	fmt.Fprintf(&b, " fragment F%d on Content { Name }", n)
	return b.String()
}

// fragmentBomb spreads each of levels fragments width times into the previous one:
// width^levels expansions without GraphQL's once-per-collection rule.
func fragmentBomb(levels, width int) string {
	var b strings.Builder
	b.WriteString("{ content { ...F0 } }")
	for i := 0; i < levels; i++ {
		fmt.Fprintf(&b, " fragment F%d on Content { Name %s}", i, strings.Repeat(fmt.Sprintf("...F%d ", i+1), width))
	}
	fmt.Fprintf(&b, " fragment F%d on Content { Name }", levels)
	return b.String()
}

// TestGraphQLErrorsHaveLocations: every error about the document carries a location
// (D8), and its code is the one D12 gives.
func TestGraphQLErrorsHaveLocations(t *testing.T) {
	r := unitRouter(t, Options{}, false)
	for _, doc := range []string{
		`{ content(pageSize: "x") { Name } }`,
		`{ content(nope: 1) { Name } }`,
		`{ content { Nope } }`,
		`{ content(createdAt: "yesterday") { Name } }`,
		`{ content(data: {a: ENUM}) { Name } }`,
		`{ content(sort: "Nope") { Name } }`,
		`{ content { Name @include(if: "yes") } }`,
		`query { content( }`,
		`{ __type { name } }`,
		`{ __schema { nope } }`,
		`{ __schema { types } }`,
	} {
		resp := gqlPost(r, "unit", doc)
		body := string(resp.Body)
		if resp.Status != 400 || !gjson.Get(body, "errors.0.locations.0.line").Exists() {
			t.Errorf("%s: %d %s; want a 400 with a location", doc, resp.Status, body)
		}
	}
}

// FuzzGraphQLRouter: whatever the document and variables, the router answers valid JSON
// with a status it states in the body (or the standard introspection shape), never a
// panic (D8).
func FuzzGraphQLRouter(f *testing.F) {
	for _, s := range []string{
		`query { content(){ } }`,
		`query { content(pageSize: 3, page: 1, sortAsc: true, PublishedBy: "Erian Suwandi" ){ Name, ContentID, PublishedBy } }`,
		`{ content(data: {price: [10, 2.5, "x", {a: true}]}, CreatedAt_gte: "2021-04-23") { Data { price urlPath { x } } } }`,
		`query Q($n: Int, $d: JSON) { a: content(pageSize: $n, data: $d) { ...F } } fragment F on Content { __typename Name }`,
		`{ __schema { types { name fields { name args { name type { ofType { name } } } } } } }`,
		`{ content(contentId: "Content_1", retrieveChild: true, depth: 3) { ContentID } }`,
	} {
		f.Add(s, `{"n": 2, "d": {"urlPath": "/create-content"}}`)
	}
	r, framed := unitRouter(f, Options{}, false), framingTwin(f)
	f.Fuzz(func(t *testing.T, doc, vars string) {
		body, _ := json.Marshal(map[string]any{"query": doc, "variables": json.RawMessage(validOr(vars, "null"))})
		resp := checkSameFramed(t, r, framed, &edge.Request{Method: "POST", Path: "/cda/graphql/v1/unit", Body: body,
			Headers: []edge.Header{{Name: "Content-Type", Value: "application/json"}}})
		if !gjson.ValidBytes(resp.Body) {
			t.Fatalf("invalid JSON answer %q", resp.Body)
		}
		if st := gjson.GetBytes(resp.Body, "status"); st.Exists() && int(st.Int()) != resp.Status {
			t.Fatalf("status %d, body says %s", resp.Status, st.Raw)
		}
		if resp.Status == 200 && !gjson.GetBytes(resp.Body, "data").Exists() {
			t.Fatalf("a 200 without data: %s", resp.Body)
		}
		if resp.Status != 200 && resp.Status != 400 {
			t.Fatalf("status %d: %s", resp.Status, resp.Body)
		}
	})
}

func validOr(s, fallback string) string {
	if json.Valid([]byte(s)) {
		return s
	}
	return fallback
}

// benchItems builds n items shaped like the demo's.
func benchItems(n int) []string {
	authors := []string{"Erian Suwandi", "Marta Kowalska", "Jonas Weber", "Suwandi Erian", "Erian Ho"}
	items := make([]string, n)
	for i := range items {
		items[i] = fmt.Sprintf(`{"Status":"Published","CreatedBy":%q,"CreatedAt":"20%02d-%02d-%02dT%02d:%02d:%02d.%03dZ","Data":{"title":"Item %d","urlPath":"/item-%d","price":%d,"tags":["t%d","t%d"],"body":"<p>Some text about item %d.</p>"},"PublishedBy":%q,"UpdatedAt":"2025-01-01T00:00:00.000Z","Name":"Item number %d","PublishedAt":"2025-01-02T00:00:00.000Z","UpdatedBy":"Marta Kowalska","TemplateName":"Article","TemplateID":"Template_1","ContentID":"Content_%08d"}`,
			authors[i%3], 10+i%15, 1+i%12, 1+i%28, i%24, i%60, (i*7)%60, i%1000, i, i, i%100, i%7, i%11, i, authors[i%5], i, i)
	}
	return items
}

// BenchmarkGraphQL measures parse + execute of the four documented queries of API.md (GraphQL, Examples)
// on 10k items, through the handler (no HTTP framing), plus one projection-heavy page.
func BenchmarkGraphQL(b *testing.B) {
	snap := snapshotOf(b, "bench", benchItems(10000))
	r := New(Options{})
	r.Load(snap)
	env := r.envs["bench"]
	for _, bc := range []struct{ name, doc string }{
		{"all-fields-one-item", `query { content(){ } }`},
		{"two-fields-one-item", `query { content(){ Name, ContentID } }`},
		{"page-sortAsc", `query { content(pageSize: 3, page: 1, sortAsc: true ){ Name } }`},
		{"page-sortAsc-PublishedBy", `query { content(pageSize: 3, page: 1, sortAsc: true, PublishedBy: "Erian Suwandi" ){ Name, ContentID, PublishedBy } }`},
		// Not documented: a full page with a Data sub-selection, to show projection cost.
		{"projection-100", `query { content(pageSize: 100) { Name ContentID Data { title price } } }`},
	} {
		b.Run(bc.name, func(b *testing.B) {
			req := &edge.Request{Method: "POST", Path: "/cda/graphql/v1/bench", Body: []byte(bc.doc),
				Headers: []edge.Header{{Name: "Content-Type", Value: "application/graphql"}}}
			var buf []byte
			b.ReportAllocs()
			for b.Loop() {
				env.eval.BeginRequest() // as Serve does: one budget per request
				out, err := graphQL(buf[:0], env, req)
				if err != nil {
					b.Fatal(err)
				}
				buf = out
			}
		})
	}
}
