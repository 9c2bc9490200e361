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
// name, or a pattern of y, M, d, H, m, s, S letters with 'quoted' literals
// (datetime.AppendPattern). Of a "a||b" list the first is used, as Elasticsearch
// formats with the first. ok is false for a format it does not support.
func FormatMillis(dst []byte, ms int64, format string) ([]byte, bool) {
	format, _, _ = strings.Cut(format, "||")
	switch format {
	case "", "strict_date_optional_time", "date_optional_time", "strict_date_optional_time_nanos",
		"date_time", "strict_date_time":
		return datetime.AppendMillis(dst, ms), true
	case "epoch_millis":
		return strconv.AppendInt(dst, ms, 10), true
	case "epoch_second":
		return strconv.AppendInt(dst, datetime.Seconds(ms), 10), true
	}
	if p, ok := namedFormats[format]; ok {
		format = p
	}
	return datetime.AppendPattern(dst, ms, format)
}
