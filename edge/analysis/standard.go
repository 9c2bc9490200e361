package analysis

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/cdaedge/cdaedge/edge/analysis/internal/wordbreak"
)

// kind is what Lucene's StandardTokenizer grammar makes of a UAX #29 segment.
type kind uint8

const (
	kindDrop  kind = iota // whitespace, punctuation, symbols: Lucene's catch-all rule
	kindWord              // <ALPHANUM>, <NUM>, <IDEOGRAPHIC>, <HIRAGANA>, <KATAKANA>, <HANGUL>
	kindSA                // <SOUTHEAST_ASIAN>: runs of Complex_Context letters are one token
	kindEmoji             // <EMOJI>
)

const (
	zwj  = 0x200D
	nnbs = 0x202F // NARROW NO-BREAK SPACE
)

// Standard is the "standard" analyzer (D4, the default): Lucene's
// StandardTokenizer followed by LowerCaseFilter, with no stop words.
//
// Word boundaries are UAX #29 (internal/wordbreak, which finds them as
// github.com/clipperhouse/uax29/v2 does, from a smaller table). A segment
// becomes a token when Lucene's grammar would emit it: words and numbers
// (o'connor, kyoto's, example.com, 3.14 and 1,000.50 stay whole), each CJK
// ideograph and each hiragana on its own, runs of katakana, hangul and of
// Thai/Lao/Khmer/Myanmar letters, and emoji (including ZWJ sequences, skin
// tones, flags and keycaps). Whitespace, punctuation and symbol segments are
// dropped without using a position. A token longer than MaxTokenLength UTF-16
// units is cut into pieces as Lucene cuts it. Terms are lower-cased per code
// point.
//
// Lucene's grammar is compiled from Unicode 9 tables, the segmenter from
// Unicode 17. Where the newer rules join more than Lucene does, Standard
// cuts as Lucene would: at U+202F (ExtendNumLet only since Unicode 11) and
// between a word and a ZWJ emoji sequence ("a\u200d🐶" gives "a\u200d" and
// "🐶"). Known remaining differences, all deliberate: characters assigned
// after Unicode 9 follow Unicode 17; a text-presentation selector (U+FE0E)
// after an emoji stays in the emoji's term, where Lucene drops it; Tangut
// and other non-Han ideographs are kept as words, where Lucene drops them.
func Standard(dst []Token, text string) []Token {
	return standard(dst, text, true)
}

// standard is Standard, with the ASCII fast path (asciiSegment) when ascii: the
// tests compare it with the segmenter alone.
func standard(dst []Token, text string, ascii bool) []Token {
	t := tokenizer{dst: dst, hint: len(text)}
	for p := 0; p < len(text); {
		if ascii {
			if end, word := asciiSegment(text, p); end > p {
				if word {
					t.emit(text[p:end], kindWord)
				}
				p = end
				continue
			}
		}
		// The segmenter keeps no state from one segment to the next, so
		// restarting it at p is exact; it lets the Complex_Context run below
		// look ahead one segment and hand it back.
		start, end := p, p+wordbreak.SegmentLen(text[p:])
		p = end
		seg := text[start:end]
		switch classify(seg) {
		case kindDrop:
			if off := emojiInside(seg); off >= 0 {
				t.emit(seg[off:], kindEmoji)
			}
		case kindEmoji:
			t.emit(seg, kindEmoji)
		case kindSA:
			for p < len(text) {
				e := p + wordbreak.SegmentLen(text[p:])
				if classify(text[p:e]) != kindSA {
					break
				}
				end, p = e, e
			}
			t.emit(text[start:end], kindSA)
		case kindWord:
			t.word(seg)
		}
	}
	return t.dst
}

// asciiSegment finds the segment at text[p] without the segmenter when ASCII alone
// decides it, as it does for most of a typical text (BenchmarkStandard: 0.70x the
// time with it; the builder spent an eighth of its time in Standard): a run of ASCII
// letters and digits that ends the text or is followed by an ASCII byte that cannot
// continue a word (UAX #29 joins a word across ' . : , ; and _, and WB4 attaches the
// marks that follow it, which are not ASCII), or a single ASCII byte that starts no
// word (anything but a letter, a digit or _, the start of "_word") before another
// ASCII byte. It returns the segment's end and whether it
// is a word, or end p when the segmenter must decide. The segment is then the one
// the segmenter finds, or, for the runs of spaces and CR LF it keeps together, a
// piece of one, dropped all the same.
func asciiSegment(text string, p int) (end int, word bool) {
	switch asciiClass[text[p]] {
	case asciiWord:
		j := p + 1
		for j < len(text) && asciiClass[text[j]] == asciiWord {
			j++
		}
		if j == len(text) || asciiClass[text[j]] == asciiBreak {
			return j, true
		}
	case asciiBreak, asciiJoin:
		if p+1 == len(text) || text[p+1] < utf8.RuneSelf {
			return p + 1, false
		}
	}
	return p, false
}

// ASCII classes for asciiSegment; every byte from 0x80 is asciiNone.
const (
	asciiNone  = iota // not ASCII, or "_", which may start or continue a word
	asciiWord         // a letter or a digit
	asciiBreak        // ends a word and starts none
	asciiJoin         // may continue a word (MidLetter, MidNum, MidNumLet, quotes): ' . : , ; "
)

// asciiClass is the asciiSegment class of each byte.
var asciiClass = func() (c [256]uint8) {
	for b := 0; b < utf8.RuneSelf; b++ {
		switch {
		case 'a' <= b && b <= 'z', 'A' <= b && b <= 'Z', '0' <= b && b <= '9':
			c[b] = asciiWord
		case strings.IndexByte(`'.:,;"`, byte(b)) >= 0:
			c[b] = asciiJoin
		case b != '_':
			c[b] = asciiBreak
		}
	}
	return c
}()

// tokenizer accumulates the tokens of one Standard call.
type tokenizer struct {
	dst  []Token
	pos  int
	hint int
	lw   lowerer
}

// word emits a word segment, first cutting it where Lucene's grammar stops
// but UAX #29 (Unicode 17) goes on (see wordCut).
func (t *tokenizer) word(seg string) {
	for seg != "" {
		cut, resume, emoji := wordCut(seg)
		if cut < 0 {
			t.emit(seg, kindWord)
			return
		}
		if hasWordChar(seg[:cut]) {
			t.emit(seg[:cut], kindWord)
		}
		if emoji {
			t.emit(seg[resume:], kindEmoji)
			return
		}
		// After a U+202F, Lucene drops each character that cannot start a
		// token (combining marks, for one) and starts afresh.
		seg = skipNonWord(seg[resume:])
	}
}

// emit appends tok, lower-cased, cutting it into pieces of at most
// MaxTokenLength UTF-16 units as Lucene's scanner does: its buffer holds
// that many chars, it returns the longest prefix its grammar accepts (a word
// piece does not end in a dangling "." or "'"), and scanning resumes after
// the piece, dropping characters that cannot start a token. The pieces are
// cut here rather than by re-segmenting the rest, which would be quadratic
// in the length of a pathological megabyte-long "word".
func (t *tokenizer) emit(tok string, k kind) {
	// A UTF-16 unit takes at least one byte, so only tokens longer than
	// MaxTokenLength bytes can be too long.
	if len(tok) <= MaxTokenLength {
		t.append(tok)
		return
	}
	// Past the last letter or digit a word has nothing left to emit; found
	// once so that each cut below does not rescan the rest.
	wordEnd := len(tok)
	if k == kindWord {
		for wordEnd > 0 {
			r, n := utf8.DecodeLastRuneInString(tok[:wordEnd])
			if isWordRune(r) {
				break
			}
			wordEnd -= n
		}
	}
	for len(tok) > MaxTokenLength {
		cut := cutUnits(tok, MaxTokenLength)
		if cut >= len(tok) {
			break
		}
		if k == kindWord {
			cut = trimMid(tok[:cut])
		}
		t.append(tok[:cut])
		before := len(tok)
		tok = tok[cut:]
		wordEnd -= cut
		if k == kindWord {
			tok = skipNonWord(tok)
			wordEnd -= before - cut - len(tok)
			if wordEnd <= 0 {
				return
			}
		}
	}
	if tok != "" {
		t.append(tok)
	}
}

func (t *tokenizer) append(term string) {
	t.dst = append(t.dst, Token{Term: t.lw.lower(term, t.hint), Position: t.pos})
	t.pos++
}

// skipNonWord drops leading runes that cannot start a word token (anything
// but letters, numbers and connector punctuation such as "_").
func skipNonWord(s string) string {
	for i, r := range s {
		if isWordRune(r) || unicode.Is(unicode.Pc, r) {
			return s[i:]
		}
	}
	return ""
}

// classify decides from a segment's first code point (and, for a few
// ambiguous starts, the rest of it) which Lucene rule would match it.
func classify(seg string) kind {
	c := seg[0]
	if c < utf8.RuneSelf {
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
			return kindWord
		case c == '_':
			// Leading ExtendNumLet belongs to a word only if one follows;
			// "___" alone matches no Lucene token rule.
			if hasWordChar(seg) {
				return kindWord
			}
		case c == '#' || c == '*':
			// Keycap sequences (#️⃣) are emoji; a bare # or * is not.
			if strings.HasPrefix(seg[1:], "\u20E3") || strings.HasPrefix(seg[1:], "\uFE0F\u20E3") {
				return kindEmoji
			}
		}
		return kindDrop
	}
	r, n := utf8.DecodeRuneInString(seg)
	switch {
	case isComplexContext(r):
		return kindSA
	case isWordRune(r):
		return kindWord
	case wordbreak.IsExtendedPictographic(r):
		return kindEmoji
	case isRegionalIndicator(r):
		// A flag is a pair; a lone regional indicator is dropped.
		r2, _ := utf8.DecodeRuneInString(seg[n:])
		if isRegionalIndicator(r2) {
			return kindEmoji
		}
	case r == nnbs || unicode.Is(unicode.Pc, r):
		if hasWordChar(seg) {
			return kindWord
		}
	}
	return kindDrop
}

// isWordRune reports letters and numbers that start Lucene's word, number,
// ideographic, hiragana, katakana and hangul rules.
func isWordRune(r rune) bool {
	return unicode.IsLetter(r) || unicode.In(r, unicode.Nd, unicode.Nl)
}

func isComplexContext(r rune) bool {
	return r >= 0x0E00 && inRanges(r, complexContext[:]) && (unicode.IsLetter(r) || unicode.IsMark(r))
}

func isRegionalIndicator(r rune) bool { return r >= 0x1F1E6 && r <= 0x1F1FF }

func isEmojiModifier(r rune) bool { return r >= 0x1F3FB && r <= 0x1F3FF }

func hasWordChar(s string) bool {
	for _, r := range s {
		if isWordRune(r) {
			return true
		}
	}
	return false
}

// emojiInside finds an emoji that UAX #29 attached to a dropped segment
// through WB4 (a skin-tone modifier after a space) or WB3c (ZWJ + emoji after
// punctuation). Lucene drops only the leading character and then matches the
// emoji, so the token starts there. It returns -1 when there is none.
func emojiInside(seg string) int {
	// Emoji modifiers and ZWJ are not ASCII; most dropped segments are.
	ascii := true
	for i := 0; i < len(seg); i++ {
		if seg[i] >= utf8.RuneSelf {
			ascii = false
			break
		}
	}
	if ascii {
		return -1
	}
	for i := 0; i < len(seg); {
		r, n := utf8.DecodeRuneInString(seg[i:])
		if isEmojiModifier(r) {
			return i
		}
		if r == zwj {
			j := i + n
			for strings.HasPrefix(seg[j:], "\u200D") {
				j += 3
			}
			if r2, _ := utf8.DecodeRuneInString(seg[j:]); wordbreak.IsExtendedPictographic(r2) {
				return i
			}
			i = j // skip the whole ZWJ run: linear even for a long one
			continue
		}
		i += n
	}
	return -1
}

// wordCut finds where a word segment must end because UAX #29 (Unicode 17)
// joins more than Lucene (Unicode 9) does. U+202F became ExtendNumLet in
// Unicode 11, so "10\u202F000" or "Bonjour\u202F!" would otherwise yield one
// token (or a term ending in an invisible space); Lucene treats it as a
// separator. And WB3c joins a ZWJ-then-emoji to a preceding letter, where
// Lucene's word rule stops after the ZWJ and the emoji is its own token.
// cut is the end of the word (-1 when the segment stands), resume where the
// rest starts, and emoji tells that the rest is an emoji sequence.
func wordCut(seg string) (cut, resume int, emoji bool) {
	// Both U+202F and U+200D encode as E2 80 xx; most segments have neither.
	for i := strings.IndexByte(seg, 0xE2); i >= 0 && i+2 < len(seg); {
		if seg[i+1] == 0x80 {
			switch seg[i+2] {
			case 0xAF: // U+202F
				return i, i + 3, false
			case 0x8D: // U+200D
				j := i + 3
				for strings.HasPrefix(seg[j:], "\u200D") {
					j += 3
				}
				if r, _ := utf8.DecodeRuneInString(seg[j:]); wordbreak.IsExtendedPictographic(r) {
					return j, j, true
				}
				i = j - 1 // skip the whole ZWJ run: linear even for a long one
			}
		}
		k := strings.IndexByte(seg[i+1:], 0xE2)
		if k < 0 {
			break
		}
		i += 1 + k
	}
	return -1, -1, false
}

// cutUnits returns the byte length of the longest prefix of s that has at
// most max UTF-16 units without splitting a code point. Lucene's scanner
// buffer holds max chars and keeps a trailing high surrogate for the next
// token, so it never splits a pair either.
func cutUnits(s string, max int) int {
	units := 0
	for i, r := range s {
		units += utf16Len(r)
		if units > max {
			return i
		}
	}
	return len(s)
}

// trimMid drops trailing MidLetter/MidNum punctuation (".", ",", "'", ...)
// from a cut word: Lucene's scanner returns the longest prefix its grammar
// accepts, and "abc." is not a word without a letter after the dot.
func trimMid(s string) int {
	end := len(s)
	for end > 0 {
		r, n := utf8.DecodeLastRuneInString(s[:end])
		if !(r == 0x2044 || (unicode.IsPunct(r) && !unicode.Is(unicode.Pc, r))) {
			break
		}
		end -= n
	}
	if end == 0 {
		return len(s)
	}
	return end
}
