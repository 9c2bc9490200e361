package difftest

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"
)

// obj is a JSON object under construction.
type obj = map[string]any

// dsl generates a search DSL clause whose Lucene equivalent is plain, and the oracle
// request for that equivalent (as Elasticsearch builds it, with the engine's documented
// differences: term-level clauses score as constants, D6).
func (g *Gen) dsl(depth int) (q, o obj) {
	switch r := g.r.IntN(100); {
	case r < 12:
		return g.match()
	case r < 15:
		return g.matchBoolPrefix()
	case r < 23:
		return g.multiMatch()
	case r < 31:
		return g.matchPhrase()
	case r < 34:
		return g.matchPhrasePrefix()
	case r < 42:
		return g.termClause()
	case r < 48:
		return g.termsClause()
	case r < 57:
		return g.rangeClause()
	case r < 62:
		return g.patternClause("prefix")
	case r < 67:
		return g.patternClause("wildcard")
	case r < 72:
		return g.fuzzyClause()
	case r < 76:
		return g.regexpClause()
	case r < 79:
		return g.existsClause()
	case depth < 2 && r < 85:
		return g.disMaxClause(depth)
	case depth < 2 && r < 89:
		return g.constantScoreClause(depth)
	case depth < 2:
		return g.boolClause(depth)
	}
	return g.match()
}

// dslKind is the clause type of a DSL query object.
func dslKind(q obj) string {
	for k := range q {
		return k
	}
	return ""
}

// withBoost adds a boost to the clause's options and wraps the oracle request.
func (g *Gen) withBoost(opts obj, o obj) obj {
	if g.r.IntN(6) != 0 {
		return o
	}
	b := pick(g.r, []float64{2, 0.5, 3, 1.5})
	opts["boost"] = b
	return obj{"t": "boost", "b": b, "q": o}
}

// matchText is query text for t: words of its values, or a whole exact value.
func (g *Gen) matchText(t target) string {
	if t.exact {
		return pick(g.r, t.f.Exact)
	}
	n := 1 + g.r.IntN(3)
	words := make([]string, n)
	for i := range words {
		if len(t.f.Words) > 0 && g.r.IntN(2) == 0 {
			words[i] = pick(g.r, t.f.Words)
		} else {
			words[i] = g.mangle(pick(g.r, t.f.Terms))
		}
	}
	return strings.Join(words, " ")
}

func (g *Gen) match() (q, o obj) {
	t := g.textOrExactTarget()
	text := g.matchText(t)
	and := g.r.IntN(3) == 0
	opts := obj{"query": text}
	om := obj{"t": "match", "f": t.name(), "q": text, "and": and}
	if and {
		opts["operator"] = "and"
	} else if g.r.IntN(4) == 0 {
		spec, _ := g.minimumShouldMatch(3)
		opts["minimum_should_match"] = spec
		om["msm"] = strconv.Itoa(specInt(spec)) + specPercent(spec)
	}
	if g.r.IntN(5) == 0 && fuzzyable(t, text) {
		// AUTO or at most 1 edit: two edits on short words make their expansions
		// overlap, where Lucene's merge of equal terms (see the package doc) decides.
		f := obj{}
		switch g.r.IntN(3) {
		case 0:
			n := g.r.IntN(2)
			opts["fuzziness"], f["edits"] = n, n
		default:
			opts["fuzziness"] = "AUTO"
		}
		if g.r.IntN(3) == 0 {
			p := g.r.IntN(3)
			opts["prefix_length"], f["prefix"] = p, p
		}
		om["fuzzy"] = f
	}
	if g.r.IntN(8) == 0 {
		a := pick(g.r, []string{"standard", "simple", "whitespace", "keyword"})
		opts["analyzer"], om["an"] = a, a
	}
	if g.r.IntN(10) == 0 {
		// Text that analyses to no term: zero_terms_query decides.
		text = pick(g.r, []string{"- !", "— …", "?"})
		opts["query"], om["q"] = text, text
		z := pick(g.r, []string{"all", "none"})
		opts["zero_terms_query"], om["zero"] = z, z
	}
	o = g.withBoost(opts, om)
	return obj{"match": obj{t.name(): opts}}, o
}

func (g *Gen) multiMatch() (q, o obj) {
	n := 2 + g.r.IntN(2)
	text := g.matchText(target{f: g.weighted(g.v.Text)})
	and := g.r.IntN(3) == 0
	typ := pick(g.r, []string{"best_fields", "most_fields", "best_fields", "most_fields", "phrase", "phrase_prefix", "bool_prefix"})
	var msmSpec any
	msm := ""
	if !and && (typ == "best_fields" || typ == "most_fields") && g.r.IntN(4) == 0 {
		msmSpec, _ = g.minimumShouldMatch(3)
		msm = strconv.Itoa(specInt(msmSpec)) + specPercent(msmSpec)
	}
	var fields []string
	var subs []obj
	seen := map[string]bool{}
	for i := 0; i < n; i++ {
		t := target{f: g.weighted(g.v.Text)}
		if seen[t.name()] {
			continue
		}
		seen[t.name()] = true
		sub := obj{"t": "match", "f": t.name(), "q": text, "and": and}
		if msm != "" {
			sub["msm"] = msm
		}
		switch typ {
		case "phrase":
			sub = obj{"t": "phrase", "f": t.name(), "q": text, "slop": 0}
		case "phrase_prefix":
			sub = obj{"t": "phraseprefix", "f": t.name(), "q": text, "slop": 0, "max": 50}
		case "bool_prefix":
			sub = obj{"t": "boolprefix", "f": t.name(), "q": text, "and": and}
		}
		name := t.name()
		if g.r.IntN(4) == 0 {
			name += "^2"
			sub = obj{"t": "boost", "b": 2, "q": sub}
		}
		fields = append(fields, name)
		subs = append(subs, sub)
	}
	opts := obj{"query": text, "fields": fields, "type": typ}
	if and {
		opts["operator"] = "and"
	}
	if msmSpec != nil {
		opts["minimum_should_match"] = msmSpec
	}
	tie := 0.0
	if typ == "most_fields" || typ == "bool_prefix" {
		tie = 1
	}
	if typ == "best_fields" && g.r.IntN(4) == 0 {
		tie = pick(g.r, []float64{0.3, 0.7})
		opts["tie_breaker"] = tie
	}
	o = g.withBoost(opts, obj{"t": "dismax", "tie": tie, "qs": subs})
	return obj{"multi_match": opts}, o
}

func (g *Gen) matchPhrase() (q, o obj) {
	t := target{f: g.weighted(g.v.Text)}
	if g.r.IntN(6) == 0 {
		t = target{f: g.weighted(g.v.Exact), exact: true}
	}
	p := g.phrase(t)
	text, slop := p, 0
	if i := strings.LastIndexByte(p, '"'); i > 0 {
		text = p[1:i]
	}
	text = strings.NewReplacer(`\\`, `\`, `\"`, `"`).Replace(text)
	opts := obj{"query": text}
	if g.r.IntN(2) == 0 {
		slop = g.r.IntN(6)
		opts["slop"] = slop
	}
	op := obj{"t": "phrase", "f": t.name(), "q": text, "slop": slop}
	if !t.exact && g.r.IntN(8) == 0 {
		// Not on exact forms: a phrase there runs into their missing positions, which
		// Lucene reports only when it runs (see the package doc).
		a := pick(g.r, []string{"standard", "simple", "whitespace", "keyword"})
		opts["analyzer"], op["an"] = a, a
	}
	o = g.withBoost(opts, op)
	return obj{"match_phrase": obj{t.name(): opts}}, o
}

// exactValue is a value a term-level clause compares exactly: an analysed term of a
// text field, an exact value, a number or a boolean; with its oracle query (unscored).
func (g *Gen) exactValue(t target) (v any, o obj) {
	switch t.f.Kind {
	case Number:
		n := "7"
		if len(t.f.Numbers) > 0 {
			n = pick(g.r, t.f.Numbers)
		}
		return json.RawMessage(n), obj{"t": "num", "f": t.name(), "v": json.RawMessage(n)}
	case Bool:
		b := pick(g.r, []string{"true", "false"})
		return json.RawMessage(b), obj{"t": "term", "f": t.name(), "v": b}
	}
	var s string
	if t.exact {
		s = pick(g.r, t.f.Exact)
	} else {
		s = pick(g.r, t.f.Terms)
	}
	return s, obj{"t": "term", "f": t.name(), "v": s}
}

// exactTarget is a field term-level clauses compare with: text, exact or typed (not
// dates, whose equality is a whole unit, D5).
func (g *Gen) exactTarget() target {
	for {
		t := g.anyTarget()
		if t.f.Kind != Date {
			return t
		}
	}
}

func (g *Gen) termClause() (q, o obj) {
	t := g.exactTarget()
	v, eq := g.exactValue(t)
	opts := obj{"value": v}
	if s, ok := v.(string); ok && g.r.IntN(4) == 0 {
		s = g.flipCase(s)
		opts["value"], opts["case_insensitive"] = s, true
		eq = obj{"t": "ci", "kind": "term", "f": t.name(), "v": s}
	}
	o = g.withBoost(opts, obj{"t": "const", "q": eq})
	return obj{"term": obj{t.name(): opts}}, o
}

func (g *Gen) termsClause() (q, o obj) {
	t := g.exactTarget()
	n := 1 + g.r.IntN(4)
	var vals []any
	var should []obj
	for i := 0; i < n; i++ {
		v, eq := g.exactValue(t)
		vals = append(vals, v)
		should = append(should, eq)
	}
	return obj{"terms": obj{t.name(): vals}}, obj{"t": "const", "q": obj{"t": "bool", "should": should}}
}

// rangeClause is a range with one or two bounds: terms of a text field (compared
// with the analysed terms, not normalised), exact values, numbers or instants.
func (g *Gen) rangeClause() (q, o obj) {
	t := g.anyTarget()
	for t.f.Kind == Bool {
		t = g.anyTarget()
	}
	var lo, hi any
	var los, his string
	switch t.f.Kind {
	case Number:
		n := func() (any, string) {
			s := pick(g.r, slices.Concat(t.f.Numbers, []string{"0", "10", "100"}))
			return json.RawMessage(s), s
		}
		lo, los = n()
		hi, his = n()
	case Date:
		d := func() (any, string) {
			s := pick(g.r, t.f.Exact)
			return s, s
		}
		lo, los = d()
		hi, his = d()
	default:
		los, his = g.bound(t), g.bound(t)
		if los > his && g.r.IntN(4) != 0 {
			los, his = his, los
		}
		lo, hi = los, his
	}
	opts := obj{}
	oq := obj{"t": "range", "f": t.name()}
	if g.r.IntN(5) != 0 {
		il := g.r.IntN(2) == 0
		opts[map[bool]string{true: "gte", false: "gt"}[il]] = lo
		oq["lo"], oq["il"] = los, il
	}
	if _, ok := oq["lo"]; !ok || g.r.IntN(5) != 0 {
		ih := g.r.IntN(2) == 0
		opts[map[bool]string{true: "lte", false: "lt"}[ih]] = hi
		oq["hi"], oq["ih"] = his, ih
	}
	o = g.withBoost(opts, obj{"t": "const", "q": oq})
	return obj{"range": obj{t.name(): opts}}, o
}

// patternClause is a prefix or wildcard clause on a text field (an analysed term's
// pattern, lower-case: these clauses are not normalised) or an exact form.
func (g *Gen) patternClause(kind string) (q, o obj) {
	t := g.textOrExactTarget()
	src := pick(g.r, t.f.Terms)
	if t.exact {
		src = pick(g.r, t.f.Exact)
	}
	runes := []rune(src)
	var v string
	if kind == "prefix" {
		v = string(runes[:1+g.r.IntN(len(runes))])
	} else {
		i := g.r.IntN(len(runes))
		v = string(runes[:i]) + pick(g.r, []string{"*", "?", "?*"}) + string(runes[min(len(runes), i+1):])
	}
	opts := obj{"value": v}
	oq := obj{"t": kind, "f": t.name(), "v": v}
	if g.r.IntN(4) == 0 {
		v = g.flipCase(v)
		opts["value"], opts["case_insensitive"] = v, true
		oq = obj{"t": "ci", "kind": kind, "f": t.name(), "v": v}
	}
	o = g.withBoost(opts, oq)
	return obj{kind: obj{t.name(): opts}}, o
}

// boolClause is a bool query of one to four sub-clauses; a purely negative one gets
// Elasticsearch's match_all filter.
func (g *Gen) boolClause(depth int) (q, o obj) {
	body, oq := obj{}, obj{"t": "bool"}
	occurs := []string{"must", "should", "filter", "must_not"}
	n := 1 + g.r.IntN(4)
	counts := map[string]int{}
	for i := 0; i < n; i++ {
		occ := pickWeighted(g.r, occurs, []int{3, 4, 2, 2})
		sq, so := g.dsl(depth + 1)
		list, _ := body[occ].([]any)
		body[occ] = append(list, sq)
		olist, _ := oq[occ].([]any)
		oq[occ] = append(olist, so)
		counts[occ]++
	}
	if counts["should"] > 1 && g.r.IntN(3) == 0 {
		spec, m := g.minimumShouldMatch(counts["should"])
		body["minimum_should_match"] = spec
		oq["msm"] = m
	}
	if counts["must_not"] == n {
		oq["filter"] = []any{obj{"t": "all"}}
	}
	o = g.withBoost(body, oq)
	return obj{"bool": body}, o
}
