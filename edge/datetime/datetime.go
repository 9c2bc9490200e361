// Package datetime parses and formats the date-times of content items and of
// date filters (D5, D12): ISO 8601 calendar dates with an optional time,
// fraction and zone, held as milliseconds since the Unix epoch (UTC) together
// with the precision the text was written to.
//
// It is hand-written rather than built on package time to keep the TinyGo
// WebAssembly module small; calendar arithmetic is the days-from-civil
// algorithm (proleptic Gregorian calendar). Nothing here panics.
package datetime

import "strconv"

// Unit is the precision a date-time was written to. An equality filter
// covers the whole unit (D5); range bounds use the start of it (D12).
type Unit uint8

const (
	// Millisecond is the zero Unit: a time with a fraction, or an instant
	// that did not come from text.
	Millisecond Unit = iota
	// Second is a time written without a fraction: 2021-04-23T10:20:30Z.
	Second
	// Day is a date without a time: 2021-04-23 (always a UTC day).
	Day
)

// String returns "millisecond", "second" or "day".
func (u Unit) String() string {
	switch u {
	case Second:
		return "second"
	case Day:
		return "day"
	}
	return "millisecond"
}

// Instant is a point in time: Millis since 1970-01-01T00:00:00Z, and the
// Unit of the text it was parsed from.
type Instant struct {
	Millis int64
	Unit   Unit
}

const (
	msPerSecond = 1000
	msPerDay    = 86400 * msPerSecond
)

// End returns the exclusive end of the unit that starts at i.Millis, so that
// an equality filter on "2021-04-23" matches every instant t with
// i.Millis <= t < i.End() (D5): the whole day, or the whole second.
func (i Instant) End() int64 {
	switch i.Unit {
	case Day:
		return i.Millis + msPerDay
	case Second:
		return i.Millis + msPerSecond
	}
	return i.Millis + 1
}

// ParseError says why a text is not an accepted date-time. Its message is
// short and lower-case, fit for a 400 invalid_argument response (D8), e.g.
// `date "2021-13-01": month out of range`.
type ParseError struct {
	Input  string // the text given, as it was
	Reason string // what is wrong with it
}

// Error returns `date "<input>": <reason>`, with a long input shortened.
func (e *ParseError) Error() string {
	in := e.Input
	if len(in) > 40 {
		// Cut on a character boundary so the quoted text stays readable.
		cut := 40
		for cut > 0 && in[cut]&0xC0 == 0x80 {
			cut--
		}
		in = in[:cut] + "..."
	}
	return "date " + strconv.Quote(in) + ": " + e.Reason
}

// Parse reads the forms D5 and D12 accept:
//
//	YYYY-MM-DD                   (Unit Day, that UTC day)
//	YYYY-MM-DDThh:mm:ss          (Unit Second)
//	YYYY-MM-DDThh:mm:ss.f        (Unit Millisecond; 1 to 9 digits, truncated to ms)
//
// where a time may end with "Z" or "+hh:mm"/"-hh:mm"; without one it is UTC.
// Years are 0000 to 9999. Month, day of month (leap years included), hour
// (< 24), minute (< 60) and second (< 60) are checked. A zone after a date
// without a time ("2021-04-23Z") is an error, as is anything else.
func Parse(s string) (Instant, error) {
	fail := func(reason string) (Instant, error) {
		return Instant{}, &ParseError{Input: s, Reason: reason}
	}
	if len(s) < 10 || !digits(s, 0, 4) || s[4] != '-' || !digits(s, 5, 2) || s[7] != '-' || !digits(s, 8, 2) {
		return fail("expected YYYY-MM-DD")
	}
	year, month, day := num(s, 0, 4), num(s, 5, 2), num(s, 8, 2)
	if month < 1 || month > 12 {
		return fail("month out of range")
	}
	if day < 1 || day > daysIn(year, month) {
		return fail("day out of range")
	}
	ms := DaysFromCivil(int64(year), month, day) * msPerDay
	if len(s) == 10 {
		return Instant{Millis: ms, Unit: Day}, nil
	}
	switch s[10] {
	case 'T':
	case 'Z', '+', '-':
		return fail("zone without a time")
	default:
		return fail("expected T after the date")
	}
	if len(s) < 19 || !digits(s, 11, 2) || s[13] != ':' || !digits(s, 14, 2) || s[16] != ':' || !digits(s, 17, 2) {
		return fail("expected time hh:mm:ss after T")
	}
	hour, minute, second := num(s, 11, 2), num(s, 14, 2), num(s, 17, 2)
	switch {
	case hour > 23:
		return fail("hour out of range")
	case minute > 59:
		return fail("minute out of range")
	case second > 59:
		return fail("second out of range")
	}
	ms += int64(hour)*3600*msPerSecond + int64(minute)*60*msPerSecond + int64(second)*msPerSecond
	unit := Second
	p := 19
	if p < len(s) && s[p] == '.' {
		q := p + 1
		for q < len(s) && s[q] >= '0' && s[q] <= '9' {
			q++
		}
		n := q - p - 1
		if n < 1 || n > 9 {
			return fail("fraction needs 1 to 9 digits")
		}
		// Truncate to milliseconds (D12): read at most three digits.
		frac := 0
		for k := 0; k < 3; k++ {
			frac *= 10
			if k < n {
				frac += int(s[p+1+k] - '0')
			}
		}
		ms += int64(frac)
		unit = Millisecond
		p = q
	}
	if p == len(s) {
		return Instant{Millis: ms, Unit: unit}, nil
	}
	switch s[p] {
	case 'Z':
		p++
	case '+', '-':
		if len(s)-p < 6 || !digits(s, p+1, 2) || s[p+3] != ':' || !digits(s, p+4, 2) {
			return fail("zone offset must be Z or ±hh:mm")
		}
		oh, om := num(s, p+1, 2), num(s, p+4, 2)
		if oh > 23 || om > 59 {
			return fail("zone offset out of range")
		}
		off := int64(oh)*3600*msPerSecond + int64(om)*60*msPerSecond
		// Local time = UTC + offset, so UTC = local - offset.
		if s[p] == '+' {
			ms -= off
		} else {
			ms += off
		}
		p += 6
	default:
		return fail("unexpected text after the time")
	}
	if p != len(s) {
		return fail("unexpected text after the zone")
	}
	return Instant{Millis: ms, Unit: unit}, nil
}

// AppendMillis appends ms formatted as "2006-01-02T15:04:05.000Z" (UTC,
// always with milliseconds, as Elasticsearch prints dates) and returns the
// extended slice. Years outside 0000..9999 are written as ISO 8601 expanded
// years ("+10000", "-0001"), as java.time does; every int64 is accepted.
func AppendMillis(dst []byte, ms int64) []byte {
	days := ms / msPerDay
	rem := ms % msPerDay
	if rem < 0 {
		rem += msPerDay
		days--
	}
	y, m, d := CivilFromDays(days)
	switch {
	case y < 0:
		dst = append(dst, '-')
		dst = appendPadded(dst, uint64(-y), 4)
	case y > 9999:
		dst = append(dst, '+')
		dst = appendPadded(dst, uint64(y), 4)
	default:
		dst = appendPadded(dst, uint64(y), 4)
	}
	dst = append(dst, '-')
	dst = appendPadded(dst, uint64(m), 2)
	dst = append(dst, '-')
	dst = appendPadded(dst, uint64(d), 2)
	dst = append(dst, 'T')
	dst = appendPadded(dst, uint64(rem/3600000), 2)
	dst = append(dst, ':')
	dst = appendPadded(dst, uint64(rem/60000%60), 2)
	dst = append(dst, ':')
	dst = appendPadded(dst, uint64(rem/1000%60), 2)
	dst = append(dst, '.')
	dst = appendPadded(dst, uint64(rem%1000), 3)
	return append(dst, 'Z')
}

func appendPadded(dst []byte, v uint64, width int) []byte {
	var buf [20]byte
	i := len(buf)
	for v > 0 || len(buf)-i < width {
		i--
		buf[i] = byte('0' + v%10)
		v /= 10
	}
	return append(dst, buf[i:]...)
}

// Civil splits epoch milliseconds into UTC calendar fields (proleptic Gregorian).
func Civil(ms int64) (year int64, month, day, hour, minute, second, milli int) {
	days := ms / msPerDay
	rem := ms % msPerDay
	if rem < 0 {
		rem += msPerDay
		days--
	}
	year, month, day = CivilFromDays(days)
	return year, month, day, int(rem / 3600000), int(rem / 60000 % 60), int(rem / 1000 % 60), int(rem % 1000)
}

// CivilMillis returns the epoch milliseconds of y-m-d 00:00 UTC; month may be outside
// 1..12 (it carries into the year), so that callers can step months by adding to m.
func CivilMillis(y int64, m, d int) int64 {
	y += int64((m - 1) / 12)
	m = (m-1)%12 + 1
	if m <= 0 {
		m += 12
		y--
	}
	return DaysFromCivil(y, m, d) * msPerDay
}

// DaysFromCivil returns the days from 1970-01-01 to y-m-d in the proleptic Gregorian
// calendar (Howard Hinnant's algorithm, exact for every year), for m in 1..12 and any d.
func DaysFromCivil(y int64, m, d int) int64 {
	if m <= 2 {
		y--
	}
	era := y
	if era < 0 {
		era -= 399
	}
	era /= 400
	yoe := y - era*400
	mp := int64(m + 9)
	if m > 2 {
		mp = int64(m - 3)
	}
	doy := (153*mp+2)/5 + int64(d) - 1
	doe := yoe*365 + yoe/4 - yoe/100 + doy
	return era*146097 + doe - 719468
}

// CivilFromDays is the inverse of DaysFromCivil.
func CivilFromDays(z int64) (y int64, m, d int) {
	z += 719468
	era := z
	if era < 0 {
		era -= 146096
	}
	era /= 146097
	doe := z - era*146097
	yoe := (doe - doe/1460 + doe/36524 - doe/146096) / 365
	y = yoe + era*400
	doy := doe - (365*yoe + yoe/4 - yoe/100)
	mp := (5*doy + 2) / 153
	d = int(doy - (153*mp+2)/5 + 1)
	if mp < 10 {
		m = int(mp + 3)
	} else {
		m = int(mp - 9)
	}
	if m <= 2 {
		y++
	}
	return y, m, d
}

func daysIn(year, month int) int {
	switch month {
	case 2:
		if year%4 == 0 && (year%100 != 0 || year%400 == 0) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}

func digits(s string, p, n int) bool {
	if p+n > len(s) {
		return false
	}
	for k := p; k < p+n; k++ {
		if s[k] < '0' || s[k] > '9' {
			return false
		}
	}
	return true
}

func num(s string, p, n int) int {
	v := 0
	for k := p; k < p+n; k++ {
		v = v*10 + int(s[k]-'0')
	}
	return v
}
