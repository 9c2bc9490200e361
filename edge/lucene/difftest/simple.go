package difftest

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// simpleQueryString generates a simple_query_string query over one to three fields
// (text fields, now and then an exact form), some boosted, in the whole simple syntax
// (every flag): terms, "phrases" with and without ~slop, prefix*, fuzzy~N, + | and -,
// parentheses and \ escapes.
func (g *Gen) simpleQueryString() Query {
	targets, fields, weights := g.fieldWeights()
	and := g.r.IntN(4) == 0
	text := g.sqsQuery(0, targets)
	opts := obj{"query": text, "fields": fields}
	o := obj{"t": "sqs", "q": text, "fields": weights, "and": and}
	if and {
		opts["default_operator"] = "and"
	}
	if g.r.IntN(3) == 0 {
		opts["flags"], o["flags"] = keepSeparators(g.simpleFlags())
	}
	if g.r.IntN(4) == 0 {
		g.fuzzyOptions(opts, o)
	}
	if g.r.IntN(5) == 0 {
		spec, _ := g.minimumShouldMatch(3)
		opts["minimum_should_match"] = spec
		o["msm"] = strconv.Itoa(specInt(spec)) + specPercent(spec)
	}
	return Query{Kind: "simple_query_string", Query: mustJSON(obj{"simple_query_string": opts}), Oracle: mustJSON(o)}
}

// simpleFlagNames are simple_query_string's flag names, each operator's at its bit.
var simpleFlagNames = []string{"AND", "NOT", "OR", "PREFIX", "PHRASE", "PRECEDENCE", "ESCAPE", "WHITESPACE", "FUZZY", "NEAR"}

// simpleFlags is a flags option (a number, or names joined by "|" in any case, now and
// then with ALL or NONE among them) and the operators it turns on (-1: all), as
// Elasticsearch resolves it: the first ALL or NONE decides alone.
func (g *Gen) simpleFlags() (any, int) {
	if g.r.IntN(4) == 0 {
		n := g.r.IntN(1 << 10)
		return n, n
	}
	var names []string
	on, decided := 0, false
	for i, n := 0, 1+g.r.IntN(4); i < n; i++ {
		name, bit := "", 0
		switch r := g.r.IntN(12); {
		case r == 10:
			name, bit = "ALL", -1
		case r == 11:
			name, bit = "NONE", 0
		default:
			name, bit = simpleFlagNames[r], 1<<r
		}
		if g.r.IntN(4) == 0 {
			name = strings.ToLower(name)
		}
		names = append(names, name)
		switch {
		case decided:
		case bit <= 0:
			on, decided = bit, true
		default:
			on |= bit
		}
	}
	return strings.Join(names, "|"), on
}

// separators are the flags of the operators that sqsQuery joins its clauses with.
const separators = 1 | 4 | 128 // AND, OR, WHITESPACE

// keepSeparators turns the separators on in flags (as written, and as bits: on) that
// turn FUZZY on. Without them the clauses run together into one term, and a `~N`
// after it makes that whole text a fuzzy term, which Lucene refuses as too complex
// ("Term too complex": its Levenshtein automaton outgrows the determinization limit)
// where the engine, which computes edit distances, answers (seeds 4001 and 4002 found
// it). Only the bits change, never the random draws.
func keepSeparators(flags any, on int) (any, int) {
	const fuzzy = 256
	if on == -1 || on&fuzzy == 0 || on&separators == separators {
		return flags, on
	}
	on |= separators
	if _, isNumber := flags.(int); isNumber {
		return on, on
	}
	return flags.(string) + "|AND|OR|WHITESPACE", on
}

// fieldWeights picks one to three distinct fields (text fields, now and then an exact
// form), a quarter of them boosted: the targets, the fields option as written
// ("Name^2") and the oracle's weights ({"f":"Name","b":2}).
func (g *Gen) fieldWeights() (targets []target, fields []string, weights []any) {
	seen := map[string]bool{}
	for n := 1 + g.r.IntN(3); len(targets) < n; {
		t := g.textTarget()
		if seen[t.name()] {
			n--
			continue
		}
		seen[t.name()] = true
		targets = append(targets, t)
		name, w := t.name(), obj{"f": t.name()}
		if g.r.IntN(4) == 0 {
			b := pick(g.r, []float64{2, 0.5, 3})
			name += "^" + strconv.FormatFloat(b, 'f', -1, 64)
			w["b"] = b
		}
		fields = append(fields, name)
		weights = append(weights, w)
	}
	return targets, fields, weights
}

// sqsQuery is a run of clauses joined by whitespace (the default operator), | or +,
// each maybe negated with -.
func (g *Gen) sqsQuery(depth int, ts []target) string {
	var b strings.Builder
	for i, n := 0, 1+g.r.IntN(4-depth); i < n; i++ {
		if i > 0 {
			b.WriteString(pickWeighted(g.r, []string{" ", " | ", " + ", "|", "+", "  "}, []int{10, 3, 3, 1, 1, 1}))
		}
		b.WriteString(pickWeighted(g.r, []string{"", "-", "--", "+", "|"}, []int{16, 3, 1, 1, 1}))
		b.WriteString(g.sqsClause(depth, pick(g.r, ts), ts))
	}
	return b.String()
}

// sqsClause is a group, a phrase, a prefix, a fuzzy term or a term of t's values.
func (g *Gen) sqsClause(depth int, t target, ts []target) string {
	switch r := g.r.IntN(100); {
	case depth < 2 && r < 10:
		return "(" + g.sqsQuery(depth+1, ts) + ")"
	case r < 28:
		return g.sqsPhrase(t)
	case r < 40:
		return sqsEscape(g.prefixSource(t)) + "*"
	case r < 52:
		// Two edits on a term of five characters or less (more than AUTO gives) reach
		// many short terms, and with them the terms beside it, where Lucene's merge of
		// equal terms decides (see the package doc).
		src := g.fuzzySource(t)
		edits := []string{"0", "1", "1", "2", "2"}
		if utf8.RuneCountInString(src) <= 5 {
			edits = edits[:3]
		}
		return sqsEscape(src) + "~" + pick(g.r, edits)
	}
	if t.exact {
		return sqsEscape(pick(g.r, t.f.Exact))
	}
	if len(t.f.Words) > 0 && g.r.IntN(2) == 0 {
		return sqsEscape(pick(g.r, t.f.Words))
	}
	return sqsEscape(g.mangle(pick(g.r, t.f.Terms)))
}

// sqsPhrase is a quoted run of t's words (a whole value on an exact form), maybe with
// a slop.
func (g *Gen) sqsPhrase(t target) string {
	p := g.phrase(t) // the query_string form: `"…"` with escaped " and \, maybe ~N
	end := strings.LastIndexByte(p, '"')
	text := strings.NewReplacer(`\\`, `\`, `\"`, `"`).Replace(p[1:end])
	s := `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(text) + `"`
	if g.r.IntN(2) == 0 {
		s += "~" + strconv.Itoa(g.r.IntN(6))
	}
	return s
}

// prefixSource is the start of a term or value of t (at least one character).
func (g *Gen) prefixSource(t target) string {
	runes := []rune(g.patternSource(t))
	return string(runes[:1+g.r.IntN(len(runes))])
}

// fuzzySource is a term or value of t of at most maxFuzzyRunes characters, maybe
// with one edit.
func (g *Gen) fuzzySource(t target) string {
	runes := []rune(g.patternSource(t))
	if len(runes) > maxFuzzyRunes {
		runes = runes[:maxFuzzyRunes]
	}
	if len(runes) > 2 && g.r.IntN(2) == 0 {
		i := g.r.IntN(len(runes) - 1)
		runes[i], runes[i+1] = runes[i+1], runes[i]
	}
	return string(runes)
}

// sqsEscape escapes the simple syntax's operators and whitespace with a backslash.
func sqsEscape(s string) string {
	var b strings.Builder
	for _, c := range s {
		if strings.ContainsRune(`\+|-"*()~`, c) || unicode.IsSpace(c) {
			b.WriteByte('\\')
		}
		b.WriteRune(c)
	}
	return b.String()
}

// fuzzyOptions sets, now and then, fuzzy_prefix_length, fuzzy_max_expansions and
// fuzzy_transpositions on a query_string or simple_query_string clause (opts) and its
// oracle request (o).
func (g *Gen) fuzzyOptions(opts, o obj) {
	if g.r.IntN(2) == 0 {
		n := g.r.IntN(3)
		opts["fuzzy_prefix_length"], o["fpl"] = n, n
	}
	if g.r.IntN(2) == 0 {
		n := pick(g.r, []int{1, 3, 10})
		opts["fuzzy_max_expansions"], o["fmax"] = n, n
	}
	if g.r.IntN(3) == 0 {
		opts["fuzzy_transpositions"], o["ftr"] = false, false
	}
}
