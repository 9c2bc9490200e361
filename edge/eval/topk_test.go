package eval

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/cdaedge/cdaedge/edge/content"
	"github.com/cdaedge/cdaedge/edge/query"
	"github.com/cdaedge/cdaedge/snapshot"
	"github.com/cdaedge/cdaedge/snapshot/snapshottest"
)

// topKWords are the words of the generated queries: common and rarer words of the
// generated prose and titles, a typed value, and words no item has.
var topKWords = []string{
	"coffee", "garden", "mountain", "festival", "edge", "café", "müller", "the", "a",
	"smørrebrød", "beginners", "kyoto's", "news", "recipe", "3.14", "true", "nosuchword",
	"zürich", "東京", "design", "launch", "river",
}

// topKFields are the fields of the generated queries: long and short text, exact
// values, typed values, and a field no item has.
var topKFields = []string{
	"Name", "Data.body", "Data.summary", "Data.title", "Data.description", "Data.tags",
	"Data.seo.keywords", "Data.seo.metaTitle", "TemplateName.keyword", "Data.rating",
	"CreatedAt", "Nope", "Data.bio", "Data.tags.keyword",
}

// randomTopKQuery makes a query of the shapes the top-k path takes (and some it
// declines): dis_max over fields of bools of words, bools of dis_max over fields,
// single terms, with boosts, tie breakers, minimum_should_match and filters.
func randomTopKQuery(r *rand.Rand, snap *snapshot.Snapshot) query.Query {
	words := make([]string, 1+r.IntN(4))
	for i := range words {
		words[i] = topKWords[r.IntN(len(topKWords))]
	}
	fields := make([]string, 1+r.IntN(6))
	for i := range fields {
		fields[i] = topKFields[r.IntN(len(topKFields))]
	}
	term := func(f, w string) query.Query {
		var q query.Query = query.Term{Field: f, Text: w}
		if r.IntN(8) == 0 {
			q = query.Boost{Query: q, Boost: []float64{0.5, 2, 3.7, 0, 1e4, 1e-4}[r.IntN(6)]}
		}
		return q
	}
	tie := func() float64 { return []float64{0, 0, 0.3, 1, 0.01}[r.IntN(5)] }
	msm := func() int { return []int{0, 0, 0, 1, 2}[r.IntN(5)] }
	var q query.Query
	switch r.IntN(6) {
	case 0: // query_string's shape: dis_max over fields of the words' bool
		var dm query.DisMax
		for _, f := range fields {
			var b query.Bool
			for _, w := range words {
				b.Clauses = append(b.Clauses, query.Clause{Occur: query.Should, Query: term(f, w)})
			}
			b.MinimumShouldMatch = msm()
			dm.Queries = append(dm.Queries, b)
		}
		dm.TieBreaker = tie()
		q = dm
	case 1: // best_fields per word: a bool of dis_max
		var b query.Bool
		for _, w := range words {
			var dm query.DisMax
			for _, f := range fields {
				dm.Queries = append(dm.Queries, term(f, w))
			}
			dm.TieBreaker = tie()
			b.Clauses = append(b.Clauses, query.Clause{Occur: query.Should, Query: dm})
		}
		b.MinimumShouldMatch = msm()
		q = b
	case 2: // one field's words
		var b query.Bool
		for _, w := range words {
			b.Clauses = append(b.Clauses, query.Clause{Occur: query.Should, Query: term(fields[0], w)})
		}
		q = b
	case 3: // a bool in a bool: `a^3 field:(b c)`, a term of every item beside rarer words
		var inner query.Bool
		for _, w := range words {
			inner.Clauses = append(inner.Clauses, query.Clause{Occur: query.Should, Query: term(fields[0], w)})
		}
		inner.MinimumShouldMatch = msm()
		common := []query.Query{query.Term{Field: "Status", Text: "published"}, term(fields[len(fields)-1], words[0])}[r.IntN(2)]
		q = query.Bool{Clauses: []query.Clause{{Occur: query.Should, Query: common}, {Occur: query.Should, Query: inner}}}
	case 4: // any nesting of bools and dis_max, three levels deep
		var tree func(depth int) query.Query
		tree = func(depth int) query.Query {
			if depth == 0 || r.IntN(3) == 0 {
				return term(fields[r.IntN(len(fields))], words[r.IntN(len(words))])
			}
			n := 1 + r.IntN(3)
			if r.IntN(2) == 0 {
				var dm query.DisMax
				for range n {
					dm.Queries = append(dm.Queries, tree(depth-1))
				}
				dm.TieBreaker = tie()
				return dm
			}
			var b query.Bool
			for range n {
				b.Clauses = append(b.Clauses, query.Clause{Occur: query.Should, Query: tree(depth - 1)})
			}
			b.MinimumShouldMatch = min(msm(), 1)
			return b
		}
		q = tree(3)
	default:
		q = term(fields[0], words[0])
	}
	if r.IntN(5) == 0 {
		q = query.Boost{Query: q, Boost: 1.5}
	}
	switch r.IntN(6) {
	case 0:
		q = query.Bool{Clauses: []query.Clause{{Occur: query.Must, Query: q}, {Occur: query.Filter, Query: query.Term{Field: "TemplateName.keyword", Text: []string{"Recipe", "Article", "Nope"}[r.IntN(3)]}}}}
	case 1:
		q = query.Bool{Clauses: []query.Clause{
			{Occur: query.Filter, Query: query.IDs{Values: []string{snap.ContentID(r.IntN(snap.Len())), snap.ContentID(r.IntN(snap.Len()))}}},
			{Occur: query.Must, Query: q},
			{Occur: query.Filter, Query: query.ConstantScore{Query: query.Term{Field: "Status.keyword", Text: "Published"}}},
		}}
	case 2:
		q = query.Bool{Clauses: []query.Clause{{Occur: query.Must, Query: q}, {Occur: query.Filter, Query: query.Exists{Field: "Data.rating"}}}}
	}
	return q
}

// searchOutcome prints everything a search answers, scores as bits, and the work spent.
func searchOutcome(e *Evaluator, s *query.Search) string {
	e.BeginRequest()
	res, err := e.Search(s)
	var b strings.Builder
	fmt.Fprintf(&b, "err %v steps %d total %d matched %d", err, e.Steps(), res.Total, res.Matched.Count())
	for k, d := range res.Docs {
		fmt.Fprintf(&b, " %d", d)
		if res.Scores != nil {
			fmt.Fprintf(&b, ":%x", math.Float64bits(res.Scores[k]))
		}
	}
	if err == nil {
		sum := 0
		res.Matched.ForEach(func(doc int) { sum = sum*31 + doc })
		fmt.Fprintf(&b, " matched-hash %d", sum)
	}
	return b.String()
}

// TestTopKAgreesWithNodeByNode runs many generated searches with and without the
// top-k path: hits, their order (ties included), scores bit for bit, totals, the
// matched set, errors and the work spent must be the same, also when the budget
// runs out part way.
func TestTopKAgreesWithNodeByNode(t *testing.T) {
	snap := genSnapshot(t, 1500)
	fast, full := topKAndNodeByNode(snap)
	r := rand.New(rand.NewPCG(11, 12))
	cases := 2000
	if testing.Short() {
		cases = 400
	}
	for i := range cases {
		// Many windows, so that some are pruned; and the impacts of the file at its own
		// windows and at twice them.
		fast.tk.window = []int{0, 64, 128, 0, 192, 1024}[i%6]
		q := randomTopKQuery(r, snap)
		s := &query.Search{Query: q, From: r.IntN(41), Size: 1 + r.IntN(50)}
		switch r.IntN(8) {
		case 0:
			s.Sort = []query.SortField{{Score: true, Desc: true}} // ties by item number
		case 1:
			s.Sort = []query.SortField{{Score: true, Desc: true}, {Field: "Data.rating", Desc: r.IntN(2) == 0}}
		case 2:
			s.Size = 0
		}
		if len(s.Sort) == 0 {
			s.Sort = content.RelevanceOrder
		}
		want := searchOutcome(full, s)
		got := searchOutcome(fast, s)
		if got != want {
			t.Fatalf("case %d: %v (%#v) from %d size %d:\ntop-k:        %.600s\nnode by node: %.600s", i, q, q, s.From, s.Size, got, want)
		}
		// The same search on a budget that runs out somewhere on the way.
		var steps int64
		fmt.Sscanf(want[strings.Index(want, "steps ")+6:], "%d", &steps)
		if steps > 1 {
			budget := 1 + r.Int64N(steps)
			full.SetMaxSteps(budget)
			fast.SetMaxSteps(budget)
			want, got = searchOutcome(full, s), searchOutcome(fast, s)
			full.SetMaxSteps(DefaultMaxSteps)
			fast.SetMaxSteps(DefaultMaxSteps)
			if got != want {
				t.Fatalf("case %d on a budget of %d steps: %v:\ntop-k:        %.300s\nnode by node: %.300s", i, budget, q, got, want)
			}
		}
	}
	if fast.tk.answered < cases/2 {
		t.Errorf("the top-k path answered %d searches of %d", fast.tk.answered, 2*cases)
	}
	t.Logf("the top-k path answered %d searches of %d, scoring %d of their %d matches; %d terms were read from bitmaps, %d bounded by impacts; %d passes gave up at their first quarter", fast.tk.answered, 2*cases, fast.tk.scored, fast.tk.matched, fast.tk.dense, fast.tk.impacted, fast.tk.gaveUp)
	if fast.tk.dense == 0 || fast.tk.impacted == 0 || fast.tk.gaveUp == 0 {
		t.Error("no term was read from the file's bitmaps, bounded by its impacts, or no pass gave up early")
	}
	if fast.tk.scored*10 > fast.tk.matched*9 { // a few hundred items, pages of up to 90
		t.Errorf("the top-k path scored %d of %d matches: it hardly prunes", fast.tk.scored, fast.tk.matched)
	}
}

// topKAndNodeByNode returns two evaluators of snap to compare: fast takes the top-k
// path (with a scratch of its own, whose counters the tests read), full never does.
func topKAndNodeByNode(snap *snapshot.Snapshot) (fast, full *Evaluator) {
	fast, full = NewEvaluator(snap), NewEvaluator(snap)
	full.noTopK = true
	fast.tk = &tkScratch{}
	return fast, full
}

// TestTopKTakesTheFullTextShapes checks that the top-k path does take the shapes it is
// for (so that the comparison above compares something).
func TestTopKTakesTheFullTextShapes(t *testing.T) {
	snap := genSnapshot(t, 300)
	e := NewEvaluator(snap)
	words := func(f string) query.Bool {
		return query.Bool{Clauses: []query.Clause{
			{Occur: query.Should, Query: query.Term{Field: f, Text: "coffee"}},
			{Occur: query.Should, Query: query.Term{Field: f, Text: "garden"}},
		}}
	}
	dm := query.DisMax{Queries: []query.Query{words("Name"), words("Data.body"), words("CreatedAt"), words("Nope")}}
	filtered := query.Bool{Clauses: []query.Clause{{Occur: query.Must, Query: dm}, {Occur: query.Filter, Query: query.Term{Field: "TemplateName.keyword", Text: "Recipe"}}}}
	for _, q := range []query.Query{dm, filtered, words("Data.body"), query.Term{Field: "Data.body", Text: "coffee"}} {
		tk := &tkScratch{}
		if !e.planTopK(q, &tk.plan) {
			t.Errorf("%v: not taken by the top-k path", q)
		}
	}
	for _, q := range []query.Query{
		query.Bool{Clauses: []query.Clause{{Occur: query.Should, Query: dm}, {Occur: query.MustNot, Query: words("Name")}}},
		query.Phrase{Field: "Data.body", Terms: []string{"coffee", "garden"}, Positions: []int{0, 1}},
		query.DisMax{Queries: []query.Query{query.Term{Field: "Data.rating", Text: "4"}}},
	} {
		tk := &tkScratch{}
		if e.planTopK(q, &tk.plan) {
			t.Errorf("%v: taken by the top-k path", q)
		}
	}
}

// TestFormat20AnswersTheSame checks that a file laid out as format 2.0 (no bitmaps or
// impacts of common terms, which 2.1 added; the postings in the index part, before
// format 3 paged them), as an older builder wrote it, answers every generated search as
// the same file in format 3 does.
func TestFormat20AnswersTheSame(t *testing.T) {
	data := genSnapshotBytes(t, 1500)
	with, err := snapshot.Open(data)
	if err != nil {
		t.Fatal(err)
	}
	// Format 2.0: no bitmaps or impacts, and the postings inside the index part.
	without, err := snapshot.Open(snapshottest.Format2(t, snapshottest.HideSections(t, data, "docsets", "impacts")))
	if err != nil {
		t.Fatal(err)
	}
	if major, _ := without.FormatVersion(); major != 2 {
		t.Fatalf("format %d", major)
	}
	// Format 2.1: the bitmaps inside section docsets.
	v21, err := snapshot.Open(snapshottest.Format2(t, data))
	if err != nil {
		t.Fatal(err)
	}
	if i, ok := v21.Field("Data.body").Text().Find("coffee"); !ok {
		t.Fatal("no coffee in Data.body")
	} else if _, ok := v21.Field("Data.body").Text().Bitmap(i); !ok {
		t.Fatal("a format 2.1 layout has no bitmap for coffee")
	}
	body := without.Field("Data.body").Text()
	if i, ok := body.Find("coffee"); !ok {
		t.Fatal("no coffee in Data.body")
	} else if _, ok := body.Bitmap(i); ok {
		t.Fatal("a hidden docsets section is read")
	}
	a, b := NewEvaluator(with), NewEvaluator(without)
	a.tk, b.tk = &tkScratch{}, &tkScratch{}
	r := rand.New(rand.NewPCG(13, 14))
	cases := 500
	if testing.Short() {
		cases = 100
	}
	for i := range cases {
		q := randomTopKQuery(r, with)
		s := &query.Search{Query: q, From: r.IntN(21), Size: 1 + r.IntN(30), Sort: content.RelevanceOrder}
		if got, want := searchOutcome(a, s), searchOutcome(b, s); got != want {
			t.Fatalf("case %d: %v:\nformat 3.0: %.400s\nformat 2.0: %.400s", i, q, got, want)
		}
	}
	if a.tk.dense == 0 || b.tk.dense != 0 {
		t.Fatalf("bitmaps read: %d with the sections, %d without", a.tk.dense, b.tk.dense)
	}
}

// TestWindowSize checks the top-k path's windows: a multiple of the file's impact
// windows (their bounds are read per window), about a 32nd of the collection, never
// smaller than one impact window nor larger than maxWindow.
func TestWindowSize(t *testing.T) {
	for _, c := range []struct{ n, want int }{
		{0, 512}, {1, 512}, {9010, 512}, {16415, 512}, {16416, 1024}, {89921, 3072},
		{100000, 3584}, {131072, 4096}, {1000000, 4096},
	} {
		w := windowSize(c.n)
		if w != c.want || w%snapshot.ImpactWindow != 0 {
			t.Errorf("windowSize(%d) = %d, want %d", c.n, w, c.want)
		}
	}
}
