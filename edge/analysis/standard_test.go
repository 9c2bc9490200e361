package analysis

import (
	"reflect"
	"strings"
	"testing"
)

func terms(toks []Token) []string {
	out := make([]string, 0, len(toks))
	for _, t := range toks {
		out = append(out, t.Term)
	}
	return out
}

// Cases are Lucene's documented StandardTokenizer/StandardAnalyzer behaviour
// (TestStandardAnalyzer, the UAX #29 grammar in StandardTokenizerImpl.jflex)
// and the examples of D4. Names cite the decision they check.
var standardCases = []struct {
	name string
	in   string
	want []string
}{
	{"D4/empty", "", []string{}},
	{"D4/only punctuation", " -- ... !? ", []string{}},
	{"D4/lower-case", "Erian Suwandi", []string{"erian", "suwandi"}},
	{"D4/apostrophe o'connor", "O'Connor", []string{"o'connor"}},
	{"D4/possessive kyoto's", "Kyoto's temples", []string{"kyoto's", "temples"}},
	{"D4/right single quote", "O\u2019Neil", []string{"o\u2019neil"}},
	{"D4/domain example.com", "see example.com.", []string{"see", "example.com"}},
	{"D4/decimal 3.14", "pi is 3.14", []string{"pi", "is", "3.14"}},
	{"D4/number separators", "1,000.50 and 10.000,00", []string{"1,000.50", "and", "10.000,00"}},
	{"D4/ip address", "192.168.0.1", []string{"192.168.0.1"}},
	{"D4/version", "v1.2.3", []string{"v1.2.3"}},
	{"D4/hyphen splits", "wi-fi", []string{"wi", "fi"}},
	{"D4/path splits", "/create-content-template", []string{"create", "content", "template"}},
	{"D4/date splits", "2021-04-23", []string{"2021", "04", "23"}},
	{"D4/url", "https://www.example.com/path?q=1&x=Y", []string{"https", "www.example.com", "path", "q", "1", "x", "y"}},
	{"D4/email", "john.doe@example.com", []string{"john.doe", "example.com"}},
	{"D4/underscore joins", "foo_bar _baz qux_ ___", []string{"foo_bar", "_baz", "qux_"}},
	{"D4/acronym", "U.S.A.", []string{"u.s.a"}},
	{"D4/trailing dot", "end.", []string{"end"}},
	{"D4/colon joins letters (UAX29 MidLetter)", "c:a", []string{"c:a"}},
	{"D4/currency and percent dropped", "$100 50% ©", []string{"100", "50", "©"}},
	{"D4/accents kept", "Crème Brûlée", []string{"crème", "brûlée"}},
	{"D4/combining mark stays", "Cafe\u0301", []string{"cafe\u0301"}},
	{"D4/turkish dotted I per code point", "İstanbul", []string{"istanbul"}},
	{"D4/greek sigma per code point", "ΟΔΟΣ", []string{"οδοσ"}},
	{"D4/german sharp s unchanged", "Straße", []string{"straße"}},
	{"D4/han one per token", "中文字", []string{"中", "文", "字"}},
	{"D4/hiragana one per token", "ひらがな", []string{"ひ", "ら", "が", "な"}},
	{"D4/katakana run", "カタカナ", []string{"カタカナ"}},
	{"D4/japanese mixed", "東京タワーへ", []string{"東", "京", "タワー", "へ"}},
	{"D4/hangul run", "안녕하세요 세계", []string{"안녕하세요", "세계"}},
	{"D4/thai run is one token", "ภาษาไทย ดี", []string{"ภาษาไทย", "ดี"}},
	{"D4/thai digits are numbers", "ปี๒๕๖๔", []string{"ปี", "๒๕๖๔"}},
	{"D4/arabic", "مرحبا بالعالم", []string{"مرحبا", "بالعالم"}},
	{"D4/hebrew gershayim", "צה\"ל", []string{"צה\"ל"}},
	{"D4/fullwidth digits", "１２３", []string{"１２３"}},
	{"D4/emoji token", "I ❤ 🐶!", []string{"i", "❤", "🐶"}},
	{"D4/emoji adjacent", "👍🐶", []string{"👍", "🐶"}},
	{"D4/emoji skin tone", "👍🏽 ok", []string{"👍🏽", "ok"}},
	{"D4/emoji zwj family", "👨\u200d👩\u200d👧\u200d👦", []string{"👨\u200d👩\u200d👧\u200d👦"}},
	{"D4/emoji zwj with presentation selector", "❤\ufe0f\u200d🔥", []string{"❤\ufe0f\u200d🔥"}},
	{"D4/emoji flag", "🇯🇵🇺🇸", []string{"🇯🇵", "🇺🇸"}},
	{"D4/lone regional indicator dropped", "🇯", []string{}},
	{"D4/keycap", "#️⃣ 1️⃣ # *", []string{"#️⃣", "1️⃣"}},
	{"D4/tag sequence", "🏴\U000E0067\U000E0062\U000E0065\U000E006E\U000E0067\U000E007F", []string{"🏴\U000E0067\U000E0062\U000E0065\U000E006E\U000E0067\U000E007F"}},
	{"D4/lone skin tone after space", "a 🏽", []string{"a", "🏽"}},
	{"D4/letter then zwj emoji splits", "a\u200d🐶", []string{"a\u200d", "🐶"}},
	{"D4/word then emoji", "hi🐶", []string{"hi", "🐶"}},
	{"D4/narrow no-break space separates (Unicode 9)", "10\u202f000 Bonjour\u202f!", []string{"10", "000", "bonjour"}},
	{"D4/nbsp separates", "a\u00a0b", []string{"a", "b"}},
	{"D4/soft hyphen joins", "co\u00adop", []string{"co\u00adop"}},
	{"D4/newlines and tabs", "a\r\nb\tc", []string{"a", "b", "c"}},
}

func TestStandard(t *testing.T) {
	for _, c := range standardCases {
		t.Run(c.name, func(t *testing.T) {
			got := Standard(nil, c.in)
			if !reflect.DeepEqual(terms(got), c.want) {
				t.Fatalf("Standard(%q) = %q, want %q", c.in, terms(got), c.want)
			}
			for i, tok := range got {
				if tok.Position != i {
					t.Fatalf("token %d %q has position %d", i, tok.Term, tok.Position)
				}
			}
		})
	}
}

func TestStandardAppendsToDst(t *testing.T) {
	dst := []Token{{Term: "x", Position: 7}}
	got := Standard(dst, "A b")
	want := []Token{{"x", 7}, {"a", 0}, {"b", 1}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %v, want %v", got, want)
	}
}

// D4: "tokens longer than 255 characters are split at 255". Lucene's
// scanner buffer is 255 UTF-16 units and it keeps a split surrogate pair for
// the next token; it returns the longest prefix its grammar accepts.
func TestStandardLongTokens(t *testing.T) {
	a300 := strings.Repeat("a", 300)
	cases := []struct {
		name string
		in   string
		want []string
	}{
		{"D4/exactly 255", strings.Repeat("b", 255), []string{strings.Repeat("b", 255)}},
		{"D4/300 letters", "x " + a300 + " y", []string{"x", strings.Repeat("a", 255), strings.Repeat("a", 45), "y"}},
		{"D4/upper-case split and lowered", strings.Repeat("A", 256), []string{strings.Repeat("a", 255), "a"}},
		{"D4/600 letters", strings.Repeat("c", 600), []string{strings.Repeat("c", 255), strings.Repeat("c", 255), strings.Repeat("c", 90)}},
		{"D4/utf16 units not bytes", strings.Repeat("é", 256), []string{strings.Repeat("é", 255), "é"}},
		{"D4/surrogate pair not split", strings.Repeat("a", 254) + "𝒜b", []string{strings.Repeat("a", 254), "𝒜b"}},
		{"D4/cut before dangling dot", strings.Repeat("a", 254) + ".bc", []string{strings.Repeat("a", 254), "bc"}},
		{"D4/long number", strings.Repeat("1", 256), []string{strings.Repeat("1", 255), "1"}},
		{"D4/long thai", strings.Repeat("ก", 256), []string{strings.Repeat("ก", 255), "ก"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := terms(Standard(nil, c.in))
			if !reflect.DeepEqual(got, c.want) {
				t.Fatalf("Standard(%d bytes) = %d terms %q, want %d terms", len(c.in), len(got), got, len(c.want))
			}
		})
	}
}

// Terms that need no change are substrings of the input: no allocation.
func TestStandardNoAllocForLowerCase(t *testing.T) {
	text := "already lower case text with 3.14 and example.com"
	dst := make([]Token, 0, 16)
	allocs := testing.AllocsPerRun(100, func() { dst = Standard(dst[:0], text) })
	if allocs != 0 {
		t.Fatalf("allocs = %v, want 0", allocs)
	}
	mixed := "Mixed Case Text With Several Capitalised Words"
	allocs = testing.AllocsPerRun(100, func() { dst = Standard(dst[:0], mixed) })
	if allocs > 1 {
		t.Fatalf("allocs = %v, want at most 1 (one shared buffer)", allocs)
	}
}

func TestSimple(t *testing.T) {
	cases := []struct {
		name string
		in   string
		want []string
	}{
		{"D10/letters only", "Hello, World! 42x3 O'Connor", []string{"hello", "world", "x", "o", "connor"}},
		{"D10/unicode letters", "Crème-Brûlée 東京", []string{"crème", "brûlée", "東京"}},
		{"D10/empty", "", []string{}},
		{"D10/long run cut at 255", strings.Repeat("Z", 300), []string{strings.Repeat("z", 255), strings.Repeat("z", 45)}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := terms(Simple(nil, c.in)); !reflect.DeepEqual(got, c.want) {
				t.Fatalf("Simple(%q) = %q, want %q", c.in, got, c.want)
			}
		})
	}
}

func TestWhitespace(t *testing.T) {
	cases := []struct {
		name string
		in   string
		want []string
	}{
		{"D10/case kept", "Hello, World!  foo-bar\tBaz\n", []string{"Hello,", "World!", "foo-bar", "Baz"}},
		{"D10/no-break space is not whitespace (Java)", "a\u00a0b c\u2003d", []string{"a\u00a0b", "c", "d"}},
		{"D10/empty", "   ", []string{}},
		{"D10/long run cut at 255", strings.Repeat("-", 256), []string{strings.Repeat("-", 255), "-"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := terms(Whitespace(nil, c.in)); !reflect.DeepEqual(got, c.want) {
				t.Fatalf("Whitespace(%q) = %q, want %q", c.in, got, c.want)
			}
		})
	}
}

func TestKeyword(t *testing.T) {
	if got := Keyword(nil, "Mixed Case, Punct!"); !reflect.DeepEqual(got, []Token{{"Mixed Case, Punct!", 0}}) {
		t.Fatalf("got %v", got)
	}
	// Lucene's KeywordTokenizer emits one (empty) token for empty input.
	if got := Keyword(nil, ""); !reflect.DeepEqual(got, []Token{{"", 0}}) {
		t.Fatalf("Keyword(\"\") = %v, want one empty token", got)
	}
}

func TestByName(t *testing.T) {
	for _, name := range []string{"standard", "simple", "whitespace", "keyword"} {
		if a, ok := ByName(name); !ok || a == nil {
			t.Errorf("ByName(%q) missing", name)
		}
	}
	for _, name := range []string{"", "Standard", "english", "stop"} {
		if _, ok := ByName(name); ok {
			t.Errorf("ByName(%q) should be unknown", name)
		}
	}
	a, _ := ByName("whitespace")
	if got := terms(a(nil, "A b")); !reflect.DeepEqual(got, []string{"A", "b"}) {
		t.Errorf("ByName(whitespace) analyses as %q", got)
	}
}

// D4/D12: array values are analysed value by value with a gap of 100
// positions, as Lucene's indexing chain adds position_increment_gap.
func TestAppendValuesGap(t *testing.T) {
	got := AppendValues(nil, Standard, []string{"Red apple", "", "!!", "blue"})
	want := []Token{{"red", 0}, {"apple", 1}, {"blue", 1 + 3*PositionIncrementGap + 1}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	if PositionIncrementGap != 100 || MaxTokenLength != 255 {
		t.Fatal("D4 constants changed")
	}
	// A phrase "apple blue" must not match across values.
	if got[2].Position-got[1].Position <= 1 {
		t.Fatal("values are adjacent")
	}
}

// TestStandardASCIIFastPath checks that the ASCII fast path makes the tokens the
// segmenter alone makes, on random texts of ASCII around the characters that join
// words or attach to them (marks, ZWJ, U+202F, emoji, keycaps, quotes of other
// scripts) and on the analysis cases.
func TestStandardASCIIFastPath(t *testing.T) {
	pieces := []string{"a", "Z", "7", "0", "_", ".", ",", ";", ":", "'", "\"", " ", "  ", "\r\n", "\n", "\t",
		"#", "*", "-", "/", "@", "!", "(", "\x00", "\x7f", "\u0301", "\u200d", "\u202f", "\u2019", "\u00b7",
		"\U0001F44D", "\U0001F3FD", "\ufe0f\u20e3", "\u20e3", "é", "東", "ア", "ก", "\u05d0", "\xff", "\xe2\x80",
		"abc", "ABC9", "3.14", "o'connor"}
	seed := uint64(1)
	next := func(n int) int {
		seed ^= seed << 13
		seed ^= seed >> 7
		seed ^= seed << 17
		return int(seed % uint64(n))
	}
	check := func(text string) {
		t.Helper()
		fast, slow := standard(nil, text, true), standard(nil, text, false)
		if !reflect.DeepEqual(fast, slow) {
			t.Fatalf("%q: fast path %v, segmenter %v", text, fast, slow)
		}
	}
	for _, c := range standardCases {
		check(c.in)
	}
	check(benchHTML)
	check(strings.Repeat("a", 300) + " b")
	var b strings.Builder
	for range 200000 {
		b.Reset()
		for range 1 + next(12) {
			b.WriteString(pieces[next(len(pieces))])
		}
		check(b.String())
	}
}
