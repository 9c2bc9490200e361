// Package lucene parses the query languages of the search DSL's text queries into
// the engine's one query model (package query): Lucene's classic query syntax, as
// Elasticsearch's query_string query takes it (Parse), and Elasticsearch's
// simple_query_string syntax (ParseSimple). It compiles; it does not evaluate.
//
// The classic parser is a hand-written lexer and recursive-descent parser that
// follows Lucene's QueryParser.jj and QueryParserBase.java token for token, with
// Elasticsearch's QueryStringQueryParser on top (API.md D10, D12): the operator
// precedence, the odd cases (`a OR b AND c` is `a +b +c`), the lexical states
// (boost numbers, range bounds) and the toString forms of the result are Lucene's.
//
// The package is compiled to WebAssembly with TinyGo: no reflection, goroutines or
// recover; it never panics, nests at most MaxDepth deep and builds at most
// Options.MaxClauses leaf queries (D11), so any input is safe to parse.
package lucene

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/cdaedge/cdaedge/edge/analysis"
	"github.com/cdaedge/cdaedge/edge/query"
)

// Operator is the operator between clauses written without one (default_operator).
type Operator uint8

// Default operators.
const (
	OR  Operator = iota // clauses without an operator are optional (the default)
	AND                 // clauses without an operator are required
)

// DefaultMaxClauses is Lucene's default maximum clause count, the query_string limit
// of API.md D11.
const DefaultMaxClauses = 1024

// MaxDepth is the deepest nesting of parentheses a query may have. Lucene has no
// such limit (a deep query overflows its stack); here a deeper query is a
// SyntaxError with TooComplex set (D11).
const MaxDepth = 64

// Defaults of Elasticsearch's query_string and simple_query_string parameters.
const (
	DefaultFuzzyMaxExpansions = 50 // fuzzy_max_expansions (FuzzyQuery.defaultMaxExpansions)
	DefaultFuzzyPrefixLength  = 0  // fuzzy_prefix_length
)

// Options are the parameters of query_string and simple_query_string (D10). The
// zero value is not ready: use DefaultOptions and change what the request sets.
type Options struct {
	// DefaultField is the field of terms written without one (default_field). ""
	// or "*" means every field, as Elasticsearch's index.query.default_field "*":
	// terms then go to Fields when set, else to the field "*", which the evaluator
	// expands (or the caller replaces by listing the fields in Fields).
	DefaultField string
	// Fields, when not empty, are the fields of terms written without one (fields):
	// each term becomes a DisMax over them (Elasticsearch's best_fields type). A
	// field may carry a boost, "Name^2". With DefaultField "*" they are every field,
	// listed: ">x" and a lone "*" without a field then apply to all fields (a range in
	// each, every item), as with a default field; without it, as Elasticsearch's
	// fields parameter, there is no default field: ">x" is text and "*" is each
	// field's exists.
	Fields []string
	// TieBreaker is the tie_breaker of the DisMax over Fields (best_fields: 0).
	TieBreaker float64
	// DefaultOperator is default_operator.
	DefaultOperator Operator
	// Analyzer analyses terms and phrases (analysis.Standard when nil).
	Analyzer analysis.Analyzer
	// AnalyzerLowercases says that Analyzer lower-cases, so that wildcard, prefix,
	// regexp, fuzzy and range terms, which are not analysed, are lower-cased (D12).
	AnalyzerLowercases bool
	// FieldAnalysis gives the analysis of each field, as Lucene's per-field analyzer
	// does: the analyzer of its terms and phrases and whether that lower-cases (which
	// then applies to its wildcard, prefix, regexp, fuzzy and range terms too). A nil
	// analyzer, or a nil FieldAnalysis, means the default: ExactAnalysis for exact
	// (".keyword") fields, Analyzer and AnalyzerLowercases for every other field.
	FieldAnalysis func(field string) (a analysis.Analyzer, lowercases bool)
	// FieldsAnalysedByDefault says that FieldAnalysis gives every field of Fields the
	// default analysis (every analysed text field of an environment, listed), so the
	// parser need not ask it about each of them, and that Fields are names as they are:
	// no boost suffix is cut from them. (A name with a '*' then stays in the
	// query.FieldTerms of the words, whose expansion the evaluator reads as a pattern,
	// as it would the field of that name's own Term.)
	FieldsAnalysedByDefault bool
	// AllowLeadingWildcard is allow_leading_wildcard (Elasticsearch: true).
	AllowLeadingWildcard bool
	// AnalyzeWildcard is analyze_wildcard: a prefix term (`foo-ba*`) is analysed,
	// its last token becoming the prefix.
	AnalyzeWildcard bool
	// MaxClauses bounds the number of leaf queries built (D11); 0 means
	// DefaultMaxClauses. Over it, the error is a SyntaxError with TooComplex set.
	MaxClauses int
	// Fuzziness is the edit distance of `term~` written without a number
	// (fuzziness): "" or "AUTO" (Elasticsearch's default: 0 edits for terms of 1–2
	// characters, 1 for 3–5, 2 beyond), "AUTO:low,high", or "0", "1", "2".
	Fuzziness string
	// SimpleOff are the operators of the simple syntax turned off
	// (simple_query_string's flags leave them out): where they appear they are text.
	// The zero value turns none off, as Elasticsearch's default flags ALL.
	SimpleOff SimpleFlag
	// FuzzyMaxExpansions, FuzzyPrefixLength and FuzzyTranspositions are copied
	// into every Fuzzy node (fuzzy_max_expansions, fuzzy_prefix_length,
	// fuzzy_transpositions).
	FuzzyMaxExpansions  int
	FuzzyPrefixLength   int
	FuzzyTranspositions bool
	// PhraseSlop is the slop of phrases written without `~N` (phrase_slop).
	PhraseSlop int
}

// DefaultOptions returns Elasticsearch's defaults for query_string (D10): default
// field "*", operator OR, the standard analyzer (which lower-cases), leading
// wildcards allowed, fuzziness AUTO with 50 expansions, prefix length 0 and
// transpositions, 1024 clauses.
func DefaultOptions() Options {
	return Options{
		DefaultField:         "*",
		Analyzer:             analysis.Standard,
		AnalyzerLowercases:   true,
		AllowLeadingWildcard: true,
		MaxClauses:           DefaultMaxClauses,
		FuzzyMaxExpansions:   DefaultFuzzyMaxExpansions,
		FuzzyPrefixLength:    DefaultFuzzyPrefixLength,
		FuzzyTranspositions:  true,
	}
}

// IsExactField reports whether field is the exact form of a field ("Name.keyword"),
// whose values are single terms with their case kept.
func IsExactField(field string) bool { return strings.HasSuffix(field, ".keyword") }

// ExactAnalysis is the analysis of exact fields: Lucene's keyword analyzer, the whole
// text as one term, and no lower-casing of multi-term terms
// (`Name.keyword:Caf*` matches "Café au lait", not "café").
func ExactAnalysis() (analysis.Analyzer, bool) { return analysis.Keyword, false }

// SyntaxError is a query that cannot be parsed, or that is over a limit
// (TooComplex, which the caller reports as too_complex rather than invalid_query).
type SyntaxError struct {
	Offset     int    // byte offset of the offending text in the query
	Line       int    // 1-based line of Offset
	Column     int    // 1-based column of Offset, in characters
	Message    string // what was wrong and what was expected, without the position
	TooComplex bool   // a limit (clauses, nesting) was exceeded, not a syntax error
}

// Error returns the message with its position: `unexpected ")" at line 1, column 7`.
func (e *SyntaxError) Error() string {
	return e.Message + " at line " + strconv.Itoa(e.Line) + ", column " + strconv.Itoa(e.Column)
}

// newError builds a SyntaxError at byte offset off of input.
func newError(input string, off int, msg string) *SyntaxError {
	if off < 0 {
		off = 0
	}
	if off > len(input) {
		off = len(input)
	}
	line, col := 1, 1
	for _, r := range input[:off] {
		if r == '\n' {
			line++
			col = 1
		} else {
			col++
		}
	}
	return &SyntaxError{Offset: off, Line: line, Column: col, Message: msg}
}

// SimpleFlag is one operator of the simple syntax, numbered as Lucene's
// SimpleQueryParser and Elasticsearch's simple_query_string flags number them.
type SimpleFlag int

// The operators of the simple syntax.
const (
	SimpleAnd        SimpleFlag = 1 << iota // "+" between terms
	SimpleNot                               // "-" before a term
	SimpleOr                                // "|" between terms
	SimplePrefix                            // "term*"
	SimplePhrase                            // a quoted phrase
	SimplePrecedence                        // "(" and ")"
	SimpleEscape                            // "\" before a character
	SimpleWhitespace                        // whitespace between terms
	SimpleFuzzy                             // "term~N"
	SimpleNear                              // a quoted phrase then "~N"

	// SimpleAll is every operator.
	SimpleAll = SimpleNear<<1 - 1
)

// SimpleFlagNamed is the operator of one of Elasticsearch's simple_query_string flag
// names, in upper case (SLOP is NEAR's other name); ALL and NONE, which name sets, are
// not operators and report false like an unknown name.
func SimpleFlagNamed(name string) (SimpleFlag, bool) {
	switch name {
	case "AND":
		return SimpleAnd, true
	case "NOT":
		return SimpleNot, true
	case "OR":
		return SimpleOr, true
	case "PREFIX":
		return SimplePrefix, true
	case "PHRASE":
		return SimplePhrase, true
	case "PRECEDENCE":
		return SimplePrecedence, true
	case "ESCAPE":
		return SimpleEscape, true
	case "WHITESPACE":
		return SimpleWhitespace, true
	case "FUZZY":
		return SimpleFuzzy, true
	case "NEAR", "SLOP":
		return SimpleNear, true
	}
	return 0, false
}

// fieldList is the fields terms are searched in: their names and boosts (nil: every
// boost is 1).
type fieldList struct {
	names  []string
	boosts []float64
}

// boost is field i's boost.
func (l fieldList) boost(i int) float64 {
	if l.boosts == nil {
		return 1
	}
	return l.boosts[i]
}

// starField is the list of the one field "*" (every field, expanded by the evaluator).
var starField = []string{"*"}

// splitFields is Options.Fields as a fieldList: each name's boost suffix ("Name^2") cut
// from it, empty names left out. A list with none of either is used as it is: a query
// over every field names the environment's list, which is then not copied.
func splitFields(fields []string) fieldList {
	for i, f := range fields {
		if name, _ := splitBoost(f); name == f && name != "" {
			continue
		}
		l := fieldList{names: make([]string, i, len(fields)), boosts: make([]float64, i, len(fields))}
		copy(l.names, fields[:i])
		for j := range l.boosts {
			l.boosts[j] = 1
		}
		boosted := false
		for _, f := range fields[i:] {
			if name, boost := splitBoost(f); name != "" {
				l.names, l.boosts = append(l.names, name), append(l.boosts, boost)
				boosted = boosted || boost != 1
			}
		}
		if !boosted {
			l.boosts = nil
		}
		return l
	}
	return fieldList{names: fields}
}

// builder holds what the classic and the simple parser share: the options, the
// input (for error positions), the clause budget and the analysis scratch buffer.
type builder struct {
	opts      Options
	input     string
	leafCount int // leaf queries built so far (leaves)
	err       *SyntaxError
	tokens    []analysis.Token
	all       fieldList // the fields of "all fields" (DefaultField "*" or Fields)
	dflt      string    // the parser's default field; "" when Fields are used
	errAt     int       // offset to report a limit error at
	scratch   []byte

	// byDefault holds the tokens of byDefaultText analysed by the default analyzer
	// (analyze); byDefaultSet says whether it does.
	byDefault     []analysis.Token
	byDefaultText string
	byDefaultSet  bool
	// tokenBuf holds byDefault for a text of a few words, which then allocates nothing.
	tokenBuf [4]analysis.Token
	// clauseSlab is where clauses carves the clause lists of analysed text from.
	clauseSlab []query.Clause
	// allTerms says whether every field of all analyses text by default (1) or not (2),
	// once known (0: not yet).
	allTerms uint8
}

// clauseSlabSize is how many clauses the builder allocates at once for the clause
// lists of analysed text.
const clauseSlabSize = 64

// clauses returns an empty clause list with room for n clauses, carved from a slab that
// the builder allocates a few dozen clauses at a time: a text analysed for each of many
// fields (a query_string over every field) would otherwise allocate a list per field.
func (b *builder) clauses(n int) []query.Clause {
	if cap(b.clauseSlab)-len(b.clauseSlab) < n {
		b.clauseSlab = make([]query.Clause, 0, max(clauseSlabSize, n))
	}
	at := len(b.clauseSlab)
	b.clauseSlab = b.clauseSlab[:at+n]
	return b.clauseSlab[at : at : at+n]
}

func newBuilder(input string, opts Options) *builder {
	if opts.Analyzer == nil {
		opts.Analyzer = analysis.Standard
	}
	if opts.MaxClauses <= 0 {
		opts.MaxClauses = DefaultMaxClauses
	}
	b := &builder{opts: opts, input: input}
	b.byDefault = b.tokenBuf[:0]
	if opts.FieldsAnalysedByDefault {
		b.all.names = opts.Fields // an environment's own field names: no boost to cut
	} else {
		b.all = splitFields(opts.Fields)
	}
	switch {
	case len(b.all.names) > 0 && opts.DefaultField == "*":
		b.dflt = "*" // every field, listed
	case len(b.all.names) > 0:
		b.dflt = ""
	case opts.DefaultField == "" || opts.DefaultField == "*":
		b.dflt = "*"
		b.all.names = starField
	default:
		b.dflt = opts.DefaultField
	}
	return b
}

// splitBoost splits "Name^2" into "Name" and 2; a missing or bad boost is 1.
func splitBoost(f string) (string, float64) {
	i := strings.LastIndexByte(f, '^')
	if i < 0 {
		return f, 1
	}
	v, err := strconv.ParseFloat(f[i+1:], 32)
	if err != nil || v < 0 {
		return f, 1
	}
	return f[:i], v
}

// fieldsFor resolves the field of a clause as QueryStringQueryParser's
// extractMultiFields: "" (no field: the Fields option) and "*" (all fields) give
// the default fields; any other name is itself.
func (b *builder) fieldsFor(field string) fieldList {
	if field == "" || field == "*" {
		if len(b.all.names) > 0 {
			return b.all
		}
		return fieldList{names: []string{b.opts.DefaultField}}
	}
	return fieldList{names: []string{field}}
}

// leaf counts one leaf query against MaxClauses (D11).
func (b *builder) leaf() bool { return b.leaves(1) }

// leaves counts n leaf queries against MaxClauses, as n calls of leaf would.
func (b *builder) leaves(n int) bool {
	if b.err != nil {
		return false
	}
	b.leafCount += n
	if b.leafCount > b.opts.MaxClauses {
		e := newError(b.input, b.errAt, "too many clauses: the query has more than "+
			strconv.Itoa(b.opts.MaxClauses)+" (the limit of query_string clauses)")
		e.TooComplex = true
		b.err = e
		return false
	}
	return true
}

// perField builds one query per field and combines them as Elasticsearch's
// multi-field parsers do: one field is the query itself (boosted by the field's
// boost), several a DisMax with tie breaker tie. Fields whose query is nil are left
// out; nil when all are.
func (b *builder) perField(fields fieldList, tie float64, build func(field string) query.Query) query.Query {
	var qs []query.Query
	if len(fields.names) > 1 {
		qs = make([]query.Query, 0, len(fields.names)) // one allocation, not one per doubling
	}
	for i, name := range fields.names {
		q := build(name)
		if b.err != nil {
			return nil
		}
		if q == nil {
			continue
		}
		if w := fields.boost(i); w != 1 {
			q = query.Boost{Query: q, Boost: w}
		}
		qs = append(qs, q)
	}
	switch len(qs) {
	case 0:
		return nil
	case 1:
		return qs[0]
	}
	return query.DisMax{Queries: qs, TieBreaker: tie}
}

// textPerField is perField building textQuery for each field. Text over the list of
// all the fields, when they all analyse it by default (a query_string's words over
// every field), becomes the query.FieldTerms of its tokens: the DisMax perField would
// build, in one node rather than a Term (or a Bool of Terms) and a Boost per field.
func (b *builder) textPerField(fields fieldList, tie float64, text string) query.Query {
	all := b.all.names
	if n := len(fields.names); n > 1 && n == len(all) && &fields.names[0] == &all[0] && b.allByDefault() {
		if toks := b.analyzeByDefault(text); len(toks) > 0 {
			if !b.leaves(n * len(toks)) { // the Terms textQuery would count
				return nil
			}
			texts := make([]string, len(toks))
			for i, t := range toks {
				texts[i] = t.Term
			}
			return query.FieldTerms{Fields: all, Boosts: b.all.boosts, Texts: texts, Occur: b.occur(), TieBreaker: tie}
		}
	}
	return b.perField(fields, tie, func(f string) query.Query { return b.textQuery(f, text) })
}

// allByDefault reports whether every field of all analyses text with the default
// analyzer (and, in a list other than the environment's own, none is a pattern, which
// the evaluator expands), working it out at the first call of a parse.
func (b *builder) allByDefault() bool {
	if b.allTerms == 0 {
		b.allTerms = 2
		for _, name := range b.all.names {
			if b.opts.FieldsAnalysedByDefault && !IsExactField(name) { // a member named "keyword" reads as an exact form
				continue
			}
			if !b.opts.FieldsAnalysedByDefault && strings.Contains(name, "*") {
				return false // a pattern, which the evaluator expands
			}
			if _, _, byDefault := b.analysisOf(name); !byDefault {
				return false
			}
		}
		b.allTerms = 1
	}
	return b.allTerms == 1
}

// occur is the occurrence of clauses joined by the default operator.
func (b *builder) occur() query.Occur {
	if b.opts.DefaultOperator == AND {
		return query.Must
	}
	return query.Should
}

// analysisOf returns the analyzer of field, whether it lower-cases (D12), and whether
// it is the default one (Options.Analyzer).
func (b *builder) analysisOf(field string) (a analysis.Analyzer, lowercases, byDefault bool) {
	if b.opts.FieldAnalysis != nil {
		if a, lc := b.opts.FieldAnalysis(field); a != nil {
			return a, lc, false
		}
	}
	if IsExactField(field) {
		a, lc := ExactAnalysis()
		return a, lc, false
	}
	return b.opts.Analyzer, b.opts.AnalyzerLowercases, true
}

// analyze returns the tokens of text analysed as field's text (a scratch slice to
// read, valid until the next call). A query over many fields (query_string without
// fields: every field) analyses the same text for each, nearly all with the default
// analyzer, so its tokens by that analyzer are kept for the next field rather than
// made again (a three-word query_string over 56 fields analysed 168 words for 3).
func (b *builder) analyze(field, text string) []analysis.Token {
	a, _, byDefault := b.analysisOf(field)
	if !byDefault {
		b.tokens = a(b.tokens[:0], text)
		return b.tokens
	}
	return b.analyzeByDefault(text)
}

// analyzeByDefault returns the tokens of text analysed by the default analyzer
// (Options.Analyzer), kept for the next field as analyze says.
func (b *builder) analyzeByDefault(text string) []analysis.Token {
	if !b.byDefaultSet || b.byDefaultText != text {
		b.byDefault, b.byDefaultText, b.byDefaultSet = b.opts.Analyzer(b.byDefault[:0], text), text, true
	}
	return b.byDefault
}

// textQuery is Lucene's QueryBuilder.createBooleanQuery for one field, as
// Elasticsearch's match query builds it (auto_generate_phrase_queries false): no
// token → nil (the clause is dropped), one → Term, several → a Bool of Terms
// joined by the default operator.
func (b *builder) textQuery(field, text string) query.Query {
	toks := b.analyze(field, text)
	switch len(toks) {
	case 0:
		return nil
	case 1:
		if !b.leaf() {
			return nil
		}
		return query.Term{Field: field, Text: toks[0].Term}
	}
	occ := b.occur()
	clauses := b.clauses(len(toks))
	for _, t := range toks {
		if !b.leaf() {
			return nil
		}
		clauses = append(clauses, query.Clause{Occur: occ, Query: query.Term{Field: field, Text: t.Term}})
	}
	return query.Bool{Clauses: clauses}
}

// phraseQuery is QueryBuilder.createPhraseQuery for one field: no token → nil, one
// → Term, several → Phrase with the analyzer's positions (holes kept).
func (b *builder) phraseQuery(field, text string, slop int) query.Query {
	toks := b.analyze(field, text)
	switch len(toks) {
	case 0:
		return nil
	case 1:
		if !b.leaf() {
			return nil
		}
		return query.Term{Field: field, Text: toks[0].Term}
	}
	if !b.leaf() {
		return nil
	}
	p := query.Phrase{Field: field, Slop: slop, Terms: make([]string, len(toks)), Positions: make([]int, len(toks))}
	for i, t := range toks {
		p.Terms[i] = t.Term
		p.Positions[i] = t.Position
	}
	return p
}

// normalize is Analyzer.normalize for multi-term queries on field (D12): lower-case
// when the field's analyzer lower-cases, else unchanged.
func (b *builder) normalize(field, s string) string {
	if _, lc, _ := b.analysisOf(field); !lc {
		return s
	}
	return lower(s)
}

// lower lower-cases s per code point, as Lucene's LowerCaseFilter (invalid bytes
// are kept).
func lower(s string) string {
	i := 0
	for i < len(s) {
		c := s[i]
		if c >= utf8.RuneSelf {
			break
		}
		if 'A' <= c && c <= 'Z' {
			break
		}
		i++
	}
	if i == len(s) {
		return s
	}
	out := make([]byte, 0, len(s)+4)
	out = append(out, s[:i]...)
	for i < len(s) {
		c := s[i]
		if c < utf8.RuneSelf {
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			out = append(out, c)
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 {
			out = append(out, c)
		} else {
			out = utf8.AppendRune(out, unicode.ToLower(r))
		}
		i += n
	}
	return string(out)
}

// fuzzy builds a Fuzzy node for one field with the fuzzy options.
func (b *builder) fuzzy(field, term string, edits int) query.Query {
	if !b.leaf() {
		return nil
	}
	return query.Fuzzy{
		Field:          field,
		Term:           b.normalize(field, term),
		MaxEdits:       edits,
		PrefixLength:   b.opts.FuzzyPrefixLength,
		MaxExpansions:  b.opts.FuzzyMaxExpansions,
		Transpositions: b.opts.FuzzyTranspositions,
	}
}

// analyzedPrefix is QueryStringQueryParser.getPossiblyAnalyzedPrefixQuery with
// analyze_wildcard: the text is analysed; one token is a Prefix, several a Bool of
// Terms with a Prefix on the last, joined by the default operator; none is nil.
func (b *builder) analyzedPrefix(field, text string) query.Query {
	toks := b.analyze(field, text)
	switch len(toks) {
	case 0:
		return nil
	case 1:
		if !b.leaf() {
			return nil
		}
		return query.Prefix{Field: field, Prefix: toks[0].Term}
	}
	occ := b.occur()
	clauses := b.clauses(len(toks))
	for i, t := range toks {
		if !b.leaf() {
			return nil
		}
		var q query.Query = query.Term{Field: field, Text: t.Term}
		if i == len(toks)-1 {
			q = query.Prefix{Field: field, Prefix: t.Term}
		}
		clauses = append(clauses, query.Clause{Occur: occ, Query: q})
	}
	return query.Bool{Clauses: clauses}
}

// autoEdits is Elasticsearch's Fuzziness.asDistance for AUTO:low,high.
func autoEdits(term string, low, high int) int {
	n := utf8.RuneCountInString(term)
	switch {
	case n < low:
		return 0
	case n < high:
		return 1
	}
	return 2
}

// defaultEdits is the edit distance of a `~` without a number, from the fuzziness
// option (Elasticsearch's query_string default: AUTO).
func (b *builder) defaultEdits(term string) (int, bool) {
	return fuzzinessEdits(b.opts.Fuzziness, term)
}

// fuzzinessEdits is Elasticsearch's Fuzziness.fromString(s).asDistance(term): "AUTO",
// "AUTO:low,high", or a whole number of edits 0, 1 or 2 (written as an integer or a
// float with no fraction). ok is false for anything else.
func fuzzinessEdits(s, term string) (edits int, ok bool) {
	if s == "" || strings.EqualFold(s, "AUTO") {
		return autoEdits(term, 3, 6), true
	}
	if len(s) > 5 && strings.EqualFold(s[:5], "AUTO:") {
		lo, hi, found := strings.Cut(s[5:], ",")
		l, err1 := strconv.Atoi(lo)
		h, err2 := strconv.Atoi(hi)
		if !found || err1 != nil || err2 != nil || l < 0 || h < 0 || l > h {
			return 0, false
		}
		return autoEdits(term, l, h), true
	}
	f, err := strconv.ParseFloat(s, 32)
	if err != nil || f != float64(int(f)) || f < 0 || f > 2 {
		return 0, false
	}
	return int(f), true
}
