// Package jsonr reads JSON without decoding it into Go values: the reading half of the
// engine's hand-rolled JSON, paired with the writer jsonw.
//
// It offers the subset of github.com/tidwall/gjson that the query module uses, with
// gjson's semantics, so that code written against gjson moves over by renaming: Parse,
// Valid, and a Result with ForEach, a plain-key Get (no path syntax), Array and gjson's
// conversions. gjson keeps its whole path and modifier machinery reachable from a
// package-level map, which costs the TinyGo module tens of kilobytes; jsonr has no
// package state, no maps, no reflection and no recursion, and it never panics.
//
// Results are zero-copy: Raw, and Str of a string without escapes, are substrings of
// the input, so reading allocates only to unescape strings and to build Array's slice.
package jsonr

import (
	"math/bits"
	"strconv"
	"unicode/utf8"
)

// Type is the kind of a JSON value. The constants have gjson's names, order and values.
type Type int

const (
	// Null is JSON null, and also the Type of the zero Result, which does not exist.
	Null Type = iota
	// False is JSON false.
	False
	// Number is a JSON number.
	Number
	// String is a JSON string.
	String
	// True is JSON true.
	True
	// JSON is an object or an array; Raw holds its text.
	JSON
)

// Result is one JSON value, laid out as gjson's Result so that call sites keep their
// field accesses. The zero Result stands for a value that does not exist.
type Result struct {
	// Type is the value's kind.
	Type Type
	// Raw is the value's JSON text as it appears in the input. For the top-level object
	// or array that Parse returns it runs to the end of the input (as in gjson), so it
	// includes trailing whitespace.
	Raw string
	// Str is the decoded text of a String (escapes resolved) and empty for other types.
	Str string
	// Num is the value of a Number (±Inf when it overflows float64) and 0 otherwise.
	Num float64
	// Index is the byte offset of Raw in the input given to Parse.
	Index int
}

// Parse returns the JSON value that json holds, skipping leading whitespace. It does not
// validate: on JSON that Valid rejects it never panics but its answer is unspecified.
// An empty or blank input gives the zero Result.
func Parse(json string) Result {
	i := skipControl(json, 0)
	if i == len(json) {
		return Result{}
	}
	switch json[i] {
	case '{', '[':
		// As gjson: the text to the end stands for the value, which saves a scan.
		return Result{Type: JSON, Raw: json[i:], Index: i}
	}
	end, escaped := scan(json, i)
	if end < 0 {
		return Result{}
	}
	var r Result
	r.set(json[i:end], escaped, i)
	return r
}

// Exists reports whether the Result stands for a value (JSON null included).
func (t Result) Exists() bool {
	return t.Type != Null || len(t.Raw) != 0
}

// IsObject reports whether the Result is a JSON object.
func (t Result) IsObject() bool {
	return t.Type == JSON && len(t.Raw) > 0 && t.Raw[0] == '{'
}

// IsArray reports whether the Result is a JSON array.
func (t Result) IsArray() bool {
	return t.Type == JSON && len(t.Raw) > 0 && t.Raw[0] == '['
}

// ForEach calls fn for each member of an object, in order and duplicates included, with
// the member name as a String key; for each element of an array, with a Number key whose
// Num is the element's position; and once, with a zero key, for any other value that
// exists. It stops when fn returns false, and at the first malformed member.
func (t Result) ForEach(fn func(key, value Result) bool) {
	if !t.Exists() {
		return
	}
	if t.Type != JSON {
		fn(Result{}, t)
		return
	}
	var it Members
	for it.Reset(t); it.Next(); {
		if !fn(it.Key, it.Value) {
			return
		}
	}
}

// Members walks the members of an object or the elements of an array, as ForEach
// visits them, for loops on hot paths: a closure handed to ForEach costs the TinyGo
// module a heap allocation for each variable it captures. After each Next that returns
// true, Key and Value are the member's, as ForEach passes them:
//
//	var it jsonr.Members
//	for it.Reset(obj); it.Next(); {
//		use(it.Key.Str, it.Value)
//	}
//
// (A constructor returning a Members would move it to the heap under TinyGo.)
type Members struct {
	index int        // the container's Index: members' are counted from it
	it    memberIter // over the container's Raw
	ok    bool
	m     member
	Key   Result // the member name as a String, or the element's position as a Number
	Value Result
}

// Reset starts a walk over t's members; it visits nothing when t is not an object or
// an array.
func (it *Members) Reset(t Result) {
	walk, ok := members(t.Raw)
	*it = Members{index: t.Index, it: walk, ok: ok && t.Type == JSON, Key: Result{Type: Number, Num: -1}}
	if walk.object {
		it.Key.Type, it.Key.Num = String, 0
	}
}

// ResetKnown is Reset for an object whose member named key (written without escapes)
// holds an object or an array that ends at byte end of t.Raw, as an index recorded
// when the text was written: Next takes that value without scanning it, which saves a
// walk over an item's largest member when what is wanted lies beyond it. A hint the
// text does not bear out (no such member, or no matching bracket just before end) is
// ignored, and the value is scanned as Reset would.
func (it *Members) ResetKnown(t Result, key string, end int) {
	it.Reset(t)
	if it.it.object && end > 0 {
		it.it.knownKey, it.it.knownEnd = key, end
	}
}

// Next moves to the next member and reports whether there is one; it is false at the
// end and at the first malformed member.
func (it *Members) Next() bool {
	if !it.ok || !it.it.next(&it.m) {
		it.ok = false
		return false
	}
	raw, index, m := it.it.s, it.index, &it.m
	if it.it.object {
		it.Key.Raw = raw[m.keyStart:m.keyEnd]
		it.Key.Str = it.Key.Raw[1 : len(it.Key.Raw)-1]
		if m.keyEscaped {
			it.Key.Str = unescape(it.Key.Str)
		}
		it.Key.Index = index + m.keyStart
	} else {
		it.Key.Num++
	}
	it.Value.set(raw[m.valueStart:m.valueEnd], m.valueEscaped, index+m.valueStart)
	return true
}

// Get returns the value of the first member of an object named key, compared with the
// decoded member names; key is a plain name, never a gjson path. It returns the zero
// Result when there is no such member or the Result is not an object.
func (t Result) Get(key string) Result {
	if !t.IsObject() {
		return Result{}
	}
	it, ok := members(t.Raw)
	var m member
	for ok && it.next(&m) {
		name := t.Raw[m.keyStart+1 : m.keyEnd-1]
		if m.keyEscaped {
			name = unescape(name)
		}
		if name == key {
			var r Result
			r.set(t.Raw[m.valueStart:m.valueEnd], m.valueEscaped, t.Index+m.valueStart)
			return r
		}
	}
	return Result{}
}

// Array returns the elements of an array; for null or a value that does not exist an
// empty slice; for any other value a slice holding just that value (as gjson).
func (t Result) Array() []Result {
	if t.Type == Null {
		return []Result{}
	}
	if !t.IsArray() {
		return []Result{t}
	}
	out := []Result{}
	it, ok := members(t.Raw)
	var m member
	for ok && it.next(&m) {
		out = append(out, Result{})
		out[len(out)-1].set(t.Raw[m.valueStart:m.valueEnd], m.valueEscaped, t.Index+m.valueStart)
	}
	return out
}

// String returns the value as text: a String's Str; an integer Number's Raw and any other
// Number formatted from Num ("1e3" gives "1000"); "true" or "false"; an object's or
// array's Raw; and "" for null or a value that does not exist.
func (t Result) String() string {
	switch t.Type {
	case False:
		return "false"
	case True:
		return "true"
	case String:
		return t.Str
	case JSON:
		return t.Raw
	case Number:
		if isInteger(t.Raw) && len(t.Raw) > 0 {
			return t.Raw
		}
		return strconv.FormatFloat(t.Num, 'f', -1, 64)
	}
	return ""
}

// Bool returns true for true, for a non-zero Number, and for a String that is "1", "t"
// or "true" in any letter case (strconv.ParseBool of the lower-cased text, as gjson);
// false otherwise.
func (t Result) Bool() bool {
	switch t.Type {
	case True:
		return true
	case Number:
		return t.Num != 0
	case String:
		s := t.Str
		return s == "1" || len(s) == 1 && s[0]|0x20 == 't' ||
			len(s) == 4 && s[0]|0x20 == 't' && s[1]|0x20 == 'r' && s[2]|0x20 == 'u' && s[3]|0x20 == 'e'
	}
	return false
}

// Int returns an integer reading of the value, as gjson: 1 for true; a Number's value
// truncated toward zero when it is within ±(2^53-1), else its Raw's digits when Raw is an
// integer (wrapping past int64 as gjson does), else Go's conversion of Num; a String's
// digits when it is an optionally signed integer (wrapping likewise), else 0; 0 otherwise.
func (t Result) Int() int64 {
	switch t.Type {
	case True:
		return 1
	case String:
		n, _ := parseInt(t.Str)
		return n
	case Number:
		// gjson's safeInt: the test is written so that NaN passes, as there.
		if !(t.Num < -9007199254740991 || t.Num > 9007199254740991) {
			return int64(t.Num)
		}
		if n, ok := parseInt(t.Raw); ok {
			return n
		}
		return int64(t.Num)
	}
	return 0
}

// Float returns a float reading of the value: a Number's Num, 1 for true, a String
// through strconv.ParseFloat (0 when it is not a number, ±Inf past the range), else 0.
func (t Result) Float() float64 {
	switch t.Type {
	case True:
		return 1
	case String:
		f, _ := strconv.ParseFloat(t.Str, 64)
		return f
	case Number:
		return t.Num
	}
	return 0
}

// isInteger reports whether s is digits after an optional '-' (gjson's test for
// returning a Number's Raw as its String).
func isInteger(s string) bool {
	i := 0
	if i < len(s) && s[i] == '-' {
		i++
	}
	for ; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// parseInt reads an optionally negative run of digits, wrapping on overflow as gjson's
// parseInt does, so that Int agrees with gjson on huge integers.
func parseInt(s string) (n int64, ok bool) {
	i := 0
	negative := len(s) > 0 && s[0] == '-'
	if negative {
		i++
	}
	if i == len(s) {
		return 0, false
	}
	for ; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, false
		}
		n = n*10 + int64(s[i]-'0')
	}
	if negative {
		return -n, true
	}
	return n, true
}

// set makes r the Result for raw, one whole value starting at byte index of the input;
// escaped says raw is a string holding backslash escapes. It fills r in place because
// returning a Result by value costs the walk over every member a copy.
func (r *Result) set(raw string, escaped bool, index int) {
	r.Raw, r.Str, r.Num, r.Index = raw, "", 0, index
	switch raw[0] {
	case '"':
		r.Type = String
		r.Str = raw[1 : len(raw)-1]
		if escaped {
			r.Str = unescape(r.Str)
		}
	case '{', '[':
		r.Type = JSON
	case 't':
		r.Type = True
	case 'f':
		r.Type = False
	case 'n':
		r.Type = Null
	default:
		r.Type = Number
		// A range error still yields ±Inf or ±0, which is what gjson keeps.
		r.Num, _ = strconv.ParseFloat(raw, 64)
	}
}

// member locates one object member or array element inside a container's text; for an
// array element the key bounds are zero.
type member struct {
	keyStart, keyEnd     int
	valueStart, valueEnd int
	keyEscaped           bool
	valueEscaped         bool
}

// memberIter walks the members of one object or array, lenient about what valid JSON
// never holds but always advancing, so that it ends on any input.
type memberIter struct {
	s      string
	i      int
	object bool
	// knownKey's value ends at knownEnd, when knownEnd > 0 (Members.ResetKnown).
	knownKey string
	knownEnd int
}

// members starts a walk over the container whose text is s; ok is false when s does not
// start (after whitespace) with '{' or '['.
func members(s string) (it memberIter, ok bool) {
	i := skipControl(s, 0)
	if i == len(s) || s[i] != '{' && s[i] != '[' {
		return memberIter{}, false
	}
	return memberIter{s: s, i: i + 1, object: s[i] == '{'}, true
}

// next sets m to the next member and reports whether there is one: it is false at the
// end of the container and at the first malformed member.
func (it *memberIter) next(m *member) bool {
	s, i := it.s, skipControl(it.s, it.i)
	if i == len(s) {
		return false
	}
	if it.object {
		if s[i] != '"' {
			return false
		}
		m.keyStart = i
		if m.keyEnd, m.keyEscaped = scanString(s, i+1); m.keyEnd < 0 {
			return false
		}
		if i = skipControl(s, m.keyEnd); i == len(s) || s[i] != ':' {
			return false
		}
		if i = skipControl(s, i+1); i == len(s) {
			return false
		}
	} else if s[i] == ']' {
		return false
	}
	m.valueStart = i
	if it.knownEnd > 0 && it.known(m) {
		m.valueEnd, m.valueEscaped, it.knownEnd = it.knownEnd, false, 0
	} else if m.valueEnd, m.valueEscaped = scan(s, i); m.valueEnd < 0 {
		return false
	}
	i = skipControl(s, m.valueEnd)
	if i < len(s) && s[i] == ',' {
		i++
	}
	it.i = i
	return true
}

// known reports whether m, whose key and value start are read, is the member whose
// value's end the iterator was told, and that end closes the value's bracket.
func (it *memberIter) known(m *member) bool {
	s, end := it.s, it.knownEnd
	if end > len(s) || end <= m.valueStart+1 || s[m.keyStart+1:m.keyEnd-1] != it.knownKey {
		return false
	}
	open, last := s[m.valueStart], s[end-1]
	return open == '{' && last == '}' || open == '[' && last == ']'
}

// skipControl skips whitespace the way gjson's reader does: every byte up to ' '.
func skipControl(s string, i int) int {
	for i < len(s) && s[i] <= ' ' {
		i++
	}
	return i
}

// scan returns the end of the value starting at s[i], a non-space byte, and whether it
// is a string holding escapes; end is -1 when no value starts there. Numbers and literals
// end where gjson ends them: at a delimiter, and at the first byte outside a-z.
func scan(s string, i int) (end int, escaped bool) {
	switch c := s[i]; {
	case c == '"':
		return scanString(s, i+1)
	case c == '{' || c == '[':
		return scanContainer(s, i), false
	case c == 't' || c == 'f' || c == 'n':
		for i++; i < len(s) && s[i] >= 'a' && s[i] <= 'z'; i++ {
		}
		return i, false
	case c == '-' || c >= '0' && c <= '9':
		for i++; i < len(s); i++ {
			if c := s[i]; c <= ' ' || c == ',' || c == ']' || c == '}' {
				break
			}
		}
		return i, false
	}
	return -1, false
}

// scanString returns the index after the closing quote of the string whose contents
// start at s[i], and whether it holds escapes; end is -1 when it is not closed.
func scanString(s string, i int) (end int, escaped bool) {
	for i < len(s) {
		// Strings are most of a document's bytes: step over eight at a time while none
		// of them is a quote or a backslash (SWAR, which also suits WebAssembly's i64).
		if i+8 <= len(s) {
			x := load64(s, i)
			q, b := x^(ones*'"'), x^(ones*'\\')
			found := ((q-ones)&^q | (b-ones)&^b) & highs
			if found == 0 {
				i += 8
				continue
			}
			i += bits.TrailingZeros64(found) / 8 // the lowest flag is exact
		}
		switch s[i] {
		case '"':
			return i + 1, escaped
		case '\\':
			escaped = true
			i += 2
		default:
			i++
		}
	}
	return -1, escaped
}

const (
	ones  = 0x0101010101010101
	highs = 0x8080808080808080
)

// bracket classifies bytes for scanContainer: 1 opens, 2 closes, 3 starts a string.
var bracket = [256]uint8{'{': 1, '[': 1, '}': 2, ']': 2, '"': 3}

// scanContainer returns the index after the bracket that closes the object or array
// opening at s[i], or len(s) when it is not closed (gjson then takes the rest).
func scanContainer(s string, i int) int {
	depth := 0
	for ; i < len(s); i++ {
		switch bracket[s[i]] {
		case 1:
			depth++
		case 2:
			if depth--; depth == 0 {
				return i + 1
			}
		case 3:
			end, _ := scanString(s, i+1)
			if end < 0 {
				return len(s)
			}
			i = end - 1
		}
	}
	return len(s)
}

// unescape decodes the contents of a JSON string exactly as gjson does, so that Str
// agrees with it byte for byte: a lone or mismatched surrogate becomes U+FFFD, and a
// high surrogate followed by any \u escape consumes both (a mismatch gives one U+FFFD);
// other bytes, invalid UTF-8 included, are copied as they are. On input that is not
// valid JSON it stops at the first control byte or bad escape.
func unescape(s string) string {
	out := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < ' ' {
			break
		}
		if c != '\\' {
			out = append(out, c)
			continue
		}
		if i++; i == len(s) {
			break
		}
		switch s[i] {
		case '"', '\\', '/':
			out = append(out, s[i])
		case 'b':
			out = append(out, '\b')
		case 'f':
			out = append(out, '\f')
		case 'n':
			out = append(out, '\n')
		case 'r':
			out = append(out, '\r')
		case 't':
			out = append(out, '\t')
		case 'u':
			if i+5 > len(s) {
				return string(out)
			}
			r := hex4(s[i+1:])
			i += 5
			if r >= 0xD800 && r < 0xE000 && len(s)-i >= 6 && s[i] == '\\' && s[i+1] == 'u' {
				r = surrogatePair(r, hex4(s[i+2:]))
				i += 6
			}
			out = utf8.AppendRune(out, r) // a surrogate left alone encodes as U+FFFD
			i--
		default:
			return string(out)
		}
	}
	return string(out)
}

// hex4 reads four hex digits; anything else reads as 0, as strconv.ParseUint's failure
// does in gjson.
func hex4(s string) rune {
	var r rune
	for i := 0; i < 4; i++ {
		c := s[i]
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c|0x20 >= 'a' && c|0x20 <= 'f':
			c = (c | 0x20) - 'a' + 10
		default:
			return 0
		}
		r = r<<4 | rune(c)
	}
	return r
}

// surrogatePair joins a UTF-16 surrogate pair; anything but a high then a low surrogate
// gives U+FFFD (unicode/utf16.DecodeRune).
func surrogatePair(high, low rune) rune {
	if high >= 0xD800 && high < 0xDC00 && low >= 0xDC00 && low < 0xE000 {
		return (high-0xD800)<<10 | (low - 0xDC00) + 0x10000
	}
	return utf8.RuneError
}
