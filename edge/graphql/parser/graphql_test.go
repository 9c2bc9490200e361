package parser

import (
	"reflect"
	"strings"
	"testing"
)

// documented are the GraphQL examples of API.md ("GraphQL: query content"), written exactly
// as documented: the dialect's `content()` and `{ }` included (D9).
var documented = []string{
	`query { content(){ } }`,
	`query { content(){ Name, ContentID } }`,
	`query { content(pageSize: 3, page: 1, sortAsc: true ){ Name } }`,
	`query { content(pageSize: 3, page: 1, sortAsc: true, PublishedBy: "Erian Suwandi" ){ Name, ContentID, PublishedBy } }`,
	`query { content(contentId: "Content_9b77044f-f2d4-46d9-a5c6-f68df62306e4"){ Name } }`,
	`query { content(templateName: "Page", data: {urlPath: "/home"}){ Name } }`,
	`query { content(CreatedAt_gte: "2021-04-23T00:00:00", UpdatedAt_lt: "2022-01-01T00:00:00") { Name } }`,
	`query { content(contentId: "Content_f6a2bcc3-d3fd-4878-bf91-e377d19594ce", retrieveChild: true, depth: 1) { Name } }`,
}

// standard are documents as real clients send them.
var standard = []string{
	`{ content { Name } }`,
	`query Q($n: Int = 3, $who: String!) @live { items: content(pageSize: $n, PublishedBy: $who) { __typename ...F ... on Content @include(if: true) { Data { title } } } } fragment F on Content { Name ContentID }`,
	"# comment\nquery {\n  content(name: \"\"\"\n    block\n      string\n  \"\"\") { Name } # trailing\n}",
	`query { content(data: {tags: ["a", "b"], price: 10.5e1, ok: false, n: null, e: ENUM, nested: {x: -1}}) { Name } }`,
	`query { content(name: "esc \" \\ \/ \b \f \n \r \t \u00e9 \u{1F600} \uD83D\uDE00") { Name } }`,
	"\uFEFF{ a, b,, c }",
	`query ($v: [[Int!]]! = [[1], []]) { content { Name } }`,
	`subscription S { content { Name } } mutation M { x }`,
	`{ on: content @skip(if: $no) { Name } }`,
}

func TestParseAccepts(t *testing.T) {
	for _, src := range append(append([]string{}, documented...), standard...) {
		if _, err := Parse(src, Limits{}); err != nil {
			t.Errorf("Parse(%q): %v", src, err)
		}
	}
}

func TestParseTree(t *testing.T) {
	doc, err := Parse(`query { content(){ } }`, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	f := doc.Definitions[0].Selections[0]
	if f.Name != "content" || !f.HasArguments || len(f.Arguments) != 0 || !f.HasSelections || len(f.Selections) != 0 {
		t.Errorf("D9 dialect content(){ }: got %+v", f)
	}
	doc, err = Parse(standard[2], Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if got := doc.Definitions[0].Selections[0].Arguments[0].Value.Text; got != "block\n  string" {
		t.Errorf("block string value %q", got)
	}
	doc, err = Parse(standard[4], Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := doc.Definitions[0].Selections[0].Arguments[0].Value.Text, "esc \" \\ / \b \f \n \r \t é 😀 😀"; got != want {
		t.Errorf("escapes: got %q, want %q", got, want)
	}
	line, col := doc.LineColumn(doc.Definitions[0].Selections[0].Arguments[0].Pos)
	if line != 1 || col != 17 {
		t.Errorf("argument position %d:%d, want 1:17", line, col)
	}
}

func TestParseErrors(t *testing.T) {
	for _, tc := range []struct {
		src       string
		kind      ErrorKind
		line, col int
		msg       string
	}{
		{``, SyntaxError, 1, 1, "empty"},
		{`query { content( }`, SyntaxError, 1, 18, `expected an argument name`},
		{"query {\n  content(name: \"x) { Name } }", SyntaxError, 2, 17, "unterminated string"},
		{"{ a(x: 01) }", SyntaxError, 1, 9, "start with 0"},
		{"{ a(x: 1.) }", SyntaxError, 1, 10, "decimal point"},
		{"{ a(x: 1a) }", SyntaxError, 1, 9, "after a number"},
		{"{ a(x: \"\\q\") }", SyntaxError, 1, 9, "invalid escape"},
		{"{ a(x: \"\\uD800\") }", SyntaxError, 1, 9, "surrogate"},
		{"{ é }", SyntaxError, 1, 3, "unexpected character"},
		{"{ a . b }", SyntaxError, 1, 5, `"..."`},
		{"type Query { a: Int }", SyntaxError, 1, 1, "type system"},
		{"query { content ", SyntaxError, 1, 17, "end of the document"},
		{"query Q() { a }", SyntaxError, 1, 9, "empty variable list"},
		{"{ a(x: $v) }\x00", SyntaxError, 1, 13, "unexpected character"},
		{"{ a }\xff", SyntaxError, 1, 6, "UTF-8"},
		{"fragment on on X { a }", SyntaxError, 1, 10, "fragment name"},
		{"query ($a: Int = $b) { a }", SyntaxError, 1, 18, "default value"},
		{strings.Repeat("{ a ", 17) + strings.Repeat("}", 17), LimitError, 1, 65, "deeper than 16"},
		{"{ a(x: " + strings.Repeat("[", 17) + strings.Repeat("]", 17) + ") }", LimitError, 1, 23, "deeper than 16"},
		{"{ " + strings.Repeat("a ", DefaultMaxTokens) + "}", LimitError, 1, 2*DefaultMaxTokens + 1, "tokens"},
		{"{ a }" + strings.Repeat(" ", DefaultMaxBytes), LimitError, 1, 1, "bytes"},
	} {
		_, err := Parse(tc.src, Limits{})
		e, ok := err.(*Error)
		if !ok {
			t.Errorf("Parse(%.40q): error %v, want a *Error", tc.src, err)
			continue
		}
		if e.Kind != tc.kind || e.Line != tc.line || e.Column != tc.col || !strings.Contains(e.Message, tc.msg) {
			t.Errorf("Parse(%.40q) = kind %d at %d:%d %q; want kind %d at %d:%d containing %q",
				tc.src, e.Kind, e.Line, e.Column, e.Message, tc.kind, tc.line, tc.col, tc.msg)
		}
	}
}

func TestLineColumn(t *testing.T) {
	src := "a\r\nb\rc\nxé y"
	for _, tc := range []struct{ off, line, col int }{{0, 1, 1}, {3, 2, 1}, {5, 3, 1}, {7, 4, 1}, {11, 4, 4}} {
		if l, c := LineColumn(src, Pos(tc.off)); l != tc.line || c != tc.col {
			t.Errorf("LineColumn(%d) = %d:%d, want %d:%d", tc.off, l, c, tc.line, tc.col)
		}
	}
}

func TestPrintRoundTrip(t *testing.T) {
	for _, src := range append(append([]string{}, documented...), standard...) {
		checkRoundTrip(t, src)
	}
	got := string(Print(nil, mustParse(t, documented[0])))
	if got != "query { content() { } }" {
		t.Errorf("Print(%q) = %q", documented[0], got)
	}
}

func mustParse(t testing.TB, src string) *Document {
	t.Helper()
	doc, err := Parse(src, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

// checkRoundTrip checks that a parsed document, printed and parsed again, is the same
// tree (positions and source aside), and that printing is a fixed point.
func checkRoundTrip(t testing.TB, src string) {
	doc, err := Parse(src, Limits{MaxTokens: 1 << 20, MaxBytes: 1 << 20})
	if err != nil {
		return
	}
	printed := Print(nil, doc)
	again, err := Parse(string(printed), Limits{MaxTokens: 1 << 20, MaxBytes: 1 << 20})
	if err != nil {
		t.Fatalf("re-parse of %q printed as %q: %v", src, printed, err)
	}
	if a, b := stripped(doc), stripped(again); !reflect.DeepEqual(a, b) {
		t.Fatalf("round trip of %q changed the tree:\nprinted %q\n before %#v\n  after %#v", src, printed, a, b)
	}
	if twice := Print(nil, again); string(twice) != string(printed) {
		t.Fatalf("printing is not a fixed point: %q then %q", printed, twice)
	}
}

// stripped returns a copy of doc's definitions with every position zeroed.
func stripped(doc *Document) []Definition {
	defs := append([]Definition(nil), doc.Definitions...)
	for i := range defs {
		d := &defs[i]
		d.Pos = 0
		d.Directives = stripDirectives(d.Directives)
		d.Selections = stripSelections(d.Selections)
		vars := append([]VariableDefinition(nil), d.Variables...)
		for j := range vars {
			vars[j].Pos = 0
			vars[j].Type = stripType(vars[j].Type)
			vars[j].Directives = stripDirectives(vars[j].Directives)
			if vars[j].Default != nil {
				v := stripValue(*vars[j].Default)
				vars[j].Default = &v
			}
		}
		d.Variables = vars
	}
	return defs
}

func stripType(t Type) Type {
	t.Pos = 0
	if t.Elem != nil {
		e := stripType(*t.Elem)
		t.Elem = &e
	}
	return t
}

func stripSelections(sels []Selection) []Selection {
	if sels == nil {
		return nil
	}
	out := make([]Selection, len(sels))
	for i, s := range sels {
		s.Pos = 0
		s.Arguments = stripArguments(s.Arguments)
		s.Directives = stripDirectives(s.Directives)
		s.Selections = stripSelections(s.Selections)
		out[i] = s
	}
	return out
}

func stripDirectives(ds []Directive) []Directive {
	if ds == nil {
		return nil
	}
	out := make([]Directive, len(ds))
	for i, d := range ds {
		d.Pos = 0
		d.Arguments = stripArguments(d.Arguments)
		out[i] = d
	}
	return out
}

func stripArguments(as []Argument) []Argument {
	if as == nil {
		return nil
	}
	out := make([]Argument, len(as))
	for i, a := range as {
		a.Pos = 0
		a.Value = stripValue(a.Value)
		out[i] = a
	}
	return out
}

func stripValue(v Value) Value {
	v.Pos = 0
	if v.List != nil {
		l := make([]Value, len(v.List))
		for i := range v.List {
			l[i] = stripValue(v.List[i])
		}
		v.List = l
	}
	if v.Fields != nil {
		f := make([]ObjectField, len(v.Fields))
		for i, of := range v.Fields {
			of.Pos = 0
			of.Value = stripValue(of.Value)
			f[i] = of
		}
		v.Fields = f
	}
	return v
}

// FuzzParse: never a panic; errors are positioned inside the document; a parsed
// document printed and parsed again is the same tree.
func FuzzParse(f *testing.F) {
	for _, s := range append(append([]string{}, documented...), standard...) {
		f.Add(s)
	}
	f.Add(`{ a(x: """ \""" """) }`)
	f.Add("{ a(x: \"\\u{10FFFF}\") }")
	f.Fuzz(func(t *testing.T, src string) {
		doc, err := Parse(src, Limits{})
		if err != nil {
			e, ok := err.(*Error)
			if !ok {
				t.Fatalf("error %T, want *Error", err)
			}
			if e.Line < 1 || e.Column < 1 || int(e.Pos) > len(src) || e.Message == "" {
				t.Fatalf("bad error position or message: %+v", e)
			}
			return
		}
		if doc == nil {
			t.Fatal("nil document without an error")
		}
		checkRoundTrip(t, src)
		for _, d := range doc.Definitions {
			for i := range d.Selections {
				for j := range d.Selections {
					a, b := d.Selections[i].Arguments, d.Selections[j].Arguments
					if SameArguments(a, b) != sameArgumentsPrinted(a, b) {
						t.Fatalf("SameArguments(%d, %d) disagrees with the printed forms", i, j)
					}
				}
			}
		}
	})
}

func BenchmarkParse(b *testing.B) {
	src := standard[1]
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Parse(src, Limits{}); err != nil {
			b.Fatal(err)
		}
	}
}

// sameArgumentsPrinted is what SameArguments must answer: argument lists compared as
// printed, which ignores positions.
func sameArgumentsPrinted(a, b []Argument) bool {
	print := func(args []Argument) string {
		return string(Print(nil, &Document{Definitions: []Definition{{Kind: OperationDefinition,
			Selections: []Selection{{Kind: FieldSelection, Name: "f", Arguments: args, HasArguments: true}}}}}))
	}
	return print(a) == print(b)
}

// TestSameArguments compares the arguments of every pair of fields of a document both
// ways: structurally and as printed.
func TestSameArguments(t *testing.T) {
	for _, src := range []string{
		`{ a(x: 1) b(x: 1) c(x: 1.0) d(x: "1") e(x: ONE) f(x: $one) g(x: true) h(x: null) i(x: [1]) j(x: {y: 1}) }`,
		`{ a(x: [1 2], y: {a: 1, b: [true]}) b(x: [1, 2] y: {a: 1 b: [true]}) c(y: {a: 1, b: [true]}, x: [1 2]) d(x: [1 2], y: {b: [true], a: 1}) }`,
		`{ a(x: "a\nb") b(x: """a
b""") c(x: "a\u000Ab") d(x: "") e(x: """""") f(x: [[]]) g(x: []) h(x: {}) i(x: [{}]) }`,
		`{ a b() c(x: null) d(x: NULL) e(x: $null) f(x: "null") }`,
	} {
		doc, err := Parse(src, Limits{})
		if err != nil {
			t.Fatal(err)
		}
		sels := doc.Definitions[0].Selections
		for i := range sels {
			for j := range sels {
				a, b := sels[i].Arguments, sels[j].Arguments
				if got, want := SameArguments(a, b), sameArgumentsPrinted(a, b); got != want {
					t.Errorf("%s and %s: SameArguments = %v, printed forms say %v", sels[i].Name, sels[j].Name, got, want)
				}
			}
		}
	}
}
