package dsl

import (
	"strconv"
	"strings"

	"github.com/cdaedge/cdaedge/edge/datetime"
)

// namedFormats maps Elasticsearch's built-in date format names to patterns.
var namedFormats = map[string]string{
	"date": "yyyy-MM-dd", "strict_date": "yyyy-MM-dd",
	"year_month": "yyyy-MM", "strict_year_month": "yyyy-MM",
	"year": "yyyy", "strict_year": "yyyy",
	"basic_date":                     "yyyyMMdd",
	"date_hour":                      "yyyy-MM-dd'T'HH",
	"strict_date_hour":               "yyyy-MM-dd'T'HH",
	"date_hour_minute":               "yyyy-MM-dd'T'HH:mm",
	"strict_date_hour_minute":        "yyyy-MM-dd'T'HH:mm",
	"date_hour_minute_second":        "yyyy-MM-dd'T'HH:mm:ss",
	"strict_date_hour_minute_second": "yyyy-MM-dd'T'HH:mm:ss",
}

// FormatMillis appends ms (UTC) in an Elasticsearch date format: the default
// strict_date_optional_time (also for ""), epoch_millis, epoch_second, a built-in
// name, or a pattern of y, M, d, H, m, s, S letters with 'quoted' literals. Of a
// "a||b" list the first is used, as Elasticsearch formats with the first. ok is false
// for a format it does not support.
func FormatMillis(dst []byte, ms int64, format string) ([]byte, bool) {
	format, _, _ = strings.Cut(format, "||")
	switch format {
	case "", "strict_date_optional_time", "date_optional_time", "strict_date_optional_time_nanos",
		"date_time", "strict_date_time":
		return datetime.AppendMillis(dst, ms), true
	case "epoch_millis":
		return strconv.AppendInt(dst, ms, 10), true
	case "epoch_second":
		return strconv.AppendInt(dst, floorDiv(ms, 1000), 10), true
	}
	if p, ok := namedFormats[format]; ok {
		format = p
	}
	y, mo, d, h, mi, s, milli := datetime.Civil(ms)
	for i := 0; i < len(format); {
		c := format[i]
		j := i
		for j < len(format) && format[j] == c {
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
			end := strings.IndexByte(format[i+1:], '\'')
			if end < 0 {
				return dst, false
			}
			if end == 0 {
				dst = append(dst, '\'')
			} else {
				dst = append(dst, format[i+1:i+1+end]...)
			}
			j = i + end + 2
		case 'X', 'Z':
			dst = append(dst, 'Z')
		default:
			if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' {
				return dst, false
			}
			dst = append(dst, format[i:j]...)
		}
		i = j
	}
	return dst, true
}

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

func floorDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && (a < 0) != (b < 0) {
		q--
	}
	return q
}
