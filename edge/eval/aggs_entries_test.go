package eval

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/cdaedge/cdaedge/edge/query"
	"github.com/cdaedge/cdaedge/snapshot/snapshottest"
)

// TestAggregationsByEntryAgreeWithPerItem compares aggregations that read fields by
// entry of their tables of distinct values (entryValues) with the same aggregations
// reading each item's values, on generated items: terms (with and without .keyword,
// minimum counts, orders by count, key and metric, sub-aggregations), ranges and date
// ranges (overlapping, with sub-aggregations), histograms, date histograms on calendar
// and fixed intervals in time zones and with offsets, and every metric; over fields of
// one kind, of mixed kinds, with -0 and 0, dates before 1970, fractions, and a
// multi-valued field whose items repeat values (also -0 beside 0).
// Results, errors included, must print the same.
func TestAggregationsByEntryAgreeWithPerItem(t *testing.T) {
	for seed := range uint64(4) {
		rng := rand.New(rand.NewPCG(seed, 13))
		items := make([]string, 150+rng.IntN(250))
		for i := range items {
			items[i] = entriesTestItem(rng, i)
		}
		snap := snapshottest.Open(t, "entries", false, items...)
		fast, slow := NewEvaluator(snap), NewEvaluator(snap)
		slow.perItemValues = true
		for _, q := range []query.Query{
			query.MatchAll{},
			query.Term{Field: "Data.s.keyword", Text: "b"},
			query.Exists{Field: "Data.n"},
		} {
			for _, a := range entriesTestAggs() {
				got, want := aggregateOnce(t, fast, q, a), aggregateOnce(t, slow, q, a)
				if got != want {
					t.Fatalf("seed %d, %v, %s on %s:\nby entry: %s\nper item: %s", seed, q, a.Kind, a.Field, got, want)
				}
			}
		}
	}
}

// aggregateOnce runs a over the items q matches and prints the result or the error.
func aggregateOnce(t *testing.T, e *Evaluator, q query.Query, a *query.Agg) string {
	t.Helper()
	e.BeginRequest()
	res, err := e.Search(&query.Search{Query: q})
	if err != nil {
		t.Fatal(err)
	}
	out, err := e.Aggregate([]*query.Agg{a}, res.Matched)
	return fmt.Sprintf("%+v %v", out, err)
}

// entriesTestItem is a generated item for TestAggregationsByEntryAgreeWithPerItem.
func entriesTestItem(rng *rand.Rand, i int) string {
	data := ""
	add := func(name, v string) {
		if rng.IntN(6) > 0 { // each member is missing from some items
			data += fmt.Sprintf(`,%q:%s`, name, v)
		}
	}
	add("s", fmt.Sprintf("%q", string(rune('a'+rng.IntN(5)))))
	nums := []string{"-0", "0", "1", "1.0", "2.5", "-3.75", "1e3", "7", "-1", "0.1"}
	add("n", nums[rng.IntN(len(nums))])
	add("d", fmt.Sprintf(`"%04d-%02d-%02dT%02d:%02d:00.000Z"`, 1965+rng.IntN(65), 1+rng.IntN(12), 1+rng.IntN(28), rng.IntN(24), rng.IntN(60)))
	add("b", []string{"true", "false"}[rng.IntN(2)])
	mixed := []string{`"x"`, `"y"`, "3", "-0", `"2021-05-01T10:00:00.000Z"`, "true", "0"}
	add("mix", mixed[rng.IntN(len(mixed))])
	multi := fmt.Sprintf(`[%d, "t%d", %d]`, rng.IntN(4), rng.IntN(3), rng.IntN(4))
	switch rng.IntN(10) {
	case 0, 1:
		multi = `[0, "t1", -0, "2021-05-01T10:00:00.000Z", "t1", 0]`
	case 2:
		// More distinct values than an item's set searches in order (scannedMembers),
		// each twice, -0 beside 0.
		multi = "[-0"
		for k := range 2 * (scannedMembers + 10) {
			multi += fmt.Sprintf(`, %d, "t%d"`, k%(scannedMembers+10), k%7)
		}
		multi += "]"
	}
	add("multi", multi)
	return fmt.Sprintf(`{"ContentID":"Content_%04d","Status":"Published","CreatedAt":"20%02d-%02d-%02dT%02d:00:00.000Z","Data":{"k":1%s}}`,
		i, 10+rng.IntN(15), 1+rng.IntN(12), 1+rng.IntN(28), rng.IntN(24), data)
}

// entriesTestAggs are the aggregations TestAggregationsByEntryAgreeWithPerItem runs.
func entriesTestAggs() []*query.Agg {
	var aggs []*query.Agg
	fields := []string{"Data.s", "Data.n", "Data.d", "Data.b", "Data.mix", "Data.multi", "CreatedAt"}
	avg := &query.Agg{Name: "avg", Kind: query.AggAvg, Field: "Data.n"}
	byCount := []query.BucketOrder{{By: query.ByCount, Desc: true}, {By: query.ByKey}}
	for _, field := range fields {
		for _, f := range []string{field, field + ".keyword"} {
			aggs = append(aggs,
				&query.Agg{Kind: query.AggTerms, Field: f, Size: 4, MinDocCount: 1, Order: byCount, Subs: []*query.Agg{avg}},
				&query.Agg{Kind: query.AggTerms, Field: f, Size: 100, MinDocCount: 0, Order: []query.BucketOrder{{By: query.ByCount}}},
				&query.Agg{Kind: query.AggTerms, Field: f, Size: 3, MinDocCount: 2, Order: []query.BucketOrder{{By: query.ByMetric, Metric: "avg", Desc: true}}, Subs: []*query.Agg{avg}},
			)
			for _, k := range []query.AggKind{query.AggMin, query.AggMax, query.AggAvg, query.AggSum, query.AggStats, query.AggValueCount, query.AggCardinality} {
				aggs = append(aggs, &query.Agg{Name: "m", Kind: k, Field: f})
			}
		}
		inf := math.Inf(1)
		aggs = append(aggs,
			&query.Agg{Kind: query.AggRange, Field: field, Ranges: []query.BucketRange{{From: -inf, To: 0}, {From: 0, To: 2.5}, {From: 1, To: inf}}, Subs: []*query.Agg{avg}},
			&query.Agg{Kind: query.AggDateRange, Field: field, Ranges: []query.BucketRange{{From: -inf, To: 1e12}, {From: 0, To: 1.5e12}, {From: 1.2e12, To: inf}}},
			&query.Agg{Kind: query.AggHistogram, Field: field, Interval: 2.5, Offset: 0.5, MinDocCount: 1, Order: []query.BucketOrder{{By: query.ByKey}}, Subs: []*query.Agg{avg}},
			&query.Agg{Kind: query.AggHistogram, Field: field, Interval: 86400000 * 97, MinDocCount: 1, Order: []query.BucketOrder{{By: query.ByCount, Desc: true}, {By: query.ByKey}}},
			&query.Agg{Kind: query.AggDateHistogram, Field: field, Interval: 3600000 * 30, Offset: 3600000, TimeZone: -7 * 3600000, MinDocCount: 1, Order: []query.BucketOrder{{By: query.ByKey}}},
		)
		for _, cal := range []query.CalendarUnit{query.CalendarMinute, query.CalendarHour, query.CalendarDay, query.CalendarWeek, query.CalendarMonth, query.CalendarQuarter, query.CalendarYear} {
			aggs = append(aggs,
				&query.Agg{Kind: query.AggDateHistogram, Field: field, Calendar: cal, MinDocCount: 1, Order: []query.BucketOrder{{By: query.ByKey}}, Subs: []*query.Agg{avg}},
				&query.Agg{Kind: query.AggDateHistogram, Field: field, Calendar: cal, TimeZone: 19800000, Offset: -3600000 * 5, MinDocCount: 1, Order: []query.BucketOrder{{By: query.ByCount, Desc: true}, {By: query.ByKey}}},
			)
		}
	}
	for i, a := range aggs {
		if a.Name == "" {
			a.Name = fmt.Sprint("a", i)
		}
	}
	return aggs
}

// An item may hold an array of many values: each aggregation reads it in time linear
// in its values (searching the values an item has counted so far took 5e9 comparisons
// for an array of 100,000 numbers), counts the item once per bucket, and charges each
// value to the work budget.
func TestAggregationsOverALongArray(t *testing.T) {
	const n = 20000
	long := `{"ContentID":"Content_1","Status":"Published","Data":{"arr":[`
	for k := range n {
		if k > 0 {
			long += ","
		}
		long += fmt.Sprint(k % (n / 2)) // each value twice
	}
	long += "]}}"
	e := NewEvaluator(snapshottest.Open(t, "long", false, long,
		`{"ContentID":"Content_2","Status":"Published","Data":{"arr":[1,2,2]}}`))
	for _, c := range []struct {
		agg  *query.Agg
		want string
	}{
		{&query.Agg{Name: "n", Kind: query.AggCardinality, Field: "Data.arr"}, "Count:10000"},
		{&query.Agg{Name: "n", Kind: query.AggValueCount, Field: "Data.arr"}, "Count:20003"},
		{&query.Agg{Name: "n", Kind: query.AggTerms, Field: "Data.arr", Size: 2, MinDocCount: 1,
			Order: []query.BucketOrder{{By: query.ByCount, Desc: true}, {By: query.ByKey}}}, "DocCount:2"},
		{&query.Agg{Name: "n", Kind: query.AggRange, Field: "Data.arr", Ranges: []query.BucketRange{{From: 0, To: 5000}}}, "DocCount:2"},
		{&query.Agg{Name: "n", Kind: query.AggHistogram, Field: "Data.arr", Interval: 1000, MinDocCount: 1,
			Order: []query.BucketOrder{{By: query.ByKey}}}, "DocCount:2"},
	} {
		got := aggregateOnce(t, e, query.MatchAll{}, c.agg)
		if !strings.Contains(got, c.want) {
			t.Errorf("%s: %s, want %s", c.agg.Kind, got, c.want)
		}
	}
	// A value is a step of the work budget, as a posting is: the array's 20,000
	// values run out a budget that its two items do not.
	e.maxSteps = 15000
	for _, perItem := range []bool{false, true} {
		e.perItemValues = perItem
		got := aggregateOnce(t, e, query.MatchAll{}, &query.Agg{Name: "n", Kind: query.AggCardinality, Field: "Data.arr"})
		if !strings.Contains(got, "needs more work than one request may do") {
			t.Errorf("per item %v: a cardinality over 20,000 values within 15,000 steps: %s", perItem, got)
		}
	}
}

// Each terms and histogram aggregation hands its buckets back to the arena once its
// answer is built, and the aggregations after it count in the same memory: the
// sub-aggregations under each bucket of a parent (terms and histograms, with their own
// sub-aggregations) answer what each answers alone over that bucket's items.
func TestSubAggregationsReuseBuckets(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 21))
	items := make([]string, 400)
	for i := range items {
		items[i] = entriesTestItem(rng, i)
	}
	e := NewEvaluator(snapshottest.Open(t, "reuse", false, items...))
	byCount := []query.BucketOrder{{By: query.ByCount, Desc: true}, {By: query.ByKey}}
	avg := &query.Agg{Name: "avg", Kind: query.AggAvg, Field: "Data.n"}
	inner := []*query.Agg{
		{Name: "multi", Kind: query.AggTerms, Field: "Data.multi", Size: 5, MinDocCount: 1, Order: byCount,
			Subs: []*query.Agg{{Name: "n", Kind: query.AggTerms, Field: "Data.n", Size: 3, MinDocCount: 1, Order: byCount, Subs: []*query.Agg{avg}}}},
		{Name: "hist", Kind: query.AggHistogram, Field: "Data.multi", Interval: 1, MinDocCount: 1, Order: []query.BucketOrder{{By: query.ByKey}},
			Subs: []*query.Agg{{Name: "s", Kind: query.AggTerms, Field: "Data.s.keyword", Size: 10, MinDocCount: 0, Order: byCount}}},
		{Name: "years", Kind: query.AggDateHistogram, Field: "CreatedAt", Calendar: query.CalendarYear, MinDocCount: 1, Order: []query.BucketOrder{{By: query.ByKey}}},
	}
	outer := &query.Agg{Name: "s", Kind: query.AggTerms, Field: "Data.s.keyword", Size: 10, MinDocCount: 1, Order: byCount, Subs: inner}
	e.BeginRequest()
	all, err := e.Search(&query.Search{Query: query.MatchAll{}})
	if err != nil {
		t.Fatal(err)
	}
	got, err := e.Aggregate([]*query.Agg{outer}, all.Matched)
	if err != nil {
		t.Fatal(err)
	}
	if len(got[0].Buckets) < 3 {
		t.Fatalf("%d outer buckets, want several", len(got[0].Buckets))
	}
	for _, b := range got[0].Buckets {
		e.BeginRequest()
		res, err := e.Search(&query.Search{Query: query.Term{Field: "Data.s.keyword", Text: b.Key.Str}})
		if err != nil {
			t.Fatal(err)
		}
		alone, err := e.Aggregate(inner, res.Matched)
		if g, w := fmt.Sprintf("%+v", b.Subs), fmt.Sprintf("%+v %v", alone, err); g+" <nil>" != w {
			t.Errorf("under %q:\nnested: %s\nalone:  %s", b.Key.Str, g, w)
		}
	}
}
