package router

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/cdaedge/cdaedge/builder/gen"
	"github.com/cdaedge/cdaedge/builder/ingest"
	"github.com/cdaedge/cdaedge/edge"
	"github.com/cdaedge/cdaedge/snapshot"
)

// benchSizes are the generated environment sizes benchmarks run on; CDA_BENCH_SIZES
// overrides them (for example "10000" for a quick run).
func benchSizes() []int {
	spec := os.Getenv("CDA_BENCH_SIZES")
	if spec == "" {
		spec = "10000,100000"
	}
	var out []int
	for _, f := range strings.Split(spec, ",") {
		if n, err := strconv.Atoi(strings.TrimSpace(f)); err == nil && n > 0 {
			out = append(out, n)
		}
	}
	return out
}

var benchCache sync.Map // size → []byte

// BenchSnapshot returns the bytes of a snapshot of n items generated with seed 1. It is
// built once and cached in the user cache directory, keyed by the snapshot format version
// and a hash of the generator's and the analyzers' source (a format change must bump the
// version; a 100k build takes minutes, so writer edits that keep the format reuse it).
func BenchSnapshot(tb testing.TB, n int) []byte {
	if b, ok := benchCache.Load(n); ok {
		return b.([]byte)
	}
	h := sha256.New()
	fmt.Fprintf(h, "format %d.%d\n", snapshot.MajorVersion, snapshot.MinorVersion)
	for _, src := range []string{"../../builder/gen/gen.go", "../analysis/standard.go", "../analysis/html.go"} {
		b, err := os.ReadFile(src)
		if err != nil {
			tb.Fatal(err)
		}
		h.Write(b)
	}
	dir, err := os.UserCacheDir()
	if err != nil {
		dir = os.TempDir()
	}
	dir = filepath.Join(dir, "cdaedge", "bench")
	path := filepath.Join(dir, fmt.Sprintf("gen-%d-%s.snap", n, hex.EncodeToString(h.Sum(nil))[:12]))
	if b, err := os.ReadFile(path); err == nil {
		if _, err := snapshot.Open(b); err == nil {
			benchCache.Store(n, b)
			return b
		}
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		tb.Fatal(err)
	}
	input := filepath.Join(tb.TempDir(), "items.ndjson")
	f, err := os.Create(input)
	if err != nil {
		tb.Fatal(err)
	}
	w := bufio.NewWriter(f)
	if err := gen.Generate(w, gen.Options{Items: n, Seed: 1, Environment: "bench"}); err != nil {
		tb.Fatal(err)
	}
	if err := w.Flush(); err != nil {
		tb.Fatal(err)
	}
	f.Close()
	b, _, err := ingest.BuildFiles(ingest.Options{Environment: "bench"}, input)
	if err != nil {
		tb.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		tb.Fatal(err)
	}
	benchCache.Store(n, b)
	return b
}

func benchRouter(b *testing.B, n int) (*Router, *snapshot.Snapshot) {
	data := BenchSnapshot(b, n)
	snap, err := snapshot.Open(data)
	if err != nil {
		b.Fatal(err)
	}
	r := New(Options{})
	r.Load(snap)
	return r, snap
}

func BenchmarkOpen(b *testing.B) {
	for _, n := range benchSizes() {
		data := BenchSnapshot(b, n)
		b.Run(fmt.Sprintf("items=%d", n), func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if _, err := snapshot.Open(data); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkGetByID(b *testing.B) {
	for _, n := range benchSizes() {
		r, snap := benchRouter(b, n)
		req := &edge.Request{Method: "GET", Path: "/cda/rest/v1/bench/contents/" + snap.ContentID(n/3)}
		b.Run(fmt.Sprintf("items=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if resp := r.Serve(req); resp.Status != 200 {
					b.Fatalf("status %d: %s", resp.Status, resp.Body)
				}
			}
		})
	}
}

func BenchmarkList(b *testing.B) {
	queries := map[string]string{
		"default":          "",
		"filter+sort+page": "searchByTemplateName=article&sort=Name&sortAsc=true&page=3&pageSize=20",
		"rare filter+sort": "searchByCreatedBy=erian&sort=UpdatedAt&pageSize=10",
		"two filters+Data": "searchByTemplateName=product&status=published&sort=Data.price&sortAsc=true",
		"deep page":        "page=400&pageSize=20",
	}
	for _, n := range benchSizes() {
		r, _ := benchRouter(b, n)
		for name, q := range queries {
			req := &edge.Request{Method: "GET", Path: "/cda/rest/v1/bench/contents", RawQuery: q}
			b.Run(fmt.Sprintf("items=%d/%s", n, strings.ReplaceAll(name, " ", "_")), func(b *testing.B) {
				b.ReportAllocs()
				for i := 0; i < b.N; i++ {
					if resp := r.Serve(req); resp.Status != 200 {
						b.Fatalf("status %d: %s", resp.Status, resp.Body)
					}
				}
			})
		}
	}
}
