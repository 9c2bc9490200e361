package dsl

import (
	"math"
	"strconv"
	"strings"

	"github.com/cdaedge/cdaedge/edge/jsonw"
	"github.com/cdaedge/cdaedge/edge/query"
)

// Aggregation results rendered as Elasticsearch renders them (API.md D10, D12): buckets
// with "key" and "doc_count", "key_as_string" for dates and booleans, keyed buckets as
// objects, metric values printed as Java prints doubles, members in Elasticsearch's order.

// AppendAggregations appends the JSON object of an answer's "aggregations": results[i]
// answers aggs[i] (eval.Engine.Aggregate computes them from the same aggs, which is
// what the results' shape must follow). Rendering cannot fail.
func AppendAggregations(dst []byte, aggs []*query.Agg, results []query.AggResult) []byte {
	dst = append(dst, '{')
	for i, a := range aggs {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = jsonw.String(dst, a.Name)
		dst = append(dst, ':')
		dst = appendAgg(dst, a, &results[i])
	}
	return append(dst, '}')
}

func appendAgg(dst []byte, a *query.Agg, r *query.AggResult) []byte {
	dst = append(dst, '{')
	if a.Meta != "" {
		dst = append(dst, `"meta":`...)
		dst = append(dst, a.Meta...)
		dst = append(dst, ',')
	}
	switch a.Kind {
	case query.AggTerms:
		dst = appendTerms(dst, a, r)
	case query.AggRange, query.AggDateRange:
		dst = appendRanges(dst, a, r)
	case query.AggHistogram, query.AggDateHistogram:
		dst = appendHistogram(dst, a, r)
	case query.AggMissing, query.AggFilter:
		dst = append(dst, `"doc_count":`...)
		dst = jsonw.Int(dst, int64(r.DocCount))
		dst = appendSubs(dst, a, r.Subs)
	default:
		dst = appendMetric(dst, a, r)
	}
	return append(dst, '}')
}

// appendSubs appends the members of a's sub-aggregations, each after a comma.
func appendSubs(dst []byte, a *query.Agg, subs []query.AggResult) []byte {
	for i, s := range a.Subs {
		dst = append(dst, ',')
		dst = jsonw.String(dst, s.Name)
		dst = append(dst, ':')
		dst = appendAgg(dst, s, &subs[i])
	}
	return dst
}

// beginString opens a JSON string whose text the caller appends in place, to end it with
// endString: dates and numbers are formatted straight into dst, without a copy.
func beginString(dst []byte) ([]byte, int) {
	open := len(dst)
	return append(dst, '"'), open
}

// endString closes the JSON string opened at dst[open]. Text that JSON takes as it is
// (printable ASCII but '"' and '\') stays in place; other text, which only a date
// format's literals can bring, is written again through jsonw.String.
func endString(dst []byte, open int) []byte {
	for _, c := range dst[open+1:] {
		if c < 0x20 || c >= 0x80 || c == '"' || c == '\\' {
			text := string(dst[open+1:])
			return jsonw.String(dst[:open], text)
		}
	}
	return append(dst, '"')
}

// appendDateString appends ms in the format as a JSON string.
func appendDateString(dst []byte, ms int64, format string) []byte {
	dst, open := beginString(dst)
	dst, _ = FormatMillis(dst, ms, format)
	return endString(dst, open)
}

// ---- terms ----

func appendTerms(dst []byte, a *query.Agg, r *query.AggResult) []byte {
	dst = append(dst, `"doc_count_error_upper_bound":0,"sum_other_doc_count":`...)
	dst = jsonw.Int(dst, int64(r.OtherDocCount))
	dst = append(dst, `,"buckets":[`...)
	for i := range r.Buckets {
		b := &r.Buckets[i]
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, `{"key":`...)
		switch b.Key.Kind {
		case query.ScalarString:
			dst = jsonw.String(dst, b.Key.Str)
		case query.ScalarNumber:
			dst = appendNumberKey(dst, b.Key.Number)
		case query.ScalarDate:
			// Terms print dates in the default format, whatever the request's format.
			dst = jsonw.Int(dst, b.Key.Millis)
			dst = append(dst, `,"key_as_string":`...)
			dst = appendDateString(dst, b.Key.Millis, "")
		case query.ScalarBool:
			if b.Key.Bool {
				dst = append(dst, `1,"key_as_string":"true"`...)
			} else {
				dst = append(dst, `0,"key_as_string":"false"`...)
			}
		}
		dst = append(dst, `,"doc_count":`...)
		dst = jsonw.Int(dst, int64(b.DocCount))
		dst = appendSubs(dst, a, b.Subs)
		dst = append(dst, '}')
	}
	return append(dst, ']')
}

// appendNumberKey prints a numeric bucket key: whole numbers as integers (a long field
// under Elasticsearch's dynamic mapping), others as Java doubles. It is also the text
// that include and exclude values are matched with (see keyScalars).
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

func appendRanges(dst []byte, a *query.Agg, r *query.AggResult) []byte {
	// Bounds print as dates too for date_range, and for range on a date member.
	isDate := a.Kind == query.AggDateRange || r.Dates
	bound := func(dst []byte, v float64) []byte {
		if isDate {
			out, _ := FormatMillis(dst, int64(v), a.Format)
			return out
		}
		return appendJavaDouble(dst, v)
	}
	if a.Keyed {
		dst = append(dst, `"buckets":{`...)
	} else {
		dst = append(dst, `"buckets":[`...)
	}
	for i, rg := range a.Ranges {
		if i > 0 {
			dst = append(dst, ',')
		}
		if !a.Keyed {
			dst = append(dst, `{"key":`...)
		}
		if rg.Key != "" {
			dst = jsonw.String(dst, rg.Key)
		} else {
			var open int
			dst, open = beginString(dst)
			if math.IsInf(rg.From, -1) {
				dst = append(dst, '*')
			} else {
				dst = bound(dst, rg.From)
			}
			dst = append(dst, '-')
			if math.IsInf(rg.To, 1) {
				dst = append(dst, '*')
			} else {
				dst = bound(dst, rg.To)
			}
			dst = endString(dst, open)
		}
		if a.Keyed {
			dst = append(dst, `:{`...)
		} else {
			dst = append(dst, ',')
		}
		if !math.IsInf(rg.From, -1) {
			dst = append(dst, `"from":`...)
			dst = appendJavaDouble(dst, rg.From)
			if isDate {
				dst = append(dst, `,"from_as_string":`...)
				dst = appendDateString(dst, int64(rg.From), a.Format)
			}
			dst = append(dst, ',')
		}
		if !math.IsInf(rg.To, 1) {
			dst = append(dst, `"to":`...)
			dst = appendJavaDouble(dst, rg.To)
			if isDate {
				dst = append(dst, `,"to_as_string":`...)
				dst = appendDateString(dst, int64(rg.To), a.Format)
			}
			dst = append(dst, ',')
		}
		b := &r.Buckets[i]
		dst = append(dst, `"doc_count":`...)
		dst = jsonw.Int(dst, int64(b.DocCount))
		dst = appendSubs(dst, a, b.Subs)
		dst = append(dst, '}')
	}
	if a.Keyed {
		return append(dst, '}')
	}
	return append(dst, ']')
}

// ---- histograms ----

func appendHistogram(dst []byte, a *query.Agg, r *query.AggResult) []byte {
	dates := a.Kind == query.AggDateHistogram
	if a.Keyed {
		dst = append(dst, `"buckets":{`...)
	} else {
		dst = append(dst, `"buckets":[`...)
	}
	for i := range r.Buckets {
		b := &r.Buckets[i]
		if i > 0 {
			dst = append(dst, ',')
		}
		// A keyed bucket's member name is its key as a string, which for dates is also
		// its key_as_string: written once, copied.
		nameStart, nameEnd := 0, 0
		if a.Keyed {
			nameStart = len(dst)
			if dates {
				dst = appendZonedString(dst, b.Key.Millis, a.TimeZone, a.Format)
			} else {
				var open int
				dst, open = beginString(dst)
				dst = appendJavaDouble(dst, b.Key.Number)
				dst = endString(dst, open)
			}
			nameEnd = len(dst)
			dst = append(dst, ':')
		}
		dst = append(dst, '{')
		if dates {
			dst = append(dst, `"key_as_string":`...)
			if a.Keyed {
				dst = append(dst, dst[nameStart:nameEnd]...)
			} else {
				dst = appendZonedString(dst, b.Key.Millis, a.TimeZone, a.Format)
			}
			dst = append(dst, `,"key":`...)
			dst = jsonw.Int(dst, b.Key.Millis)
		} else {
			dst = append(dst, `"key":`...)
			dst = appendJavaDouble(dst, b.Key.Number)
		}
		dst = append(dst, `,"doc_count":`...)
		dst = jsonw.Int(dst, int64(b.DocCount))
		dst = appendSubs(dst, a, b.Subs)
		dst = append(dst, '}')
	}
	if a.Keyed {
		return append(dst, '}')
	}
	return append(dst, ']')
}

// appendZonedString appends ms in the format and time zone as a JSON string: the
// default format shows the offset as Elasticsearch does
// ("2020-01-01T00:00:00.000+01:00").
func appendZonedString(dst []byte, ms, tz int64, format string) []byte {
	dst, open := beginString(dst)
	dst = appendZoned(dst, ms, tz, format)
	return endString(dst, open)
}

// appendZoned formats ms in the format and time zone (see appendZonedString).
func appendZoned(dst []byte, ms, tz int64, format string) []byte {
	start := len(dst)
	dst, _ = FormatMillis(dst, ms+tz, format)
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

func appendMetric(dst []byte, a *query.Agg, r *query.AggResult) []byte {
	m := &r.Metric
	has := m.Count > 0
	switch a.Kind {
	case query.AggValueCount, query.AggCardinality:
		dst = append(dst, `"value":`...)
		return jsonw.Int(dst, int64(m.Count))
	case query.AggSum:
		// A sum is never null (0.0 over no value) and never printed as a date.
		dst = append(dst, `"value":`...)
		return appendJavaDouble(dst, m.Sum)
	case query.AggStats:
		// Elasticsearch's InternalStats: count, min, max, avg, sum, then the
		// *_as_string forms for dates.
		dst = append(dst, `"count":`...)
		dst = jsonw.Int(dst, int64(m.Count))
		dst = append(dst, ',')
		dst = appendMetricValue(dst, "min", m.Min, has)
		dst = append(dst, ',')
		dst = appendMetricValue(dst, "max", m.Max, has)
		dst = append(dst, ',')
		dst = appendMetricValue(dst, "avg", m.Avg, has)
		dst = append(dst, `,"sum":`...)
		dst = appendJavaDouble(dst, m.Sum)
		if has && r.Dates {
			dst = appendAsString(dst, "min", m.Min, a.Format)
			dst = appendAsString(dst, "max", m.Max, a.Format)
			dst = appendAsString(dst, "avg", m.Avg, a.Format)
			dst = appendAsString(dst, "sum", m.Sum, a.Format)
		}
		return dst
	}
	v := m.Avg
	switch a.Kind {
	case query.AggMin:
		v = m.Min
	case query.AggMax:
		v = m.Max
	}
	dst = appendMetricValue(dst, "value", v, has)
	if has && r.Dates {
		dst = appendAsString(dst, "value", v, a.Format)
	}
	return dst
}

// appendMetricValue appends the member "name":v, or "name":null when !has. The names
// are constants that need no escaping.
func appendMetricValue(dst []byte, name string, v float64, has bool) []byte {
	dst = append(dst, '"')
	dst = append(dst, name...)
	dst = append(dst, `":`...)
	if !has {
		return append(dst, "null"...)
	}
	return appendJavaDouble(dst, v)
}

// appendAsString appends the member ,"name_as_string": the date v in the format.
func appendAsString(dst []byte, name string, v float64, format string) []byte {
	dst = append(dst, `,"`...)
	dst = append(dst, name...)
	dst = append(dst, `_as_string":`...)
	return appendDateString(dst, int64(v), format)
}
