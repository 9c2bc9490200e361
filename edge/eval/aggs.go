package eval

import (
	"math"
	"strings"

	"github.com/cdaedge/cdaedge/edge"
	"github.com/cdaedge/cdaedge/edge/query"
	"github.com/cdaedge/cdaedge/snapshot"
)

// Aggregations (API.md D10, D12), computed over every matching item into
// query.AggResults. The buckets, their order and their counts follow Elasticsearch; how
// they print is the front-end's business (package dsl writes Elasticsearch's JSON).

// maxBuckets bounds the buckets of one request (Elasticsearch's search.max_buckets).
const maxBuckets = 65536

type aggContext struct {
	e       *Evaluator
	vals    []snapshot.Value
	buckets int

	// Buckets being counted come from arenas (bucketArena), which each terms and
	// histogram aggregation releases when it is done.
	termArena bucketArena[termBucket]
	histArena bucketArena[histBucket]
	// keys and byOrd are scratch for termBuckets, which no aggregation runs inside.
	keys  keyTable
	byOrd []*termBucket
	// valueSet is values' scratch: the values of the item it reads so far.
	valueSet itemSet
	// err is the budget's error when reading values beyond one per item ran it out
	// (charge), which the aggregation then answers.
	err error
}

// charge adds n values read beyond one per item to the request's work: agg charges
// an item once, and an item may hold an array of many values.
func (c *aggContext) charge(n int) {
	if n > 0 && c.err == nil {
		c.err = c.e.spend(n)
	}
}

// Aggregate computes aggs over the matched items (API.md D10): result i answers aggs[i].
// Its work is charged to the current request's budget; past it, or past maxBuckets
// buckets in all, it fails with a too_complex *edge.Error. A metric over a field that
// holds only text is an invalid_argument *edge.Error.
func (e *Evaluator) Aggregate(aggs []*query.Agg, matched DocSet) ([]query.AggResult, error) {
	// The items' list is kept for the next request's: nothing keeps it past this call.
	docs := matched.set.appendRange(e.aggDocs[:0], 0, matched.Count())
	e.aggDocs = docs
	c := &aggContext{e: e}
	return c.aggs(aggs, docs)
}

// aggs computes each of aggs over docs (nil when there are none, so that buckets
// without sub-aggregations allocate nothing).
func (c *aggContext) aggs(aggs []*query.Agg, docs []int) ([]query.AggResult, error) {
	if len(aggs) == 0 {
		return nil, nil
	}
	out := make([]query.AggResult, len(aggs))
	for i, a := range aggs {
		r, err := c.agg(a, docs)
		if err == nil {
			err = c.err
		}
		if err != nil {
			return nil, err
		}
		out[i] = r
	}
	return out, nil
}

// aggValue is one typed value of a field as aggregations see it.
type aggValue struct {
	kind snapshot.ValueKind
	num  float64 // numbers, dates (millis), booleans (0/1)
	ord  uint32  // strings
}

// aggKey is an aggValue as a map key. Its fields compare bit for bit, which a float64
// field does not (0 == -0): with a float in the key, TinyGo hashes through reflection,
// which is slower and costs the wasm module about 20 KB of reflection code.
type aggKey struct {
	kind snapshot.ValueKind
	ord  uint32
	bits uint64
}

// key is v's map key; -0 is keyed as 0, as a float64 map key would be.
func (v aggValue) key() aggKey {
	return aggKey{kind: v.kind, ord: v.ord, bits: floatKey(v.num)}
}

// floatKey is f's bits with -0 taken as 0, so that equal numbers have equal keys.
func floatKey(f float64) uint64 {
	if f == 0 {
		return 0
	}
	return math.Float64bits(f)
}

// fieldOf resolves an aggregation field: "<f>.keyword" takes f's string values; a bare
// name takes all its values (strings too: we do not refuse text fields as
// Elasticsearch does, see API.md D10). nil when no item has the field.
func (c *aggContext) fieldOf(name string) (*snapshot.Field, bool) {
	base, kw := strings.CutSuffix(name, ".keyword")
	return c.e.snap.Field(base), kw
}

// aggValueOf is v as aggregations see it.
func aggValueOf(v snapshot.Value) aggValue {
	av := aggValue{kind: v.Kind}
	switch v.Kind {
	case snapshot.KindString:
		av.ord = v.Ord
	case snapshot.KindNumber:
		av.num = v.Number
	case snapshot.KindDate:
		av.num = float64(v.Millis)
	case snapshot.KindBool:
		if v.Bool {
			av.num = 1
		}
	}
	return av
}

// values appends doc's values of f, without duplicates (the values dst held before
// are not compared); only strings when kw (the field was named with .keyword).
func (c *aggContext) values(dst []aggValue, f *snapshot.Field, kw bool, doc int) []aggValue {
	c.vals = f.Values(c.vals[:0], doc)
	c.charge(len(c.vals) - 1)
	c.valueSet.reset()
	for _, v := range c.vals {
		if kw && v.Kind != snapshot.KindString {
			continue
		}
		if av := aggValueOf(v); !c.valueSet.counted(av.key()) {
			dst = append(dst, av)
		}
	}
	return dst
}

// entryValues returns docs' values of f as entries of f's table of distinct values
// (snapshot.Field.AppendValueEntries): an aggregation then converts each distinct
// value once, and each item costs a read. Entry k is a value of item owners[k] of
// docs; owners is nil for a field of one value per item at most, whose entries are
// then one per item (snapshot.NoEntry: none): with owners, a facet over every item
// took 1.3x the time natively. Both lists are scratch the evaluator keeps, valid until
// the next call. (false: per-item reading, for the test that compares the two.)
func (c *aggContext) entryValues(f *snapshot.Field, docs []int) (entries []uint32, owners []int32, ok bool) {
	switch {
	case c.e.perItemValues:
		return nil, nil, false
	case f.SingleValued():
		c.e.aggEntries = f.AppendEntries(c.e.aggEntries[:0], docs)
		return c.e.aggEntries, nil, true
	}
	c.e.aggEntries, c.e.aggOwners = f.AppendValueEntries(c.e.aggEntries[:0], c.e.aggOwners[:0], docs)
	c.charge(len(c.e.aggEntries) - len(docs))
	return c.e.aggEntries, c.e.aggOwners, true
}

// entrySlots returns n zero slots, one per entry of a field's table of distinct
// values, for the caller to record what it found for each: scratch the evaluator keeps
// (a pointer per entry would be an allocation per request that the collector scans).
func (c *aggContext) entrySlots(n int) []int32 {
	s := c.e.aggSlots
	if cap(s) < n {
		s = make([]int32, n)
	} else {
		s = s[:n]
		clear(s)
	}
	c.e.aggSlots = s
	return s
}

// entryValue is entry t of f's table of distinct values as values gives it; false
// where values leaves it out (not a string, and kw). The go:inline pragma is TinyGo's
// hint (gc ignores it): called from a third loop, it was no longer inlined into the
// metrics' and cost a monthly histogram with an avg 1.1x the module's time.
//
//go:inline
func entryValue(f *snapshot.Field, kw bool, t uint32) (aggValue, bool) {
	v := f.Entry(t)
	return aggValueOf(v), !kw || v.Kind == snapshot.KindString
}

func (c *aggContext) agg(a *query.Agg, docs []int) (query.AggResult, error) {
	// Every aggregation node reads each of its items' values at least once: charge that
	// to the request's budget, so nested aggregations over many items end in
	// too_complex instead of running on.
	if err := c.e.spend(len(docs) + 1); err != nil {
		return query.AggResult{}, err
	}
	switch a.Kind {
	case query.AggTerms:
		return c.terms(a, docs)
	case query.AggRange, query.AggDateRange:
		return c.ranges(a, docs)
	case query.AggHistogram, query.AggDateHistogram:
		return c.histogram(a, docs)
	case query.AggMissing:
		f, kw := c.fieldOf(a.Field)
		var sub []int
		var vs []aggValue
		for _, doc := range docs {
			if f != nil {
				vs = c.values(vs[:0], f, kw, doc)
			}
			if len(vs) == 0 {
				sub = append(sub, doc)
			}
		}
		return c.singleBucket(a, sub)
	case query.AggFilter:
		res, err := c.e.Search(&query.Search{Query: a.Filter})
		if err != nil {
			return query.AggResult{}, err
		}
		var sub []int
		for _, doc := range docs {
			if res.Matched.Has(doc) {
				sub = append(sub, doc)
			}
		}
		return c.singleBucket(a, sub)
	}
	return c.metric(a, docs)
}

// singleBucket is the result of missing and filter: the count and the sub-aggregations.
func (c *aggContext) singleBucket(a *query.Agg, docs []int) (query.AggResult, error) {
	subs, err := c.aggs(a.Subs, docs)
	if err != nil {
		return query.AggResult{}, err
	}
	return query.AggResult{DocCount: len(docs), Subs: subs}, nil
}

func (c *aggContext) countBuckets(n int) error {
	c.buckets += n
	if c.buckets > maxBuckets {
		return tooManyBuckets()
	}
	return nil
}

// tooManyBuckets is the error of a request whose aggregations pass maxBuckets.
func tooManyBuckets() error {
	return edge.Errorf(edge.CodeTooComplex, "the aggregations would make more than %d buckets (limit: search.max_buckets)", maxBuckets)
}

// newTermBucket returns a zeroed bucket for v, from the arena of terms buckets.
func (c *aggContext) newTermBucket(v aggValue) *termBucket {
	b := c.termArena.take()
	b.v = v
	return b
}

// newHistBucket returns a zeroed histogram bucket, from the arena of histogram buckets.
func (c *aggContext) newHistBucket() *histBucket { return c.histArena.take() }

// ---- range ----

func (c *aggContext) ranges(a *query.Agg, docs []int) (query.AggResult, error) {
	f, kw := c.fieldOf(a.Field)
	res := query.AggResult{
		Dates:   f != nil && snapshot.IsDateMember(f.Name()),
		Buckets: make([]query.AggBucket, len(a.Ranges)),
	}
	var sub [][]int // each range's items, for the sub-aggregations
	if len(a.Subs) > 0 {
		sub = make([][]int, len(a.Ranges))
	}
	var entries []uint32
	byEntry := false
	if f != nil && f.SingleValued() {
		entries, _, byEntry = c.entryValues(f, docs)
	}
	if byEntry {
		// One value per item at most, read as its entry of the field's table (a
		// multi-valued field's items are read one by one below: an item counts once
		// in a range however many of its values fall in it).
		for i, t := range entries {
			if t == snapshot.NoEntry {
				continue
			}
			v, ok := entryValue(f, kw, t)
			if !ok || v.kind == snapshot.KindString {
				continue
			}
			for j, r := range a.Ranges {
				if v.num >= r.From && v.num < r.To {
					res.Buckets[j].DocCount++
					if sub != nil {
						sub[j] = append(sub[j], docs[i])
					}
				}
			}
		}
	} else if f != nil {
		var vs []aggValue
		for _, doc := range docs {
			vs = c.values(vs[:0], f, kw, doc)
			for i, r := range a.Ranges {
				for _, v := range vs {
					if v.kind == snapshot.KindString {
						continue
					}
					if v.num >= r.From && v.num < r.To {
						res.Buckets[i].DocCount++
						if sub != nil {
							sub[i] = append(sub[i], doc)
						}
						break
					}
				}
			}
		}
	}
	if err := c.countBuckets(len(a.Ranges)); err != nil {
		return query.AggResult{}, err
	}
	for i := range sub {
		subs, err := c.aggs(a.Subs, sub[i])
		if err != nil {
			return query.AggResult{}, err
		}
		res.Buckets[i].Subs = subs
	}
	return res, nil
}

// ---- metrics ----

type metricAcc struct {
	count    int
	sum      float64
	min, max float64
	strings  int
	isDate   bool
	distinct *keyTable // cardinality's distinct values (nil for other metrics)
}

func (c *aggContext) collect(a *query.Agg, docs []int) metricAcc {
	acc := metricAcc{min: math.Inf(1), max: math.Inf(-1)}
	f, kw := c.fieldOf(a.Field)
	if f == nil {
		return acc
	}
	if a.Kind == query.AggCardinality {
		acc.distinct = &keyTable{}
	}
	if entries, owners, ok := c.entryValues(f, docs); ok {
		// The values as entries of the field's table of distinct values, in the items'
		// order and each item's, and de-duplicated as values does: sums add up in the
		// same order as item by item.
		var vs itemSet // the values item last took
		last := int32(-1)
		for k, t := range entries {
			if t == snapshot.NoEntry {
				continue
			}
			v, ok := entryValue(f, kw, t)
			switch {
			case !ok:
				continue
			case a.Kind == query.AggValueCount:
				acc.count++ // value_count counts values, repeats included
				continue
			case owners != nil:
				if i := owners[k]; i != last {
					vs.reset()
					last = i
				}
				if vs.counted(v.key()) {
					continue
				}
			}
			acc.add(v)
		}
		return acc
	}
	var vs []aggValue
	for _, doc := range docs {
		vs = c.values(vs[:0], f, kw, doc)
		if a.Kind == query.AggValueCount {
			// value_count counts values, repeats included.
			c.vals = f.Values(c.vals[:0], doc)
			for _, v := range c.vals {
				if !kw || v.Kind == snapshot.KindString {
					acc.count++
				}
			}
			continue
		}
		for _, v := range vs {
			acc.add(v)
		}
	}
	return acc
}

// add takes v into the metric: a distinct value for cardinality; else a string is
// counted apart, and a number, date or boolean counted, summed and bounded.
func (acc *metricAcc) add(v aggValue) {
	if acc.distinct != nil {
		acc.distinct.add(v.key(), 1)
		return
	}
	if v.kind == snapshot.KindString {
		acc.strings++
		return
	}
	if v.kind == snapshot.KindDate {
		acc.isDate = true
	}
	acc.count++
	acc.sum += v.num
	acc.min = math.Min(acc.min, v.num)
	acc.max = math.Max(acc.max, v.num)
}

// metricValue is a single-value metric's value, for ordering buckets (NaN sorts as
// Elasticsearch sorts a missing value: as negative infinity here).
func (c *aggContext) metricValue(a *query.Agg, docs []int) float64 {
	acc := c.collect(a, docs)
	switch a.Kind {
	case query.AggMin:
		return acc.min
	case query.AggMax:
		return acc.max
	case query.AggSum:
		return acc.sum
	case query.AggAvg:
		if acc.count == 0 {
			return math.Inf(-1)
		}
		return acc.sum / float64(acc.count)
	case query.AggValueCount:
		return float64(acc.count)
	case query.AggCardinality:
		return float64(acc.distinct.n)
	}
	return 0
}

func (c *aggContext) metric(a *query.Agg, docs []int) (query.AggResult, error) {
	acc := c.collect(a, docs)
	switch a.Kind {
	case query.AggValueCount:
		return query.AggResult{Metric: query.AggMetric{Count: acc.count}}, nil
	case query.AggCardinality:
		return query.AggResult{Metric: query.AggMetric{Count: acc.distinct.n}}, nil
	}
	if acc.count == 0 && acc.strings > 0 {
		return query.AggResult{}, edge.Errorf(edge.CodeInvalidArgument, "[%s] aggregation %q needs a numeric, date or boolean field; [%s] holds text", a.Kind.String(), edge.Clip(a.Name), edge.Clip(a.Field))
	}
	return query.AggResult{Dates: acc.isDate, Metric: query.AggMetric{
		Count: acc.count,
		Min:   acc.min,
		Max:   acc.max,
		Avg:   acc.sum / float64(max(acc.count, 1)),
		Sum:   acc.sum,
	}}, nil
}
