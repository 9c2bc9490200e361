// Package query is the engine's one query model. Every front-end (REST parameters,
// GraphQL arguments, the search DSL, Lucene's query_string syntax) compiles to these
// nodes; the evaluator in package edge knows nothing of where a query came from.
package query

import (
	"strconv"
	"strings"
)

// Query is a node of the query model. String prints the node in Lucene's
// Query.toString() notation with every field named (API.md D10).
type Query interface {
	String() string
	isQuery()
}

// MatchAll matches every item.
type MatchAll struct{}

// MatchNone matches no item. Reason is printed as Lucene's MatchNoDocsQuery prints
// its reason (`MatchNoDocsQuery("...")`); it may be empty.
type MatchNone struct{ Reason string }

// Term matches items whose field holds the term. A field named "<f>.keyword" is
// matched against the exact values of f; any other field against its analysed terms.
type Term struct {
	Field string
	Text  string
	// CaseInsensitive matches exact values regardless of case (ES case_insensitive).
	CaseInsensitive bool
}

// Occur says how a clause of a Bool takes part in matching.
type Occur uint8

// Clause occurrences, as Lucene's BooleanClause.Occur.
const (
	Must    Occur = iota // must match, scores
	Filter               // must match, does not score
	Should               // may match, scores
	MustNot              // must not match
)

// Clause is one clause of a Bool.
type Clause struct {
	Occur Occur
	Query Query
}

// Bool combines clauses as Lucene's BooleanQuery: every Must and Filter clause must
// match, no MustNot clause may match, and at least MinimumShouldMatch Should clauses
// must match (when there are only Should clauses, at least one).
type Bool struct {
	Clauses            []Clause
	MinimumShouldMatch int
}

// Bound is one end of a Range.
type Bound struct {
	Value     Scalar
	Inclusive bool
}

// Range matches items with a value of the field between the bounds (nil: unbounded).
type Range struct {
	Field string
	Lower *Bound
	Upper *Bound
	// OpenLowerInclusive and OpenUpperInclusive only matter for printing: whether an
	// unbounded (nil) end was written with an inclusive bracket (`[* TO b]`), which
	// Lucene's TermRangeQuery.toString keeps.
	OpenLowerInclusive bool
	OpenUpperInclusive bool
}

// Scalar is a typed value a query compares with stored values.
type Scalar struct {
	Kind   ScalarKind
	Str    string
	Number float64
	Millis int64
	Bool   bool
	Text   string // the value as the user wrote it, for printing
}

// printed is the form of a range bound in Lucene's toString: a string bound prints
// its (normalised) Str when set, as TermRangeQuery prints its term bytes; any other
// bound prints Text.
func (s Scalar) printed() string {
	if s.Kind == ScalarString && s.Str != "" {
		return s.Str
	}
	return s.Text
}

// ScalarKind is the type of a Scalar.
type ScalarKind uint8

// Scalar kinds.
const (
	ScalarString ScalarKind = iota + 1
	ScalarNumber
	ScalarDate
	ScalarBool
)

// Exists matches items that have a non-null value in the field.
type Exists struct{ Field string }

// IDs matches items by ContentID.
type IDs struct{ Values []string }

// Phrase matches items where the terms occur at the given relative positions, with up
// to Slop moves (Lucene's PhraseQuery). Positions may have holes (removed tokens).
type Phrase struct {
	Field     string
	Terms     []string
	Positions []int
	Slop      int
}

// PhrasePrefix matches a phrase whose last term is a prefix (match_phrase_prefix),
// expanding the prefix to at most MaxExpansions terms.
type PhrasePrefix struct {
	Field         string
	Terms         []string
	Positions     []int
	Slop          int
	MaxExpansions int
}

// Prefix matches items with a term starting with Prefix.
type Prefix struct {
	Field           string
	Prefix          string
	CaseInsensitive bool
}

// Wildcard matches items with a term matching Pattern, where * is any run of
// characters and ? any one character; \ escapes.
type Wildcard struct {
	Field           string
	Pattern         string
	CaseInsensitive bool
}

// Regexp matches items with a term that the whole of Pattern (Lucene's regular
// expression syntax) matches.
type Regexp struct {
	Field           string
	Pattern         string
	CaseInsensitive bool
}

// Fuzzy matches items with a term within MaxEdits edits (Damerau–Levenshtein when
// Transpositions) of Term whose first PrefixLength characters are equal; it expands to at
// most MaxExpansions terms.
type Fuzzy struct {
	Field          string
	Term           string
	MaxEdits       int
	PrefixLength   int
	MaxExpansions  int
	Transpositions bool
}

// Boost multiplies the scores of Query by Boost.
type Boost struct {
	Query Query
	Boost float64
}

// ConstantScore matches what Query matches, each with score 1 (times an enclosing Boost).
type ConstantScore struct{ Query Query }

// DisMax scores an item by its best-scoring sub-query plus TieBreaker times the others
// (Lucene's DisjunctionMaxQuery).
type DisMax struct {
	Queries    []Query
	TieBreaker float64
}

// FieldTerms is the same analysed text in each of several fields, scored as the DisMax
// that Expand returns: per field, the Term of the one term in Texts, or a Bool of the
// Terms of all of them (each clause Occur), under a Boost when the field's boost is not
// 1; the best field's score plus TieBreaker times the others'. It is that DisMax in one
// node: a query_string over every field of an environment gives its words a query per
// field (56 in the generated environments), and building and boxing those was a fifth
// of such a search's time in the TinyGo module. Fields are names, never patterns.
// Fields, Boosts and Texts are shared, not copied: nothing may change them.
type FieldTerms struct {
	Fields []string
	// Boosts holds each field's boost, in Fields' order; nil when every boost is 1.
	Boosts     []float64
	Texts      []string
	Occur      Occur
	TieBreaker float64
}

// Boost returns the boost of field i.
func (q FieldTerms) Boost(i int) float64 {
	if q.Boosts == nil {
		return 1
	}
	return q.Boosts[i]
}

// Expand returns the DisMax q stands for.
func (q FieldTerms) Expand() DisMax {
	qs := make([]Query, len(q.Fields))
	for i, f := range q.Fields {
		if len(q.Texts) == 1 {
			qs[i] = Term{Field: f, Text: q.Texts[0]}
		} else {
			cs := make([]Clause, len(q.Texts))
			for j, t := range q.Texts {
				cs[j] = Clause{Occur: q.Occur, Query: Term{Field: f, Text: t}}
			}
			qs[i] = Bool{Clauses: cs}
		}
		if b := q.Boost(i); b != 1 {
			qs[i] = Boost{Query: qs[i], Boost: b}
		}
	}
	return DisMax{Queries: qs, TieBreaker: q.TieBreaker}
}

// Nodes returns the number of nodes of q's DisMax, Boosts aside: the clauses it counts
// for against a limit of clauses.
func (q FieldTerms) Nodes() int {
	perField := len(q.Texts)
	if perField > 1 {
		perField++ // the Bool
	}
	return 1 + len(q.Fields)*perField
}

func (MatchAll) isQuery()      {}
func (FieldTerms) isQuery()    {}
func (MatchNone) isQuery()     {}
func (Term) isQuery()          {}
func (Bool) isQuery()          {}
func (Range) isQuery()         {}
func (Exists) isQuery()        {}
func (IDs) isQuery()           {}
func (Phrase) isQuery()        {}
func (PhrasePrefix) isQuery()  {}
func (Prefix) isQuery()        {}
func (Wildcard) isQuery()      {}
func (Regexp) isQuery()        {}
func (Fuzzy) isQuery()         {}
func (Boost) isQuery()         {}
func (ConstantScore) isQuery() {}
func (DisMax) isQuery()        {}

// The String methods print Lucene's Query.toString() forms with the field always named.

func (MatchAll) String() string    { return "*:*" }
func (q MatchNone) String() string { return `MatchNoDocsQuery("` + q.Reason + `")` }
func (q Term) String() string      { return q.Field + ":" + q.Text }
func (q Exists) String() string    { return "FieldExistsQuery [field=" + q.Field + "]" }
func (q IDs) String() string       { return "ContentID:(" + strings.Join(q.Values, " ") + ")" }
func (q Prefix) String() string    { return q.Field + ":" + q.Prefix + "*" }
func (q Wildcard) String() string {
	return q.Field + ":" + q.Pattern
}
func (q Regexp) String() string { return q.Field + ":/" + q.Pattern + "/" }
func (q Fuzzy) String() string {
	return q.Field + ":" + q.Term + "~" + strconv.Itoa(q.MaxEdits)
}
func (q Boost) String() string {
	return "(" + q.Query.String() + ")^" + formatBoost(q.Boost)
}
func (q ConstantScore) String() string { return "ConstantScore(" + q.Query.String() + ")" }

func (q Phrase) String() string {
	return q.Field + ":" + phraseText(q.Terms, q.Positions, "") + slopSuffix(q.Slop)
}

func (q PhrasePrefix) String() string {
	return q.Field + ":" + phraseText(q.Terms, q.Positions, "*") + slopSuffix(q.Slop)
}

func phraseText(terms []string, positions []int, lastSuffix string) string {
	var b strings.Builder
	b.WriteByte('"')
	last := -1
	for i, t := range terms {
		p := i
		if i < len(positions) {
			p = positions[i]
		}
		if i > 0 {
			b.WriteByte(' ')
			for hole := last + 1; hole < p; hole++ {
				b.WriteString("? ")
			}
		}
		b.WriteString(t)
		last = p
	}
	b.WriteString(lastSuffix)
	b.WriteByte('"')
	return b.String()
}

func slopSuffix(slop int) string {
	if slop == 0 {
		return ""
	}
	return "~" + strconv.Itoa(slop)
}

func (q FieldTerms) String() string { return q.Expand().String() }

func (q DisMax) String() string {
	var b strings.Builder
	b.WriteByte('(')
	for i, sub := range q.Queries {
		if i > 0 {
			b.WriteString(" | ")
		}
		// Lucene's DisjunctionMaxQuery.toString wraps sub-BooleanQueries in parentheses.
		if _, ok := sub.(Bool); ok {
			b.WriteByte('(')
			b.WriteString(sub.String())
			b.WriteByte(')')
		} else {
			b.WriteString(sub.String())
		}
	}
	b.WriteByte(')')
	if q.TieBreaker != 0 {
		b.WriteByte('~')
		b.WriteString(formatBoost(q.TieBreaker))
	}
	return b.String()
}

// formatBoost prints a float as Java's Float.toString does for ordinary values
// (2 → "2.0", 0.5 → "0.5").
func formatBoost(f float64) string {
	s := strconv.FormatFloat(float64(float32(f)), 'f', -1, 32)
	if !strings.ContainsAny(s, ".eE") {
		s += ".0"
	}
	return s
}

func (q Bool) String() string {
	var b strings.Builder
	parens := q.MinimumShouldMatch > 0
	if parens {
		b.WriteByte('(')
	}
	for i, c := range q.Clauses {
		if i > 0 {
			b.WriteByte(' ')
		}
		switch c.Occur {
		case Must:
			b.WriteByte('+')
		case Filter:
			b.WriteByte('#')
		case MustNot:
			b.WriteByte('-')
		}
		if inner, ok := c.Query.(Bool); ok {
			b.WriteByte('(')
			b.WriteString(inner.String())
			b.WriteByte(')')
		} else {
			b.WriteString(c.Query.String())
		}
	}
	if parens {
		b.WriteByte(')')
		b.WriteByte('~')
		b.WriteString(strconv.Itoa(q.MinimumShouldMatch))
	}
	return b.String()
}

func (q Range) String() string {
	var b strings.Builder
	b.WriteString(q.Field)
	b.WriteByte(':')
	if (q.Lower != nil && q.Lower.Inclusive) || (q.Lower == nil && q.OpenLowerInclusive) {
		b.WriteByte('[')
	} else {
		b.WriteByte('{')
	}
	if q.Lower != nil {
		b.WriteString(q.Lower.Value.printed())
	} else {
		b.WriteByte('*')
	}
	b.WriteString(" TO ")
	if q.Upper != nil {
		b.WriteString(q.Upper.Value.printed())
	} else {
		b.WriteByte('*')
	}
	if (q.Upper != nil && q.Upper.Inclusive) || (q.Upper == nil && q.OpenUpperInclusive) {
		b.WriteByte(']')
	} else {
		b.WriteByte('}')
	}
	return b.String()
}

// Fielded is implemented by the nodes that address one field, so that the evaluator
// can expand a field pattern such as "Data.*" without knowing each node.
type Fielded interface {
	Query
	// FieldName is the field (or field pattern) the node addresses.
	FieldName() string
	// WithField returns the same node on another field.
	WithField(field string) Query
}

// The field-addressing nodes implement Fielded: FieldName returns their field,
// WithField a copy on another field.

func (q Term) FieldName() string         { return q.Field }
func (q Phrase) FieldName() string       { return q.Field }
func (q PhrasePrefix) FieldName() string { return q.Field }
func (q Prefix) FieldName() string       { return q.Field }
func (q Wildcard) FieldName() string     { return q.Field }
func (q Regexp) FieldName() string       { return q.Field }
func (q Fuzzy) FieldName() string        { return q.Field }
func (q Range) FieldName() string        { return q.Field }
func (q Exists) FieldName() string       { return q.Field }

func (q Term) WithField(f string) Query         { q.Field = f; return q }
func (q Phrase) WithField(f string) Query       { q.Field = f; return q }
func (q PhrasePrefix) WithField(f string) Query { q.Field = f; return q }
func (q Prefix) WithField(f string) Query       { q.Field = f; return q }
func (q Wildcard) WithField(f string) Query     { q.Field = f; return q }
func (q Regexp) WithField(f string) Query       { q.Field = f; return q }
func (q Fuzzy) WithField(f string) Query        { q.Field = f; return q }
func (q Range) WithField(f string) Query        { q.Field = f; return q }
func (q Exists) WithField(f string) Query       { q.Field = f; return q }

// SortField is one key of a sort: a field (a top-level member or a Data path), or the
// relevance score.
type SortField struct {
	Field string
	Desc  bool
	Score bool
}

// Search is a compiled request: what to match, in which order, which page. An empty
// Sort means by relevance when Query scores, else the default order of API.md D6.
type Search struct {
	Query Query
	Sort  []SortField
	From  int
	Size  int
	// Scores asks for relevance scores even when sorting by fields (track_scores).
	Scores bool
}
