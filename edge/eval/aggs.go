package eval

import (
	"cmp"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/cdaedge/cdaedge/edge"
	"github.com/cdaedge/cdaedge/edge/dsl"
	"github.com/cdaedge/cdaedge/edge/jsonw"
	"github.com/cdaedge/cdaedge/edge/query"
	"github.com/cdaedge/cdaedge/snapshot"
)

// Aggregations (decisions D10, D12), computed over every matching item and shaped as
// Elasticsearch shapes them: "buckets" with "key" and "doc_count", "key_as_string" for
// dates and booleans, metric "value"s printed as Java prints doubles.

// maxBuckets bounds the buckets of one request (Elasticsearch's search.max_buckets).
const maxBuckets = 65536

type aggContext struct {
	e       *Engine
	vals    []snapshot.Value
	buckets int
}

// AppendAggregations appends the Elasticsearch JSON object of aggs computed over the
// matched items (API.md D10). Its work is charged to the current request's budget.
func (e *Engine) AppendAggregations(dst []byte, aggs []*dsl.Agg, matched DocSet) ([]byte, error) {
	docs := make([]int, 0, matched.Count())
	matched.ForEach(func(doc int) { docs = append(docs, doc) })
	c := &aggContext{e: e}
	return c.appendAggs(dst, aggs, docs)
}

func (c *aggContext) appendAggs(dst []byte, aggs []*dsl.Agg, docs []int) ([]byte, error) {
	dst = append(dst, '{')
	for i, a := range aggs {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = jsonw.String(dst, a.Name)
		dst = append(dst, ':')
		var err error
		if dst, err = c.appendAgg(dst, a, docs); err != nil {
			return nil, err
		}
	}
	return append(dst, '}'), nil
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
// Elasticsearch does, see DIFFERENCES.md). nil when no item has the field.
func (c *aggContext) fieldOf(name string) (*snapshot.Field, bool) {
	base, kw := strings.CutSuffix(name, ".keyword")
	return c.e.snap.Field(base), kw
}

// values appends doc's values of f, without duplicates.
func (c *aggContext) values(dst []aggValue, f *snapshot.Field, kw bool, doc int) []aggValue {
	c.vals = f.Values(c.vals[:0], doc)
	for _, v := range c.vals {
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
		if kw && v.Kind != snapshot.KindString {
			continue
		}
		if !slices.Contains(dst, av) {
			dst = append(dst, av)
		}
	}
	return dst
}

func (c *aggContext) appendAgg(dst []byte, a *dsl.Agg, docs []int) ([]byte, error) {
	// Every aggregation node reads each of its items' values at least once: charge that
	// to the request's budget, so nested aggregations over many items end in
	// too_complex instead of running on.
	if err := c.e.spend(len(docs) + 1); err != nil {
		return nil, err
	}
	dst = append(dst, '{')
	if a.Meta != "" {
		dst = append(dst, `"meta":`...)
		dst = append(dst, a.Meta...)
		dst = append(dst, ',')
	}
	var err error
	switch a.Type {
	case dsl.AggTerms:
		dst, err = c.terms(dst, a, docs)
	case dsl.AggRange, dsl.AggDateRange:
		dst, err = c.ranges(dst, a, docs)
	case dsl.AggHistogram, dsl.AggDateHistogram:
		dst, err = c.histogram(dst, a, docs)
	case dsl.AggMissing:
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
		dst, err = c.singleBucket(dst, a, sub)
	case dsl.AggFilter:
		res, serr := c.e.Search(&query.Search{Query: a.Filter})
		if serr != nil {
			return nil, serr
		}
		var sub []int
		for _, doc := range docs {
			if res.Matched.Has(doc) {
				sub = append(sub, doc)
			}
		}
		dst, err = c.singleBucket(dst, a, sub)
	default:
		dst, err = c.metric(dst, a, docs)
	}
	if err != nil {
		return nil, err
	}
	return append(dst, '}'), nil
}

// singleBucket appends "doc_count" and the sub-aggregations (missing, filter).
func (c *aggContext) singleBucket(dst []byte, a *dsl.Agg, docs []int) ([]byte, error) {
	dst = append(dst, `"doc_count":`...)
	dst = jsonw.Int(dst, int64(len(docs)))
	return c.appendSubs(dst, a, docs)
}

func (c *aggContext) appendSubs(dst []byte, a *dsl.Agg, docs []int) ([]byte, error) {
	for _, s := range a.Subs {
		dst = append(dst, ',')
		dst = jsonw.String(dst, s.Name)
		dst = append(dst, ':')
		var err error
		if dst, err = c.appendAgg(dst, s, docs); err != nil {
			return nil, err
		}
	}
	return dst, nil
}

func (c *aggContext) countBuckets(n int) error {
	c.buckets += n
	if c.buckets > maxBuckets {
		return edge.Errorf(edge.CodeTooComplex, "the aggregations would make more than %d buckets (limit: search.max_buckets)", maxBuckets)
	}
	return nil
}

// ---- terms ----

type termBucket struct {
	v     aggValue
	count int
	docs  []int
	order float64 // value of a metric sub-aggregation used in the order
}

func (c *aggContext) terms(dst []byte, a *dsl.Agg, docs []int) ([]byte, error) {
	f, kw := c.fieldOf(a.Field)
	var buckets []*termBucket
	if f != nil {
		index := map[aggKey]*termBucket{}
		dict := f.Keyword()
		// Strings, the common case, are counted by ordinal without hashing.
		byOrd := make([]*termBucket, dict.Len())
		var vs []aggValue
		for _, doc := range docs {
			vs = c.values(vs[:0], f, kw, doc)
			for _, v := range vs {
				var b *termBucket
				if v.kind == snapshot.KindString && int(v.ord) < len(byOrd) {
					b = byOrd[v.ord]
					if b == nil {
						b = &termBucket{v: v}
						byOrd[v.ord] = b
						index[v.key()] = b
						buckets = append(buckets, b)
					}
				} else if b = index[v.key()]; b == nil {
					b = &termBucket{v: v}
					index[v.key()] = b
					buckets = append(buckets, b)
				}
				b.count++
				if len(a.Subs) > 0 {
					b.docs = append(b.docs, doc)
				}
			}
		}
		if a.MinDocCount == 0 {
			// Elasticsearch lists the terms of the whole index with min_doc_count 0.
			for ord := 0; ord < dict.Len(); ord++ {
				v := aggValue{kind: snapshot.KindString, ord: uint32(ord)}
				if index[v.key()] == nil {
					b := &termBucket{v: v}
					index[v.key()] = b
					buckets = append(buckets, b)
				}
			}
		}
		buckets = slices.DeleteFunc(buckets, func(b *termBucket) bool {
			if b.count < a.MinDocCount {
				return true
			}
			if len(a.Include) == 0 && len(a.Exclude) == 0 {
				return false
			}
			key := string(c.keyText(nil, f, b.v))
			return len(a.Include) > 0 && !slices.Contains(a.Include, key) || slices.Contains(a.Exclude, key)
		})
		for _, o := range a.Order {
			if o.Key == "_count" || o.Key == "_key" {
				continue
			}
			for _, s := range a.Subs {
				if s.Name == o.Key {
					for _, b := range buckets {
						b.order = c.metricValue(s, b.docs)
					}
				}
			}
		}
		stableSort(len(buckets), func(i, j int) { buckets[i], buckets[j] = buckets[j], buckets[i] }, func(i, j int) int {
			x, y := buckets[i], buckets[j]
			for _, o := range a.Order {
				var r int
				switch o.Key {
				case "_count":
					r = x.count - y.count
				case "_key":
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
		})
	}
	other := 0
	if len(buckets) > a.Size {
		for _, b := range buckets[a.Size:] {
			other += b.count
		}
		buckets = buckets[:a.Size]
	}
	if err := c.countBuckets(len(buckets)); err != nil {
		return nil, err
	}
	dst = append(dst, `"doc_count_error_upper_bound":0,"sum_other_doc_count":`...)
	dst = jsonw.Int(dst, int64(other))
	dst = append(dst, `,"buckets":[`...)
	for i, b := range buckets {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, `{"key":`...)
		switch b.v.kind {
		case snapshot.KindString:
			dst = jsonw.String(dst, f.Keyword().Term(int(b.v.ord)))
		case snapshot.KindNumber:
			dst = appendNumberKey(dst, b.v.num)
		case snapshot.KindDate:
			dst = jsonw.Int(dst, int64(b.v.num))
			dst = append(dst, `,"key_as_string":`...)
			dst = jsonw.String(dst, string(c.keyText(nil, f, b.v)))
		case snapshot.KindBool:
			dst = jsonw.Int(dst, int64(b.v.num))
			dst = append(dst, `,"key_as_string":`...)
			dst = jsonw.String(dst, string(c.keyText(nil, f, b.v)))
		}
		dst = append(dst, `,"doc_count":`...)
		dst = jsonw.Int(dst, int64(b.count))
		var err error
		if dst, err = c.appendSubs(dst, a, b.docs); err != nil {
			return nil, err
		}
		dst = append(dst, '}')
	}
	return append(dst, ']'), nil
}

// keyText is a value's text: the string, the number as Java prints it, the date in
// the default format, "true"/"false".
func (c *aggContext) keyText(dst []byte, f *snapshot.Field, v aggValue) []byte {
	switch v.kind {
	case snapshot.KindString:
		return append(dst, f.Keyword().Term(int(v.ord))...)
	case snapshot.KindNumber:
		if v.num == math.Trunc(v.num) && math.Abs(v.num) < 1<<53 {
			return strconv.AppendInt(dst, int64(v.num), 10)
		}
		return appendJavaDouble(dst, v.num)
	case snapshot.KindDate:
		out, _ := dsl.FormatMillis(dst, int64(v.num), "")
		return out
	}
	return strconv.AppendBool(dst, v.num != 0)
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

// appendNumberKey prints a numeric bucket key: whole numbers as integers (a long field
// under Elasticsearch's dynamic mapping), others as Java doubles.
func appendNumberKey(dst []byte, f float64) []byte {
	if f == math.Trunc(f) && math.Abs(f) < 1<<53 {
		return strconv.AppendInt(dst, int64(f), 10)
	}
	return appendJavaDouble(dst, f)
}

// appendJavaDouble appends f as Java's Double.toString (and so Elasticsearch's JSON)
// prints it: the shortest digits that read back as f, plain with at least one
// fractional digit for 1e-3 <= |f| < 1e7, else computerized scientific ("1.0E7").
func appendJavaDouble(dst []byte, f float64) []byte {
	switch {
	case math.IsNaN(f):
		return append(dst, "NaN"...)
	case math.IsInf(f, 1):
		return append(dst, "Infinity"...)
	case math.IsInf(f, -1):
		return append(dst, "-Infinity"...)
	case f == 0:
		if math.Signbit(f) {
			return append(dst, "-0.0"...)
		}
		return append(dst, "0.0"...)
	}
	abs := math.Abs(f)
	if abs >= 1e-3 && abs < 1e7 {
		start := len(dst)
		dst = strconv.AppendFloat(dst, f, 'f', -1, 64)
		if !strings.Contains(string(dst[start:]), ".") {
			dst = append(dst, ".0"...)
		}
		return dst
	}
	s := strconv.FormatFloat(f, 'e', -1, 64) // d.ddde±XX
	mant, exp, _ := strings.Cut(s, "e")
	if !strings.Contains(mant, ".") {
		mant += ".0"
	}
	dst = append(dst, mant...)
	dst = append(dst, 'E')
	if exp[0] == '-' {
		dst = append(dst, '-')
	}
	return append(dst, strings.TrimLeft(exp[1:], "0")...)
}

// ---- range ----

func (c *aggContext) ranges(dst []byte, a *dsl.Agg, docs []int) ([]byte, error) {
	f, kw := c.fieldOf(a.Field)
	isDate := a.Type == dsl.AggDateRange || f != nil && snapshot.IsDateMember(f.Name())
	counts := make([]int, len(a.Ranges))
	sub := make([][]int, len(a.Ranges))
	if f != nil {
		var vs []aggValue
		for _, doc := range docs {
			vs = c.values(vs[:0], f, kw, doc)
			for i, r := range a.Ranges {
				for _, v := range vs {
					if v.kind == snapshot.KindString {
						continue
					}
					if v.num >= r.From && v.num < r.To {
						counts[i]++
						if len(a.Subs) > 0 {
							sub[i] = append(sub[i], doc)
						}
						break
					}
				}
			}
		}
	}
	if err := c.countBuckets(len(a.Ranges)); err != nil {
		return nil, err
	}
	bound := func(dst []byte, v float64) []byte {
		if isDate {
			out, _ := dsl.FormatMillis(dst, int64(v), a.Format)
			return out
		}
		return appendJavaDouble(dst, v)
	}
	if a.Keyed {
		dst = append(dst, `"buckets":{`...)
	} else {
		dst = append(dst, `"buckets":[`...)
	}
	for i, r := range a.Ranges {
		if i > 0 {
			dst = append(dst, ',')
		}
		key := r.Key
		if key == "" {
			var kb []byte
			if math.IsInf(r.From, -1) {
				kb = append(kb, '*')
			} else {
				kb = bound(kb, r.From)
			}
			kb = append(kb, '-')
			if math.IsInf(r.To, 1) {
				kb = append(kb, '*')
			} else {
				kb = bound(kb, r.To)
			}
			key = string(kb)
		}
		if a.Keyed {
			dst = jsonw.String(dst, key)
			dst = append(dst, `:{`...)
		} else {
			dst = append(dst, `{"key":`...)
			dst = jsonw.String(dst, key)
			dst = append(dst, ',')
		}
		if !math.IsInf(r.From, -1) {
			dst = append(dst, `"from":`...)
			dst = appendJavaDouble(dst, r.From)
			if isDate {
				dst = append(dst, `,"from_as_string":`...)
				dst = jsonw.String(dst, string(bound(nil, r.From)))
			}
			dst = append(dst, ',')
		}
		if !math.IsInf(r.To, 1) {
			dst = append(dst, `"to":`...)
			dst = appendJavaDouble(dst, r.To)
			if isDate {
				dst = append(dst, `,"to_as_string":`...)
				dst = jsonw.String(dst, string(bound(nil, r.To)))
			}
			dst = append(dst, ',')
		}
		dst = append(dst, `"doc_count":`...)
		dst = jsonw.Int(dst, int64(counts[i]))
		var err error
		if dst, err = c.appendSubs(dst, a, sub[i]); err != nil {
			return nil, err
		}
		dst = append(dst, '}')
	}
	if a.Keyed {
		return append(dst, '}'), nil
	}
	return append(dst, ']'), nil
}

// ---- histograms ----

// roundKey returns the key of the bucket holding v (a number, or epoch millis).
func roundKey(a *dsl.Agg, v float64) float64 {
	if a.Type == dsl.AggDateHistogram && a.Calendar != "" {
		local := int64(v) + a.TimeZone - int64(a.Offset)
		y, m, d, h, mi, _, _ := dsl.Civil(local)
		var k int64
		switch a.Calendar {
		case dsl.CalMinute:
			k = dsl.CivilMillis(y, m, d) + int64(h)*3600000 + int64(mi)*60000
		case dsl.CalHour:
			k = dsl.CivilMillis(y, m, d) + int64(h)*3600000
		case dsl.CalDay:
			k = dsl.CivilMillis(y, m, d)
		case dsl.CalWeek:
			day := dsl.CivilMillis(y, m, d)
			dow := ((day/86400000)%7 + 7 + 3) % 7 // 0 = Monday (1970-01-01 was a Thursday)
			k = day - dow*86400000
		case dsl.CalMonth:
			k = dsl.CivilMillis(y, m, 1)
		case dsl.CalQuarter:
			k = dsl.CivilMillis(y, (m-1)/3*3+1, 1)
		default:
			k = dsl.CivilMillis(y, 1, 1)
		}
		return float64(k - a.TimeZone + int64(a.Offset))
	}
	tz := 0.0
	if a.Type == dsl.AggDateHistogram {
		tz = float64(a.TimeZone)
	}
	return math.Floor((v+tz-a.Offset)/a.Interval)*a.Interval + a.Offset - tz
}

// nextKey returns the key of the bucket after the one with key k.
func nextKey(a *dsl.Agg, k float64) float64 {
	if a.Type == dsl.AggDateHistogram && a.Calendar != "" {
		local := int64(k) + a.TimeZone - int64(a.Offset)
		y, m, d, h, mi, _, _ := dsl.Civil(local)
		var n int64
		switch a.Calendar {
		case dsl.CalMinute:
			n = local + 60000
		case dsl.CalHour:
			n = local + 3600000
		case dsl.CalDay:
			n = local + 86400000
		case dsl.CalWeek:
			n = local + 7*86400000
		case dsl.CalMonth:
			n = dsl.CivilMillis(y, m+1, 1)
		case dsl.CalQuarter:
			n = dsl.CivilMillis(y, m+3, 1)
		default:
			n = dsl.CivilMillis(y+1, 1, 1)
		}
		_, _ = d, h+mi
		return float64(n - a.TimeZone + int64(a.Offset))
	}
	return k + a.Interval
}

func (c *aggContext) histogram(dst []byte, a *dsl.Agg, docs []int) ([]byte, error) {
	f, kw := c.fieldOf(a.Field)
	type hb struct {
		count int
		docs  []int
	}
	index := map[uint64]*hb{} // by floatKey: see aggKey
	var keys []float64
	if f != nil {
		var vs []aggValue
		var seen []float64
		for _, doc := range docs {
			vs = c.values(vs[:0], f, kw, doc)
			seen = seen[:0]
			for _, v := range vs {
				if v.kind == snapshot.KindString {
					continue
				}
				k := roundKey(a, v.num)
				if slices.Contains(seen, k) {
					continue
				}
				seen = append(seen, k)
				b := index[floatKey(k)]
				if b == nil {
					if err := c.countBuckets(1); err != nil {
						return nil, err
					}
					b = &hb{}
					index[floatKey(k)] = b
					keys = append(keys, k)
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
	if a.MinDocCount == 0 && (len(keys) > 0 || a.HasExtended) {
		lo, hi := math.Inf(1), math.Inf(-1)
		if len(keys) > 0 {
			lo, hi = keys[0], keys[len(keys)-1]
		}
		if a.HasExtended {
			lo = math.Min(lo, roundKey(a, a.ExtendedMin))
			hi = math.Max(hi, roundKey(a, a.ExtendedMax))
		}
		var filled []float64
		for k := lo; k <= hi; k = nextKey(a, k) {
			filled = append(filled, k)
			if index[floatKey(k)] == nil {
				if err := c.countBuckets(1); err != nil {
					return nil, err
				}
			}
		}
		keys = filled
	}
	type outB struct {
		key float64
		b   *hb
	}
	var out []outB
	for _, k := range keys {
		b := index[floatKey(k)]
		if b == nil {
			b = &hb{}
		}
		if b.count < a.MinDocCount {
			continue
		}
		out = append(out, outB{k, b})
	}
	if len(a.Order) > 0 && !(a.Order[0].Key == "_key" && !a.Order[0].Desc) {
		stableSort(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] }, func(i, j int) int {
			x, y := out[i], out[j]
			for _, o := range a.Order {
				var r int
				switch o.Key {
				case "_count":
					r = x.b.count - y.b.count
				case "_key":
					r = compareFloat(x.key, y.key)
				default:
					for _, s := range a.Subs {
						if s.Name == o.Key {
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
	if a.Keyed {
		dst = append(dst, `"buckets":{`...)
	} else {
		dst = append(dst, `"buckets":[`...)
	}
	for i, ob := range out {
		if i > 0 {
			dst = append(dst, ',')
		}
		var keyStr []byte
		if a.Type == dsl.AggDateHistogram {
			keyStr = appendZoned(nil, int64(ob.key), a.TimeZone, a.Format)
		} else {
			keyStr = appendJavaDouble(nil, ob.key)
		}
		if a.Keyed {
			dst = jsonw.String(dst, string(keyStr))
			dst = append(dst, ':')
		}
		dst = append(dst, '{')
		if a.Type == dsl.AggDateHistogram {
			dst = append(dst, `"key_as_string":`...)
			dst = jsonw.String(dst, string(keyStr))
			dst = append(dst, `,"key":`...)
			dst = jsonw.Int(dst, int64(ob.key))
		} else {
			dst = append(dst, `"key":`...)
			dst = appendJavaDouble(dst, ob.key)
		}
		dst = append(dst, `,"doc_count":`...)
		dst = jsonw.Int(dst, int64(ob.b.count))
		var err error
		if dst, err = c.appendSubs(dst, a, ob.b.docs); err != nil {
			return nil, err
		}
		dst = append(dst, '}')
	}
	if a.Keyed {
		return append(dst, '}'), nil
	}
	return append(dst, ']'), nil
}

// appendZoned formats ms in the aggregation's format and time zone: the default format
// shows the offset as Elasticsearch does ("2020-01-01T00:00:00.000+01:00").
func appendZoned(dst []byte, ms, tz int64, format string) []byte {
	start := len(dst)
	dst, _ = dsl.FormatMillis(dst, ms+tz, format)
	if tz != 0 && (format == "" || format == "strict_date_optional_time" || format == "date_optional_time") && len(dst) > start && dst[len(dst)-1] == 'Z' {
		dst = dst[:len(dst)-1]
		if tz < 0 {
			dst = append(dst, '-')
			tz = -tz
		} else {
			dst = append(dst, '+')
		}
		h, m := tz/3600000, tz/60000%60
		dst = append(dst, byte('0'+h/10), byte('0'+h%10), ':', byte('0'+m/10), byte('0'+m%10))
	}
	return dst
}

// ---- metrics ----

type metricAcc struct {
	count    int
	sum      float64
	min, max float64
	strings  int
	isDate   bool
	distinct map[aggKey]struct{}
}

func (c *aggContext) collect(a *dsl.Agg, docs []int) (metricAcc, *snapshot.Field) {
	acc := metricAcc{min: math.Inf(1), max: math.Inf(-1)}
	f, kw := c.fieldOf(a.Field)
	if f == nil {
		return acc, nil
	}
	if a.Type == dsl.AggCardinality {
		acc.distinct = map[aggKey]struct{}{}
	}
	var vs []aggValue
	for _, doc := range docs {
		vs = c.values(vs[:0], f, kw, doc)
		if a.Type == dsl.AggValueCount {
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
			if acc.distinct != nil {
				acc.distinct[v.key()] = struct{}{}
				continue
			}
			if v.kind == snapshot.KindString {
				acc.strings++
				continue
			}
			if v.kind == snapshot.KindDate {
				acc.isDate = true
			}
			acc.count++
			acc.sum += v.num
			acc.min = math.Min(acc.min, v.num)
			acc.max = math.Max(acc.max, v.num)
		}
	}
	return acc, f
}

// metricValue is a single-value metric's value, for ordering buckets (NaN sorts as
// Elasticsearch sorts a missing value: as negative infinity here).
func (c *aggContext) metricValue(a *dsl.Agg, docs []int) float64 {
	acc, _ := c.collect(a, docs)
	switch a.Type {
	case dsl.AggMin:
		return acc.min
	case dsl.AggMax:
		return acc.max
	case dsl.AggSum:
		return acc.sum
	case dsl.AggAvg:
		if acc.count == 0 {
			return math.Inf(-1)
		}
		return acc.sum / float64(acc.count)
	case dsl.AggValueCount:
		return float64(acc.count)
	case dsl.AggCardinality:
		return float64(len(acc.distinct))
	}
	return 0
}

func (c *aggContext) metric(dst []byte, a *dsl.Agg, docs []int) ([]byte, error) {
	acc, _ := c.collect(a, docs)
	switch a.Type {
	case dsl.AggValueCount:
		dst = append(dst, `"value":`...)
		return jsonw.Int(dst, int64(acc.count)), nil
	case dsl.AggCardinality:
		dst = append(dst, `"value":`...)
		return jsonw.Int(dst, int64(len(acc.distinct))), nil
	}
	if acc.count == 0 && acc.strings > 0 {
		return nil, edge.Errorf(edge.CodeInvalidArgument, "[%s] aggregation %q needs a numeric, date or boolean field; [%s] holds text", a.Type, edge.Clip(a.Name), edge.Clip(a.Field))
	}
	value := func(dst []byte, name string, v float64, ok bool) []byte {
		dst = jsonw.String(dst, name)
		dst = append(dst, ':')
		if !ok {
			return append(dst, "null"...)
		}
		dst = appendJavaDouble(dst, v)
		if acc.isDate {
			dst = append(dst, ',')
			dst = jsonw.String(dst, name+"_as_string")
			dst = append(dst, ':')
			out, _ := dsl.FormatMillis(nil, int64(v), a.Format)
			dst = jsonw.String(dst, string(out))
		}
		return dst
	}
	has := acc.count > 0
	switch a.Type {
	case dsl.AggMin:
		return value(dst, "value", acc.min, has), nil
	case dsl.AggMax:
		return value(dst, "value", acc.max, has), nil
	case dsl.AggAvg:
		return value(dst, "value", acc.sum/float64(max(acc.count, 1)), has), nil
	case dsl.AggSum:
		dst = append(dst, `"value":`...)
		return appendJavaDouble(dst, acc.sum), nil
	case dsl.AggStats:
		// Elasticsearch's InternalStats: count, min, max, avg, sum, then the
		// *_as_string forms for dates.
		dst = append(dst, `"count":`...)
		dst = jsonw.Int(dst, int64(acc.count))
		avg := acc.sum / float64(max(acc.count, 1))
		nums := [...]struct {
			name string
			v    float64
		}{{"min", acc.min}, {"max", acc.max}, {"avg", avg}}
		for _, n := range nums[:] {
			dst = append(dst, ',')
			dst = jsonw.String(dst, n.name)
			dst = append(dst, ':')
			if has {
				dst = appendJavaDouble(dst, n.v)
			} else {
				dst = append(dst, "null"...)
			}
		}
		dst = append(dst, `,"sum":`...)
		dst = appendJavaDouble(dst, acc.sum)
		if has && acc.isDate {
			for _, n := range append(nums[:], struct {
				name string
				v    float64
			}{"sum", acc.sum}) {
				dst = append(dst, ',')
				dst = jsonw.String(dst, n.name+"_as_string")
				dst = append(dst, ':')
				out, _ := dsl.FormatMillis(nil, int64(n.v), a.Format)
				dst = jsonw.String(dst, string(out))
			}
		}
		return dst, nil
	}
	return dst, nil
}
