package lucene

import (
	"strconv"
	"strings"

	"github.com/cdaedge/cdaedge/edge/query"
)

// Conjunctions and modifiers, as QueryParserBase's CONJ_* and MOD_*.
const (
	conjNone = iota
	conjAnd
	conjOr
)

const (
	modNone = iota
	modNot
	modReq
)

// ExistsField is the pseudo-field of Elasticsearch's `_exists_:field` syntax.
const ExistsField = "_exists_"

// emptyReason is the reason of the MatchNone of a blank query_string, as
// Elasticsearch's QueryStringQueryParser.parse gives it.
const emptyReason = "Matching no documents because no terms present"

type parser struct {
	*builder
	lex   lexer
	toks  []token // a window of lexed tokens; toks[0] is the next one
	depth int
	// window holds toks (peekN looks at most three ahead), so that lexing allocates
	// nothing: the parser is allocated anyway.
	window [3]token
}

// Parse compiles a query in Lucene's classic query syntax, as Elasticsearch's
// query_string query reads it (D10), to the query model. A blank query matches
// nothing. Errors are *SyntaxError, with the position of the offending text;
// TooComplex is set when a limit (MaxClauses, MaxDepth) is exceeded.
//
// Precedence and clause building are Lucene's QueryParser (not a conventional
// AND-binds-tighter grammar): a query is a flat list of clauses; "AND" makes the
// clause before it and the one after it required, "OR" (with default operator
// AND) makes them optional, "NOT"/"-" prohibits the next clause and "+" requires
// it; so `a OR b AND c` is `a +b +c` and `a AND b OR c` is `+a b c`. Bare terms
// written one after another are analysed together (split_on_whitespace false).
func Parse(input string, opts Options) (query.Query, error) {
	if isBlank(input) {
		return query.MatchNone{Reason: emptyReason}, nil
	}
	p := &parser{builder: newBuilder(input, opts), lex: lexer{input: input}}
	p.toks = p.window[:0]
	q := p.query(p.dflt)
	if p.err == nil && p.peek().kind != tEOF {
		t := p.peek()
		if t.kind == tRPAREN {
			p.fail(t.off, `unbalanced parenthesis: unexpected ")"`)
		} else {
			p.unexpected("an operator, a term or the end of the query")
		}
	}
	if p.err != nil {
		return nil, p.err
	}
	if q == nil {
		// Lucene returns an empty BooleanQuery, which matches nothing.
		return query.MatchNone{Reason: emptyReason}, nil
	}
	return q, nil
}

// isBlank is Java's query.trim().isEmpty(): only characters up to U+0020.
func isBlank(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] > ' ' {
			return false
		}
	}
	return true
}

func (p *parser) peek() token { return p.peekN(0) }

// peekN returns the token n ahead (n <= 2), lexing as needed; tokens are lexed
// lazily so that a query over a limit is not lexed to its end.
func (p *parser) peekN(n int) token {
	for len(p.toks) <= n {
		p.toks = append(p.toks, p.lex.next())
	}
	return p.toks[n]
}

func (p *parser) next() token {
	t := p.peek()
	copy(p.toks, p.toks[1:])
	p.toks = p.toks[:len(p.toks)-1]
	return t
}

func (p *parser) fail(off int, msg string) {
	if p.err == nil {
		p.err = newError(p.input, off, msg)
	}
}

// unexpected reports the next token as unexpected, or the lexical error it is.
func (p *parser) unexpected(expected string) {
	t := p.peek()
	if t.kind == tERROR {
		p.fail(t.off, t.text)
		return
	}
	p.fail(t.off, "unexpected "+t.describe()+"; expected "+expected)
}

// startsClause says whether a token can begin Conjunction Modifiers Clause.
func startsClause(k kind) bool {
	switch k {
	case tAND, tOR, tNOT, tPLUS, tMINUS, tBAREOPER, tTERM, tSTAR, tLPAREN, tPREFIX,
		tWILD, tREGEXP, tNUMBER, tRANGEIN, tRANGEEX, tQUOTED:
		return true
	}
	return false
}

// allowedPostMultiTerm is QueryParser.allowedPostMultiTerm: a bare term followed by
// one of these tokens is not joined to the bare terms before it.
func allowedPostMultiTerm(k kind) bool {
	switch k {
	case tCOLON, tSTAR, tFUZZY, tCARAT, tAND, tOR:
		return false
	}
	return true
}

func (p *parser) multiTermAhead() bool {
	return p.peekN(0).kind == tTERM && p.peekN(1).kind == tTERM && allowedPostMultiTerm(p.peekN(2).kind)
}

const termExpected = `a term, a phrase, a range or "("`

// query is QueryParser.jj's Query: (MultiTerm | Modifiers Clause) followed by any
// number of (MultiTerm | Conjunction Modifiers Clause).
func (p *parser) query(field string) query.Query {
	if p.depth >= MaxDepth {
		p.fail(p.peek().off, "query nests parentheses deeper than "+strconv.Itoa(MaxDepth)+" levels")
		if p.err != nil {
			p.err.TooComplex = true
		}
		return nil
	}
	p.depth++
	defer func() { p.depth-- }()

	var clauses []query.Clause
	var first query.Query
	if p.multiTermAhead() {
		first = p.multiTerm(field, &clauses)
	} else {
		mods := p.modifiers()
		if !startsClause(p.peek().kind) || isConj(p.peek().kind) {
			p.unexpected(termExpected)
			return nil
		}
		q := p.clause(field)
		p.addClause(&clauses, conjNone, mods, q)
		if mods == modNone {
			first = q
		}
	}
	for p.err == nil {
		if p.multiTermAhead() {
			p.multiTerm(field, &clauses)
			continue
		}
		if !startsClause(p.peek().kind) {
			break
		}
		conj := p.conjunction()
		mods := p.modifiers()
		if !startsClause(p.peek().kind) || isConj(p.peek().kind) {
			p.unexpected(termExpected)
			return nil
		}
		q := p.clause(field)
		p.addClause(&clauses, conj, mods, q)
	}
	if p.err != nil {
		return nil
	}
	if len(clauses) == 1 && first != nil {
		return first
	}
	return p.booleanQuery(clauses)
}

func isConj(k kind) bool { return k == tAND || k == tOR }

func (p *parser) conjunction() int {
	switch p.peek().kind {
	case tAND:
		p.next()
		return conjAnd
	case tOR:
		p.next()
		return conjOr
	}
	return conjNone
}

func (p *parser) modifiers() int {
	switch p.peek().kind {
	case tPLUS:
		p.next()
		return modReq
	case tMINUS, tNOT:
		p.next()
		return modNot
	}
	return modNone
}

// addClause is QueryParserBase.addClause, including its effect on the clause before
// (made required by AND, optional by OR under default operator AND), which applies
// even when q is nil (a clause the analyzer removed).
func (p *parser) addClause(clauses *[]query.Clause, conj, mods int, q query.Query) {
	cs := *clauses
	if len(cs) > 0 && conj == conjAnd && cs[len(cs)-1].Occur != query.MustNot {
		cs[len(cs)-1].Occur = query.Must
	}
	if len(cs) > 0 && p.opts.DefaultOperator == AND && conj == conjOr && cs[len(cs)-1].Occur != query.MustNot {
		cs[len(cs)-1].Occur = query.Should
	}
	if q == nil {
		return
	}
	var required, prohibited bool
	if p.opts.DefaultOperator == OR {
		prohibited = mods == modNot
		required = mods == modReq
		if conj == conjAnd && !prohibited {
			required = true
		}
	} else {
		prohibited = mods == modNot
		required = !prohibited && conj != conjOr
	}
	occ := query.Should
	switch {
	case prohibited:
		occ = query.MustNot
	case required:
		occ = query.Must
	}
	*clauses = append(cs, query.Clause{Occur: occ, Query: q})
}

// addMultiTermClauses is QueryParserBase.addMultiTermClauses: the clauses of a Bool
// of Terms are added as they are; any other query (or the clauses of another Bool)
// with the default operator.
func (p *parser) addMultiTermClauses(clauses *[]query.Clause, q query.Query) {
	if q == nil {
		return
	}
	if bq, ok := q.(query.Bool); ok {
		allTerms := true
		for _, c := range bq.Clauses {
			if _, ok := c.Query.(query.Term); !ok {
				allTerms = false
				break
			}
		}
		if allTerms {
			*clauses = append(*clauses, bq.Clauses...)
			return
		}
		for _, c := range bq.Clauses {
			*clauses = append(*clauses, query.Clause{Occur: p.occur(), Query: c.Query})
		}
		return
	}
	*clauses = append(*clauses, query.Clause{Occur: p.occur(), Query: q})
}

// booleanQuery is QueryStringQueryParser.getBooleanQuery: nil for no clauses; a
// Bool of only prohibited clauses gets a `#*:*` filter (Elasticsearch's
// Queries.fixNegativeQueryIfNeeded), so `-a` alone matches everything but a.
func (p *parser) booleanQuery(clauses []query.Clause) query.Query {
	if len(clauses) == 0 {
		return nil
	}
	negative := true
	for _, c := range clauses {
		if c.Occur != query.MustNot {
			negative = false
			break
		}
	}
	if negative {
		clauses = append(clauses, query.Clause{Occur: query.Filter, Query: query.MatchAll{}})
	}
	return query.Bool{Clauses: clauses}
}

// multiTerm is QueryParser.jj's MultiTerm: bare terms one after another, each not
// followed by ":", "*", "~", "^", AND or OR, analysed as one text.
func (p *parser) multiTerm(field string, clauses *[]query.Clause) query.Query {
	first := p.next()
	// The terms joined by single spaces: most often the input as written, which then
	// needs no copy.
	end := first.off + len(first.text)
	var sb strings.Builder
	for p.peekN(0).kind == tTERM && allowedPostMultiTerm(p.peekN(1).kind) {
		t := p.next()
		if sb.Len() == 0 && t.off == end+1 && p.input[end] == ' ' {
			end = t.off + len(t.text)
			continue
		}
		if sb.Len() == 0 {
			sb.WriteString(p.input[first.off:end])
		}
		sb.WriteByte(' ')
		sb.WriteString(t.text)
	}
	joined := p.input[first.off:end]
	if sb.Len() > 0 {
		joined = sb.String()
	}
	text, ok := p.unescape(joined, first.off)
	if !ok {
		return nil
	}
	p.errAt = first.off
	q := p.fieldQuery(field, text)
	p.addMultiTermClauses(clauses, q)
	return q
}

// clause is QueryParser.jj's Clause: an optional "field:" (or "*:") and a term or a
// parenthesised query with an optional boost.
func (p *parser) clause(field string) query.Query {
	if k := p.peek().kind; (k == tTERM || k == tSTAR) && p.peekN(1).kind == tCOLON {
		t := p.next()
		p.next()
		if k == tSTAR {
			field = "*"
		} else {
			f, ok := p.unescape(t.text, t.off)
			if !ok {
				return nil
			}
			field = f
		}
		if k := p.peek().kind; k != tLPAREN && !startsTerm(k) {
			p.unexpected(termExpected + ` after "` + t.text + `:"`)
			return nil
		}
	}
	if p.peek().kind != tLPAREN {
		return p.term(field)
	}
	open := p.next()
	if k := p.peek().kind; k == tRPAREN {
		p.fail(p.peek().off, `empty parentheses: expected a query between "(" and ")"`)
		return nil
	}
	q := p.query(field)
	if p.err != nil {
		return nil
	}
	if p.peek().kind != tRPAREN {
		t := p.peek()
		if t.kind == tERROR {
			p.fail(t.off, t.text)
		} else {
			p.fail(t.off, `unbalanced parenthesis: expected ")" to close the "(" at column `+
				strconv.Itoa(newError(p.input, open.off, "").Column)+", found "+t.describe())
		}
		return nil
	}
	p.next()
	return p.optionalBoost(q)
}

func startsTerm(k kind) bool {
	switch k {
	case tTERM, tSTAR, tPREFIX, tWILD, tREGEXP, tNUMBER, tBAREOPER, tRANGEIN, tRANGEEX, tQUOTED:
		return true
	}
	return false
}

// optionalBoost reads an optional "^number" and boosts q by it.
func (p *parser) optionalBoost(q query.Query) query.Query {
	b, boosted, ok := p.boostSuffix()
	switch {
	case !ok:
		return nil
	case !boosted:
		return q
	}
	return boost(q, b)
}

// boostSuffix reads a "^number" suffix if one comes next: its number and whether there
// was one; ok is false (and the parser's error set) for a "^" without a valid number.
func (p *parser) boostSuffix() (b float64, boosted, ok bool) {
	if p.peek().kind != tCARAT {
		return 0, false, true
	}
	p.next()
	b, ok = p.boostNumber()
	return b, ok, ok
}

func (p *parser) boostNumber() (float64, bool) {
	t := p.peek()
	if t.kind != tNUMBER {
		if t.kind == tERROR {
			p.fail(t.off, t.text)
		} else {
			p.fail(t.off, `expected a number after "^", found `+t.describe())
		}
		return 0, false
	}
	p.next()
	f, err := strconv.ParseFloat(t.text, 32)
	if err != nil {
		f = 1 // as QueryParserBase.handleBoost: an unparsable boost is no boost
	}
	return f, true
}

// boost is QueryParserBase.handleBoost: nil (a removed clause) stays nil.
func boost(q query.Query, b float64) query.Query {
	if q == nil {
		return nil
	}
	return query.Boost{Query: q, Boost: b}
}
