package eval

import (
	"strings"

	"github.com/cdaedge/cdaedge/edge/query"
	"github.com/cdaedge/cdaedge/snapshot"
)

// Full-text queries are mostly terms combined by a bool of should clauses (a query's
// words) and a dis_max (its fields). Evaluated node by node, every term gets an item
// set and a score array of the collection's size, which its parent then walks to merge.
// The fused ways below score such terms straight into their parent's array instead.
// They give the same sets and the same scores, bit for bit (float additions in the
// same order), and spend the same work steps in the same order as the node-by-node way.

// resolvedTerm is a Term query's field (nil when no item has it) and dictionary (the
// exact values for "<f>.keyword", else the analysed terms), and, when found, the
// query's term in it: term i.
type resolvedTerm struct {
	f       *snapshot.Field
	dict    *snapshot.TermDict // the field's own (a pointer: lookups pass this around)
	i       int
	keyword bool
	found   bool
}

// lookupTerm finds q's field, dictionary and term, as term reads them. A
// case-insensitive term is left unfound: term matches it another way.
func (e *Evaluator) lookupTerm(q query.Term) resolvedTerm {
	if at := e.replayAt; at < len(e.replay) && e.replay[at].q == q {
		e.replayAt++ // planTopK looked it up, in the same order (keepLookups)
		return e.replay[at].r
	}
	r := e.resolveField(q.Field)
	if r.f == nil || q.CaseInsensitive {
		return r
	}
	r.i, r.found = r.dict.Find(q.Text)
	return r
}

// resolveField finds the field and dictionary a term on field reads, as lookupTerm
// does; the result names no term yet.
func (e *Evaluator) resolveField(field string) resolvedTerm {
	base, keyword := strings.CutSuffix(field, ".keyword")
	r := resolvedTerm{f: e.snap.Field(base), keyword: keyword}
	if r.f == nil {
		return r
	}
	r.dict = r.f.TextDict()
	if keyword {
		r.dict = r.f.KeywordDict()
	}
	return r
}

// resolveTerm resolves q as term would, when term would score a dictionary's term or
// match nothing. ok is false for the terms term evaluates another way (case-insensitive,
// a typed value, a field pattern), which keep the node-by-node way.
func (e *Evaluator) resolveTerm(q query.Term) (r resolvedTerm, ok bool) {
	if q.CaseInsensitive || strings.Contains(q.Field, "*") {
		return r, false
	}
	r = e.lookupTerm(q)
	return r, scoresFromDict(r)
}

// scoresFromDict reports whether term evaluates the looked-up r from its dictionary
// (or matches nothing): not when a typed value of r's field may match instead.
func scoresFromDict(r resolvedTerm) bool {
	return r.f == nil || r.found || r.keyword || !r.f.HasValues()
}

// How termInto merges a term's scores into an array.
const (
	addUp    = false // a bool's should clauses: scores add up
	keepBest = true  // a dis_max without tie breaker: the best score stays
)

// termInto scores the resolved term r into out (whose set and scores must exist), for
// a parent node that merges the way best says, spending one step for the term's node
// and its document frequency, as run and scoreTerm do.
func (e *Evaluator) termInto(out *scored, r resolvedTerm, boost float32, best bool) error {
	if err := e.spend(1); err != nil {
		return err
	}
	if !r.found {
		return nil
	}
	p := r.dict.Postings(r.i)
	if err := e.spend(p.DocFreq); err != nil {
		return err
	}
	st := e.stats(r.f, r.keyword)
	sc := e.newBM25(boost, idf(int64(p.DocFreq), st.docCount), st)
	set, scores, within, f := out.set, out.scores, e.within, r.f
	var docs, freqs [128]int32
	for {
		k := p.NextBlock(docs[:], freqs[:])
		if k == 0 {
			return nil
		}
		for j, d := range docs[:k] {
			doc := int(d)
			if within != nil && !within.has(doc) {
				continue
			}
			var s float32
			if r.keyword {
				s = sc.score(1, 1)
			} else {
				s = sc.score(float32(freqs[j]), f.Length(doc))
			}
			switch {
			case !best:
				scores[doc] += s // zero outside the set: 0 + s is s
			case s > scores[doc]: // scores are never negative
				scores[doc] = s
			}
			set.add(doc)
		}
	}
}

// maxFusedClauses bounds the terms sumTerms resolves before it starts (a bool's
// clauses are bounded by maxBoolClauses anyway).
const maxFusedClauses = 64

// sumTerms evaluates a bool of should clauses that are all terms (at least one of
// which must match) by adding each term's scores into one array. ok is false, with
// nothing spent, for any other bool.
func (e *Evaluator) sumTerms(q query.Bool, boost float32) (out scored, ok bool, err error) {
	if q.MinimumShouldMatch > 1 || len(q.Clauses) > maxFusedClauses {
		return scored{}, false, nil
	}
	var terms [maxFusedClauses]resolvedTerm
	matchable := false
	for i, c := range q.Clauses {
		t, isTerm := c.Query.(query.Term)
		if c.Occur != query.Should || !isTerm {
			return scored{}, false, nil
		}
		if terms[i], ok = e.resolveTerm(t); !ok {
			return scored{}, false, nil
		}
		matchable = matchable || terms[i].found
	}
	if matchable {
		out = scored{set: e.newSet(), scores: e.scoreBuffer()}
	}
	for _, r := range terms[:len(q.Clauses)] {
		if err := e.termInto(&out, r, boost, addUp); err != nil {
			return scored{}, true, err
		}
	}
	// The union of the clauses' items is charged as boolean charges it.
	if err := e.spend(e.unionSteps(len(q.Clauses))); err != nil {
		return scored{}, true, err
	}
	return out, true, nil
}
