package datetime

import (
	"errors"
	"strings"
	"testing"
	"time"
)

// ms is the reference implementation the tests compare with: package time.
func ms(s string) int64 {
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		panic(err)
	}
	return t.UnixMilli()
}

func TestParse(t *testing.T) {
	cases := []struct {
		name string
		in   string
		want int64
		unit Unit
	}{
		{"D5/date is that UTC day", "2021-04-23", ms("2021-04-23T00:00:00Z"), Day},
		{"D5/date-time without zone is UTC", "2021-04-23T10:20:30", ms("2021-04-23T10:20:30Z"), Second},
		{"D5/Z", "2021-04-23T10:20:30Z", ms("2021-04-23T10:20:30Z"), Second},
		{"D5/positive offset", "2021-04-23T10:20:30+02:00", ms("2021-04-23T08:20:30Z"), Second},
		{"D5/negative offset", "2021-04-23T10:20:30-05:30", ms("2021-04-23T15:50:30Z"), Second},
		{"D5/offset crosses the day", "2021-01-01T00:30:00+01:00", ms("2020-12-31T23:30:00Z"), Second},
		{"D5/milliseconds", "2021-04-23T10:20:30.123Z", ms("2021-04-23T10:20:30.123Z"), Millisecond},
		{"D12/one fraction digit", "2021-04-23T10:20:30.5", ms("2021-04-23T10:20:30.5Z"), Millisecond},
		{"D12/two fraction digits", "2021-04-23T10:20:30.05", ms("2021-04-23T10:20:30.05Z"), Millisecond},
		{"D12/nine digits truncated not rounded", "2021-04-23T10:20:30.123999999Z", ms("2021-04-23T10:20:30.123Z"), Millisecond},
		{"D12/fraction with offset", "2021-04-23T10:20:30.999+00:00", ms("2021-04-23T10:20:30.999Z"), Millisecond},
		{"D5/leap day", "2024-02-29", ms("2024-02-29T00:00:00Z"), Day},
		{"D5/leap day 2000", "2000-02-29T23:59:59", ms("2000-02-29T23:59:59Z"), Second},
		{"D5/epoch", "1970-01-01T00:00:00Z", 0, Second},
		{"D5/before epoch", "1969-12-31T23:59:59.999Z", -1, Millisecond},
		{"D5/year 0000", "0000-01-01", ms("0000-01-01T00:00:00Z"), Day},
		{"D5/year 9999", "9999-12-31T23:59:59.999Z", ms("9999-12-31T23:59:59.999Z"), Millisecond},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := Parse(c.in)
			if err != nil {
				t.Fatalf("Parse(%q): %v", c.in, err)
			}
			if got.Millis != c.want || got.Unit != c.unit {
				t.Fatalf("Parse(%q) = %d %v, want %d %v", c.in, got.Millis, got.Unit, c.want, c.unit)
			}
		})
	}
}

func TestParseErrors(t *testing.T) {
	cases := []struct {
		name, in, msg string
	}{
		{"D5/empty", "", `date "": expected YYYY-MM-DD`},
		{"D5/words", "yesterday", `date "yesterday": expected YYYY-MM-DD`},
		{"D5/short year", "21-04-23", `date "21-04-23": expected YYYY-MM-DD`},
		{"D5/slashes", "2021/04/23", `date "2021/04/23": expected YYYY-MM-DD`},
		{"D5/month 13", "2021-13-01", `date "2021-13-01": month out of range`},
		{"D5/month 00", "2021-00-10", `date "2021-00-10": month out of range`},
		{"D5/day 00", "2021-04-00", `date "2021-04-00": day out of range`},
		{"D5/april 31", "2021-04-31", `date "2021-04-31": day out of range`},
		{"D5/feb 29 non-leap", "2021-02-29", `date "2021-02-29": day out of range`},
		{"D5/feb 29 1900", "1900-02-29", `date "1900-02-29": day out of range`},
		{"D5/hour 24", "2021-04-23T24:00:00", `date "2021-04-23T24:00:00": hour out of range`},
		{"D5/minute 60", "2021-04-23T10:60:00", `date "2021-04-23T10:60:00": minute out of range`},
		{"D5/leap second", "2021-04-23T10:20:60Z", `date "2021-04-23T10:20:60Z": second out of range`},
		{"D5/no seconds", "2021-04-23T10:20", `date "2021-04-23T10:20": expected time hh:mm:ss after T`},
		{"D5/space separator", "2021-04-23 10:20:30", `date "2021-04-23 10:20:30": expected T after the date`},
		{"D12/zone without time Z", "2021-04-23Z", `date "2021-04-23Z": zone without a time`},
		{"D12/zone without time offset", "2021-04-23+02:00", `date "2021-04-23+02:00": zone without a time`},
		{"D12/empty fraction", "2021-04-23T10:20:30.Z", `date "2021-04-23T10:20:30.Z": fraction needs 1 to 9 digits`},
		{"D12/ten fraction digits", "2021-04-23T10:20:30.1234567890", `date "2021-04-23T10:20:30.1234567890": fraction needs 1 to 9 digits`},
		{"D5/offset without colon", "2021-04-23T10:20:30+0200", `date "2021-04-23T10:20:30+0200": zone offset must be Z or ±hh:mm`},
		{"D5/offset hour 24", "2021-04-23T10:20:30+24:00", `date "2021-04-23T10:20:30+24:00": zone offset out of range`},
		{"D5/lower-case z", "2021-04-23T10:20:30z", `date "2021-04-23T10:20:30z": unexpected text after the time`},
		{"D5/trailing text", "2021-04-23T10:20:30Zabc", `date "2021-04-23T10:20:30Zabc": unexpected text after the zone`},
		{"D5/trailing space", "2021-04-23 ", `date "2021-04-23 ": expected T after the date`},
		{"D5/long input shortened", strings.Repeat("9", 100), `date "9999999999999999999999999999999999999999...": expected YYYY-MM-DD`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Parse(c.in)
			if err == nil {
				t.Fatalf("Parse(%q) succeeded", c.in)
			}
			if err.Error() != c.msg {
				t.Fatalf("Parse(%q) error\n got %s\nwant %s", c.in, err, c.msg)
			}
			var pe *ParseError
			if !errors.As(err, &pe) || pe.Input != c.in {
				t.Fatalf("error is not a *ParseError for the input")
			}
		})
	}
}

// D5: equality covers the precision given; D12: bounds are the unit start.
func TestEnd(t *testing.T) {
	cases := []struct {
		name, in   string
		start, end int64
	}{
		{"D5/day covers the day", "2021-04-23", ms("2021-04-23T00:00:00Z"), ms("2021-04-24T00:00:00Z")},
		{"D5/second covers the second", "2021-04-23T10:20:30Z", ms("2021-04-23T10:20:30Z"), ms("2021-04-23T10:20:31Z")},
		{"D5/millisecond covers one ms", "2021-04-23T10:20:30.123Z", ms("2021-04-23T10:20:30.123Z"), ms("2021-04-23T10:20:30.124Z")},
		{"D12/fraction 1 digit is ms precision", "2021-04-23T10:20:30.1Z", ms("2021-04-23T10:20:30.1Z"), ms("2021-04-23T10:20:30.101Z")},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			i, err := Parse(c.in)
			if err != nil {
				t.Fatal(err)
			}
			if i.Millis != c.start || i.End() != c.end {
				t.Fatalf("[%d, %d), want [%d, %d)", i.Millis, i.End(), c.start, c.end)
			}
		})
	}
	// D12: "_lte: 2021-04-23" is <= 2021-04-23T00:00:00.000Z, the unit start.
	i, _ := Parse("2021-04-23")
	if i.Millis != ms("2021-04-23T00:00:00Z") {
		t.Fatal("bound is not the start of the day")
	}
	if (Instant{Millis: 5}).End() != 6 {
		t.Fatal("zero Unit is not millisecond")
	}
	for u, s := range map[Unit]string{Day: "day", Second: "second", Millisecond: "millisecond"} {
		if u.String() != s {
			t.Errorf("Unit(%d).String() = %q", u, u.String())
		}
	}
}

func TestAppendMillis(t *testing.T) {
	cases := []struct {
		ms   int64
		want string
	}{
		{0, "1970-01-01T00:00:00.000Z"},
		{-1, "1969-12-31T23:59:59.999Z"},
		{ms("2021-04-23T10:20:30.045Z"), "2021-04-23T10:20:30.045Z"},
		{ms("2000-02-29T23:59:59.999Z"), "2000-02-29T23:59:59.999Z"},
		{ms("0000-01-01T00:00:00Z"), "0000-01-01T00:00:00.000Z"},
		{ms("9999-12-31T23:59:59.999Z"), "9999-12-31T23:59:59.999Z"},
		{ms("9999-12-31T23:59:59.999Z") + 1, "+10000-01-01T00:00:00.000Z"},
		{ms("0000-01-01T00:00:00Z") - 1, "-0001-12-31T23:59:59.999Z"},
	}
	for _, c := range cases {
		if got := string(AppendMillis([]byte("x"), c.ms)); got != "x"+c.want {
			t.Errorf("AppendMillis(%d) = %q, want %q", c.ms, got, "x"+c.want)
		}
	}
	// Extremes must not panic or overflow.
	for _, v := range []int64{1<<63 - 1, -1 << 63} {
		if b := AppendMillis(nil, v); len(b) < 24 {
			t.Errorf("AppendMillis(%d) = %q", v, b)
		}
	}
}

// Every day of four centuries against package time, both directions.
func TestCalendarAgainstTime(t *testing.T) {
	start := time.Date(1900, 1, 1, 0, 0, 0, 0, time.UTC)
	for d := 0; d < 146097; d += 7 {
		tm := start.AddDate(0, 0, d)
		s := tm.Format("2006-01-02")
		i, err := Parse(s)
		if err != nil || i.Millis != tm.UnixMilli() {
			t.Fatalf("Parse(%q) = %d, %v; want %d", s, i.Millis, err, tm.UnixMilli())
		}
		want := tm.Add(13*time.Hour + 7*time.Millisecond)
		if got := string(AppendMillis(nil, want.UnixMilli())); got != want.Format("2006-01-02T15:04:05.000Z") {
			t.Fatalf("AppendMillis = %q, want %q", got, want.Format("2006-01-02T15:04:05.000Z"))
		}
	}
}

// FuzzParse: no panics; accepted texts agree with package time and survive a
// round trip through AppendMillis; End is after the start.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"2021-04-23", "2021-04-23T10:20:30.123456789-05:30", "2021-04-23Z", "9999-12-31T23:59:59.999+23:59", "0000-01-01T00:00:00-23:59", "2021-02-29", "\xff"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		i, err := Parse(s)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "date ") {
				t.Fatalf("odd error %q", err)
			}
			return
		}
		if i.End() <= i.Millis {
			t.Fatalf("End %d <= %d", i.End(), i.Millis)
		}
		text := string(AppendMillis(nil, i.Millis))
		if !strings.HasPrefix(text, "+") && !strings.HasPrefix(text, "-") {
			back, err := Parse(text)
			if err != nil || back.Millis != i.Millis || back.Unit != Millisecond {
				t.Fatalf("round trip %q -> %q -> %v, %v", s, text, back, err)
			}
		}
		ref := s
		switch i.Unit {
		case Day:
			ref += "T00:00:00Z"
		default:
			if last := s[len(s)-1]; last != 'Z' && !strings.ContainsAny(s[19:], "+-") {
				ref += "Z"
			}
		}
		if tm, err := time.Parse(time.RFC3339Nano, ref); err == nil && tm.UnixMilli() != i.Millis {
			t.Fatalf("Parse(%q) = %d, package time says %d", s, i.Millis, tm.UnixMilli())
		}
	})
}
