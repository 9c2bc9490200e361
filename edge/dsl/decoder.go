package dsl

import (
	"math"
	"strconv"
	"strings"

	"github.com/cdaedge/cdaedge/edge"
	"github.com/cdaedge/cdaedge/edge/content"
	"github.com/cdaedge/cdaedge/edge/jsonr"
)

// decoder holds one Decode call's state: options, limits and the running clause count.
type decoder struct {
	opts    Options
	lim     Limits
	schema  content.Schema
	clauses int
	aggs_   int
}

func newDecoder(opts Options) *decoder {
	return &decoder{opts: opts, lim: opts.Limits.withDefaults(), schema: opts.Schema}
}

// parseBody validates the body and returns its top-level value, which must be an
// object; a blank body returns a non-existent Result.
func (d *decoder) parseBody(body string) (jsonr.Result, error) {
	if strings.TrimSpace(body) == "" {
		return jsonr.Result{}, nil
	}
	if err := checkJSON(body, d.lim.MaxDepth); err != nil {
		return jsonr.Result{}, err
	}
	v := jsonr.Parse(body)
	if !v.IsObject() {
		return jsonr.Result{}, errorf(edge.CodeInvalidArgument, "", "the search body must be a JSON object, not "+typeName(v))
	}
	return v, nil
}

// count adds n clauses to the request's total and fails past MaxClauses (D11).
func (d *decoder) count(n int, path string) error {
	d.clauses += n
	if d.clauses > d.lim.MaxClauses {
		return errorf(edge.CodeTooComplex, path, "the query has more than "+strconv.Itoa(d.lim.MaxClauses)+" clauses (limit: max clause count)")
	}
	return nil
}

// members calls fn for each member of object v in order; a member given twice is an
// error (Elasticsearch parses JSON with strict duplicate detection).
func (d *decoder) members(v jsonr.Result, path string, fn func(key string, val jsonr.Result) error) error {
	if !v.IsObject() {
		return errorf(edge.CodeInvalidArgument, path, "expected an object, not "+typeName(v))
	}
	// The names seen so far: a request's objects have a few members each, which then
	// allocate nothing (nor does the walk, without a closure of its own).
	var names [8]string
	seen := names[:0]
	var it jsonr.Members
	for it.Reset(v); it.Next(); {
		key := it.Key.Str
		for _, s := range seen {
			if s == key {
				return errorf(edge.CodeInvalidJSON, path, "duplicate member \""+edge.Clip(key)+"\"")
			}
		}
		if len(seen) < 64 {
			seen = append(seen, key)
		}
		if err := fn(key, it.Value); err != nil {
			return err
		}
	}
	return nil
}

// single returns the one member of object v (a clause body such as {"Name": ...}).
func (d *decoder) single(v jsonr.Result, path, clause string) (string, jsonr.Result, error) {
	if !v.IsObject() {
		return "", jsonr.Result{}, errorf(edge.CodeInvalidArgument, path, "["+clause+"] expects an object, not "+typeName(v))
	}
	key, val, second, n := onlyMember(v)
	switch n {
	case 0:
		return "", jsonr.Result{}, errorf(edge.CodeInvalidQuery, path, "["+clause+"] query is missing a field")
	case 2:
		return "", jsonr.Result{}, errorf(edge.CodeInvalidQuery, path, "["+clause+"] query doesn't support multiple fields, found ["+edge.Clip(key)+"] and ["+edge.Clip(second)+"]")
	}
	return key, val, nil
}

// onlyMember reads the first member of object v and the name of a second one: n is
// how many it found, 0, 1 or 2 (it stops at the second). A walk without a closure:
// under TinyGo, the locals a closure assigns each move to the heap, allocations in
// every clause of every request.
func onlyMember(v jsonr.Result) (key string, val jsonr.Result, second string, n int) {
	var it jsonr.Members
	for it.Reset(v); it.Next(); n++ {
		if n == 1 {
			return key, val, it.Key.Str, 2
		}
		key, val = it.Key.Str, it.Value
	}
	return key, val, "", n
}

func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

func index(path string, i int) string { return path + "[" + strconv.Itoa(i) + "]" }

// typeName names a JSON value's type for messages.
func typeName(v jsonr.Result) string {
	switch {
	case !v.Exists():
		return "nothing"
	case v.IsObject():
		return "an object"
	case v.IsArray():
		return "an array"
	}
	switch v.Type {
	case jsonr.String:
		return "a string"
	case jsonr.Number:
		return "a number"
	case jsonr.True, jsonr.False:
		return "a boolean"
	case jsonr.Null:
		return "null"
	}
	return "a value"
}

func wrongType(path, want string, v jsonr.Result) error {
	return errorf(edge.CodeInvalidArgument, path, "must be "+want+", not "+typeName(v))
}

// str reads a string member. Numbers and booleans are taken as their text, as
// Elasticsearch's parser.text() does for string parameters.
func str(v jsonr.Result, path string) (string, error) {
	switch v.Type {
	case jsonr.String:
		return v.Str, nil
	case jsonr.Number, jsonr.True, jsonr.False:
		return v.Raw, nil
	}
	return "", wrongType(path, "a string", v)
}

// strictStr reads a member that must be a JSON string.
func strictStr(v jsonr.Result, path string) (string, error) {
	if v.Type != jsonr.String {
		return "", wrongType(path, "a string", v)
	}
	return v.Str, nil
}

// integer reads a whole number, given as a JSON number or a numeric string, in [lo, hi].
func integer(v jsonr.Result, path string, lo, hi int) (int, error) {
	var f float64
	switch v.Type {
	case jsonr.Number:
		f = v.Num
	case jsonr.String:
		n, err := strconv.ParseFloat(strings.TrimSpace(v.Str), 64)
		if err != nil {
			return 0, errorf(edge.CodeInvalidArgument, path, "must be a whole number, not \""+edge.Clip(v.Str)+"\"")
		}
		f = n
	default:
		return 0, wrongType(path, "a whole number", v)
	}
	if f != math.Trunc(f) || math.IsNaN(f) {
		return 0, errorf(edge.CodeInvalidArgument, path, "must be a whole number, not "+edge.Clip(v.Raw))
	}
	if f < float64(lo) || f > float64(hi) {
		return 0, errorf(edge.CodeInvalidArgument, path, "must be from "+strconv.Itoa(lo)+" to "+strconv.Itoa(hi)+", not "+edge.Clip(strings.Trim(v.Raw, `"`)))
	}
	return int(f), nil
}

// number reads a finite JSON number or numeric string.
func number(v jsonr.Result, path string) (float64, error) {
	switch v.Type {
	case jsonr.Number:
		if math.IsInf(v.Num, 0) || math.IsNaN(v.Num) {
			return 0, errorf(edge.CodeInvalidArgument, path, "number out of range")
		}
		return v.Num, nil
	case jsonr.String:
		f, err := strconv.ParseFloat(strings.TrimSpace(v.Str), 64)
		if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
			return 0, errorf(edge.CodeInvalidArgument, path, "must be a number, not \""+edge.Clip(v.Str)+"\"")
		}
		return f, nil
	}
	return 0, wrongType(path, "a number", v)
}

// boolean reads true/false, or the strings "true"/"false" (Elasticsearch's lenient
// booleans accept exactly those).
func boolean(v jsonr.Result, path string) (bool, error) {
	switch v.Type {
	case jsonr.True:
		return true, nil
	case jsonr.False:
		return false, nil
	case jsonr.String:
		switch v.Str {
		case "true":
			return true, nil
		case "false":
			return false, nil
		}
	}
	return false, wrongType(path, "true or false", v)
}

// boost reads a non-negative boost.
func boost(v jsonr.Result, path string) (float64, error) {
	f, err := number(v, path)
	if err != nil {
		return 0, err
	}
	if f < 0 {
		return 0, errorf(edge.CodeInvalidArgument, path, "negative boost is not allowed")
	}
	return f, nil
}

// clip is edge.Clip, for aggspec.go and querystring.go until they call edge.Clip.
func clip(s string) string { return edge.Clip(s) }
