package jsonr

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tidwall/gjson"
)

// differentialSeeds are inputs where a reader is most likely to disagree with gjson.
var differentialSeeds = []string{
	``, ` `, `{}`, `[]`, `[ ]`, `{ }`, " \t\r\n{\"a\" : [ 1 , 2 ] }\n\t ",
	`0`, `-0`, `-0.0`, `1e400`, `-1e400`, `1e-400`, `01`, `-01`, `1.`, `.5`, `+1`, `1e`, `1E+2`, `2.5e-3`,
	`9007199254740991`, `9007199254740993`, `-9007199254740993`, `9223372036854775807`, `9223372036854775808`,
	`-9223372036854775809`, `18446744073709551617`, `123456789012345678901234567890`, `1.5e19`, `-1.5e19`,
	`true`, `false`, `null`, `tru`, `nul`, `NaN`, `Infinity`, `"nan"`, `"inf"`, `"0x10"`, `"1_0"`,
	`"TRUE"`, `"tRuE"`, `"t"`, `"F"`, `"1"`, `"0"`, `"yes"`, `" 1"`, `"-"`, `"-12"`, `"12a"`,
	`"\u00e9"`, `"\ud83d\ude00"`, `"\ud83d"`, `"\ude00"`, `"\ud83d\u0041"`, `"\ude00\ud83d"`, `"\ud83dx"`,
	`"\u0000"`, `"\"\\\/\b\f\n\r\t"`, `"\\"`, `"\\\""`, `"a\\"`, `"\x"`, `"\u12"`, `"\u12G4"`,
	"\"\xff\xfe\"", "\"\xc3\"", "\"\x7f\"", "\"a\x01b\"", "\x00", "\v1", "\xef\xbb\xbf{}",
	`{"a":1,"a":2}`, `{"a":1,"b":{"a":2},"a":[3]}`, `{"":1,"":2}`, `{"a.b":1,"a":{"b":2}}`,
	`{"*":1,"?":2,"#":3,"@this":4,"!true":5,"..a":6,"[a]":7,"{a}":8,"a|b":9,"\\":10}`,
	`{"esc\u0061ped":1,"escaped":2}`, `{"q\"uote":"x","sl\\ash":"y"}`, `{"\ud83d":1,"\ufffd":2}`,
	`[1,2,3]`, `[1,]`, `[,1]`, `[1 2]`, `{"a":1,}`, `{"a" 1}`, `{a:1}`, `[}`, `{]`, `[1]]`, `[[1]`, `{} {}`,
	`[0,-0,1e3,"1e3",true,"true",null,"",[],{}]`, `[[[[[[[[[[1]]]]]]]]]]`,
	`{"a":[{"b":[{"c":[{"d":"e"}]}]}]}`, `["(",")","{","[","]","}",","]`, `{"(":"{","[":"]"}`,
	strings.Repeat("[", 300) + strings.Repeat("]", 300),
	strings.Repeat(`{"a":`, 100) + "1" + strings.Repeat("}", 100),
}

// FuzzJSONRDifferential checks jsonr against gjson: Valid must agree on every input, and
// on valid input Parse, a recursive ForEach walk, Get of every member name, Array and the
// conversions must give gjson's results field for field. On invalid input jsonr need
// only not panic nor loop.
func FuzzJSONRDifferential(f *testing.F) {
	for _, s := range differentialSeeds {
		f.Add(s)
	}
	// The conformance tables hold a large variety of real request JSON; each case is a
	// seed, but not the whole files, which are too big for the mutator to be quick.
	files, _ := filepath.Glob("../../testdata/conformance/*.json")
	for _, name := range files {
		b, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		gjson.ParseBytes(b).ForEach(func(_, c gjson.Result) bool {
			if c.Raw != "" && len(c.Raw) <= 4096 {
				f.Add(c.Raw)
			}
			return true
		})
	}
	f.Fuzz(func(t *testing.T, s string) {
		valid := Valid(s)
		if g := gjson.Valid(s); valid != g {
			t.Fatalf("Valid(%q) = %v, gjson says %v", s, valid, g)
		}
		r := Parse(s)
		if !valid {
			exercise(r, 0)
			return
		}
		compareTree(t, "$", r, gjson.Parse(s))
	})
}

// exercise runs every method over a possibly malformed value, to catch panics.
func exercise(r Result, depth int) {
	_, _, _, _ = r.String(), r.Int(), r.Float(), r.Bool()
	_ = r.Array()
	r.ForEach(func(k, v Result) bool {
		_ = r.Get(k.Str)
		if depth < 20 && v.Type == JSON {
			exercise(v, depth+1)
		}
		return true
	})
}

type entry struct {
	key, value Result
}

type gjsonEntry struct {
	key, value gjson.Result
}

func compareTree(t *testing.T, path string, r Result, g gjson.Result) {
	t.Helper()
	compareValue(t, path, r, g)
	if t.Failed() {
		t.FailNow()
	}

	var rs []entry
	r.ForEach(func(k, v Result) bool { rs = append(rs, entry{k, v}); return true })
	var gs []gjsonEntry
	g.ForEach(func(k, v gjson.Result) bool { gs = append(gs, gjsonEntry{k, v}); return true })
	if len(rs) != len(gs) {
		t.Fatalf("%s: ForEach gives %d members, gjson %d", path, len(rs), len(gs))
	}
	for i := range rs {
		p := path + "[" + gs[i].key.Raw + "]"
		compareValue(t, p+".key", rs[i].key, gs[i].key)
		if r.Type == JSON {
			compareTree(t, p, rs[i].value, gs[i].value)
		} else {
			compareValue(t, p, rs[i].value, gs[i].value)
		}
	}

	if r.IsObject() {
		for _, e := range gs {
			compareValue(t, path+".Get("+e.key.Raw+")", r.Get(e.key.Str), g.Get(gjson.Escape(e.key.Str)))
		}
		compareValue(t, path+".Get(missing)", r.Get("\x00missing"), g.Get(gjson.Escape("\x00missing")))
	}

	ra, ga := r.Array(), g.Array()
	if len(ra) != len(ga) || (ra == nil) != (ga == nil) {
		t.Fatalf("%s: Array gives %d elements, gjson %d", path, len(ra), len(ga))
	}
	for i := range ra {
		compareValue(t, path+".Array()", ra[i], ga[i])
	}
}

func compareValue(t *testing.T, path string, r Result, g gjson.Result) {
	t.Helper()
	if len(path) > 200 {
		path = "…" + path[len(path)-200:]
	}
	if !g.Exists() {
		// gjson's Result.Get leaves the receiver's Index on a miss; jsonr returns the
		// zero Result, which is what "nothing" means everywhere else.
		if r != (Result{}) {
			t.Errorf("%s: jsonr gives %+v, gjson nothing", path, r)
		}
		return
	}
	if int(r.Type) != int(g.Type) || r.Raw != g.Raw || r.Str != g.Str || !sameFloat(r.Num, g.Num) || r.Index != g.Index {
		t.Errorf("%s: jsonr gives %+v, gjson {Type:%d Raw:%q Str:%q Num:%v Index:%d}", path, r, g.Type, g.Raw, g.Str, g.Num, g.Index)
		return
	}
	if a, b := r.String(), g.String(); a != b {
		t.Errorf("%s: String() = %q, gjson %q", path, a, b)
	}
	if a, b := r.Int(), g.Int(); a != b {
		t.Errorf("%s: Int() = %d, gjson %d", path, a, b)
	}
	if a, b := r.Float(), g.Float(); !sameFloat(a, b) {
		t.Errorf("%s: Float() = %v, gjson %v", path, a, b)
	}
	if a, b := r.Bool(), g.Bool(); a != b {
		t.Errorf("%s: Bool() = %v, gjson %v", path, a, b)
	}
	if r.Exists() != g.Exists() || r.IsObject() != g.IsObject() || r.IsArray() != g.IsArray() {
		t.Errorf("%s: Exists/IsObject/IsArray disagree with gjson", path)
	}
}

func sameFloat(a, b float64) bool {
	return math.Float64bits(a) == math.Float64bits(b) || math.IsNaN(a) && math.IsNaN(b)
}
