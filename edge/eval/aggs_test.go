package eval

import (
	"errors"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/cdaedge/cdaedge/edge"
	"github.com/cdaedge/cdaedge/edge/query"
	"github.com/cdaedge/cdaedge/snapshot"
	"github.com/cdaedge/cdaedge/snapshot/snapshottest"
)

// TestAggregate checks that Aggregate answers typed results, in the model's terms:
// typed bucket keys, ordered and cut buckets, sub-results, metric values (the JSON
// they become is package dsl's, checked by edge/router's golden test).
func TestAggregate(t *testing.T) {
	e := evalEngine(t)
	res, err := e.Search(&query.Search{Query: query.MatchAll{}})
	if err != nil {
		t.Fatal(err)
	}
	avg := &query.Agg{Name: "avg", Kind: query.AggAvg, Field: "Data.price"}
	aggs := []*query.Agg{
		{Name: "tags", Kind: query.AggTerms, Field: "Data.tags.keyword", Size: 1, MinDocCount: 1,
			Order: []query.BucketOrder{{By: query.ByCount, Desc: true}, {By: query.ByKey}},
			Subs:  []*query.Agg{avg}},
		{Name: "price", Kind: query.AggTerms, Field: "Data.price", Size: 10, MinDocCount: 1,
			Order:   []query.BucketOrder{{By: query.ByKey, Desc: true}},
			Exclude: []query.Scalar{{Kind: query.ScalarNumber, Number: 99.5}}},
		{Name: "years", Kind: query.AggDateHistogram, Field: "CreatedAt", Calendar: query.CalendarYear, MinDocCount: 1,
			Order: []query.BucketOrder{{By: query.ByKey}}},
		{Name: "max", Kind: query.AggMax, Field: "CreatedAt"},
		{Name: "none", Kind: query.AggMissing, Field: "Data.price"},
	}
	got, err := e.Aggregate(aggs, res.Matched)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(aggs) {
		t.Fatalf("%d results for %d aggregations", len(got), len(aggs))
	}
	tags := got[0]
	if tags.OtherDocCount != 2 || len(tags.Buckets) != 1 {
		t.Fatalf("tags: %+v", tags)
	}
	if b := tags.Buckets[0]; b.Key != (query.Scalar{Kind: query.ScalarString, Str: "blue"}) || b.DocCount != 2 ||
		len(b.Subs) != 1 || b.Subs[0].Metric.Avg != 10 || b.Subs[0].Metric.Count != 2 {
		t.Errorf("tags bucket: %+v", b)
	}
	if p := got[1].Buckets; len(p) != 1 || p[0].Key.Kind != query.ScalarNumber || p[0].Key.Number != 10 || p[0].DocCount != 2 {
		t.Errorf("price (10 and 10.0 are one key; 99.5 excluded): %+v", p)
	}
	if y := got[2].Buckets; len(y) != 4 || y[3].Key != (query.Scalar{Kind: query.ScalarDate, Millis: 1672531200000}) {
		t.Errorf("years: %+v", y)
	}
	if m := got[3]; !m.Dates || m.Metric.Count != 4 || m.Metric.Max != 1685620800000 || m.Metric.Min != 1577836800000 {
		t.Errorf("max: %+v", m)
	}
	if n := got[4]; n.DocCount != 1 || n.Subs != nil {
		t.Errorf("missing: %+v", n)
	}

	// A metric over text is invalid_argument; too many buckets is too_complex.
	_, err = e.Aggregate([]*query.Agg{{Name: "a", Kind: query.AggAvg, Field: "Name.keyword"}}, res.Matched)
	var ee *edge.Error
	if !errors.As(err, &ee) || ee.Code != edge.CodeInvalidArgument {
		t.Errorf("avg over text: %v", err)
	}
	_, err = e.Aggregate([]*query.Agg{{Name: "h", Kind: query.AggDateHistogram, Field: "CreatedAt", Calendar: query.CalendarMinute}}, res.Matched)
	if !errors.As(err, &ee) || ee.Code != edge.CodeTooComplex {
		t.Errorf("minute buckets over three years: %v", err)
	}
}

// TestHistogramStepBelowPrecision checks that filling the gaps between histogram buckets
// ends when the interval is below the values' precision (1 on 1e19): one bucket is
// answered as it is, and reaching a second would take endless empty buckets.
func TestHistogramStepBelowPrecision(t *testing.T) {
	e := NewEvaluator(snapshottest.Open(t, "hist", false,
		`{"ContentID":"Content_0","Status":"Published","Data":{"n":1e19}}`,
		`{"ContentID":"Content_1","Status":"Published","Data":{"n":1.0000000000000002e19}}`))
	all, err := e.Search(&query.Search{Query: query.MatchAll{}})
	if err != nil {
		t.Fatal(err)
	}
	h := &query.Agg{Name: "h", Kind: query.AggHistogram, Field: "Data.n", Interval: 1}
	_, err = e.Aggregate([]*query.Agg{h}, all.Matched)
	var ee *edge.Error
	if !errors.As(err, &ee) || ee.Code != edge.CodeTooComplex {
		t.Errorf("two buckets a step below precision apart: %v", err)
	}
	one, err := e.Search(&query.Search{Query: query.IDs{Values: []string{"Content_0"}}})
	if err != nil {
		t.Fatal(err)
	}
	got, err := e.Aggregate([]*query.Agg{h}, one.Matched)
	if err != nil || len(got[0].Buckets) != 1 || got[0].Buckets[0].Key.Number != 1e19 {
		t.Errorf("one bucket: %+v, %v", got, err)
	}
}

// orderTop puts first the buckets a stable sort would, in its order, whatever the
// ties (few distinct counts and keys), with k below and above the buckets' number, and
// keeps every bucket; orderTerms takes it for many buckets and a small size.
func TestOrderTopAgreesWithStableSort(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	compares := []func(x, y *termBucket) int{
		func(x, y *termBucket) int { return y.count - x.count }, // ties are common
		func(x, y *termBucket) int {
			if r := y.count - x.count; r != 0 {
				return r
			}
			return compareAggValues(x.v, y.v)
		},
	}
	for round := range 400 {
		n, k := rng.IntN(700), rng.IntN(50)
		buckets := make([]*termBucket, n)
		for i := range buckets {
			buckets[i] = &termBucket{v: aggValue{kind: snapshot.KindNumber, num: float64(rng.IntN(20))}, tally: tally{count: rng.IntN(6)}}
		}
		compare := compares[round%len(compares)]
		want := slices.Clone(buckets)
		stableSort(n, func(i, j int) { want[i], want[j] = want[j], want[i] }, func(i, j int) int { return compare(want[i], want[j]) })
		got := slices.Clone(buckets)
		orderTop(got, k, compare)
		for i := range min(k, n) {
			if got[i] != want[i] {
				t.Fatalf("round %d (n %d, k %d): place %d differs", round, n, k, i)
			}
		}
		if !sameBuckets(got, buckets) {
			t.Fatalf("round %d (n %d, k %d): buckets lost or doubled", round, n, k)
		}
	}
	// orderTerms takes orderTop past 4 × size + 256 buckets, and agrees with itself
	// sorting them all.
	buckets := make([]*termBucket, 2000)
	for i := range buckets {
		buckets[i] = &termBucket{v: aggValue{kind: snapshot.KindNumber, num: float64(i % 97)}, tally: tally{count: i % 5}}
	}
	a := &query.Agg{Order: []query.BucketOrder{{By: query.ByCount, Desc: true}}}
	all, top := slices.Clone(buckets), slices.Clone(buckets)
	(&aggContext{}).orderTerms(a, all, -1)
	(&aggContext{}).orderTerms(a, top, 10)
	if !slices.Equal(all[:10], top[:10]) || !sameBuckets(top, buckets) {
		t.Error("orderTerms with a size of 10 differs from a sort of all its buckets")
	}
}

// sameBuckets reports whether x and y hold the same buckets, in any order.
func sameBuckets(x, y []*termBucket) bool {
	seen := map[*termBucket]int{}
	for _, b := range x {
		seen[b]++
	}
	for _, b := range y {
		seen[b]--
	}
	for _, n := range seen {
		if n != 0 {
			return false
		}
	}
	return len(x) == len(y)
}
