package dsl

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// The query model's patterns have no case-insensitive flag, so case_insensitive
// prefix, wildcard, regexp and term clauses (D12) become Lucene regular expressions in
// which each letter is a class of its case variants ([hH][oO]...).

// appendFolds appends r, or a class of r and its simple case foldings.
func appendFolds(b *strings.Builder, r rune, inClass bool) {
	variants := []rune{r}
	for f := unicode.SimpleFold(r); f != r && len(variants) < 8; f = unicode.SimpleFold(f) {
		variants = append(variants, f)
	}
	if len(variants) == 1 {
		appendRegexpLiteral(b, r)
		return
	}
	if !inClass {
		b.WriteByte('[')
	}
	for _, v := range variants {
		appendRegexpLiteral(b, v)
	}
	if !inClass {
		b.WriteByte(']')
	}
}

// appendRegexpLiteral appends r escaped for Lucene's RegExp syntax when it is special.
func appendRegexpLiteral(b *strings.Builder, r rune) {
	if r < utf8.RuneSelf && strings.ContainsRune(`.?+*|{}[]()"\#@&<>~^-$`, r) {
		b.WriteByte('\\')
	}
	b.WriteRune(r)
}

// caseInsensitiveLiteral is a regexp matching s exactly, ignoring case.
func caseInsensitiveLiteral(s string) string {
	var b strings.Builder
	for _, r := range s {
		appendFolds(&b, r, false)
	}
	return b.String()
}

// caseInsensitiveWildcard turns a wildcard pattern (* any run, ? one character,
// \ escapes) into a case-insensitive regexp.
func caseInsensitiveWildcard(p string) string {
	var b strings.Builder
	escaped := false
	for _, r := range p {
		switch {
		case escaped:
			appendFolds(&b, r, false)
			escaped = false
		case r == '\\':
			escaped = true
		case r == '*':
			b.WriteString(".*")
		case r == '?':
			b.WriteByte('.')
		default:
			appendFolds(&b, r, false)
		}
	}
	if escaped {
		appendFolds(&b, '\\', false)
	}
	return b.String()
}

// caseInsensitiveRegexp adds the case variants of the letters of a regexp: outside
// classes each letter becomes a class; inside a class, letters gain their variants and
// an ASCII letter range gains the other case's range.
func caseInsensitiveRegexp(p string) string {
	var b strings.Builder
	inClass := false
	rs := []rune(p)
	for i := 0; i < len(rs); i++ {
		r := rs[i]
		switch {
		case r == '\\' && i+1 < len(rs):
			b.WriteRune(r)
			b.WriteRune(rs[i+1])
			i++
		case r == '[' && !inClass:
			inClass = true
			b.WriteRune(r)
			if i+1 < len(rs) && rs[i+1] == '^' {
				b.WriteRune('^')
				i++
			}
		case r == ']' && inClass:
			inClass = false
			b.WriteRune(r)
		case inClass && i+2 < len(rs) && rs[i+1] == '-' && rs[i+2] != ']':
			lo, hi := r, rs[i+2]
			b.WriteRune(lo)
			b.WriteRune('-')
			b.WriteRune(hi)
			switch {
			case lo >= 'a' && hi <= 'z' && lo <= hi:
				b.WriteRune(lo - 32)
				b.WriteRune('-')
				b.WriteRune(hi - 32)
			case lo >= 'A' && hi <= 'Z' && lo <= hi:
				b.WriteRune(lo + 32)
				b.WriteRune('-')
				b.WriteRune(hi + 32)
			}
			i += 2
		case unicode.IsLetter(r):
			appendFolds(&b, r, inClass)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// globMatch reports whether name matches pattern, where * matches any run of
// characters (dots included, as Elasticsearch's simple match does).
func globMatch(pattern, name string) bool {
	if pattern == "*" {
		return true
	}
	if !strings.Contains(pattern, "*") {
		return pattern == name
	}
	st := globStart(pattern)
	for i := 0; i < len(name) && len(st) > 0; i++ {
		st = globStep(pattern, st, name[i])
	}
	return globAccepts(pattern, st)
}

// The glob automaton: a state is a position in the pattern; a set of states is kept
// sorted and without duplicates. Patterns are short, so sets are tiny.

func globClose(pattern string, st []int) []int {
	// Epsilon moves: a '*' may match nothing.
	for i := 0; i < len(st); i++ {
		p := st[i]
		if p < len(pattern) && pattern[p] == '*' && !containsInt(st, p+1) {
			st = append(st, p+1)
		}
	}
	return st
}

func globStart(pattern string) []int { return globClose(pattern, []int{0}) }

func globStep(pattern string, st []int, c byte) []int {
	var next []int
	for _, p := range st {
		if p >= len(pattern) {
			continue
		}
		switch {
		case pattern[p] == '*':
			if !containsInt(next, p) {
				next = append(next, p)
			}
		case pattern[p] == c:
			if !containsInt(next, p+1) {
				next = append(next, p+1)
			}
		}
	}
	return globClose(pattern, next)
}

func globAccepts(pattern string, st []int) bool { return containsInt(st, len(pattern)) }

func containsInt(s []int, v int) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}
