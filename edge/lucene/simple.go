package lucene

import (
	"strconv"
	"strings"

	"github.com/cdaedge/cdaedge/edge/query"
)

// simpleEmptyReason is the reason of the MatchNone of an empty simple query, as
// Lucene's SimpleQueryParser.parse gives it.
const simpleEmptyReason = "empty string passed to query parser"

// ParseSimple compiles a query in Elasticsearch's simple_query_string syntax (D10)
// to the query model, as Lucene's SimpleQueryParser with Elasticsearch's
// SimpleQueryStringQueryParser does: `+` and, `|` or, `-` not, `"…"` phrase with `~N`
// slop, `term*` prefix, `term~N` fuzzy, `( )` precedence, `\` escape; whitespace
// separates terms joined by the default operator. An operator that Options.SimpleOff
// turns off is text. Syntax is never an error (a lone `"` or `(` is ignored); the
// only errors are the limits of D11 (a *SyntaxError with TooComplex set).
//
// Precedence is SimpleQueryParser's: operators apply left to right, and when the
// operator changes the query so far becomes one clause of a new Bool, so
// `a b | c` (default OR) is `a b c` and `a +b | c` is `(+a +b) c`.
func ParseSimple(input string, opts Options) (query.Query, error) {
	if strings.TrimFunc(input, func(r rune) bool { return r <= ' ' }) == "*" {
		return query.MatchAll{}, nil
	}
	s := &simple{builder: newBuilder(input, opts), data: input}
	s.matchParens()
	top := s.parseSub(0, len(input), 0)
	if s.err != nil {
		return nil, s.err
	}
	if top == nil {
		return query.MatchNone{Reason: simpleEmptyReason}, nil
	}
	return top, nil
}

type simple struct {
	*builder
	data  string
	close map[int]int // offset of a "(" → offset of its ")"
	buf   []byte
}

// noOp marks a state without an operation (SimpleQueryParser's null Occur).
const noOp query.Occur = 255

type sstate struct {
	index, end int
	cur, prev  query.Occur
	not        int
	top        query.Query
}

// on says whether the operator f has its meaning.
func (s *simple) on(f SimpleFlag) bool { return s.opts.SimpleOff&f == 0 }

// matchParens pairs parentheses in one pass (escapes respected), so that each
// sub-query's closing parenthesis is found without rescanning the rest of the
// input, as SimpleQueryParser.consumeSubQuery would for every "(".
func (s *simple) matchParens() {
	if !s.on(SimplePrecedence) {
		return
	}
	escapes := s.on(SimpleEscape)
	var stack []int
	for i := 0; i < len(s.data); i++ {
		switch s.data[i] {
		case '\\':
			if escapes {
				i++
			}
		case '(':
			stack = append(stack, i)
		case ')':
			if n := len(stack); n > 0 {
				if s.close == nil {
					s.close = make(map[int]int)
				}
				s.close[stack[n-1]] = i
				stack = stack[:n-1]
			}
		}
	}
}

func isSimpleSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// tokenFinished is SimpleQueryParser.tokenFinished.
func (s *simple) tokenFinished(i int) bool {
	switch c := s.data[i]; c {
	case '"':
		return s.on(SimplePhrase)
	case '|':
		return s.on(SimpleOr)
	case '+':
		return s.on(SimpleAnd)
	case '(', ')':
		return s.on(SimplePrecedence)
	default:
		return isSimpleSpace(c) && s.on(SimpleWhitespace)
	}
}

// parseSub is SimpleQueryParser.parseSubQuery over data[start:end].
func (s *simple) parseSub(start, end, depth int) query.Query {
	if depth > MaxDepth {
		s.fail(start, "query nests parentheses deeper than "+strconv.Itoa(MaxDepth)+" levels")
		return nil
	}
	st := &sstate{index: start, end: end, cur: noOp, prev: noOp}
	for st.index < st.end && s.err == nil {
		c := s.data[st.index]
		switch {
		case c == '(' && s.on(SimplePrecedence):
			s.consumeSubQuery(st, depth)
		case c == ')' && s.on(SimplePrecedence):
			st.index++
		case c == '"' && s.on(SimplePhrase):
			s.consumePhrase(st)
		case c == '+' && s.on(SimpleAnd):
			if st.cur == noOp && st.top != nil {
				st.cur = query.Must
			}
			st.index++
		case c == '|' && s.on(SimpleOr):
			if st.cur == noOp && st.top != nil {
				st.cur = query.Should
			}
			st.index++
		case c == '-' && s.on(SimpleNot):
			st.not++
			st.index++
			continue // the not count survives to the next token
		case isSimpleSpace(c) && s.on(SimpleWhitespace):
			st.index++
		default:
			s.consumeToken(st)
		}
		st.not = 0
	}
	return st.top
}

func (s *simple) fail(off int, msg string) {
	if s.err == nil {
		s.err = newError(s.input, off, msg)
		s.err.TooComplex = true
	}
}

func (s *simple) consumeSubQuery(st *sstate, depth int) {
	open := st.index
	start := open + 1
	closeAt, ok := s.close[open]
	if !ok || closeAt >= st.end {
		// Never closed: the "(" is extraneous and ignored.
		st.index = start
		return
	}
	if closeAt == start {
		// "()" resets the operation that would have applied to it.
		st.cur = noOp
		st.index = start + 1
		return
	}
	s.errAt = open
	sub := s.parseSub(start, closeAt, depth+1)
	s.buildTree(st, sub)
	st.index = closeAt + 1
}

func (s *simple) consumePhrase(st *sstate) {
	start := st.index + 1
	st.index = start
	s.buf = s.buf[:0]
	escaped, hasSlop := false, false
	for st.index < st.end {
		c := s.data[st.index]
		if !escaped {
			if c == '\\' && s.on(SimpleEscape) {
				escaped = true
				st.index++
				continue
			}
			if c == '"' {
				if st.end > st.index+1 && s.data[st.index+1] == '~' && s.on(SimpleNear) {
					st.index++
					if st.end > st.index+1 {
						hasSlop = true
					}
				}
				break
			}
		}
		escaped = false
		n := charLen(s.data, st.index)
		if st.index+n > st.end {
			n = st.end - st.index
		}
		s.buf = append(s.buf, s.data[st.index:st.index+n]...)
		st.index += n
	}
	switch {
	case st.index >= st.end:
		// Never closed: the quote is extraneous and ignored.
		st.index = start
	case st.index == start:
		st.cur = noOp
		st.index++
	default:
		text := string(s.buf)
		slop := 0
		if hasSlop {
			slop = s.parseFuzziness(st)
		}
		s.errAt = start - 1
		q := s.perField(s.fieldsFor(s.dflt), 0, func(f string) query.Query {
			return s.phraseQuery(f, text, slop)
		})
		s.buildTree(st, q)
		st.index++
	}
}

func (s *simple) consumeToken(st *sstate) {
	tokStart := st.index
	s.buf = s.buf[:0]
	escaped, prefix, fuzzy := false, false, false
	for st.index < st.end {
		c := s.data[st.index]
		if !escaped {
			if c == '\\' && s.on(SimpleEscape) {
				escaped = true
				prefix = false
				st.index++
				continue
			}
			if s.tokenFinished(st.index) {
				break
			}
			if len(s.buf) > 0 && c == '~' && s.on(SimpleFuzzy) {
				fuzzy = true
				break
			}
			prefix = len(s.buf) > 0 && c == '*' && s.on(SimplePrefix)
		}
		escaped = false
		n := charLen(s.data, st.index)
		if st.index+n > st.end {
			n = st.end - st.index
		}
		s.buf = append(s.buf, s.data[st.index:st.index+n]...)
		st.index += n
	}
	if len(s.buf) == 0 {
		return
	}
	s.errAt = tokStart
	fields := s.fieldsFor(s.dflt)
	var q query.Query
	switch {
	case fuzzy:
		text := string(s.buf)
		edits := s.parseFuzziness(st)
		if edits > 2 {
			edits = 2
		}
		if edits == 0 {
			q = s.textPerField(fields, 1, text)
		} else {
			q = s.perField(fields, 1, func(f string) query.Query { return s.fuzzy(f, text, edits) })
		}
	case prefix:
		text := string(s.buf[:len(s.buf)-1])
		q = s.perField(fields, 1, func(f string) query.Query {
			if s.opts.AnalyzeWildcard {
				return s.analyzedPrefix(f, text)
			}
			if !s.leaf() {
				return nil
			}
			return query.Prefix{Field: f, Prefix: s.normalize(f, text)}
		})
	default:
		text := string(s.buf)
		// Elasticsearch's most_fields: a DisMax with tie breaker 1 over the fields.
		q = s.textPerField(fields, 1, text)
	}
	s.buildTree(st, q)
}

// parseFuzziness is SimpleQueryParser.parseFuzziness: the text after "~" up to the
// end of the token; empty is 2, a bad or negative number 0.
func (s *simple) parseFuzziness(st *sstate) int {
	if st.index >= st.end || s.data[st.index] != '~' {
		return 0
	}
	from := st.index + 1
	for st.index < st.end {
		st.index++
		if st.index < st.end && s.tokenFinished(st.index) {
			break
		}
	}
	text := s.data[from:st.index]
	if text == "" {
		return 2
	}
	n, err := strconv.Atoi(text)
	if err != nil || n < 0 {
		return 0
	}
	return n
}

// buildTree is SimpleQueryParser.buildQueryTree.
func (s *simple) buildTree(st *sstate, branch query.Query) {
	if branch == nil || s.err != nil {
		return
	}
	if st.not%2 == 1 {
		branch = query.Bool{Clauses: []query.Clause{
			{Occur: query.MustNot, Query: branch},
			{Occur: query.Should, Query: query.MatchAll{}},
		}}
	}
	if st.top == nil {
		st.top = branch
	} else {
		if st.cur == noOp {
			st.cur = s.occur()
		}
		if st.prev != st.cur {
			st.top = query.Bool{Clauses: []query.Clause{{Occur: st.cur, Query: st.top}}}
		}
		top, ok := st.top.(query.Bool)
		if !ok {
			top = query.Bool{Clauses: []query.Clause{{Occur: st.cur, Query: st.top}}}
		}
		// The Bool is this state's own: appending to its clauses shares nothing.
		st.top = query.Bool{Clauses: append(top.Clauses, query.Clause{Occur: st.cur, Query: branch})}
		st.prev = st.cur
	}
	st.cur = noOp
}
