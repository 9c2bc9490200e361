package snapshot

import (
	"bufio"
	"os"
	"testing"
)

// BenchmarkWriter builds a snapshot from the NDJSON file named by CDA_BENCH_INPUT
// (for example the output of `go run ./builder gen --items 10000 --seed 1`).
func BenchmarkWriter(b *testing.B) {
	path := os.Getenv("CDA_BENCH_INPUT")
	if path == "" {
		b.Skip("set CDA_BENCH_INPUT to an NDJSON file")
	}
	f, err := os.Open(path)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	var lines [][]byte
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		lines = append(lines, append([]byte(nil), sc.Bytes()...))
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		w, _ := NewWriter("bench", true)
		for _, l := range lines {
			if err := w.Add(l); err != nil {
				b.Fatal(err)
			}
		}
		out, err := w.Bytes()
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(len(out))/(1<<20), "MiB")
	}
}
