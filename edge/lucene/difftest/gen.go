package difftest

import (
	"encoding/json"
	"math/rand/v2"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// Query is one generated query: the search DSL query object the engine gets and the
// request the oracle builds the equivalent Lucene query from.
type Query struct {
	Kind   string          // "query_string" or the DSL clause type
	Query  json.RawMessage // the search DSL query object
	Oracle json.RawMessage // the oracle's request (see java/LuceneOracle.java and Queries.java)
}

// Gen generates random queries over an environment's vocabulary, deterministically
// for a seed.
type Gen struct {
	r *rand.Rand
	v *Vocab
	// noExactPhrases keeps phrases off exact forms while a query_string names an
	// analyzer that splits text (see the package doc).
	noExactPhrases bool
}

// NewGen returns a generator over v.
func NewGen(v *Vocab, seed uint64) *Gen {
	return &Gen{r: rand.New(rand.NewPCG(seed, 0x1ce5_eed0_d1ff)), v: v}
}

// Next returns the next query: a query_string query seven times out of twelve, a
// simple_query_string query two times, else a search DSL clause.
func (g *Gen) Next() Query {
	switch r := g.r.IntN(12); {
	case r < 7:
		return g.queryString()
	case r < 9:
		return g.simpleQueryString()
	}
	q, o := g.dsl(0)
	return Query{Kind: dslKind(q), Query: mustJSON(q), Oracle: mustJSON(o)}
}

// target is a field a query clause searches: a text field, its exact (.keyword) form,
// or a typed field.
type target struct {
	f     *Field
	exact bool
}

func (t target) name() string {
	if t.exact {
		return t.f.Name + ".keyword"
	}
	return t.f.Name
}

// queryString generates a query_string query with an explicit default field or, a
// quarter of the time, a list of fields.
func (g *Gen) queryString() Query {
	if g.r.IntN(4) == 0 {
		return g.queryStringFields()
	}
	df := g.textTarget()
	and := g.r.IntN(8) == 0
	analyzer := g.qsAnalyzer()
	text := g.qsQuery(0, df)
	g.noExactPhrases = false
	qs := obj{"query": text, "default_field": df.name()}
	o := obj{"t": "qs", "q": text, "df": df.name(), "and": and}
	if and {
		qs["default_operator"] = "AND"
	}
	g.qsOptions(qs, o, analyzer)
	return Query{Kind: "query_string", Query: mustJSON(obj{"query_string": qs}), Oracle: mustJSON(o)}
}

// qsOptions sets, now and then, the options of query_string that change how terms
// become queries: fuzziness (for a bare ~), fuzzy_prefix_length, fuzzy_max_expansions,
// fuzzy_transpositions, phrase_slop, minimum_should_match and analyzer; in qs (the
// clause) and o (the oracle's request).
func (g *Gen) qsOptions(qs, o obj, analyzer string) {
	if analyzer != "" {
		qs["analyzer"], o["an"] = analyzer, analyzer
	}
	if g.r.IntN(3) != 0 {
		return
	}
	if g.r.IntN(3) == 0 {
		n := g.r.IntN(3)
		qs["fuzziness"], o["fz"] = n, n
	}
	if g.r.IntN(2) == 0 {
		g.fuzzyOptions(qs, o)
	}
	if g.r.IntN(3) == 0 {
		n := g.r.IntN(4)
		qs["phrase_slop"], o["slop"] = n, n
	}
	if g.r.IntN(3) == 0 {
		spec, _ := g.minimumShouldMatch(3)
		qs["minimum_should_match"] = spec
		o["msm"] = strconv.Itoa(specInt(spec)) + specPercent(spec)
	}
}

// qsAnalyzer is, now and then, an analyzer for a query_string to name ("" for
// none); one that splits text keeps the query's phrases off exact forms
// (noExactPhrases) until the query is written.
func (g *Gen) qsAnalyzer() string {
	if g.r.IntN(12) != 0 {
		return ""
	}
	a := pick(g.r, []string{"standard", "simple", "whitespace", "keyword"})
	g.noExactPhrases = a != "keyword"
	return a
}

// queryStringFields generates a query_string query over one to three fields, some
// boosted, maybe with a tie_breaker; clauses without a field draw their words from the
// first field's values.
func (g *Gen) queryStringFields() Query {
	targets, fields, weights := g.fieldWeights()
	and := g.r.IntN(8) == 0
	analyzer := g.qsAnalyzer()
	for _, t := range targets {
		if t.exact && g.noExactPhrases {
			// The phrases written without a field would reach the exact form too.
			analyzer, g.noExactPhrases = "", false
		}
	}
	text := g.qsQuery(0, targets[0])
	g.noExactPhrases = false
	qs := obj{"query": text, "fields": fields}
	o := obj{"t": "qs", "q": text, "fields": weights, "and": and}
	if and {
		qs["default_operator"] = "AND"
	}
	if g.r.IntN(4) == 0 {
		tie := pick(g.r, []float64{0.3, 1})
		qs["tie_breaker"], o["tie"] = tie, tie
	}
	g.qsOptions(qs, o, analyzer)
	return Query{Kind: "query_string", Query: mustJSON(obj{"query_string": qs}), Oracle: mustJSON(o)}
}

// qsQuery is a sequence of clauses joined by operators or nothing, each with an
// optional modifier; ctx is the field of clauses written without one.
func (g *Gen) qsQuery(depth int, ctx target) string {
	n := 1 + g.r.IntN(4-depth)
	var b strings.Builder
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteString(pick(g.r, []string{" ", " ", " ", " AND ", " OR ", " && ", " || "}))
		}
		b.WriteString(pickWeighted(g.r, []string{"", "+", "-", "NOT ", "!"}, []int{12, 2, 2, 1, 1}))
		b.WriteString(g.qsClause(depth, ctx))
	}
	return b.String()
}

// qsClause is a group (with or without a field), a clause with an explicit field, or
// a term of the context's field.
func (g *Gen) qsClause(depth int, ctx target) string {
	r := g.r.IntN(100)
	switch {
	case depth < 2 && r < 7:
		t := g.textOrExactTarget()
		return t.name() + ":(" + g.qsQuery(depth+1, t) + ")" + g.boost()
	case depth < 2 && r < 14:
		return "(" + g.qsQuery(depth+1, ctx) + ")" + g.boost()
	case r < 17:
		t := g.anyTarget()
		if g.r.IntN(2) == 0 {
			return "_exists_:" + t.name()
		}
		return t.name() + ":*"
	case r < 55:
		t := g.anyTarget()
		return t.name() + ":" + g.leaf(t)
	}
	return g.leaf(ctx)
}

// leaf is a term-level clause for t, with an optional boost.
func (g *Gen) leaf(t target) string {
	switch t.f.Kind {
	case Number:
		return g.numberLeaf(t.f)
	case Bool:
		return pick(g.r, []string{"true", "false"})
	case Date:
		return g.dateLeaf(t.f)
	}
	var s string
	switch r := g.r.IntN(100); {
	case r < 28:
		s = g.term(t)
	case r < 46 && !(t.exact && g.noExactPhrases):
		s = g.phrase(t)
	case r < 46:
		s = g.term(t)
	case r < 54:
		s = g.prefix(t) + "*"
	case r < 62:
		s = g.wildcard(t)
	case r < 72:
		s = g.fuzzy(t)
	case r < 80:
		s = "/" + g.regexp(t) + "/"
	case r < 94:
		s = g.textRange(t)
	default:
		s = pick(g.r, []string{">", ">=", "<", "<="}) + escapeTerm(g.bound(t), 0, nil)
	}
	return s + g.boost()
}

func (g *Gen) boost() string {
	if g.r.IntN(7) != 0 {
		return ""
	}
	return "^" + pick(g.r, []string{"2", "0.5", "3", "1.5", "10", "0.1"})
}

// term is a word of t's values (as written, or an analysed term), escaped.
func (g *Gen) term(t target) string {
	if t.exact {
		return escapeTerm(pick(g.r, t.f.Exact), g.unicodeEscapes(), g.r)
	}
	var w string
	if len(t.f.Words) > 0 && g.r.IntN(2) == 0 {
		w = pick(g.r, t.f.Words)
	} else {
		w = g.mangle(pick(g.r, t.f.Terms))
	}
	return escapeTerm(w, g.unicodeEscapes(), g.r)
}

// unicodeEscapes is how often a character of a term is written as \uXXXX.
func (g *Gen) unicodeEscapes() int {
	if g.r.IntN(10) == 0 {
		return 3
	}
	return 0
}

// mangle changes the case of an analysed term (which the analyzer undoes), keeping
// words that would read as operators.
func (g *Gen) mangle(w string) string {
	var out string
	switch g.r.IntN(5) {
	case 0:
		out = strings.ToUpper(w)
	case 1:
		r, n := utf8.DecodeRuneInString(w)
		out = string(unicode.ToUpper(r)) + w[n:]
	default:
		return w
	}
	if out == "AND" || out == "OR" || out == "NOT" || out == "TO" {
		return w
	}
	return out
}

// phrase is a quoted run of tokens of t's values, often changed (words swapped,
// dropped or repeated) and with a slop; on the exact form, a whole value.
func (g *Gen) phrase(t target) string {
	var text string
	if t.exact {
		text = pick(g.r, t.f.Exact)
	} else if len(t.f.Runs) == 0 {
		text = pick(g.r, t.f.Terms)
	} else {
		run := pick(g.r, t.f.Runs)
		k := 2 + g.r.IntN(3)
		start := g.r.IntN(max(1, len(run)-k+1))
		words := append([]string(nil), run[start:min(len(run), start+k)]...)
		words = g.reshape(words)
		for i := range words {
			words[i] = g.mangle(words[i])
		}
		text = strings.Join(words, " ")
	}
	s := `"` + escapeQuoted(text) + `"`
	switch r := g.r.IntN(10); {
	case r < 4:
	case r < 9:
		s += "~" + strconv.Itoa(g.r.IntN(7))
	default:
		s += pick(g.r, []string{"~", "~12", "~1.5"})
	}
	return s
}

// reshape changes a run of words the ways sloppy phrases are written: swapped,
// shortened, with a word repeated.
func (g *Gen) reshape(w []string) []string {
	switch g.r.IntN(7) {
	case 0:
		if len(w) > 1 {
			i := g.r.IntN(len(w) - 1)
			w[i], w[i+1] = w[i+1], w[i]
		}
	case 1:
		if len(w) > 2 {
			i := 1 + g.r.IntN(len(w)-2)
			w = append(w[:i], w[i+1:]...)
		}
	case 2:
		i := g.r.IntN(len(w))
		w = append(w[:i+1], w[i:]...)
	case 3:
		w = append(w, w[0])
	}
	return w
}

// prefix is the start of a term (at least one character), escaped.
func (g *Gen) prefix(t target) string {
	w := g.patternSource(t)
	runes := []rune(w)
	k := 1 + g.r.IntN(len(runes))
	if k == len(runes) && k > 1 && g.r.IntN(2) == 0 {
		k--
	}
	return escapeTerm(string(runes[:k]), 0, nil)
}

// patternSource is a term to build a pattern from: an analysed term (case changed)
// or, on the exact form, a value.
func (g *Gen) patternSource(t target) string {
	if t.exact {
		return pick(g.r, t.f.Exact)
	}
	return g.mangle(pick(g.r, t.f.Terms))
}

// wildcard is a term with some characters replaced by ? and some * inserted. It keeps
// one character at least: a pattern of only * and ? (`*?`, `??*?`) matches nearly every
// term, past D11's expansion limit in large environments, where Lucene has none (the
// same exclusion as regexp's .*; seeds 4003 and 4005 found it at 4,000 items).
func (g *Gen) wildcard(t target) string {
	runes := []rune(g.patternSource(t))
	var b strings.Builder
	star := g.r.IntN(len(runes) + 1)
	wild, literal := false, false
	for i, r := range runes {
		if i == star {
			b.WriteByte('*')
			wild = true
		}
		if g.r.IntN(5) == 0 {
			b.WriteByte('?')
			wild = true
			continue
		}
		b.WriteString(escapeTerm(string(r), 0, nil))
		literal = true
	}
	if !wild || star == len(runes) {
		b.WriteString(pick(g.r, []string{"*", "?", "*?"}))
	}
	if !literal && len(runes) > 0 {
		return escapeTerm(string(runes[0]), 0, nil) + b.String()
	}
	return b.String()
}

// maxFuzzyRunes bounds the terms of fuzzy queries: Lucene refuses longer ones with two
// edits ("Term too complex": its Levenshtein automaton outgrows the determinization
// limit), where the engine, which computes edit distances, answers.
const maxFuzzyRunes = 24

// fuzzy is a term, maybe with one edit, and ~, ~0, ~1 or ~2.
func (g *Gen) fuzzy(t target) string {
	runes := []rune(g.patternSource(t))
	for try := 0; len(runes) > maxFuzzyRunes && try < 10; try++ {
		runes = []rune(g.patternSource(t))
	}
	if len(runes) > maxFuzzyRunes {
		runes = runes[:maxFuzzyRunes]
	}
	if len(runes) > 2 && g.r.IntN(2) == 0 {
		i := g.r.IntN(len(runes) - 1)
		switch g.r.IntN(3) {
		case 0:
			runes = append(runes[:i], runes[i+1:]...)
		case 1:
			runes[i] = pick(g.r, []rune("aeioustn"))
		default:
			runes[i], runes[i+1] = runes[i+1], runes[i]
		}
	}
	edits := []string{"", "0", "1", "1", "2", "2"}
	if len(runes) <= 5 {
		edits = edits[:4] // see simpleQueryString's fuzzy terms
	}
	return escapeTerm(string(runes), 0, nil) + "~" + pick(g.r, edits)
}

// regexp is a Lucene regular expression built from a term: a character replaced by
// ., a class or an alternative, a repetition, a tail of .* after at least one character
// (without /, which would end it, and without the operators the engine refuses; a bare
// .* would expand to every term, past D11's expansion limit in large environments).
func (g *Gen) regexp(t target) string {
	runes := []rune(g.patternSource(t))
	i := g.r.IntN(len(runes))
	lit := func(rs []rune) string { return escapeRegexp(string(rs)) }
	switch g.r.IntN(7) {
	case 0:
		return lit(runes[:i]) + "." + lit(runes[i+1:])
	case 1:
		return lit(runes[:max(i, 1)]) + ".*"
	case 2:
		return ".*" + lit(runes[i:])
	case 3:
		return lit(runes[:i]) + "[" + lit(runes[i:i+1]) + "xyz]" + lit(runes[i+1:])
	case 4:
		return "(" + lit(runes) + "|" + lit([]rune(g.patternSource(t))) + ")"
	case 5:
		return lit(runes[:i+1]) + pick(g.r, []string{"+", "?", "*", "{1,2}"}) + lit(runes[i+1:])
	}
	return lit(runes[:max(i, 1)]) + ".+"
}

// bound is a range bound for t: a term or value, or a piece of one.
func (g *Gen) bound(t target) string {
	w := g.patternSource(t)
	if g.r.IntN(3) == 0 {
		runes := []rune(w)
		w = string(runes[:1+g.r.IntN(len(runes))])
	}
	return w
}

// textRange is [lo TO hi] with either end inclusive, exclusive or open.
func (g *Gen) textRange(t target) string {
	lo, hi := g.bound(t), g.bound(t)
	if lo > hi && g.r.IntN(4) != 0 {
		lo, hi = hi, lo
	}
	return g.rangeOf(rangeBound(lo), rangeBound(hi))
}

func (g *Gen) rangeOf(lo, hi string) string {
	switch g.r.IntN(6) {
	case 0:
		lo = "*"
	case 1:
		hi = "*"
	}
	return pick(g.r, []string{"[", "{"}) + lo + " TO " + hi + pick(g.r, []string{"]", "}"})
}

// rangeBound writes a range bound: as it is when the range syntax allows, else quoted.
func rangeBound(s string) string {
	if s == "" || s == "*" || s == "TO" || strings.ContainsAny(s, " \t\n\r\u3000]}\"\\") {
		return `"` + escapeQuoted(s) + `"`
	}
	return s
}

// numberLeaf is a number, a range or a one-sided range of a number field.
func (g *Gen) numberLeaf(f *Field) string {
	n := func() string {
		if len(f.Numbers) == 0 || g.r.IntN(4) == 0 {
			return strconv.Itoa(g.r.IntN(500))
		}
		return pick(g.r, f.Numbers)
	}
	switch g.r.IntN(3) {
	case 0:
		return escapeTerm(n(), 0, nil) + g.boost()
	case 1:
		return g.rangeOf(n(), n()) + g.boost()
	}
	return pick(g.r, []string{">", ">=", "<", "<="}) + escapeTerm(n(), 0, nil)
}

// dateLeaf is an instant, a range or a one-sided range of a date field, with bounds
// written as full instants (see the package doc: D12 days differ on purpose).
func (g *Gen) dateLeaf(f *Field) string {
	d := func() string {
		if len(f.Exact) > 0 && g.r.IntN(2) == 0 {
			return pick(g.r, f.Exact)
		}
		start := time.Date(2019, 1, 1, 0, 0, 0, 0, time.UTC).UnixMilli()
		ms := start + g.r.Int64N(8*365*24*3600*1000)
		return time.UnixMilli(ms).UTC().Format("2006-01-02T15:04:05.000Z")
	}
	switch g.r.IntN(4) {
	case 0:
		return escapeTerm(d(), 0, nil)
	case 1:
		return pick(g.r, []string{">", ">=", "<", "<="}) + escapeTerm(d(), 0, nil)
	}
	lo, hi := d(), d()
	if lo > hi {
		lo, hi = hi, lo
	}
	return g.rangeOf(lo, hi) + g.boost()
}

// escapeTerm escapes the query syntax's special characters with a backslash; every
// uni-th other character (0: none) is written as \uXXXX instead.
func escapeTerm(s string, uni int, r *rand.Rand) string {
	var b strings.Builder
	for _, c := range s {
		switch {
		case strings.ContainsRune(`\+-!():^[]"{}~*?|&/`, c) || unicode.IsSpace(c):
			b.WriteByte('\\')
			b.WriteRune(c)
		case uni > 0 && r.IntN(uni) == 0:
			for _, u := range utf16Units(c) {
				b.WriteString(`\u`)
				b.WriteString(strings.ToUpper(strconv.FormatUint(uint64(u)|0x10000, 16)[1:]))
			}
		default:
			b.WriteRune(c)
		}
	}
	s = b.String()
	if s == "AND" || s == "OR" || s == "NOT" || s == "TO" {
		s = `\` + s
	}
	return s
}

func utf16Units(c rune) []uint16 {
	if c < 0x10000 {
		return []uint16{uint16(c)}
	}
	c -= 0x10000
	return []uint16{uint16(0xD800 + c>>10), uint16(0xDC00 + c&0x3FF)}
}

// escapeQuoted escapes " and \ inside a quoted phrase or range bound.
func escapeQuoted(s string) string {
	return strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s)
}

// escapeRegexp escapes the characters Lucene's regular expressions give a meaning.
func escapeRegexp(s string) string {
	var b strings.Builder
	for _, c := range s {
		if strings.ContainsRune(`.?+*|{}[]()"\#@&<>~/`, c) {
			b.WriteByte('\\')
		}
		b.WriteRune(c)
	}
	return b.String()
}

// textTarget is a text field (or, now and then, its exact form) to search by default.
func (g *Gen) textTarget() target {
	if g.r.IntN(8) == 0 {
		return target{f: g.weighted(g.v.Exact), exact: true}
	}
	return target{f: g.weighted(g.v.Text)}
}

// textOrExactTarget is a text field or, a third of the time, an exact form.
func (g *Gen) textOrExactTarget() target {
	if g.r.IntN(3) == 0 {
		return target{f: g.weighted(g.v.Exact), exact: true}
	}
	return target{f: g.weighted(g.v.Text)}
}

// anyTarget is a text field, an exact form or a typed field.
func (g *Gen) anyTarget() target {
	if g.r.IntN(5) == 0 && len(g.v.Typed) > 0 {
		return target{f: pick(g.r, g.v.Typed)}
	}
	return g.textOrExactTarget()
}

// weighted picks a field, the more likely the more items have it.
func (g *Gen) weighted(fs []*Field) *Field {
	total := 0
	for _, f := range fs {
		total += f.Docs + 50
	}
	n := g.r.IntN(total)
	for _, f := range fs {
		if n -= f.Docs + 50; n < 0 {
			return f
		}
	}
	return fs[len(fs)-1]
}

func pick[T any](r *rand.Rand, s []T) T { return s[r.IntN(len(s))] }

func pickWeighted(r *rand.Rand, s []string, w []int) string {
	total := 0
	for _, x := range w {
		total += x
	}
	n := r.IntN(total)
	for i, x := range w {
		if n -= x; n < 0 {
			return s[i]
		}
	}
	return s[len(s)-1]
}

func mustJSON(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}
