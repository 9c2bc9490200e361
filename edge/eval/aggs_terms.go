package eval

import (
	"slices"

	"github.com/cdaedge/cdaedge/edge/query"
	"github.com/cdaedge/cdaedge/snapshot"
)

// The terms aggregation: its buckets, found by value, counted by item and ordered.

type termBucket struct {
	v aggValue
	tally
	order float64 // value of a metric sub-aggregation used in the order
}

// tally is what a bucket counts: its items, and their list for sub-aggregations.
type tally struct {
	count int
	docs  []int
	// item is 1 + the item countItems last counted in the bucket, so that an item of
	// many values, several in one bucket, counts once at no search.
	item int32
}

// terms answers a terms aggregation, its sub-aggregations under each of its buckets
// included, and then hands its buckets back to the arena.
func (c *aggContext) terms(a *query.Agg, docs []int) (query.AggResult, error) {
	m := c.termArena.mark()
	res, err := c.countTerms(a, docs)
	c.termArena.release(m)
	return res, err
}

// countTerms is terms before the release of its buckets.
func (c *aggContext) countTerms(a *query.Agg, docs []int) (query.AggResult, error) {
	f, kw := c.fieldOf(a.Field)
	var buckets []*termBucket
	if f != nil {
		buckets = c.termBuckets(a, f, kw, docs)
		buckets = slices.DeleteFunc(buckets, func(b *termBucket) bool {
			return b.count < a.MinDocCount || !termKept(a, f, b.v)
		})
		c.orderTerms(a, buckets, a.Size)
	}
	var res query.AggResult
	if len(buckets) > a.Size {
		for _, b := range buckets[a.Size:] {
			res.OtherDocCount += b.count
		}
		buckets = buckets[:a.Size]
	}
	if err := c.countBuckets(len(buckets)); err != nil {
		return query.AggResult{}, err
	}
	if len(buckets) > 0 {
		res.Buckets = make([]query.AggBucket, len(buckets))
	}
	for i, b := range buckets {
		subs, err := c.aggs(a.Subs, b.docs)
		if err != nil {
			return query.AggResult{}, err
		}
		res.Buckets[i] = query.AggBucket{Key: termKey(f, b.v), DocCount: b.count, Subs: subs}
	}
	return res, nil
}

// termBuckets counts the items of each value of f, in order of first appearance, and
// with MinDocCount 0 adds the field's other strings with no item.
func (c *aggContext) termBuckets(a *query.Agg, f *snapshot.Field, kw bool, docs []int) []*termBucket {
	dict := f.Keyword()
	// Strings, the common case, are counted by ordinal without hashing. The index's
	// tables are the context's, reused: under a parent aggregation, this runs once per
	// parent bucket.
	c.byOrd = zeroed(c.byOrd, dict.Len())
	c.keys.reset()
	ti := termIndex{c: c, byOrd: c.byOrd, index: c.keys}
	subs := len(a.Subs) > 0
	if entries, owners, ok := c.entryValues(f, docs); ok {
		c.countEntries(&ti, f, kw, subs, docs, entries, owners)
	} else {
		var vs []aggValue
		for _, doc := range docs {
			vs = c.values(vs[:0], f, kw, doc)
			for _, v := range vs {
				b := ti.bucket(v)
				b.count++
				if subs {
					b.docs = append(b.docs, doc)
				}
			}
		}
	}
	if a.MinDocCount == 0 {
		// Elasticsearch lists the terms of the whole index with min_doc_count 0.
		for ord := range ti.byOrd {
			if ti.byOrd[ord] == nil {
				b := c.newTermBucket(aggValue{kind: snapshot.KindString, ord: uint32(ord)})
				ti.byOrd[ord] = b
				ti.buckets = append(ti.buckets, b)
			}
		}
	}
	c.keys = ti.index // as grown, for the next call
	return ti.buckets
}

// termIndex finds a terms aggregation's bucket for a value: a string by its keyword
// ordinal, any other value by its key; buckets lists them in order of creation.
type termIndex struct {
	c       *aggContext
	index   keyTable // 1 + the place in buckets of a value that is not a string
	byOrd   []*termBucket
	buckets []*termBucket
}

// bucket returns v's bucket, which it creates on v's first sight.
func (ti *termIndex) bucket(v aggValue) *termBucket {
	if v.kind == snapshot.KindString && int(v.ord) < len(ti.byOrd) {
		if b := ti.byOrd[v.ord]; b != nil {
			return b
		}
		b := ti.c.newTermBucket(v)
		ti.byOrd[v.ord] = b
		ti.buckets = append(ti.buckets, b)
		return b
	}
	// Only other values go in the table: a terms aggregation over a field of 90k
	// distinct strings spent most of its time in the TinyGo module adding each to a
	// map as well.
	key := v.key()
	if at := ti.index.get(key); at > 0 {
		return ti.buckets[at-1]
	}
	b := ti.c.newTermBucket(v)
	ti.buckets = append(ti.buckets, b)
	ti.index.add(key, int32(len(ti.buckets)))
	return b
}

// countEntries counts a terms aggregation's items given their values as entries of
// f's table of distinct values (entryValues): an item's buckets are its values'
// entries', found once per distinct value (a facet over every item took 0.3x the
// time), and an item counts once in a bucket, as values has it.
func (c *aggContext) countEntries(ti *termIndex, f *snapshot.Field, kw, subs bool, docs []int, entries []uint32, owners []int32) {
	// slots[t] is 1 + the place in seen of entry t's bucket; -1 for an entry that
	// values leaves out; 0 before its first item.
	slots, seen := c.entrySlots(f.Entries()), c.e.aggSeen[:0]
	if owners == nil {
		// An entry per item, the common facet: buckets made and counted in one pass
		// (two took the TinyGo module 1.14x the time).
		for i, t := range entries {
			if t >= uint32(len(slots)) {
				continue // snapshot.NoEntry
			}
			if slots[t] == 0 {
				seen, slots[t] = ti.entryBucket(seen, f, kw, t)
			}
			if slots[t] > 0 {
				b := seen[slots[t]-1]
				b.count++
				if subs {
					b.docs = append(b.docs, docs[i])
				}
			}
		}
	} else {
		for _, t := range entries { // the buckets in order of first appearance
			if slots[t] == 0 {
				seen, slots[t] = ti.entryBucket(seen, f, kw, t)
			}
		}
		countItems(seen, slots, entries, owners, docs, subs)
	}
	clear(seen) // no bucket kept alive by the scratch
	c.e.aggSeen = seen[:0]
}

// countItems counts docs' items in the buckets of their values' entries (entryValues):
// entry t's is seen[slots[t]-1] (none when slots[t] <= 0). An item counts once in a
// bucket, as values has it. Without owners, an entry per item, in a loop of its own.
func countItems(seen []*tally, slots []int32, entries []uint32, owners []int32, docs []int, subs bool) {
	if owners == nil {
		for i, t := range entries {
			if t < uint32(len(slots)) && slots[t] > 0 {
				b := seen[slots[t]-1]
				b.count++
				if subs {
					b.docs = append(b.docs, docs[i])
				}
			}
		}
		return
	}
	for k, t := range entries {
		if slots[t] <= 0 {
			continue
		}
		b, i := seen[slots[t]-1], owners[k]
		if b.item == i+1 {
			continue // counted for this item already
		}
		b.item = i + 1
		b.count++
		if subs {
			b.docs = append(b.docs, docs[i])
		}
	}
}

// entryBucket appends to seen the bucket of entry t of f's table and returns its slot
// (1 + its place in seen); -1, seen unchanged, for an entry that values leaves out.
func (ti *termIndex) entryBucket(seen []*tally, f *snapshot.Field, kw bool, t uint32) ([]*tally, int32) {
	v, ok := entryValue(f, kw, t)
	if !ok {
		return seen, -1
	}
	seen = append(seen, &ti.bucket(v).tally)
	return seen, int32(len(seen))
}

// termKept applies a terms aggregation's Include and Exclude to a bucket's value.
func termKept(a *query.Agg, f *snapshot.Field, v aggValue) bool {
	if len(a.Include) == 0 && len(a.Exclude) == 0 {
		return true
	}
	return (len(a.Include) == 0 || keyIn(a.Include, f, v)) && !keyIn(a.Exclude, f, v)
}

// keyIn reports whether v equals one of list; a value equals only scalars of its kind.
func keyIn(list []query.Scalar, f *snapshot.Field, v aggValue) bool {
	var term string
	if v.kind == snapshot.KindString {
		term = f.Keyword().Term(int(v.ord))
	}
	for _, s := range list {
		switch {
		case v.kind == snapshot.KindString && s.Kind == query.ScalarString:
			if s.Str == term {
				return true
			}
		case v.kind == snapshot.KindNumber && s.Kind == query.ScalarNumber:
			if s.Number == v.num {
				return true
			}
		case v.kind == snapshot.KindDate && s.Kind == query.ScalarDate:
			if float64(s.Millis) == v.num {
				return true
			}
		case v.kind == snapshot.KindBool && s.Kind == query.ScalarBool:
			if s.Bool == (v.num != 0) {
				return true
			}
		}
	}
	return false
}

// orderTerms orders a terms aggregation's buckets by a.Order, ties in the order the
// buckets came (first appearance), as a stable sort would; but only its first size
// buckets need be in order (the rest are only counted): with many more buckets than
// that, the size best are picked with a heap and only they are sorted. (Sorting 90k
// buckets for a top ten took a terms aggregation over dates most of its time in the
// TinyGo module.)
func (c *aggContext) orderTerms(a *query.Agg, buckets []*termBucket, size int) {
	for _, o := range a.Order {
		if o.By != query.ByMetric {
			continue
		}
		for _, s := range a.Subs {
			if s.Name == o.Metric {
				for _, b := range buckets {
					b.order = c.metricValue(s, b.docs)
				}
			}
		}
	}
	compare := func(x, y *termBucket) int {
		for _, o := range a.Order {
			var r int
			switch o.By {
			case query.ByCount:
				r = x.count - y.count
			case query.ByKey:
				r = compareAggValues(x.v, y.v)
			default:
				r = compareFloat(x.order, y.order)
			}
			if r != 0 {
				if o.Desc {
					return -r
				}
				return r
			}
		}
		return 0
	}
	if size < 0 || len(buckets) <= 4*size+256 {
		stableSort(len(buckets), func(i, j int) { buckets[i], buckets[j] = buckets[j], buckets[i] }, func(i, j int) int {
			return compare(buckets[i], buckets[j])
		})
		return
	}
	orderTop(buckets, size, compare)
}

// orderTop puts in the first k places of buckets, in order, the k buckets that come
// first by compare with ties in the buckets' present order, leaving the others after
// them in no set order: a heap of the k best so far, the worst on top.
func orderTop(buckets []*termBucket, k int, compare func(x, y *termBucket) int) {
	type ranked struct {
		b *termBucket
		i int // the bucket's present place: the last key, so that no two tie
	}
	worse := func(x, y ranked) bool { // x comes after y
		if r := compare(x.b, y.b); r != 0 {
			return r > 0
		}
		return x.i > y.i
	}
	heap := make([]ranked, 0, k)
	down := func(i int) {
		for {
			l, r, w := 2*i+1, 2*i+2, i
			if l < len(heap) && worse(heap[l], heap[w]) {
				w = l
			}
			if r < len(heap) && worse(heap[r], heap[w]) {
				w = r
			}
			if w == i {
				return
			}
			heap[i], heap[w] = heap[w], heap[i]
			i = w
		}
	}
	for i, b := range buckets {
		x := ranked{b, i}
		switch {
		case len(heap) < k:
			heap = append(heap, x)
			for j := len(heap) - 1; j > 0 && worse(heap[j], heap[(j-1)/2]); j = (j - 1) / 2 {
				heap[j], heap[(j-1)/2] = heap[(j-1)/2], heap[j]
			}
		case k > 0 && worse(heap[0], x):
			heap[0] = x
			down(0)
		}
	}
	// The evaluator's one sort rather than a sort instantiated for this type, which
	// would add to the module; no two of them tie (their places differ).
	stableSort(len(heap), func(i, j int) { heap[i], heap[j] = heap[j], heap[i] }, func(i, j int) int {
		if r := compare(heap[i].b, heap[j].b); r != 0 {
			return r
		}
		return heap[i].i - heap[j].i
	})
	// The chosen first, then the others in their present order.
	chosen := make([]bool, len(buckets))
	for _, x := range heap {
		chosen[x.i] = true
	}
	rest := make([]*termBucket, 0, len(buckets)-len(heap))
	for i, b := range buckets {
		if !chosen[i] {
			rest = append(rest, b)
		}
	}
	for i, x := range heap {
		buckets[i] = x.b
	}
	copy(buckets[len(heap):], rest)
}

// termKey is a terms bucket's key: the string, number, date or boolean.
func termKey(f *snapshot.Field, v aggValue) query.Scalar {
	switch v.kind {
	case snapshot.KindString:
		return query.Scalar{Kind: query.ScalarString, Str: f.Keyword().Term(int(v.ord))}
	case snapshot.KindNumber:
		return query.Scalar{Kind: query.ScalarNumber, Number: v.num}
	case snapshot.KindDate:
		return query.Scalar{Kind: query.ScalarDate, Millis: int64(v.num)}
	}
	return query.Scalar{Kind: query.ScalarBool, Bool: v.num != 0}
}

// compareAggValues orders keys as D12 orders values: numbers (and dates) < strings <
// booleans, then by value (strings by byte order, which ordinals follow).
func compareAggValues(x, y aggValue) int {
	rank := func(k snapshot.ValueKind) int {
		switch k {
		case snapshot.KindNumber, snapshot.KindDate:
			return 0
		case snapshot.KindString:
			return 1
		}
		return 2
	}
	if r := rank(x.kind) - rank(y.kind); r != 0 {
		return r
	}
	if x.kind == snapshot.KindString {
		return compareFloat(float64(x.ord), float64(y.ord))
	}
	return compareFloat(x.num, y.num)
}

func compareFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
