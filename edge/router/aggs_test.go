package router_test

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/cdaedge/cdaedge/edge"
	"github.com/cdaedge/cdaedge/edge/edgetest"
)

var updateGolden = flag.Bool("update", false, "rewrite testdata/aggs.golden from the current answers")

// aggBodies are search bodies covering every aggregation type and option (API.md D10):
// the conformance table holds a dozen aggregation cases; these pin the rest of the
// Elasticsearch shapes (key printing, date formats and zones, keyed buckets, ordering,
// include/exclude on typed keys, errors) byte for byte.
var aggBodies = []string{
	// terms
	`{"size":0,"aggs":{"t":{"terms":{"field":"TemplateName.keyword"}}}}`,
	`{"size":0,"aggs":{"t":{"terms":{"field":"Name","size":4}}}}`,
	`{"size":0,"aggs":{"n":{"terms":{"field":"Data.readingTime"}},"b":{"terms":{"field":"Data.inStock"}},"d":{"terms":{"field":"CreatedAt","size":3}}}}`,
	`{"size":0,"aggs":{"p":{"terms":{"field":"Data.price","order":{"_key":"desc"}}},"r":{"terms":{"field":"Data.rating"}},"e":{"terms":{"field":"Data.estimatedMinutes"}}}}`,
	`{"size":0,"aggs":{"t":{"terms":{"field":"TemplateName.keyword","include":["Article","FAQ","Nope"]}},"x":{"terms":{"field":"TemplateName.keyword","exclude":["Article"]}}}}`,
	`{"size":0,"aggs":{"n":{"terms":{"field":"Data.readingTime","include":["5","7","7.0"]}},"p":{"terms":{"field":"Data.price","include":["19.9","4.5","10","1000.0","249"]}},"b":{"terms":{"field":"Data.inStock","exclude":["true"]}},"d":{"terms":{"field":"CreatedAt","include":["2019-01-14T09:12:03.120Z","2019-01-14"]}}}}`,
	`{"size":0,"aggs":{"m":{"terms":{"field":"Data.tags","include":["berlin","1","true"]}},"k":{"terms":{"field":"Data.tags.keyword","exclude":["berlin","food"],"size":3}}}}`,
	`{"size":0,"query":{"term":{"TemplateName.keyword":"FAQ"}},"aggs":{"t":{"terms":{"field":"TemplateName.keyword","min_doc_count":0,"size":20}}}}`,
	`{"size":0,"aggs":{"t":{"terms":{"field":"CreatedBy.keyword","order":{"_count":"asc"}}}}}`,
	`{"size":0,"aggs":{"t":{"terms":{"field":"TemplateName.keyword","order":[{"avg_price":"desc"},{"_key":"asc"}]},"aggs":{"avg_price":{"avg":{"field":"Data.price"}}}}}}`,
	`{"size":0,"aggs":{"t":{"terms":{"field":"TemplateName.keyword","order":{"mx":"asc"},"size":3},"aggs":{"mx":{"max":{"field":"CreatedAt"}},"c":{"cardinality":{"field":"CreatedBy.keyword"}}}}}}`,
	`{"size":0,"aggs":{"t":{"terms":{"field":"TemplateName.keyword","order":{"vc":"desc"}},"aggs":{"vc":{"value_count":{"field":"Data.tags.keyword"}}}}}}`,
	`{"size":0,"aggs":{"t":{"terms":{"field":"TemplateName.keyword","size":2},"aggs":{"u":{"terms":{"field":"UpdatedBy.keyword","size":2},"aggs":{"y":{"date_histogram":{"field":"CreatedAt","calendar_interval":"year","min_doc_count":1}}}},"m":{"missing":{"field":"Data.tags"}}}}}}`,
	`{"size":0,"aggs":{"t":{"terms":{"field":"Nope.keyword"}},"u":{"terms":{"field":"Nope"}}}}`,
	// range and date_range
	`{"size":0,"aggs":{"p":{"range":{"field":"Data.price","ranges":[{"to":10},{"from":10,"to":19.9},{"from":19.9,"to":1000.5},{"from":1e7},{"from":0.0001,"to":0.5}]}}}}`,
	`{"size":0,"aggs":{"p":{"range":{"field":"Data.price","keyed":true,"ranges":[{"key":"cheap","to":20},{"from":20}]},"aggs":{"s":{"stats":{"field":"Data.price"}}}}}}`,
	`{"size":0,"aggs":{"c":{"range":{"field":"CreatedAt","ranges":[{"to":"2020-01-01"},{"from":"2020-01-01","to":"2023-06-01T12:00:00Z"},{"from":"2023-06-01T12:00:00Z"}]}}}}`,
	`{"size":0,"aggs":{"c":{"date_range":{"field":"UpdatedAt","format":"yyyy-MM","time_zone":"+02:00","ranges":[{"to":"2024-01-01"},{"from":"2024-01-01"}]}}}}`,
	`{"size":0,"aggs":{"c":{"date_range":{"field":"Data.startDate","keyed":true,"ranges":[{"from":"2020-01-01","to":"2024-01-01"},{"from":1500000000000}]}}}}`,
	`{"size":0,"aggs":{"c":{"range":{"field":"Nope","ranges":[{"to":1}]}},"k":{"range":{"field":"Name.keyword","ranges":[{"from":1}]}},"d":{"range":{"field":"CreatedAt.keyword","ranges":[{"from":0,"to":1e15}]}}}}`,
	`{"size":0,"aggs":{"t":{"terms":{"field":"Data.price.keyword"}},"s":{"terms":{"field":"Data.startDate","size":2}},"h":{"histogram":{"field":"Data.inStock","interval":1}}}}`,
	// histogram
	`{"size":0,"aggs":{"h":{"histogram":{"field":"Data.price","interval":100}}}}`,
	`{"size":0,"aggs":{"h":{"histogram":{"field":"Data.price","interval":500,"min_doc_count":1,"offset":5,"keyed":true}}}}`,
	`{"size":0,"aggs":{"h":{"histogram":{"field":"Data.rating","interval":0.25,"extended_bounds":{"min":3,"max":5.5}}}}}`,
	`{"size":0,"aggs":{"h":{"histogram":{"field":"Data.readingTime","interval":2,"order":{"_count":"desc"}},"aggs":{"a":{"avg":{"field":"Data.readingTime"}}}}}}`,
	`{"size":0,"aggs":{"h":{"histogram":{"field":"Data.readingTime","interval":3,"order":[{"a":"desc"}]},"aggs":{"a":{"sum":{"field":"Data.helpful"}}}}}}`,
	`{"size":0,"aggs":{"h":{"histogram":{"field":"CreatedAt","interval":31536000000,"min_doc_count":1}}}}`,
	`{"size":0,"query":{"match_none":{}},"aggs":{"h":{"histogram":{"field":"Data.price","interval":10,"extended_bounds":{"min":0,"max":30}}}}}`,
	// date_histogram
	`{"size":0,"aggs":{"d":{"date_histogram":{"field":"CreatedAt","calendar_interval":"1y","time_zone":"+01:00"}}}}`,
	`{"size":0,"aggs":{"d":{"date_histogram":{"field":"UpdatedAt","calendar_interval":"quarter","time_zone":"-05:30","min_doc_count":1,"keyed":true}}}}`,
	`{"size":0,"query":{"range":{"CreatedAt":{"gte":"2024-01-01"}}},"aggs":{"d":{"date_histogram":{"field":"CreatedAt","calendar_interval":"month","format":"yyyy-MM-dd","offset":"+6h"}}}}`,
	`{"size":0,"query":{"range":{"CreatedAt":{"gte":"2024-06-01"}}},"aggs":{"d":{"date_histogram":{"field":"CreatedAt","calendar_interval":"week","min_doc_count":1}},"e":{"date_histogram":{"field":"CreatedAt","calendar_interval":"day","min_doc_count":1,"format":"epoch_millis"}}}}`,
	`{"size":0,"query":{"range":{"CreatedAt":{"gte":"2025-01-01"}}},"aggs":{"d":{"date_histogram":{"field":"CreatedAt","calendar_interval":"hour","min_doc_count":1}},"m":{"date_histogram":{"field":"CreatedAt","calendar_interval":"minute","min_doc_count":1,"format":"HH:mm"}}}}`,
	`{"size":0,"aggs":{"d":{"date_histogram":{"field":"PublishedAt","fixed_interval":"90d","time_zone":"+05:45","min_doc_count":1}},"f":{"date_histogram":{"field":"PublishedAt","fixed_interval":"12h","offset":"-3h","min_doc_count":1,"order":{"_count":"desc"}}}}}`,
	`{"size":0,"aggs":{"d":{"date_histogram":{"field":"Data.startDate","calendar_interval":"year","extended_bounds":{"min":"2018-01-01","max":"2026-01-01"}},"aggs":{"n":{"value_count":{"field":"Data.venue.keyword"}}}}}}`,
	`{"size":0,"aggs":{"d":{"date_histogram":{"field":"CreatedAt","calendar_interval":"year","order":[{"_key":"desc"}],"format":"yyyy"}}}}`,
	`{"size":0,"aggs":{"d":{"date_histogram":{"field":"CreatedAt","calendar_interval":"minute"}}}}`,
	`{"size":0,"aggs":{"d":{"date_histogram":{"field":"Nope","calendar_interval":"day"}}}}`,
	// metrics
	`{"size":0,"aggs":{"min":{"min":{"field":"Data.rating"}},"max":{"max":{"field":"Data.rating"}},"avg":{"avg":{"field":"Data.rating"}},"sum":{"sum":{"field":"Data.rating"}},"st":{"stats":{"field":"Data.rating"}},"vc":{"value_count":{"field":"Data.rating"}},"ca":{"cardinality":{"field":"Data.rating"}}}}`,
	`{"size":0,"aggs":{"min":{"min":{"field":"UpdatedAt","format":"yyyy-MM-dd"}},"max":{"max":{"field":"PublishedAt","format":"yyyy"}},"avg":{"avg":{"field":"CreatedAt"}},"sum":{"sum":{"field":"CreatedAt"}},"st":{"stats":{"field":"PublishedAt"}}}}`,
	`{"size":0,"aggs":{"b":{"avg":{"field":"Data.inStock"}},"s":{"stats":{"field":"Data.soldOut"}},"c":{"cardinality":{"field":"Data.showInMenu"}},"v":{"value_count":{"field":"Data.tags"}},"k":{"value_count":{"field":"Data.tags.keyword"}},"n":{"cardinality":{"field":"Name"}}}}`,
	`{"size":0,"query":{"match_none":{}},"aggs":{"st":{"stats":{"field":"Data.price"}},"a":{"avg":{"field":"Data.price"}},"c":{"cardinality":{"field":"Data.price"}},"v":{"value_count":{"field":"Data.price"}},"m":{"min":{"field":"Nope"}}}}`,
	`{"size":0,"aggs":{"big":{"sum":{"field":"Data.barcode"}},"st":{"stats":{"field":"Data.barcode"}},"t":{"terms":{"field":"Data.barcode"}},"h":{"histogram":{"field":"Data.barcode","interval":1000000}}}}`,
	`{"size":0,"aggs":{"a":{"avg":{"field":"Name.keyword"}}}}`,
	`{"size":0,"aggs":{"s":{"stats":{"field":"Data.title"}}}}`,
	// single-bucket aggregations, meta, nesting, post_filter
	`{"size":0,"aggs":{"m":{"missing":{"field":"Data.price"},"aggs":{"t":{"terms":{"field":"TemplateName.keyword"}}}},"k":{"missing":{"field":"Data.price.keyword"}},"n":{"missing":{"field":"Nope"}}}}`,
	`{"size":0,"aggs":{"f":{"filter":{"term":{"TemplateName.keyword":"Product"}},"aggs":{"p":{"avg":{"field":"Data.price"}},"c":{"terms":{"field":"Data.colors.keyword"}}}}}}`,
	`{"size":0,"aggs":{"f":{"filter":{"bool":{"must_not":[{"exists":{"field":"Data.tags"}}]}},"meta":{"a":[1,{"b":"c"}]},"aggs":{"g":{"filter":{"exists":{"field":"Data.price"}},"aggs":{"n":{"value_count":{"field":"Name.keyword"}}}}}}}}`,
	`{"size":0,"aggs":{"t":{"terms":{"field":"TemplateName.keyword"},"meta":{"x":1},"aggs":{"r":{"range":{"field":"Data.price","ranges":[{"to":50}]},"meta":{}}}},"m":{"max":{"field":"Data.price"},"meta":{"unit":"€"}}}}`,
	`{"size":2,"query":{"exists":{"field":"Data.tags"}},"post_filter":{"term":{"TemplateName.keyword":"Article"}},"aggs":{"t":{"terms":{"field":"TemplateName.keyword"}}}}`,
	`{"size":0,"aggs":{"a":{"terms":{"field":"TemplateName.keyword","size":1},"aggs":{"b":{"terms":{"field":"CreatedBy.keyword","size":1},"aggs":{"c":{"terms":{"field":"UpdatedBy.keyword"},"aggs":{"d":{"stats":{"field":"Data.readingTime"}}}}}}}}}}`,
	// A histogram interval below the values' precision (1 on 1e19) answers one bucket
	// instead of stepping in place for ever.
	`{"size":0,"aggs":{"h":{"histogram":{"field":"Data.barcode","interval":1}}}}`,
}

// TestAggregationAnswers compares the answers to aggBodies with testdata/aggs.golden
// (go test -run TestAggregationAnswers -update rewrites it).
func TestAggregationAnswers(t *testing.T) {
	h := edgetest.NativeHandler(t)
	var got bytes.Buffer
	for i, body := range aggBodies {
		resp, err := h.Serve(&edge.Request{Method: "POST", Path: "/cda/es/v1/demo", Body: []byte(body)})
		if err != nil {
			t.Fatal(err)
		}
		got.WriteString("== " + strconv.Itoa(i) + " " + body + "\n")
		got.WriteString(strconv.Itoa(resp.Status) + " ")
		got.Write(resp.Body)
		got.WriteString("\n")
	}
	path := filepath.Join("testdata", "aggs.golden")
	if *updateGolden {
		if err := os.WriteFile(path, got.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	gotLines, wantLines := bytes.Split(got.Bytes(), []byte("\n")), bytes.Split(want, []byte("\n"))
	for i := 0; i < max(len(gotLines), len(wantLines)); i++ {
		var g, w []byte
		if i < len(gotLines) {
			g = gotLines[i]
		}
		if i < len(wantLines) {
			w = wantLines[i]
		}
		if !bytes.Equal(g, w) {
			t.Errorf("line %d of %s differs\n got: %s\nwant: %s", i+1, path, g, w)
		}
	}
}
