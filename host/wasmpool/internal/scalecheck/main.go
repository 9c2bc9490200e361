// Command scalecheck measures what a large snapshot costs the wasm engine in wazero:
// the time from start to the first answer, each instance's wasm memory, the process's
// RSS, and the latency (p50, max) of a few query kinds over repeated requests.
//
//	go run ./host/wasmpool/internal/scalecheck --module build/module.wasm --snap big.snap
//
// Numbers are for comparing two builds in one run on one machine, never for a test
// threshold (timings are noisy).
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"os"
	"runtime"
	"runtime/pprof"
	"slices"
	"strings"
	"time"

	"github.com/cdaedge/cdaedge/edge"
	"github.com/cdaedge/cdaedge/host/snapdir"
	"github.com/cdaedge/cdaedge/host/wasmpool"
)

func main() {
	module := flag.String("module", "build/module.wasm", "the query module")
	snapPath := flag.String("snap", "", "the snapshot file")
	instances := flag.Int("instances", 2, "instances of the pool")
	rounds := flag.Int("rounds", 30, "requests per query kind")
	bodies := flag.String("bodies", "memory", "where item bodies are read from, as the host's --bodies: memory (the file read whole) or file (the file left on disk: its index part read into each instance, bodies by range)")
	cpuProfile := flag.String("cpuprofile", "", "write a CPU profile of the start-up (open to first answer) to this file")
	flag.Parse()
	if *snapPath == "" {
		log.Fatal("--snap is required")
	}
	mod, err := os.ReadFile(*module)
	if err != nil {
		log.Fatal(err)
	}
	ctx := context.Background()
	cache, err := os.MkdirTemp("", "scalecheck")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(cache)
	// Warm the compilation cache so that start-up times measure loading, not compiling.
	if p, err := wasmpool.New(ctx, mod, nil, wasmpool.Options{Instances: 1, CacheDir: cache}); err != nil {
		log.Fatal(err)
	} else {
		_ = p.Close(ctx)
	}
	runtime.GC()
	base := rss()

	if *cpuProfile != "" {
		out, err := os.Create(*cpuProfile)
		if err != nil {
			log.Fatal(err)
		}
		if err := pprof.StartCPUProfile(out); err != nil {
			log.Fatal(err)
		}
	}
	// As host/main.go does: the host opens and verifies the file, and the pool is given
	// its bytes (--bodies=memory) or its reader (--bodies=file).
	start, startCPU := time.Now(), cpuTime()
	open := snapdir.Open
	if *bodies == "file" {
		open = snapdir.OpenIndex
	}
	f, err := open(*snapPath)
	if err != nil {
		log.Fatal(err)
	}
	size := f.Size
	read := time.Since(start)
	pool, err := wasmpool.New(ctx, mod, []wasmpool.File{{Data: f.Data, Reader: f.Reader}}, wasmpool.Options{Instances: *instances, CacheDir: cache})
	if err != nil {
		log.Fatal(err)
	}
	loaded := time.Since(start)
	// The first answer names an item for the other queries: the host keeps no reader of
	// the index part to look one up.
	id, err := firstID(pool, f.Env)
	if err != nil {
		log.Fatal(err)
	}
	first, firstCPU := time.Since(start), cpuTime()-startCPU
	if *cpuProfile != "" {
		pprof.StopCPUProfile()
	}
	q := queries(f.Env, id)
	// CPU time as well as wall time: on a shared machine the wall time to the first
	// answer says more about the neighbours than about the host.
	fmt.Printf("file %d bytes (index part %d), %d items, bodies from %s; read and verified natively %v, pool of %d loaded %v, first answer %v (CPU %v)\n",
		size, f.IndexSize, f.Items, *bodies, read.Round(time.Millisecond), *instances,
		loaded.Round(time.Millisecond), first.Round(time.Millisecond), firstCPU.Round(time.Millisecond))
	fmt.Printf("after load: wasm memory per instance %v MiB; RSS %d MiB over the baseline %d MiB (%.2fx the file)\n",
		mib(pool.MemorySizes()), (rss()-base)>>20, base>>20, float64(rss()-base)/float64(size))
	for _, k := range q {
		var lat []time.Duration
		for range *rounds {
			t := time.Now()
			resp, err := serve(pool, k.req)
			if err != nil {
				log.Fatal(err)
			}
			if resp.Status != 200 {
				log.Fatalf("%s: status %d: %s", k.name, resp.Status, resp.Body)
			}
			lat = append(lat, time.Since(t))
		}
		slices.Sort(lat)
		var sum time.Duration
		for _, l := range lat {
			sum += l
		}
		fmt.Printf("%-22s p50 %8v  mean %8v  max %8v\n", k.name, lat[len(lat)/2].Round(10*time.Microsecond),
			(sum / time.Duration(len(lat))).Round(10*time.Microsecond), lat[len(lat)-1].Round(10*time.Microsecond))
	}
	fmt.Printf("after queries: wasm memory per instance %v MiB; RSS %d MiB over the baseline (%.2fx the file), peak RSS %d MiB\n",
		mib(pool.MemorySizes()), (rss()-base)>>20, float64(rss()-base)/float64(size), hwm()>>20)
	_ = pool.Close(ctx)
}

// firstID asks the pool for the id of an item of env.
func firstID(pool *wasmpool.Pool, env string) (string, error) {
	resp, err := serve(pool, &edge.Request{Method: "GET", Path: "/cda/rest/v1/" + env + "/contents",
		RawQuery: "sort=ContentID&pageSize=1", Headers: []edge.Header{{Name: "host", Value: "x"}}})
	if err != nil {
		return "", err
	}
	var page struct {
		Data []struct{ ContentID string } `json:"data"`
	}
	if err := json.Unmarshal(resp.Body, &page); err != nil || len(page.Data) == 0 {
		return "", fmt.Errorf("list %s: status %d, %v", env, resp.Status, err)
	}
	return page.Data[0].ContentID, nil
}

type query struct {
	name string
	req  *edge.Request
}

func queries(env, id string) []query {
	get := func(path, raw string) *edge.Request {
		return &edge.Request{Method: "GET", Path: path, RawQuery: raw, Headers: []edge.Header{{Name: "host", Value: "x"}}}
	}
	post := func(path, body string) *edge.Request {
		return &edge.Request{Method: "POST", Path: path, Body: []byte(body),
			Headers: []edge.Header{{Name: "content-type", Value: "application/json"}, {Name: "host", Value: "x"}}}
	}
	return []query{
		{"rest get one", get("/cda/rest/v1/"+env+"/contents/"+id, "")},
		{"rest list by name", get("/cda/rest/v1/"+env+"/contents", "searchByName=culture&sort=Name&pageSize=10")},
		{"graphql list", post("/cda/graphql/v1/"+env, `{"query":"query { content(pageSize: 10, page: 1, sortAsc: true) { Name, ContentID, Data } }"}`)},
		{"search one word", post("/cda/es/v1/"+env, `{"query":{"query_string":{"query":"garden"}},"size":10}`)},
		{"search two words", post("/cda/es/v1/"+env, `{"query":{"query_string":{"query":"coffee mountain"}},"size":10}`)},
		{"search phrase+aggs", post("/cda/es/v1/"+env, `{"query":{"match_phrase":{"Data.body":"headless garden"}},"size":5,"aggs":{"t":{"terms":{"field":"TemplateName.keyword"}}}}`)},
	}
}

func serve(p *wasmpool.Pool, r *edge.Request) (*edge.Response, error) {
	return p.Serve(context.Background(), r)
}

func mib(b []uint64) []uint64 {
	out := make([]uint64, len(b))
	for i, x := range b {
		out[i] = x >> 20
	}
	return out
}

func rss() uint64 { return status("VmRSS:") }
func hwm() uint64 { return status("VmHWM:") }

func status(key string) uint64 {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), key); ok {
			var kb uint64
			fmt.Sscan(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), &kb)
			return kb << 10
		}
	}
	return 0
}
