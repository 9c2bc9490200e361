package jsonr

import (
	"testing"

	"github.com/tidwall/gjson"
)

// benchDocs are a search body (the DSL's input) and a stored item (GraphQL projection's).
var benchDocs = []struct{ name, json string }{
	{"search-body", `{"query":{"bool":{"must":[{"match":{"Name":{"query":"café culture","operator":"and"}}}],"filter":[{"terms":{"TemplateName.keyword":["Article","Product"]}},{"range":{"CreatedAt":{"gte":"2020-01-01"}}}]}},"sort":[{"CreatedAt":"desc"},"_score"],"_source":["Name","Data.title"],"from":20,"size":20}`},
	{"item", `{"Status":"Published","CreatedBy":"Marta Kowalska","CreatedAt":"2021-03-04T05:06:07.008Z","Data":{"title":"Item 42","urlPath":"/item-42","price":42,"tags":["t1","t2"],"body":"<p>Some text about item 42 with an \"escaped\" quote.</p>"},"PublishedBy":"Erian Suwandi","UpdatedAt":"2025-01-01T00:00:00.000Z","Name":"Item number 42","PublishedAt":"2025-01-02T00:00:00.000Z","UpdatedBy":"Marta Kowalska","TemplateName":"Article","TemplateID":"Template_1","ContentID":"Content_00000042"}`},
}

func walkJSONR(r Result) (n int) {
	r.ForEach(func(k, v Result) bool {
		n += len(k.Str) + len(v.Raw)
		if v.Type == JSON {
			n += walkJSONR(v)
		}
		return true
	})
	return n
}

func walkGJSON(r gjson.Result) (n int) {
	r.ForEach(func(k, v gjson.Result) bool {
		n += len(k.Str) + len(v.Raw)
		if v.Type == gjson.JSON {
			n += walkGJSON(v)
		}
		return true
	})
	return n
}

// BenchmarkWalk parses a document and visits every value, as the DSL decoder does.
func BenchmarkWalk(b *testing.B) {
	for _, d := range benchDocs {
		b.Run("jsonr/"+d.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				walkJSONR(Parse(d.json))
			}
		})
		b.Run("gjson/"+d.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				walkGJSON(gjson.Parse(d.json))
			}
		})
	}
}

// BenchmarkValid checks a document, as the GraphQL endpoint does with a JSON body.
func BenchmarkValid(b *testing.B) {
	for _, d := range benchDocs {
		b.Run("jsonr/"+d.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				Valid(d.json)
			}
		})
		b.Run("gjson/"+d.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				gjson.Valid(d.json)
			}
		})
	}
}

// BenchmarkGet looks up the last member of the stored item.
func BenchmarkGet(b *testing.B) {
	item := benchDocs[1].json
	b.Run("jsonr", func(b *testing.B) {
		b.ReportAllocs()
		r := Parse(item)
		for b.Loop() {
			r.Get("ContentID")
		}
	})
	b.Run("gjson", func(b *testing.B) {
		b.ReportAllocs()
		r := gjson.Parse(item)
		for b.Loop() {
			r.Get("ContentID")
		}
	})
}
