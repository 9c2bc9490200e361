package router_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/cdaedge/cdaedge/edge"
)

// TestAggregationsAgreeWithCounts checks the aggregations against the search itself, on
// a generated environment: every bucket of a terms, histogram, date_histogram or range
// aggregation under a query must count exactly the items that the query, filtered to
// the bucket (a term, or a range of values), matches. The two run through different
// code (an aggregation walks the matched set's values; a filter is a query of its own).
func TestAggregationsAgreeWithCounts(t *testing.T) {
	env, serve := generatedRouter(t, 3, 1500)
	post := func(body any) map[string]any {
		t.Helper()
		b, _ := json.Marshal(body)
		out := serve(&edge.Request{Method: "POST", Path: "/cda/es/v1/" + env.Snap.Environment(), Body: b})
		var resp map[string]any
		if err := json.Unmarshal(out, &resp); err != nil {
			t.Fatalf("%s: %v: %.300s", b, err, out)
		}
		return resp
	}
	count := func(query any, filter any) int {
		resp := post(map[string]any{"size": 0, "query": map[string]any{"bool": map[string]any{"must": []any{query}, "filter": []any{filter}}}})
		return int(resp["totalItems"].(float64))
	}
	queries := []any{
		map[string]any{"match_all": map[string]any{}},
		map[string]any{"match": map[string]any{"Data.body": "coffee garden"}},
		map[string]any{"query_string": map[string]any{"query": "mountain OR festival"}},
		map[string]any{"range": map[string]any{"CreatedAt": map[string]any{"gte": "2021-01-01"}}},
	}
	aggs := map[string]any{
		"template": map[string]any{"terms": map[string]any{"field": "TemplateName.keyword", "size": 100}},
		"author":   map[string]any{"terms": map[string]any{"field": "CreatedBy.keyword", "size": 100}},
		"tags":     map[string]any{"terms": map[string]any{"field": "Data.tags.keyword", "size": 100}},
		"price":    map[string]any{"histogram": map[string]any{"field": "Data.price", "interval": 50, "min_doc_count": 1}},
		"year":     map[string]any{"date_histogram": map[string]any{"field": "CreatedAt", "calendar_interval": "year", "min_doc_count": 1}},
		"rating":   map[string]any{"range": map[string]any{"field": "Data.rating", "ranges": []any{map[string]any{"to": 3}, map[string]any{"from": 3, "to": 4.5}, map[string]any{"from": 4.5}}}},
		"minutes":  map[string]any{"terms": map[string]any{"field": "Data.readingTime", "size": 100}},
		"zoned":    map[string]any{"date_histogram": map[string]any{"field": "UpdatedAt", "calendar_interval": "month", "time_zone": "+05:30", "min_doc_count": 1}},
	}
	fields := map[string]string{"template": "TemplateName.keyword", "author": "CreatedBy.keyword", "tags": "Data.tags.keyword",
		"price": "Data.price", "year": "CreatedAt", "rating": "Data.rating", "minutes": "Data.readingTime", "zoned": "UpdatedAt"}
	checked := 0
	for qi, q := range queries {
		resp := post(map[string]any{"size": 0, "query": q, "aggs": aggs})
		results := resp["aggregations"].(map[string]any)
		for name, field := range fields {
			for _, raw := range results[name].(map[string]any)["buckets"].([]any) {
				b := raw.(map[string]any)
				var filter any
				switch name {
				case "template", "author", "tags", "minutes":
					filter = map[string]any{"term": map[string]any{field: b["key"]}}
				case "price":
					k := b["key"].(float64)
					filter = map[string]any{"range": map[string]any{field: map[string]any{"gte": k, "lt": k + 50}}}
				case "year":
					k := int64(b["key"].(float64))
					filter = map[string]any{"range": map[string]any{field: map[string]any{"gte": k, "lt": k + yearMillis(k), "format": "epoch_millis"}}}
				case "zoned":
					k := int64(b["key"].(float64))
					filter = map[string]any{"range": map[string]any{field: map[string]any{"gte": k, "lt": nextMonth(k, 5*60+30), "format": "epoch_millis"}}}
				case "rating":
					r := map[string]any{}
					if from, ok := b["from"]; ok {
						r["gte"] = from
					}
					if to, ok := b["to"]; ok {
						r["lt"] = to
					}
					filter = map[string]any{"range": map[string]any{field: r}}
				}
				want := int(b["doc_count"].(float64))
				if got := count(q, filter); got != want {
					t.Errorf("query %d, %s bucket %v: doc_count %d, but the query filtered to it matches %d", qi, name, b["key"], want, got)
				}
				checked++
			}
		}
	}
	if checked < 100 {
		t.Fatalf("only %d buckets checked", checked)
	}
	t.Logf("%d buckets checked", checked)
}

// nextMonth is the start of the month after the one starting at ms, in the fixed zone
// offset minutes east of UTC.
func nextMonth(ms int64, offset int) int64 {
	zone := time.FixedZone("", offset*60)
	return time.UnixMilli(ms).In(zone).AddDate(0, 1, 0).UnixMilli()
}

// yearMillis is the length in milliseconds of the UTC year starting at ms.
func yearMillis(ms int64) int64 {
	start := time.UnixMilli(ms).UTC()
	return start.AddDate(1, 0, 0).UnixMilli() - ms
}
