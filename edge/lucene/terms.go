// Term-level rules of the classic query parser: bare terms, phrases, wildcards,
// fuzzy terms, ranges and backslash escapes, each analysed by its field's analyzer.

package lucene

import (
	"math"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/cdaedge/cdaedge/edge/query"
)

// term is QueryParser.jj's Term: a bare token, a range or a phrase, each with an
// optional boost and fuzzy slop in either order.
func (p *parser) term(field string) query.Query {
	t := p.peek()
	switch t.kind {
	case tTERM, tSTAR, tPREFIX, tWILD, tREGEXP, tNUMBER, tBAREOPER, tQUOTED:
		p.next()
		// A boost and a fuzzy suffix may come in either order, each at most once.
		var fuzzy *token
		b, boosted, ok := p.boostSuffix()
		if !ok {
			return nil
		}
		if p.peek().kind == tFUZZY {
			f := p.next()
			fuzzy = &f
			if !boosted {
				if b, boosted, ok = p.boostSuffix(); !ok {
					return nil
				}
			}
		}
		p.errAt = t.off
		var q query.Query
		if t.kind == tQUOTED {
			q = p.quoted(field, t, fuzzy)
		} else {
			q = p.bareToken(field, t, fuzzy)
		}
		if p.err != nil {
			return nil
		}
		if boosted {
			q = boost(q, b)
		}
		return q
	case tRANGEIN, tRANGEEX:
		return p.rangeTerm(field)
	}
	p.unexpected(termExpected)
	return nil
}

// bareToken is QueryParserBase.handleBareTokenQuery: wildcard, then prefix, regexp,
// fuzzy, and otherwise analysed text.
func (p *parser) bareToken(field string, t token, fuzzy *token) query.Query {
	switch t.kind {
	case tSTAR, tWILD:
		return p.wildcard(field, t)
	case tPREFIX:
		text, ok := p.unescape(t.text[:len(t.text)-1], t.off)
		if !ok {
			return nil
		}
		return p.perField(p.fieldsFor(field), p.opts.TieBreaker, func(f string) query.Query {
			if p.opts.AnalyzeWildcard {
				return p.analyzedPrefix(f, text)
			}
			if !p.leaf() {
				return nil
			}
			return query.Prefix{Field: f, Prefix: p.normalize(f, text)}
		})
	case tREGEXP:
		pattern := t.text[1 : len(t.text)-1]
		return p.perField(p.fieldsFor(field), p.opts.TieBreaker, func(f string) query.Query {
			if !p.leaf() {
				return nil
			}
			// D12: regexp terms are lower-cased when the analyzer lower-cases.
			return query.Regexp{Field: f, Pattern: p.normalize(f, pattern)}
		})
	}
	text, ok := p.unescape(t.text, t.off)
	if !ok {
		return nil
	}
	if fuzzy != nil {
		return p.fuzzyTerm(field, text, *fuzzy)
	}
	return p.fieldQuery(field, text)
}

// fieldQuery is QueryStringQueryParser.getFieldQuery for unquoted text: `_exists_`,
// the one-sided ranges `>x`, `>=x`, `<x`, `<=x` (with a field), else the analysed
// text in each field.
func (p *parser) fieldQuery(field, text string) query.Query {
	if field == ExistsField {
		return p.exists(text)
	}
	if field != "" && len(text) > 1 {
		switch text[0] {
		case '>':
			if len(text) > 2 && text[1] == '=' {
				return p.rangeQuery(field, text[2:], "", true, false, true, true)
			}
			return p.rangeQuery(field, text[1:], "", true, false, false, true)
		case '<':
			if len(text) > 2 && text[1] == '=' {
				return p.rangeQuery(field, "", text[2:], false, true, true, true)
			}
			return p.rangeQuery(field, "", text[1:], false, true, true, false)
		}
	}
	return p.textPerField(p.fieldsFor(field), p.opts.TieBreaker, text)
}

func (p *parser) exists(field string) query.Query {
	if !p.leaf() {
		return nil
	}
	return query.Exists{Field: field}
}

// wildcard is QueryStringQueryParser.getWildcardQuery: `*` alone is every item in
// all fields (`*:*`) and "field exists" in one; a pattern starting with * or ? needs
// allow_leading_wildcard; the pattern keeps its escapes and is lower-cased outside
// them when the analyzer lower-cases (D12).
func (p *parser) wildcard(field string, t token) query.Query {
	raw := t.text
	actual := field
	if actual == "" {
		actual = p.dflt
	}
	if raw == "*" && actual != "" {
		if actual == "*" {
			if !p.leaf() {
				return nil
			}
			return query.MatchAll{}
		}
		return p.exists(actual)
	}
	if raw != "*" && !p.opts.AllowLeadingWildcard && (raw[0] == '*' || raw[0] == '?') {
		p.fail(t.off, `"*" or "?" not allowed as the first character of a wildcard term (allow_leading_wildcard is false)`)
		return nil
	}
	return p.perField(p.fieldsFor(field), p.opts.TieBreaker, func(f string) query.Query {
		if raw == "*" {
			return p.exists(f)
		}
		if !p.leaf() {
			return nil
		}
		return query.Wildcard{Field: f, Pattern: p.normalizeWildcard(f, raw)}
	})
}

// normalizeWildcard is QueryParserBase.analyzeWildcard: the text between wildcards
// and escapes is normalised as field's analyzer does; wildcards and escaped characters
// are kept as written.
func (p *parser) normalizeWildcard(field, s string) string {
	if _, lc, _ := p.analysisOf(field); !lc {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	start := 0
	flush := func(end int) {
		if end > start {
			b.WriteString(lower(s[start:end]))
		}
	}
	for i := 0; i < len(s); {
		switch s[i] {
		case '\\':
			flush(i)
			n := 1
			if i+1 < len(s) {
				n += charLen(s, i+1)
			}
			b.WriteString(s[i : i+n])
			i += n
			start = i
		case '*', '?':
			flush(i)
			b.WriteByte(s[i])
			i++
			start = i
		default:
			i++
		}
	}
	flush(len(s))
	return b.String()
}

// fuzzyTerm is handleBareFuzzy with Elasticsearch's getFuzzyDistance: `~` alone
// takes the fuzziness option (AUTO), `~N` must be 0, 1, 2 (or AUTO).
func (p *parser) fuzzyTerm(field, text string, slop token) query.Query {
	var edits int
	var ok bool
	if len(slop.text) == 1 {
		edits, ok = p.defaultEdits(text)
		if !ok {
			p.fail(slop.off, "invalid fuzziness option "+quote(p.opts.Fuzziness)+`: expected "AUTO", "AUTO:low,high", 0, 1 or 2`)
			return nil
		}
	} else {
		edits, ok = fuzzinessEdits(slop.text[1:], text)
		if !ok {
			p.fail(slop.off, "invalid fuzziness "+quote(clip(slop.text))+": expected ~0, ~1, ~2 or ~AUTO")
			return nil
		}
	}
	return p.perField(p.fieldsFor(field), p.opts.TieBreaker, func(f string) query.Query {
		return p.fuzzy(f, text, edits)
	})
}

// quoted is QueryParserBase.handleQuotedTerm: a phrase, with the slop of `~N` (a
// number Java's Float.parseFloat reads, truncated; anything else keeps the default).
func (p *parser) quoted(field string, t token, fuzzy *token) query.Query {
	slop := p.opts.PhraseSlop
	if fuzzy != nil {
		if f, err := strconv.ParseFloat(strings.TrimRight(fuzzy.text[1:], "fFdD"), 32); err == nil {
			switch {
			case math.IsNaN(f):
				slop = 0
			case f < 0:
				p.fail(fuzzy.off, "phrase slop must not be negative: "+quote(clip(fuzzy.text)))
				return nil
			case f > math.MaxInt32:
				slop = math.MaxInt32
			default:
				slop = int(f)
			}
		}
	}
	text, ok := p.unescape(t.text[1:len(t.text)-1], t.off)
	if !ok {
		return nil
	}
	if field == ExistsField {
		return p.exists(text)
	}
	return p.perField(p.fieldsFor(field), p.opts.TieBreaker, func(f string) query.Query {
		return p.phraseQuery(f, text, slop)
	})
}

// rangeTerm parses "[" bound "TO" bound "]" (or "{", "}") with an optional boost.
func (p *parser) rangeTerm(field string) query.Query {
	start := p.next()
	incLo := start.kind == tRANGEIN
	lo, loOpen, ok := p.rangeBound()
	if !ok {
		return nil
	}
	if p.peek().kind != tTO {
		p.unexpected(`"TO" between the bounds of the range`)
		return nil
	}
	p.next()
	hi, hiOpen, ok := p.rangeBound()
	if !ok {
		return nil
	}
	end := p.peek()
	if end.kind != tRANGEINEND && end.kind != tRANGEEXEND {
		p.unexpected(`"]" or "}" to close the range`)
		return nil
	}
	p.next()
	p.errAt = start.off
	q := p.rangeQuery(field, lo, hi, !loOpen, !hiOpen, incLo, end.kind == tRANGEINEND)
	if p.err != nil {
		return nil
	}
	return p.optionalBoost(q)
}

// rangeBound reads one bound: a word, a quoted string or "TO"; open is an
// unquoted "*".
func (p *parser) rangeBound() (text string, open, ok bool) {
	t := p.peek()
	switch t.kind {
	case tGOOP, tTO:
		p.next()
		if t.text == "*" {
			return "", true, true
		}
		s, ok := p.unescape(t.text, t.off)
		return s, false, ok
	case tRANGEQUOTED:
		p.next()
		s, ok := p.unescape(t.text[1:len(t.text)-1], t.off)
		return s, false, ok
	}
	p.unexpected("a range bound")
	return "", false, false
}

// rangeQuery is QueryStringQueryParser.getRangeQuery: a "*" bound is open (even
// quoted or escaped, as Elasticsearch has it); bounds are strings the evaluator
// coerces to the field's type, with Str normalised (lower-cased when the field's
// analyzer lower-cases, as Elasticsearch normalises text bounds) and Text as written.
func (p *parser) rangeQuery(field, lo, hi string, hasLo, hasHi, incLo, incHi bool) query.Query {
	if lo == "*" {
		hasLo = false
	}
	if hi == "*" {
		hasHi = false
	}
	return p.perField(p.fieldsFor(field), p.opts.TieBreaker, func(f string) query.Query {
		if !p.leaf() {
			return nil
		}
		r := query.Range{Field: f}
		if hasLo {
			r.Lower = &query.Bound{Value: query.Scalar{Kind: query.ScalarString, Str: p.normalize(f, lo), Text: lo}, Inclusive: incLo}
		} else {
			r.OpenLowerInclusive = incLo
		}
		if hasHi {
			r.Upper = &query.Bound{Value: query.Scalar{Kind: query.ScalarString, Str: p.normalize(f, hi), Text: hi}, Inclusive: incHi}
		} else {
			r.OpenUpperInclusive = incHi
		}
		return r
	})
}

// unescape is QueryParserBase.discardEscapeChar: "\x" is x, "\uXXXX" the UTF-16
// code unit XXXX (surrogate pairs combine). off positions errors.
func (p *parser) unescape(s string, off int) (string, bool) {
	i := strings.IndexByte(s, '\\')
	if i < 0 {
		return s, true
	}
	out := make([]byte, 0, len(s))
	out = append(out, s[:i]...)
	var high rune
	flushHigh := func() {
		if high != 0 {
			out = utf8.AppendRune(out, utf8.RuneError)
			high = 0
		}
	}
	for i < len(s) {
		c := s[i]
		if c != '\\' {
			flushHigh()
			out = append(out, c)
			i++
			continue
		}
		if i+1 >= len(s) {
			p.fail(off+i, `"\" at the end of a term escapes nothing`)
			return "", false
		}
		if s[i+1] != 'u' {
			flushHigh()
			n := charLen(s, i+1)
			out = append(out, s[i+1:i+1+n]...)
			i += 1 + n
			continue
		}
		if i+6 > len(s) {
			p.fail(off+i, "truncated unicode escape sequence "+quote(s[i:]))
			return "", false
		}
		var u rune
		for _, h := range []byte(s[i+2 : i+6]) {
			d := hexVal(h)
			if d < 0 {
				p.fail(off+i, "non-hex character in unicode escape sequence "+quote(s[i:i+6]))
				return "", false
			}
			u = u<<4 | rune(d)
		}
		i += 6
		switch {
		case utf16.IsSurrogate(u) && u < 0xDC00:
			flushHigh()
			high = u
		case utf16.IsSurrogate(u):
			if high != 0 {
				out = utf8.AppendRune(out, utf16.DecodeRune(high, u))
				high = 0
			} else {
				out = utf8.AppendRune(out, utf8.RuneError)
			}
		default:
			flushHigh()
			out = utf8.AppendRune(out, u)
		}
	}
	flushHigh()
	return string(out), true
}

func hexVal(c byte) int {
	switch {
	case '0' <= c && c <= '9':
		return int(c - '0')
	case 'a' <= c && c <= 'f':
		return int(c-'a') + 10
	case 'A' <= c && c <= 'F':
		return int(c-'A') + 10
	}
	return -1
}
