// Command modcmp compares the CPU time two builds of the query module spend on the same
// requests in wazero, in one run: each build serves from its own snapshot file (so that
// a build of another snapshot format can be compared too), one instance each, in
// alternating batches, timed by the thread's CPU clock (which other processes on a busy
// machine do not inflate as they do the wall clock).
//
//	go run ./host/wasmpool/internal/modcmp --base OLD.wasm@old.snap --new NEW.wasm@new.snap --env ENV [--only GraphQL]
//
// It prints, per request, each build's mean CPU time, the ratio of the sums (new/base)
// and the median of the rounds' ratios, which a round slowed by a collection moves
// less. For comparing two builds on one machine, never for a test threshold.
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"net/url"
	"os"
	"runtime"
	"slices"
	"strings"

	"github.com/cdaedge/cdaedge/edge"
	"github.com/cdaedge/cdaedge/host/wasmpool"
	"github.com/tidwall/gjson"
	"golang.org/x/sys/unix"
)

func main() {
	base := flag.String("base", "", "the baseline, as `MODULE@SNAPSHOT` (files)")
	next := flag.String("new", "", "the build to compare with it, as `MODULE@SNAPSHOT`")
	env := flag.String("env", "", "the snapshots' environment `ID`")
	rounds := flag.Int("rounds", 40, "alternating rounds per request")
	batch := flag.Int("batch", 50, "requests per build per round")
	only := flag.String("only", "", "measure only the requests whose name contains this `TEXT` (for a profile of one)")
	flag.Parse()
	if *base == "" || *next == "" || *env == "" {
		log.Fatal("usage: modcmp --base MODULE@SNAPSHOT --new MODULE@SNAPSHOT --env ID")
	}
	ctx := context.Background()
	var pools []*wasmpool.Pool
	for _, spec := range []string{*base, *next} {
		p, err := open(ctx, spec)
		if err != nil {
			log.Fatalf("%s: %v", spec, err)
		}
		defer p.Close(ctx)
		pools = append(pools, p)
	}
	// The wasm runs on the calling goroutine's thread: its CPU clock times it alone.
	runtime.LockOSThread()
	fmt.Printf("%-24s %10s %10s %7s %8s\n", "request", "base µs", "new µs", "ratio", "median")
	reqs, err := requests(ctx, pools[0], *env)
	if err != nil {
		log.Fatal(err)
	}
	for _, r := range reqs {
		if !strings.Contains(r.name, *only) {
			continue
		}
		line, err := compare(ctx, pools, &r.req, *rounds, *batch)
		if err != nil {
			log.Fatalf("%s: %v", r.name, err)
		}
		fmt.Printf("%-24s %s\n", r.name, line)
	}
}

// open starts a pool of one instance of the module, serving the snapshot, of spec
// MODULE@SNAPSHOT.
func open(ctx context.Context, spec string) (*wasmpool.Pool, error) {
	modPath, snapPath, ok := strings.Cut(spec, "@")
	if !ok {
		return nil, fmt.Errorf("not MODULE@SNAPSHOT")
	}
	mod, err := os.ReadFile(modPath)
	if err != nil {
		return nil, err
	}
	snap, err := os.ReadFile(snapPath)
	if err != nil {
		return nil, err
	}
	return wasmpool.New(ctx, mod, wasmpool.Whole(snap), wasmpool.Options{Instances: 1})
}

// namedRequest is one measured request.
type namedRequest struct {
	name string
	req  edge.Request
}

// requests are the measured requests: the delivery API's three styles, one item by
// its id (the first by name, read from p), sorted and filtered pages, and full-text
// searches of bench:node's kinds.
func requests(ctx context.Context, p *wasmpool.Pool, env string) ([]namedRequest, error) {
	rest := "/cda/rest/v1/" + env + "/contents"
	first, err := p.Serve(ctx, &edge.Request{Method: "GET", Path: rest, RawQuery: "pageSize=1&sort=Name&sortAsc=true"})
	if err != nil {
		return nil, err
	}
	id := gjson.GetBytes(first.Body, "data.0.ContentID").Str
	if first.Status != 200 || id == "" {
		return nil, fmt.Errorf("the first item of %s: status %d: %.200s", env, first.Status, first.Body)
	}
	post := func(name, path, body string) namedRequest {
		return namedRequest{name, edge.Request{Method: "POST", Path: path, Body: []byte(body),
			Headers: []edge.Header{{Name: "Content-Type", Value: "application/json"}}}}
	}
	es, gql := "/cda/es/v1/"+env, "/cda/graphql/v1/"+env
	return []namedRequest{
		{"REST list of 10", edge.Request{Method: "GET", Path: rest, RawQuery: "pageSize=10"}},
		{"REST one item", edge.Request{Method: "GET", Path: rest + "/" + url.PathEscape(id)}},
		{"REST sorted, page 3", edge.Request{Method: "GET", Path: rest, RawQuery: "pageSize=20&sort=Name&page=3"}},
		post("GraphQL list of 10", gql, `{"query":"{ content(pageSize: 10) { Name ContentID UpdatedAt } }"}`),
		post("filter, sort by date", es, `{"query":{"bool":{"filter":[{"term":{"TemplateName.keyword":"Article"}}]}},"sort":[{"CreatedAt":"desc"}],"size":10}`),
		post("match_all, size 10", es, `{"query":{"match_all":{}},"size":10}`),
		post("facets (size 0)", es, `{"size":0,"aggs":{"templates":{"terms":{"field":"TemplateName.keyword"}}}}`),
		post("tags facet (size 0)", es, `{"size":0,"aggs":{"tags":{"terms":{"field":"Data.tags.keyword"}}}}`),
		post("price ranges (size 0)", es, `{"size":0,"aggs":{"p":{"range":{"field":"Data.price","ranges":[{"to":20},{"from":20,"to":100},{"from":100}]}}}}`),
		post("months and avg (size 0)", es, `{"size":0,"aggs":{"months":{"date_histogram":{"field":"CreatedAt","calendar_interval":"month"}},"price":{"avg":{"field":"Data.price"}}}}`),
		post("date range, page 3", es, `{"query":{"range":{"CreatedAt":{"gte":"2021-01-01","lt":"2022-01-01"}}},"from":20,"size":10}`),
		post("query_string, 2 words", es, `{"query":{"query_string":{"query":"coffee espresso"}},"size":10}`),
		post("2 words, _source Name", es, `{"query":{"query_string":{"query":"coffee espresso"}},"size":10,"_source":["Name"]}`),
		post("query_string, 3 words", es, `{"query":{"query_string":{"query":"coffee mountain festival"}},"size":10}`),
		post("match on Data.body", es, `{"query":{"match":{"Data.body":"coffee garden"}},"size":10}`),
		post("2 rare words", es, `{"query":{"query_string":{"query":"smørrebrød beginners"}},"size":10}`),
		post("a word no field has", es, `{"query":{"query_string":{"query":"zzqqxx"}},"size":10}`),
	}, nil
}

// compare serves req from both pools, warmed up, in rounds of batch requests each,
// alternating which goes first, and formats the result.
func compare(ctx context.Context, pools []*wasmpool.Pool, req *edge.Request, rounds, batch int) (string, error) {
	for _, p := range pools {
		for range 30 {
			resp, err := p.Serve(ctx, req)
			if err != nil {
				return "", err
			}
			if resp.Status != 200 {
				return "", fmt.Errorf("status %d: %.200s", resp.Status, resp.Body)
			}
		}
	}
	var total [2]int64
	ratios := make([]float64, 0, rounds)
	for round := range rounds {
		var spent [2]int64
		for _, k := range [][2]int{{0, 1}, {1, 0}}[round%2] {
			start := threadCPU()
			for range batch {
				if _, err := pools[k].Serve(ctx, req); err != nil {
					return "", err
				}
			}
			spent[k] = threadCPU() - start
			total[k] += spent[k]
		}
		ratios = append(ratios, float64(spent[1])/float64(max(spent[0], 1)))
	}
	slices.Sort(ratios)
	n := float64(rounds * batch)
	return fmt.Sprintf("%10.0f %10.0f %6.2fx %7.2fx", float64(total[0])/n/1e3, float64(total[1])/n/1e3,
		float64(total[1])/float64(max(total[0], 1)), ratios[rounds/2]), nil
}

// threadCPU is the calling thread's CPU time in nanoseconds.
func threadCPU() int64 {
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts); err != nil {
		return 0
	}
	return ts.Nano()
}
