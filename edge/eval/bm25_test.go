package eval

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestLn checks the portable logarithm behind idf against math.Log: bit for bit over
// every idf of collections up to 2,000 documents, random normal arguments and the
// special values. (Below the normal range math.Log's amd64 assembly is wrong: it gives
// -709.09 for 5e-324, whose logarithm is -744.44.)
func TestLn(t *testing.T) {
	check := func(x float64) {
		t.Helper()
		if got, want := ln(x), math.Log(x); math.Float64bits(got) != math.Float64bits(want) && !(math.IsNaN(got) && math.IsNaN(want)) {
			t.Fatalf("ln(%v) = %v, math.Log gives %v", x, got, want)
		}
	}
	for _, x := range []float64{0, math.Copysign(0, -1), -1, 1, 2, math.E, math.Inf(1), math.Inf(-1), math.NaN(),
		math.MaxFloat64, 0x1p-1022, 1 - 0x1p-53, 1 + 0x1p-52} {
		check(x)
	}
	for n := int64(1); n <= 2000; n++ {
		for df := int64(0); df <= n; df++ {
			check(1 + (float64(n)-float64(df)+0.5)/(float64(df)+0.5))
		}
	}
	if got := ln(math.SmallestNonzeroFloat64); got != -744.4400719213812 {
		t.Errorf("ln(5e-324) = %v, want -744.4400719213812", got)
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 1_000_000 {
		if x := math.Float64frombits(r.Uint64() &^ (1 << 63)); x >= 0x1p-1022 {
			check(x) // positive, normal, any exponent
		}
		check(1 + r.Float64()*1e6)
	}
}

// TestScoreInTwo checks that scoreOf(tf(f, n)) is score(f, n), bit for bit, for every
// length byte, frequencies from 0 to saturated, and weights and field statistics of
// several sizes: the top-k path's bounds from impacts are computed in two steps.
func TestScoreInTwo(t *testing.T) {
	e := &Evaluator{}
	for _, st := range []fieldStats{{docCount: 1, sumTotalTermFreq: 1}, {docCount: 9010, sumTotalTermFreq: 812345}, {docCount: 89921, sumTotalTermFreq: 7}} {
		for _, weight := range []float32{0, 0.001, 1, 2.2, 1e20} {
			s := bm25Scorer{weight: weight, cache: e.normTable(st)}
			for _, freq := range []float32{0, 1, 2, 3, 17, 254, float32(math.Inf(1))} {
				for norm := range 256 {
					got, want := s.scoreOf(s.tf(freq, byte(norm))), s.score(freq, byte(norm))
					if math.Float32bits(got) != math.Float32bits(want) {
						t.Fatalf("weight %v, %+v, freq %v, norm %d: %v in two steps, %v in one", weight, st, freq, norm, got, want)
					}
				}
			}
		}
	}
}
