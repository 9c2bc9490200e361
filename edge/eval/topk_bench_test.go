package eval

import (
	"os"
	"runtime"
	"strconv"
	"syscall"
	"testing"

	"github.com/cdaedge/cdaedge/edge/content"
	"github.com/cdaedge/cdaedge/edge/dsl"
	"github.com/cdaedge/cdaedge/snapshot"
)

// BenchmarkFullTextEval measures the full-text searches of the router's BenchmarkFullText
// in the evaluator alone, with and without the top-k path, on the snapshot file
// CDA_BENCH_SNAP names (the router benchmark's cache holds them, in
// ~/.cache/cdaedge/bench); it is skipped without one. CDA_BENCH_WINDOW sets the top-k
// path's window size.
func BenchmarkFullTextEval(b *testing.B) {
	path := os.Getenv("CDA_BENCH_SNAP")
	if path == "" {
		b.Skip("CDA_BENCH_SNAP names no snapshot")
	}
	data, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	snap, err := snapshot.Open(data)
	if err != nil {
		b.Fatal(err)
	}
	fields := content.NewFields(snap)
	bodies := []struct{ name, body string }{
		{"fulltext/2", `{"query":{"query_string":{"query":"coffee garden"}},"size":10}`},
		// The Node benchmark's full-text query (web/bench/search.mjs): five fields.
		{"fields/5", `{"query":{"query_string":{"query":"coffee garden","fields":["Name","Data.title","Data.body","Data.summary","Data.tags"]}},"size":10}`},
		{"fulltext/2rare", `{"query":{"query_string":{"query":"smørrebrød beginners"}},"size":10}`},
		{"fulltext+template", `{"query":{"bool":{"must":[{"query_string":{"query":"coffee garden"}}],"filter":[{"term":{"TemplateName.keyword":"Recipe"}}]}},"size":10}`},
		{"query_string/3", `{"query":{"query_string":{"query":"coffee mountain festival"}},"size":10}`},
		// One long field whose items nearly all have both words, with scores so even
		// that no window can be skipped: the top-k path's worst case.
		{"match/body", `{"query":{"match":{"Data.body":"coffee garden"}},"size":10}`},
	}
	for _, c := range bodies {
		req, err := dsl.Decode(c.body, dsl.Options{Schema: fields})
		if err != nil {
			b.Fatal(err)
		}
		s := req.Search()
		for _, path := range []string{"topk", "full"} {
			e := NewEvaluator(snap)
			e.noTopK = path == "full"
			e.tk = &tkScratch{}
			if w := os.Getenv("CDA_BENCH_WINDOW"); w != "" {
				e.tk.window, _ = strconv.Atoi(w)
			}
			b.Run(c.name+"/"+path, func(b *testing.B) {
				b.ReportAllocs()
				// The thread's own CPU time, which other processes on a busy machine
				// do not inflate as they do the wall clock's.
				runtime.LockOSThread()
				defer runtime.UnlockOSThread()
				start := threadCPU()
				for i := 0; i < b.N; i++ {
					e.BeginRequest()
					if _, err := e.Search(s); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(threadCPU()-start)/float64(b.N), "cpu-ns/op")
			})
		}
	}
}

// threadCPU is the CPU time the calling thread has used, in nanoseconds (0 where the
// system does not tell).
func threadCPU() int64 {
	const rusageThread = 1 // RUSAGE_THREAD (Linux)
	var ru syscall.Rusage
	if syscall.Getrusage(rusageThread, &ru) != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}
