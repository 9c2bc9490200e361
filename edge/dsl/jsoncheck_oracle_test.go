package dsl

import (
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/cdaedge/cdaedge/edge"
)

// checkJSONRecursive is the recursive-descent checker that checkJSON replaced with
// jsonr.Check; it stays as the oracle the differential tests hold checkJSON to.
func checkJSONRecursive(s string, maxDepth int) *edge.Error {
	c := jsonChecker{s: s, maxDepth: maxDepth}
	c.ws()
	if c.i >= len(s) {
		return c.fail("the body is empty")
	}
	if err := c.value(0); err != nil {
		return err
	}
	c.ws()
	if c.i < len(s) {
		return c.fail("unexpected " + c.what() + " after the JSON value")
	}
	return nil
}

type jsonChecker struct {
	s        string
	i        int
	maxDepth int
}

func (c *jsonChecker) fail(msg string) *edge.Error {
	return &edge.Error{Code: edge.CodeInvalidJSON, Offset: c.i,
		Message: "invalid JSON at byte offset " + strconv.Itoa(c.i) + ": " + msg}
}

// what names the byte at the current offset for an error message.
func (c *jsonChecker) what() string {
	if c.i >= len(c.s) {
		return "end of input"
	}
	b := c.s[c.i]
	if b >= 0x20 && b < 0x7f {
		return "character " + strconv.QuoteRune(rune(b))
	}
	return "byte 0x" + strconv.FormatUint(uint64(b), 16)
}

func (c *jsonChecker) ws() {
	for c.i < len(c.s) {
		switch c.s[c.i] {
		case ' ', '\t', '\n', '\r':
			c.i++
		default:
			return
		}
	}
}

func (c *jsonChecker) value(depth int) *edge.Error {
	if c.i >= len(c.s) {
		return c.fail("unexpected end of input, expected a value")
	}
	switch b := c.s[c.i]; {
	case b == '{':
		return c.object(depth + 1)
	case b == '[':
		return c.array(depth + 1)
	case b == '"':
		return c.str()
	case b == '-' || b >= '0' && b <= '9':
		return c.number()
	case b == 't':
		return c.literal("true")
	case b == 'f':
		return c.literal("false")
	case b == 'n':
		return c.literal("null")
	}
	return c.fail("unexpected " + c.what() + ", expected a value")
}

func (c *jsonChecker) nest(depth int) *edge.Error {
	if depth > c.maxDepth {
		return &edge.Error{Code: edge.CodeTooComplex, Offset: c.i,
			Message: "the body nests JSON deeper than " + strconv.Itoa(c.maxDepth) + " levels (limit: nesting depth)"}
	}
	return nil
}

func (c *jsonChecker) object(depth int) *edge.Error {
	if err := c.nest(depth); err != nil {
		return err
	}
	c.i++ // {
	c.ws()
	if c.i < len(c.s) && c.s[c.i] == '}' {
		c.i++
		return nil
	}
	for {
		c.ws()
		if c.i >= len(c.s) || c.s[c.i] != '"' {
			return c.fail("unexpected " + c.what() + ", expected a member name in double quotes")
		}
		if err := c.str(); err != nil {
			return err
		}
		c.ws()
		if c.i >= len(c.s) || c.s[c.i] != ':' {
			return c.fail("unexpected " + c.what() + ", expected ':'")
		}
		c.i++
		c.ws()
		if err := c.value(depth); err != nil {
			return err
		}
		if done, err := c.separator('}'); done || err != nil {
			return err
		}
	}
}

// separator consumes what follows a member or element: a comma (done is false) or the
// closing bracket (done is true).
func (c *jsonChecker) separator(closing byte) (done bool, err *edge.Error) {
	c.ws()
	if c.i < len(c.s) && c.s[c.i] == ',' {
		c.i++
		return false, nil
	}
	if c.i < len(c.s) && c.s[c.i] == closing {
		c.i++
		return true, nil
	}
	return false, c.fail("unexpected " + c.what() + ", expected ',' or '" + string(closing) + "'")
}

func (c *jsonChecker) array(depth int) *edge.Error {
	if err := c.nest(depth); err != nil {
		return err
	}
	c.i++ // [
	c.ws()
	if c.i < len(c.s) && c.s[c.i] == ']' {
		c.i++
		return nil
	}
	for {
		c.ws()
		if err := c.value(depth); err != nil {
			return err
		}
		if done, err := c.separator(']'); done || err != nil {
			return err
		}
	}
}

func (c *jsonChecker) str() *edge.Error {
	c.i++ // opening quote
	for c.i < len(c.s) {
		b := c.s[c.i]
		switch {
		case b == '"':
			c.i++
			return nil
		case b == '\\':
			c.i++
			if c.i >= len(c.s) {
				return c.fail("unexpected end of input in a string")
			}
			switch c.s[c.i] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				c.i++
			case 'u':
				c.i++
				for k := 0; k < 4; k++ {
					if c.i >= len(c.s) || !isHex(c.s[c.i]) {
						return c.fail("bad \\u escape in a string")
					}
					c.i++
				}
			default:
				return c.fail("bad escape in a string")
			}
		case b < 0x20:
			return c.fail("control character in a string")
		case b < utf8.RuneSelf:
			c.i++
		default:
			r, size := utf8.DecodeRuneInString(c.s[c.i:])
			if r == utf8.RuneError && size <= 1 {
				return c.fail("invalid UTF-8 in a string")
			}
			c.i += size
		}
	}
	return c.fail("unexpected end of input in a string")
}

func isHex(b byte) bool {
	return b >= '0' && b <= '9' || b >= 'a' && b <= 'f' || b >= 'A' && b <= 'F'
}

func (c *jsonChecker) number() *edge.Error {
	if c.s[c.i] == '-' {
		c.i++
	}
	switch {
	case c.i < len(c.s) && c.s[c.i] == '0':
		c.i++
	case c.i < len(c.s) && c.s[c.i] >= '1' && c.s[c.i] <= '9':
		c.digits()
	default:
		return c.fail("bad number")
	}
	if c.i < len(c.s) && c.s[c.i] == '.' {
		c.i++
		if c.i >= len(c.s) || c.s[c.i] < '0' || c.s[c.i] > '9' {
			return c.fail("bad number: digits expected after '.'")
		}
		c.digits()
	}
	if c.i < len(c.s) && (c.s[c.i] == 'e' || c.s[c.i] == 'E') {
		c.i++
		if c.i < len(c.s) && (c.s[c.i] == '+' || c.s[c.i] == '-') {
			c.i++
		}
		if c.i >= len(c.s) || c.s[c.i] < '0' || c.s[c.i] > '9' {
			return c.fail("bad number: digits expected in the exponent")
		}
		c.digits()
	}
	return nil
}

func (c *jsonChecker) digits() {
	for c.i < len(c.s) && c.s[c.i] >= '0' && c.s[c.i] <= '9' {
		c.i++
	}
}

func (c *jsonChecker) literal(word string) *edge.Error {
	if len(c.s)-c.i >= len(word) && c.s[c.i:c.i+len(word)] == word {
		c.i += len(word)
		return nil
	}
	return c.fail("unexpected " + c.what() + ", expected a value")
}

// checkJSONCases are bodies that fail each way the checkers can, and some that pass.
var checkJSONCases = []string{
	"", "   ", "\n\t", "{}", "[]", "[ ]", "{ }", `{"a":1}`, `{"a":[1,2,{"b":null}]}`, "1", "-0", "-0.5e+10",
	"01", "-", "-a", "1.", "1.e5", "1e", "1e+", "1E-x", "tru", "truex", "nul", "fals", "x", "\x01", "\x7f", "\xff",
	"{", "[", "{,}", "[,]", "[1,]", `{"a":1,}`, `{"a" 1}`, `{"a":}`, `{1:2}`, `{"a":1 "b":2}`, "[1 2]", "[1}", `{"a":1]`,
	`"`, `"\`, `"\x"`, `"\u12"`, `"\u12G4"`, `"\uZZZZ"`, "\"\x1f\"", "\"\xff\"", "\"\xe2\x82\"", "\"é\"", "\"\xed\xa0\x80\"",
	`"ok" "again"`, "[] x", "{} }", "[[[[]]]]", "[[[[[]]]]]", "[[[[1]]]]", `[{"a":[{"b":[]}]}]`, "[[[[ [] ]]]]",
	`{"a":"` + strings.Repeat("x", 40) + "\xc3" + `"}`, `"` + strings.Repeat("abcdefgh", 5) + `\q"`,
	`"` + strings.Repeat("é", 30) + `"`, "[" + strings.Repeat(" ", 20) + "]", "\"\t\"", `"\/\b\f\n\r\t\"\\"`,
}

// TestCheckJSONMatchesOracle holds checkJSON to the recursive checker it replaced: the
// same code, offset and message for every case, at nesting limits of 1 to 5.
func TestCheckJSONMatchesOracle(t *testing.T) {
	for _, s := range checkJSONCases {
		for depth := 1; depth <= 5; depth++ {
			compareCheckJSON(t, s, depth)
		}
	}
}

// FuzzCheckJSON: checkJSON answers as the recursive checker on any input.
func FuzzCheckJSON(f *testing.F) {
	for _, s := range checkJSONCases {
		f.Add(s, 4)
	}
	f.Fuzz(func(t *testing.T, s string, depth int) {
		compareCheckJSON(t, s, int(uint(depth)%8)+1)
	})
}

func compareCheckJSON(t *testing.T, s string, depth int) {
	t.Helper()
	got, want := checkJSON(s, depth), checkJSONRecursive(s, depth)
	if (got == nil) != (want == nil) || got != nil && (got.Code != want.Code || got.Offset != want.Offset || got.Message != want.Message) {
		t.Fatalf("checkJSON(%q, %d) = %+v, the recursive checker gives %+v", s, depth, got, want)
	}
}
