package eval

import (
	"slices"
	"strings"

	"github.com/cdaedge/cdaedge/edge"
	"github.com/cdaedge/cdaedge/edge/query"
	"github.com/cdaedge/cdaedge/snapshot"
)

// phraseSlot is one position of a phrase: the terms that may stand there (several for
// an expanded prefix) and the position relative to the phrase's start.
type phraseSlot struct {
	terms  []string
	offset int
}

// phraseSlots groups terms by position; terms at the same position are alternatives.
// last, when non-nil, replaces the terms of the final slot (a prefix's expansions).
func phraseSlots(terms []string, positions []int, last []string) []phraseSlot {
	var slots []phraseSlot
	for i, t := range terms {
		p := i
		if i < len(positions) {
			p = positions[i]
		}
		if k := len(slots); k > 0 && slots[k-1].offset == p {
			slots[k-1].terms = append(slots[k-1].terms, t)
			continue
		}
		slots = append(slots, phraseSlot{terms: []string{t}, offset: p})
	}
	if last != nil && len(slots) > 0 {
		slots[len(slots)-1].terms = last
	}
	return slots
}

// cursor walks one term's postings forward to requested items.
type cursor struct {
	p   snapshot.Postings
	doc int
}

func (c *cursor) advance(target int) bool {
	for c.doc < target {
		c.doc = c.p.Next()
		if c.doc < 0 {
			c.doc = int(^uint(0) >> 1)
			return false
		}
	}
	return c.doc == target
}

// phrase evaluates a phrase (Lucene's PhraseQuery and MultiPhraseQuery): exact with slop
// 0, otherwise Lucene's sloppy matching, where each match within slop counts
// 1/(1+distance) towards the phrase frequency that BM25 scores.
func (e *Evaluator) phrase(field string, slots []phraseSlot, slop int, scoring bool, boost float32) (scored, error) {
	none := scored{set: newDocSet(e.n)}
	base, keyword := strings.CutSuffix(field, ".keyword")
	f := e.snap.Field(base)
	if f == nil || len(slots) == 0 {
		return none, nil
	}
	if keyword {
		// Exact values are single terms, indexed without positions: a phrase of one
		// term is that term, and one of several (which an analyzer named in the
		// request makes) cannot run, as in Lucene.
		if len(slots) > 1 {
			return scored{}, edge.Errorf(edge.CodeInvalidQuery,
				"field [%s] is indexed without positions (an exact form): a phrase of several terms cannot run on it", edge.Clip(field))
		}
		return e.term(query.Term{Field: field, Text: slots[0].terms[0]}, scoring, boost)
	}
	dict := f.Text()
	cursors := make([][]cursor, len(slots))
	var idfSum float64
	candidates := newDocSet(e.n)
	for i, s := range slots {
		union := newDocSet(e.n)
		for _, t := range s.terms {
			ti, ok := dict.Find(t)
			if !ok {
				continue
			}
			p := dict.Postings(ti)
			if err := e.spend(p.DocFreq); err != nil {
				return scored{}, err
			}
			idfSum += float64(idf(int64(p.DocFreq), int64(f.TextDocCount())))
			for doc := p.Next(); doc >= 0; doc = p.Next() {
				union.add(doc)
			}
			cursors[i] = append(cursors[i], cursor{p: dict.Postings(ti), doc: -1})
		}
		if len(cursors[i]) == 0 {
			return none, nil
		}
		if i == 0 {
			candidates = union
		} else {
			candidates.and(union)
		}
	}
	out := scored{set: newDocSet(e.n)}
	var sc bm25Scorer
	if scoring {
		st := e.stats(f, false)
		sc = e.newBM25(boost, float32(idfSum), st)
		out.scores = e.scoreBuffer()
	}
	lists := make([][]int, len(slots))
	var sloppy *sloppyPhrase
	if slop > 0 {
		sloppy = newSloppyPhrase(slots, slop)
	}
	var err error
	candidates.forEach(func(doc int) {
		if err != nil {
			return
		}
		steps := 0
		for i, s := range slots {
			lists[i] = lists[i][:0]
			for j := range cursors[i] {
				c := &cursors[i][j]
				if !c.advance(doc) {
					continue
				}
				for pos := c.p.NextPosition(); pos >= 0; pos = c.p.NextPosition() {
					lists[i] = append(lists[i], pos-s.offset)
				}
			}
			if len(cursors[i]) > 1 {
				slices.SortFunc(lists[i], compareInts) // shares sort.go's instantiation
			}
			steps += len(lists[i])
		}
		if err = e.spend(steps); err != nil {
			return
		}
		var freq float32
		if slop == 0 {
			freq = exactPhraseFreq(lists)
		} else {
			freq = sloppy.freq(lists)
		}
		if freq == 0 {
			return
		}
		out.set.add(doc)
		if scoring {
			out.scores[doc] = sc.score(freq, f.Length(doc))
		}
	})
	return out, err
}

// exactPhraseFreq counts the start positions that every slot's list holds (positions are
// already shifted by their slot's offset).
func exactPhraseFreq(lists [][]int) float32 {
	var freq float32
	idx := make([]int, len(lists))
	for _, p := range lists[0] {
		all := true
		for i := 1; i < len(lists); i++ {
			for idx[i] < len(lists[i]) && lists[i][idx[i]] < p {
				idx[i]++
			}
			if idx[i] == len(lists[i]) || lists[i][idx[i]] != p {
				all = false
				break
			}
		}
		if all {
			freq++
		}
	}
	return freq
}

// phrasePrefix expands the last term as a prefix to at most MaxExpansions terms (in term
// order) and matches the phrase with those alternatives (match_phrase_prefix). A
// phrase of one term is those terms, each scored as itself, as Lucene rewrites a
// MultiPhraseQuery of one position.
func (e *Evaluator) phrasePrefix(q query.PhrasePrefix, scoring bool, boost float32) (scored, error) {
	if len(q.Terms) == 0 {
		return scored{set: newDocSet(e.n)}, nil
	}
	dict, ok := e.multiTermDict(q.Field)
	if !ok {
		return scored{set: newDocSet(e.n)}, nil
	}
	max := q.MaxExpansions
	if max <= 0 {
		max = 50
	}
	prefix := q.Terms[len(q.Terms)-1]
	// The iterator's terms last until its next term: the expansions are copied, end to
	// end into one buffer, then cut from one string.
	var buf []byte
	var ends []int
	start, _ := dict.Find(prefix)
	for it := e.termsFrom(dict, start); len(ends) < max && it.Next(); {
		t := it.Term()
		if !strings.HasPrefix(t, prefix) {
			break
		}
		buf = append(buf, t...)
		ends = append(ends, len(buf))
	}
	if len(ends) == 0 {
		return scored{set: newDocSet(e.n)}, nil
	}
	all, expansions, from := string(buf), make([]string, len(ends)), 0
	for k, end := range ends {
		expansions[k], from = all[from:end], end
	}
	if len(q.Terms) == 1 {
		clauses := make([]query.Clause, len(expansions))
		for k, t := range expansions {
			clauses[k] = query.Clause{Occur: query.Should, Query: query.Term{Field: q.Field, Text: t}}
		}
		return e.run(query.Bool{Clauses: clauses}, scoring, boost)
	}
	return e.phrase(q.Field, phraseSlots(q.Terms, q.Positions, expansions), q.Slop, scoring, boost)
}
