package dsl

import (
	"math"
	"strconv"
	"strings"

	"github.com/cdaedge/cdaedge/edge"
	"github.com/cdaedge/cdaedge/snapshot"

	"github.com/cdaedge/cdaedge/edge/jsonr"
	"github.com/cdaedge/cdaedge/edge/query"
)

// AggType is an aggregation's type (decisions D10).
type AggType uint8

// Aggregation types.
const (
	AggTerms AggType = iota + 1
	AggRange
	AggDateRange
	AggHistogram
	AggDateHistogram
	AggMin
	AggMax
	AggAvg
	AggSum
	AggStats
	AggValueCount
	AggCardinality
	AggMissing
	AggFilter
)

var aggNames = [...]struct {
	name string
	typ  AggType
}{
	{"terms", AggTerms}, {"range", AggRange}, {"date_range", AggDateRange},
	{"histogram", AggHistogram}, {"date_histogram", AggDateHistogram},
	{"min", AggMin}, {"max", AggMax}, {"avg", AggAvg}, {"sum", AggSum}, {"stats", AggStats},
	{"value_count", AggValueCount}, {"cardinality", AggCardinality}, {"missing", AggMissing},
	{"filter", AggFilter},
}

// String returns the aggregation type's name in the request syntax.
func (t AggType) String() string {
	for _, a := range aggNames[:] {
		if a.typ == t {
			return a.name
		}
	}
	return "?"
}

// IsMetric reports whether the type is a single- or multi-value metric (no buckets,
// no sub-aggregations).
func (t AggType) IsMetric() bool { return t >= AggMin && t <= AggCardinality }

// BucketOrder is one key of a bucket aggregation's order: "_count", "_key", or the
// name of a single-value metric sub-aggregation.
type BucketOrder struct {
	Key  string
	Desc bool
}

// RangeSpec is one range of a range or date_range aggregation; From and To are
// -Inf/+Inf when unbounded. Key is empty unless given.
type RangeSpec struct {
	Key      string
	From, To float64
}

// Calendar intervals of date_histogram.
const (
	CalMinute  = "minute"
	CalHour    = "hour"
	CalDay     = "day"
	CalWeek    = "week"
	CalMonth   = "month"
	CalQuarter = "quarter"
	CalYear    = "year"
)

// Agg is one requested aggregation.
type Agg struct {
	Name string
	Type AggType
	// Field is the field as written (a member, a Data path, or <field>.keyword).
	Field string
	// Meta is the raw JSON of "meta", echoed in the answer ("" when absent).
	Meta string
	// Terms.
	Size        int
	MinDocCount int
	Order       []BucketOrder
	Include     []string
	Exclude     []string
	// Range and date_range.
	Ranges []RangeSpec
	Keyed  bool
	// Histograms: Calendar (date_histogram calendar_interval) or Interval (fixed, in
	// milliseconds for dates). Offset in the same unit; TimeZone in milliseconds.
	Calendar    string
	Interval    float64
	Offset      float64
	TimeZone    int64
	Format      string
	ExtendedMin float64
	ExtendedMax float64
	HasExtended bool
	// Filter is the filter aggregation's query.
	Filter query.Query
	// Subs are the sub-aggregations, in request order.
	Subs []*Agg
}

// maxAggDepth bounds sub-aggregation nesting.
const maxAggDepth = 8

// aggs decodes an "aggs" object: {"<name>": {"<type>": {...}, "aggs": {...}, "meta": {...}}}.
func (d *decoder) aggs(v jsonr.Result, path string, depth int) ([]*Agg, error) {
	if depth >= maxAggDepth {
		return nil, errorf(edge.CodeTooComplex, path, "aggregations nest deeper than "+strconv.Itoa(maxAggDepth)+" levels")
	}
	if !v.IsObject() {
		return nil, wrongType(path, "an object of named aggregations", v)
	}
	var out []*Agg
	err := d.members(v, path, func(name string, body jsonr.Result) error {
		p := join(path, name)
		if name == "" || strings.ContainsAny(name, "[]>") {
			return errorf(edge.CodeInvalidArgument, p, "aggregation names must be non-empty and cannot contain '[', ']' or '>'")
		}
		d.aggs_++
		if d.aggs_ > d.lim.MaxAggs {
			return errorf(edge.CodeTooComplex, p, "more than "+strconv.Itoa(d.lim.MaxAggs)+" aggregations")
		}
		a, err := d.agg(name, body, p, depth)
		if err != nil {
			return err
		}
		out = append(out, a)
		return nil
	})
	return out, err
}

func (d *decoder) agg(name string, body jsonr.Result, path string, depth int) (*Agg, error) {
	a := &Agg{Name: name}
	var spec jsonr.Result
	specPath := ""
	var subs *jsonr.Result
	err := d.members(body, path, func(key string, val jsonr.Result) error {
		switch key {
		case "aggs", "aggregations":
			if subs != nil {
				return errorf(edge.CodeInvalidQuery, path, "give sub-aggregations once")
			}
			v := val
			subs = &v
			return nil
		case "meta":
			if !val.IsObject() {
				return wrongType(join(path, key), "an object", val)
			}
			a.Meta = val.Raw
			return nil
		}
		for _, an := range aggNames[:] {
			if an.name == key {
				if a.Type != 0 {
					return errorf(edge.CodeInvalidQuery, path, "found two aggregation types in ["+clip(name)+"]: ["+a.Type.String()+"] and ["+key+"]")
				}
				a.Type, spec, specPath = an.typ, val, join(path, key)
				return nil
			}
		}
		return errorf(edge.CodeInvalidQuery, path, "unknown aggregation type ["+clip(key)+"]; supported: terms, range, date_range, histogram, date_histogram, min, max, avg, sum, stats, value_count, cardinality, missing, filter")
	})
	if err != nil {
		return nil, err
	}
	if a.Type == 0 {
		return nil, errorf(edge.CodeInvalidQuery, path, "aggregation ["+clip(name)+"] has no type")
	}
	if a.Type == AggFilter {
		if a.Filter, err = d.query(spec, specPath, 0); err != nil {
			return nil, err
		}
	} else if err := d.aggSpec(a, spec, specPath); err != nil {
		return nil, err
	}
	if subs != nil {
		if a.Type.IsMetric() {
			return nil, errorf(edge.CodeInvalidQuery, path, "aggregator ["+clip(name)+"] of type ["+a.Type.String()+"] cannot accept sub-aggregations")
		}
		if a.Subs, err = d.aggs(*subs, join(path, "aggs"), depth+1); err != nil {
			return nil, err
		}
	}
	for _, o := range a.Order {
		if o.Key == "_count" || o.Key == "_key" {
			continue
		}
		ok := false
		for _, s := range a.Subs {
			if s.Name == o.Key && s.Type.IsMetric() && s.Type != AggStats {
				ok = true
			}
		}
		if !ok {
			return nil, errorf(edge.CodeInvalidArgument, join(specPath, "order"), "invalid aggregation order path ["+clip(o.Key)+"]: name _count, _key or a single-value metric sub-aggregation")
		}
	}
	return a, nil
}

func (d *decoder) aggSpec(a *Agg, spec jsonr.Result, path string) error {
	typ := a.Type
	switch typ {
	case AggTerms:
		a.Size, a.MinDocCount = 10, 1
		a.Order = []BucketOrder{{Key: "_count", Desc: true}, {Key: "_key"}}
	case AggHistogram, AggDateHistogram:
		a.Order = []BucketOrder{{Key: "_key"}}
	}
	fixed := ""
	err := d.members(spec, path, func(key string, val jsonr.Result) error {
		p := join(path, key)
		var err error
		switch {
		case key == "field":
			a.Field, err = strictStr(val, p)
		case key == "size" && typ == AggTerms:
			a.Size, err = integer(val, p, 1, 65536)
		case key == "min_doc_count" && (typ == AggTerms || typ == AggHistogram || typ == AggDateHistogram):
			a.MinDocCount, err = integer(val, p, 0, 1<<31-1)
		case key == "order" && (typ == AggTerms || typ == AggHistogram || typ == AggDateHistogram):
			a.Order, err = aggOrder(val, p)
			if err == nil && typ == AggTerms {
				// Ties break by key ascending, as Elasticsearch adds _key asc.
				last := a.Order[len(a.Order)-1].Key
				if last != "_key" {
					a.Order = append(a.Order, BucketOrder{Key: "_key"})
				}
			}
		case (key == "include" || key == "exclude") && typ == AggTerms:
			var list []string
			if val.Type == jsonr.String {
				return errorf(edge.CodeInvalidQuery, p, "regular-expression include/exclude is not supported; give an array of exact values")
			}
			if list, err = patternList(val, p); err == nil {
				if key == "include" {
					a.Include = list
				} else {
					a.Exclude = list
				}
			}
		case (key == "shard_size" || key == "shard_min_doc_count") && typ == AggTerms:
			_, err = integer(val, p, 0, 1<<31-1)
		case (key == "show_term_doc_count_error") && typ == AggTerms:
			_, err = boolean(val, p)
		case (key == "execution_hint" || key == "collect_mode") && typ == AggTerms:
			_, err = strictStr(val, p)
		case key == "ranges" && (typ == AggRange || typ == AggDateRange):
			a.Ranges, err = d.aggRanges(val, p, typ == AggDateRange || snapshot.IsDateMember(a.Field))
		case key == "keyed" && (typ == AggRange || typ == AggDateRange || typ == AggHistogram || typ == AggDateHistogram):
			a.Keyed, err = boolean(val, p)
		case key == "calendar_interval" && typ == AggDateHistogram:
			var s string
			if s, err = strictStr(val, p); err == nil {
				a.Calendar, err = calendarUnit(s, p)
			}
		case key == "fixed_interval" && typ == AggDateHistogram:
			if fixed, err = strictStr(val, p); err == nil {
				a.Interval, err = fixedInterval(fixed, p)
			}
		case key == "interval" && typ == AggDateHistogram:
			err = errorf(edge.CodeInvalidArgument, p, "[interval] was removed in Elasticsearch 8; use calendar_interval or fixed_interval")
		case key == "interval" && typ == AggHistogram:
			if a.Interval, err = number(val, p); err == nil && a.Interval <= 0 {
				err = errorf(edge.CodeInvalidArgument, p, "interval must be greater than 0")
			}
		case key == "offset" && typ == AggHistogram:
			a.Offset, err = number(val, p)
		case key == "offset" && typ == AggDateHistogram:
			var s string
			if s, err = strictStr(val, p); err == nil {
				a.Offset, err = signedInterval(s, p)
			}
		case key == "time_zone" && (typ == AggDateHistogram || typ == AggDateRange):
			var s string
			if s, err = strictStr(val, p); err == nil {
				a.TimeZone, err = zoneOffset(s, p)
			}
		case key == "format" && (typ == AggDateHistogram || typ == AggDateRange || typ == AggMin || typ == AggMax):
			if a.Format, err = strictStr(val, p); err == nil {
				if _, ok := FormatMillis(nil, 0, a.Format); !ok {
					err = errorf(edge.CodeInvalidArgument, p, "unsupported date format ["+clip(a.Format)+"]; use a pattern of yyyy, MM, dd, HH, mm, ss, SSS and literals, or strict_date_optional_time, date, epoch_millis")
				}
			}
		case (key == "extended_bounds") && (typ == AggHistogram || typ == AggDateHistogram):
			err = d.members(val, p, func(k string, bv jsonr.Result) error {
				var f float64
				var err error
				if typ == AggDateHistogram && bv.Type == jsonr.String {
					var ms int64
					ms, err = dateBound(bv, join(p, k), "", 0)
					f = float64(ms)
				} else {
					f, err = number(bv, join(p, k))
				}
				switch k {
				case "min":
					a.ExtendedMin = f
				case "max":
					a.ExtendedMax = f
				default:
					return errorf(edge.CodeInvalidQuery, p, "unknown extended_bounds member ["+clip(k)+"]")
				}
				a.HasExtended = true
				return err
			})
		case key == "precision_threshold" && typ == AggCardinality:
			_, err = integer(val, p, 0, 1<<31-1)
		case key == "missing":
			err = errorf(edge.CodeInvalidQuery, p, "[missing] values are not supported; use a missing aggregation")
		default:
			err = errorf(edge.CodeInvalidQuery, path, "["+typ.String()+"] aggregation does not support ["+clip(key)+"]")
		}
		return err
	})
	if err != nil {
		return err
	}
	if a.Field == "" {
		return errorf(edge.CodeInvalidQuery, path, "["+typ.String()+"] aggregation requires a field")
	}
	switch typ {
	case AggRange, AggDateRange:
		if len(a.Ranges) == 0 {
			return errorf(edge.CodeInvalidQuery, path, "no [ranges] specified for the ["+typ.String()+"] aggregation")
		}
	case AggHistogram:
		if a.Interval <= 0 {
			return errorf(edge.CodeInvalidQuery, path, "[interval] must be given")
		}
	case AggDateHistogram:
		switch {
		case a.Calendar == "" && a.Interval == 0:
			return errorf(edge.CodeInvalidQuery, path, "date_histogram requires calendar_interval or fixed_interval")
		case a.Calendar != "" && a.Interval != 0:
			return errorf(edge.CodeInvalidQuery, path, "give calendar_interval or fixed_interval, not both")
		}
	}
	return nil
}

func aggOrder(v jsonr.Result, path string) ([]BucketOrder, error) {
	var out []BucketOrder
	one := func(o jsonr.Result, p string) error {
		return (&decoder{lim: Limits{}.withDefaults()}).members(o, p, func(k string, val jsonr.Result) error {
			s, err := strictStr(val, join(p, k))
			if err != nil {
				return err
			}
			desc, err := sortOrder(s, join(p, k))
			if k == "_term" {
				k = "_key"
			}
			out = append(out, BucketOrder{Key: k, Desc: desc})
			return err
		})
	}
	var err error
	if v.IsArray() {
		i := 0
		v.ForEach(func(_, o jsonr.Result) bool {
			err = one(o, index(path, i))
			i++
			return err == nil && len(out) <= 16
		})
	} else {
		err = one(v, path)
	}
	if err == nil && len(out) == 0 {
		err = errorf(edge.CodeInvalidArgument, path, "order needs at least one key")
	}
	return out, err
}

func (d *decoder) aggRanges(v jsonr.Result, path string, dates bool) ([]RangeSpec, error) {
	if !v.IsArray() {
		return nil, wrongType(path, "an array of ranges", v)
	}
	var out []RangeSpec
	var err error
	i := 0
	v.ForEach(func(_, r jsonr.Result) bool {
		p := index(path, i)
		i++
		if len(out) >= 1024 {
			err = errorf(edge.CodeTooComplex, path, "more than 1024 ranges")
			return false
		}
		ar := RangeSpec{From: math.Inf(-1), To: math.Inf(1)}
		err = d.members(r, p, func(k string, val jsonr.Result) error {
			pp := join(p, k)
			if val.Type == jsonr.Null && (k == "from" || k == "to") {
				return nil
			}
			var f float64
			var err error
			switch k {
			case "key":
				ar.Key, err = strictStr(val, pp)
				return err
			case "from", "to":
				if dates && val.Type == jsonr.String {
					var ms int64
					ms, err = dateBound(val, pp, "", 0)
					f = float64(ms)
				} else {
					f, err = number(val, pp)
				}
			default:
				return errorf(edge.CodeInvalidQuery, p, "a range has key, from and to; not ["+clip(k)+"]")
			}
			if k == "from" {
				ar.From = f
			} else {
				ar.To = f
			}
			return err
		})
		if err != nil {
			return false
		}
		out = append(out, ar)
		return true
	})
	if err != nil {
		return nil, err
	}
	// Elasticsearch sorts the ranges by from, then to (RangeAggregator.sortRanges),
	// stably, and answers in that order.
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && (out[j].From < out[j-1].From || out[j].From == out[j-1].From && out[j].To < out[j-1].To); j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out, nil
}

// calendarUnit parses a calendar_interval: minute/1m, hour/1h, day/1d, week/1w,
// month/1M, quarter/1q, year/1y.
func calendarUnit(s, path string) (string, error) {
	switch s {
	case "minute", "1m":
		return CalMinute, nil
	case "hour", "1h":
		return CalHour, nil
	case "day", "1d":
		return CalDay, nil
	case "week", "1w":
		return CalWeek, nil
	case "month", "1M":
		return CalMonth, nil
	case "quarter", "1q":
		return CalQuarter, nil
	case "year", "1y":
		return CalYear, nil
	}
	return "", errorf(edge.CodeInvalidArgument, path, "the calendar interval ["+clip(s)+"] is not supported; use minute, hour, day, week, month, quarter or year (or 1m, 1h, 1d, 1w, 1M, 1q, 1y)")
}

// fixedInterval parses a fixed_interval such as 30d, 12h, 90m, 10s, 500ms, in ms.
func fixedInterval(s, path string) (float64, error) {
	f, err := signedInterval(s, path)
	if err != nil {
		return 0, err
	}
	if f <= 0 {
		return 0, errorf(edge.CodeInvalidArgument, path, "the fixed interval must be positive")
	}
	return f, nil
}

func signedInterval(s, path string) (float64, error) {
	t := strings.TrimSpace(s)
	neg := false
	if strings.HasPrefix(t, "+") {
		t = t[1:]
	} else if strings.HasPrefix(t, "-") {
		neg, t = true, t[1:]
	}
	units := []struct {
		suffix string
		ms     float64
	}{{"ms", 1}, {"s", 1000}, {"m", 60000}, {"h", 3600000}, {"d", 86400000}}
	for _, u := range units {
		if num, ok := strings.CutSuffix(t, u.suffix); ok && num != "" {
			n, err := strconv.ParseInt(num, 10, 64)
			if err != nil || n < 0 || n > 1<<40 {
				break
			}
			v := float64(n) * u.ms
			if neg {
				v = -v
			}
			return v, nil
		}
	}
	return 0, errorf(edge.CodeInvalidArgument, path, "failed to parse ["+clip(s)+"] as a time interval; use a whole number with ms, s, m, h or d (calendar units go in calendar_interval)")
}
