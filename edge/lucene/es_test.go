package lucene

import (
	"errors"
	"strings"
	"testing"

	"github.com/cdaedge/cdaedge/edge/analysis"
	"github.com/cdaedge/cdaedge/edge/query"
)

type esCase struct {
	in     string
	mod    func(*Options)
	want   string
	simple bool // ParseSimple instead of Parse
}

func fields(fs ...string) func(*Options) { return func(o *Options) { o.Fields = fs } }

// Elasticsearch query_string / simple_query_string behaviour (D10, D12) on top of
// Lucene's parser, with Elasticsearch's defaults and default_field "f".
var esCases = []esCase{
	// D10 examples: _validate/query?explain=true notation, every field named.
	{"a AND b", nil, "+f:a +f:b", false},
	{"(a b) -c", nil, "(f:a f:b) -f:c", false},
	{`"a b"~2`, nil, `f:"a b"~2`, false},
	{"te?m*", nil, "f:te?m*", false},
	{"a~2", nil, "f:a~2", false},
	{"[a TO b]", nil, "f:[a TO b]", false},
	{"{a TO *]", nil, "f:{a TO *]", false},
	{"a^2", nil, "(f:a)^2.0", false},
	{"*:*", nil, "*:*", false},
	{"/re/", nil, "f:/re/", false},
	{`"phrase here"~2^3`, nil, `(f:"phrase here"~2)^3.0`, false},
	// Elasticsearch's fuzziness AUTO for `~` alone: 0 edits under 3 characters,
	// 1 under 6, else 2.
	{"ab~", nil, "f:ab~0", false},
	{"term~", nil, "f:term~1", false},
	{"elasticsearch~", nil, "f:elasticsearch~2", false},
	{"term~AUTO", nil, "f:term~1", false},
	{"term~", func(o *Options) { o.Fuzziness = "2" }, "f:term~2", false},
	{"term~", func(o *Options) { o.Fuzziness = "AUTO:2,4" }, "f:term~2", false},
	// Fields and patterns
	{"title:*", nil, "FieldExistsQuery [field=title]", false},
	{"*", nil, "FieldExistsQuery [field=f]", false},
	{"*", func(o *Options) { o.DefaultField = "*" }, "*:*", false},
	{"*", func(o *Options) { o.DefaultField = "" }, "*:*", false},
	{"foo", func(o *Options) { o.DefaultField = "*" }, "*:foo", false},
	{"_exists_:title", nil, "FieldExistsQuery [field=title]", false},
	{`_exists_:"title"`, nil, "FieldExistsQuery [field=title]", false},
	{"-_exists_:title", nil, "-FieldExistsQuery [field=title] #*:*", false},
	{"Data.title:Hello", nil, "Data.title:hello", false},
	{"Name.keyword:Hello", nil, "Name.keyword:Hello", false}, // per-field analysis: fieldanalysis_test.go
	// One-sided ranges (QueryStringQueryParser.getFieldQuery).
	{"age:>=10", nil, "age:[10 TO *]", false},
	{"age:>10", nil, "age:{10 TO *]", false},
	{"age:<=10", nil, "age:[* TO 10]", false},
	{"age:<10", nil, "age:[* TO 10}", false},
	{"CreatedAt:>=2021-04-23", nil, "CreatedAt:[2021-04-23 TO *]", false},
	// Analysis with the standard analyzer: a term that splits is a Bool of terms
	// joined by the default operator (auto_generate_phrase_queries false).
	{"foo-bar", nil, "f:foo f:bar", false},
	{"x AND foo-bar", nil, "+f:x +(f:foo f:bar)", false},
	{"foo-bar", func(o *Options) { o.DefaultOperator = AND }, "+f:foo +f:bar", false},
	{"Foo Bar", nil, "f:foo f:bar", false},
	{"Foo Bar", func(o *Options) { o.DefaultOperator = AND }, "+f:foo +f:bar", false},
	{`"The Quick-Fox"`, nil, `f:"the quick fox"`, false},
	{"o'connor example.com 3.14", nil, "f:o'connor f:example.com f:3.14", false},
	{"%%%", nil, `MatchNoDocsQuery("Matching no documents because no terms present")`, false},
	{"   ", nil, `MatchNoDocsQuery("Matching no documents because no terms present")`, false},
	{"", nil, `MatchNoDocsQuery("Matching no documents because no terms present")`, false},
	// analyzer option
	{"Foo-Bar", func(o *Options) { o.Analyzer, o.AnalyzerLowercases = analysis.Whitespace, false }, "f:Foo-Bar", false},
	{"Foo Bar", func(o *Options) { o.Analyzer, o.AnalyzerLowercases = analysis.Keyword, false }, "f:Foo Bar", false},
	{"Foo2Bar", func(o *Options) { o.Analyzer = analysis.Simple }, "f:foo f:bar", false},
	// D12: multi-term patterns lower-cased when the analyzer lower-cases.
	{"Te?M*", nil, "f:te?m*", false},
	{"FOO*", nil, "f:foo*", false},
	{"/FoO.*/", nil, "f:/foo.*/", false},
	{"FoO~1", nil, "f:foo~1", false},
	{"[A TO B]", nil, "f:[a TO b]", false},
	{`Te\?M*`, nil, "f:te?m*", false}, // PREFIXTERM: a prefix "te?m", printed as Lucene prints it
	{`Te\?M*x`, nil, `f:te\?m*x`, false},
	{"FOO*", func(o *Options) { o.Analyzer, o.AnalyzerLowercases = analysis.Whitespace, false }, "f:FOO*", false},
	{"/FoO/", func(o *Options) { o.Analyzer, o.AnalyzerLowercases = analysis.Keyword, false }, "f:/FoO/", false},
	// analyze_wildcard
	{"foo-ba*", func(o *Options) { o.AnalyzeWildcard = true }, "f:foo f:ba*", false},
	{"foo-ba*", nil, "f:foo-ba*", false},
	// fields: a DisMax per term (best_fields), boosts per field.
	{"foo", fields("title", "body^2"), "(title:foo | (body:foo)^2.0)", false},
	{"foo bar", fields("title", "body"), "((title:foo title:bar) | (body:foo body:bar))", false},
	{"a AND b", fields("title", "body"), "+(title:a | body:a) +(title:b | body:b)", false},
	{`"a b"`, fields("title", "body"), `(title:"a b" | body:"a b")`, false},
	{"a*", fields("title", "body"), "(title:a* | body:a*)", false},
	{"x:a", fields("title", "body"), "x:a", false},
	{"*:a", fields("title", "body"), "(title:a | body:a)", false},
	{"*", fields("title", "body"), "(FieldExistsQuery [field=title] | FieldExistsQuery [field=body])", false},
	{"foo", fields("title^3"), "(title:foo)^3.0", false},
	{"foo", func(o *Options) { o.Fields = []string{"a", "b"}; o.TieBreaker = 0.3 }, "(a:foo | b:foo)~0.3", false},
	// Leading wildcards
	{"*foo", nil, "f:*foo", false},
	{"?oo", nil, "f:?oo", false},
	// simple_query_string
	{"a b", nil, "f:a f:b", true},
	{"a +b", nil, "+f:a +f:b", true},
	{"a | b", nil, "f:a f:b", true},
	{"a -b", nil, "f:a (-f:b *:*)", true},
	{"-a", nil, "-f:a *:*", true},
	{"--a", nil, "f:a", true},
	{"a +b | c", nil, "(+f:a +f:b) f:c", true},
	{"(a | b) +c", nil, "+(f:a f:b) +f:c", true},
	{`"a b"~2`, nil, `f:"a b"~2`, true},
	{`"a b"`, nil, `f:"a b"`, true},
	{"Foo*", nil, "f:foo*", true},
	{"a~", nil, "f:a~2", true},
	{"a~1", nil, "f:a~1", true},
	{"a~0", nil, "f:a", true},
	{"a~x", nil, "f:a", true},
	{"a~9", nil, "f:a~2", true},
	{"*", nil, "*:*", true},
	{"", nil, `MatchNoDocsQuery("empty string passed to query parser")`, true},
	{`"unclosed`, nil, "f:unclosed", true},
	{"(a", nil, "f:a", true},
	{"a)", nil, "f:a", true},
	{"()", nil, `MatchNoDocsQuery("empty string passed to query parser")`, true},
	{"a AND b", nil, "f:a f:and f:b", true},
	{"a b", func(o *Options) { o.DefaultOperator = AND }, "+f:a +f:b", true},
	{"foo-bar", nil, "f:foo f:bar", true},
	{`foo\|bar`, func(o *Options) { o.Analyzer, o.AnalyzerLowercases = analysis.Whitespace, false }, "f:foo|bar", true},
	{"foo", fields("title", "body^2"), "(title:foo | (body:foo)^2.0)~1.0", true},
	{`"a b"`, fields("title", "body"), `(title:"a b" | body:"a b")`, true},
	{"a*", fields("title", "body"), "(title:a* | body:a*)~1.0", true},
	{"a~1", fields("title", "body"), "(title:a~1 | body:a~1)~1.0", true},
}

func TestElasticsearchCases(t *testing.T) {
	for _, c := range esCases {
		o := DefaultOptions()
		o.DefaultField = "f"
		if c.mod != nil {
			c.mod(&o)
		}
		parse := Parse
		if c.simple {
			parse = ParseSimple
		}
		q, err := parse(c.in, o)
		if err != nil {
			t.Errorf("parse(%q, simple=%v): %v", c.in, c.simple, err)
			continue
		}
		if got := q.String(); got != c.want {
			t.Errorf("parse(%q, simple=%v)\n got %s\nwant %s", c.in, c.simple, got, c.want)
		}
	}
}

func TestNodes(t *testing.T) {
	o := DefaultOptions()
	o.DefaultField = "f"
	q, err := Parse("Term~", o)
	if err != nil {
		t.Fatal(err)
	}
	want := query.Fuzzy{Field: "f", Term: "term", MaxEdits: 1, PrefixLength: 0, MaxExpansions: 50, Transpositions: true}
	if q != query.Query(want) {
		t.Errorf("Term~ = %#v, want %#v", q, want)
	}
	q, err = Parse("CreatedAt:[2021-04-23T10:00:00Z TO *]", o)
	if err != nil {
		t.Fatal(err)
	}
	r, ok := q.(query.Range)
	if !ok || r.Upper != nil || r.Lower == nil || r.Lower.Value.Kind != query.ScalarString ||
		r.Lower.Value.Text != "2021-04-23T10:00:00Z" || r.Lower.Value.Str != "2021-04-23t10:00:00z" || !r.Lower.Inclusive {
		t.Errorf("range = %#v", q)
	}
	q, err = Parse(`"a b c"`, o)
	if err != nil {
		t.Fatal(err)
	}
	if p, ok := q.(query.Phrase); !ok || len(p.Positions) != 3 || p.Positions[2] != 2 {
		t.Errorf("phrase = %#v", q)
	}
}

func TestErrors(t *testing.T) {
	cases := []struct {
		in        string
		line, col int
		contains  string
	}{
		{"a AND (b", 1, 9, "unbalanced parenthesis"},
		{"(a OR b))", 1, 9, "unbalanced parenthesis"},
		{"a^2^3", 1, 4, `unexpected "^"`},
		{"foo\nbar:(", 2, 6, "unexpected end of query"},
		{"title:", 1, 7, "after \"title:\""},
		{"a AND", 1, 6, "expected a term"},
		{`"abc`, 1, 1, "unterminated phrase"},
		{"/abc", 1, 1, "unterminated regular expression"},
		{"[a TO b", 1, 8, `"]" or "}"`},
		{"[a b]", 1, 4, `"TO"`},
		{"a^x", 1, 3, `number after "^"`},
		{"x ]", 1, 3, `"]"`},
		{`XY\u005G`, 1, 3, "non-hex"},
		{"term~0.7", 1, 5, "invalid fuzziness"},
		{"é ü ()", 1, 6, "empty parentheses"},
		{`"a b"~-2`, 1, 6, "slop"},
	}
	for _, c := range cases {
		_, err := Parse(c.in, DefaultOptions())
		var se *SyntaxError
		if !errors.As(err, &se) {
			t.Errorf("Parse(%q) = %v, want a *SyntaxError", c.in, err)
			continue
		}
		if se.Line != c.line || se.Column != c.col || !strings.Contains(se.Message, c.contains) || se.TooComplex {
			t.Errorf("Parse(%q) = %q (line %d, column %d), want line %d, column %d containing %q",
				c.in, se.Error(), se.Line, se.Column, c.line, c.col, c.contains)
		}
	}
	o := DefaultOptions()
	o.AllowLeadingWildcard = false
	if _, err := Parse("a *b", o); err == nil || !strings.Contains(err.Error(), "column 3") {
		t.Errorf("leading wildcard: %v", err)
	}
	if _, err := Parse("*", o); err != nil {
		t.Errorf("* alone with allow_leading_wildcard false: %v", err)
	}
}

func TestLimits(t *testing.T) {
	o := DefaultOptions()
	terms := strings.Repeat("t ", DefaultMaxClauses)
	if _, err := Parse(terms, o); err != nil {
		t.Errorf("%d clauses: %v", DefaultMaxClauses, err)
	}
	for _, parse := range []func(string, Options) (query.Query, error){Parse, ParseSimple} {
		_, err := parse(terms+"t", o)
		var se *SyntaxError
		if !errors.As(err, &se) || !se.TooComplex {
			t.Errorf("%d clauses: %v, want a too-complex error", DefaultMaxClauses+1, err)
		}
		deep := strings.Repeat("(", 1000) + "a" + strings.Repeat(")", 1000)
		_, err = parse(deep, o)
		if !errors.As(err, &se) || !se.TooComplex {
			t.Errorf("1000 parentheses: %v, want a too-complex error", err)
		}
		ok := strings.Repeat("(", MaxDepth-2) + "a" + strings.Repeat(")", MaxDepth-2)
		if _, err := parse(ok, o); err != nil {
			t.Errorf("%d parentheses: %v", MaxDepth-2, err)
		}
	}
	// Unclosed parentheses do not nest in simple_query_string: no error, and fast.
	if _, err := ParseSimple(strings.Repeat("(", 100000)+"a", o); err != nil {
		t.Errorf("unclosed parentheses: %v", err)
	}
	if _, err := Parse(strings.Repeat("(", 100000)+"a", o); err == nil {
		t.Errorf("100000 unclosed parentheses: no error")
	}
	o.MaxClauses = 2
	if _, err := Parse("a b c", o); err == nil {
		t.Errorf("MaxClauses 2: no error for 3 terms")
	}
}

func FuzzParse(f *testing.F) {
	for _, c := range luceneCases {
		f.Add(c.in)
	}
	for _, c := range esCases {
		f.Add(c.in)
	}
	f.Fuzz(func(t *testing.T, s string) {
		o := DefaultOptions()
		o.DefaultField = "f"
		q, err := Parse(s, o)
		if err == nil && q.String() == "" {
			t.Errorf("Parse(%q) printed empty", s)
		}
		if err != nil {
			var se *SyntaxError
			if !errors.As(err, &se) || se.Line < 1 || se.Column < 1 || se.Offset < 0 || se.Offset > len(s) {
				t.Errorf("Parse(%q): bad error %#v", s, err)
			}
		}
		o.Fields = []string{"a", "b^2"}
		o.AllowLeadingWildcard = false
		o.AnalyzeWildcard = true
		o.DefaultOperator = AND
		if q, err := Parse(s, o); err == nil && q.String() == "" {
			t.Errorf("Parse(%q) with fields printed empty", s)
		}
	})
}

func FuzzParseSimple(f *testing.F) {
	for _, c := range esCases {
		f.Add(c.in)
	}
	f.Add(`"a\"b"~2 (c | -d*) +e~1 \`)
	f.Fuzz(func(t *testing.T, s string) {
		o := DefaultOptions()
		o.DefaultField = "f"
		q, err := ParseSimple(s, o)
		if err == nil && q.String() == "" {
			t.Errorf("ParseSimple(%q) printed empty", s)
		}
		if err != nil {
			var se *SyntaxError
			if !errors.As(err, &se) || !se.TooComplex {
				t.Errorf("ParseSimple(%q): %v is not a limit error", s, err)
			}
		}
	})
}

// FuzzParseSimpleFlags is FuzzParseSimple with any of the simple syntax's operators
// turned off (flags): an operator turned off is text, which must never break the
// parse either.
func FuzzParseSimpleFlags(f *testing.F) {
	f.Add(`"a\"b"~2 (c | -d*) +e~1 \`, uint16(0))
	f.Add(`a -b "c d"~1 (e|f) g* h~`, uint16(SimpleAll))
	f.Add(`(a (b) \( "c`, uint16(SimplePrecedence|SimpleEscape))
	f.Fuzz(func(t *testing.T, s string, off uint16) {
		o := DefaultOptions()
		o.DefaultField = "f"
		o.SimpleOff = SimpleFlag(off) & SimpleAll
		q, err := ParseSimple(s, o)
		if err == nil && q.String() == "" {
			t.Errorf("ParseSimple(%q, off %#x) printed empty", s, off)
		}
		if err != nil {
			var se *SyntaxError
			if !errors.As(err, &se) || !se.TooComplex {
				t.Errorf("ParseSimple(%q, off %#x): %v is not a limit error", s, off, err)
			}
		}
	})
}

func benchParse(b *testing.B, s string) {
	o := DefaultOptions()
	o.DefaultField = "f"
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Parse(s, o); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkParse1(b *testing.B) { benchParse(b, "hello") }
func BenchmarkParse3(b *testing.B) { benchParse(b, `title:hello AND "big world"~2 -draft*`) }
func BenchmarkParse10(b *testing.B) {
	benchParse(b, `(a OR b^2) AND c:[1 TO 5] -d~1 e* "f g" h:i j AND NOT k /l.*/`)
}

func BenchmarkParseSimple3(b *testing.B) {
	o := DefaultOptions()
	o.DefaultField = "f"
	for b.Loop() {
		if _, err := ParseSimple(`hello +"big world"~2 -draft*`, o); err != nil {
			b.Fatal(err)
		}
	}
}
