package parser

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// ErrorKind separates what the client wrote wrong from what was too big, because the
// two map to different error codes (API.md D12: invalid_query, too_complex).
type ErrorKind uint8

// Error kinds.
const (
	// SyntaxError: the document is not GraphQL (or uses what this service does not
	// accept, such as type system definitions).
	SyntaxError ErrorKind = iota + 1
	// LimitError: the document exceeds one of Limits (API.md D11).
	LimitError
)

// Error is a positioned parse failure. Line and Column are 1-based (see LineColumn).
type Error struct {
	Kind    ErrorKind
	Message string
	Pos     Pos
	Line    int
	Column  int
}

// Error returns the message followed by the position, as clients print it.
func (e *Error) Error() string {
	return e.Message + " (line " + strconv.Itoa(e.Line) + ", column " + strconv.Itoa(e.Column) + ")"
}

// Limits bound a document (API.md D11). Zero fields take the defaults.
type Limits struct {
	// MaxBytes is the largest accepted source, in bytes.
	MaxBytes int
	// MaxDepth is the deepest nesting of selection sets, list and object values and
	// list types, counted together: it bounds the parser's and every consumer's
	// recursion.
	MaxDepth int
	// MaxTokens bounds the number of tokens, and with it the size of the tree.
	MaxTokens int
}

// Default limits (API.md D11: document 64 KiB, depth 16). The token limit is ours:
// generous for any hand-written or generated query (GraphiQL's introspection query has
// about 400 tokens) and small enough that a document's tree stays small.
const (
	DefaultMaxBytes  = 64 << 10
	DefaultMaxDepth  = 16
	DefaultMaxTokens = 10000
)

func (l Limits) withDefaults() Limits {
	if l.MaxBytes <= 0 {
		l.MaxBytes = DefaultMaxBytes
	}
	if l.MaxDepth <= 0 {
		l.MaxDepth = DefaultMaxDepth
	}
	if l.MaxTokens <= 0 {
		l.MaxTokens = DefaultMaxTokens
	}
	return l
}

type tokenKind uint8

const (
	tokEOF tokenKind = iota
	tokPunct
	tokSpread // ...
	tokName
	tokInt
	tokFloat
	tokString
	tokBlockString
)

type token struct {
	kind  tokenKind
	punct byte // for tokPunct
	start int
	end   int
	// val is a string's decoded value, or the source text of any other token.
	val string
}

// lexer turns source text into tokens on demand, one token of lookahead.
type lexer struct {
	src    string
	pos    int
	tokens int
	limits Limits
	err    *Error
}

func (l *lexer) fail(kind ErrorKind, at int, msg string) {
	if l.err != nil {
		return
	}
	line, col := LineColumn(l.src, Pos(at))
	l.err = &Error{Kind: kind, Message: msg, Pos: Pos(at), Line: line, Column: col}
}

// describe names a token for an error message.
func describe(t token) string {
	switch t.kind {
	case tokEOF:
		return "the end of the document"
	case tokString, tokBlockString:
		return "a string"
	case tokInt, tokFloat:
		return "number " + clip(t.val)
	case tokName:
		return "name " + strconv.Quote(clip(t.val))
	}
	return strconv.Quote(t.val)
}

func clip(s string) string {
	if len(s) <= 40 {
		return s
	}
	cut := 40
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

func isNameStart(c byte) bool {
	return c == '_' || 'A' <= c && c <= 'Z' || 'a' <= c && c <= 'z'
}

func isNameContinue(c byte) bool { return isNameStart(c) || '0' <= c && c <= '9' }

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// next reads the next token. After an error it returns EOF tokens.
func (l *lexer) next() token {
	if l.err != nil {
		return token{kind: tokEOF, start: len(l.src), end: len(l.src)}
	}
	l.skipIgnored()
	src := l.src
	start := l.pos
	if start >= len(src) {
		return token{kind: tokEOF, start: start, end: start}
	}
	l.tokens++
	if l.tokens > l.limits.MaxTokens {
		l.fail(LimitError, start, "the document has more than "+strconv.Itoa(l.limits.MaxTokens)+" tokens")
		return token{kind: tokEOF, start: start, end: start}
	}
	c := src[start]
	switch {
	case strings.IndexByte("!$&()[]{}:=@|", c) >= 0:
		l.pos++
		return token{kind: tokPunct, punct: c, start: start, end: l.pos, val: src[start:l.pos]}
	case c == '.':
		if strings.HasPrefix(src[start:], "...") {
			l.pos += 3
			return token{kind: tokSpread, start: start, end: l.pos, val: "..."}
		}
		l.fail(SyntaxError, start, `syntax error: unexpected "."; did you mean "..."?`)
	case isNameStart(c):
		i := start + 1
		for i < len(src) && isNameContinue(src[i]) {
			i++
		}
		l.pos = i
		return token{kind: tokName, start: start, end: i, val: src[start:i]}
	case c == '-' || isDigit(c):
		return l.number()
	case c == '"':
		if strings.HasPrefix(src[start:], `"""`) {
			return l.blockString()
		}
		return l.string()
	default:
		r, _ := utf8.DecodeRuneInString(src[start:])
		l.fail(SyntaxError, start, "syntax error: unexpected character "+strconv.QuoteRune(r))
	}
	return token{kind: tokEOF, start: start, end: start}
}

// skipIgnored skips GraphQL's ignored tokens: whitespace, line terminators, commas
// (insignificant everywhere, which is what makes the dialect's "commas anywhere" work),
// comments and the byte order mark.
func (l *lexer) skipIgnored() {
	src := l.src
	for l.pos < len(src) {
		switch src[l.pos] {
		case ' ', '\t', '\n', '\r', ',':
			l.pos++
		case '#':
			for l.pos < len(src) && src[l.pos] != '\n' && src[l.pos] != '\r' {
				l.pos++
			}
		case 0xEF:
			if strings.HasPrefix(src[l.pos:], "\uFEFF") {
				l.pos += 3
				continue
			}
			return
		default:
			return
		}
	}
}

func (l *lexer) number() token {
	src := l.src
	start := l.pos
	i := start
	if src[i] == '-' {
		i++
	}
	if i >= len(src) || !isDigit(src[i]) {
		l.fail(SyntaxError, i, "syntax error: expected a digit after \"-\"")
		return token{kind: tokEOF}
	}
	if src[i] == '0' && i+1 < len(src) && isDigit(src[i+1]) {
		l.fail(SyntaxError, i+1, "syntax error: a number may not start with 0 followed by a digit")
		return token{kind: tokEOF}
	}
	for i < len(src) && isDigit(src[i]) {
		i++
	}
	kind := tokInt
	if i < len(src) && src[i] == '.' {
		kind = tokFloat
		i++
		if i >= len(src) || !isDigit(src[i]) {
			l.fail(SyntaxError, i, "syntax error: expected a digit after the decimal point")
			return token{kind: tokEOF}
		}
		for i < len(src) && isDigit(src[i]) {
			i++
		}
	}
	if i < len(src) && (src[i] == 'e' || src[i] == 'E') {
		kind = tokFloat
		i++
		if i < len(src) && (src[i] == '+' || src[i] == '-') {
			i++
		}
		if i >= len(src) || !isDigit(src[i]) {
			l.fail(SyntaxError, i, "syntax error: expected a digit in the exponent")
			return token{kind: tokEOF}
		}
		for i < len(src) && isDigit(src[i]) {
			i++
		}
	}
	if i < len(src) && (src[i] == '.' || isNameStart(src[i])) {
		l.fail(SyntaxError, i, "syntax error: unexpected "+strconv.QuoteRune(rune(src[i]))+" after a number")
		return token{kind: tokEOF}
	}
	l.pos = i
	return token{kind: kind, start: start, end: i, val: src[start:i]}
}

// string reads a "..." string. The value is a substring of the source unless it has
// escapes, so most strings cost no allocation.
func (l *lexer) string() token {
	src := l.src
	start := l.pos
	i := start + 1
	var buf []byte // nil until the first escape
	from := i
	for {
		if i >= len(src) {
			l.fail(SyntaxError, start, "syntax error: unterminated string")
			return token{kind: tokEOF}
		}
		c := src[i]
		switch {
		case c == '"':
			var val string
			if buf == nil {
				val = src[from:i]
			} else {
				val = string(append(buf, src[from:i]...))
			}
			l.pos = i + 1
			return token{kind: tokString, start: start, end: l.pos, val: val}
		case c == '\n' || c == '\r':
			l.fail(SyntaxError, start, "syntax error: unterminated string (a line break inside \"...\"; use a block string \"\"\"...\"\"\")")
			return token{kind: tokEOF}
		case c < 0x20 && c != '\t':
			l.fail(SyntaxError, i, "syntax error: invalid character "+strconv.QuoteRune(rune(c))+" in a string")
			return token{kind: tokEOF}
		case c == '\\':
			buf = append(buf, src[from:i]...)
			var ok bool
			buf, i, ok = l.escape(buf, i)
			if !ok {
				return token{kind: tokEOF}
			}
			from = i
		default:
			i++
		}
	}
}

// escape decodes the escape sequence at src[i] (a backslash) onto buf.
func (l *lexer) escape(buf []byte, i int) ([]byte, int, bool) {
	src := l.src
	if i+1 >= len(src) {
		l.fail(SyntaxError, i, "syntax error: unterminated string")
		return buf, i, false
	}
	switch c := src[i+1]; c {
	case '"', '\\', '/':
		return append(buf, c), i + 2, true
	case 'b':
		return append(buf, '\b'), i + 2, true
	case 'f':
		return append(buf, '\f'), i + 2, true
	case 'n':
		return append(buf, '\n'), i + 2, true
	case 'r':
		return append(buf, '\r'), i + 2, true
	case 't':
		return append(buf, '\t'), i + 2, true
	case 'u':
		r, n := l.unicodeEscape(i)
		if n == 0 {
			return buf, i, false
		}
		if r >= 0xD800 && r <= 0xDBFF {
			// A leading surrogate must be followed by an escaped trailing one.
			r2, n2 := rune(-1), 0
			if strings.HasPrefix(src[i+n:], `\u`) {
				r2, n2 = l.unicodeEscape(i + n)
				if n2 == 0 {
					return buf, i, false
				}
			}
			if r2 < 0xDC00 || r2 > 0xDFFF {
				l.fail(SyntaxError, i, "syntax error: invalid Unicode escape: a lone surrogate")
				return buf, i, false
			}
			r = (r-0xD800)<<10 | (r2 - 0xDC00) + 0x10000
			n += n2
		} else if r >= 0xDC00 && r <= 0xDFFF || r > utf8.MaxRune {
			l.fail(SyntaxError, i, "syntax error: invalid Unicode escape")
			return buf, i, false
		}
		return utf8.AppendRune(buf, r), i + n, true
	default:
		r, _ := utf8.DecodeRuneInString(src[i+1:])
		l.fail(SyntaxError, i, "syntax error: invalid escape sequence \\"+string(r))
		return buf, i, false
	}
}

// unicodeEscape reads \uXXXX or \u{X...} at src[i]; it returns the code point and the
// escape's length, or length 0 after reporting an error.
func (l *lexer) unicodeEscape(i int) (rune, int) {
	src := l.src
	j := i + 2
	if j < len(src) && src[j] == '{' {
		var r rune
		k := j + 1
		for k < len(src) && src[k] != '}' {
			h, ok := hexVal(src[k])
			if !ok || k-j > 8 {
				l.fail(SyntaxError, i, "syntax error: invalid Unicode escape")
				return 0, 0
			}
			r = r<<4 | rune(h)
			k++
		}
		if k >= len(src) || k == j+1 || r > utf8.MaxRune {
			l.fail(SyntaxError, i, "syntax error: invalid Unicode escape")
			return 0, 0
		}
		return r, k + 1 - i
	}
	if j+4 > len(src) {
		l.fail(SyntaxError, i, "syntax error: invalid Unicode escape")
		return 0, 0
	}
	var r rune
	for k := j; k < j+4; k++ {
		h, ok := hexVal(src[k])
		if !ok {
			l.fail(SyntaxError, i, "syntax error: invalid Unicode escape")
			return 0, 0
		}
		r = r<<4 | rune(h)
	}
	return r, 6
}

func hexVal(c byte) (byte, bool) {
	switch {
	case '0' <= c && c <= '9':
		return c - '0', true
	case 'a' <= c && c <= 'f':
		return c - 'a' + 10, true
	case 'A' <= c && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}

// blockString reads a """...""" string and returns its BlockStringValue (the GraphQL
// specification's dedent algorithm).
func (l *lexer) blockString() token {
	src := l.src
	start := l.pos
	i := start + 3
	var raw []byte
	from := i
	for {
		if i >= len(src) {
			l.fail(SyntaxError, start, "syntax error: unterminated block string")
			return token{kind: tokEOF}
		}
		c := src[i]
		switch {
		case c == '"' && strings.HasPrefix(src[i:], `"""`):
			raw = append(raw, src[from:i]...)
			l.pos = i + 3
			return token{kind: tokBlockString, start: start, end: l.pos, val: blockStringValue(string(raw))}
		case c == '\\' && strings.HasPrefix(src[i:], `\"""`):
			raw = append(raw, src[from:i]...)
			raw = append(raw, `"""`...)
			i += 4
			from = i
		case c < 0x20 && c != '\t' && c != '\n' && c != '\r':
			l.fail(SyntaxError, i, "syntax error: invalid character "+strconv.QuoteRune(rune(c))+" in a block string")
			return token{kind: tokEOF}
		default:
			i++
		}
	}
}

// blockStringValue dedents a block string's raw text as the GraphQL specification's
// BlockStringValue() does: common indentation of all lines but the first is removed,
// then leading and trailing blank lines, and lines are joined with \n.
func blockStringValue(raw string) string {
	var lines []string
	for len(raw) > 0 || lines == nil {
		i := strings.IndexAny(raw, "\r\n")
		if i < 0 {
			lines = append(lines, raw)
			break
		}
		lines = append(lines, raw[:i])
		if raw[i] == '\r' && i+1 < len(raw) && raw[i+1] == '\n' {
			i++
		}
		raw = raw[i+1:]
		if raw == "" {
			lines = append(lines, "")
		}
	}
	common := -1
	for _, line := range lines[1:] {
		indent := leadingWhitespace(line)
		if indent < len(line) && (common < 0 || indent < common) {
			common = indent
		}
	}
	if common > 0 {
		for i := 1; i < len(lines); i++ {
			if len(lines[i]) >= common {
				lines[i] = lines[i][common:]
			} else {
				lines[i] = ""
			}
		}
	}
	for len(lines) > 0 && leadingWhitespace(lines[0]) == len(lines[0]) {
		lines = lines[1:]
	}
	for len(lines) > 0 && leadingWhitespace(lines[len(lines)-1]) == len(lines[len(lines)-1]) {
		lines = lines[:len(lines)-1]
	}
	return strings.Join(lines, "\n")
}

func leadingWhitespace(s string) int {
	i := 0
	for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
		i++
	}
	return i
}
