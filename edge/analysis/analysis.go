// Package analysis turns text into the terms that filters and the search DSL
// match against, with the analyzers of API.md D4 and D10: "standard"
// (Lucene's StandardTokenizer + LowerCaseFilter, the default), "simple",
// "whitespace" and "keyword", plus HTML stripping as Lucene's
// HTMLStripCharFilter (Elasticsearch's html_strip).
//
// The package is compiled to WebAssembly with TinyGo, so it avoids
// reflection, goroutines and large init-time tables, and it must not panic on
// any input. Terms are substrings of the input whenever analysis does not
// change them; lower-cased terms of one call share a single buffer.
package analysis

import (
	"unicode"
	"unicode/utf8"
	"unsafe"
)

// PositionIncrementGap is the number of positions left empty between two
// values of one array field (D4, Elasticsearch's position_increment_gap), so
// a phrase or a slop query never matches across values.
const PositionIncrementGap = 100

// MaxTokenLength is the longest term the standard, simple and whitespace
// analyzers emit, in UTF-16 code units as Lucene counts it (D4): a longer run
// is cut into pieces of at most this length, each its own token.
const MaxTokenLength = 255

// Token is one analysed term and its position. Positions are 0-based within
// one call of an Analyzer and grow by one per emitted token; skipped text
// (punctuation, whitespace) does not consume positions.
type Token struct {
	Term     string
	Position int
}

// Analyzer appends the tokens of text to dst and returns the extended slice.
// It never panics and never keeps a reference to dst.
type Analyzer func(dst []Token, text string) []Token

// ByName returns the analyzer the search DSL's "analyzer" parameter names
// (D10): "standard", "simple", "whitespace" or "keyword". Names are matched
// exactly, as Elasticsearch does; ok is false for any other name.
func ByName(name string) (a Analyzer, ok bool) {
	switch name {
	case "standard":
		return Standard, true
	case "simple":
		return Simple, true
	case "whitespace":
		return Whitespace, true
	case "keyword":
		return Keyword, true
	}
	return nil, false
}

// AppendValues analyses the values of one multi-valued (array) field as
// Lucene indexes them (D4, D12): value by value, each value's positions
// following the previous value's last position plus PositionIncrementGap, so
// the first value starts at 0 and values never share a phrase. A value with
// no tokens still adds the gap, as Lucene's indexing chain does.
func AppendValues(dst []Token, a Analyzer, values []string) []Token {
	last := -1 // position of the last token so far, Lucene's invertState.position
	for i, v := range values {
		if i > 0 {
			last += PositionIncrementGap
		}
		n := len(dst)
		dst = a(dst, v)
		for j := n; j < len(dst); j++ {
			dst[j].Position += last + 1
		}
		if len(dst) > n {
			last = dst[len(dst)-1].Position
		}
	}
	return dst
}

// Keyword emits the whole text as one token, unchanged. Like Lucene's
// KeywordTokenizer it emits that token even for the empty string (a
// zero-length term), so "" can be matched exactly; callers that ignore empty
// filter values (D4) check for "" before analysing.
func Keyword(dst []Token, text string) []Token {
	return append(dst, Token{Term: text, Position: 0})
}

// Whitespace splits text at whitespace (Java's Character.isWhitespace, as
// Lucene's WhitespaceTokenizer) and keeps case. Runs longer than
// MaxTokenLength UTF-16 units are cut as Lucene's CharTokenizer cuts them.
func Whitespace(dst []Token, text string) []Token {
	return charTokens(dst, text, func(r rune) bool { return !javaIsWhitespace(r) }, nil)
}

// Simple emits maximal runs of letters (Java's Character.isLetter, as
// Lucene's LetterTokenizer in SimpleAnalyzer), lower-cased per code point.
// Digits and punctuation separate tokens.
func Simple(dst []Token, text string) []Token {
	var lw lowerer
	return charTokens(dst, text, unicode.IsLetter, &lw)
}

// charTokens is Lucene's CharTokenizer: a token is a maximal run of runes for
// which isTokenChar holds, cut when it reaches MaxTokenLength UTF-16 units.
// The check comes after a code point is added, so a token can end one unit
// over the limit when its last code point is a surrogate pair, as in Lucene.
func charTokens(dst []Token, text string, isTokenChar func(rune) bool, lw *lowerer) []Token {
	pos := 0
	start, units := -1, 0
	emit := func(end int) {
		term := text[start:end]
		if lw != nil {
			term = lw.lower(term, len(text))
		}
		dst = append(dst, Token{Term: term, Position: pos})
		pos++
		start, units = -1, 0
	}
	for i := 0; i < len(text); {
		r, n := rune(text[i]), 1
		if r >= utf8.RuneSelf {
			r, n = utf8.DecodeRuneInString(text[i:])
		}
		if isTokenChar(r) {
			if start < 0 {
				start = i
			}
			units += utf16Len(r)
			i += n
			if units >= MaxTokenLength {
				emit(i)
			}
			continue
		}
		if start >= 0 {
			emit(i)
		}
		i += n
	}
	if start >= 0 {
		emit(len(text))
	}
	return dst
}

// javaIsWhitespace is java.lang.Character.isWhitespace: Unicode space
// separators except the no-break spaces, plus the ASCII controls Java lists.
func javaIsWhitespace(r rune) bool {
	switch {
	case r == ' ' || (r >= '\t' && r <= '\r') || (r >= 0x1C && r <= 0x1F):
		return true
	case r < 0x80:
		return false
	case r == 0xA0 || r == 0x2007 || r == 0x202F:
		return false
	}
	return unicode.In(r, unicode.Zs, unicode.Zl, unicode.Zp)
}

func utf16Len(r rune) int {
	if r >= 0x10000 {
		return 2
	}
	return 1
}

// lowerer lower-cases terms as Lucene's LowerCaseFilter does (per code point,
// Character.toLowerCase, which like unicode.ToLower is the simple case
// mapping). Terms that are already lower-case are returned as they are; the
// others are written one after another into buf, which is only ever appended
// to, so each term is a view of bytes never rewritten (as strings.Builder's
// String is) and one call costs one allocation however many terms it
// lower-cases. Not a strings.Builder: it records its own address, which makes
// TinyGo's escape analysis move every tokenizer holding one to the heap.
type lowerer struct {
	buf []byte
}

func (l *lowerer) lower(s string, hint int) string {
	i := 0
	for i < len(s) {
		c := s[i]
		if c < utf8.RuneSelf {
			if 'A' <= c && c <= 'Z' {
				break
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if unicode.ToLower(r) != r {
			break
		}
		i += n
	}
	if i == len(s) {
		return s
	}
	if cap(l.buf) == 0 {
		// Sized for the whole text: lower-casing rarely grows a string.
		l.buf = make([]byte, 0, hint+16)
	}
	start := len(l.buf)
	l.buf = append(l.buf, s[:i]...)
	for i < len(s) {
		c := s[i]
		if c < utf8.RuneSelf {
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			l.buf = append(l.buf, c)
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 {
			// Keep invalid bytes as they are rather than widen them to U+FFFD.
			l.buf = append(l.buf, c)
		} else {
			l.buf = utf8.AppendRune(l.buf, unicode.ToLower(r))
		}
		i += n
	}
	// The bytes from start on are never written again: appends go past them, and a
	// grown buffer is a new array.
	return unsafe.String(&l.buf[start], len(l.buf)-start)
}
