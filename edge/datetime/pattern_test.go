package datetime

import "testing"

func TestAppendPattern(t *testing.T) {
	const at = 1547457123120 // 2019-01-14T09:12:03.120Z
	cases := []struct {
		ms            int64
		pattern, want string
	}{
		{at, "yyyy-MM-dd", "2019-01-14"},
		{at, "yyyy-MM", "2019-01"},
		{at, "yyyyMMdd", "20190114"},
		{at, "dd/MM/yy HH:mm:ss.SSS", "14/01/19 09:12:03.120"},
		{at, "uuuu-M-d H:m:s", "2019-1-14 9:12:3"},
		{at, "yyyy-MM-dd'T'HH:mm:ssX", "2019-01-14T09:12:03Z"},
		{at, "SSSSSS|S", "120000|1"},
		{at, "'at' HH 'h' ''", "at 09 h '"},
		{at, "", ""},
		{ms("0005-03-01T00:00:00Z"), "yyyy yy y", "0005 05 5"},
		{ms("0000-01-01T00:00:00Z") - 1, "yyyy-MM-dd yy", "-0001-12-31 99"},
	}
	for _, c := range cases {
		got, ok := AppendPattern([]byte("x"), c.ms, c.pattern)
		if !ok || string(got) != "x"+c.want {
			t.Errorf("AppendPattern(%d, %q) = %q, %v; want %q", c.ms, c.pattern, got, ok, "x"+c.want)
		}
	}
	for _, bad := range []string{"EEE", "yyyy-MM-dd'T", "hh", "a"} {
		if got, ok := AppendPattern(nil, at, bad); ok {
			t.Errorf("AppendPattern(%q) = %q, accepted", bad, got)
		}
	}
}
