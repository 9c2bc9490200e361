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
	runtimes := []struct {
		name  string
		serve func(*edge.Request) *edge.Response
	}{
		{"native", router.Serve},
		{"wasm", func(req *edge.Request) *edge.Response {
			r, err := pool.Serve(context.Background(), req)
			if err != nil {
				t.Fatal(err)
			}
			return r
		}},
	}
	stepTime := map[string]time.Duration{} // per runtime, the best time of one budget
	for name, body := range queries {
		req := &edge.Request{Method: "POST", Path: "/cda/es/v1/" + env, Body: []byte(body)}
		for _, rt := range runtimes {
			best, resp := bestOfThree(func() *edge.Response { return rt.serve(req) })
			exhausted := strings.Contains(string(resp.Body), `"too_complex"`) && strings.Contains(string(resp.Body), "steps")
			rate := "n/a (budget not exhausted)"
			if exhausted {
				rate = fmt.Sprintf("%.1f M steps/s", float64(eval.DefaultMaxSteps)/best.Seconds()/1e6)
				if st, ok := stepTime[rt.name]; !ok || best < st {
					stepTime[rt.name] = best
				}
			}
			t.Logf("%-18s %-6s %4d items: %8.1f ms for the budget of %d steps: %s  [%d %.80s]",
				name, rt.name, snap.Len(), float64(best.Microseconds())/1000, eval.DefaultMaxSteps, rate, resp.Status, resp.Body)
		}
	}
	calibrateAnswers(t, env, runtimes, stepTime)
}

// calibrateAnswers times requests whose cost is building a large answer (an alias bomb
// stopped by the response size limit, a full REST page) and prints what a KiB of answer
// costs in steps, so that eval.Evaluator.CheckAnswer's charge keeps such requests within
// about one budget's time too.
func calibrateAnswers(t *testing.T, env string, runtimes []struct {
	name  string
	serve func(*edge.Request) *edge.Response
}, stepTime map[string]time.Duration) {
	aliases := make([]string, 1000)
	for i := range aliases {
		aliases[i] = fmt.Sprintf("a%d: Data", i)
	}
	requests := map[string]*edge.Request{
		"alias bomb":     {Method: "POST", Path: "/cda/graphql/v1/" + env, Headers: []edge.Header{{Name: "Content-Type", Value: "application/graphql"}}, Body: []byte("{ content(pageSize: 1000) { " + strings.Join(aliases, " ") + " } }")},
		"REST full page": {Method: "GET", Path: "/cda/rest/v1/" + env + "/contents", RawQuery: "pageSize=1000"},
	}
	for name, req := range requests {
		for _, rt := range runtimes {
			best, resp := bestOfThree(func() *edge.Response { return rt.serve(req) })
			size := len(resp.Body)
			if resp.Status != 200 {
				size = edge.DefaultMaxResponseBytes // stopped at the limit, having built about that much
			}
			perKiB := best.Seconds() / float64(size) * 1024
			equiv := "n/a (no budget measured)"
			if st := stepTime[rt.name]; st > 0 {
				equiv = fmt.Sprintf("%.1f steps/KiB", perKiB/(st.Seconds()/float64(eval.DefaultMaxSteps)))
			}
			t.Logf("%-18s %-6s %8.1f ms for %d answer bytes: %.1f µs/KiB = %s  [%d %.60s]",
				name, rt.name, float64(best.Microseconds())/1000, size, perKiB*1e6, equiv, resp.Status, resp.Body)
		}
	}
}

// bestOfThree warms serve up, then returns the best time of three calls and the last answer.
func bestOfThree(serve func() *edge.Response) (time.Duration, *edge.Response) {
	serve()
	best := time.Duration(1<<63 - 1)
	var resp *edge.Response
	for range 3 {
		start := time.Now()
		resp = serve()
		best = min(best, time.Since(start))
	}
	return best, resp
}
