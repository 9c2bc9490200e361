package edge

import "unicode/utf8"

// Param is one decoded name=value pair of a URL query string.
type Param struct {
	Name  string
	Value string
}

// ParseParams splits a raw URL query string into decoded pairs, in order. '+' is a
// space, %XX an escaped byte. A malformed escape or a name or value that is not UTF-8
// after decoding is an invalid_argument error naming the offending pair.
func ParseParams(raw string) ([]Param, error) {
	var out []Param
	for len(raw) > 0 {
		var pair string
		pair, raw = cutByte(raw, '&')
		if pair == "" {
			continue
		}
		rawName, rawValue := cutByte(pair, '=')
		name, ok1 := Unescape(rawName, true)
		value, ok2 := Unescape(rawValue, true)
		if !ok1 || !ok2 {
			return nil, Errorf(CodeInvalidArgument, "malformed query string near %q: bad percent-escape", Clip(pair))
		}
		if !utf8.ValidString(name) || !utf8.ValidString(value) {
			return nil, Errorf(CodeInvalidArgument, "query parameter %q is not valid UTF-8", Clip(name))
		}
		out = append(out, Param{Name: name, Value: value})
	}
	return out, nil
}

func cutByte(s string, sep byte) (before, after string) {
	for i := 0; i < len(s); i++ {
		if s[i] == sep {
			return s[:i], s[i+1:]
		}
	}
	return s, ""
}

// Unescape decodes %XX, and '+' as a space when plusIsSpace (query strings, not paths);
// it returns s itself when nothing needs decoding.
func Unescape(s string, plusIsSpace bool) (string, bool) {
	plain := true
	for i := 0; i < len(s); i++ {
		if s[i] == '%' || s[i] == '+' {
			plain = false
			break
		}
	}
	if plain {
		return s, true
	}
	out := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '+':
			if plusIsSpace {
				c = ' '
			}
			out = append(out, c)
		case '%':
			if i+2 >= len(s) {
				return "", false
			}
			hi, ok1 := unhex(s[i+1])
			lo, ok2 := unhex(s[i+2])
			if !ok1 || !ok2 {
				return "", false
			}
			out = append(out, hi<<4|lo)
			i += 2
		default:
			out = append(out, c)
		}
	}
	return string(out), true
}

func unhex(c byte) (byte, bool) {
	switch {
	case c >= '0' && c <= '9':
		return c - '0', true
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10, true
	case c >= 'A' && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}

// Clip shortens s to at most 64 bytes (on a character boundary, with an ellipsis) for an
// error message, so that a huge input never makes a huge answer. Every message that quotes
// client input quotes it through Clip.
func Clip(s string) string {
	const max = 64
	if len(s) <= max {
		return s
	}
	cut := max
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}
