package eval

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/cdaedge/cdaedge/builder/gen"
	"github.com/cdaedge/cdaedge/edge/query"
	"github.com/cdaedge/cdaedge/snapshot"
	"github.com/cdaedge/cdaedge/snapshot/snapshottest"
)

// TestReuseMatchesFresh runs many searches, in a random order, on one engine and checks
// that each answers exactly as a new engine does: the engine recycles doc sets and
// score arrays between and within searches, and a set or score left behind by one
// query must never show in another.
func TestReuseMatchesFresh(t *testing.T) {
	snap := genSnapshot(t, 1500)

	term := func(f, w string) query.Query { return query.Term{Field: f, Text: w} }
	should := func(qs ...query.Query) query.Bool {
		b := query.Bool{}
		for _, q := range qs {
			b.Clauses = append(b.Clauses, query.Clause{Occur: query.Should, Query: q})
		}
		return b
	}
	fields := []string{"Name", "Data.body", "Data.summary", "Data.title", "Data.tags", "Nope", "CreatedBy"}
	words := []string{"coffee", "garden", "edge", "café", "müller", "absent", "news"}
	var queries []query.Query
	for _, w1 := range words {
		for _, w2 := range words[:3] {
			var dm query.DisMax
			for _, f := range fields {
				dm.Queries = append(dm.Queries, should(term(f, w1), term(f, w2)))
			}
			queries = append(queries, dm)
			tie := dm
			tie.TieBreaker = 0.3
			queries = append(queries, tie)
			queries = append(queries, query.Bool{Clauses: []query.Clause{
				{Occur: query.Must, Query: dm},
				{Occur: query.Filter, Query: term("TemplateName.keyword", "Recipe")},
			}})
			queries = append(queries, query.Bool{Clauses: []query.Clause{
				{Occur: query.Must, Query: dm},
				{Occur: query.Filter, Query: query.IDs{Values: []string{snap.ContentID(5), snap.ContentID(700)}}},
			}})
			queries = append(queries, query.Bool{Clauses: []query.Clause{
				{Occur: query.Should, Query: term("Data.body", w1)},
				{Occur: query.Should, Query: term("Name", w2)},
				{Occur: query.MustNot, Query: term("Data.body", "garden")},
			}})
			queries = append(queries, query.Bool{MinimumShouldMatch: 2, Clauses: []query.Clause{
				{Occur: query.Should, Query: term("Data.body", w1)},
				{Occur: query.Should, Query: term("Data.summary", w2)},
				{Occur: query.Should, Query: term("Data.title", w1)},
			}})
			queries = append(queries, query.Bool{Clauses: []query.Clause{
				{Occur: query.Must, Query: term("Data.body", w1)},
				{Occur: query.Must, Query: term("Data.summary", w2)},
				{Occur: query.Should, Query: term("Name", w1)},
			}})
		}
	}
	answer := func(e *Evaluator, q query.Query) string {
		e.BeginRequest()
		res, err := e.Search(&query.Search{Query: q, Size: 1500, Scores: true})
		if err != nil {
			t.Fatalf("%v: %v", q, err)
		}
		return fmt.Sprint(res.Total, res.Docs, res.Scores)
	}
	want := make([]string, len(queries))
	for i, q := range queries {
		want[i] = answer(NewEvaluator(snap), q)
	}
	shared := NewEvaluator(snap)
	r := rand.New(rand.NewPCG(1, 2))
	for range 3 {
		for _, i := range r.Perm(len(queries)) {
			if got := answer(shared, queries[i]); got != want[i] {
				t.Fatalf("%v: after other searches\n got %s\nwant %s", queries[i], got, want[i])
			}
		}
	}
}

// genSnapshot is a snapshot of the published items among n generated ones (seed 7).
func genSnapshot(t *testing.T, n int) *snapshot.Snapshot {
	t.Helper()
	s, err := snapshot.Open(genSnapshotBytes(t, n))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// genSnapshotBytes is genSnapshot's file.
func genSnapshotBytes(t *testing.T, n int) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := gen.Generate(&buf, gen.Options{Items: n, Seed: 7, Environment: "reuse"}); err != nil {
		t.Fatal(err)
	}
	var items []string
	for _, it := range strings.Split(strings.TrimSpace(buf.String()), "\n") {
		if strings.Contains(it, `"Status":"Published"`) {
			items = append(items, it)
		}
	}
	return snapshottest.Bytes(t, "reuse", false, items...)
}

// TestPreFilterSameAnswer checks that a bool led by its term filters (preFilter)
// answers exactly as the same bool whose filter is hidden in a nested bool, which is
// evaluated in clause order over every item.
func TestPreFilterSameAnswer(t *testing.T) {
	e := NewEvaluator(genSnapshot(t, 800))
	term := func(f, w string) query.Query { return query.Term{Field: f, Text: w} }
	filter := term("TemplateName.keyword", "Recipe")
	full := query.DisMax{Queries: []query.Query{
		query.Bool{Clauses: []query.Clause{{Occur: query.Should, Query: term("Data.body", "coffee")}, {Occur: query.Should, Query: term("Data.body", "garden")}}},
		query.Bool{Clauses: []query.Clause{{Occur: query.Should, Query: term("Name", "coffee")}, {Occur: query.Should, Query: term("Data.summary", "garden")}}},
	}}
	for _, rest := range [][]query.Clause{
		{{Occur: query.Must, Query: full}},
		{{Occur: query.Should, Query: full}},
		{{Occur: query.Must, Query: full}, {Occur: query.MustNot, Query: term("Data.body", "edge")}},
		{{Occur: query.Should, Query: term("Data.body", "coffee")}, {Occur: query.Should, Query: term("Data.summary", "garden")}},
		{{Occur: query.Must, Query: term("Data.body", "absent")}},
		{{Occur: query.Must, Query: query.Regexp{Field: "Data.body", Pattern: "(ab"}}}, // an error
	} {
		for _, f := range []query.Query{filter, term("TemplateName.keyword", "NoSuchTemplate")} {
			hidden := query.Bool{Clauses: []query.Clause{{Occur: query.Filter, Query: f}}}
			answer := func(f query.Query) string {
				q := query.Bool{Clauses: append([]query.Clause{{Occur: query.Filter, Query: f}}, rest...)}
				e.BeginRequest()
				res, err := e.Search(&query.Search{Query: q, Size: 800, Scores: true})
				if err != nil {
					return err.Error()
				}
				return fmt.Sprint(res.Total, res.Docs, res.Scores)
			}
			if got, want := answer(f), answer(hidden); got != want {
				t.Errorf("%v, %v: led by its filter\n got %s\nwant %s", f, rest, got, want)
			}
		}
	}
}

// TestMatchedLivesThroughTheRequest checks the lifetime of a result's Matched set: the
// searches that follow in the same request (a GraphQL query's lists, a multi-search's
// searches, an aggregation over every item), which recycle the engine's other sets,
// leave it as it was, request after request.
func TestMatchedLivesThroughTheRequest(t *testing.T) {
	snap := genSnapshot(t, 1500)
	term := func(f, w string) query.Query { return query.Term{Field: f, Text: w} }
	queries := []query.Query{
		term("Data.body", "coffee"),
		query.DisMax{Queries: []query.Query{term("Name", "garden"), term("Data.body", "garden")}},
		query.MatchAll{},
		term("TemplateName.keyword", "Recipe"),
		term("Data.body", "absent"),
	}
	items := func(d DocSet) []int {
		var docs []int
		d.ForEach(func(doc int) { docs = append(docs, doc) })
		return docs
	}
	want := make([][]int, len(queries))
	for i, q := range queries {
		e := NewEvaluator(snap)
		e.BeginRequest()
		res, err := e.Search(&query.Search{Query: q, Size: 10})
		if err != nil {
			t.Fatal(err)
		}
		want[i] = items(res.Matched)
	}
	e := NewEvaluator(snap)
	for round := range 3 {
		e.BeginRequest()
		results := make([]Result, len(queries))
		for i, q := range queries {
			var err error
			if results[i], err = e.Search(&query.Search{Query: q, Size: 10}); err != nil {
				t.Fatal(err)
			}
		}
		for i, res := range results {
			if got := items(res.Matched); !slices.Equal(got, want[i]) {
				t.Fatalf("round %d: %v: Matched after the request's later searches: %d items, want %d", round, queries[i], len(got), len(want[i]))
			}
		}
	}
}
