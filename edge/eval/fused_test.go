package eval

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/cdaedge/cdaedge/builder/gen"
	"github.com/cdaedge/cdaedge/edge/content"
	"github.com/cdaedge/cdaedge/edge/query"
	"github.com/cdaedge/cdaedge/snapshot/snapshottest"
)

// TestFusedAgreesWithNodeByNode evaluates queries the fused ways apply to (bools of
// should terms, dis_max of terms) and their near misses, with and without fusion, over
// a generated environment: totals, pages, scores (bit for bit) and work steps must be
// the same.
func TestFusedAgreesWithNodeByNode(t *testing.T) {
	var in bytes.Buffer
	if err := gen.Generate(&in, gen.Options{Items: 800, Seed: 3}); err != nil {
		t.Fatal(err)
	}
	snap := snapshottest.Open(t, "eval", true, strings.Split(strings.TrimSpace(in.String()), "\n")...)
	term := func(field, text string) query.Query { return query.Term{Field: field, Text: text} }
	should := func(qs ...query.Query) query.Bool {
		var b query.Bool
		for _, q := range qs {
			b.Clauses = append(b.Clauses, query.Clause{Occur: query.Should, Query: q})
		}
		return b
	}
	words := func(field string) query.Bool {
		return should(term(field, "coffee"), term(field, "garden"), term(field, "nosuchword"), term(field, "mountain"))
	}
	var fields []query.Query
	for _, f := range []string{"Name", "Data.body", "Data.summary", "Data.description", "Nope", "Data.seo.keywords.keyword"} {
		fields = append(fields, words(f))
	}
	recipes := query.Clause{Occur: query.Filter, Query: term("TemplateName.keyword", "Recipe")}
	msm2 := words("Data.body")
	msm2.MinimumShouldMatch = 2
	cases := []query.Query{
		words("Data.body"),
		should(term("Data.body", "coffee")),
		should(term("Nope", "coffee"), term("Data.body", "nosuchword")), // nothing matches
		query.DisMax{Queries: fields},
		query.DisMax{Queries: []query.Query{term("Name", "coffee"), term("Data.body", "coffee"), term("Data.summary", "garden"), term("Name.keyword", "x")}},
		query.DisMax{Queries: fields, TieBreaker: 0.3}, // not fused: sums
		query.Boost{Boost: 2.5, Query: query.DisMax{Queries: fields}},
		query.Bool{Clauses: []query.Clause{{Occur: query.Must, Query: query.DisMax{Queries: fields}}, recipes}},
		query.Bool{Clauses: []query.Clause{{Occur: query.Must, Query: words("Data.body")}, recipes}},
		msm2, // not fused
		should(term("Data.body", "coffee"), query.Term{Field: "Name", Text: "COFFEE", CaseInsensitive: true}), // not fused
		should(term("Data.body", "coffee"), term("Data.rating", "4")),                                         // a typed value: not fused
	}
	for i, q := range cases {
		var runs [2]string
		for j, unfused := range []bool{false, true} {
			e := NewEvaluator(snap)
			e.unfused = unfused
			e.BeginRequest()
			res, err := e.Search(&query.Search{Query: q, Size: 1000})
			if err != nil {
				t.Fatalf("case %d: %v", i, err)
			}
			var b strings.Builder
			fmt.Fprintf(&b, "total %d steps %d", res.Total, e.Steps())
			for k, d := range res.Docs {
				fmt.Fprintf(&b, " %d:%x", d, math.Float64bits(res.Scores[k]))
			}
			runs[j] = b.String()
		}
		if runs[0] != runs[1] {
			t.Errorf("case %d (%v): fused and node by node differ:\nfused:     %.300s\nunfused:   %.300s", i, q, runs[0], runs[1])
		}
		if strings.HasPrefix(runs[0], "total 0 ") && i != 2 {
			t.Errorf("case %d (%v) matches nothing: not a useful case", i, q)
		}
	}
}

// TestFusedAgreesWithNodeByNodeRandom is TestFusedAgreesWithNodeByNode over the top-k
// comparison's generated searches (bools and dis_max of terms nested three deep, with
// boosts, tie breakers, minimum_should_match and filters), with the top-k path off in
// both evaluators so that the fused ways answer what they apply to.
func TestFusedAgreesWithNodeByNodeRandom(t *testing.T) {
	snap := genSnapshot(t, 1500)
	fused, plain := NewEvaluator(snap), NewEvaluator(snap)
	fused.noTopK, plain.noTopK, plain.unfused = true, true, true
	r := rand.New(rand.NewPCG(21, 22))
	cases := 1500
	if testing.Short() {
		cases = 300
	}
	for i := range cases {
		s := &query.Search{Query: randomTopKQuery(r, snap), From: r.IntN(41), Size: 1 + r.IntN(50), Sort: content.RelevanceOrder}
		if want, got := searchOutcome(plain, s), searchOutcome(fused, s); got != want {
			t.Fatalf("case %d: %v from %d size %d:\nfused:        %.600s\nnode by node: %.600s", i, s.Query, s.From, s.Size, got, want)
		}
	}
}
