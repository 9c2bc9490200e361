package router

import (
	"fmt"
	"testing"

	"github.com/cdaedge/cdaedge/edge"
	"github.com/cdaedge/cdaedge/edge/content"
	"github.com/cdaedge/cdaedge/edge/dsl"
)

// BenchmarkSearch measures the search endpoint end to end (decode, evaluate, write)
// on generated environments (the benchmark list of the search endpoint): query_string of 1, 3 and 10
// terms, a wildcard, a bool with filters, and a terms aggregation.
func BenchmarkSearch(b *testing.B) {
	benchPosts(b, []benchPost{
		{"query_string/1", "", `{"query":{"query_string":{"query":"café","default_field":"Data.body"}}}`},
		{"query_string/3", "", `{"query":{"query_string":{"query":"café AND (edge OR snapshot)","default_field":"Data.body"}}}`},
		{"query_string/10", "", `{"query":{"query_string":{"query":"café season global modern query straße template launch garden recipe","default_field":"Data.body"}}}`},
		{"wildcard", "", `{"query":{"bool":{"filter":[{"wildcard":{"Data.body":"snap*"}}]}}}`},
		{"bool+filters", "", `{"query":{"bool":{"must":[{"match":{"Name":"café"}}],"filter":[{"term":{"TemplateName.keyword":"Article"}},{"range":{"CreatedAt":{"gte":"2020-01-01","lt":"2024-01-01"}}}],"must_not":[{"term":{"Status.keyword":"Draft"}}]}},"size":20}`},
		{"terms_agg", "", `{"size":0,"aggs":{"templates":{"terms":{"field":"TemplateName.keyword"}},"authors":{"terms":{"field":"CreatedBy.keyword","size":5}}}}`},
	})
}

// BenchmarkDecode measures the DSL decoder alone (no evaluation) on a typical body.
func BenchmarkDecode(b *testing.B) {
	r, _ := benchRouter(b, benchSizes()[0])
	env := r.envs["bench"]
	body := `{"query":{"bool":{"must":[{"match":{"Name":{"query":"café culture","operator":"and"}}}],"filter":[{"terms":{"TemplateName.keyword":["Article","Product"]}},{"range":{"CreatedAt":{"gte":"2020-01-01"}}}]}},"sort":[{"CreatedAt":"desc"},"_score"],"_source":["Name","Data.title"],"from":20,"size":20}`
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := dsl.Decode(body, dsl.Options{Schema: content.NewFields(env.snap)}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkAggs measures a typical faceting request end to end (API.md D10): a terms
// aggregation with an avg sub-aggregation, a monthly date_histogram and an avg over
// every item.
func BenchmarkAggs(b *testing.B) {
	body := `{"size":0,"aggs":{"templates":{"terms":{"field":"TemplateName.keyword"},"aggs":{"avg_price":{"avg":{"field":"Data.price"}}}},"per_month":{"date_histogram":{"field":"CreatedAt","calendar_interval":"month"}},"avg_price":{"avg":{"field":"Data.price"}}}}`
	for _, n := range benchSizes() {
		r, _ := benchRouter(b, n)
		req := &edge.Request{Method: "POST", Path: "/cda/es/v1/bench", Body: []byte(body)}
		if resp := r.Serve(req); resp.Status != 200 {
			b.Fatalf("status %d: %s", resp.Status, resp.Body)
		}
		b.Run(fmt.Sprintf("terms+date_histogram+avg/items=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				r.Serve(req)
			}
		})
	}
}

// BenchmarkESCompat compares one search on the envelope endpoint with the same search on
// the Elasticsearch-compatible _search (hits with _id, _score and _source), and with a
// highlight of two text fields over the page of 10.
func BenchmarkESCompat(b *testing.B) {
	query := `"query":{"query_string":{"query":"café season","default_field":"Data.body"}}`
	benchPosts(b, []benchPost{
		{"envelope", "", `{` + query + `}`},
		{"_search", "/cda/es/v1/bench/_search", `{` + query + `}`},
		{"_search+highlight", "/cda/es/v1/bench/_search", `{` + query + `,"highlight":{"fields":{"Name":{},"Data.body":{}}}}`},
	})
}

// fullTextBodies are the search shapes the Node comparison (web/bench) runs too: full
// text over every field (query_string without default_field; words common in the
// generated prose, and words of one title), full text with a template
// filter, a filter sorted by date, a date range's third page, and three terms.
var fullTextBodies = []benchPost{
	{"fulltext/2", "", `{"query":{"query_string":{"query":"coffee garden"}},"size":10}`},
	{"fulltext/2rare", "", `{"query":{"query_string":{"query":"smørrebrød beginners"}},"size":10}`},
	{"fulltext+template", "", `{"query":{"bool":{"must":[{"query_string":{"query":"coffee garden"}}],"filter":[{"term":{"TemplateName.keyword":"Recipe"}}]}},"size":10}`},
	{"template+sort_date", "", `{"query":{"bool":{"filter":[{"term":{"TemplateName.keyword":"Article"}}]}},"sort":[{"CreatedAt":"desc"}],"size":10}`},
	{"date_range/page3", "", `{"query":{"range":{"CreatedAt":{"gte":"2021-01-01","lt":"2022-01-01"}}},"from":20,"size":10}`},
	{"query_string/3", "", `{"query":{"query_string":{"query":"coffee mountain festival"}},"size":10}`},
}

// BenchmarkFullText measures the search shapes of fullTextBodies end to end.
func BenchmarkFullText(b *testing.B) { benchPosts(b, fullTextBodies) }

// benchPost is one search of a benchmark: its name and body, POSTed to path (the
// envelope endpoint of the bench environment when empty).
type benchPost struct{ name, path, body string }

// benchPosts runs each post as a sub-benchmark on every benchmark size, after checking
// that it answers 200.
func benchPosts(b *testing.B, posts []benchPost) {
	for _, n := range benchSizes() {
		r, _ := benchRouter(b, n)
		for _, c := range posts {
			path := c.path
			if path == "" {
				path = "/cda/es/v1/bench"
			}
			req := &edge.Request{Method: "POST", Path: path, Body: []byte(c.body)}
			if resp := r.Serve(req); resp.Status != 200 {
				b.Fatalf("%s: status %d: %s", c.name, resp.Status, resp.Body)
			}
			b.Run(fmt.Sprintf("%s/items=%d", c.name, n), func(b *testing.B) {
				b.ReportAllocs()
				for i := 0; i < b.N; i++ {
					r.Serve(req)
				}
			})
		}
	}
}
