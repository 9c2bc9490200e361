// Package jsonw appends JSON tokens to byte slices. It is the hand-rolled JSON writer of
// the engine: no reflection, no encoding/json (TinyGo), no allocation beyond growing dst.
package jsonw

import (
	"strconv"
	"unicode/utf8"
)

const hexDigits = "0123456789abcdef"

// needsEscape[c] is true for the ASCII bytes that cannot appear raw inside a JSON string.
var needsEscape = [utf8.RuneSelf]bool{'"': true, '\\': true}

func init() {
	for c := 0; c < 0x20; c++ {
		needsEscape[c] = true
	}
}

// String appends s as a JSON string. Invalid UTF-8 becomes U+FFFD, so the output is
// always valid JSON; U+2028 and U+2029 are escaped so the output is also valid JavaScript.
func String(dst []byte, s string) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if !needsEscape[c] {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			switch c {
			case '"', '\\':
				dst = append(dst, '\\', c)
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hexDigits[r&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

// Int appends n in decimal.
func Int(dst []byte, n int64) []byte { return strconv.AppendInt(dst, n, 10) }

// Float appends f the way Elasticsearch and JavaScript print doubles: the shortest text
// that reads back as f, without an exponent for moderate magnitudes.
func Float(dst []byte, f float64) []byte {
	abs := f
	if abs < 0 {
		abs = -abs
	}
	if abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		return strconv.AppendFloat(dst, f, 'e', -1, 64)
	}
	return strconv.AppendFloat(dst, f, 'f', -1, 64)
}

// Bool appends true or false.
func Bool(dst []byte, b bool) []byte {
	if b {
		return append(dst, "true"...)
	}
	return append(dst, "false"...)
}
