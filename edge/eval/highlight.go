package eval

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/cdaedge/cdaedge/edge/analysis"
	"github.com/cdaedge/cdaedge/edge/jsonr"
	"github.com/cdaedge/cdaedge/edge/query"
	"github.com/cdaedge/cdaedge/snapshot"
	"github.com/tidwall/match"
)

// Highlighter marks the terms of a query in the stored text of hits, as Elasticsearch's
// plain highlighter does: each text value is analysed again (markup stripped in Data, as
// it was indexed, D4), every token a term of the query matches is wrapped in tags, and
// the value is cut into fragments of about FragmentSize characters, of which those with
// the most distinct matched terms are kept. Its work is charged to the request's budget.
type Highlighter struct {
	e      *Evaluator
	spec   *query.Highlight
	fields []fieldTerms // parallel to spec.Fields
	tokens []analysis.Token
	spans  []hlSpan
	frags  []hlFragment
}

// fieldTerms are the terms that mark one field: exact terms, then patterns.
type fieldTerms struct {
	exact    map[string]int // term → its index (chooses the tag)
	patterns []hlPattern
}

// hlPattern is a multi-term node of the query (prefix, wildcard, regexp, fuzzy).
type hlPattern struct {
	index int
	match func(term string) bool
}

// hlSpan is one marked token: its byte range in the value and its term's index.
type hlSpan struct{ start, end, term int }

// hlFragment is a piece of a value: a range of its spans and its text range.
type hlFragment struct {
	value         string
	start, end    int // byte range in value
	first, last   int // spans [first, last)
	score, serial int
}

// NewHighlighter prepares h for a search whose query is q: it reads, once, the terms
// of h.Query (q when nil) for each of h's fields. Clauses that must not match mark
// nothing; terms of .keyword fields mark nothing.
func (e *Evaluator) NewHighlighter(q query.Query, h *query.Highlight) (*Highlighter, error) {
	if h.Query != nil {
		q = h.Query
	}
	hl := &Highlighter{e: e, spec: h, fields: make([]fieldTerms, len(h.Fields))}
	index := map[string]int{}
	for i := range h.Fields {
		ft := &hl.fields[i]
		ft.exact = map[string]int{}
		field := h.Fields[i].Field
		var err error
		collectHighlightTerms(q, func(f string, term string, pred func(string) bool) {
			if (f != field && !h.Fields[i].AnyField) || err != nil || strings.HasSuffix(f, ".keyword") {
				return
			}
			key := term
			if pred != nil {
				key = "\x00" + term
			}
			n, seen := index[key]
			if !seen {
				n = len(index)
				index[key] = n
			}
			if pred == nil {
				if _, dup := ft.exact[term]; !dup {
					ft.exact[term] = n
				}
				return
			}
			ft.patterns = append(ft.patterns, hlPattern{index: n, match: pred})
		}, &err)
		if err != nil {
			return nil, err
		}
	}
	return hl, nil
}

// collectHighlightTerms calls add for every term (pred nil) and pattern (pred set, term
// naming it) of q outside must_not clauses.
func collectHighlightTerms(q query.Query, add func(field, term string, pred func(string) bool), errp *error) {
	switch q := q.(type) {
	case query.Bool:
		for _, c := range q.Clauses {
			if c.Occur != query.MustNot {
				collectHighlightTerms(c.Query, add, errp)
			}
		}
	case query.Boost:
		collectHighlightTerms(q.Query, add, errp)
	case query.ConstantScore:
		collectHighlightTerms(q.Query, add, errp)
	case query.DisMax:
		for _, s := range q.Queries {
			collectHighlightTerms(s, add, errp)
		}
	case query.FieldTerms:
		for _, f := range q.Fields {
			for _, t := range q.Texts {
				add(f, t, nil)
			}
		}
	case query.Term:
		if q.CaseInsensitive {
			lower := strings.ToLower(q.Text)
			add(q.Field, "i:"+lower, func(t string) bool { return strings.EqualFold(t, lower) })
			return
		}
		add(q.Field, q.Text, nil)
	case query.Phrase:
		// Every term of a phrase is marked wherever it occurs (not only where the whole
		// phrase matches), as the plain highlighter does without a span-aware scorer.
		for _, t := range q.Terms {
			add(q.Field, t, nil)
		}
	case query.PhrasePrefix:
		for i, t := range q.Terms {
			if i == len(q.Terms)-1 {
				prefix := t
				add(q.Field, "p:"+prefix, func(s string) bool { return strings.HasPrefix(s, prefix) })
			} else {
				add(q.Field, t, nil)
			}
		}
	case query.Prefix:
		prefix, fold := q.Prefix, q.CaseInsensitive
		add(q.Field, "p:"+prefix, func(s string) bool {
			if fold {
				return len(s) >= len(prefix) && strings.EqualFold(s[:len(prefix)], prefix)
			}
			return strings.HasPrefix(s, prefix)
		})
	case query.Wildcard:
		pattern, fold := q.Pattern, q.CaseInsensitive
		if fold {
			pattern = strings.ToLower(pattern)
		}
		add(q.Field, "w:"+pattern, func(s string) bool {
			if fold {
				s = strings.ToLower(s)
			}
			ok, _ := match.MatchLimit(s, pattern, maxPatternSteps)
			return ok
		})
	case query.Regexp:
		re, err := compileLuceneRegexp(q.Pattern, q.CaseInsensitive)
		if err != nil {
			*errp = err
			return
		}
		add(q.Field, "r:"+q.Pattern, re.Match)
	case query.Fuzzy:
		target := []rune(q.Term)
		prefix := string(target[:min(q.PrefixLength, len(target))])
		maxEdits, transpositions := fuzzyEdits(q, target), q.Transpositions
		add(q.Field, "f:"+q.Term, func(s string) bool {
			return strings.HasPrefix(s, prefix) && editDistance([]rune(s), target, maxEdits, transpositions) <= maxEdits
		})
	}
}

// Highlight appends the highlighted fields of item doc to dst, in the order of the
// highlight's fields; a field where nothing matched is left out (unless it asks for
// no_match_size). The fragments' strings are new; dst's earlier entries are kept.
func (h *Highlighter) Highlight(dst []query.HighlightResult, doc int) ([]query.HighlightResult, error) {
	item := jsonr.Parse(h.e.snap.Item(doc))
	var values []string
	for i := range h.spec.Fields {
		spec := &h.spec.Fields[i]
		values = collectText(values[:0], item, spec.Field, strings.HasPrefix(spec.Field, "Data."))
		if len(values) == 0 {
			continue
		}
		frags, err := h.field(spec, &h.fields[i], values)
		if err != nil {
			return dst, err
		}
		if len(frags) > 0 {
			dst = append(dst, query.HighlightResult{Field: spec.Field, Fragments: frags})
		}
	}
	return dst, nil
}

// field returns the fragments of one field's values.
func (h *Highlighter) field(spec *query.HighlightField, ft *fieldTerms, values []string) ([]string, error) {
	h.frags = h.frags[:0]
	h.spans = h.spans[:0]
	for _, v := range values {
		if err := h.mark(spec, ft, v); err != nil {
			return nil, err
		}
	}
	if len(h.spans) == 0 {
		if spec.NoMatchSize > 0 {
			v := values[0]
			end := min(len(v), spec.NoMatchSize)
			for end < len(v) && !utf8.RuneStart(v[end]) {
				end--
			}
			return []string{string(appendEncoded(nil, v[:end], spec.HTMLEncode))}, nil
		}
		return nil, nil
	}
	keep := h.frags
	if spec.NumberOfFragments > 0 {
		keep = bestFragments(keep, spec.NumberOfFragments, spec.ByScore)
	}
	out := make([]string, 0, len(keep))
	for _, f := range keep {
		out = append(out, string(h.render(nil, spec, f)))
	}
	return out, h.e.spend(len(out))
}

// mark analyses one value, records its marked tokens in h.spans and cuts it into
// fragments (h.frags): only fragments with a marked token are kept.
func (h *Highlighter) mark(spec *query.HighlightField, ft *fieldTerms, value string) error {
	if err := h.e.spend(1 + len(value)>>6); err != nil {
		return err
	}
	h.tokens = analysis.Standard(h.tokens[:0], value)
	size := spec.FragmentSize
	whole := spec.NumberOfFragments == 0
	cursor := 0
	frag := hlFragment{value: value, start: -1, first: len(h.spans)}
	seen := map[int]bool{}
	flush := func(end int) {
		if frag.start >= 0 && frag.last > frag.first {
			frag.end = end
			frag.serial = len(h.frags)
			h.frags = append(h.frags, frag)
		}
	}
	for _, tok := range h.tokens {
		if err := h.e.spend(1 + len(tok.Term)>>4); err != nil {
			return err
		}
		start, end := locate(value, cursor, tok.Term)
		if start < 0 {
			// Analysis changed the text beyond case: the token is not marked. The search
			// scanned the rest of the value, which the budget pays for.
			if err := h.e.spend((len(value) - cursor) >> 4); err != nil {
				return err
			}
			continue
		}
		cursor = end
		if frag.start < 0 {
			frag.start = start
		} else if !whole && end-frag.start > size && start > frag.start {
			flush(frag.end)
			frag = hlFragment{value: value, start: start, first: len(h.spans)}
			clear(seen)
		}
		frag.end = end
		frag.last = len(h.spans)
		term, ok := ft.lookup(tok.Term)
		if !ok {
			continue
		}
		h.spans = append(h.spans, hlSpan{start: start, end: end, term: term})
		frag.last = len(h.spans)
		if !seen[term] {
			seen[term] = true
			frag.score += 1 << 16
		}
		frag.score++
	}
	if whole {
		frag.start = 0
		flush(len(value))
		return nil
	}
	flush(frag.end)
	return nil
}

// lookup reports whether a token is marked, and the index of its term.
func (ft *fieldTerms) lookup(token string) (int, bool) {
	if n, ok := ft.exact[token]; ok {
		return n, true
	}
	for _, p := range ft.patterns {
		if p.match(token) {
			return p.index, true
		}
	}
	return 0, false
}

// bestFragments keeps the n best-scoring fragments (earlier first among equals), in
// score order or in the text's order.
func bestFragments(frags []hlFragment, n int, byScore bool) []hlFragment {
	// Insertion sort by score: fragment lists are short.
	for i := 1; i < len(frags); i++ {
		for j := i; j > 0 && better(frags[j], frags[j-1]); j-- {
			frags[j], frags[j-1] = frags[j-1], frags[j]
		}
	}
	if len(frags) > n {
		frags = frags[:n]
	}
	if !byScore {
		for i := 1; i < len(frags); i++ {
			for j := i; j > 0 && frags[j].serial < frags[j-1].serial; j-- {
				frags[j], frags[j-1] = frags[j-1], frags[j]
			}
		}
	}
	return frags
}

func better(a, b hlFragment) bool {
	if a.score != b.score {
		return a.score > b.score
	}
	return a.serial < b.serial
}

// render appends a fragment's text with its marked tokens wrapped in tags.
func (h *Highlighter) render(dst []byte, spec *query.HighlightField, f hlFragment) []byte {
	at := f.start
	for _, s := range h.spans[f.first:f.last] {
		if s.start < at || s.end > f.end {
			continue
		}
		dst = appendEncoded(dst, f.value[at:s.start], spec.HTMLEncode)
		dst = append(dst, spec.PreTags[s.term%len(spec.PreTags)]...)
		dst = appendEncoded(dst, f.value[s.start:s.end], spec.HTMLEncode)
		dst = append(dst, spec.PostTags[s.term%len(spec.PostTags)]...)
		at = s.end
	}
	return appendEncoded(dst, f.value[at:f.end], spec.HTMLEncode)
}

// appendEncoded appends s, escaped for HTML when html is set (Lucene's
// SimpleHTMLEncoder: " & < > ' /).
func appendEncoded(dst []byte, s string, html bool) []byte {
	if !html {
		return append(dst, s...)
	}
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '"':
			dst = append(dst, "&quot;"...)
		case '&':
			dst = append(dst, "&amp;"...)
		case '<':
			dst = append(dst, "&lt;"...)
		case '>':
			dst = append(dst, "&gt;"...)
		case '\'':
			dst = append(dst, "&#x27;"...)
		case '/':
			dst = append(dst, "&#x2F;"...)
		default:
			dst = append(dst, c)
		}
	}
	return dst
}

// locate finds token in value at or after from, comparing case-insensitively rune by
// rune (the analyzer lower-cases). It returns the byte range, or -1, -1.
func locate(value string, from int, token string) (int, int) {
	for p := from; p < len(value); {
		if end, ok := foldPrefix(value[p:], token); ok {
			return p, p + end
		}
		_, n := utf8.DecodeRuneInString(value[p:])
		p += n
	}
	return -1, -1
}

// foldPrefix reports whether s starts with token up to case, and the byte length in s.
func foldPrefix(s, token string) (int, bool) {
	i := 0
	for _, tr := range token {
		if i >= len(s) {
			return 0, false
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if r != tr && unicode.ToLower(r) != tr {
			return 0, false
		}
		i += n
	}
	return i, true
}

// collectText appends the string values of field (a top-level member or a dotted Data
// path; arrays at any level give each of their strings) in item, markup stripped when
// strip is set, as the field was indexed (D4). Date members are not text.
func collectText(dst []string, item jsonr.Result, field string, strip bool) []string {
	if snapshot.IsDateMember(field) {
		return dst
	}
	var walk func(v jsonr.Result, path string)
	walk = func(v jsonr.Result, path string) {
		switch {
		case v.IsArray():
			v.ForEach(func(_, e jsonr.Result) bool { walk(e, path); return true })
		case v.IsObject():
			if path == "" {
				return
			}
			v.ForEach(func(k, e jsonr.Result) bool {
				if rest, ok := strings.CutPrefix(path, k.Str); ok && (rest == "" || rest[0] == '.') {
					walk(e, strings.TrimPrefix(rest, "."))
				}
				return true
			})
		case v.Type == jsonr.String && path == "":
			s := v.Str
			if strip {
				s = analysis.StripHTML(s)
			}
			dst = append(dst, s)
		}
	}
	walk(item, field)
	return dst
}
