package eval

import (
	"math/rand/v2"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/cdaedge/cdaedge/edge"
	"github.com/cdaedge/cdaedge/edge/automaton"
)

// goRegexpOracle is compileLuceneRegexp as it was before edge/automaton: a translation
// to an anchored Go regexp. It is kept, unchanged, as the oracle of the differential
// tests: the automaton must accept the patterns it accepted and match the same terms,
// except where oracleQuirk says the translation was wrong.
func goRegexpOracle(pattern string, caseInsensitive bool) (*regexp.Regexp, error) {
	var b strings.Builder
	if caseInsensitive {
		b.WriteString("(?i)")
	}
	b.WriteString("^(?:")
	inClass := false
	for i := 0; i < len(pattern); i++ {
		c := pattern[i]
		switch {
		case c == '\\' && i+1 < len(pattern):
			i++
			n := pattern[i]
			if strings.IndexByte("dDsSwW", n) >= 0 {
				b.WriteByte('\\')
				b.WriteByte(n)
			} else {
				oracleWriteLiteral(&b, pattern[i:i+1])
			}
		case inClass:
			if c == ']' {
				inClass = false
			}
			if c == '[' || c == '\\' {
				b.WriteByte('\\')
			}
			b.WriteByte(c)
		case c == '[':
			inClass = true
			b.WriteByte(c)
			if i+1 < len(pattern) && pattern[i+1] == '^' {
				b.WriteByte('^')
				i++
			}
		case c == '"':
			end := strings.IndexByte(pattern[i+1:], '"')
			if end < 0 {
				return nil, edge.Errorf(edge.CodeInvalidQuery, "regular expression %q: unterminated quoted string", edge.Clip(pattern))
			}
			oracleWriteLiteral(&b, pattern[i+1:i+1+end])
			i += end + 1
		case c == '@':
			b.WriteString("(?s:.*)")
		case c == '.':
			b.WriteString("(?s:.)")
		case c == '^' || c == '$':
			b.WriteByte('\\')
			b.WriteByte(c)
		case c == '&' || c == '~' || c == '<' || c == '#':
			return nil, edge.Errorf(edge.CodeInvalidQuery, "regular expression %q: the operator %q is not supported", edge.Clip(pattern), string(c))
		default:
			b.WriteByte(c)
		}
	}
	b.WriteString(")$")
	re, err := regexp.Compile(b.String())
	if err != nil {
		return nil, edge.Errorf(edge.CodeInvalidQuery, "invalid regular expression %q: %v", edge.Clip(pattern), strings.TrimPrefix(err.Error(), "error parsing regexp: "))
	}
	return re, nil
}

func oracleWriteLiteral(b *strings.Builder, s string) {
	b.WriteString(regexp.QuoteMeta(s))
}

// oracleQuirk names the translation bug a pattern runs into, if any; there the
// automaton deliberately differs from the oracle.
//   - A class starting with ] (or ^]): the translator took that ] for the class's end
//     and read the members after it as operators, "[].]" matching ")".
//   - An escaped - in a class: the translator unescaped it, so [a\-z] was the range
//     a-z rather than a, - and z.
//   - A \ or " between the bytes of one UTF-8 character: the translator dropped it,
//     so the invalid "\xd6\\\xb5" became the valid "\u05b5".
//   - A quoted string or escape inside a count or a (?flags) group: the translator
//     unquoted it into Go's syntax, so a{"2"} was a{2}, (?\i) was (?i) and (""?i)
//     was (?i) too.
func oracleQuirk(p string) bool {
	if strings.Contains(p, "[]") || strings.Contains(p, "[^]") ||
		strings.Contains(p, `\-`) && strings.Contains(p, "[") ||
		!utf8.ValidString(p) && utf8.ValidString(strings.NewReplacer(`\`, "", `"`, "").Replace(p)) ||
		strings.Count(strings.ReplaceAll(p, `""`, ""), "(?") > strings.Count(p, "(?") {
		return true
	}
	for i := 0; i < len(p); i++ {
		var ok func(byte) bool
		switch {
		case p[i] == '{':
			ok = func(c byte) bool { return c >= '0' && c <= '9' || c == ',' }
		case p[i] == '(' && i+1 < len(p) && p[i+1] == '?':
			i++
			ok = func(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '-' }
		default:
			continue
		}
		j := i + 1
		for j < len(p) && ok(p[j]) {
			j++
		}
		if j < len(p) && (p[j] == '"' || p[j] == '\\') {
			return true
		}
	}
	return false
}

// deliberateRefusal reports whether the automaton refused a pattern the oracle
// accepted on purpose: its size and nesting limits, and a ) without its ( — which the
// translation let close its own wrapping group, so that "a)|(b" matched every term
// starting with a.
func deliberateRefusal(err error) bool {
	e, ok := err.(*edge.Error)
	if !ok {
		return false
	}
	return e.Code == edge.CodeTooComplex || strings.Contains(e.Message, ": unmatched )") ||
		strings.Contains(e.Message, "groups nest deeper than")
}

// compareWithOracle checks that the automaton and the oracle agree on pattern: both
// refuse it, or both accept it and match the same terms.
func compareWithOracle(t *testing.T, pattern string, ci bool, terms []string) (compared bool) {
	t.Helper()
	if oracleQuirk(pattern) {
		return false
	}
	want, werr := goRegexpOracle(pattern, ci)
	got, gerr := compileLuceneRegexp(pattern, ci)
	switch {
	case werr != nil && gerr != nil:
		return true
	case werr != nil:
		t.Fatalf("pattern %q (ci=%v): the oracle refuses it (%v) but the automaton accepts it", pattern, ci, werr)
	case gerr != nil:
		if deliberateRefusal(gerr) {
			return false
		}
		t.Fatalf("pattern %q (ci=%v): the oracle accepts it but the automaton refuses it: %v", pattern, ci, gerr)
	}
	prefix := got.LiteralPrefix()
	for _, term := range terms {
		w, g := want.MatchString(term), got.Match(term)
		if w != g {
			t.Fatalf("pattern %q (ci=%v) on %q: oracle %v, automaton %v", pattern, ci, term, w, g)
		}
		if g && !strings.HasPrefix(term, prefix) {
			t.Fatalf("pattern %q matches %q, which lacks its literal prefix %q", pattern, term, prefix)
		}
	}
	return true
}

// patternTokens are the pieces random patterns are made of: the syntax, its edge cases
// and characters whose case folding is special (K and the Kelvin sign, s and long s,
// ß and ẞ).
var patternTokens = []string{
	"a", "b", "c", "A", "B", "k", "K", "\u212a", "s", "S", "\u017f", "ß", "ẞ", "é", "日",
	"0", "1", "9", " ", "\n", "-", "_", ",", ":", "=", "!", "P",
	".", "@", "|", "|", "(", "(", ")", ")", "*", "+", "?", "*?", "{", "}", "[", "]", "[^", "^", "$",
	"\\", "\"", "\"ab\"", "\"\"", "\\.", "\\*", "\\[", "\\]", "\\-", "\\\\", "\\n", "\\é", "\\\"",
	"\\d", "\\D", "\\s", "\\S", "\\w", "\\W", "[a-c]", "[^a]", "[a-]", "[-a]", "[\\d_]", "[\\W]",
	"[k-s]", "[A-Z]", "[]a]", "[z-a]", "[a-\\d]",
	"{2}", "{1,2}", "{0,}", "{0}", "{,2}", "{02}", "{1001}", "{2,1}", "{3,30}", "{25}",
	"(?i)", "(?-i)", "(?i:", "(?:", "(?s)", "(?m:", "(?x)", "(?i-s)", "(?-)", "(?",
	"&", "~", "<", "#", "\xff", "\xc3",
}

// termRunes are what random terms are made of: the pattern alphabet, invalid UTF-8
// included.
var termRunes = []string{
	"a", "b", "c", "A", "B", "k", "K", "\u212a", "s", "S", "\u017f", "ß", "ẞ", "é", "É", "日",
	"0", "1", "9", " ", "\n", "\t", "-", "_", ",", "{", "}", "[", "]", "^", "$", ".", "@",
	"\"", "\\", "*", "(", ")", "\xff", "\xef\xbf\xbd", "z",
}

func randomPattern(r *rand.Rand) string {
	var b strings.Builder
	for n := r.IntN(12); n > 0; n-- {
		b.WriteString(patternTokens[r.IntN(len(patternTokens))])
	}
	return b.String()
}

func randomTerms(r *rand.Rand, pattern string, n int) []string {
	terms := []string{"", pattern}
	// The pattern's own characters, unescaped, are likely to make matching terms.
	var plain strings.Builder
	for _, c := range pattern {
		if c < utf8.RuneSelf && strings.ContainsRune(`\"()[]{}|*+?.@^$`, c) {
			continue
		}
		plain.WriteRune(c)
	}
	terms = append(terms, plain.String(), plain.String()+plain.String())
	for len(terms) < n {
		var b strings.Builder
		for k := r.IntN(9); k > 0; k-- {
			b.WriteString(termRunes[r.IntN(len(termRunes))])
		}
		terms = append(terms, b.String())
	}
	return terms
}

// TestRegexpDifferential compares the automaton with the oracle on random patterns and
// terms.
func TestRegexpDifferential(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	n := 40000
	if testing.Short() {
		n = 4000
	}
	compared, accepted := 0, 0
	for i := 0; i < n; i++ {
		p := randomPattern(r)
		terms := randomTerms(r, p, 40)
		for _, ci := range []bool{false, true} {
			if compareWithOracle(t, p, ci, terms) {
				compared++
				if _, err := compileLuceneRegexp(p, ci); err == nil {
					accepted++
				}
			}
		}
	}
	t.Logf("%d patterns compared with the oracle, %d of them accepted by both", compared, accepted)
}

// TestRegexpMessages pins the messages clients see for refused patterns.
func TestRegexpMessages(t *testing.T) {
	for _, c := range []struct {
		pattern string
		code    edge.Code
		msg     string
	}{
		{"a&b", edge.CodeInvalidQuery, `regular expression "a&b": the operator "&" is not supported`},
		{"~a", edge.CodeInvalidQuery, `regular expression "~a": the operator "~" is not supported`},
		{"<1-5>", edge.CodeInvalidQuery, `regular expression "<1-5>": the operator "<" is not supported`},
		{"#", edge.CodeInvalidQuery, `regular expression "#": the operator "#" is not supported`},
		{`(a"bc`, edge.CodeInvalidQuery, `regular expression "(a\"bc": unterminated quoted string`},
		{"(ab", edge.CodeInvalidQuery, `invalid regular expression "(ab": missing ) for the ( opened at offset 0`},
		{"ab)", edge.CodeInvalidQuery, `invalid regular expression "ab)": unmatched ) at offset 2`},
		{"[ab", edge.CodeInvalidQuery, `invalid regular expression "[ab": missing ] for the [ opened at offset 0`},
		{"*a", edge.CodeInvalidQuery, `invalid regular expression "*a": nothing to repeat before * at offset 0`},
		{"a|+", edge.CodeInvalidQuery, `invalid regular expression "a|+": nothing to repeat before + at offset 2`},
		{"a**", edge.CodeInvalidQuery, `invalid regular expression "a**": repetition * directly follows another repetition (group the first, as in (a*)*) at offset 2`},
		{"a{2,1}", edge.CodeInvalidQuery, `invalid regular expression "a{2,1}": repetition count {2,1} has its minimum above its maximum at offset 1`},
		{"a{1001}", edge.CodeInvalidQuery, `invalid regular expression "a{1001}": repetition count {1001} exceeds 1000 at offset 1`},
		{"(a{100}){11}", edge.CodeInvalidQuery, `invalid regular expression "(a{100}){11}": nested repetition counts multiply to more than 1000 with {11} at offset 8`},
		{"[z-a]", edge.CodeInvalidQuery, `invalid regular expression "[z-a]": range z-a in a class runs backwards at offset 1`},
		{`[a-\d]`, edge.CodeInvalidQuery, `invalid regular expression "[a-\\d]": class escape \d cannot end a range at offset 3`},
		{`ab\`, edge.CodeInvalidQuery, `invalid regular expression "ab\\": trailing \ escapes nothing at offset 2`},
		{"a\xffb", edge.CodeInvalidQuery, `invalid regular expression "a\xffb": invalid UTF-8 at offset 1`},
		{"(?x)a", edge.CodeInvalidQuery, `invalid regular expression "(?x)a": invalid group "(?x" (only (?flags) and (?flags:...) with the flags i, m, s and U are supported) at offset 0`},
		{strings.Repeat("(", 1001) + strings.Repeat(")", 1001), edge.CodeInvalidQuery, "groups nest deeper than 1000 levels at offset 1000"},
		{"(abcdefghijk){1000}", edge.CodeTooComplex, `regular expression "(abcdefghijk){1000}" is too complex: the automaton would need more than 10000 states`},
		{"((a{1,100}){1,100}){1,100}", edge.CodeInvalidQuery, "nested repetition counts multiply to more than 1000"},
	} {
		_, err := compileLuceneRegexp(c.pattern, false)
		e, ok := err.(*edge.Error)
		if !ok {
			t.Errorf("%q: error %v, want %s", c.pattern, err, c.msg)
			continue
		}
		if e.Code != c.code || !strings.Contains(e.Message, c.msg) {
			t.Errorf("%q: %s %q, want %s %q", c.pattern, e.Code, e.Message, c.code, c.msg)
		}
	}
}

// TestRegexpLiteralPrefix checks the prefix the dictionary scan skips to.
func TestRegexpLiteralPrefix(t *testing.T) {
	for pattern, want := range map[string]string{
		"br.*n":      "br",
		"abc":        "abc",
		`"a.b"c*`:    "a.b",
		"ab|ac":      "",
		"a(b|c)":     "a",
		"ab?":        "a",
		"(ab)+":      "ab",
		"ab*":        "a",
		"caf\u00e9+": "caf\u00e9",
		"\ufffdx":    "",
		"(?i)abc":    "",
		"(?i)12a":    "12",
		"@abc":       "",
		"":           "",
	} {
		m, err := compileLuceneRegexp(pattern, false)
		if err != nil {
			t.Fatalf("%q: %v", pattern, err)
		}
		if got := m.LiteralPrefix(); got != want {
			t.Errorf("%q: prefix %q, want %q", pattern, got, want)
		}
	}
}

// FuzzRegexpDifferential compares the automaton with the oracle on arbitrary patterns:
// both refuse, or both accept and match the same terms (the NUL-separated terms given,
// and the pattern itself).
func FuzzRegexpDifferential(f *testing.F) {
	for _, seed := range []string{
		"", "a|", "()", "(a*)*b", "br.*n", "[]a]", "[a-]", `[\]-]`, `"a.b"c`, `\d+\.\d*`, "@a@",
		"(?i)k", "(?i:s)ß", "[^\\W]", "a{2,3}?", "a{,2}", "x{1000}", "(abc){0,30}", "[k-s]+",
		"\xd6\\\xb5", "\xce\"\x83\"",
	} {
		f.Add(seed, "a\x00ab\x00abc\x00\x00K\u212a\x00\xff", false)
		f.Add(seed, "a\x00b", true)
	}
	f.Fuzz(func(t *testing.T, pattern, terms string, ci bool) {
		if len(pattern) > 200 || len(terms) > 2000 {
			return
		}
		compareWithOracle(t, pattern, ci, append(strings.Split(terms, "\x00"), pattern))
	})
}

// BenchmarkRegexpMatch matches patterns against a dictionary of 10,000 terms, with
// Go's regexp (the oracle, as the engine did before) and with the automaton.
func BenchmarkRegexpMatch(b *testing.B) {
	r := rand.New(rand.NewPCG(3, 4))
	words := []string{"camping", "mug", "sticker", "pack", "enamel", "coffee", "café", "brown", "bread", "kettle"}
	terms := make([]string, 10000)
	for i := range terms {
		terms[i] = words[r.IntN(len(words))] + strconv.Itoa(r.IntN(1000))
		if i%3 == 0 {
			terms[i] = words[r.IntN(len(words))] + "-" + terms[i]
		}
	}
	for _, p := range []string{"br.*n[0-9]+", "(sticker|mug)[0-9]{2}", "[a-z]+-[a-z]+[0-9]*", "@e@e@", "(?i)CAF.[0-9]+"} {
		re, err := goRegexpOracle(p, false)
		if err != nil {
			b.Fatal(err)
		}
		m, err := compileLuceneRegexp(p, false)
		if err != nil {
			b.Fatal(err)
		}
		n := 0
		for _, t := range terms {
			if re.MatchString(t) != m.Match(t) {
				b.Fatalf("%q on %q: the engines disagree", p, t)
			}
			if m.Match(t) {
				n++
			}
		}
		b.Run("go-regexp/"+p, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				for _, t := range terms {
					re.MatchString(t)
				}
			}
		})
		b.Run("automaton/"+p, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				for _, t := range terms {
					m.Match(t)
				}
			}
		})
	}
}

// TestRegexpMatchDoesNotAllocate keeps the hot path of the dictionary scan free of
// garbage, for both of the automaton's engines.
func TestRegexpMatchDoesNotAllocate(t *testing.T) {
	for _, p := range []string{"br.*n[0-9]+", "(abc){30}x*", "(?i)caf\u00e9.*"} {
		m, err := automaton.Compile(p, false)
		if err != nil {
			t.Fatal(err)
		}
		if n := testing.AllocsPerRun(100, func() {
			m.Match("brown123")
			m.Match("abcabcabcabc\xffcafÉ")
		}); n != 0 {
			t.Errorf("%q: %v allocations per match", p, n)
		}
	}
}
