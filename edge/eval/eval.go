package eval

import (
	"cmp"
	"math/bits"
	"sort"
	"strconv"
	"strings"

	"github.com/cdaedge/cdaedge/edge"
	"github.com/cdaedge/cdaedge/edge/datetime"
	"github.com/cdaedge/cdaedge/edge/query"
	"github.com/cdaedge/cdaedge/snapshot"
	"github.com/tidwall/match"
)

// scored is what evaluating one query node yields: the matching items and, when the
// caller asked for them, a score per item (indexed by item number; nil means zero).
type scored struct {
	set    docSet
	scores []float32
	// uniform: every item of set has the same score (a constant-score node), so that
	// ranking by score leaves them in item order.
	uniform bool
}

// run evaluates q. boost is the product of the enclosing Boost nodes; Lucene multiplies
// it into each leaf's weight, and so do we, so that scores round as Lucene's do.
func (e *Evaluator) run(q query.Query, scoring bool, boost float32) (scored, error) {
	if err := e.spend(1); err != nil {
		return scored{}, err
	}
	if fq, ok := q.(query.Fielded); ok && !e.literalFields && strings.Contains(fq.FieldName(), "*") {
		return e.runFieldPattern(fq, scoring, boost)
	}
	switch q := q.(type) {
	case nil, query.MatchAll:
		return e.constant(newDocSet(e.n).fill(e.n), scoring, boost), nil
	case query.MatchNone:
		return scored{set: newDocSet(e.n)}, nil
	case query.Term:
		return e.term(q, scoring, boost)
	case query.Bool:
		return e.boolean(q, scoring, boost)
	case query.Range:
		set, err := e.rangeSet(q)
		return e.constant(set, scoring, boost), err
	case query.Exists:
		return e.constant(e.existsSet(q.Field), scoring, boost), nil
	case query.IDs:
		set := newDocSet(e.n)
		for _, id := range q.Values {
			if doc, ok := e.snap.Lookup(id); ok {
				set.add(doc)
			}
		}
		return e.constant(set, scoring, boost), nil
	case query.Phrase:
		return e.phrase(q.Field, phraseSlots(q.Terms, q.Positions, nil), q.Slop, scoring, boost)
	case query.PhrasePrefix:
		return e.phrasePrefix(q, scoring, boost)
	case query.Prefix, query.Wildcard, query.Regexp:
		set, err := e.multiTermSet(q)
		return e.constant(set, scoring, boost), err
	case query.Fuzzy:
		return e.fuzzy(q, scoring, boost)
	case query.Boost:
		if q.Boost < 0 {
			return scored{}, edge.Errorf(edge.CodeInvalidArgument, "boost must not be negative, got %v", q.Boost)
		}
		return e.run(q.Query, scoring, boost*float32(q.Boost))
	case query.ConstantScore:
		inner, err := e.run(q.Query, false, 1)
		return e.constant(inner.set, scoring, boost), err
	case query.DisMax:
		return e.disMax(q, scoring, boost)
	case query.FieldTerms:
		// Node by node, as the DisMax it stands for (this step is the DisMax's); the
		// top-k path, which full-text searches take, plans it without expanding it.
		return e.disMax(q.Expand(), scoring, boost)
	}
	return scored{}, edge.Errorf(edge.CodeInternal, "unsupported query node %s", q)
}

// constant gives every item of set the score boost (Lucene's ConstantScoreQuery).
func (e *Evaluator) constant(set docSet, scoring bool, boost float32) scored {
	if !scoring {
		return scored{set: set}
	}
	scores := e.scoreBuffer()
	set.forEach(func(doc int) { scores[doc] = boost })
	return scored{set: set, scores: scores, uniform: true}
}

// unionSteps is the work charged for combining the item sets of n clauses (a union or
// an intersection): a step per word of each set. boolean charges it, and the fused and
// top-k ways charge the same.
func (e *Evaluator) unionSteps(n int) int { return n * ((e.n + 63) / 64) }

func (e *Evaluator) boolean(q query.Bool, scoring bool, boost float32) (scored, error) {
	if len(q.Clauses) > maxBoolClauses {
		return scored{}, edge.Errorf(edge.CodeTooComplex, "a bool query has %d clauses; the limit is %d", len(q.Clauses), maxBoolClauses)
	}
	if len(q.Clauses) == 0 {
		// Elasticsearch reads an empty bool as match_all ("an empty array returns all items").
		return e.constant(newDocSet(e.n).fill(e.n), scoring, boost), nil
	}
	if scoring && !e.unfused {
		if out, ok, err := e.sumTerms(q, boost); ok {
			return out, err
		}
	}
	var out scored
	required := false
	var should []scored
	pre, restricted := e.preFilter(q, scoring)
	if restricted {
		if pre.err != nil {
			return scored{}, pre.err
		}
		out.set, required = pre.set, true
		saved := e.within
		e.within = pre.set
		defer func() { e.within = saved }()
	}
	// touched collects the items whose scores were added, when some of them may fall
	// outside the final set: a score array is zero outside its set (see release).
	var touched docSet
	for _, c := range q.Clauses {
		if c.Occur == query.MustNot || restricted && isTermFilter(c) {
			continue
		}
		sub, err := e.run(c.Query, scoring && c.Occur != query.Filter, boost)
		if err != nil {
			return scored{}, err
		}
		switch c.Occur {
		case query.Must, query.Filter:
			if scoring && sub.scores != nil {
				if touched == nil {
					touched = e.newSet()
				}
				touched.or(sub.set)
				out.scores = e.addScores(out.scores, sub)
			}
			if !required {
				out.set = sub.set
				required = true
			} else {
				out.set.and(sub.set)
				e.releaseSet(sub.set)
			}
		case query.Should:
			should = append(should, sub)
		}
	}
	minShould := q.MinimumShouldMatch
	if minShould == 0 && !required && len(should) > 0 {
		minShould = 1
	}
	// exact: out.set is exactly the items whose scores were added (nothing to zero).
	exact := false
	if !required {
		// A query of only must_not clauses matches nothing, as in Lucene; front-ends that
		// want Elasticsearch's "everything but" add a match_all filter (and print it).
		if len(should) == 0 {
			return scored{}, nil
		}
		if minShould == 1 {
			// The items of any should clause: their union, built directly (the same work
			// is charged as intersecting every item with it).
			if err := e.spend(e.unionSteps(len(should))); err != nil {
				return scored{}, err
			}
			for _, s := range should {
				if s.set == nil {
					continue // no items: nothing to add (and no set to make, if none has any)
				}
				if out.set == nil {
					out.set = e.newSet()
				}
				out.set.or(s.set)
			}
			minShould, exact = 0, !hasMustNot(q)
		} else {
			out.set = newDocSet(e.n).fill(e.n)
		}
	}
	if minShould > 0 {
		if err := e.spend(e.unionSteps(len(should))); err != nil {
			return scored{}, err
		}
		some := e.atLeast(should, minShould)
		out.set.and(some)
		e.releaseSet(some)
	}
	if scoring {
		touched = e.addShouldScores(&out, should, exact, touched)
	}
	for _, s := range should {
		e.releaseSet(s.set)
	}
	if err := e.excludeMustNot(q, out.set); err != nil {
		return scored{}, err
	}
	if touched != nil {
		if out.scores != nil {
			zeroOutside(out.scores, touched, out.set)
		}
		e.releaseSet(touched)
	}
	return out, nil
}

// excludeMustNot removes the items of q's must_not clauses from set.
func (e *Evaluator) excludeMustNot(q query.Bool, set docSet) error {
	for _, c := range q.Clauses {
		if c.Occur != query.MustNot {
			continue
		}
		sub, err := e.run(c.Query, false, 1)
		if err != nil {
			return err
		}
		set.andNot(sub.set)
		e.releaseSet(sub.set)
	}
	return nil
}

func hasMustNot(q query.Bool) bool {
	for _, c := range q.Clauses {
		if c.Occur == query.MustNot {
			return true
		}
	}
	return false
}

// preFiltered is the conjunction of a bool's term filters, evaluated first (never nil
// unless err is set).
type preFiltered struct {
	set docSet
	err error
}

// isTermFilter reports whether c is a filter on one term, which can fail only by
// running out of budget and so may run before the other clauses.
func isTermFilter(c query.Clause) bool {
	if c.Occur != query.Filter {
		return false
	}
	q := c.Query
	if cs, ok := q.(query.ConstantScore); ok {
		q = cs.Query
	}
	t, ok := q.(query.Term)
	return ok && !strings.Contains(t.Field, "*")
}

// preFilter drives a scoring conjunction by its filters: when a bool that scores has
// filter clauses on one term (a template, a status) beside other clauses, it matches
// those first, and the others then score only the items that passed (e.within), as
// Lucene leads a conjunction with its rarest clause. The answer is the same: every
// other item is dropped by the intersection anyway. ok is false when the bool has no
// such filters or nothing to score.
func (e *Evaluator) preFilter(q query.Bool, scoring bool) (preFiltered, bool) {
	if !scoring {
		return preFiltered{}, false
	}
	filters, others := 0, 0
	for _, c := range q.Clauses {
		switch {
		case isTermFilter(c):
			filters++
		case c.Occur != query.MustNot && c.Occur != query.Filter:
			others++
		}
	}
	if filters == 0 || others == 0 {
		return preFiltered{}, false
	}
	var set docSet
	first := true
	for _, c := range q.Clauses {
		if !isTermFilter(c) {
			continue
		}
		sub, err := e.run(c.Query, false, 1)
		if err != nil {
			return preFiltered{err: err}, true
		}
		if first {
			set, first = sub.set, false
		} else {
			set.and(sub.set)
			e.releaseSet(sub.set)
		}
	}
	if set == nil {
		set = e.newSet() // no item passes; the other clauses still run, for their errors
	}
	if e.within != nil {
		set.and(e.within)
	}
	return preFiltered{set: set}, true
}

// addShouldScores adds the should clauses' scores into out's, and returns touched grown
// by their items unless out.set is exactly those (exact).
func (e *Evaluator) addShouldScores(out *scored, should []scored, exact bool, touched docSet) docSet {
	for _, s := range should {
		if s.scores == nil {
			continue
		}
		if !exact {
			if touched == nil {
				touched = e.newSet()
			}
			touched.or(s.set)
		}
		out.scores = e.addScores(out.scores, s)
	}
	return touched
}

// zeroOutside zeroes the scores of the items in touched but not in keep.
func zeroOutside(scores []float32, touched, keep docSet) {
	for i, w := range touched {
		if i < len(keep) {
			w &^= keep[i]
		}
		if w == ^uint64(0) {
			clear(scores[i*64 : i*64+64])
			continue
		}
		for w != 0 {
			scores[i*64+bits.TrailingZeros64(w)] = 0
			w &= w - 1
		}
	}
}

// addScores adds the scores of src's matches into dst (nil: all zero) and releases
// src's buffer.
func (e *Evaluator) addScores(dst []float32, src scored) []float32 {
	if src.scores == nil {
		return dst
	}
	if dst == nil {
		// 0 + x is x: src's array becomes the sum (scores are never -0).
		return src.scores
	}
	src.set.forEach(func(doc int) { dst[doc] += src.scores[doc] })
	e.release(src)
	return dst
}

// atLeast returns the items that are in at least k of the sets.
func (e *Evaluator) atLeast(sets []scored, k int) docSet {
	out := e.newSet()
	if k > len(sets) {
		return out
	}
	if k == 1 {
		for _, s := range sets {
			out.or(s.set)
		}
		return out
	}
	counts := make([]uint16, e.n)
	for _, s := range sets {
		s.set.forEach(func(doc int) { counts[doc]++ })
	}
	for doc, c := range counts {
		if int(c) >= k {
			out.add(doc)
		}
	}
	return out
}

func (e *Evaluator) disMax(q query.DisMax, scoring bool, boost float32) (scored, error) {
	out := scored{set: e.newSet()}
	var sums []float32
	tie := float32(q.TieBreaker)
	if scoring {
		out.scores = e.scoreBuffer()
		if tie != 0 {
			sums = e.scoreBuffer()
		}
	}
	// Walk each sub-query's own matches (not every match times every sub-query): a
	// field pattern such as "*" makes dis_max over dozens of mostly sparse fields.
	for _, sub := range q.Queries {
		if t, ok := sub.(query.Term); ok && scoring && sums == nil && !e.unfused {
			if r, ok := e.resolveTerm(t); ok {
				if err := e.termInto(&out, r, boost, keepBest); err != nil {
					return scored{}, err
				}
				continue
			}
		}
		s, err := e.run(sub, scoring, boost)
		if err != nil {
			return scored{}, err
		}
		out.set.or(s.set)
		if s.scores != nil {
			s.set.forEach(func(doc int) {
				v := s.scores[doc]
				if v > out.scores[doc] {
					out.scores[doc] = v
				}
				if sums != nil {
					sums[doc] += v
				}
			})
			e.release(s)
		}
		e.releaseSet(s.set)
	}
	if sums != nil {
		out.set.forEach(func(doc int) { out.scores[doc] += tie * (sums[doc] - out.scores[doc]) })
		e.release(scored{set: out.set, scores: sums})
	}
	return out, nil
}

// term evaluates a Term: analysed terms of a text field, exact values of "<f>.keyword",
// or, on a field that holds numbers, booleans or dates, the typed value the text reads as
// (as Elasticsearch's term and query_string queries do on such fields).
func (e *Evaluator) term(q query.Term, scoring bool, boost float32) (scored, error) {
	r := e.lookupTerm(q)
	if r.f == nil {
		return scored{}, nil
	}
	if q.CaseInsensitive {
		set, err := e.expand(r.f.Keyword(), "", func(t string) bool { return strings.EqualFold(t, q.Text) })
		return e.constant(set, scoring, boost), err
	}
	if r.found {
		return e.scoreTerm(r.f, *r.dict, r.i, r.keyword, scoring, boost, -1)
	}
	if !r.keyword && r.f.HasValues() {
		if set, ok := e.typedEquals(r.f, q.Text); ok {
			return e.constant(set, scoring, boost), nil
		}
	}
	return scored{}, nil
}

// typedEquals matches the items whose typed value equals text read as the field's
// type: a date covers the whole unit it names (API.md D5), numbers compare
// numerically (10 equals 10.0, D4).
func (e *Evaluator) typedEquals(f *snapshot.Field, text string) (docSet, bool) {
	var lo, hi *query.Bound
	// Words (most texts) read as neither: skip the parsers, whose errors allocate.
	numeric := numberLike(text)
	inst, derr := datetime.Instant{}, error(nil)
	num, nerr := 0.0, error(nil)
	if numeric {
		inst, derr = datetime.Parse(text)
		num, nerr = strconv.ParseFloat(text, 64)
	}
	if numeric && derr == nil && e.fieldKind(f) == snapshot.KindDate {
		lo = &query.Bound{Value: query.Scalar{Kind: query.ScalarDate, Millis: inst.Millis}, Inclusive: true}
		hi = &query.Bound{Value: query.Scalar{Kind: query.ScalarDate, Millis: inst.End()}}
	} else if numeric && nerr == nil {
		b := &query.Bound{Value: query.Scalar{Kind: query.ScalarNumber, Number: num}, Inclusive: true}
		lo, hi = b, b
	} else if text == "true" || text == "false" {
		b := &query.Bound{Value: query.Scalar{Kind: query.ScalarBool, Bool: text == "true"}, Inclusive: true}
		lo, hi = b, b
	} else {
		return nil, false
	}
	return e.valueRange(f, lo, hi), true
}

// numberLike reports whether text may read as a date or a number: both need a digit,
// but for strconv.ParseFloat's infinities and NaN.
func numberLike(text string) bool {
	for i := 0; i < len(text); i++ {
		if '0' <= text[i] && text[i] <= '9' {
			return true
		}
	}
	t := strings.TrimLeft(text, "+-")
	return strings.EqualFold(t, "inf") || strings.EqualFold(t, "infinity") || strings.EqualFold(t, "nan")
}

// fieldKind is the kind of the field's first typed value (0 when it has none), found
// once per field: a field that few items have takes a scan of the collection.
func (e *Evaluator) fieldKind(f *snapshot.Field) snapshot.ValueKind {
	if k, ok := e.kinds[f.Name()]; ok {
		return k
	}
	var kind snapshot.ValueKind
	for doc := 0; doc < e.n; doc++ {
		e.vals = f.Values(e.vals[:0], doc)
		if len(e.vals) > 0 {
			kind = e.vals[0].Kind
			break
		}
	}
	if e.kinds == nil {
		e.kinds = map[string]snapshot.ValueKind{}
	}
	e.kinds[f.Name()] = kind
	return kind
}

func (e *Evaluator) existsSet(field string) docSet {
	set := newDocSet(e.n)
	f := e.snap.Field(strings.TrimSuffix(field, ".keyword"))
	if f == nil {
		return set
	}
	for doc := 0; doc < e.n; doc++ {
		if f.RankAsc(doc) != snapshot.NoRank || f.Length(doc) != 0 {
			set.add(doc)
		}
	}
	return set
}

// rangeSet evaluates a Range: on a text field over its analysed terms (textRange),
// otherwise over typed values. Bounds given as text are read as the field's type: dates
// for date fields (a day or a second means its start, API.md D12), numbers for
// number fields, else (exact values) compared as strings in byte order.
func (e *Evaluator) rangeSet(q query.Range) (docSet, error) {
	if set, ok, err := e.textRange(q); ok {
		return set, err // a text field: its analysed terms (textrange.go)
	}
	f := e.snap.Field(strings.TrimSuffix(q.Field, ".keyword"))
	if f == nil || !f.HasValues() {
		return newDocSet(e.n), nil
	}
	kind := e.fieldKind(f)
	lo, err := coerceBound(q.Lower, kind, q.Field)
	if err != nil {
		return nil, err
	}
	hi, err := coerceBound(q.Upper, kind, q.Field)
	if err != nil {
		return nil, err
	}
	if err := e.spend(e.n); err != nil {
		return nil, err
	}
	return e.valueRange(f, lo, hi), nil
}

func coerceBound(b *query.Bound, kind snapshot.ValueKind, field string) (*query.Bound, error) {
	if b == nil || b.Value.Kind != query.ScalarString {
		return b, nil
	}
	out := *b
	// Text is the bound as the user wrote it; Str may be lower-cased for term
	// comparison (API.md D12), which a date like 2021-04-23T10:00:00Z must not be.
	src := b.Value.Text
	if src == "" {
		src = b.Value.Str
	}
	switch kind {
	case snapshot.KindDate:
		inst, err := datetime.Parse(src)
		if err != nil {
			return nil, edge.Wrap(err, edge.CodeInvalidArgument, "range on %s: %v", field, err)
		}
		out.Value = query.Scalar{Kind: query.ScalarDate, Millis: inst.Millis, Text: b.Value.Text}
	case snapshot.KindNumber:
		num, err := strconv.ParseFloat(src, 64)
		if err != nil {
			return nil, edge.Errorf(edge.CodeInvalidArgument, "range on %s: %q is not a number", field, edge.Clip(src))
		}
		out.Value = query.Scalar{Kind: query.ScalarNumber, Number: num, Text: b.Value.Text}
	}
	return &out, nil
}

// valueRange returns the items with a typed value between lo and hi.
func (e *Evaluator) valueRange(f *snapshot.Field, lo, hi *query.Bound) docSet {
	set := newDocSet(e.n)
	dict := f.Keyword()
	if f.HasSortOrders() && !f.MultiValued() && e.singleKind(f, lo, hi) {
		// The field's precomputed ascending order puts the items that have it first,
		// sorted by value: the range is the slice between two binary searches.
		inside := func(i int, b *query.Bound, upper bool) bool {
			e.vals = f.Values(e.vals[:0], f.SortedDoc(i, false))
			return len(e.vals) > 0 && inBound(e.vals[0], b, dict, upper)
		}
		n := f.DocCount()
		first := sort.Search(n, func(i int) bool { return inside(i, lo, false) })
		end := sort.Search(n, func(i int) bool { return !inside(i, hi, true) })
		for i := first; i < end; {
			run := e.orderRun[:f.SortedDocs(e.orderRun[:min(end-i, len(e.orderRun))], i, false)]
			if len(run) == 0 {
				break
			}
			i += len(run)
			for _, doc := range run {
				if doc >= 0 {
					set.add(int(doc))
				}
			}
		}
		return set
	}
	return e.valueRangeScan(f, lo, hi)
}

// valueRangeScan is valueRange by visiting every item.
func (e *Evaluator) valueRangeScan(f *snapshot.Field, lo, hi *query.Bound) docSet {
	set := newDocSet(e.n)
	dict := f.Keyword()
	for doc := 0; doc < e.n; doc++ {
		e.vals = f.Values(e.vals[:0], doc)
		for _, v := range e.vals {
			if inBound(v, lo, dict, false) && inBound(v, hi, dict, true) {
				set.add(doc)
				break
			}
		}
	}
	return set
}

// singleKind reports whether every value of f has the one kind the bounds compare
// with, so that its sorted order is also the order the bounds see.
func (e *Evaluator) singleKind(f *snapshot.Field, lo, hi *query.Bound) bool {
	var kind snapshot.ValueKind
	for _, b := range []*query.Bound{lo, hi} {
		if b == nil {
			continue
		}
		k := valueKindOf(b.Value.Kind)
		if kind != 0 && k != kind {
			return false
		}
		kind = k
	}
	if kind == 0 {
		return false
	}
	// Items are sorted by kind first (D12), so the first and the last item with the
	// field have the same kind exactly when all do.
	n := f.DocCount()
	if n == 0 {
		return false
	}
	e.vals = f.Values(e.vals[:0], f.SortedDoc(0, false))
	firstKind := snapshot.ValueKind(0)
	if len(e.vals) > 0 {
		firstKind = e.vals[0].Kind
	}
	e.vals = f.Values(e.vals[:0], f.SortedDoc(n-1, false))
	return firstKind == kind && len(e.vals) > 0 && e.vals[0].Kind == kind
}

// valueKindOf is the stored kind a scalar of kind k compares with.
func valueKindOf(k query.ScalarKind) snapshot.ValueKind {
	switch k {
	case query.ScalarNumber:
		return snapshot.KindNumber
	case query.ScalarDate:
		return snapshot.KindDate
	case query.ScalarString:
		return snapshot.KindString
	case query.ScalarBool:
		return snapshot.KindBool
	}
	return 0
}

// inBound reports whether v is on the inner side of bound b (upper or lower). Values of
// another type than the bound's are outside.
func inBound(v snapshot.Value, b *query.Bound, dict snapshot.TermDict, upper bool) bool {
	if b == nil {
		return true
	}
	var c int
	switch {
	case v.Kind == snapshot.KindDate && b.Value.Kind == query.ScalarDate:
		c = cmp.Compare(v.Millis, b.Value.Millis)
	case v.Kind == snapshot.KindNumber && b.Value.Kind == query.ScalarNumber:
		c = cmp.Compare(v.Number, b.Value.Number)
	case v.Kind == snapshot.KindString && b.Value.Kind == query.ScalarString:
		c = dict.Compare(int(v.Ord), b.Value.Str)
	case v.Kind == snapshot.KindBool && b.Value.Kind == query.ScalarBool:
		c = boolCmp(v.Bool, b.Value.Bool)
	default:
		return false
	}
	if upper {
		return c < 0 || c == 0 && b.Inclusive
	}
	return c > 0 || c == 0 && b.Inclusive
}

func boolCmp(a, b bool) int {
	switch {
	case a == b:
		return 0
	case b:
		return -1
	}
	return 1
}

// runFieldPattern evaluates q on every field whose name matches the pattern, as a
// dis_max (the best field's score), as Elasticsearch's query_string does for fields: ["Data.*"].
func (e *Evaluator) runFieldPattern(q query.Fielded, scoring bool, boost float32) (scored, error) {
	pattern := q.FieldName()
	var subs []query.Query
	keyword := strings.HasSuffix(pattern, ".keyword")
	for _, name := range e.snap.FieldNames() {
		candidate := name
		if keyword {
			candidate += ".keyword"
		}
		if match.Match(candidate, pattern) {
			subs = append(subs, q.WithField(candidate))
		}
	}
	if len(subs) == 0 {
		return scored{set: newDocSet(e.n)}, nil
	}
	// The fields matched are fields, even one whose own name has a '*' (an item's
	// member may be named so): expanding it again would never end. The subs are
	// leaves, so nothing else runs while the flag is set.
	e.literalFields = true
	defer func() { e.literalFields = false }()
	return e.disMax(query.DisMax{Queries: subs}, scoring, boost)
}

// scoreBuffer returns a zeroed per-item score array, reusing the evaluator's buffers.
func (e *Evaluator) scoreBuffer() []float32 {
	var b []float32
	if k := len(e.free); k > 0 {
		b = e.free[k-1] // buffers are cleared when they are freed
		e.free = e.free[:k-1]
	} else {
		b = make([]float32, e.n)
	}
	e.used = append(e.used, b)
	return b
}

// release returns s's score array to the free list before the request ends, so that
// queries with many sub-queries reuse a few arrays. A score array is zero outside its
// set (boolean zeroes what its intersections drop), so only the blocks of 64 items
// where the set has members need clearing: for a rare term, a few hundred bytes rather
// than the whole array.
func (e *Evaluator) release(s scored) {
	b := s.scores
	if len(b) == 0 {
		return
	}
	for i := len(e.used) - 1; i >= 0; i-- {
		if &e.used[i][0] == &b[0] {
			e.used = append(e.used[:i], e.used[i+1:]...)
			for j, w := range s.set {
				if w != 0 {
					clear(b[j*64 : min(j*64+64, len(b))])
				}
			}
			e.free = append(e.free, b)
			return
		}
	}
}

// spend charges n steps of work against the request's budget (API.md D11: a request
// stops inside the engine instead of holding an instance past its time).
func (e *Evaluator) spend(n int) error {
	e.steps += int64(n)
	if e.maxSteps > 0 && e.steps > e.maxSteps {
		return edge.Errorf(edge.CodeTooComplex, "the query needs more work than one request may do (limit: %d steps, about 1 s)", e.maxSteps)
	}
	return nil
}
