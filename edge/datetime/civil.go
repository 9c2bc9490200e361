package datetime

// Calendar arithmetic: epoch milliseconds to and from UTC calendar fields, in the
// proleptic Gregorian calendar. The one place for it: Parse, AppendMillis,
// AppendPattern and the search DSL's date formats and calendar intervals all use it.

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
// 1..12 (it carries into the year).
func CivilMillis(y int64, m, d int) int64 {
	y += int64((m - 1) / 12)
	m = (m-1)%12 + 1
	if m <= 0 {
		m += 12
		y--
	}
	return DaysFromCivil(y, m, d) * msPerDay
}

// Seconds returns the whole seconds since the epoch at ms, rounded down (towards
// the past, before 1970 too), as an epoch_second date is written.
func Seconds(ms int64) int64 {
	q := ms / msPerSecond
	if ms%msPerSecond < 0 {
		q--
	}
	return q
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
