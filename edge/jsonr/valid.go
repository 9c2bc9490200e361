package jsonr

import "math/bits"

// Valid reports whether json is one JSON value with optional surrounding whitespace,
// accepting exactly what gjson.Valid accepts: the RFC 8259 grammar (no leading zeros,
// no trailing commas, no control bytes in strings, \u with four hex digits, whitespace
// only space, tab, CR and LF) with any nesting depth and without checking that strings
// are valid UTF-8, so lone surrogate escapes and invalid bytes pass.
//
// Unlike gjson's it is iterative: depth costs a bit per level instead of a stack frame,
// so a body of a million '[' cannot overflow the small stack of a WebAssembly module.
func Valid(json string) bool {
	var open nesting
	i := skipSpace(json, 0)
	for {
		// A value is expected at json[i].
		if i >= len(json) {
			return false
		}
		switch c := json[i]; {
		case c == '{':
			if i = skipSpace(json, i+1); i < len(json) && json[i] == '}' {
				i++
				break
			}
			open.push(true)
			if i = validMemberName(json, i); i < 0 {
				return false
			}
			continue
		case c == '[':
			if i = skipSpace(json, i+1); i < len(json) && json[i] == ']' {
				i++
				break
			}
			open.push(false)
			continue
		case c == '"':
			i = validString(json, i+1)
		case c == '-' || c >= '0' && c <= '9':
			i = validNumber(json, i)
		case c == 't':
			i = validLiteral(json, i, "true")
		case c == 'f':
			i = validLiteral(json, i, "false")
		case c == 'n':
			i = validLiteral(json, i, "null")
		default:
			return false
		}
		if i < 0 {
			return false
		}
		// A value ended at json[i]: close containers until one goes on after a comma.
		for {
			i = skipSpace(json, i)
			if open.depth == 0 {
				return i == len(json)
			}
			if i == len(json) {
				return false
			}
			inObject := open.top()
			if json[i] == ',' {
				if i = skipSpace(json, i+1); inObject {
					if i = validMemberName(json, i); i < 0 {
						return false
					}
				}
				break
			}
			if inObject && json[i] != '}' || !inObject && json[i] != ']' {
				return false
			}
			open.pop()
			i++
		}
	}
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

// validMemberName checks a member name and its colon starting at s[i] and returns the
// index of the member's value after whitespace, or -1.
func validMemberName(s string, i int) int {
	if i >= len(s) || s[i] != '"' {
		return -1
	}
	if i = validString(s, i+1); i < 0 {
		return -1
	}
	if i = skipSpace(s, i); i == len(s) || s[i] != ':' {
		return -1
	}
	return skipSpace(s, i+1)
}

// validString checks the string whose contents start at s[i] and returns the index after
// its closing quote, or -1. Bytes from 0x20 up are accepted as they are, as by gjson.
func validString(s string, i int) int {
	for ; i < len(s); i++ {
		// Eight bytes at a time while none is a quote, a backslash or a control byte,
		// as in scanString.
		for i+8 <= len(s) {
			x := load64(s, i)
			q, b := x^(ones*'"'), x^(ones*'\\')
			found := ((q-ones)&^q | (b-ones)&^b | (x-ones*' ')&^x) & highs
			if found != 0 {
				i += bits.TrailingZeros64(found) / 8
				break
			}
			i += 8
		}
		if i == len(s) {
			return -1
		}
		switch c := s[i]; {
		case c == '"':
			return i + 1
		case c < ' ':
			return -1
		case c == '\\':
			if i++; i == len(s) {
				return -1
			}
			switch s[i] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			case 'u':
				if len(s)-i <= 4 {
					return -1
				}
				for k := i + 1; k <= i+4; k++ {
					if h := s[k]; !(h >= '0' && h <= '9' || h|0x20 >= 'a' && h|0x20 <= 'f') {
						return -1
					}
				}
				i += 4
			default:
				return -1
			}
		}
	}
	return -1
}

// validNumber checks the number starting at s[i] and returns the index after it, or -1.
// What follows is left to the caller, so "01" fails there, on the '1'.
func validNumber(s string, i int) int {
	if s[i] == '-' {
		i++
	}
	switch {
	case i == len(s):
		return -1
	case s[i] == '0':
		i++
	case s[i] >= '1' && s[i] <= '9':
		i = digits(s, i)
	default:
		return -1
	}
	if i < len(s) && s[i] == '.' {
		if i++; i == len(s) || s[i] < '0' || s[i] > '9' {
			return -1
		}
		i = digits(s, i)
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		if i++; i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if i == len(s) || s[i] < '0' || s[i] > '9' {
			return -1
		}
		i = digits(s, i)
	}
	return i
}

func digits(s string, i int) int {
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	return i
}

// validLiteral checks that word starts at s[i] and returns the index after it, or -1.
func validLiteral(s string, i int, word string) int {
	if len(s)-i >= len(word) && s[i:i+len(word)] == word {
		return i + len(word)
	}
	return -1
}
