package main

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"time"
)

// kind is one sort of request of the mix, with the statuses it may get.
type kind struct {
	name    string
	weight  int
	hostile bool // deliberately bad or expensive: a 4xx is expected
	// expensive requests run to the work budget; one client sends them at a steady
	// rate (expensiveEvery) rather than in the mix, as an abusive client would, so
	// that they load the engine without being most of its work.
	expensive bool
	build     func(r *rand.Rand, c *client) *http.Request
	ok        func(status int) bool
}

func is(statuses ...int) func(int) bool {
	return func(s int) bool {
		for _, w := range statuses {
			if s == w {
				return true
			}
		}
		return false
	}
}

func get(base, path string) *http.Request {
	r, _ := http.NewRequest("GET", base+path, nil)
	return r
}

func post(base, path, ctype, body string) *http.Request {
	r, _ := http.NewRequest("POST", base+path, strings.NewReader(body))
	r.Header.Set("Content-Type", ctype)
	return r
}

func nested(depth int) string {
	q := `{"match_all":{}}`
	for range depth {
		q = `{"bool":{"must":[` + q + `]}}`
	}
	return `{"query":` + q + `}`
}

func aliases(n int) string {
	var b strings.Builder
	b.WriteString("query { content(pageSize: 1000) { ")
	for i := range n {
		fmt.Fprintf(&b, "a%d: Data ", i)
	}
	b.WriteString("} }")
	return b.String()
}

func mix(base string, items int) []kind {
	rest, gql, es := "/cda/rest/v1/"+env, "/cda/graphql/v1/"+env, "/cda/es/v1/"+env
	fuzzy := strings.Repeat("alpha~2 bravo~2 coffee~2 harbour~2 ", 50)
	bomb := aliases(1000)
	return []kind{
		{name: "rest.list", weight: 20, ok: is(200), build: func(r *rand.Rand, _ *client) *http.Request {
			return get(base, fmt.Sprintf("%s/contents?pageSize=20&page=%d&sort=Name&sortAsc=%v", rest, 1+r.IntN(items/20), r.IntN(2) == 0))
		}},
		{name: "rest.item", weight: 15, ok: is(200), build: func(r *rand.Rand, _ *client) *http.Request {
			return get(base, fmt.Sprintf("%s/contents/Content_00000000-0000-4000-8000-%012d", rest, 1+r.IntN(items)))
		}},
		{name: "rest.filter", weight: 10, ok: is(200), build: func(r *rand.Rand, _ *client) *http.Request {
			return get(base, fmt.Sprintf("%s/contents?searchByName=item+%s&pageSize=10", rest, words[r.IntN(len(words))]))
		}},
		{name: "graphql", weight: 15, ok: is(200), build: func(r *rand.Rand, _ *client) *http.Request {
			return post(base, gql, "application/graphql", fmt.Sprintf(`query { content(pageSize: 10, page: %d) { Name ContentID Data } }`, 1+r.IntN(items/10)))
		}},
		{name: "search", weight: 15, ok: is(200), build: func(r *rand.Rand, _ *client) *http.Request {
			return post(base, es, "application/json", fmt.Sprintf(
				`{"query":{"query_string":{"query":"Data.body:(%s OR %s) AND TemplateName:article"}},"size":10,"aggs":{"t":{"terms":{"field":"TemplateName.keyword"}}}}`,
				words[r.IntN(len(words))], words[r.IntN(len(words))]))
		}},
		{name: "conditional", weight: 10, ok: is(200, 304), build: func(_ *rand.Rand, c *client) *http.Request {
			req := get(base, rest+"/contents?pageSize=5")
			if c.etag != "" {
				req.Header.Set("If-None-Match", c.etag)
			}
			return req
		}},
		{name: "hostile.depth", weight: 4, hostile: true, ok: is(400), build: func(*rand.Rand, *client) *http.Request {
			return post(base, es, "application/json", nested(70))
		}},
		{name: "hostile.paging", weight: 3, hostile: true, ok: is(400), build: func(*rand.Rand, *client) *http.Request {
			return get(base, rest+"/contents?pageSize=5000")
		}},
		{name: "hostile.json", weight: 3, hostile: true, ok: is(400), build: func(*rand.Rand, *client) *http.Request {
			return post(base, es, "application/json", `{"query":{"match":`)
		}},
		{name: "hostile.fuzzy", expensive: true, hostile: true, ok: is(200, 400), build: func(*rand.Rand, *client) *http.Request {
			return post(base, es, "application/json", `{"query":{"query_string":{"query":"`+fuzzy+`"}},"size":3}`)
		}},
		{name: "hostile.aliases", expensive: true, hostile: true, ok: is(200, 400), build: func(*rand.Rand, *client) *http.Request {
			return post(base, gql, "application/graphql", bomb)
		}},
	}
}

// client is one looping client's state.
type client struct {
	hc   *http.Client
	etag string
}

var versionRE = regexp.MustCompile(`"Name":"v(\d+) item `)

// expensiveEvery is how often the expensive requests are sent, one after another.
const expensiveEvery = 2 * time.Second

// runClients runs workers clients, and one sending the expensive requests, until ctx
// ends.
func runClients(ctx context.Context, base string, workers, items int, rec *recorder) {
	var kinds, expensive []kind
	total := 0
	for _, k := range mix(base, items) {
		if k.expensive {
			expensive = append(expensive, k)
			continue
		}
		kinds = append(kinds, k)
		total += k.weight
	}
	var wg sync.WaitGroup
	wg.Go(func() {
		c := &client{hc: &http.Client{Timeout: time.Minute}}
		t := time.NewTicker(expensiveEvery)
		defer t.Stop()
		for i := 0; ; i++ {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
			}
			k := expensive[i%len(expensive)]
			c.do(ctx, k, k.build(nil, c), rec)
		}
	})
	for w := range workers {
		wg.Go(func() {
			r := rand.New(rand.NewPCG(uint64(w), 42))
			c := &client{hc: &http.Client{Timeout: time.Minute}}
			for ctx.Err() == nil {
				n := r.IntN(total)
				k := kinds[0]
				for _, kk := range kinds {
					if n < kk.weight {
						k = kk
						break
					}
					n -= kk.weight
				}
				c.do(ctx, k, k.build(r, c), rec)
			}
		})
	}
	wg.Wait()
}

// do sends one request and records it.
func (c *client) do(ctx context.Context, k kind, req *http.Request, rec *recorder) {
	req.Header.Set("Accept-Encoding", "identity")
	start := time.Now()
	resp, err := c.hc.Do(req.WithContext(ctx))
	var body []byte
	if err == nil {
		body, err = io.ReadAll(resp.Body)
		resp.Body.Close()
	}
	d := time.Since(start)
	if ctx.Err() != nil {
		return // the run ended under this request
	}
	if err != nil {
		rec.record(k, d, 0, false, fmt.Sprintf("%s: %v", k.name, err))
		return
	}
	if k.name == "conditional" && resp.StatusCode == 200 {
		c.etag = resp.Header.Get("ETag")
	}
	if !k.ok(resp.StatusCode) {
		rec.record(k, d, resp.StatusCode, false, fmt.Sprintf("%s: status %d: %.200s", k.name, resp.StatusCode, body))
		return
	}
	mixed := false
	if resp.StatusCode == 200 {
		vs := versionRE.FindAllSubmatch(body, -1)
		for _, v := range vs {
			if string(v[1]) != string(vs[0][1]) {
				mixed = true
			}
		}
	}
	rec.record(k, d, resp.StatusCode, mixed, "")
}
