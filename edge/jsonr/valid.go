package jsonr

import (
	"math/bits"
	"strconv"
	"unicode/utf8"
)

// Valid reports whether json is one JSON value with optional surrounding whitespace,
// accepting exactly what gjson.Valid accepts: the RFC 8259 grammar (no leading zeros,
// no trailing commas, no control bytes in strings, \u with four hex digits, whitespace
// only space, tab, CR and LF) with any nesting depth and without checking that strings
// are valid UTF-8, so lone surrogate escapes and invalid bytes pass.
//
// Unlike gjson's it is iterative: depth costs a bit per level instead of a stack frame,
// so a body of a million '[' cannot overflow the small stack of a WebAssembly module.
func Valid(json string) bool { return Check(json, CheckOptions{}) == nil }

// CheckOptions are the stricter rules Check may apply beyond Valid's.
type CheckOptions struct {
	// MaxDepth, when positive, is the deepest nesting of objects and arrays accepted.
	MaxDepth int
	// UTF8 rejects strings that are not valid UTF-8 (RFC 8259 requires it).
	UTF8 bool
}

// SyntaxError tells where and why a text is not one JSON value.
type SyntaxError struct {
	// Offset is the byte where the text stops being JSON: the first byte that cannot
	// continue it, or its length when it ends too early.
	Offset int
	// Reason says what was found there and what was expected, such as
	// "unexpected character '}', expected a value".
	Reason string
	// TooDeep reports an object or array (at Offset) nested deeper than MaxDepth; the
	// text before it is well-formed.
	TooDeep bool
}

// Error is "invalid JSON at byte offset N: " and the reason.
func (e *SyntaxError) Error() string {
	return "invalid JSON at byte offset " + strconv.Itoa(e.Offset) + ": " + e.Reason
}

// Check is Valid with positioned errors and o's rules: nil when json is one JSON value,
// else the first place where it is not. It reports errors as a reader going left to
// right meets them, so a text that is too deep and malformed further on is too deep.
func Check(json string, o CheckOptions) *SyntaxError {
	var open nesting
	i := skipSpace(json, 0)
	for {
		// A value is expected at json[i].
		if i >= len(json) {
			return syntaxError(i, "unexpected end of input, expected a value")
		}
		var err *SyntaxError
		switch c := json[i]; {
		case c == '{' || c == '[':
			if o.MaxDepth > 0 && open.depth >= o.MaxDepth {
				return &SyntaxError{Offset: i, Reason: "nested deeper than " + strconv.Itoa(o.MaxDepth) + " levels", TooDeep: true}
			}
			object := c == '{'
			if i = skipSpace(json, i+1); i < len(json) && json[i] == closer(object) {
				i++
				break
			}
			open.push(object)
			if object {
				if i, err = checkMemberName(json, i, o.UTF8); err != nil {
					return err
				}
			}
			continue
		case c == '"':
			i, err = checkString(json, i+1, o.UTF8)
		case c == '-' || c >= '0' && c <= '9':
			i, err = checkNumber(json, i)
		case c == 't':
			i, err = checkLiteral(json, i, "true")
		case c == 'f':
			i, err = checkLiteral(json, i, "false")
		case c == 'n':
			i, err = checkLiteral(json, i, "null")
		default:
			return syntaxError(i, "unexpected "+what(json, i)+", expected a value")
		}
		if err != nil {
			return err
		}
		// A value ended at json[i]: close containers until one goes on after a comma.
		for {
			i = skipSpace(json, i)
			if open.depth == 0 {
				if i < len(json) {
					return syntaxError(i, "unexpected "+what(json, i)+" after the JSON value")
				}
				return nil
			}
			object := open.top()
			if i < len(json) && json[i] == ',' {
				if i = skipSpace(json, i+1); object {
					if i, err = checkMemberName(json, i, o.UTF8); err != nil {
						return err
					}
				}
				break
			}
			if i == len(json) || json[i] != closer(object) {
				return syntaxError(i, "unexpected "+what(json, i)+", expected ',' or '"+string(closer(object))+"'")
			}
			open.pop()
			i++
		}
	}
}

func closer(object bool) byte {
	if object {
		return '}'
	}
	return ']'
}

func syntaxError(i int, reason string) *SyntaxError {
	return &SyntaxError{Offset: i, Reason: reason}
}

// what names the byte at s[i] for an error message.
func what(s string, i int) string {
	if i >= len(s) {
		return "end of input"
	}
	if b := s[i]; b >= 0x20 && b < 0x7f {
		return "character " + strconv.QuoteRune(rune(b))
	}
	return "byte 0x" + strconv.FormatUint(uint64(s[i]), 16)
}

// nesting is a stack of open containers, one bit each (set for an object): the first 64
// levels need no memory beyond the struct, deeper ones a word per 64 levels.
type nesting struct {
	depth int
	low   uint64
	high  []uint64
}

func (n *nesting) push(object bool) {
	word, bit := &n.low, uint(n.depth%64)
	if n.depth >= 64 {
		w := n.depth/64 - 1
		if w == len(n.high) {
			n.high = append(n.high, 0)
		}
		word = &n.high[w]
	}
	if object {
		*word |= 1 << bit
	} else {
		*word &^= 1 << bit
	}
	n.depth++
}

func (n *nesting) top() (object bool) {
	d := n.depth - 1
	word := n.low
	if d >= 64 {
		word = n.high[d/64-1]
	}
	return word>>uint(d%64)&1 != 0
}

func (n *nesting) pop() { n.depth-- }

// skipSpace skips JSON whitespace, which is stricter than skipControl: Valid must reject
// the other control bytes that Parse steps over.
func skipSpace(s string, i int) int {
	for i < len(s) {
		switch s[i] {
		case ' ', '\t', '\n', '\r':
			i++
		default:
			return i
		}
	}
	return i
}

// checkMemberName checks a member name and its colon starting at s[i] and returns the
// index of the member's value after whitespace.
func checkMemberName(s string, i int, utf bool) (int, *SyntaxError) {
	if i >= len(s) || s[i] != '"' {
		return i, syntaxError(i, "unexpected "+what(s, i)+", expected a member name in double quotes")
	}
	i, err := checkString(s, i+1, utf)
	if err != nil {
		return i, err
	}
	if i = skipSpace(s, i); i == len(s) || s[i] != ':' {
		return i, syntaxError(i, "unexpected "+what(s, i)+", expected ':'")
	}
	return skipSpace(s, i+1), nil
}

// checkString checks the string whose contents start at s[i] and returns the index after
// its closing quote. Bytes from 0x20 up are accepted as they are, as by gjson, unless
// utf is set: then they must be UTF-8.
func checkString(s string, i int, utf bool) (int, *SyntaxError) {
	stop := uint64(highs) // with utf, bytes from 0x80 up stop the fast loop too
	if !utf {
		stop = 0
	}
	for i < len(s) {
		// Eight bytes at a time while none is a quote, a backslash or a control byte
		// (or a non-ASCII byte to check), as in scanString.
		for i+8 <= len(s) {
			x := load64(s, i)
			q, b := x^(ones*'"'), x^(ones*'\\')
			found := ((q-ones)&^q|(b-ones)&^b|(x-ones*' ')&^x)&highs | x&stop
			if found != 0 {
				i += bits.TrailingZeros64(found) / 8
				break
			}
			i += 8
		}
		if i == len(s) {
			break
		}
		switch c := s[i]; {
		case c == '"':
			return i + 1, nil
		case c < ' ':
			return i, syntaxError(i, "control character in a string")
		case c == '\\':
			if i++; i == len(s) {
				return i, syntaxError(i, "unexpected end of input in a string")
			}
			switch s[i] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i++
			case 'u':
				i++
				for k := 0; k < 4; k++ {
					if i == len(s) || !isHex(s[i]) {
						return i, syntaxError(i, "bad \\u escape in a string")
					}
					i++
				}
			default:
				return i, syntaxError(i, "bad escape in a string")
			}
		case c < utf8.RuneSelf || !utf:
			i++
		default:
			r, size := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && size <= 1 {
				return i, syntaxError(i, "invalid UTF-8 in a string")
			}
			i += size
		}
	}
	return i, syntaxError(i, "unexpected end of input in a string")
}

func isHex(h byte) bool {
	return h >= '0' && h <= '9' || h|0x20 >= 'a' && h|0x20 <= 'f'
}

// checkNumber checks the number starting at s[i] and returns the index after it. What
// follows is left to the caller, so "01" fails there, on the '1'.
func checkNumber(s string, i int) (int, *SyntaxError) {
	if s[i] == '-' {
		i++
	}
	switch {
	case i < len(s) && s[i] == '0':
		i++
	case i < len(s) && s[i] >= '1' && s[i] <= '9':
		i = digits(s, i)
	default:
		return i, syntaxError(i, "bad number")
	}
	if i < len(s) && s[i] == '.' {
		if i++; i == len(s) || s[i] < '0' || s[i] > '9' {
			return i, syntaxError(i, "bad number: digits expected after '.'")
		}
		i = digits(s, i)
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		if i++; i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if i == len(s) || s[i] < '0' || s[i] > '9' {
			return i, syntaxError(i, "bad number: digits expected in the exponent")
		}
		i = digits(s, i)
	}
	return i, nil
}

func digits(s string, i int) int {
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	return i
}

// checkLiteral checks that word starts at s[i] and returns the index after it.
func checkLiteral(s string, i int, word string) (int, *SyntaxError) {
	if len(s)-i >= len(word) && s[i:i+len(word)] == word {
		return i + len(word), nil
	}
	return i, syntaxError(i, "unexpected "+what(s, i)+", expected a value")
}
