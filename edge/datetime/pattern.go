package datetime

import (
	"strconv"
	"strings"
)

// AppendPattern appends ms (UTC) formatted by a date pattern in the letters of
// java.time's DateTimeFormatter that dates need: y or u (year; yy is the last two
// digits), M, d, H, m, s (zero-padded to the letter count), S (fraction of a second,
// one digit a letter, zeros past milliseconds), X or Z (the zone, always "Z"), text
// in single quotes (two quotes in a row stand for one) and any other non-letter as
// it is. ok is false for any other letter or an unclosed quote.
func AppendPattern(dst []byte, ms int64, pattern string) ([]byte, bool) {
	y, mo, d, h, mi, s, milli := Civil(ms)
	for i := 0; i < len(pattern); {
		c := pattern[i]
		j := i
		for j < len(pattern) && pattern[j] == c {
			j++
		}
		n := j - i
		switch c {
		case 'y', 'u':
			if n == 2 {
				dst = pad(dst, int64((y%100+100)%100), 2)
			} else {
				dst = pad(dst, y, n)
			}
		case 'M':
			dst = pad(dst, int64(mo), n)
		case 'd':
			dst = pad(dst, int64(d), n)
		case 'H':
			dst = pad(dst, int64(h), n)
		case 'm':
			dst = pad(dst, int64(mi), n)
		case 's':
			dst = pad(dst, int64(s), n)
		case 'S':
			frac := pad(nil, int64(milli), 3)
			for k := 0; k < n; k++ {
				if k < 3 {
					dst = append(dst, frac[k])
				} else {
					dst = append(dst, '0')
				}
			}
		case '\'':
			end := strings.IndexByte(pattern[i+1:], '\'')
			if end < 0 {
				return dst, false
			}
			if end == 0 {
				dst = append(dst, '\'')
			} else {
				dst = append(dst, pattern[i+1:i+1+end]...)
			}
			j = i + end + 2
		case 'X', 'Z':
			dst = append(dst, 'Z')
		default:
			if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' {
				return dst, false
			}
			dst = append(dst, pattern[i:j]...)
		}
		i = j
	}
	return dst, true
}

// pad appends v in decimal, zero-padded to width digits after any minus sign.
func pad(dst []byte, v int64, width int) []byte {
	if v < 0 {
		dst = append(dst, '-')
		v = -v
	}
	s := strconv.FormatInt(v, 10)
	for k := len(s); k < width; k++ {
		dst = append(dst, '0')
	}
	return append(dst, s...)
}
