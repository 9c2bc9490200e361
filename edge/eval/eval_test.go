package eval

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"testing"

	"github.com/cdaedge/cdaedge/edge"
	"github.com/cdaedge/cdaedge/edge/query"
	"github.com/cdaedge/cdaedge/snapshot/snapshottest"
)

// evalItems: item numbers follow ContentID order, so doc i is Content_<i>.
var evalItems = []string{
	`{"ContentID":"Content_0","Status":"Published","Name":"quick brown fox","CreatedAt":"2020-01-01T00:00:00.000Z","Data":{"body":"<p>the quick brown fox jumps over the lazy dog</p>","tags":["red","blue"],"price":10}}`,
	`{"ContentID":"Content_1","Status":"Published","Name":"brown dog","CreatedAt":"2021-01-01T00:00:00.000Z","Data":{"body":"a dog that is brown and quick, quick, quick","tags":["blue"],"price":10.0}}`,
	`{"ContentID":"Content_2","Status":"Published","Name":"Fox News","CreatedAt":"2022-01-01T00:00:00.000Z","Data":{"body":"fox brown","tags":["Red"],"price":99.5}}`,
	`{"ContentID":"Content_3","Status":"Published","Name":"Kyoto's café","CreatedAt":"2023-06-01T12:00:00.000Z","Data":{"body":"nothing to see","flag":true}}`,
}

func evalEngine(t testing.TB) *Evaluator {
	t.Helper()
	return NewEvaluator(snapshottest.Open(t, "eval", false, evalItems...))
}

func docsOf(t *testing.T, e *Evaluator, q query.Query, sort ...query.SortField) string {
	t.Helper()
	if sort == nil {
		sort = []query.SortField{{Field: "ContentID"}}
	}
	res, err := e.Search(&query.Search{Query: q, Sort: sort, Size: 100})
	if err != nil {
		t.Fatalf("%v: %v", q, err)
	}
	return fmt.Sprint(res.Docs)
}

func TestMatching(t *testing.T) {
	e := evalEngine(t)
	str := func(s string) *query.Bound {
		return &query.Bound{Value: query.Scalar{Kind: query.ScalarString, Str: s, Text: s}, Inclusive: true}
	}
	for _, tc := range []struct {
		q    query.Query
		want string
	}{
		{query.MatchAll{}, "[0 1 2 3]"},
		{query.MatchNone{}, "[]"},
		{query.Term{Field: "Name", Text: "fox"}, "[0 2]"},
		{query.Term{Field: "Name.keyword", Text: "Fox News"}, "[2]"},
		{query.Term{Field: "Name.keyword", Text: "fox news"}, "[]"},
		{query.Term{Field: "Name.keyword", Text: "fox news", CaseInsensitive: true}, "[2]"},
		{query.Term{Field: "Name", Text: "kyoto's"}, "[3]"},
		{query.Term{Field: "Data.price", Text: "10"}, "[0 1]"},      // D4: 10 equals 10.0
		{query.Term{Field: "Data.flag", Text: "true"}, "[3]"},       // booleans by value
		{query.Term{Field: "CreatedAt", Text: "2023-06-01"}, "[3]"}, // D5: the whole day
		{query.Term{Field: "Data.tags", Text: "red"}, "[0 2]"},      // analysed: lower-cased
		{query.Term{Field: "Data.body", Text: "p"}, "[]"},           // D4: markup stripped
		{query.Term{Field: "Nope", Text: "fox"}, "[]"},              // D10: unknown field
		{query.Term{Field: "Data.*", Text: "dog"}, "[0 1]"},         // field pattern
		{query.Phrase{Field: "Data.body", Terms: []string{"quick", "brown"}}, "[0]"},
		{query.Phrase{Field: "Data.body", Terms: []string{"brown", "quick"}}, "[]"},
		{query.Phrase{Field: "Data.body", Terms: []string{"brown", "quick"}, Slop: 2}, "[0 1]"},
		{query.Phrase{Field: "Data.body", Terms: []string{"brown", "quick"}, Slop: 1}, "[1]"},
		{query.Phrase{Field: "Data.tags", Terms: []string{"red", "blue"}, Slop: 50}, "[]"}, // D4 gap
		{query.PhrasePrefix{Field: "Data.body", Terms: []string{"lazy", "d"}}, "[0]"},
		{query.Prefix{Field: "Name", Prefix: "bro"}, "[0 1]"},
		{query.Prefix{Field: "Name.keyword", Prefix: "fox", CaseInsensitive: true}, "[2]"},
		{query.Wildcard{Field: "Name", Pattern: "f?x"}, "[0 2]"},
		{query.Wildcard{Field: "Name.keyword", Pattern: "*café"}, "[3]"},
		{query.Regexp{Field: "Name", Pattern: "br.*n"}, "[0 1]"},
		{query.Regexp{Field: "Name", Pattern: "rown"}, "[]"}, // anchored: the whole term
		{query.Fuzzy{Field: "Name", Term: "frox", MaxEdits: 1, Transpositions: true}, "[0 2]"},
		{query.Fuzzy{Field: "Name", Term: "borwn", MaxEdits: 1, Transpositions: true}, "[0 1]"},
		{query.Fuzzy{Field: "Name", Term: "borwn", MaxEdits: 1}, "[]"}, // a transposition is two edits without them
		{query.Range{Field: "Data.price", Lower: &query.Bound{Value: query.Scalar{Kind: query.ScalarNumber, Number: 10}}}, "[2]"},
		{query.Range{Field: "CreatedAt", Lower: str("2021-01-01"), Upper: str("2022-01-01")}, "[1 2]"},
		{query.Range{Field: "Name.keyword", Lower: str("brown"), Upper: str("c")}, "[1]"},
		{query.Exists{Field: "Data.flag"}, "[3]"},
		{query.IDs{Values: []string{"Content_2", "Content_9"}}, "[2]"},
		{query.Bool{Clauses: []query.Clause{{Occur: query.Must, Query: query.Term{Field: "Name", Text: "brown"}}, {Occur: query.MustNot, Query: query.Term{Field: "Name", Text: "dog"}}}}, "[0]"},
		{query.Bool{Clauses: []query.Clause{{Occur: query.MustNot, Query: query.Term{Field: "Name", Text: "dog"}}}}, "[]"}, // Lucene: pure negative
		{query.Bool{Clauses: []query.Clause{{Occur: query.Filter, Query: query.MatchAll{}}, {Occur: query.MustNot, Query: query.Term{Field: "Name", Text: "dog"}}}}, "[0 2 3]"},
		{query.Bool{}, "[0 1 2 3]"},
		{query.Bool{MinimumShouldMatch: 2, Clauses: []query.Clause{
			{Occur: query.Should, Query: query.Term{Field: "Name", Text: "quick"}},
			{Occur: query.Should, Query: query.Term{Field: "Name", Text: "brown"}},
			{Occur: query.Should, Query: query.Term{Field: "Name", Text: "dog"}}}}, "[0 1]"},
		{query.DisMax{Queries: []query.Query{query.Term{Field: "Name", Text: "news"}, query.Term{Field: "Name", Text: "dog"}}}, "[1 2]"},
		{query.ConstantScore{Query: query.Term{Field: "Name", Text: "fox"}}, "[0 2]"},
	} {
		if got := docsOf(t, e, tc.q); got != tc.want {
			t.Errorf("%s: got %s, want %s", tc.q, got, tc.want)
		}
	}
}

// bm25Reference is the textbook formula in float64, independent of the float32 code.
func bm25Reference(freq, df, docCount, dl float64, avgdl float64) float64 {
	idf := math.Log(1 + (docCount-df+0.5)/(df+0.5))
	return idf * freq / (freq + 1.2*(1-0.75+0.75*dl/avgdl))
}

func TestBM25(t *testing.T) {
	e := evalEngine(t)
	res, err := e.Search(&query.Search{Query: query.Term{Field: "Data.body", Text: "quick"}, Size: 10})
	if err != nil {
		t.Fatal(err)
	}
	// Data.body lengths: 9, 9, 2, 3 tokens; "quick" occurs once in 0, three times in 1.
	avgdl := (9.0 + 9 + 2 + 3) / 4
	want := map[int]float64{
		0: bm25Reference(1, 2, 4, 9, avgdl),
		1: bm25Reference(3, 2, 4, 9, avgdl),
	}
	res.Scores = append([]float64(nil), res.Scores...) // the engine reuses its result slices
	if fmt.Sprint(res.Docs) != "[1 0]" {
		t.Fatalf("order %v: the item with more occurrences must come first", res.Docs)
	}
	for i, doc := range res.Docs {
		if d := math.Abs(res.Scores[i] - want[doc]); d > 1e-5 {
			t.Errorf("doc %d score %.7f, want %.7f", doc, res.Scores[i], want[doc])
		}
	}
	// Boost multiplies; bool sums; constant_score is the boost (D6).
	boosted, _ := e.Search(&query.Search{Query: query.Boost{Query: query.Term{Field: "Data.body", Text: "quick"}, Boost: 2}, Size: 10})
	if d := math.Abs(boosted.Scores[0] - 2*res.Scores[0]); d > 1e-5 {
		t.Errorf("boosted %v vs %v", boosted.Scores, res.Scores)
	}
	cs, _ := e.Search(&query.Search{Query: query.Boost{Query: query.ConstantScore{Query: query.Term{Field: "Name", Text: "fox"}}, Boost: 3}, Size: 10})
	if len(cs.Scores) != 2 || cs.Scores[0] != 3 || cs.Scores[1] != 3 {
		t.Errorf("constant scores %v", cs.Scores)
	}
	// Ties keep the default order: CreatedAt descending (D6).
	if fmt.Sprint(cs.Docs) != "[2 0]" {
		t.Errorf("tie order %v", cs.Docs)
	}
}

func TestSortKeys(t *testing.T) {
	e := evalEngine(t)
	for _, tc := range []struct {
		sort []query.SortField
		want string
	}{
		{[]query.SortField{{Field: "Data.price"}}, "[0 1 2 3]"},             // 10, 10.0 tie by id, missing last
		{[]query.SortField{{Field: "Data.price", Desc: true}}, "[2 0 1 3]"}, // missing last both ways
		{[]query.SortField{{Field: "Data.tags.keyword"}}, "[2 0 1 3]"},      // D12 arrays by min, byte order: Red < blue (0 and 1 tie)
		{[]query.SortField{{Field: "Data.tags", Desc: true}}, "[0 1 2 3]"},  // by max: red > blue > Red
		{[]query.SortField{{Field: "Data.price"}, {Field: "CreatedAt", Desc: true}}, "[1 0 2 3]"},
		{[]query.SortField{{Field: "Nope"}}, "[0 1 2 3]"},
	} {
		if got := docsOf(t, e, query.MatchAll{}, tc.sort...); got != tc.want {
			t.Errorf("sort %v: got %s, want %s", tc.sort, got, tc.want)
		}
	}
}

func TestLimits(t *testing.T) {
	e := evalEngine(t)
	var clauses []query.Clause
	for i := 0; i < maxBoolClauses+1; i++ {
		clauses = append(clauses, query.Clause{Occur: query.Should, Query: query.MatchAll{}})
	}
	for name, q := range map[string]query.Query{
		"too many clauses": query.Bool{Clauses: clauses},
		"bad regexp":       query.Regexp{Field: "Name", Pattern: "a&b"},
	} {
		_, err := e.Search(&query.Search{Query: q, Size: 1})
		var qe *edge.Error
		if !errors.As(err, &qe) || qe.Status() != 400 {
			t.Errorf("%s: err %v", name, err)
		}
	}
	e.SetMaxSteps(10)
	_, err := e.Search(&query.Search{Query: query.Fuzzy{Field: "Data.body", Term: "quick", MaxEdits: 2}, Size: 1})
	var qe *edge.Error
	if !errors.As(err, &qe) || qe.Code != edge.CodeTooComplex {
		t.Errorf("step budget: err %v", err)
	}
}

func TestSloppyPhraseFreq(t *testing.T) {
	for _, tc := range []struct {
		lists [][]int
		slop  int
		want  float32
	}{
		{[][]int{{0}, {0}}, 0, 1},
		{[][]int{{0}, {1}}, 1, 0.5},
		{[][]int{{0}, {3}}, 2, 0},
		{[][]int{{0, 10}, {0, 11}}, 1, 1.5},
	} {
		if got := sloppyPhraseFreq(tc.lists, tc.slop); got != tc.want {
			t.Errorf("%v slop %d: %v, want %v", tc.lists, tc.slop, got, tc.want)
		}
	}
}

// TestRangeFastPathMatchesScan: a range over a top-level field answered from its sorted
// order equals the same range answered by visiting every item, for many bounds.
func TestRangeFastPathMatchesScan(t *testing.T) {
	e := NewEvaluator(snapshottest.Open(t, "eval", false, evalItems...))
	f := e.snap.Field("CreatedAt")
	dates := []int64{0, 1577836800000, 1577836800001, 1609459200000, 1640995200000, 1685620800000, 1685620800000 + 1, 1 << 50}
	bound := func(ms int64, incl bool) *query.Bound {
		return &query.Bound{Value: query.Scalar{Kind: query.ScalarDate, Millis: ms}, Inclusive: incl}
	}
	for _, a := range dates {
		for _, b := range dates {
			for _, inclusive := range [][2]bool{{true, true}, {true, false}, {false, true}, {false, false}} {
				lo, hi := bound(a, inclusive[0]), bound(b, inclusive[1])
				for _, pair := range [][2]*query.Bound{{lo, hi}, {lo, nil}, {nil, hi}} {
					fast := fmt.Sprint(e.valueRange(f, pair[0], pair[1]))
					scan := fmt.Sprint(e.valueRangeScan(f, pair[0], pair[1]))
					if fast != scan {
						t.Fatalf("range %v..%v: fast %s, scan %s", pair[0], pair[1], fast, scan)
					}
				}
			}
		}
	}
}

// TestConstantScorePages checks the pages of constant-score queries, which Search ranks
// and scores without a score array, against the scores run gives each item: the same
// order (item order under the relevance order's field key) and the same score bits.
func TestConstantScorePages(t *testing.T) {
	e := evalEngine(t)
	for _, q := range []query.Query{
		nil,
		query.MatchAll{},
		query.Boost{Query: query.MatchAll{}, Boost: 2.5},
		query.Boost{Query: query.Boost{Query: query.Range{Field: "Data.price", Lower: &query.Bound{Value: query.Scalar{Kind: query.ScalarNumber, Number: 10}, Inclusive: true}}, Boost: 0.3}, Boost: 7},
		query.Exists{Field: "Data.flag"},
		query.IDs{Values: []string{"Content_2", "Content_0"}},
		query.Prefix{Field: "Name", Prefix: "b"},
		query.ConstantScore{Query: query.Term{Field: "Name", Text: "fox"}},
		query.Boost{Query: query.Wildcard{Field: "Data.*", Pattern: "b*"}, Boost: 3}, // a pattern: scored by run
	} {
		res, err := e.Search(&query.Search{Query: q, Size: 10})
		if err != nil {
			t.Fatalf("%v: %v", q, err)
		}
		e.BeginRequest()
		m, err := e.run(q, true, 1)
		if err != nil {
			t.Fatalf("%v: %v", q, err)
		}
		if m.set.count() != res.Total || len(res.Scores) != len(res.Docs) {
			t.Fatalf("%v: total %d, %d scores for %d docs; run matched %d", q, res.Total, len(res.Scores), len(res.Docs), m.set.count())
		}
		for i, doc := range res.Docs {
			if want := m.scores[doc]; math.Float64bits(res.Scores[i]) != math.Float64bits(float64(want)) {
				t.Errorf("%v: item %d scores %v, run gives %v", q, doc, res.Scores[i], want)
			}
		}
	}
}

// TestNumberLike checks numberLike on words, numbers and the spellings of infinity and
// NaN that strconv.ParseFloat reads: every text ParseFloat reads must be number-like.
func TestNumberLike(t *testing.T) {
	for text, want := range map[string]bool{
		"coffee": false, "info": false, "infinityx": false, "": false, "-": false, "nano": false,
		"1": true, "a1": true, "-2.5": true, "inf": true, "-Inf": true, "+INFINITY": true,
		"NaN": true, "nan": true, "infinity": true,
	} {
		if got := numberLike(text); got != want {
			t.Errorf("numberLike(%q) = %v, want %v", text, got, want)
		}
		if _, err := strconv.ParseFloat(text, 64); err == nil && !numberLike(text) {
			t.Errorf("ParseFloat reads %q, which numberLike refuses", text)
		}
	}
}
