package datetime

import (
	"testing"
	"time"
)

// Civil and CivilMillis against package time, every 7th day of four centuries and
// around the epoch, the Gregorian leap rules and year 0 included.
func TestCivilAgainstTime(t *testing.T) {
	start := time.Date(-1, 1, 1, 0, 0, 0, 0, time.UTC)
	check := func(tm time.Time) {
		t.Helper()
		ms := tm.UnixMilli()
		y, mo, d, h, mi, s, milli := Civil(ms)
		if y != int64(tm.Year()) || mo != int(tm.Month()) || d != tm.Day() || h != tm.Hour() || mi != tm.Minute() || s != tm.Second() || milli != tm.Nanosecond()/1e6 {
			t.Fatalf("Civil(%d) = %d-%d-%d %d:%d:%d.%d, want %s", ms, y, mo, d, h, mi, s, milli, tm.Format(time.RFC3339Nano))
		}
		day := time.Date(tm.Year(), tm.Month(), tm.Day(), 0, 0, 0, 0, time.UTC)
		if got := CivilMillis(y, mo, d); got != day.UnixMilli() {
			t.Fatalf("CivilMillis(%d, %d, %d) = %d, want %d", y, mo, d, got, day.UnixMilli())
		}
	}
	for d := 0; d < 146097+800; d += 7 {
		check(start.AddDate(0, 0, d).Add(23*time.Hour + 59*time.Minute + 58*time.Second + 999*time.Millisecond))
	}
	for ms := int64(-3 * msPerDay); ms < 3*msPerDay; ms += 3600*msPerSecond + 1 {
		check(time.UnixMilli(ms).UTC())
	}
	for _, s := range []string{"1900-02-28T23:59:59.999Z", "2000-02-29T12:00:00Z", "2100-03-01T00:00:00Z", "1969-12-31T23:59:59.999Z", "1970-01-01T00:00:00Z"} {
		check(time.UnixMilli(ms(s)).UTC())
	}
}

// CivilMillis carries months outside 1..12 into the year, as date histograms step
// by months and quarters.
func TestCivilMillisCarriesMonths(t *testing.T) {
	cases := []struct {
		y    int64
		m, d int
		want string
	}{
		{2021, 13, 1, "2022-01-01T00:00:00Z"},
		{2021, 15, 1, "2022-03-01T00:00:00Z"},
		{2021, 24, 1, "2022-12-01T00:00:00Z"},
		{2021, 25, 1, "2023-01-01T00:00:00Z"},
		{2021, 0, 1, "2020-12-01T00:00:00Z"},
		{2021, -11, 1, "2020-01-01T00:00:00Z"},
		{2021, -12, 1, "2019-12-01T00:00:00Z"},
		{0, 0, 1, "-0001-12-01T00:00:00Z"},
	}
	for _, c := range cases {
		want := time.Date(int(c.y), time.Month(c.m), c.d, 0, 0, 0, 0, time.UTC).UnixMilli()
		if got := CivilMillis(c.y, c.m, c.d); got != want {
			t.Errorf("CivilMillis(%d, %d, %d) = %d, want %d (%s)", c.y, c.m, c.d, got, want, c.want)
		}
	}
}

func TestSeconds(t *testing.T) {
	cases := map[int64]int64{0: 0, 999: 0, 1000: 1, 1547457123120: 1547457123, -1: -1, -1000: -1, -1001: -2, -1 << 63: -9223372036854776}
	for ms, want := range cases {
		if got := Seconds(ms); got != want {
			t.Errorf("Seconds(%d) = %d, want %d", ms, got, want)
		}
	}
}
