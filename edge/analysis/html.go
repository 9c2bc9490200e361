package analysis

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// StripHTML removes markup from s as Lucene's HTMLStripCharFilter
// (Elasticsearch's html_strip) does, for the string values inside Data (D4):
//
//   - a block-level tag, start or end, becomes "\n", so words on either side
//     stay apart ("end.</p><p>Next" gives "end.\n\nNext"); Lucene treats every
//     tag that is not one of its inline elements as block-level, unknown and
//     custom tags included;
//   - an inline tag (a, abbr, acronym, b, basefont, bdo, big, cite, code, dfn,
//     em, font, i, img, input, kbd, label, q, s, samp, select, small, span,
//     strike, strong, sub, sup, textarea, tt, u, var) vanishes without a space
//     ("foo<strong>bar</strong>" gives "foobar");
//   - attribute values are not text, even when quoted values hold "<" or ">";
//   - comments, <!DOCTYPE ...>, processing instructions (<?...?>) vanish;
//     script and style elements, contents included, become "\n";
//   - <![CDATA[...]]> keeps its content as literal text;
//   - the named HTML 4 entities, and decimal and hex references, are
//     decoded; &nbsp; is a plain space; a surrogate pair written as two
//     references is joined; a lone surrogate becomes U+FFFD; the ";" may be
//     left out only at the very end of s;
//   - whatever does not parse as markup stays as it is: "a < b", "x<3",
//     "AT&T", "&bogus;", "<a href=" without its ">". As in Lucene, an
//     unterminated comment, script or style swallows the rest of s, and
//     "a < b and c > d" holds a tag ("< b and c >").
//
// One deliberate difference: Lucene drops a tag name that runs to the very
// end of its input ("a < b" gives "a "), a quirk of its scanner's
// end-of-input rule; here that text is kept, as Lucene keeps it whenever
// anything follows, so the last word of "x < y" stays searchable.
//
// It returns s itself, without allocating, when s holds no markup to remove,
// and otherwise allocates once. It never panics and its cost is linear in
// len(s): past a generous budget, quoted attribute values stop hiding "<" and
// ">" (only adversarial input reaches it; Lucene itself is quadratic there).
func StripHTML(s string) string {
	i := indexMarkup(s)
	if i < 0 {
		return s
	}
	st := stripper{s: s, budget: 16*len(s) + 4096}
	for i < len(s) {
		var j int
		if s[i] == '&' {
			j = st.entity(i)
		} else {
			j = st.markup(i)
		}
		// Skip ahead to the next character that can start markup.
		k := indexMarkup(s[j:])
		if k < 0 {
			break
		}
		i = j + k
	}
	if !st.dirty {
		return s
	}
	st.b.WriteString(s[st.last:])
	return st.b.String()
}

// indexMarkup is strings.IndexAny(s, "<&") without building a set per call.
func indexMarkup(s string) int {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c == '<' || c == '&' {
			return i
		}
	}
	return -1
}

// stripper builds the output lazily: text between replacements is copied
// only once the first replacement is known to be needed.
type stripper struct {
	s     string
	b     strings.Builder
	last  int // s[last:] has not been copied to b yet
	dirty bool
	// budget bounds the bytes tagTail may examine over the whole call. The
	// longest-match search can revisit text (Lucene's scanner is quadratic
	// on inputs like "<a b='x" repeated); once the budget is spent, quoted
	// values and includes no longer hide "<" and ">", which keeps the cost
	// linear and the result still a function of s alone.
	budget int
	// nextGT's memo: the first ">" at or after gtFrom is at gtAt (-1: none).
	gtFrom, gtAt int
	gtValid      bool
}

// begin copies the pending text up to i and prepares to write a replacement
// for s[i:j]; the caller writes the replacement next.
func (st *stripper) begin(i, j int) {
	if !st.dirty {
		st.dirty = true
		st.b.Grow(len(st.s))
	}
	st.b.WriteString(st.s[st.last:i])
	st.last = j
}

// nextGT returns the index of the first ">" at or after from, or -1. Calls
// come with growing from, so the last answer is reused while it is still
// ahead: "<?" repeated before one distant ">" stays linear.
func (st *stripper) nextGT(from int) int {
	if st.gtValid && from >= st.gtFrom && (st.gtAt < 0 || from <= st.gtAt) {
		return st.gtAt
	}
	at := strings.IndexByte(st.s[from:], '>')
	if at >= 0 {
		at += from
	}
	st.gtFrom, st.gtAt, st.gtValid = from, at, true
	return at
}

// replace replaces s[i:j] with repl and returns j.
func (st *stripper) replace(i, j int, repl string) int {
	st.begin(i, j)
	st.b.WriteString(repl)
	return j
}

// entity handles the "&" at s[i] and returns where scanning resumes. What is
// not a complete reference stays as text, as Lucene emits the characters it
// consumed unchanged.
func (st *stripper) entity(i int) int {
	s := st.s
	k := i + 1
	if k < len(s) && s[k] == '#' {
		r, e, ok := numericRef(s, k+1)
		if !ok {
			return i + 1
		}
		if e == len(s) {
			st.begin(i, e)
			st.b.WriteRune(surrogateSafe(r))
			return e
		}
		if s[e] != ';' {
			return i + 1
		}
		e++
		if r >= 0xD800 && r <= 0xDBFF {
			// Lucene joins a high and a low surrogate written as two
			// references; each on its own is not a character.
			if lo, e2, ok := lowSurrogateRef(s, k+1, e); ok {
				st.begin(i, e2)
				st.b.WriteRune(0x10000 + (r-0xD800)<<10 + (lo - 0xDC00))
				return e2
			}
		}
		st.begin(i, e)
		st.b.WriteRune(surrogateSafe(r))
		return e
	}
	// Longest entity name that is a prefix of the text, as Lucene's scanner
	// matches; a shorter name is not tried when the longest lacks its ";".
	n := 0
	for n < maxEntityName && k+n < len(s) && isASCIIAlnum(s[k+n]) {
		n++
	}
	for ; n > 0; n-- {
		r, ok := entityLookup(s[k : k+n])
		if !ok {
			continue
		}
		e := k + n
		if e < len(s) {
			if s[e] != ';' {
				return i + 1
			}
			e++
		}
		st.begin(i, e)
		st.b.WriteRune(r)
		return e
	}
	return i + 1
}

// numericRef parses the digits of a numeric reference starting at p (after
// "&#"): "x" and up to 5 hex digits, or up to 7 decimal digits, at most
// U+10FFFF. The digit limits are Lucene's (it counts the "x" in its 6).
func numericRef(s string, p int) (r rune, end int, ok bool) {
	if p >= len(s) {
		return 0, 0, false
	}
	hex := s[p] == 'x' || s[p] == 'X'
	q := p
	if hex {
		q++
	}
	v := 0
	d := q
	for d < len(s) && d-q <= 8 {
		c := s[d]
		var x int
		switch {
		case '0' <= c && c <= '9':
			x = int(c - '0')
		case hex && 'a' <= c && c <= 'f':
			x = int(c-'a') + 10
		case hex && 'A' <= c && c <= 'F':
			x = int(c-'A') + 10
		default:
			x = -1
		}
		if x < 0 {
			break
		}
		if hex {
			v = v*16 + x
		} else {
			v = v*10 + x
		}
		d++
	}
	n := d - q
	if n == 0 || (hex && n > 5) || (!hex && n > 7) || v > unicode.MaxRune {
		return 0, 0, false
	}
	return rune(v), d, true
}

// lowSurrogateRef checks for Lucene's surrogate-pair patterns: the high half
// at p (after "&#") written as 4 hex digits or 5 decimal digits, ending at e
// (after its ";"), followed by "&#" and a low half in the same forms and ";".
func lowSurrogateRef(s string, p, e int) (rune, int, bool) {
	if !refDigitsFit(s[p : e-1]) {
		return 0, 0, false
	}
	if !strings.HasPrefix(s[e:], "&#") {
		return 0, 0, false
	}
	lo, e2, ok := numericRef(s, e+2)
	if !ok || e2 >= len(s) || s[e2] != ';' || lo < 0xDC00 || lo > 0xDFFF || !refDigitsFit(s[e+2:e2]) {
		return 0, 0, false
	}
	return lo, e2 + 1, true
}

// refDigitsFit reports Lucene's pair-pattern widths: "x" + 4 hex digits or 5
// decimal digits, both five characters.
func refDigitsFit(ref string) bool { return len(ref) == 5 }

func surrogateSafe(r rune) rune {
	if r >= 0xD800 && r <= 0xDFFF {
		return utf8.RuneError
	}
	return r
}

// markup handles the "<" at s[i] and returns where scanning resumes.
func (st *stripper) markup(i int) int {
	s := st.s
	k := i + 1
	if k >= len(s) {
		return k
	}
	switch s[k] {
	case '!':
		return st.bang(i)
	case '?':
		// Processing instruction: "<?" ... ("?" or "/") ">", up to the first ">".
		gt := st.nextGT(k + 1)
		if gt > k+1 && (s[gt-1] == '?' || s[gt-1] == '/') {
			return st.replace(i, gt+1, "")
		}
		return i + 1
	case '/':
		m := skipSpace(s, k+1)
		n := nameEnd(s, m)
		if n == m {
			return i + 1
		}
		q := skipSpace(s, n)
		if q >= len(s) || s[q] != '>' {
			return i + 1
		}
		return st.replace(i, q+1, tagReplacement(s[m:n]))
	}
	m := skipSpace(s, k)
	for _, raw := range []string{"script", "style"} {
		if hasPrefixFold(s[m:], raw) {
			// Lucene matches "<script" followed by any tag content, so
			// "<scripts>" opens a script element too.
			if end, ok := tagTail(s, m+len(raw), &st.budget); ok {
				return st.rawText(i, end, raw)
			}
		}
	}
	n := nameEnd(s, m)
	if n == m {
		return i + 1
	}
	end, ok := tagTail(s, n, &st.budget)
	if !ok {
		return i + 1
	}
	return st.replace(i, end, tagReplacement(s[m:n]))
}

// bang handles "<!": a comment, a CDATA section, or a declaration such as
// <!DOCTYPE html>, which is removed up to the next ">".
func (st *stripper) bang(i int) int {
	s := st.s
	p := i + 2
	switch {
	case strings.HasPrefix(s[p:], "--"):
		end := skipComment(s, p+2, false)
		if end < 0 {
			return st.replace(i, len(s), "")
		}
		return st.replace(i, end, "")
	case strings.HasPrefix(s[p:], "[CDATA["):
		body := p + len("[CDATA[")
		e := strings.Index(s[body:], "]]>")
		if e < 0 {
			return st.replace(i, len(s), s[body:])
		}
		return st.replace(i, body+e+3, s[body:body+e])
	}
	gt := st.nextGT(p)
	if gt < 0 {
		// Lucene emits an unclosed "<!..." verbatim, entities included.
		return len(s)
	}
	return st.replace(i, gt+1, "")
}

// rawText skips a script or style element whose start tag ends at start and
// replaces the whole element with "\n". Inside, only the end tag and
// <!-- ... --> (with quoted strings, in which "-->" does not count) matter.
// An element without an end tag swallows the rest of s, as in Lucene.
func (st *stripper) rawText(i, start int, name string) int {
	s := st.s
	for q := start; q < len(s); {
		lt := strings.IndexByte(s[q:], '<')
		if lt < 0 {
			break
		}
		q += lt
		if strings.HasPrefix(s[q:], "<!--") {
			end := skipComment(s, q+4, true)
			if end < 0 {
				break
			}
			q = end
			continue
		}
		if q+1 < len(s) && s[q+1] == '/' {
			m := skipSpace(s, q+2)
			if hasPrefixFold(s[m:], name) {
				e := skipSpace(s, m+len(name))
				if e < len(s) && s[e] == '>' {
					return st.replace(i, e+1, "\n")
				}
			}
		}
		q++
	}
	return st.replace(i, len(s), "")
}

// skipComment returns the index after the "-->" that closes a comment whose
// body starts at p, or -1. Server-side includes (<!--#...-->) nest inside;
// in script and style comments quoted strings are skipped too.
func skipComment(s string, p int, quotes bool) int {
	for p < len(s) {
		c := s[p]
		switch {
		case c == '-' && strings.HasPrefix(s[p:], "-->"):
			return p + 3
		case c == '<' && strings.HasPrefix(s[p:], "<!--#"):
			p = skipSSI(s, p+5)
			if p < 0 {
				return -1
			}
			continue
		case quotes && (c == '\'' || c == '"'):
			p = skipQuoted(s, p)
			if p < 0 {
				return -1
			}
			continue
		}
		p++
	}
	return -1
}

// skipSSI returns the index after the "-->" ending a server-side include
// whose body starts at p, skipping quoted strings, or -1.
func skipSSI(s string, p int) int {
	for p < len(s) {
		c := s[p]
		switch {
		case c == '-' && strings.HasPrefix(s[p:], "-->"):
			return p + 3
		case c == '\'' || c == '"':
			p = skipQuoted(s, p)
			if p < 0 {
				return -1
			}
			continue
		}
		p++
	}
	return -1
}

// skipQuoted returns the index after the quote closing the string that
// opens at s[p], where a backslash escapes the next character, or -1.
func skipQuoted(s string, p int) int {
	q := s[p]
	for p++; p < len(s); p++ {
		switch s[p] {
		case '\\':
			p++
		case q:
			return p + 1
		}
	}
	return -1
}

// tagTail finds the ">" that ends a start tag whose content begins at p and
// returns the index after it. Lucene's scanner takes the longest match of
// (attribute="quoted value" | server-side include | any char but < and >)* ">",
// so a quoted value may hide "<" and ">", and when a quote does not close
// where expected the plain reading may reach further. Reachable positions are
// explored in order from a small work list; intervals of plain characters
// are scanned once.
func tagTail(s string, p int, budget *int) (int, bool) {
	var pending [16]int
	np := 0
	best := -1
	for {
		stop := p
		for stop < len(s) && s[stop] != '<' && s[stop] != '>' {
			if *budget > 0 && isSpace(s[stop]) && (stop == p || !isSpace(s[stop-1])) {
				np = quotedAttrEnds(s, stop, pending[:], np, budget)
			}
			stop++
		}
		*budget -= stop - p
		if stop < len(s) {
			if s[stop] == '>' {
				best = stop + 1
			} else if *budget > 0 && strings.HasPrefix(s[stop:], "<!--#") {
				e := skipSSI(s, stop+5)
				if e < 0 {
					*budget -= len(s) - stop
				} else {
					*budget -= e - stop
				}
				if e >= 0 && np < len(pending) {
					pending[np] = e
					np++
				}
			}
		}
		// Next reachable start beyond this interval, smallest first.
		next := -1
		for j := 0; j < np; {
			if pending[j] <= stop {
				np--
				pending[j] = pending[np]
				continue
			}
			if next < 0 || pending[j] < pending[next] {
				next = j
			}
			j++
		}
		if next < 0 {
			break
		}
		p = pending[next]
		np--
		pending[next] = pending[np]
	}
	return best, best >= 0
}

// quotedAttrEnds adds to pending the positions just after each possible end
// of a quoted attribute value (\s+ Name \s* = \s* "...") starting at the
// whitespace at p. A quote preceded by a backslash may or may not end the
// value in Lucene's grammar, so each such quote is a possible end.
func quotedAttrEnds(s string, p int, pending []int, np int, budget *int) int {
	q := nameEnd(s, skipSpace(s, p))
	if q == skipSpace(s, p) {
		return np
	}
	q = skipSpace(s, q)
	if q >= len(s) || s[q] != '=' {
		return np
	}
	q = skipSpace(s, q+1)
	if q >= len(s) || (s[q] != '"' && s[q] != '\'') {
		return np
	}
	quote := s[q]
	for x := q + 1; x < len(s); x++ {
		*budget--
		if s[x] != quote {
			continue
		}
		if np < len(pending) {
			pending[np] = x + 1
			np++
		}
		if s[x-1] != '\\' {
			break
		}
	}
	return np
}

// tagReplacement is "" for Lucene's inline elements and "\n" for every
// other tag (block-level, br, unknown).
func tagReplacement(name string) string {
	if len(name) <= 8 {
		for _, in := range inlineElements[:] {
			if len(in) == len(name) && strings.EqualFold(in, name) {
				return ""
			}
		}
	}
	return "\n"
}

// inlineElements is Lucene's InlineElment list; every other tag name is
// replaced by a line break.
var inlineElements = [...]string{
	"a", "abbr", "acronym", "b", "basefont", "bdo", "big", "cite", "code",
	"dfn", "em", "font", "i", "img", "input", "kbd", "label", "q", "s",
	"samp", "select", "small", "span", "strike", "strong", "sub", "sup",
	"textarea", "tt", "u", "var",
}

// nameEnd returns the end of the XML/HTML name starting at p (Lucene's
// [:_\p{ID_Start}] [-.:_\p{ID_Continue}]*), or p when there is none.
func nameEnd(s string, p int) int {
	q := p
	for q < len(s) {
		c := s[q]
		if c < utf8.RuneSelf {
			ok := isASCIIAlnum(c) || c == ':' || c == '_'
			if q > p {
				ok = ok || c == '-' || c == '.'
			} else {
				ok = ok && !('0' <= c && c <= '9')
			}
			if !ok {
				break
			}
			q++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[q:])
		ok := unicode.IsLetter(r) || unicode.Is(unicode.Nl, r)
		if q > p {
			ok = ok || unicode.In(r, unicode.Mn, unicode.Mc, unicode.Nd, unicode.Pc)
		}
		if !ok || r == utf8.RuneError {
			break
		}
		q += n
	}
	return q
}

// isSpace is JFlex's \s as Lucene's grammar uses it for tags.
func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'
}

func skipSpace(s string, p int) int {
	for p < len(s) && isSpace(s[p]) {
		p++
	}
	return p
}

func isASCIIAlnum(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}

func hasPrefixFold(s, prefix string) bool {
	return len(s) >= len(prefix) && strings.EqualFold(s[:len(prefix)], prefix)
}
