package eval

import (
	"math"
	"strings"

	"github.com/cdaedge/cdaedge/edge/query"
	"github.com/cdaedge/cdaedge/snapshot"
)

// The top-k path (topk.go) takes full-text queries of a few shapes: terms combined by
// bools of should clauses and dis_max nodes (with boosts), alone or as the one must
// clause of a bool whose other clauses are filters. planTopK reads such a query into a
// plan without doing or charging any work; the plan then charges, step for step and in
// the same order, what the node-by-node evaluation (run and its fused ways) charges,
// and runs the filters as it does.

// tkOpKind is the kind of one operation of a plan's score program.
type tkOpKind uint8

const (
	tkOpLeaf tkOpKind = iota // push a term's score (0 where the item lacks it)
	tkOpSum                  // replace the top n values by their sum, in clause order
	tkOpMax                  // replace the top n values by dis_max's best plus tie × the rest
)

// tkOp is one operation of a score program: the node tree in post-order, so that an
// item's score is computed with the float operations, in the order, of the node-by-node
// evaluation.
type tkOp struct {
	kind tkOpKind
	n    int32   // children (tkOpSum, tkOpMax) or the leaf's index (tkOpLeaf)
	tie  float32 // tkMax's tie breaker
}

// tkCharge is one entry of a plan's work: steps to spend, or (filter >= 0) a filter
// clause of the root to run, as the node-by-node evaluation does at that point.
type tkCharge struct {
	steps  int
	filter int
}

// tkTerm is a leaf of a plan: a term found in its field's dictionary.
type tkTerm struct {
	field   *snapshot.Field
	dict    *snapshot.TermDict
	i       int
	keyword bool
	boost   float32
}

// tkPlan is a query read for the top-k path.
type tkPlan struct {
	terms   []tkTerm
	ops     []tkOp
	charges []tkCharge
	// filters are the root bool's filter clauses; termFilters says which are on one
	// term (run first, and then restricting the rest, as preFilter does).
	filters     []query.Query
	termFilters []bool
	restricted  bool
	// looked are the terms looked up in their dictionaries (lookupTerm), in order,
	// with what was found.
	looked []tkLookup
}

// tkLookup is a term looked up while planning, and what lookupTerm found.
type tkLookup struct {
	q query.Term
	r resolvedTerm
}

// maxTopKTerms bounds the terms a plan scores (each has a set of its items, of the
// collection's size, while the search runs); larger queries take the node-by-node way.
const maxTopKTerms = 64

// planTopK reads q into p (reset first); false when q is not of a shape the top-k path
// takes, or when evaluating it may fail otherwise than by running out of budget.
func (e *Evaluator) planTopK(q query.Query, p *tkPlan) bool {
	p.terms, p.ops, p.charges = p.terms[:0], p.ops[:0], p.charges[:0]
	p.filters, p.termFilters, p.restricted = p.filters[:0], p.termFilters[:0], false
	p.looked = p.looked[:0]
	if b, ok := q.(query.Bool); ok && hasRequired(b) {
		return e.planFiltered(b, p)
	}
	_, ok := e.planScorer(q, 1, p)
	return ok
}

// hasRequired reports whether b has a must or filter clause.
func hasRequired(b query.Bool) bool {
	for _, c := range b.Clauses {
		if c.Occur == query.Must || c.Occur == query.Filter {
			return true
		}
	}
	return false
}

// planFiltered plans a bool of one scoring must clause and filter clauses, charging as
// run and boolean do: the bool's step, its term filters first when they restrict the
// rest (preFilter), then the other clauses in order.
func (e *Evaluator) planFiltered(b query.Bool, p *tkPlan) bool {
	if len(b.Clauses) > maxBoolClauses || b.MinimumShouldMatch > 0 {
		return false
	}
	var must query.Query
	filters, musts := 0, 0
	for _, c := range b.Clauses {
		switch c.Occur {
		case query.Must:
			must = c.Query
			musts++
		case query.Filter:
			if isTermFilter(c) {
				filters++
			}
		default:
			return false
		}
	}
	if musts != 1 {
		return false
	}
	p.charges = append(p.charges, tkCharge{steps: 1, filter: -1})
	p.restricted = filters > 0
	for _, c := range b.Clauses {
		if c.Occur == query.Filter {
			p.filters = append(p.filters, c.Query)
			p.termFilters = append(p.termFilters, isTermFilter(c))
		}
	}
	if p.restricted {
		for i, isTerm := range p.termFilters {
			if isTerm {
				p.charges = append(p.charges, tkCharge{filter: i})
			}
		}
	}
	filter := 0
	for _, c := range b.Clauses {
		if c.Occur == query.Must {
			if _, ok := e.planScorer(must, 1, p); !ok {
				return false
			}
			continue
		}
		if !p.restricted || !p.termFilters[filter] {
			p.charges = append(p.charges, tkCharge{filter: filter})
		}
		filter++
	}
	return true
}

// planScorer plans the scoring node q under the product of enclosing boosts; live says
// whether any of its terms is found (a node without one scores nothing and is left out
// of the program: adding or comparing its zeros changes no score).
func (e *Evaluator) planScorer(q query.Query, boost float32, p *tkPlan) (live, ok bool) {
	if !p.enterNode() {
		return false, false
	}
	switch q := q.(type) {
	case query.Term:
		return e.planTerm(q, boost, p)
	case query.Boost:
		b, ok := scaledBoost(boost, q.Boost)
		if !ok {
			return false, false
		}
		return e.planScorer(q.Query, b, p)
	case query.Bool:
		return e.planShould(q, boost, p)
	case query.DisMax:
		op, ok := maxOp(q.TieBreaker)
		if !ok {
			return false, false
		}
		return e.planChildren(nil, q.Queries, op, boost, p)
	case query.FieldTerms:
		op, ok := maxOp(q.TieBreaker)
		if !ok {
			return false, false
		}
		return e.planFieldTerms(q, op, boost, p)
	}
	return false, false
}

// enterNode starts a node of the plan, as run (or termInto) starts evaluating one:
// false when the plan has maxTopKTerms terms already, else it charges the node's step.
func (p *tkPlan) enterNode() bool {
	if len(p.terms) >= maxTopKTerms {
		return false
	}
	p.charges = append(p.charges, tkCharge{steps: 1, filter: -1})
	return true
}

// scaledBoost is boost under a Boost node of weight w, and whether the top-k path takes
// it: w neither negative nor NaN, and every score kept finite (finiteWeight).
func scaledBoost(boost float32, w float64) (float32, bool) {
	b := boost * float32(w)
	return b, w >= 0 && finiteWeight(b)
}

// maxOp is the dis_max operation of tie breaker tie, and whether the top-k path takes
// it (a tie breaker from 0 to 1).
func maxOp(tie float64) (tkOp, bool) {
	t := float32(tie)
	return tkOp{kind: tkOpMax, tie: t}, t >= 0 && t <= 1
}

// planFieldTerms plans q as planChildren plans the DisMax it stands for (its step is
// q's), field by field, without building that DisMax.
func (e *Evaluator) planFieldTerms(q query.FieldTerms, op tkOp, boost float32, p *tkPlan) (live, ok bool) {
	fields, pattern := e.fieldTermsFields(q.Fields)
	if pattern {
		return false, false // not a FieldTerms the parser makes: run expands its patterns
	}
	words := e.ftWords[:0] // whether each text is a word: the same in every field
	found := e.ftTerms[:0] // each text's term in each field
	for _, t := range q.Texts {
		words = append(words, isWord(t))
		found = append(found, e.fieldTermsLookups(t, fields))
	}
	e.ftWords, e.ftTerms = words, found
	var kids tkKids
	for i := range q.Fields {
		ops, terms := len(p.ops), len(p.terms)
		l, ok := e.planFieldQuery(q, i, fields[i], words, found, boost, p)
		if !ok {
			return false, false
		}
		kids.add(p, ops, terms, l)
	}
	return kids.close(p, op), true
}

// planFieldQuery plans field i's query of a FieldTerms (the field resolved, words
// saying which texts are words, and found their terms: fieldTermsLookups) as
// planScorer plans it: under a Boost node when the field's boost is not 1, its Term, or
// the Bool of its Terms as planShould plans it; the same checks and steps, in order.
func (e *Evaluator) planFieldQuery(q query.FieldTerms, i int, field resolvedTerm, words []bool, found [][]int32, boost float32, p *tkPlan) (live, ok bool) {
	if w := q.Boost(i); w != 1 {
		if !p.enterNode() { // the Boost
			return false, false
		}
		if boost, ok = scaledBoost(boost, w); !ok {
			return false, false
		}
	}
	if len(q.Texts) == 1 {
		return e.planFieldTerm(q.Fields[i], field, q.Texts[0], words[0], found[0][i], boost, p)
	}
	if !p.enterNode() { // the Bool
		return false, false
	}
	if len(q.Texts) > maxBoolClauses || q.Occur != query.Should {
		return false, false
	}
	var kids tkKids
	for j, t := range q.Texts {
		ops, terms := len(p.ops), len(p.terms)
		l, ok := e.planFieldTerm(q.Fields[i], field, t, words[j], found[j][i], boost, p)
		if !ok {
			return false, false
		}
		kids.add(p, ops, terms, l)
	}
	live = kids.close(p, tkOp{kind: tkOpSum})
	p.charges = append(p.charges, tkCharge{steps: e.unionSteps(len(q.Texts)), filter: -1})
	return live, true
}

// planFieldTerm plans the Term of text on name, whose field is resolved already
// (fieldTermsFields) and its term looked up (at, fieldTermsLookups), as planScorer
// plans a Term.
func (e *Evaluator) planFieldTerm(name string, field resolvedTerm, text string, word bool, at int32, boost float32, p *tkPlan) (live, ok bool) {
	if !p.enterNode() { // the Term
		return false, false
	}
	q, r := query.Term{Field: name, Text: text}, field
	if r.f != nil {
		r.i, r.found = int(at), at >= 0
		if at < 0 {
			r.i = int(^at)
		}
	}
	p.looked = append(p.looked, tkLookup{q: q, r: r})
	if !scoresFromDict(r) {
		return false, word // planLookedUp's answer, with isWord(text) worked out once
	}
	return e.planLookedUp(q, r, true, boost, p)
}

// fieldTermsFields returns the fields and dictionaries of names (resolveField), the
// Fields of a FieldTerms, and whether a name is a pattern. The last list is kept with
// them: a query over every field names the same list, the snapshot's own, in every
// request and every word; and the list itself is kept, so that no other list can take
// its place in memory.
func (e *Evaluator) fieldTermsFields(names []string) ([]resolvedTerm, bool) {
	c := &e.ftFields
	if len(c.names) != len(names) || len(names) == 0 || &c.names[0] != &names[0] {
		c.names, c.fields, c.pattern = names, c.fields[:0], false
		clear(c.terms)
		for _, name := range names {
			c.fields = append(c.fields, e.resolveField(name))
			c.pattern = c.pattern || strings.Contains(name, "*")
		}
	}
	return c.fields, c.pattern
}

// maxLookedUpWords bounds the words fieldTermsLookups keeps, and maxLookedUpWordBytes
// the length of a word it keeps: 1,024 words over 56 fields take about 300 KB, however
// long the words a client sends.
const (
	maxLookedUpWords     = 1024
	maxLookedUpWordBytes = 64
)

// fieldTermsLookups returns text's term in each of fields (those of the last list,
// fieldTermsFields): its index in the field's dictionary, or ^ the index Find gives
// when the field has no such term. A word is looked up once per list: a query over
// every field looks each word up in 56 dictionaries, and the words of searches repeat
// (at 10k generated items, two words took the TinyGo module 40 µs of lookups in a
// 200 µs search). Lookups that read missing index pages are not kept (the request
// runs again once the pages are provided), nor words over maxLookedUpWordBytes.
func (e *Evaluator) fieldTermsLookups(text string, fields []resolvedTerm) []int32 {
	c := &e.ftFields
	if found, ok := c.terms[text]; ok {
		return found
	}
	misses := e.snap.PageMisses()
	found := make([]int32, len(fields))
	for i, r := range fields {
		found[i] = -1
		if r.f != nil {
			at, ok := r.dict.Find(text)
			found[i] = int32(at)
			if !ok {
				found[i] = ^int32(at)
			}
		}
	}
	if e.snap.PageMisses() == misses && len(text) <= maxLookedUpWordBytes {
		if c.terms == nil || len(c.terms) >= maxLookedUpWords {
			c.terms = make(map[string][]int32)
		}
		c.terms[strings.Clone(text)] = found
	}
	return found
}

// tkKids keeps count of the children of a sum or dis_max node being planned: a child
// with no term found scores nothing and leaves the program (planChildren).
type tkKids struct{ kept int }

// add records a child planned from ops and terms (the program's lengths before it).
func (k *tkKids) add(p *tkPlan, ops, terms int, live bool) {
	if !live {
		p.ops, p.terms = p.ops[:ops], p.terms[:terms]
		return
	}
	k.kept++
}

// close ends the node: op over the children kept, or the one child itself; it reports
// whether any child was kept.
func (k *tkKids) close(p *tkPlan, op tkOp) bool {
	if k.kept > 1 {
		op.n = int32(k.kept)
		p.ops = append(p.ops, op)
	}
	return k.kept > 0
}

// planTerm plans a term as term and termInto evaluate it: a found term's postings
// are charged (its document frequency); a missing field or term scores nothing.
func (e *Evaluator) planTerm(q query.Term, boost float32, p *tkPlan) (live, ok bool) {
	r, ok := e.resolveTerm(q)
	if !q.CaseInsensitive && !strings.Contains(q.Field, "*") { // resolveTerm looked it up
		p.looked = append(p.looked, tkLookup{q: q, r: r})
	}
	return e.planLookedUp(q, r, ok, boost, p)
}

// isWord reports whether text cannot read as a typed value: a number or a boolean.
func isWord(text string) bool { return !numberLike(text) && text != "true" && text != "false" }

// planLookedUp is planTerm once q is resolved to r (ok: as resolveTerm says).
func (e *Evaluator) planLookedUp(q query.Term, r resolvedTerm, ok bool, boost float32, p *tkPlan) (live, okPlan bool) {
	if !ok {
		// A word on a field of typed values (a date, a number) that cannot read as one
		// matches nothing: term tries typedEquals, which gives up on it.
		return false, !q.CaseInsensitive && !strings.Contains(q.Field, "*") && isWord(q.Text)
	}
	if r.f == nil || !r.found {
		return false, true
	}
	docFreq := r.dict.Postings(r.i).DocFreq
	p.charges = append(p.charges, tkCharge{steps: docFreq, filter: -1})
	if docFreq == 0 {
		return false, true
	}
	p.ops = append(p.ops, tkOp{kind: tkOpLeaf, n: int32(len(p.terms))})
	p.terms = append(p.terms, tkTerm{field: r.f, dict: r.dict, i: r.i, keyword: r.keyword, boost: boost})
	return true, true
}

// planShould plans a bool of should clauses (at least one matching), the shape of a
// query's words: the clauses, then the union of their items, charged as boolean and
// sumTerms charge it.
func (e *Evaluator) planShould(q query.Bool, boost float32, p *tkPlan) (live, ok bool) {
	if len(q.Clauses) == 0 || len(q.Clauses) > maxBoolClauses || q.MinimumShouldMatch < 0 || q.MinimumShouldMatch > 1 {
		return false, false
	}
	for _, c := range q.Clauses {
		if c.Occur != query.Should {
			return false, false
		}
	}
	live, ok = e.planChildren(q.Clauses, nil, tkOp{kind: tkOpSum}, boost, p)
	p.charges = append(p.charges, tkCharge{steps: e.unionSteps(len(q.Clauses)), filter: -1})
	return live, ok
}

// planChildren plans the children of a sum (a bool's clauses) or dis_max node op (its
// queries), keeping only those with a term found; a node left with one child is that
// child (its one score is the node's: x + 0 and max(0, x) + tie × 0 are x).
func (e *Evaluator) planChildren(clauses []query.Clause, queries []query.Query, op tkOp, boost float32, p *tkPlan) (live, ok bool) {
	var kids tkKids
	for i := range len(clauses) + len(queries) {
		var child query.Query
		if clauses != nil {
			child = clauses[i].Query
		} else {
			child = queries[i]
		}
		ops, terms := len(p.ops), len(p.terms)
		l, ok := e.planScorer(child, boost, p)
		if !ok {
			return false, false
		}
		kids.add(p, ops, terms, l)
	}
	return kids.close(p, op), true
}

// finiteWeight reports whether boost w keeps every score finite: sums of a bounded
// number of scores below 2^100 cannot overflow float32, and the top-k path's bounds
// assume finite, ordered scores.
func finiteWeight(w float32) bool { return w >= 0 && w < 0x1p100 }

// chargeTopK spends p's work in the node-by-node order and runs the root's filters,
// returning their intersection (nil when the root has none).
func (e *Evaluator) chargeTopK(p *tkPlan) (filter docSet, hasFilter bool, err error) {
	// Cleared after, rather than by a deferred closure, which the TinyGo module
	// allocates on every search.
	filter, hasFilter, err = e.runCharges(p)
	e.within = nil   // the root's: nothing encloses it
	clear(p.filters) // the request's queries are not kept past it
	return filter, hasFilter, err
}

// runCharges is chargeTopK before its cleanup.
func (e *Evaluator) runCharges(p *tkPlan) (filter docSet, hasFilter bool, err error) {
	firstTerm := true
	for _, c := range p.charges {
		if c.filter < 0 {
			if err := e.spend(c.steps); err != nil {
				return nil, false, err
			}
			continue
		}
		restricting := p.restricted && p.termFilters[c.filter]
		if p.restricted && !restricting && firstTerm {
			// preFilter is done: the other clauses run within its set.
			firstTerm = false
			if filter == nil {
				filter = e.newSet()
			}
			e.within = filter
		}
		sub, err := e.run(p.filters[c.filter], false, 1)
		if err != nil {
			return nil, false, err
		}
		switch {
		case !hasFilter:
			filter, hasFilter = sub.set, true
		default:
			filter.and(sub.set)
		}
	}
	if hasFilter && filter == nil {
		filter = e.newSet()
	}
	return filter, hasFilter, nil
}

// bound is an upper bound of the term's score in items where its frequency is at most
// freq and its norm factor (the cache's value) at most factor: BM25 grows with both,
// in float32 as computed, since every rounding step is monotone.
func (s *bm25Scorer) bound(freq, factor float32) float32 {
	return s.weight - s.weight/float32(1+float32(freq*factor))
}

// inflate widens a bound by a few units in the last place, so that no rounding of the
// composed bounds (tie breakers, fused multiply-adds) can leave one below a score.
func inflate(b float32) float32 {
	if b <= 0 {
		return 0
	}
	return float32(b*(1+0x1p-16)) + math.SmallestNonzeroFloat32
}
