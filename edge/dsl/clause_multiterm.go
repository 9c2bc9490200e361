package dsl

import (
	"strconv"
	"strings"

	"github.com/cdaedge/cdaedge/edge"
	"github.com/cdaedge/cdaedge/edge/jsonr"
	"github.com/cdaedge/cdaedge/edge/query"
)

// pattern compiles prefix, wildcard and regexp (D10, D12): the pattern as given, unless
// case_insensitive is true.
func (d *decoder) pattern(kind string, body jsonr.Result, path string) (query.Query, error) {
	field, fv, err := d.single(body, path, kind)
	if err != nil {
		return nil, err
	}
	fp := join(path, field)
	b := 1.0
	ci := false
	var value jsonr.Result
	if fv.IsObject() {
		err = d.members(fv, fp, func(key string, val jsonr.Result) error {
			if ok, err := isCommon(key, val, fp, &b); ok {
				return err
			}
			p := join(fp, key)
			var err error
			switch {
			case key == "value" || kind == "wildcard" && key == "wildcard":
				value = val
			case key == "case_insensitive":
				ci, err = boolean(val, p)
			case key == "rewrite":
				_, err = strictStr(val, p)
			case kind == "regexp" && key == "flags":
				_, err = strictStr(val, p)
			case kind == "regexp" && key == "flags_value":
				_, err = integer(val, p, -1<<31, 1<<31-1)
			case kind == "regexp" && key == "max_determinized_states":
				_, err = integer(val, p, 1, 1<<31-1)
			default:
				return unsupported(fp, kind, key)
			}
			return err
		})
		if err != nil {
			return nil, err
		}
		if !value.Exists() {
			return nil, errorf(edge.CodeInvalidQuery, fp, "["+kind+"] requires value")
		}
	} else {
		value = fv
	}
	text, err := scalarText(value, join(fp, "value"))
	if err != nil {
		return nil, err
	}
	if err := d.count(1, path); err != nil {
		return nil, err
	}
	var q query.Query
	switch {
	case ci && kind == "prefix":
		q = query.Regexp{Field: field, Pattern: caseInsensitiveLiteral(text) + ".*"}
	case ci && kind == "wildcard":
		q = query.Regexp{Field: field, Pattern: caseInsensitiveWildcard(text)}
	case ci:
		q = query.Regexp{Field: field, Pattern: caseInsensitiveRegexp(text)}
	case kind == "prefix":
		q = query.Prefix{Field: field, Prefix: text}
	case kind == "wildcard":
		q = query.Wildcard{Field: field, Pattern: text}
	default:
		q = query.Regexp{Field: field, Pattern: text}
	}
	return boosted(q, b), nil
}

func (d *decoder) fuzzy(body jsonr.Result, path string) (query.Query, error) {
	field, fv, err := d.single(body, path, "fuzzy")
	if err != nil {
		return nil, err
	}
	fp := join(path, field)
	b := 1.0
	fz := fuzziness{auto: true, low: 3, high: 6}
	q := query.Fuzzy{Field: field, MaxExpansions: 50, Transpositions: true}
	var value jsonr.Result
	if fv.IsObject() {
		err = d.members(fv, fp, func(key string, val jsonr.Result) error {
			if ok, err := isCommon(key, val, fp, &b); ok {
				return err
			}
			p := join(fp, key)
			var err error
			switch key {
			case "value":
				value = val
			case "fuzziness":
				fz, err = parseFuzziness(val, p)
			case "prefix_length":
				q.PrefixLength, err = integer(val, p, 0, 1<<20)
			case "max_expansions":
				q.MaxExpansions, err = integer(val, p, 1, d.lim.MaxExpansions)
			case "transpositions":
				q.Transpositions, err = boolean(val, p)
			case "rewrite":
				_, err = strictStr(val, p)
			default:
				return unsupported(fp, "fuzzy", key)
			}
			return err
		})
		if err != nil {
			return nil, err
		}
		if !value.Exists() {
			return nil, errorf(edge.CodeInvalidQuery, fp, "[fuzzy] requires value")
		}
	} else {
		value = fv
	}
	text, err := scalarText(value, join(fp, "value"))
	if err != nil {
		return nil, err
	}
	q.Term = text
	q.MaxEdits = fz.edits(text)
	return boosted(q, b), d.count(1, path)
}

// fuzziness is Elasticsearch's Fuzziness: a fixed edit distance, or AUTO[:low,high].
type fuzziness struct {
	auto      bool
	fixed     int
	low, high int
}

func parseFuzziness(v jsonr.Result, path string) (fuzziness, error) {
	var s string
	switch v.Type {
	case jsonr.String:
		s = strings.TrimSpace(v.Str)
	case jsonr.Number:
		s = v.Raw
	default:
		return fuzziness{}, wrongType(path, "AUTO, AUTO:low,high, 0, 1 or 2", v)
	}
	up := strings.ToUpper(s)
	if up == "AUTO" {
		return fuzziness{auto: true, low: 3, high: 6}, nil
	}
	if rest, ok := strings.CutPrefix(up, "AUTO:"); ok {
		a, b, ok := strings.Cut(rest, ",")
		lo, err1 := strconv.Atoi(strings.TrimSpace(a))
		hi, err2 := strconv.Atoi(strings.TrimSpace(b))
		if !ok || err1 != nil || err2 != nil || lo < 0 || hi < lo {
			return fuzziness{}, errorf(edge.CodeInvalidArgument, path, "failed to parse [\""+edge.Clip(s)+"\"] as \"AUTO:int,int\"")
		}
		return fuzziness{auto: true, low: lo, high: hi}, nil
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || f < 0 {
		return fuzziness{}, errorf(edge.CodeInvalidArgument, path, "fuzziness must be AUTO, AUTO:low,high, 0, 1 or 2, not \""+edge.Clip(s)+"\"")
	}
	n := int(f)
	if n > 2 {
		n = 2
	}
	return fuzziness{fixed: n}, nil
}

// edits is Fuzziness.asDistance: AUTO gives 0 edits below low code points, 1 below
// high, else 2.
func (f fuzziness) edits(term string) int {
	if !f.auto {
		return f.fixed
	}
	n := 0
	for range term {
		n++
	}
	switch {
	case n < f.low:
		return 0
	case n < f.high:
		return 1
	}
	return 2
}
