package jsonr

import (
	"fmt"
	"math"
	"strings"
	"testing"
)

func TestValid(t *testing.T) {
	for _, tc := range []struct {
		json string
		want bool
	}{
		{`{}`, true},
		{` {"a":[1,2,{"b":null}],"c":"d"} `, true},
		{"\t\r\n[]\n", true},
		{`"plain"`, true},
		{`0`, true},
		{`-0`, true},
		{`-0.5e-3`, true},
		{`1E+2`, true},
		{`1e400`, true},
		{`123456789012345678901234567890`, true},
		{`true`, true},
		{`false`, true},
		{`null`, true},
		{`"\u00e9\ud800\/\b\f\n\r\t\"\\"`, true}, // a lone surrogate escape passes
		{"\"\xff\xfe\"", true},                   // invalid UTF-8 passes, as in gjson
		{"\"\x7f\"", true},
		{`{"a":1,"a":2}`, true},
		{``, false},
		{`   `, false},
		{`01`, false},
		{`[01]`, false},
		{`-01`, false},
		{`+1`, false},
		{`.5`, false},
		{`1.`, false},
		{`1.e3`, false},
		{`1e`, false},
		{`1e+`, false},
		{`-`, false},
		{`NaN`, false},
		{`Infinity`, false},
		{`tru`, false},
		{`truex`, false},
		{`nul`, false},
		{`[1,]`, false},
		{`[,1]`, false},
		{`[1 2]`, false},
		{`{"a":1,}`, false},
		{`{"a" 1}`, false},
		{`{a:1}`, false},
		{`{"a":1 "b":2}`, false},
		{`{"a"}`, false},
		{`[}`, false},
		{`{]`, false},
		{`[1]]`, false},
		{`[[1]`, false},
		{`{} {}`, false},
		{`"abc`, false},
		{"\"a\x01b\"", false},
		{"\"tab\there\"", false},
		{`"\x"`, false},
		{`"\u12"`, false},
		{`"\u12g4"`, false},
		{`"\`, false},
		{"\v1", false},
		{"\x001", false},
		{"\xef\xbb\xbf{}", false}, // a byte-order mark is not whitespace
	} {
		if got := Valid(tc.json); got != tc.want {
			t.Errorf("Valid(%q) = %v, want %v", tc.json, got, tc.want)
		}
	}
}

func TestValidDeep(t *testing.T) {
	const depth = 1 << 20
	deep := strings.Repeat("[", depth) + strings.Repeat("]", depth)
	if !Valid(deep) {
		t.Error("deep arrays are valid")
	}
	mixed := strings.Repeat(`{"a":[`, 1000) + "1" + strings.Repeat("]}", 1000)
	if !Valid(mixed) {
		t.Error("deep mixed nesting is valid")
	}
	if Valid(strings.Repeat(`{"a":[`, 1000) + "1" + strings.Repeat("}]", 1000)) {
		t.Error("crossed brackets deep down are not valid")
	}
	if Valid(deep[:len(deep)-1]) {
		t.Error("an unclosed array is not valid")
	}
}

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		json string
		want Result
	}{
		{``, Result{}},
		{`  `, Result{}},
		{` {"a":1} `, Result{Type: JSON, Raw: `{"a":1} `, Index: 1}},
		{`[1]`, Result{Type: JSON, Raw: `[1]`}},
		{` "x\"y" `, Result{Type: String, Raw: `"x\"y"`, Str: `x"y`, Index: 1}},
		{`"plain"`, Result{Type: String, Raw: `"plain"`, Str: `plain`}},
		{` -1.5e2 `, Result{Type: Number, Raw: `-1.5e2`, Num: -150, Index: 1}},
		{`1e400`, Result{Type: Number, Raw: `1e400`, Num: math.Inf(1)}},
		{`true`, Result{Type: True, Raw: `true`}},
		{`false`, Result{Type: False, Raw: `false`}},
		{"\nnull", Result{Type: Null, Raw: `null`, Index: 1}},
	} {
		if got := Parse(tc.json); got != tc.want {
			t.Errorf("Parse(%q) = %+v, want %+v", tc.json, got, tc.want)
		}
	}
	if r := Parse(`-0`); r.Type != Number || !math.Signbit(r.Num) {
		t.Errorf("Parse(-0) = %+v, want negative zero", r)
	}
}

func TestParseNeverPanics(t *testing.T) {
	for _, s := range []string{`{`, `[`, `"`, `{"a`, `{"a"`, `{"a":`, `{"a":"`, `[1,`, `["\`, `{"a":{`, `x`, `-`, `]`, `}`, `{"a":1,"b"}`, `[tru`, "\"\\u12"} {
		r := Parse(s)
		r.ForEach(func(k, v Result) bool { _ = v.String(); return true })
		_ = r.Get("a")
		_ = r.Array()
		_ = r.String()
		_ = r.Int()
		_ = r.Float()
		_ = r.Bool()
	}
}

func TestForEach(t *testing.T) {
	const doc = `{ "a" : 1, "b":"two" ,"a":[3, {"c":null}], "e\u0301":true, "f":{} }`
	type pair struct{ key, keyRaw, value string }
	var got []pair
	var indexes []int
	Parse(doc).ForEach(func(k, v Result) bool {
		if k.Type != String {
			t.Errorf("key %q has type %d", k.Raw, k.Type)
		}
		got = append(got, pair{k.Str, k.Raw, v.Raw})
		indexes = append(indexes, k.Index, v.Index)
		return true
	})
	want := []pair{{"a", `"a"`, "1"}, {"b", `"b"`, `"two"`}, {"a", `"a"`, `[3, {"c":null}]`}, {"e\u0301", `"e\u0301"`, "true"}, {"f", `"f"`, "{}"}}
	if len(got) != len(want) {
		t.Fatalf("ForEach gave %q, want %q", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("member %d = %q, want %q", i, got[i], want[i])
		}
	}
	for i, idx := range indexes {
		raw := []string{got[i/2].keyRaw, got[i/2].value}[i%2]
		if !strings.HasPrefix(doc[idx:], raw) {
			t.Errorf("Index %d does not point at %q", idx, raw)
		}
	}

	var elems []Result
	var keys []float64
	Parse(` [ 1 ,"x", [ ] , {"a":2},null ] `).ForEach(func(k, v Result) bool {
		if k.Type != Number || k.Raw != "" {
			t.Errorf("array key %+v is not a bare position", k)
		}
		keys = append(keys, k.Num)
		elems = append(elems, v)
		return true
	})
	if len(elems) != 5 || elems[0].Num != 1 || elems[1].Str != "x" || elems[2].Raw != "[ ]" || elems[3].Raw != `{"a":2}` || elems[4].Type != Null || !elems[4].Exists() {
		t.Errorf("array elements = %+v", elems)
	}
	if len(keys) != 5 || keys[0] != 0 || keys[4] != 4 {
		t.Errorf("array keys = %v", keys)
	}

	n := 0
	Parse(`[1,2,3]`).ForEach(func(_, _ Result) bool { n++; return n < 2 })
	if n != 2 {
		t.Errorf("ForEach went on after false: %d calls", n)
	}

	var scalar []Result
	Parse(`"s"`).ForEach(func(k, v Result) bool { scalar = append(scalar, k, v); return true })
	if len(scalar) != 2 || scalar[0] != (Result{}) || scalar[1].Str != "s" {
		t.Errorf("ForEach on a scalar = %+v, want one call with a zero key", scalar)
	}
	Result{}.ForEach(func(_, _ Result) bool { t.Error("ForEach on nothing called fn"); return true })
	Parse(`{}`).ForEach(func(_, _ Result) bool { t.Error("ForEach on {} called fn"); return true })
}

// TestMembers checks that the iterator visits what ForEach visits (ForEach is built on
// it), and nothing for a value that is not a container.
func TestMembers(t *testing.T) {
	var keys []string
	var it Members
	for it.Reset(Parse(`{"a":1,"b":[2]}`)); it.Next(); {
		keys = append(keys, it.Key.Str+"="+it.Value.Raw)
	}
	if fmt.Sprint(keys) != "[a=1 b=[2]]" {
		t.Errorf("members %v", keys)
	}
	for _, doc := range []string{`"str"`, `12`, `true`, ``, `{`} {
		if it.Reset(Parse(doc)); it.Next() || it.Next() {
			t.Errorf("%q: a member %+v", doc, it.Value)
		}
	}
}

func TestGet(t *testing.T) {
	doc := Parse(` {"a":1,"a.b":2,"a":3,"q\"uote":"x","esc\u0061ped":"y","n":{"a":4},"*":5} `)
	for _, tc := range []struct {
		key, raw string
	}{
		{"a", "1"}, // the first of duplicates, as gjson
		{"a.b", "2"},
		{`q"uote`, `"x"`},
		{"escaped", `"y"`},
		{"n", `{"a":4}`},
		{"*", "5"}, // a plain key: no wildcards
		{"missing", ""},
		{"", ""},
	} {
		got := doc.Get(tc.key)
		if got.Raw != tc.raw {
			t.Errorf("Get(%q) = %q, want %q", tc.key, got.Raw, tc.raw)
		}
		if tc.raw != "" && got.Raw != doc.Raw[got.Index-doc.Index:][:len(got.Raw)] {
			t.Errorf("Get(%q).Index = %d does not point at the value", tc.key, got.Index)
		}
	}
	if got := doc.Get("n").Get("a"); got.Num != 4 || got.Index != strings.Index(doc.Raw, "4")+1 {
		t.Errorf("nested Get = %+v", got)
	}
	for _, r := range []Result{Parse(`[1]`), Parse(`"a"`), {}, Parse(`null`)} {
		if got := r.Get("a"); got.Exists() {
			t.Errorf("Get on %q = %+v, want nothing", r.Raw, got)
		}
	}
}

func TestArray(t *testing.T) {
	a := Parse(`[1,"b",[2]]`).Array()
	if len(a) != 3 || a[0].Num != 1 || a[1].Str != "b" || a[2].Raw != "[2]" || a[2].Index != 7 {
		t.Errorf("Array = %+v", a)
	}
	if a := Parse(`null`).Array(); a == nil || len(a) != 0 {
		t.Errorf("null.Array() = %#v, want empty", a)
	}
	if a := (Result{}).Array(); a == nil || len(a) != 0 {
		t.Errorf("nothing.Array() = %#v, want empty", a)
	}
	if a := Parse(`"s"`).Array(); len(a) != 1 || a[0].Str != "s" {
		t.Errorf(`"s".Array() = %+v, want the value alone`, a)
	}
	if a := Parse(`{"a":1}`).Array(); len(a) != 1 || !a[0].IsObject() {
		t.Errorf("object.Array() = %+v, want the object alone", a)
	}
}

func TestConversions(t *testing.T) {
	for _, tc := range []struct {
		json  string
		str   string
		i     int64
		f     float64
		truth bool
	}{
		{`12`, "12", 12, 12, true},
		{`-7`, "-7", -7, -7, true},
		{`0`, "0", 0, 0, false},
		{`-0`, "-0", 0, 0, false},
		{`1.5`, "1.5", 1, 1.5, true},
		{`-2.7`, "-2.7", -2, -2.7, true},
		{`1e3`, "1000", 1000, 1000, true},
		{`1E-2`, "0.01", 0, 0.01, true},
		{`9007199254740993`, "9007199254740993", 9007199254740993, 9007199254740992, true},
		{`-9223372036854775808`, "-9223372036854775808", math.MinInt64, -9223372036854775808, true},
		{`"42"`, "42", 42, 42, false},
		{`"-42"`, "-42", -42, -42, false},
		{`"4.2"`, "4.2", 0, 4.2, false},
		{`"1e3"`, "1e3", 0, 1000, false},
		{`" 1"`, " 1", 0, 0, false},
		{`"1e400"`, "1e400", 0, math.Inf(1), false},
		{`"TRUE"`, "TRUE", 0, 0, true},
		{`"True"`, "True", 0, 0, true},
		{`"t"`, "t", 0, 0, true},
		{`"T"`, "T", 0, 0, true},
		{`"1"`, "1", 1, 1, true},
		{`"yes"`, "yes", 0, 0, false},
		{`true`, "true", 1, 1, true},
		{`false`, "false", 0, 0, false},
		{`null`, "", 0, 0, false},
		{`[1]`, "[1]", 0, 0, false},
		{`{"a":1} `, `{"a":1} `, 0, 0, false},
	} {
		r := Parse(tc.json)
		if got := r.String(); got != tc.str {
			t.Errorf("%s.String() = %q, want %q", tc.json, got, tc.str)
		}
		if got := r.Int(); got != tc.i {
			t.Errorf("%s.Int() = %d, want %d", tc.json, got, tc.i)
		}
		if got := r.Float(); got != tc.f {
			t.Errorf("%s.Float() = %v, want %v", tc.json, got, tc.f)
		}
		if got := r.Bool(); got != tc.truth {
			t.Errorf("%s.Bool() = %v, want %v", tc.json, got, tc.truth)
		}
	}
	if s := Parse(`1e400`).String(); s != "+Inf" {
		t.Errorf("1e400.String() = %q, want gjson's +Inf", s)
	}
	// Beyond 2^53 Int reads Raw's digits, wrapping past int64 as gjson does.
	if got := Parse(`18446744073709551617`).Int(); got != 1 {
		t.Errorf("2^64+1 .Int() = %d, want the wrapped 1", got)
	}
}

func TestUnescape(t *testing.T) {
	for _, tc := range []struct{ raw, want string }{
		{`"a\"b\\c\/d\b\f\n\r\t"`, "a\"b\\c/d\b\f\n\r\t"},
		{`"\u00e9\u00E9"`, "éé"},
		{`"\ud83d\ude00"`, "😀"},
		{`"\ud83d"`, "\uFFFD"},
		{`"\ude00"`, "\uFFFD"},
		{`"\ud83dx"`, "\uFFFDx"},
		{`"\ud83d\u0041"`, "\uFFFD"}, // gjson consumes the escape after a high surrogate
		{`"\ude00\ud83d"`, "\uFFFD"},
		{`"\u0000"`, "\x00"},
		{"\"\xff\\n\"", "\xff\n"},
	} {
		if got := Parse(tc.raw).Str; got != tc.want {
			t.Errorf("Parse(%s).Str = %q, want %q", tc.raw, got, tc.want)
		}
	}
}

func TestNoAllocations(t *testing.T) {
	const doc = `{"query":{"bool":{"must":[{"match":{"Name":"café"}}],"filter":[{"term":{"T":"Article"}}]}},"size":20,"from":1.5,"ok":true}`
	var sink int
	allocs := testing.AllocsPerRun(100, func() {
		r := Parse(doc)
		r.ForEach(func(k, v Result) bool {
			sink += len(k.Str) + len(v.Raw) + int(v.Num)
			v.ForEach(func(k, v Result) bool { sink += len(k.Str) + len(v.Str); return true })
			return true
		})
		sink += len(r.Get("size").Raw) + len(r.Get("query").Get("bool").Raw)
		sink += len(Parse(`"plain"`).Str)
		if !Valid(doc) {
			sink++
		}
	})
	if allocs != 0 {
		t.Errorf("reading JSON without escapes allocated %v times", allocs)
	}
}

// TestStringScanWordBoundaries puts quotes, escapes and control bytes at every offset
// around the eight-byte steps of scanString and validString.
func TestStringScanWordBoundaries(t *testing.T) {
	naiveScan := func(s string, i int) (int, bool) {
		escaped := false
		for ; i < len(s); i++ {
			switch s[i] {
			case '"':
				return i + 1, escaped
			case '\\':
				escaped = true
				i++
			}
		}
		return -1, escaped
	}
	for n := 0; n < 24; n++ {
		for at := 0; at <= n; at++ {
			for _, special := range []string{`"`, `\"`, `\\`, `\n`, `\u00e9`, "\x01", "\x1f", "\x7f", "\xff", `\`} {
				body := strings.Repeat("a", at) + special + strings.Repeat("é", (n-at)/2)
				for _, s := range []string{`"` + body + `"`, `"` + body, `"` + body + `"x`} {
					wantEnd, wantEsc := naiveScan(s, 1)
					if end, esc := scanString(s, 1); end != wantEnd || esc != wantEsc {
						t.Errorf("scanString(%q) = %d, %v; want %d, %v", s, end, esc, wantEnd, wantEsc)
					}
					if got, want := Valid(s), naiveValidString(s); got != want {
						t.Errorf("Valid(%q) = %v, want %v", s, got, want)
					}
				}
			}
		}
	}
}

// naiveValidString is RFC 8259's string rule, byte by byte, for a whole input.
func naiveValidString(s string) bool {
	if len(s) < 2 || s[0] != '"' {
		return false
	}
	for i := 1; i < len(s); i++ {
		switch c := s[i]; {
		case c == '"':
			return i == len(s)-1
		case c < ' ':
			return false
		case c == '\\':
			i++
			if i == len(s) {
				return false
			}
			switch s[i] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			case 'u':
				if i+4 >= len(s) {
					return false
				}
				for _, h := range []byte(s[i+1 : i+5]) {
					if !strings.ContainsRune("0123456789abcdefABCDEF", rune(h)) {
						return false
					}
				}
				i += 4
			default:
				return false
			}
		}
	}
	return false
}

// membersOf lists the members an iterator visits, key=raw value.
func membersOf(it *Members) []string {
	var got []string
	for it.Next() {
		got = append(got, it.Key.Str+"="+it.Value.Raw)
	}
	return got
}

// TestMembersKnown checks ResetKnown: a true hint visits what Reset visits, without
// scanning the value (a value the scanner would stop in is stepped over whole), and a
// hint the text does not bear out is ignored.
func TestMembersKnown(t *testing.T) {
	const doc = `{"Status":"Published","Data":{"a":[1,{"b":"}"}]},"Name":"n"}`
	end := strings.Index(doc, `,"Name"`)
	var plain, hinted Members
	plain.Reset(Parse(doc))
	want := fmt.Sprint(membersOf(&plain))
	for _, c := range []struct {
		name string
		key  string
		end  int
	}{
		{"true hint", "Data", end},
		{"no hint", "Data", 0},
		{"another member", "Name", end},
		{"past the end", "Data", len(doc) + 5},
		{"not after a closing bracket", "Data", end - 1},
		{"before the value", "Data", strings.Index(doc, `"Data"`)},
	} {
		hinted.ResetKnown(Parse(doc), c.key, c.end)
		if got := fmt.Sprint(membersOf(&hinted)); got != want {
			t.Errorf("%s: %s, want %s", c.name, got, want)
		}
	}
	// The value is taken whole on the hint's word: here the scanner alone would stop at
	// the bare control byte in it, and see no member after it.
	const broken = "{\"Data\":{\"x\":\x01},\"Name\":\"n\"}"
	hinted.ResetKnown(Parse(broken), "Data", strings.Index(broken, `,"Name"`))
	if got := fmt.Sprint(membersOf(&hinted)); got != "[Data={\"x\":\x01} Name=\"n\"]" {
		t.Errorf("broken value under a true hint: %q", got)
	}
}

// FuzzMembersKnown checks on any text that a hint taken from a scan of the text (the
// end of the first member's value, if it is a container) changes nothing Next visits.
func FuzzMembersKnown(f *testing.F) {
	for _, s := range differentialSeeds {
		f.Add(s)
	}
	f.Add(`{"Data":{"a":[1,{"b":"}"}]},"Name":"n"}`)
	f.Fuzz(func(t *testing.T, doc string) {
		var plain, hinted Members
		root := Parse(doc)
		plain.Reset(root)
		if !plain.Next() {
			return
		}
		key, v := plain.Key, plain.Value
		if v.Type != JSON || key.Raw != `"`+key.Str+`"` {
			return
		}
		end := v.Index - root.Index + len(v.Raw) // in root.Raw
		plain.Reset(root)
		hinted.ResetKnown(root, key.Str, end)
		if a, b := fmt.Sprint(membersOf(&plain)), fmt.Sprint(membersOf(&hinted)); a != b {
			t.Fatalf("hint %s@%d: %s, want %s", key.Str, end, b, a)
		}
	})
}
