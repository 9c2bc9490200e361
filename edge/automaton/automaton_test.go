package automaton

import (
	"math/rand/v2"
	"strings"
	"testing"
	"time"
	"unicode"
)

// TestFoldOutsideCaseRanges keeps addFolded's shortcut right: every character with
// other cases under simple folding is in unicode.CaseRanges or foldOutsideCaseRanges.
func TestFoldOutsideCaseRanges(t *testing.T) {
	inRanges := func(r rune) bool {
		for _, c := range unicode.CaseRanges {
			if rune(c.Lo) <= r && r <= rune(c.Hi) {
				return true
			}
		}
		return false
	}
	for r := rune(0); r <= unicode.MaxRune; r++ {
		if unicode.SimpleFold(r) == r || inRanges(r) {
			continue
		}
		found := false
		for _, c := range foldOutsideCaseRanges {
			found = found || c == r
		}
		if !found {
			t.Errorf("%U folds but is neither in unicode.CaseRanges nor in foldOutsideCaseRanges", r)
		}
	}
}

func mustCompile(t testing.TB, pattern string, fold, general bool) *Matcher {
	t.Helper()
	m, err := compile(pattern, fold, general)
	if err != nil {
		t.Fatalf("%q: %v", pattern, err)
	}
	return m
}

// TestMatch covers edge cases of the syntax on both engines.
func TestMatch(t *testing.T) {
	for _, c := range []struct {
		pattern string
		fold    bool
		yes, no []string
	}{
		{"", false, []string{""}, []string{"a"}},
		{"a|", false, []string{"a", ""}, []string{"aa"}},
		{"|", false, []string{""}, []string{"|"}},
		{"()", false, []string{""}, []string{"()"}},
		{"()*", false, []string{""}, []string{"a"}},
		{"(|a)b", false, []string{"b", "ab"}, []string{"aab"}},
		{"(a*)*b", false, []string{"b", "aaab"}, []string{"aaa", ""}},
		{"^a$", false, []string{"^a$"}, []string{"a"}},
		{"a.c", false, []string{"abc", "a\nc", "a日c", "a\xffc"}, []string{"ac", "a\xff\xffc"}},
		{"@", false, []string{"", "anything\n"}, nil},
		{"a@z", false, []string{"az", "a-\n-z"}, []string{"a"}},
		{`"a.b"c*`, false, []string{"a.b", "a.bcc"}, []string{"axb", "a.ba.b"}},
		{`"ab"*`, false, []string{"a", "abbb"}, []string{"abab"}}, // as before: * repeats the last character
		{`a""*`, false, []string{"", "aaa"}, []string{`""`}},
		{`\d\D\s\S\w\W`, false, []string{"1x\tx_-"}, []string{"1x\vx_-", "١x x_-"}},
		{`\.\*\"\@\\\q`, false, []string{`.*"@\q`}, nil},
		{`[]a]`, false, []string{"]", "a"}, []string{"b", "[]a]"}},
		{`[^]a]`, false, []string{"b", "日"}, []string{"]", "a"}},
		{`[a-]`, false, []string{"a", "-"}, []string{"b"}},
		{`[-a]`, false, []string{"a", "-"}, []string{"b"}},
		{`[a\-z]`, false, []string{"a", "-", "z"}, []string{"m"}},
		{`[\]\\\[]`, false, []string{"]", `\`, "["}, []string{"a"}},
		{`[\d_]+`, false, []string{"0_9"}, []string{"a"}},
		{`[\d-z]`, false, []string{"5", "-", "z"}, []string{"y"}},
		{`[&~<#."@]`, false, []string{"&", "~", "<", "#", ".", `"`, "@"}, []string{"a"}},
		{`[é-ü]+`, false, []string{"éü", "ñ"}, []string{"e", "ÿ"}},
		{`[^a]`, false, []string{"b", "\xff", "日"}, []string{"a", ""}},
		{`[^\d\D]`, false, nil, []string{"", "a"}},
		{"\ufffd", false, []string{"\ufffd", "\xff"}, []string{"a"}},
		{"日+本?", false, []string{"日", "日日本"}, []string{"本"}},
		{"a{2}", false, []string{"aa"}, []string{"a", "aaa"}},
		{"a{2,}", false, []string{"aa", "aaaa"}, []string{"a"}},
		{"a{0,2}b", false, []string{"b", "ab", "aab"}, []string{"aaab"}},
		{"a{0}b", false, []string{"b"}, []string{"ab"}},
		{"a{,2}", false, []string{"a{,2}"}, []string{"aa"}},
		{"a{02}", false, []string{"a{02}"}, []string{"aa"}},
		{"a{1,2", false, []string{"a{1,2"}, []string{"a"}},
		{"a*?b+?c??d{1,2}?", false, []string{"bd", "aabbcdd"}, []string{"abccd"}},
		{"(?i)abc", false, []string{"ABC", "aBc"}, []string{"abd"}},
		{"abc", true, []string{"ABC"}, nil},
		{"a(?i)b|c", false, []string{"aB", "C"}, []string{"Ab"}},
		{"(?i:a)b", false, []string{"Ab"}, []string{"AB"}},
		{"(?i)a(?-i)b", false, []string{"Ab"}, []string{"AB"}},
		{"(?i-s:k)", false, []string{"k", "K", "\u212a"}, []string{"x"}},
		{"(?i)ß", false, []string{"ß", "ẞ"}, []string{"ss"}},
		{"(?i)[k]", false, []string{"k", "K", "\u212a"}, nil},
		{"(?i)[^k]", false, []string{"x"}, []string{"k", "K", "\u212a"}},
		{`(?i)\W`, false, []string{"-"}, []string{"k", "\u212a", "s", "\u017f"}},
		{`(?i)\w`, false, []string{"\u212a", "\u017f"}, []string{"-"}},
		{"(?i)[a-c]+", false, []string{"aBC"}, []string{"d"}},
		{"(?i)[à-ÿ]", false, []string{"À", "Ÿ"}, []string{"a"}},
		{"(?i)[A-𞥃]", false, []string{"a", "ß", "ẞ"}, []string{"@"}},
		{"a*(?i)*", false, []string{"", "aa"}, nil}, // (?i) resets the repetition rule, as in Go
		{"(?)a", false, []string{"a"}, nil},
		{"(?:a|b)+", false, []string{"abba"}, nil},
		{`a*""?b`, false, []string{"b", "aab"}, nil}, // lazy across an empty quoted string
	} {
		for _, general := range []bool{false, true} {
			m := mustCompile(t, c.pattern, c.fold, general)
			for _, s := range c.yes {
				if !m.Match(s) {
					t.Errorf("%q (general=%v) does not match %q", c.pattern, general, s)
				}
			}
			for _, s := range c.no {
				if m.Match(s) {
					t.Errorf("%q (general=%v) matches %q", c.pattern, general, s)
				}
			}
		}
	}
}

// TestErrors checks the kind and position of refusals.
func TestErrors(t *testing.T) {
	for _, c := range []struct {
		pattern string
		kind    ErrorKind
		offset  int
		msg     string
	}{
		{"ab&c", ErrUnsupported, 2, "the operator & at offset 2 is not supported"},
		{"(a*b", ErrSyntax, 0, "missing ) for the ( opened at offset 0"},
		{"[a&]&", ErrUnsupported, 4, ""},
		{`"a&b" c"`, ErrUnterminatedQuote, 7, "unterminated quoted string at offset 7"},
		{"(a{2,1}", ErrSyntax, 2, ""},         // the first problem, left to right
		{"*\"a", ErrUnterminatedQuote, 1, ""}, // quotes and operators first, as before
		{"(?i-)", ErrSyntax, 0, ""},
		{"(?--i)", ErrSyntax, 0, ""},
		{"(?i", ErrSyntax, 0, ""},
		{"(?P<n>a)", ErrUnsupported, 3, ""},
		{"a{2}{3}", ErrSyntax, 4, "repetition {3} directly follows another repetition"},
		{"a*??", ErrSyntax, 3, ""},
		{"(?i)*", ErrSyntax, 4, "nothing to repeat before *"},
		{"{2}", ErrSyntax, 0, "nothing to repeat before {2}"},
		{"a{99999999999}", ErrSyntax, 1, "exceeds 1000"},
		{`[a`, ErrSyntax, 0, ""},
		{`[a\`, ErrSyntax, 0, ""},
		{`[a-`, ErrSyntax, 0, ""},
		{"((a{2}){600})", ErrSyntax, 7, "multiply"},
		{strings.Repeat("abcdefghij", 1001), ErrTooComplex, 0, ""},
		{"(abcdefghijk){1000}", ErrTooComplex, 0, "10000 states"},
		{"(a*b*c*d*e*){1000}", ErrTooComplex, 0, ""},
	} {
		_, err := compile(c.pattern, false, false)
		if err == nil {
			t.Errorf("%q: no error", c.pattern)
			continue
		}
		if c.kind == ErrTooComplex && err.Kind == ErrTooComplex {
			continue // found wherever the count ran over
		}
		if err.Kind != c.kind || err.Offset != c.offset || !strings.Contains(err.Msg, c.msg) {
			t.Errorf("%q: kind %d offset %d %q; want kind %d offset %d containing %q", c.pattern, err.Kind, err.Offset, err.Msg, c.kind, c.offset, c.msg)
		}
	}
	if _, err := Compile(strings.Repeat("(", MaxDepth)+strings.Repeat(")", MaxDepth), false); err != nil {
		t.Errorf("%d nested groups: %v", MaxDepth, err)
	}
	if _, err := Compile("(a{10}){100}", false); err != nil {
		t.Errorf("counts multiplying to 1000: %v", err)
	}
}

// TestEnginesAgree compares the small engine with the general one on random patterns.
func TestEnginesAgree(t *testing.T) {
	tokens := []string{"a", "b", "c", "K", ".", "@", "|", "(", ")", "*", "+", "?", "[a-b]", "[^a]", `\w`, "{2}", "{0,3}", "(?i)", "é", "\"ab\""}
	alphabet := []string{"a", "b", "c", "k", "K", "é", "\xff", "-"}
	r := rand.New(rand.NewPCG(5, 6))
	for i := 0; i < 20000; i++ {
		var p strings.Builder
		for n := r.IntN(10); n > 0; n-- {
			p.WriteString(tokens[r.IntN(len(tokens))])
		}
		small, err := compile(p.String(), false, false)
		if err != nil {
			continue
		}
		general := mustCompile(t, p.String(), false, true)
		for j := 0; j < 30; j++ {
			var s strings.Builder
			for n := r.IntN(8); n > 0; n-- {
				s.WriteString(alphabet[r.IntN(len(alphabet))])
			}
			if a, b := small.Match(s.String()), general.Match(s.String()); a != b {
				t.Fatalf("%q on %q: small engine %v, general %v", p.String(), s.String(), a, b)
			}
		}
	}
}

// TestLargeAutomaton uses the general engine, which the small one's 63 states force.
func TestLargeAutomaton(t *testing.T) {
	m := mustCompile(t, "(abc){1000}x?", false, false)
	if m.small {
		t.Fatal("3000 states in the small engine")
	}
	ok := strings.Repeat("abc", 1000)
	if !m.Match(ok) || !m.Match(ok+"x") || m.Match(ok[3:]) || m.Match(ok+"abc") {
		t.Error("(abc){1000}x? matches wrongly")
	}
	if m.LiteralPrefix() != ok {
		t.Errorf("prefix of %d bytes, want 3000", len(m.LiteralPrefix()))
	}
}

// TestNoBacktracking runs patterns that make backtracking engines exponential on long
// terms: each must finish in time linear in the term.
func TestNoBacktracking(t *testing.T) {
	term := strings.Repeat("a", 100000)
	for _, p := range []string{"(a*)*b", "(a|a)*b", "(a|aa)+b", "(a?){30}a{30}b", "(.*a){20}b", "@a@a@a@b"} {
		m := mustCompile(t, p, false, false)
		start := time.Now()
		if m.Match(term) {
			t.Errorf("%q matches a term without b", p)
		}
		if d := time.Since(start); d > 2*time.Second {
			t.Errorf("%q took %v on 100,000 characters", p, d)
		}
	}
}

// TestNormalize checks the sort-and-merge of ranges against a bitmap.
func TestNormalize(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for i := 0; i < 2000; i++ {
		var set []rng
		var want [300]bool
		for n := r.IntN(60); n > 0; n-- {
			lo := rune(r.IntN(290))
			hi := lo + rune(r.IntN(8))
			set = append(set, rng{lo, hi})
			for c := lo; c <= hi; c++ {
				want[c] = true
			}
		}
		got := normalize(set)
		var have [300]bool
		for k, g := range got {
			if k > 0 && g.lo <= got[k-1].hi+1 {
				t.Fatalf("ranges %v and %v overlap or touch", got[k-1], g)
			}
			for c := g.lo; c <= g.hi; c++ {
				have[c] = true
			}
		}
		if have != want {
			t.Fatalf("normalize(%v) = %v", set, got)
		}
	}
}
