// Package wrkrun holds what the host's load tools share about wrk: the Lua done()
// function that prints a run's summary as one JSON line, and its parser.
package wrkrun

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// DoneScript is a wrk Lua done() function printing the run's summary and latency
// percentiles as one line starting "WRKJSON ", which Parse reads. Append it to a script.
const DoneScript = `
function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format('WRKJSON {"requests":%d,"duration_us":%d,"bytes":%d,"errors":%d,"non2xx":%d,"p50":%d,"p99":%d,"p999":%d,"max":%d}\n',
    summary.requests, summary.duration, summary.bytes, e.connect + e.read + e.write + e.timeout, e.status,
    latency:percentile(50), latency:percentile(99), latency:percentile(99.9), latency.max))
end
`

// Summary is one wrk run's outcome; latencies are in milliseconds.
type Summary struct {
	Requests, Bytes, Errors, Non2xx int64
	Seconds, RPS                    float64
	P50ms, P99ms, P999ms, MaxMs     float64
}

// Parse finds DoneScript's line in wrk's output.
func Parse(out []byte) (Summary, error) {
	var s Summary
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		line, ok := strings.CutPrefix(sc.Text(), "WRKJSON ")
		if !ok {
			continue
		}
		var w struct {
			Requests   int64   `json:"requests"`
			DurationUS int64   `json:"duration_us"`
			Bytes      int64   `json:"bytes"`
			Errors     int64   `json:"errors"`
			Non2xx     int64   `json:"non2xx"`
			P50        float64 `json:"p50"`
			P99        float64 `json:"p99"`
			P999       float64 `json:"p999"`
			Max        float64 `json:"max"`
		}
		if err := json.Unmarshal([]byte(line), &w); err != nil {
			return s, fmt.Errorf("parse wrk summary: %w", err)
		}
		s.Requests, s.Bytes, s.Errors, s.Non2xx = w.Requests, w.Bytes, w.Errors, w.Non2xx
		s.Seconds = float64(w.DurationUS) / 1e6
		if s.Seconds > 0 {
			s.RPS = float64(w.Requests) / s.Seconds
		}
		s.P50ms, s.P99ms, s.P999ms, s.MaxMs = w.P50/1000, w.P99/1000, w.P999/1000, w.Max/1000
		return s, nil
	}
	return s, errors.New("no summary line in wrk's output")
}
