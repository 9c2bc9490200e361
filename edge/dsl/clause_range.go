package dsl

import (
	"strconv"
	"strings"

	"github.com/cdaedge/cdaedge/edge"
	"github.com/cdaedge/cdaedge/edge/datetime"
	"github.com/cdaedge/cdaedge/edge/jsonr"
	"github.com/cdaedge/cdaedge/edge/query"
)

func (d *decoder) rangeClause(body jsonr.Result, path string) (query.Query, error) {
	field, fv, err := d.single(body, path, "range")
	if err != nil {
		return nil, err
	}
	fp := join(path, field)
	if !fv.IsObject() {
		return nil, wrongType(fp, "an object of bounds such as {\"gte\": ...}", fv)
	}
	var lo, hi *rangeEnd
	inclLo, inclHi := true, true
	var fromTo [2]*rangeEnd
	b := 1.0
	var format, zone string
	err = d.members(fv, fp, func(key string, val jsonr.Result) error {
		if ok, err := isCommon(key, val, fp, &b); ok {
			return err
		}
		p := join(fp, key)
		var err error
		switch key {
		case "gte", "gt":
			lo = &rangeEnd{val, key == "gte", p}
		case "lte", "lt":
			hi = &rangeEnd{val, key == "lte", p}
		case "from":
			fromTo[0] = &rangeEnd{val, true, p}
		case "to":
			fromTo[1] = &rangeEnd{val, true, p}
		case "include_lower":
			inclLo, err = boolean(val, p)
		case "include_upper":
			inclHi, err = boolean(val, p)
		case "format":
			format, err = strictStr(val, p)
		case "time_zone":
			zone, err = strictStr(val, p)
		case "relation":
			var s string
			if s, err = strictStr(val, p); err == nil && !strings.EqualFold(s, "intersects") && !strings.EqualFold(s, "within") && !strings.EqualFold(s, "contains") {
				err = errorf(edge.CodeInvalidArgument, p, "must be INTERSECTS, WITHIN or CONTAINS")
			}
		default:
			return unsupported(fp, "range", key)
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	if lo == nil && fromTo[0] != nil {
		lo = fromTo[0]
		lo.incl = inclLo
	}
	if hi == nil && fromTo[1] != nil {
		hi = fromTo[1]
		hi.incl = inclHi
	}
	if lo != nil && lo.v.Type == jsonr.Null {
		lo = nil
	}
	if hi != nil && hi.v.Type == jsonr.Null {
		hi = nil
	}
	if err := d.count(1, path); err != nil {
		return nil, err
	}
	if lo == nil && hi == nil {
		// Elasticsearch rewrites an unbounded range to exists.
		return boosted(query.Exists{Field: field}, b), nil
	}
	kind := d.kindOf(field)
	q := query.Range{Field: field}
	var offset int64
	if zone != "" {
		offset, err = zoneOffset(zone, join(fp, "time_zone"))
		if err != nil {
			return nil, err
		}
	}
	if lo != nil {
		if q.Lower, err = rangeBound(kind, lo, false, format, offset); err != nil {
			return nil, err
		}
	}
	if hi != nil {
		if q.Upper, err = rangeBound(kind, hi, true, format, offset); err != nil {
			return nil, err
		}
	}
	return boosted(q, b), nil
}

// rangeEnd is one bound of a range clause as written: gte/gt/lte/lt, or from/to with
// include_lower/include_upper.
type rangeEnd struct {
	v    jsonr.Result
	incl bool
	path string
}

// rangeBound converts a bound to the field's kind: dates to inclusive milliseconds
// (in time_zone offset unless the text has a zone), numbers and booleans as such,
// other fields by the JSON type of the value.
func rangeBound(kind fieldKind, bd *rangeEnd, upper bool, format string, offset int64) (*query.Bound, error) {
	v := bd.v
	switch kind {
	case kindDate:
		ms, err := dateBound(v, bd.path, format, offset)
		if err != nil {
			return nil, err
		}
		// Printed as Elasticsearch prints date ranges: inclusive milliseconds.
		if !bd.incl {
			if upper {
				ms--
			} else {
				ms++
			}
		}
		return &query.Bound{Value: dateScalar(ms), Inclusive: true}, nil
	case kindNumber:
		f, err := number(v, bd.path)
		if err != nil {
			return nil, err
		}
		return &query.Bound{Value: query.Scalar{Kind: query.ScalarNumber, Number: f, Text: strings.Trim(v.Raw, `"`)}, Inclusive: bd.incl}, nil
	case kindBool:
		bl, err := boolean(v, bd.path)
		if err != nil {
			return nil, err
		}
		return &query.Bound{Value: query.Scalar{Kind: query.ScalarBool, Bool: bl, Text: strconv.FormatBool(bl)}, Inclusive: bd.incl}, nil
	}
	switch v.Type {
	case jsonr.Number:
		return &query.Bound{Value: query.Scalar{Kind: query.ScalarNumber, Number: v.Num, Text: v.Raw}, Inclusive: bd.incl}, nil
	case jsonr.String:
		return &query.Bound{Value: query.Scalar{Kind: query.ScalarString, Str: v.Str, Text: v.Str}, Inclusive: bd.incl}, nil
	case jsonr.True, jsonr.False:
		bl := v.Type == jsonr.True
		return &query.Bound{Value: query.Scalar{Kind: query.ScalarBool, Bool: bl, Text: v.Raw}, Inclusive: bd.incl}, nil
	}
	return nil, wrongType(bd.path, "a string, a number or a boolean", v)
}

// dateBound parses a date bound (D5, D12): a date-time string (the start of the unit
// written; a zone-less value is in time_zone, default UTC), or epoch milliseconds.
func dateBound(v jsonr.Result, path, format string, offset int64) (int64, error) {
	switch v.Type {
	case jsonr.Number:
		if format == "epoch_second" {
			return int64(v.Num * 1000), nil
		}
		return int64(v.Num), nil
	case jsonr.String:
		s := strings.TrimSpace(v.Str)
		if strings.HasPrefix(s, "now") || strings.Contains(s, "||") {
			return 0, errorf(edge.CodeInvalidArgument, path, "date math (\""+edge.Clip(s)+"\") is not supported: responses are cached, so give an explicit date-time")
		}
		switch format {
		case "epoch_millis", "epoch_second":
			n, err := strconv.ParseInt(s, 10, 64)
			if err != nil {
				return 0, errorf(edge.CodeInvalidArgument, path, "\""+edge.Clip(s)+"\" is not "+format)
			}
			if format == "epoch_second" {
				n *= 1000
			}
			return n, nil
		}
		inst, err := datetime.Parse(s)
		if err != nil {
			return 0, errorf(edge.CodeInvalidArgument, path, err.Error())
		}
		ms := inst.Millis
		if !hasZone(s) {
			ms -= offset
		}
		return ms, nil
	}
	return 0, wrongType(path, "a date-time string or epoch milliseconds", v)
}

// hasZone reports whether a date-time text ends in Z or ±hh:mm.
func hasZone(s string) bool {
	if strings.HasSuffix(s, "Z") || strings.HasSuffix(s, "z") {
		return true
	}
	if !strings.Contains(s, "T") {
		return false
	}
	n := len(s)
	return n >= 6 && (s[n-6] == '+' || s[n-6] == '-') && s[n-3] == ':'
}

// zoneOffset parses a time_zone: UTC, Z or a fixed offset ±hh:mm, in milliseconds.
func zoneOffset(z, path string) (int64, error) {
	switch z {
	case "UTC", "Z", "Etc/UTC", "GMT", "+00:00", "-00:00":
		return 0, nil
	}
	if len(z) == 6 && (z[0] == '+' || z[0] == '-') && z[3] == ':' {
		h, err1 := strconv.Atoi(z[1:3])
		m, err2 := strconv.Atoi(z[4:6])
		if err1 == nil && err2 == nil && h <= 18 && m < 60 {
			off := int64(h*3600000 + m*60000)
			if z[0] == '-' {
				off = -off
			}
			return off, nil
		}
	}
	return 0, errorf(edge.CodeInvalidArgument, path, "time_zone must be UTC or a fixed offset such as +02:00, not \""+edge.Clip(z)+"\"")
}
