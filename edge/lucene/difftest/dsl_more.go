package difftest

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// fuzzyClause is a fuzzy clause on a text field (a term as indexed, now and then in
// another case: the clause does not normalize) or an exact form, with the options
// Elasticsearch's fuzzy query takes.
func (g *Gen) fuzzyClause() (q, o obj) {
	t := g.textOrExactTarget()
	v := g.fuzzySource(t)
	opts := obj{"value": v}
	edits := autoEdits(v)
	switch g.r.IntN(4) {
	case 0:
		n := g.r.IntN(3)
		opts["fuzziness"], edits = n, n
	case 1:
		opts["fuzziness"] = "AUTO"
	}
	prefix, maxExp, tr := 0, 50, true
	if g.r.IntN(4) == 0 {
		prefix = g.r.IntN(3)
		opts["prefix_length"] = prefix
	}
	if g.r.IntN(4) == 0 {
		maxExp = pick(g.r, []int{1, 3, 10})
		opts["max_expansions"] = maxExp
	}
	if g.r.IntN(4) == 0 {
		tr = false
		opts["transpositions"] = false
	}
	o = g.withBoost(opts, obj{"t": "fuzzy", "f": t.name(), "v": v, "edits": edits, "prefix": prefix, "max": maxExp, "tr": tr})
	return obj{"fuzzy": obj{t.name(): opts}}, o
}

// autoEdits is Elasticsearch's fuzziness AUTO for a term: 0 edits under 3 characters,
// 1 under 6, else 2.
func autoEdits(s string) int {
	switch n := utf8.RuneCountInString(s); {
	case n < 3:
		return 0
	case n < 6:
		return 1
	}
	return 2
}

// regexpClause is a regexp clause (the pattern of query_string's /regexps/, unescaped
// of the slash: a clause's value needs none).
func (g *Gen) regexpClause() (q, o obj) {
	t := g.textOrExactTarget()
	v := g.regexp(t)
	opts := obj{"value": v}
	o = g.withBoost(opts, obj{"t": "regexp", "f": t.name(), "v": v})
	return obj{"regexp": obj{t.name(): opts}}, o
}

// existsClause is an exists clause on any field (its exact form names the same
// field's values).
func (g *Gen) existsClause() (q, o obj) {
	t := g.anyTarget()
	return obj{"exists": obj{"field": t.name()}}, obj{"t": "exists", "f": t.name()}
}

// disMaxClause is a dis_max of two or three clauses, maybe with a tie breaker.
func (g *Gen) disMaxClause(depth int) (q, o obj) {
	var qs, os []any
	for i, n := 0, 2+g.r.IntN(2); i < n; i++ {
		sq, so := g.dsl(depth + 1)
		qs, os = append(qs, sq), append(os, so)
	}
	body, tie := obj{"queries": qs}, 0.0
	if g.r.IntN(2) == 0 {
		tie = pick(g.r, []float64{0.3, 0.7, 1})
		body["tie_breaker"] = tie
	}
	o = g.withBoost(body, obj{"t": "dismax", "tie": tie, "qs": os})
	return obj{"dis_max": body}, o
}

// constantScoreClause is a constant_score around any clause, maybe boosted.
func (g *Gen) constantScoreClause(depth int) (q, o obj) {
	sq, so := g.dsl(depth + 1)
	body := obj{"filter": sq}
	o = g.withBoost(body, obj{"t": "const", "q": so})
	return obj{"constant_score": body}, o
}

// minimumShouldMatch is a minimum_should_match for n optional clauses in one of the
// forms Elasticsearch takes (a count, a negative count, a percentage), with the count
// it comes to.
func (g *Gen) minimumShouldMatch(n int) (any, int) {
	switch g.r.IntN(4) {
	case 0:
		m := 1 + g.r.IntN(n)
		return m, m
	case 1:
		m := 1 + g.r.IntN(n) // -0 would be 0: no minimum
		return -m, n - m
	case 2:
		p := pick(g.r, []int{25, 50, 75, 100})
		return strconv.Itoa(p) + "%", n * p / 100
	}
	p := pick(g.r, []int{25, 50})
	return "-" + strconv.Itoa(p) + "%", n - n*p/100
}

// specInt and specPercent split a minimum_should_match spec as minimumShouldMatch
// makes it (an int, or a string of an int and %) into its number and its % sign, for
// the oracle, which takes the spec as text.
func specInt(spec any) int {
	switch v := spec.(type) {
	case int:
		return v
	case string:
		n, _ := strconv.Atoi(strings.TrimSuffix(v, "%"))
		return n
	}
	return 0
}

func specPercent(spec any) string {
	if s, ok := spec.(string); ok && strings.HasSuffix(s, "%") {
		return "%"
	}
	return ""
}

// fuzzyable says whether every term t's analysis makes of text (every word, or on an
// exact form the whole text) is at most maxFuzzyRunes characters long, so that none is
// too long for Lucene's fuzzy automaton.
func fuzzyable(t target, text string) bool {
	if t.exact {
		return utf8.RuneCountInString(text) <= maxFuzzyRunes
	}
	for _, w := range strings.Fields(text) {
		if utf8.RuneCountInString(w) > maxFuzzyRunes {
			return false
		}
	}
	return true
}

// matchBoolPrefix is a match_bool_prefix clause: words of a field's values, the last
// maybe cut short, as a user typing sends them.
func (g *Gen) matchBoolPrefix() (q, o obj) {
	t := g.textOrExactTarget()
	text := g.matchText(t)
	if runes := []rune(text); len(runes) > 1 && g.r.IntN(2) == 0 {
		text = string(runes[:len(runes)-1-g.r.IntN(min(len(runes)-1, 3))])
	}
	and := g.r.IntN(3) == 0
	opts := obj{"query": text}
	if and {
		opts["operator"] = "and"
	}
	o = g.withBoost(opts, obj{"t": "boolprefix", "f": t.name(), "q": text, "and": and})
	return obj{"match_bool_prefix": obj{t.name(): opts}}, o
}

// matchPhrasePrefix is a match_phrase_prefix clause on a text field (a run of its words)
// or an exact form (a value), the end cut short, maybe with a slop and fewer expansions
// of the last term.
func (g *Gen) matchPhrasePrefix() (q, o obj) {
	t := target{f: g.weighted(g.v.Text)}
	if g.r.IntN(6) == 0 {
		t = target{f: g.weighted(g.v.Exact), exact: true}
	}
	p := g.phrase(t)
	text := strings.NewReplacer(`\\`, `\`, `\"`, `"`).Replace(p[1:strings.LastIndexByte(p, '"')])
	if runes := []rune(text); len(runes) > 1 && g.r.IntN(3) != 0 {
		text = string(runes[:len(runes)-1-g.r.IntN(min(len(runes)-1, 3))])
	}
	opts := obj{"query": text}
	slop, maxExp := 0, 50
	if g.r.IntN(3) == 0 {
		slop = g.r.IntN(4)
		opts["slop"] = slop
	}
	if g.r.IntN(3) == 0 {
		maxExp = pick(g.r, []int{1, 3, 10})
		opts["max_expansions"] = maxExp
	}
	o = g.withBoost(opts, obj{"t": "phraseprefix", "f": t.name(), "q": text, "slop": slop, "max": maxExp})
	return obj{"match_phrase_prefix": obj{t.name(): opts}}, o
}

// flipCase changes the case of some of s's letters, for case_insensitive clauses.
func (g *Gen) flipCase(s string) string {
	var b strings.Builder
	for _, r := range s {
		if g.r.IntN(2) == 0 {
			if unicode.IsUpper(r) {
				r = unicode.ToLower(r)
			} else {
				r = unicode.ToUpper(r)
			}
		}
		b.WriteRune(r)
	}
	return b.String()
}
