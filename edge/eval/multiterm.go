package eval

import (
	"errors"
	"strings"
	"unicode/utf16"

	"github.com/cdaedge/cdaedge/edge"
	"github.com/cdaedge/cdaedge/edge/automaton"
	"github.com/cdaedge/cdaedge/edge/query"
	"github.com/cdaedge/cdaedge/snapshot"
	"github.com/tidwall/match"
)

// Limits of API.md D11.
const (
	maxBoolClauses   = 1024
	maxExpansions    = 10000
	maxPatternSteps  = 100000 // per term compared against a wildcard pattern
	defaultFuzzyKeep = 50
)

// multiTermDict returns the dictionary a multi-term node expands over.
func (e *Evaluator) multiTermDict(field string) (snapshot.TermDict, bool) {
	base, keyword := strings.CutSuffix(field, ".keyword")
	f := e.snap.Field(base)
	if f == nil {
		return snapshot.TermDict{}, false
	}
	if keyword {
		return f.Keyword(), true
	}
	return f.Text(), true
}

// multiTermSet evaluates Prefix, Wildcard and Regexp: every term the pattern matches,
// at most maxExpansions of them (D11). They score as constants, as Elasticsearch's
// default constant_score rewrite does.
func (e *Evaluator) multiTermSet(q query.Query) (docSet, error) {
	var field, prefix string
	var pred func(string) (bool, error)
	switch q := q.(type) {
	case query.Prefix:
		field, prefix = q.Field, q.Prefix
		pred = func(t string) (bool, error) { return strings.HasPrefix(t, prefix), nil }
		if q.CaseInsensitive {
			prefix = ""
			pred = func(t string) (bool, error) {
				return len(t) >= len(q.Prefix) && strings.EqualFold(t[:len(q.Prefix)], q.Prefix), nil
			}
		}
	case query.Wildcard:
		field = q.Field
		pattern := q.Pattern
		if q.CaseInsensitive {
			pattern = strings.ToLower(pattern)
		} else {
			prefix = literalPrefix(pattern)
		}
		pred = func(t string) (bool, error) {
			if q.CaseInsensitive {
				t = strings.ToLower(t)
			}
			ok, stopped := match.MatchLimit(t, pattern, maxPatternSteps)
			if stopped && t == "" {
				// MatchLimit's budget is len(t) times the limit: none for "", whose match
				// is bounded by the pattern's length anyway.
				ok, stopped = match.Match(t, pattern), false
			}
			if stopped {
				return false, edge.Errorf(edge.CodeTooComplex, "wildcard pattern %q is too complex to match (limit: %d steps per term)", edge.Clip(q.Pattern), maxPatternSteps)
			}
			return ok, nil
		}
	case query.Regexp:
		field = q.Field
		re, err := compileLuceneRegexp(q.Pattern, q.CaseInsensitive)
		if err != nil {
			return nil, err
		}
		prefix = re.LiteralPrefix()
		pred = func(t string) (bool, error) { return re.Match(t), nil }
	}
	dict, ok := e.multiTermDict(field)
	if !ok {
		return newDocSet(e.n), nil
	}
	return e.expandErr(dict, prefix, pred)
}

// termsFrom returns the evaluator's term iterator, reset to term from of dict. Reusing
// one iterator keeps the buffer it assembles terms in, so that a scan allocates nothing.
// One scan must end before the next starts: none runs inside another (no predicate or
// step of a scan scans).
func (e *Evaluator) termsFrom(dict snapshot.TermDict, from int) *snapshot.TermIter {
	e.termIter.Reset(dict, from)
	return &e.termIter
}

// expand is expandErr for predicates that cannot fail.
func (e *Evaluator) expand(dict snapshot.TermDict, prefix string, pred func(string) bool) (docSet, error) {
	return e.expandErr(dict, prefix, func(t string) (bool, error) { return pred(t), nil })
}

// expandErr unions the postings of the terms starting with prefix that pred accepts.
// pred must not keep the term it is given, which lasts only until the next term.
func (e *Evaluator) expandErr(dict snapshot.TermDict, prefix string, pred func(string) (bool, error)) (docSet, error) {
	set := newDocSet(e.n)
	matched := 0
	start, _ := dict.Find(prefix)
	for it := e.termsFrom(dict, start); it.Next(); {
		t := it.Term()
		if !strings.HasPrefix(t, prefix) {
			break
		}
		if err := e.spend(1 + len(t)); err != nil {
			return nil, err
		}
		ok, err := pred(t)
		if err != nil {
			return nil, err
		}
		if !ok {
			continue
		}
		if matched++; matched > maxExpansions {
			return nil, edge.Errorf(edge.CodeTooComplex, "the pattern matches more than %d terms (the expansion limit)", maxExpansions)
		}
		p := it.Postings()
		if err := e.spend(p.DocFreq); err != nil {
			return nil, err
		}
		for doc := p.Next(); doc >= 0; doc = p.Next() {
			set.add(doc)
		}
	}
	return set, nil
}

// literalPrefix is the part of a wildcard pattern before its first wildcard, unescaped.
func literalPrefix(pattern string) string {
	var b strings.Builder
	for i := 0; i < len(pattern); i++ {
		switch c := pattern[i]; c {
		case '*', '?':
			return b.String()
		case '\\':
			if i+1 < len(pattern) {
				i++
				b.WriteByte(pattern[i])
			}
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// compileLuceneRegexp compiles Lucene's regular expression syntax (as Elasticsearch's
// regexp query and query_string /re/ use it) with edge/automaton, whose doc lists the
// syntax: the whole term must match; ^ and $ are ordinary characters; @ is any string;
// "..." quotes a literal. Intersection (&), complement (~), intervals (<1-5>) and #
// are refused with a clear message rather than misread. The automaton matches in
// linear time, so patterns built to explode, such as (a*)*b, cannot; one needing more
// than automaton.MaxStates states is too complex.
func compileLuceneRegexp(pattern string, caseInsensitive bool) (*automaton.Matcher, error) {
	m, err := automaton.Compile(pattern, caseInsensitive)
	if err == nil {
		return m, nil
	}
	var e *automaton.Error
	if !errors.As(err, &e) {
		return nil, edge.Wrap(err, edge.CodeInvalidQuery, "invalid regular expression %q: %v", edge.Clip(pattern), err)
	}
	switch e.Kind {
	case automaton.ErrUnsupported:
		return nil, edge.Wrap(e, edge.CodeInvalidQuery, "regular expression %q: the operator %q is not supported", edge.Clip(pattern), e.Operator)
	case automaton.ErrUnterminatedQuote:
		return nil, edge.Wrap(e, edge.CodeInvalidQuery, "regular expression %q: unterminated quoted string", edge.Clip(pattern))
	case automaton.ErrTooComplex:
		return nil, edge.Wrap(e, edge.CodeTooComplex, "regular expression %q is too complex: %s", edge.Clip(pattern), e.Msg)
	}
	return nil, edge.Wrap(e, edge.CodeInvalidQuery, "invalid regular expression %q: %s", edge.Clip(pattern), e.Msg)
}

// fuzzyTerm is one expansion of a fuzzy term (term index of the dictionary) with
// Lucene's boost for it.
type fuzzyTerm struct {
	index int
	boost float32
}

// fuzzyEdits is the edit distance q allows around target (its term): MaxEdits, but
// none when the prefix length reaches the term's length, counted in UTF-16 units as
// Java's String.length: Lucene's FuzzyQuery then matches the term alone.
func fuzzyEdits(q query.Fuzzy, target []rune) int {
	units := 0
	for _, r := range target {
		units += utf16.RuneLen(r) // a rune of a Go string is never a surrogate: 1 or 2
	}
	if q.PrefixLength >= units {
		return 0
	}
	return q.MaxEdits
}

// fuzzy evaluates a Fuzzy the way Elasticsearch's default rewrite
// (top_terms_blended_freqs) does: the best MaxExpansions terms within the edit distance
// (best = highest 1 - edits/min(length)), each scored as a term with that boost and with
// the largest document frequency among them, summed.
func (e *Evaluator) fuzzy(q query.Fuzzy, scoring bool, boost float32) (scored, error) {
	base, keyword := strings.CutSuffix(q.Field, ".keyword")
	f := e.snap.Field(base)
	if f == nil {
		return scored{set: newDocSet(e.n)}, nil
	}
	dict := f.Text()
	if keyword {
		dict = f.Keyword()
	}
	target := []rune(q.Term)
	prefixLen := min(q.PrefixLength, len(target))
	prefix := string(target[:prefixLen])
	maxEdits := fuzzyEdits(q, target)
	keep := q.MaxExpansions
	if keep <= 0 {
		keep = defaultFuzzyKeep
	}
	var found []fuzzyTerm
	var buf []rune
	matched := 0
	start, _ := dict.Find(prefix)
	for it := e.termsFrom(dict, start); it.Next(); {
		t := it.Term()
		if !strings.HasPrefix(t, prefix) {
			break
		}
		if err := e.spend(len(t) * (len(target) + 1)); err != nil {
			return scored{}, err
		}
		buf = append(buf[:0], []rune(t)...)
		d := editDistance(buf, target, maxEdits, q.Transpositions)
		if d > maxEdits {
			continue
		}
		if matched++; matched > maxExpansions {
			return scored{}, edge.Errorf(edge.CodeTooComplex, "the fuzzy term %q matches more than %d terms (the expansion limit)", edge.Clip(q.Term), maxExpansions)
		}
		b := float32(1)
		if d > 0 {
			b = 1 - float32(d)/float32(min(len(buf), len(target)))
		}
		found = append(found, fuzzyTerm{index: it.Index(), boost: b})
	}
	stableSort(len(found), func(i, j int) { found[i], found[j] = found[j], found[i] }, func(i, j int) int {
		a, b := &found[i], &found[j]
		switch {
		case a.boost > b.boost:
			return -1
		case a.boost < b.boost:
			return 1
		}
		// Ties by term: the dictionary's order is the terms' byte order.
		return a.index - b.index
	})
	if len(found) > keep {
		found = found[:keep]
	}
	maxDF := 0
	for _, ft := range found {
		maxDF = max(maxDF, dict.Postings(ft.index).DocFreq)
	}
	out := scored{set: newDocSet(e.n)}
	for _, ft := range found {
		// Lucene's TopTermsRewrite clamps a term's boost at 0 (one edit from a one-letter
		// term): it still matches, with score 0.
		s, err := e.scoreTerm(f, dict, ft.index, keyword, scoring, boost*max(ft.boost, 0), maxDF)
		if err != nil {
			return scored{}, err
		}
		out.set.or(s.set)
		if scoring {
			out.scores = e.addScores(out.scores, s)
		}
	}
	return out, nil
}

// editDistance is the Levenshtein distance between a and b, counting an adjacent
// transposition as one edit when transpositions is set (optimal string alignment, as
// Lucene's fuzzy automata); it stops early and returns max+1 once the distance must
// exceed max.
func editDistance(a, b []rune, max int, transpositions bool) int {
	if d := len(a) - len(b); d > max || -d > max {
		return max + 1
	}
	prev2 := make([]int, len(b)+1)
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		rowMin := cur[0]
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			v := min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if transpositions && i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				v = min(v, prev2[j-2]+1)
			}
			cur[j] = v
			rowMin = min(rowMin, v)
		}
		if rowMin > max {
			return max + 1
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(b)]
}
