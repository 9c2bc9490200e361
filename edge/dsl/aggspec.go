package dsl

import (
	"math"
	"strconv"
	"strings"

	"github.com/cdaedge/cdaedge/edge"
	"github.com/cdaedge/cdaedge/edge/datetime"
	"github.com/cdaedge/cdaedge/snapshot"

	"github.com/cdaedge/cdaedge/edge/jsonr"
	"github.com/cdaedge/cdaedge/edge/query"
)

// The "aggs" of a search body (API.md D10), decoded into the query model's query.Agg;
// aggrender.go writes what the evaluator computes for them.

// maxAggDepth bounds sub-aggregation nesting.
const maxAggDepth = 8

// aggs decodes an "aggs" object: {"<name>": {"<type>": {...}, "aggs": {...}, "meta": {...}}}.
func (d *decoder) aggs(v jsonr.Result, path string, depth int) ([]*query.Agg, error) {
	if depth >= maxAggDepth {
		return nil, errorf(edge.CodeTooComplex, path, "aggregations nest deeper than "+strconv.Itoa(maxAggDepth)+" levels")
	}
	if !v.IsObject() {
		return nil, wrongType(path, "an object of named aggregations", v)
	}
	var out []*query.Agg
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

func (d *decoder) agg(name string, body jsonr.Result, path string, depth int) (*query.Agg, error) {
	a := &query.Agg{Name: name}
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
		// The model's kinds are named as the DSL names them.
		for k := query.AggTerms; k <= query.AggFilter; k++ {
			if k.String() == key {
				if a.Kind != 0 {
					return errorf(edge.CodeInvalidQuery, path, "found two aggregation types in ["+edge.Clip(name)+"]: ["+a.Kind.String()+"] and ["+key+"]")
				}
				a.Kind, spec, specPath = k, val, join(path, key)
				return nil
			}
		}
		return errorf(edge.CodeInvalidQuery, path, "unknown aggregation type ["+edge.Clip(key)+"]; supported: terms, range, date_range, histogram, date_histogram, min, max, avg, sum, stats, value_count, cardinality, missing, filter")
	})
	if err != nil {
		return nil, err
	}
	if a.Kind == 0 {
		return nil, errorf(edge.CodeInvalidQuery, path, "aggregation ["+edge.Clip(name)+"] has no type")
	}
	if a.Kind == query.AggFilter {
		if a.Filter, err = d.query(spec, specPath, 0); err != nil {
			return nil, err
		}
	} else if err := d.aggSpec(a, spec, specPath); err != nil {
		return nil, err
	}
	if subs != nil {
		if a.Kind.IsMetric() {
			return nil, errorf(edge.CodeInvalidQuery, path, "aggregator ["+edge.Clip(name)+"] of type ["+a.Kind.String()+"] cannot accept sub-aggregations")
		}
		if a.Subs, err = d.aggs(*subs, join(path, "aggs"), depth+1); err != nil {
			return nil, err
		}
	}
	for _, o := range a.Order {
		if o.By != query.ByMetric {
			continue
		}
		ok := false
		for _, s := range a.Subs {
			if s.Name == o.Metric && s.Kind.IsSingleValueMetric() {
				ok = true
			}
		}
		if !ok {
			return nil, errorf(edge.CodeInvalidArgument, join(specPath, "order"), "invalid aggregation order path ["+edge.Clip(o.Metric)+"]: name _count, _key or a single-value metric sub-aggregation")
		}
	}
	return a, nil
}

func (d *decoder) aggSpec(a *query.Agg, spec jsonr.Result, path string) error {
	kind := a.Kind
	switch kind {
	case query.AggTerms:
		a.Size, a.MinDocCount = 10, 1
		a.Order = []query.BucketOrder{{By: query.ByCount, Desc: true}, {By: query.ByKey}}
	case query.AggHistogram, query.AggDateHistogram:
		a.Order = []query.BucketOrder{{By: query.ByKey}}
	}
	fixed := ""
	err := d.members(spec, path, func(key string, val jsonr.Result) error {
		p := join(path, key)
		var err error
		switch {
		case key == "field":
			a.Field, err = strictStr(val, p)
		case key == "size" && kind == query.AggTerms:
			a.Size, err = integer(val, p, 1, 65536)
		case key == "min_doc_count" && (kind == query.AggTerms || kind == query.AggHistogram || kind == query.AggDateHistogram):
			a.MinDocCount, err = integer(val, p, 0, 1<<31-1)
		case key == "order" && (kind == query.AggTerms || kind == query.AggHistogram || kind == query.AggDateHistogram):
			a.Order, err = aggOrder(val, p)
			if err == nil && kind == query.AggTerms {
				// Ties break by key ascending, as Elasticsearch adds _key asc.
				if a.Order[len(a.Order)-1].By != query.ByKey {
					a.Order = append(a.Order, query.BucketOrder{By: query.ByKey})
				}
			}
		case (key == "include" || key == "exclude") && kind == query.AggTerms:
			var list []string
			if val.Type == jsonr.String {
				return errorf(edge.CodeInvalidQuery, p, "regular-expression include/exclude is not supported; give an array of exact values")
			}
			if list, err = patternList(val, p); err == nil {
				if key == "include" {
					a.Include = keyScalars(list)
				} else {
					a.Exclude = keyScalars(list)
				}
			}
		case (key == "shard_size" || key == "shard_min_doc_count") && kind == query.AggTerms:
			_, err = integer(val, p, 0, 1<<31-1)
		case (key == "show_term_doc_count_error") && kind == query.AggTerms:
			_, err = boolean(val, p)
		case (key == "execution_hint" || key == "collect_mode") && kind == query.AggTerms:
			_, err = strictStr(val, p)
		case key == "ranges" && (kind == query.AggRange || kind == query.AggDateRange):
			a.Ranges, err = d.aggRanges(val, p, kind == query.AggDateRange || snapshot.IsDateMember(a.Field))
		case key == "keyed" && (kind == query.AggRange || kind == query.AggDateRange || kind == query.AggHistogram || kind == query.AggDateHistogram):
			a.Keyed, err = boolean(val, p)
		case key == "calendar_interval" && kind == query.AggDateHistogram:
			var s string
			if s, err = strictStr(val, p); err == nil {
				a.Calendar, err = calendarUnit(s, p)
			}
		case key == "fixed_interval" && kind == query.AggDateHistogram:
			if fixed, err = strictStr(val, p); err == nil {
				a.Interval, err = fixedInterval(fixed, p)
			}
		case key == "interval" && kind == query.AggDateHistogram:
			err = errorf(edge.CodeInvalidArgument, p, "[interval] was removed in Elasticsearch 8; use calendar_interval or fixed_interval")
		case key == "interval" && kind == query.AggHistogram:
			if a.Interval, err = number(val, p); err == nil && a.Interval <= 0 {
				err = errorf(edge.CodeInvalidArgument, p, "interval must be greater than 0")
			}
		case key == "offset" && kind == query.AggHistogram:
			a.Offset, err = number(val, p)
		case key == "offset" && kind == query.AggDateHistogram:
			var s string
			if s, err = strictStr(val, p); err == nil {
				a.Offset, err = signedInterval(s, p)
			}
		case key == "time_zone" && (kind == query.AggDateHistogram || kind == query.AggDateRange):
			var s string
			if s, err = strictStr(val, p); err == nil {
				a.TimeZone, err = zoneOffset(s, p)
			}
		case key == "format" && (kind == query.AggDateHistogram || kind == query.AggDateRange || kind == query.AggMin || kind == query.AggMax):
			if a.Format, err = strictStr(val, p); err == nil {
				if _, ok := FormatMillis(nil, 0, a.Format); !ok {
					err = errorf(edge.CodeInvalidArgument, p, "unsupported date format ["+edge.Clip(a.Format)+"]; use a pattern of yyyy, MM, dd, HH, mm, ss, SSS and literals, or strict_date_optional_time, date, epoch_millis")
				}
			}
		case (key == "extended_bounds") && (kind == query.AggHistogram || kind == query.AggDateHistogram):
			err = d.extendedBounds(a, val, p)
		case key == "precision_threshold" && kind == query.AggCardinality:
			_, err = integer(val, p, 0, 1<<31-1)
		case key == "missing":
			err = errorf(edge.CodeInvalidQuery, p, "[missing] values are not supported; use a missing aggregation")
		default:
			err = errorf(edge.CodeInvalidQuery, path, "["+kind.String()+"] aggregation does not support ["+edge.Clip(key)+"]")
		}
		return err
	})
	if err != nil {
		return err
	}
	return checkAggSpec(a, path)
}

// checkAggSpec checks that a decoded aggregation has what its kind requires.
func checkAggSpec(a *query.Agg, path string) error {
	kind := a.Kind
	if a.Field == "" {
		return errorf(edge.CodeInvalidQuery, path, "["+kind.String()+"] aggregation requires a field")
	}
	switch kind {
	case query.AggRange, query.AggDateRange:
		if len(a.Ranges) == 0 {
			return errorf(edge.CodeInvalidQuery, path, "no [ranges] specified for the ["+kind.String()+"] aggregation")
		}
	case query.AggHistogram:
		if a.Interval <= 0 {
			return errorf(edge.CodeInvalidQuery, path, "[interval] must be given")
		}
	case query.AggDateHistogram:
		switch {
		case a.Calendar == query.CalendarNone && a.Interval == 0:
			return errorf(edge.CodeInvalidQuery, path, "date_histogram requires calendar_interval or fixed_interval")
		case a.Calendar != query.CalendarNone && a.Interval != 0:
			return errorf(edge.CodeInvalidQuery, path, "give calendar_interval or fixed_interval, not both")
		}
	}
	return nil
}

// extendedBounds decodes a histogram's extended_bounds ({"min": ..., "max": ...}; dates
// may be written as strings for date_histogram).
func (d *decoder) extendedBounds(a *query.Agg, val jsonr.Result, p string) error {
	return d.members(val, p, func(k string, bv jsonr.Result) error {
		var f float64
		var err error
		if a.Kind == query.AggDateHistogram && bv.Type == jsonr.String {
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
			return errorf(edge.CodeInvalidQuery, p, "unknown extended_bounds member ["+edge.Clip(k)+"]")
		}
		a.HasExtended = true
		return err
	})
}

func aggOrder(v jsonr.Result, path string) ([]query.BucketOrder, error) {
	var out []query.BucketOrder
	one := func(o jsonr.Result, p string) error {
		return (&decoder{lim: Limits{}.withDefaults()}).members(o, p, func(k string, val jsonr.Result) error {
			s, err := strictStr(val, join(p, k))
			if err != nil {
				return err
			}
			desc, err := sortOrder(s, join(p, k))
			switch k {
			case "_count":
				out = append(out, query.BucketOrder{By: query.ByCount, Desc: desc})
			case "_key", "_term":
				out = append(out, query.BucketOrder{By: query.ByKey, Desc: desc})
			default:
				out = append(out, query.BucketOrder{By: query.ByMetric, Metric: k, Desc: desc})
			}
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

func (d *decoder) aggRanges(v jsonr.Result, path string, dates bool) ([]query.BucketRange, error) {
	if !v.IsArray() {
		return nil, wrongType(path, "an array of ranges", v)
	}
	var out []query.BucketRange
	var err error
	i := 0
	v.ForEach(func(_, r jsonr.Result) bool {
		p := index(path, i)
		i++
		if len(out) >= 1024 {
			err = errorf(edge.CodeTooComplex, path, "more than 1024 ranges")
			return false
		}
		ar := query.BucketRange{From: math.Inf(-1), To: math.Inf(1)}
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
				return errorf(edge.CodeInvalidQuery, p, "a range has key, from and to; not ["+edge.Clip(k)+"]")
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
func calendarUnit(s, path string) (query.CalendarUnit, error) {
	switch s {
	case "minute", "1m":
		return query.CalendarMinute, nil
	case "hour", "1h":
		return query.CalendarHour, nil
	case "day", "1d":
		return query.CalendarDay, nil
	case "week", "1w":
		return query.CalendarWeek, nil
	case "month", "1M":
		return query.CalendarMonth, nil
	case "quarter", "1q":
		return query.CalendarQuarter, nil
	case "year", "1y":
		return query.CalendarYear, nil
	}
	return query.CalendarNone, errorf(edge.CodeInvalidArgument, path, "the calendar interval ["+edge.Clip(s)+"] is not supported; use minute, hour, day, week, month, quarter or year (or 1m, 1h, 1d, 1w, 1M, 1q, 1y)")
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
	return 0, errorf(edge.CodeInvalidArgument, path, "failed to parse ["+edge.Clip(s)+"] as a time interval; use a whole number with ms, s, m, h or d (calendar units go in calendar_interval)")
}

// keyScalars turns the values of a terms include or exclude list into the keys they
// name. Elasticsearch matches a key by its text; a key of the model is typed, so each
// value stands for the string, and for the number, date or boolean whose key prints as
// exactly that text ("5" for 5, "4.5", "1.0E7", "2020-01-01T00:00:00.000Z", "true"):
// matching the typed keys is then matching the printed ones.
func keyScalars(list []string) []query.Scalar {
	out := make([]query.Scalar, 0, len(list))
	var buf []byte
	for _, s := range list {
		out = append(out, query.Scalar{Kind: query.ScalarString, Str: s, Text: s})
		if f, err := strconv.ParseFloat(s, 64); err == nil {
			if buf = appendNumberKey(buf[:0], f); string(buf) == s {
				out = append(out, query.Scalar{Kind: query.ScalarNumber, Number: f, Text: s})
			}
		}
		if in, err := datetime.Parse(s); err == nil {
			if buf = datetime.AppendMillis(buf[:0], in.Millis); string(buf) == s {
				out = append(out, query.Scalar{Kind: query.ScalarDate, Millis: in.Millis, Text: s})
			}
		}
		if s == "true" || s == "false" {
			out = append(out, query.Scalar{Kind: query.ScalarBool, Bool: s == "true", Text: s})
		}
	}
	return out
}
