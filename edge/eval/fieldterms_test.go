package eval

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/cdaedge/cdaedge/edge/content"
	"github.com/cdaedge/cdaedge/edge/query"
	"github.com/cdaedge/cdaedge/snapshot"
	"github.com/cdaedge/cdaedge/snapshot/snapshottest"
)

// asFieldTerms rewrites every DisMax of q whose queries are all one text's Terms
// (each alone or under a Boost) as the query.FieldTerms that stands for it, counting
// the rewrites in n: of one text, and of several.
func asFieldTerms(q query.Query, n *[2]int) query.Query {
	switch q := q.(type) {
	case query.Bool:
		cs := make([]query.Clause, len(q.Clauses))
		for i, c := range q.Clauses {
			cs[i] = query.Clause{Occur: c.Occur, Query: asFieldTerms(c.Query, n)}
		}
		return query.Bool{Clauses: cs, MinimumShouldMatch: q.MinimumShouldMatch}
	case query.Boost:
		return query.Boost{Query: asFieldTerms(q.Query, n), Boost: q.Boost}
	case query.DisMax:
		if ft, ok := fieldTermsOf(q); ok {
			n[min(len(ft.Texts), 2)-1]++
			return ft
		}
		qs := make([]query.Query, len(q.Queries))
		for i, sub := range q.Queries {
			qs[i] = asFieldTerms(sub, n)
		}
		return query.DisMax{Queries: qs, TieBreaker: q.TieBreaker}
	}
	return q
}

// fieldTermsOf returns the FieldTerms that q is, if it is one: each sub-query (alone or
// under a Boost) one field's Term, or a Bool of its Terms, of the same texts (and
// occurrence) in every field.
func fieldTermsOf(q query.DisMax) (query.FieldTerms, bool) {
	ft := query.FieldTerms{TieBreaker: q.TieBreaker}
	boosted := false
	for i, sub := range q.Queries {
		w := 1.0
		if b, ok := sub.(query.Boost); ok {
			sub, w, boosted = b.Query, b.Boost, true
		}
		field, texts, occur, ok := termsOf(sub)
		if !ok || i > 0 && (!slices.Equal(texts, ft.Texts) || len(texts) > 1 && occur != ft.Occur) {
			return ft, false
		}
		ft.Texts, ft.Occur = texts, occur
		ft.Fields, ft.Boosts = append(ft.Fields, field), append(ft.Boosts, w)
	}
	if !boosted {
		ft.Boosts = nil
	}
	return ft, len(ft.Fields) > 0
}

// termsOf reads q as one field's Term, or a Bool of two or more of its Terms.
func termsOf(q query.Query) (field string, texts []string, occur query.Occur, ok bool) {
	switch q := q.(type) {
	case query.Term:
		return q.Field, []string{q.Text}, query.Should, !q.CaseInsensitive
	case query.Bool:
		if q.MinimumShouldMatch != 0 || len(q.Clauses) < 2 {
			return "", nil, 0, false
		}
		for i, c := range q.Clauses {
			t, isTerm := c.Query.(query.Term)
			if !isTerm || t.CaseInsensitive || i > 0 && (t.Field != field || c.Occur != occur) {
				return "", nil, 0, false
			}
			field, occur, texts = t.Field, c.Occur, append(texts, t.Text)
		}
		return field, texts, occur, true
	}
	return "", nil, 0, false
}

// randomFieldTerms makes a FieldTerms of one to four of topKWords over two to six of
// topKFields, with boosts, tie breakers and either occurrence.
func randomFieldTerms(r *rand.Rand) query.FieldTerms {
	q := query.FieldTerms{Occur: query.Should, TieBreaker: []float64{0, 0, 0.3, 1}[r.IntN(4)]}
	for range 1 + r.IntN(4) {
		q.Texts = append(q.Texts, topKWords[r.IntN(len(topKWords))])
	}
	for range 2 + r.IntN(5) {
		q.Fields = append(q.Fields, topKFields[r.IntN(len(topKFields))])
	}
	if r.IntN(4) == 0 {
		q.Occur = query.Must
	}
	if r.IntN(3) == 0 {
		for range q.Fields {
			q.Boosts = append(q.Boosts, []float64{1, 2, 0.5, 0}[r.IntN(4)])
		}
	}
	return q
}

// A FieldTerms answers as the DisMax it stands for, in both ways of evaluating: the
// same hits, scores bit for bit, totals, errors and work spent, also on budgets that run
// out part way; and its String is the DisMax's.
func TestFieldTermsAnswersAsItsDisMax(t *testing.T) {
	snap := genSnapshot(t, 1500)
	fast, full := topKAndNodeByNode(snap)
	r := rand.New(rand.NewPCG(21, 22))
	var rewritten [2]int
	for i := range 2000 {
		var q, ft query.Query
		var n [2]int
		if i%4 == 3 {
			// query_string's words over several fields, as the parser gives them.
			f := randomFieldTerms(r)
			q, ft = f.Expand(), f
			n[min(len(f.Texts), 2)-1] = 1
		} else {
			q = randomTopKQuery(r, snap)
			ft = asFieldTerms(q, &n)
		}
		if ft.String() != q.String() {
			t.Fatalf("case %d: %s prints as %s", i, ft, q)
		}
		if n == [2]int{} {
			continue
		}
		rewritten[0] += n[0]
		rewritten[1] += n[1]
		s := &query.Search{Query: q, From: r.IntN(21), Size: 1 + r.IntN(30), Sort: content.RelevanceOrder}
		sft := *s
		sft.Query = ft
		for _, e := range []*Evaluator{fast, full} {
			budget := int64(DefaultMaxSteps)
			if i%3 == 0 {
				budget = 1 + r.Int64N(2000)
			}
			e.SetMaxSteps(budget)
			want, got := searchOutcome(e, s), searchOutcome(e, &sft)
			e.SetMaxSteps(DefaultMaxSteps)
			if got != want {
				t.Fatalf("case %d (top-k %v, budget %d): %v:\nFieldTerms: %.400s\nDisMax:     %.400s", i, e == fast, budget, q, got, want)
			}
		}
	}
	// A pattern (which the parser never puts in a FieldTerms) is left to the
	// node-by-node way, which expands it.
	pattern := query.FieldTerms{Fields: []string{"Name", "Data.*"}, Texts: []string{"coffee"}, Occur: query.Should}
	if fast.planTopK(pattern, &(&tkScratch{}).plan) {
		t.Errorf("%v: taken by the top-k path", pattern)
	}
	s := &query.Search{Query: pattern, Size: 10, Sort: content.RelevanceOrder}
	if got, want := searchOutcome(fast, s), searchOutcome(full, &query.Search{Query: pattern.Expand(), Size: 10, Sort: content.RelevanceOrder}); got != want || !strings.Contains(got, "total") || strings.Contains(got, "total 0 ") {
		t.Errorf("a pattern's FieldTerms: %.200s, its DisMax %.200s", got, want)
	}
	words := query.FieldTerms{Fields: []string{"Name", "Data.body", "CreatedAt"}, Texts: []string{"coffee", "garden"}, Occur: query.Should}
	if !fast.planTopK(words, &(&tkScratch{}).plan) {
		t.Errorf("%v: not taken by the top-k path", words)
	}
	if rewritten[0] < 200 || rewritten[1] < 300 {
		t.Fatalf("the generated queries had only %d DisMax of one term and %d of several per field", rewritten[0], rewritten[1])
	}
}

// TestFieldTermsLooksWordsUpOnce checks the words a FieldTerms looks up in its fields'
// dictionaries (fieldTermsLookups), kept from one search to the next of the same list:
// every search answers as with a list the evaluator has not seen (looked up anew), as
// the kept words outgrow their bound; and over a snapshot read by index pages, a
// search that met missing pages answers right once they are provided.
func TestFieldTermsLooksWordsUpOnce(t *testing.T) {
	file := genSnapshotBytes(t, 1200)
	snap, err := snapshot.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	fields := append([]string(nil), topKFields...)
	words := append([]string{"42", "false"}, topKWords...)
	kept, fresh := NewEvaluator(snap), NewEvaluator(snap)
	kept.tk, fresh.tk = &tkScratch{}, &tkScratch{}
	r := rand.New(rand.NewPCG(5, 6))
	for i := range maxLookedUpWords + 300 {
		q := query.FieldTerms{Fields: fields, Occur: query.Should}
		for range 1 + r.IntN(3) {
			w := words[r.IntN(len(words))]
			switch r.IntN(4) {
			case 0, 1:
				w = fmt.Sprintf("w%d", i) // a new word: the kept ones outgrow their bound
			case 2:
				w = strings.Repeat("coffee", 11) // longer than a kept word may be
			}
			q.Texts = append(q.Texts, w)
		}
		s := &query.Search{Query: q, Size: 10, Sort: content.RelevanceOrder}
		anew := *s
		anew.Query = query.FieldTerms{Fields: slices.Clone(fields), Texts: q.Texts, Occur: q.Occur}
		if got, want := searchOutcome(kept, s), searchOutcome(fresh, &anew); got != want {
			t.Fatalf("search %d, %v: with the words kept %.300s, looked up anew %.300s", i, q.Texts, got, want)
		}
		if n := len(kept.ftFields.terms); n > maxLookedUpWords {
			t.Fatalf("%d words kept, more than %d", n, maxLookedUpWords)
		}
		for w := range kept.ftFields.terms {
			if len(w) > maxLookedUpWordBytes {
				t.Fatalf("a word of %d bytes kept", len(w))
			}
		}
	}

	part := snapshottest.OpenIndex(t, file)
	paged, whole := NewEvaluator(part), NewEvaluator(snap)
	paged.tk, whole.tk = &tkScratch{}, &tkScratch{}
	q := query.FieldTerms{Fields: fields, Texts: []string{"coffee", "garden"}, Occur: query.Should}
	s := &query.Search{Query: q, Size: 10, Sort: content.RelevanceOrder}
	want := searchOutcome(whole, s)
	for round := 0; ; round++ {
		got := searchOutcome(paged, s)
		missing := part.MissingBlocks(nil)
		if len(missing) == 0 {
			if got != want {
				t.Fatalf("by index pages: %.300s, want %.300s", got, want)
			}
			break
		}
		if round == 10 {
			t.Fatalf("pages still missing after %d rounds", round)
		}
		for _, b := range missing {
			if err := part.ProvideRange(b, file[b.Offset:b.Offset+int64(b.Length)]); err != nil {
				t.Fatal(err)
			}
		}
	}
}
