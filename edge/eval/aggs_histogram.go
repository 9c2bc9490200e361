package eval

import (
	"cmp"
	"math"

	"github.com/cdaedge/cdaedge/edge/datetime"
	"github.com/cdaedge/cdaedge/edge/query"
	"github.com/cdaedge/cdaedge/snapshot"
)

// Histograms and date histograms (API.md D10): each value falls in the bucket whose key
// is the value rounded down to the interval (or to the calendar unit, in the time zone),
// shifted by the offset.

// roundKey returns the key of the bucket holding v (a number, or epoch millis).
func roundKey(a *query.Agg, v float64) float64 {
	if a.Kind == query.AggDateHistogram && a.Calendar != query.CalendarNone {
		local := int64(v) + a.TimeZone - int64(a.Offset)
		y, m, d, h, mi, _, _ := datetime.Civil(local)
		var k int64
		switch a.Calendar {
		case query.CalendarMinute:
			k = datetime.CivilMillis(y, m, d) + int64(h)*3600000 + int64(mi)*60000
		case query.CalendarHour:
			k = datetime.CivilMillis(y, m, d) + int64(h)*3600000
		case query.CalendarDay:
			k = datetime.CivilMillis(y, m, d)
		case query.CalendarWeek:
			day := datetime.CivilMillis(y, m, d)
			dow := ((day/86400000)%7 + 7 + 3) % 7 // 0 = Monday (1970-01-01 was a Thursday)
			k = day - dow*86400000
		case query.CalendarMonth:
			k = datetime.CivilMillis(y, m, 1)
		case query.CalendarQuarter:
			k = datetime.CivilMillis(y, (m-1)/3*3+1, 1)
		default:
			k = datetime.CivilMillis(y, 1, 1)
		}
		return float64(k - a.TimeZone + int64(a.Offset))
	}
	tz := 0.0
	if a.Kind == query.AggDateHistogram {
		tz = float64(a.TimeZone)
	}
	return math.Floor((v+tz-a.Offset)/a.Interval)*a.Interval + a.Offset - tz
}

// nextKey returns the key of the bucket after the one with key k.
func nextKey(a *query.Agg, k float64) float64 {
	if a.Kind == query.AggDateHistogram && a.Calendar != query.CalendarNone {
		local := int64(k) + a.TimeZone - int64(a.Offset)
		y, m, _, _, _, _, _ := datetime.Civil(local)
		var n int64
		switch a.Calendar {
		case query.CalendarMinute:
			n = local + 60000
		case query.CalendarHour:
			n = local + 3600000
		case query.CalendarDay:
			n = local + 86400000
		case query.CalendarWeek:
			n = local + 7*86400000
		case query.CalendarMonth:
			n = datetime.CivilMillis(y, m+1, 1)
		case query.CalendarQuarter:
			n = datetime.CivilMillis(y, m+3, 1)
		default:
			n = datetime.CivilMillis(y+1, 1, 1)
		}
		return float64(n - a.TimeZone + int64(a.Offset))
	}
	return k + a.Interval
}

// histBucket is one histogram bucket being counted.
type histBucket struct{ tally }

// histOut is a bucket of the answer. Its key is the one in the key list, not the one
// first counted: they differ only as -0 and 0 do, which print differently.
type histOut struct {
	key float64
	b   *histBucket
}

// histogram answers a histogram or date_histogram aggregation, its sub-aggregations
// under each of its buckets included, and then hands its buckets back to the arena.
func (c *aggContext) histogram(a *query.Agg, docs []int) (query.AggResult, error) {
	m := c.histArena.mark()
	res, err := c.countHistogram(a, docs)
	c.histArena.release(m)
	return res, err
}

// countHistogram is histogram before the release of its buckets.
func (c *aggContext) countHistogram(a *query.Agg, docs []int) (query.AggResult, error) {
	index, keys, err := c.histogramKeys(a, docs)
	if err != nil {
		return query.AggResult{}, err
	}
	if a.MinDocCount == 0 && (len(keys) > 0 || a.HasExtended) {
		if keys, err = c.fillKeys(a, index, keys); err != nil {
			return query.AggResult{}, err
		}
	}
	var out []histOut
	for _, k := range keys {
		b := index[floatKey(k)]
		if b == nil {
			b = c.newHistBucket()
		}
		if b.count < a.MinDocCount {
			continue
		}
		out = append(out, histOut{k, b})
	}
	if len(a.Order) > 0 && !(a.Order[0].By == query.ByKey && !a.Order[0].Desc) {
		c.orderHistogram(a, out)
	}
	var res query.AggResult
	if len(out) > 0 {
		res.Buckets = make([]query.AggBucket, len(out))
	}
	for i, o := range out {
		subs, err := c.aggs(a.Subs, o.b.docs)
		if err != nil {
			return query.AggResult{}, err
		}
		key := query.Scalar{Kind: query.ScalarNumber, Number: o.key}
		if a.Kind == query.AggDateHistogram {
			key = query.Scalar{Kind: query.ScalarDate, Millis: int64(o.key)}
		}
		res.Buckets[i] = query.AggBucket{Key: key, DocCount: o.b.count, Subs: subs}
	}
	return res, nil
}

// histogramKeys counts the items of each bucket that holds a value, and returns the
// buckets by key (see floatKey) and their keys in increasing order.
func (c *aggContext) histogramKeys(a *query.Agg, docs []int) (map[uint64]*histBucket, []float64, error) {
	f, kw := c.fieldOf(a.Field)
	index := map[uint64]*histBucket{} // by floatKey: see aggKey
	var keys []float64
	if f != nil {
		if entries, owners, ok := c.entryValues(f, docs); ok {
			return c.histogramEntries(a, f, kw, docs, entries, owners)
		}
		var vs []aggValue
		var seen itemSet
		for _, doc := range docs {
			vs = c.values(vs[:0], f, kw, doc)
			seen.reset()
			for _, v := range vs {
				if v.kind == snapshot.KindString {
					continue
				}
				k := roundKey(a, v.num)
				if seen.counted(aggKey{bits: floatKey(k)}) {
					continue
				}
				b, err := c.keyBucket(index, &keys, k)
				if err != nil {
					return nil, nil, err
				}
				b.count++
				if len(a.Subs) > 0 {
					b.docs = append(b.docs, doc)
				}
			}
		}
	}
	// The keys are distinct; sorting them through stableSort shares its code.
	stableSort(len(keys), func(i, j int) { keys[i], keys[j] = keys[j], keys[i] }, func(i, j int) int { return cmp.Compare(keys[i], keys[j]) })
	return index, keys, nil
}

// keyBucket returns the bucket of key k, which it creates on k's first sight (adding
// k to keys and counting the bucket against maxBuckets).
func (c *aggContext) keyBucket(index map[uint64]*histBucket, keys *[]float64, k float64) (*histBucket, error) {
	if b := index[floatKey(k)]; b != nil {
		return b, nil
	}
	if err := c.countBuckets(1); err != nil {
		return nil, err
	}
	b := c.newHistBucket()
	index[floatKey(k)] = b
	*keys = append(*keys, k)
	return b, nil
}

// histogramEntries is histogramKeys given the items' values as entries of the field's
// table of distinct values (aggContext.entryValues): the key of each distinct value is
// found once, in the table's order (ascending), and a date on a calendar interval that
// falls in the bucket of the previous one takes its key without calendar arithmetic.
// (Only dates: their whole milliseconds round exactly as roundKey does; a fraction
// below a negative key's bound would not.)
func (c *aggContext) histogramEntries(a *query.Agg, f *snapshot.Field, kw bool, docs []int, entries []uint32, owners []int32) (map[uint64]*histBucket, []float64, error) {
	index := map[uint64]*histBucket{}
	var keys []float64
	// slots[t] is 1 + the place in seen of entry t's bucket; -1 for an entry with no
	// bucket, or before the sweep, for one some item has; 0 for one no item has.
	slots, seen := c.entrySlots(f.Entries()), c.e.aggSeen[:0]
	for _, t := range entries {
		if t < uint32(len(slots)) { // not snapshot.NoEntry
			slots[t] = -1
		}
	}
	calendar := a.Kind == query.AggDateHistogram && a.Calendar != query.CalendarNone
	from, to := math.Inf(1), math.Inf(1) // the previous date's bucket, [from, to)
	prev, prevKey := int32(0), math.NaN()
	for t, slot := range slots {
		if slot == 0 {
			continue
		}
		v, ok := entryValue(f, kw, uint32(t))
		if !ok || v.kind == snapshot.KindString {
			continue
		}
		var k float64
		switch {
		case calendar && v.kind == snapshot.KindDate && v.num >= from && v.num < to:
			k = from
		case calendar && v.kind == snapshot.KindDate:
			k = roundKey(a, v.num)
			from, to = k, nextKey(a, k)
		default:
			k = roundKey(a, v.num)
		}
		if k == prevKey { // ascending values: runs of one bucket
			slots[t] = prev
			continue
		}
		b, err := c.keyBucket(index, &keys, k)
		if err != nil {
			return nil, nil, err
		}
		seen = append(seen, &b.tally)
		prev, prevKey = int32(len(seen)), k
		slots[t] = prev
	}
	countItems(seen, slots, entries, owners, docs, len(a.Subs) > 0)
	clear(seen) // no bucket kept alive by the scratch
	c.e.aggSeen = seen[:0]
	stableSort(len(keys), func(i, j int) { keys[i], keys[j] = keys[j], keys[i] }, func(i, j int) int { return cmp.Compare(keys[i], keys[j]) })
	return index, keys, nil
}

// fillKeys returns every key from the first to the last of keys (widened to the
// extended bounds), for MinDocCount 0; each empty bucket counts against maxBuckets.
func (c *aggContext) fillKeys(a *query.Agg, index map[uint64]*histBucket, keys []float64) ([]float64, error) {
	lo, hi := math.Inf(1), math.Inf(-1)
	if len(keys) > 0 {
		lo, hi = keys[0], keys[len(keys)-1]
	}
	if a.HasExtended {
		lo = math.Min(lo, roundKey(a, a.ExtendedMin))
		hi = math.Max(hi, roundKey(a, a.ExtendedMax))
	}
	var filled []float64
	for k := lo; k <= hi; {
		filled = append(filled, k)
		if index[floatKey(k)] == nil {
			if err := c.countBuckets(1); err != nil {
				return nil, err
			}
		}
		next := nextKey(a, k)
		if next <= k {
			// The interval is below the precision of k (1 on 1e19): the step stands
			// still. A key that exists counts no bucket, so without this the loop
			// would never end; reaching hi would take endless empty buckets.
			if k < hi {
				return nil, tooManyBuckets()
			}
			break
		}
		k = next
	}
	return filled, nil
}

// orderHistogram sorts the buckets by the aggregation's order, stably.
func (c *aggContext) orderHistogram(a *query.Agg, out []histOut) {
	stableSort(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] }, func(i, j int) int {
		x, y := out[i], out[j]
		for _, o := range a.Order {
			var r int
			switch o.By {
			case query.ByCount:
				r = x.b.count - y.b.count
			case query.ByKey:
				r = compareFloat(x.key, y.key)
			default:
				for _, s := range a.Subs {
					if s.Name == o.Metric {
						r = compareFloat(c.metricValue(s, x.b.docs), c.metricValue(s, y.b.docs))
					}
				}
			}
			if r != 0 {
				if o.Desc {
					return -r
				}
				return r
			}
		}
		return 0
	})
}
