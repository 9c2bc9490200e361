package lucene

// The lexer follows the token definitions of Lucene's QueryParser.jj: three lexical
// states (DEFAULT; Boost after "^", where only a number may follow, with no
// whitespace skipped; Range after "[" or "{"), JavaCC's longest-match rule, and on
// equal lengths the token declared first.

// kind is the kind of a token, named as in QueryParser.jj.
type kind uint8

const (
	tEOF kind = iota
	tAND
	tOR
	tNOT
	tPLUS
	tMINUS
	tBAREOPER
	tLPAREN
	tRPAREN
	tCOLON
	tSTAR
	tCARAT
	tQUOTED
	tTERM
	tFUZZY
	tPREFIX
	tWILD
	tREGEXP
	tRANGEIN
	tRANGEEX
	tNUMBER
	tTO
	tRANGEINEND
	tRANGEEXEND
	tRANGEQUOTED
	tGOOP
	tERROR // a lexical error; the token's text is the message
)

// token is one token: its kind, its text (image) and its byte offset.
type token struct {
	kind kind
	text string
	off  int
}

// describe names a token for error messages.
func (t token) describe() string {
	switch t.kind {
	case tEOF:
		return "end of query"
	case tAND, tOR, tNOT:
		return `operator "` + t.text + `"`
	case tQUOTED, tRANGEQUOTED:
		return "phrase " + clip(t.text)
	case tTERM, tPREFIX, tWILD, tREGEXP, tGOOP, tNUMBER:
		return "term " + quote(clip(t.text))
	}
	return quote(t.text)
}

func quote(s string) string { return `"` + s + `"` }

// clip shortens long token texts in messages.
func clip(s string) string {
	if len(s) <= 40 {
		return s
	}
	n := 37
	for n > 0 && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n] + "..."
}

type lexState uint8

const (
	stDefault lexState = iota
	stBoost
	stRange
)

// lexer splits input into tokens on demand, ending with tEOF or, at a lexical
// error, tERROR (after which it returns that token forever). Every token is at
// least one byte long, so lexing ends.
type lexer struct {
	input string
	i     int
	st    lexState
	last  token
	done  bool
}

func (l *lexer) next() token {
	if l.done {
		return l.last
	}
	input := l.input
	if l.st != stBoost {
		l.i = skipSpace(input, l.i, l.st)
	}
	if l.i >= len(input) {
		l.done = true
		l.last = token{kind: tEOF, off: len(input)}
		return l.last
	}
	var t token
	switch l.st {
	case stBoost:
		t = lexBoost(input, l.i)
		l.st = stDefault
	case stRange:
		t = lexRange(input, l.i)
		if t.kind == tRANGEINEND || t.kind == tRANGEEXEND {
			l.st = stDefault
		}
	default:
		t = lexDefault(input, l.i)
		switch t.kind {
		case tCARAT:
			l.st = stBoost
		case tRANGEIN, tRANGEEX:
			l.st = stRange
		}
	}
	if t.kind == tERROR {
		l.done = true
		l.last = t
		return t
	}
	l.i = t.off + len(t.text)
	if t.kind == tBAREOPER {
		l.i = t.off + bareLen(input, t.off)
	}
	return t
}

// spaceLen is the length of the query whitespace (" ", "\t", "\n", "\r", U+3000)
// at i, or 0.
func spaceLen(s string, i int) int {
	switch s[i] {
	case ' ', '\t', '\n', '\r':
		return 1
	case 0xE3:
		if i+2 < len(s) && s[i+1] == 0x80 && s[i+2] == 0x80 {
			return 3
		}
	}
	return 0
}

func skipSpace(s string, i int, st lexState) int {
	for i < len(s) {
		n := spaceLen(s, i)
		if n == 0 {
			return i
		}
		// In Range, RANGE_GOOP also matches whitespace other than " "; a longer
		// GOOP wins over SKIP (longest match).
		if st == stRange && s[i] != ' ' && goopLen(s, i) > n {
			return i
		}
		i += n
	}
	return i
}

// isTermStart says whether the byte at i starts a _TERM_START_CHAR that is not an
// escape: anything but whitespace and the syntax characters.
func isTermStart(s string, i int) bool {
	switch s[i] {
	case ' ', '\t', '\n', '\r', '+', '-', '!', '(', ')', ':', '^', '[', ']', '"', '{', '}', '~', '*', '?', '\\', '/':
		return false
	}
	return spaceLen(s, i) == 0
}

// charLen is the length of the character at i (a whole UTF-8 sequence, or one
// byte when invalid), so tokens never split a character.
func charLen(s string, i int) int {
	c := s[i]
	if c < 0x80 {
		return 1
	}
	n := 1
	for i+n < len(s) && n < 4 && s[i+n]&0xC0 == 0x80 {
		n++
	}
	return n
}

// termCharLen is the length of a _TERM_CHAR at i (with plus and minus when
// inner), of an escape "\x", or 0.
func termCharLen(s string, i int, inner, wild bool) int {
	c := s[i]
	switch {
	case c == '\\':
		if i+1 < len(s) {
			return 1 + charLen(s, i+1)
		}
		return 0
	case inner && (c == '-' || c == '+'):
		return 1
	case wild && (c == '*' || c == '?'):
		return 1
	case isTermStart(s, i):
		return charLen(s, i)
	}
	return 0
}

// runLen is the length of the longest <start>(<inner>)* run at i.
func runLen(s string, i int, wild bool) int {
	n := termCharLen(s, i, false, wild)
	if n == 0 {
		return 0
	}
	j := i + n
	for j < len(s) {
		m := termCharLen(s, j, true, wild)
		if m == 0 {
			break
		}
		j += m
	}
	return j - i
}

// bareLen is the length of a BAREOPER at i ("+", "-" or "!" and one whitespace).
func bareLen(s string, i int) int {
	if i+1 < len(s) {
		if n := spaceLen(s, i+1); n > 0 {
			return 1 + n
		}
	}
	return 0
}

// delimitedLen is the length of a token "<d>(~[<d>] | "\<d>")<min or more>"<d>" at i
// under longest match: the last delimiter such that every delimiter before it is
// preceded by a backslash. 0 when there is none.
func delimitedLen(s string, i int, d byte, min int) int {
	best := 0
	for j := i + 1; j < len(s); j++ {
		if s[j] != d {
			continue
		}
		if j-i-1 >= min {
			best = j + 1 - i
		}
		if s[j-1] != '\\' || j-1 == i {
			break
		}
	}
	return best
}

func lexDefault(s string, i int) token {
	c := s[i]
	tok := func(k kind, n int) token { return token{kind: k, text: s[i : i+n], off: i} }
	switch c {
	case '+', '-', '!':
		if n := bareLen(s, i); n > 0 {
			return token{kind: tBAREOPER, text: s[i : i+1], off: i}
		}
		switch c {
		case '+':
			return tok(tPLUS, 1)
		case '-':
			return tok(tMINUS, 1)
		}
		return tok(tNOT, 1)
	case '(':
		return tok(tLPAREN, 1)
	case ')':
		return tok(tRPAREN, 1)
	case ':':
		return tok(tCOLON, 1)
	case '^':
		return tok(tCARAT, 1)
	case '[':
		return tok(tRANGEIN, 1)
	case '{':
		return tok(tRANGEEX, 1)
	case '"':
		n := 1
		for i+n < len(s) && s[i+n] != '"' {
			if s[i+n] == '\\' {
				if i+n+1 >= len(s) {
					break
				}
				n++
			}
			n++
		}
		if i+n >= len(s) || s[i+n] != '"' {
			return token{kind: tERROR, text: `unterminated phrase: missing closing '"'`, off: i}
		}
		return tok(tQUOTED, n+1)
	case '~':
		n := 1
		for i+n < len(s) {
			m := termCharLen(s, i+n, true, false)
			if m == 0 {
				break
			}
			n += m
		}
		return tok(tFUZZY, n)
	case '/':
		if n := delimitedLen(s, i, '/', 0); n > 0 {
			return tok(tREGEXP, n)
		}
		return token{kind: tERROR, text: "unterminated regular expression: missing closing '/'", off: i}
	case ']', '}':
		return token{kind: tERROR, text: `unexpected "` + string(c) + `" outside a range`, off: i}
	case '\\':
		if i+1 >= len(s) {
			return token{kind: tERROR, text: `"\" at the end of the query escapes nothing`, off: i}
		}
	}
	// TERM, PREFIXTERM, WILDTERM, STAR and the keywords: longest match, ties to the
	// token declared first (AND, OR, NOT, STAR, TERM, PREFIXTERM, WILDTERM).
	term := runLen(s, i, false)
	prefix := 0
	if term > 0 && i+term < len(s) && s[i+term] == '*' {
		prefix = term + 1
	} else if c == '*' {
		prefix = 1
	}
	wild := runLen(s, i, true)
	best, k := 0, tERROR
	consider := func(n int, kk kind) {
		if n > best {
			best, k = n, kk
		}
	}
	switch {
	case hasWord(s, i, "AND") || hasWord(s, i, "&&"):
		consider(len(keyword(s, i)), tAND)
	case hasWord(s, i, "OR") || hasWord(s, i, "||"):
		consider(len(keyword(s, i)), tOR)
	case hasWord(s, i, "NOT"):
		consider(3, tNOT)
	}
	if c == '*' {
		consider(1, tSTAR)
	}
	consider(term, tTERM)
	consider(prefix, tPREFIX)
	consider(wild, tWILD)
	if best == 0 {
		return token{kind: tERROR, text: "unexpected character " + quote(s[i:i+charLen(s, i)]), off: i}
	}
	return tok(k, best)
}

func hasWord(s string, i int, w string) bool {
	return len(s)-i >= len(w) && s[i:i+len(w)] == w
}

func keyword(s string, i int) string {
	for _, w := range []string{"AND", "&&", "OR", "||"} {
		if hasWord(s, i, w) {
			return w
		}
	}
	return ""
}

func lexBoost(s string, i int) token {
	n := 0
	for i+n < len(s) && s[i+n] >= '0' && s[i+n] <= '9' {
		n++
	}
	if n == 0 {
		return token{kind: tERROR, text: `expected a number after "^"`, off: i}
	}
	if i+n+1 < len(s) && s[i+n] == '.' && s[i+n+1] >= '0' && s[i+n+1] <= '9' {
		n++
		for i+n < len(s) && s[i+n] >= '0' && s[i+n] <= '9' {
			n++
		}
	}
	return token{kind: tNUMBER, text: s[i : i+n], off: i}
}

// goopLen is the length of a RANGE_GOOP at i: anything but " ", "]" and "}".
func goopLen(s string, i int) int {
	n := 0
	for i+n < len(s) {
		c := s[i+n]
		if c == ' ' || c == ']' || c == '}' {
			break
		}
		n += charLen(s, i+n)
	}
	return n
}

func lexRange(s string, i int) token {
	switch s[i] {
	case ']':
		return token{kind: tRANGEINEND, text: "]", off: i}
	case '}':
		return token{kind: tRANGEEXEND, text: "}", off: i}
	}
	goop := goopLen(s, i)
	if s[i] == '"' {
		if q := delimitedLen(s, i, '"', 1); q > 0 && q >= goop {
			return token{kind: tRANGEQUOTED, text: s[i : i+q], off: i}
		}
	}
	if goop == 2 && s[i:i+2] == "TO" {
		return token{kind: tTO, text: "TO", off: i}
	}
	return token{kind: tGOOP, text: s[i : i+goop], off: i}
}
