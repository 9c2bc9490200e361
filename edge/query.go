package edge

import (
	"strconv"
	"strings"
)

// Query is a node of the engine's one query model. Every front-end (REST parameters,
// GraphQL arguments, the search DSL) compiles to these nodes; the evaluator knows
// nothing of where a query came from. String prints the node in Lucene's
// Query.toString() notation with every field named (decisions D10).
type Query interface {
	String() string
	isQuery()
}

// MatchAll matches every item.
type MatchAll struct{}

// MatchNone matches no item.
type MatchNone struct{}

// Term matches items whose field holds the term. A field named "<f>.keyword" is
// matched against the exact values of f; any other field against its analysed terms.
type Term struct {
	Field string
	Text  string
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

func (MatchAll) isQuery()  {}
func (MatchNone) isQuery() {}
func (Term) isQuery()      {}
func (Bool) isQuery()      {}
func (Range) isQuery()     {}
func (Exists) isQuery()    {}
func (IDs) isQuery()       {}

func (MatchAll) String() string  { return "*:*" }
func (MatchNone) String() string { return "MatchNoDocsQuery(\"\")" }
func (q Term) String() string    { return q.Field + ":" + escapeTerm(q.Text) }
func (q Exists) String() string  { return "FieldExistsQuery [field=" + q.Field + "]" }
func (q IDs) String() string     { return "ContentID:(" + strings.Join(q.Values, " ") + ")" }

func (q Bool) String() string {
	var b strings.Builder
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
	if q.MinimumShouldMatch > 0 {
		b.WriteByte('~')
		b.WriteString(strconv.Itoa(q.MinimumShouldMatch))
	}
	return b.String()
}

func (q Range) String() string {
	var b strings.Builder
	b.WriteString(q.Field)
	b.WriteByte(':')
	if q.Lower != nil && q.Lower.Inclusive {
		b.WriteByte('[')
	} else {
		b.WriteByte('{')
	}
	if q.Lower != nil {
		b.WriteString(q.Lower.Value.Text)
	} else {
		b.WriteByte('*')
	}
	b.WriteString(" TO ")
	if q.Upper != nil {
		b.WriteString(q.Upper.Value.Text)
	} else {
		b.WriteByte('*')
	}
	if q.Upper != nil && q.Upper.Inclusive {
		b.WriteByte(']')
	} else {
		b.WriteByte('}')
	}
	return b.String()
}

// escapeTerm escapes Lucene's syntax characters so a printed term reads back as itself.
func escapeTerm(s string) string {
	if !strings.ContainsAny(s, `+-&|!(){}[]^"~*?:\/ `) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if strings.IndexByte(`+-&|!(){}[]^"~*?:\/ `, s[i]) >= 0 {
			b.WriteByte('\\')
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// SortField is one key of a sort: a field (a top-level member or a Data path), or the
// relevance score.
type SortField struct {
	Field string
	Desc  bool
	Score bool
}

// Search is a compiled request: what to match, in which order, which page.
type Search struct {
	Query Query
	Sort  []SortField
	From  int
	Size  int
}
