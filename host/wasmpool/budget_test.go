package wasmpool

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/cdaedge/cdaedge/edge"
	"github.com/cdaedge/cdaedge/edge/eval"
	"github.com/cdaedge/cdaedge/edge/router"
	"github.com/cdaedge/cdaedge/snapshot"
)

// TestStepBudgetCalibration measures how long the router's step budget
// (eval.DefaultMaxSteps) lasts, natively and in the wasm module, on queries built to
// exhaust it, and prints steps per second. It runs only when CDA_CALIBRATE_SNAPSHOT
// names a large snapshot (`go tool task load:snapshot` writes
// build/load/snapshots/load.snap, environment "load"):
//
//	CDA_CALIBRATE_SNAPSHOT=$PWD/build/load/snapshots/load.snap go test -run Calibration -v ./host/wasmpool/
func TestStepBudgetCalibration(t *testing.T) {
	path := os.Getenv("CDA_CALIBRATE_SNAPSHOT")
	if path == "" {
		t.Skip("CDA_CALIBRATE_SNAPSHOT not set")
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	snap, err := snapshot.Open(data)
	if err != nil {
		t.Fatal(err)
	}
	env := snap.Environment()
	clauses := func(n int, c string) string { return strings.TrimSuffix(strings.Repeat(c+",", n), ",") }
	queries := map[string]string{
		// Postings: every term of a large text field, unioned, many times over.
		"wildcard postings": `{"query":{"query_string":{"query":"` + strings.TrimSpace(strings.Repeat("Data.body:*e* ", 300)) + `"}}}`,
		// Terms: fuzzy comparison of a long word with every term.
		"fuzzy terms": `{"query":{"bool":{"should":[` + clauses(300, `{"fuzzy":{"Data.body":{"value":"performances","fuzziness":2}}}`) + `]}}}`,
	}
	router := router.New(router.Options{})
	router.Load(snap)
	pool := newPool(t, Options{Instances: 1}, data)
	for name, body := range queries {
		req := &edge.Request{Method: "POST", Path: "/cda/es/v1/" + env, Body: []byte(body)}
		for _, rt := range []struct {
			name  string
			serve func() *edge.Response
		}{
			{"native", func() *edge.Response { return router.Serve(req) }},
			{"wasm", func() *edge.Response {
				r, err := pool.Serve(context.Background(), req)
				if err != nil {
					t.Fatal(err)
				}
				return r
			}},
		} {
			rt.serve() // warm up
			best := time.Duration(1<<63 - 1)
			var resp *edge.Response
			for range 3 {
				start := time.Now()
				resp = rt.serve()
				best = min(best, time.Since(start))
			}
			exhausted := strings.Contains(string(resp.Body), `"too_complex"`) && strings.Contains(string(resp.Body), "steps")
			rate := "n/a (budget not exhausted)"
			if exhausted {
				rate = fmt.Sprintf("%.1f M steps/s", float64(eval.DefaultMaxSteps)/best.Seconds()/1e6)
			}
			t.Logf("%-18s %-6s %4d items: %8.1f ms for the budget of %d steps: %s  [%d %.80s]",
				name, rt.name, snap.Len(), float64(best.Microseconds())/1000, eval.DefaultMaxSteps, rate, resp.Status, resp.Body)
		}
	}
}
