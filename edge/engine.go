package edge

import (
	"github.com/cdaedge/cdaedge/edge/query"
	"math/bits"
	"slices"
	"strings"

	"github.com/cdaedge/cdaedge/snapshot"
)

// DocumentedMembers are the content item members of the specification, in the output
// order of decisions D2.
var DocumentedMembers = [...]string{
	"Status", "CreatedBy", "CreatedAt", "Data", "PublishedBy", "UpdatedAt", "Name",
	"PublishedAt", "UpdatedBy", "TemplateName", "TemplateID", "ContentID",
}

// Engine evaluates searches against one snapshot. It keeps scratch buffers between
// calls, so it is not safe for concurrent use; the snapshot it reads may be shared.
type Engine struct {
	snap *snapshot.Snapshot
	n    int
	vals []snapshot.Value
	docs []int
}

// NewEngine returns an engine over snap.
func NewEngine(snap *snapshot.Snapshot) *Engine {
	return &Engine{snap: snap, n: snap.Len()}
}

// Snapshot is the snapshot the engine reads.
func (e *Engine) Snapshot() *snapshot.Snapshot { return e.snap }

// TopLevel returns the canonical spelling of a top-level member, matched
// case-insensitively: a documented member, or any other top-level member an item of the
// environment has (decisions D6).
func (e *Engine) TopLevel(name string) (string, bool) {
	for _, m := range DocumentedMembers {
		if strings.EqualFold(m, name) {
			return m, true
		}
	}
	for _, f := range e.snap.FieldNames() {
		top, _, _ := strings.Cut(f, ".")
		if strings.EqualFold(top, name) {
			return top, true
		}
	}
	return "", false
}

// Result is one page of a search: the items in order, their scores, and every match.
type Result struct {
	// Total is the number of matching items across all pages (decisions D7).
	Total int
	// Docs are the page's item numbers in order.
	Docs []int
	// Scores are the relevance scores of Docs when the search scored (nil otherwise).
	Scores []float64
	// Matched is every matching item, for aggregations over all matches (D10).
	Matched DocSet
}

// DocSet is a set of item numbers.
type DocSet struct{ set docSet }

// Count is the number of items in the set.
func (d DocSet) Count() int { return d.set.count() }

// Has reports whether item doc is in the set.
func (d DocSet) Has(doc int) bool { return doc >= 0 && doc>>6 < len(d.set) && d.set.has(doc) }

// ForEach calls fn for each item in increasing order.
func (d DocSet) ForEach(fn func(doc int)) {
	for i, w := range d.set {
		for w != 0 {
			fn(i*64 + bits.TrailingZeros64(w))
			w &= w - 1
		}
	}
}

// Search evaluates s: it matches, counts, sorts and pages. The returned Docs slice is
// reused by the next call.
func (e *Engine) Search(s *query.Search) (Result, error) {
	set, err := e.eval(s.Query)
	if err != nil {
		return Result{}, err
	}
	total := set.count()
	docs := e.docs[:0]
	end := s.From + s.Size
	if s.Size <= 0 || s.From >= total {
		e.docs = docs
		return Result{Total: total, Docs: docs, Matched: DocSet{set}}, nil
	}
	if end > total {
		end = total
	}
	var key query.SortField
	if len(s.Sort) > 0 {
		key = s.Sort[0]
	}
	field := e.snap.Field(key.Field)
	switch {
	case field == nil || !field.HasValues():
		// No item has the field: the order is the tie-break, ContentID ascending (D12).
		docs = set.appendRange(docs, s.From, end)
	case field.HasSortOrders() && total*16 >= e.n:
		// Dense result: walk the precomputed order and stop at the end of the page.
		skip := s.From
		for i := 0; i < e.n && len(docs) < end-s.From; i++ {
			doc := field.SortedDoc(i, key.Desc)
			if doc < 0 || !set.has(doc) {
				continue
			}
			if skip > 0 {
				skip--
				continue
			}
			docs = append(docs, doc)
		}
	default:
		docs = set.appendRange(docs, 0, total)
		rank := field.RankAsc
		if key.Desc {
			rank = field.RankDesc
		}
		slices.SortFunc(docs, func(a, b int) int {
			ra, rb := rank(a), rank(b)
			switch {
			case ra == rb:
				return a - b
			case ra == snapshot.NoRank:
				return 1
			case rb == snapshot.NoRank:
				return -1
			case key.Desc == (ra > rb):
				return -1
			}
			return 1
		})
		docs = append(docs[:0], docs[s.From:end]...)
	}
	e.docs = docs
	return Result{Total: total, Docs: docs, Matched: DocSet{set}}, nil
}

// eval returns the set of items q matches.
func (e *Engine) eval(q query.Query) (docSet, error) {
	switch q := q.(type) {
	case nil, query.MatchAll:
		return newDocSet(e.n).fill(e.n), nil
	case query.MatchNone:
		return newDocSet(e.n), nil
	case query.Term:
		return e.evalTerm(q), nil
	case query.Bool:
		return e.evalBool(q)
	case query.Range:
		return e.evalRange(q), nil
	case query.Exists:
		set := newDocSet(e.n)
		if f := e.snap.Field(q.Field); f != nil {
			e.forEachValue(f, func(doc int, _ snapshot.Value) { set.add(doc) })
		}
		return set, nil
	case query.IDs:
		set := newDocSet(e.n)
		for _, id := range q.Values {
			if doc, ok := e.snap.Lookup(id); ok {
				set.add(doc)
			}
		}
		return set, nil
	}
	return nil, Errorf(CodeInternal, "unsupported query node %T", q)
}

func (e *Engine) evalTerm(q query.Term) docSet {
	set := newDocSet(e.n)
	var dict snapshot.TermDict
	if base, ok := strings.CutSuffix(q.Field, ".keyword"); ok {
		if f := e.snap.Field(base); f != nil {
			dict = f.Keyword()
		}
	} else if f := e.snap.Field(q.Field); f != nil {
		dict = f.Text()
	}
	if i, ok := dict.Find(q.Text); ok {
		p := dict.Postings(i)
		for doc := p.Next(); doc >= 0; doc = p.Next() {
			set.add(doc)
		}
	}
	return set
}

func (e *Engine) evalBool(q query.Bool) (docSet, error) {
	var result docSet
	shouldCount := 0
	var should []docSet
	for _, c := range q.Clauses {
		sub, err := e.eval(c.Query)
		if err != nil {
			return nil, err
		}
		switch c.Occur {
		case query.Must, query.Filter:
			if result == nil {
				result = sub
			} else {
				result.and(sub)
			}
		case query.Should:
			should = append(should, sub)
			shouldCount++
		}
	}
	minShould := q.MinimumShouldMatch
	if minShould == 0 && result == nil && shouldCount > 0 {
		minShould = 1
	}
	if result == nil {
		result = newDocSet(e.n).fill(e.n)
	}
	if minShould > 0 {
		result.and(atLeast(should, minShould, e.n))
	}
	for _, c := range q.Clauses {
		if c.Occur == query.MustNot {
			sub, err := e.eval(c.Query)
			if err != nil {
				return nil, err
			}
			result.andNot(sub)
		}
	}
	return result, nil
}

// atLeast returns the items that are in at least k of sets.
func atLeast(sets []docSet, k, n int) docSet {
	out := newDocSet(n)
	if k > len(sets) {
		return out
	}
	if k == 1 {
		for _, s := range sets {
			out.or(s)
		}
		return out
	}
	for doc := 0; doc < n; doc++ {
		c := 0
		for _, s := range sets {
			if s.has(doc) {
				c++
			}
		}
		if c >= k {
			out.add(doc)
		}
	}
	return out
}

// forEachValue calls fn for every typed value of f, item by item.
func (e *Engine) forEachValue(f *snapshot.Field, fn func(doc int, v snapshot.Value)) {
	for doc := 0; doc < e.n; doc++ {
		e.vals = f.Values(e.vals[:0], doc)
		for _, v := range e.vals {
			fn(doc, v)
		}
	}
}

func (e *Engine) evalRange(q query.Range) docSet {
	set := newDocSet(e.n)
	// Typed values back both forms of a field: a range on "Name" or "Name.keyword"
	// compares the exact values.
	base, _ := strings.CutSuffix(q.Field, ".keyword")
	f := e.snap.Field(base)
	if f == nil {
		return set
	}
	dict := f.Keyword()
	e.forEachValue(f, func(doc int, v snapshot.Value) {
		if set.has(doc) {
			return
		}
		if inBound(v, q.Lower, dict, false) && inBound(v, q.Upper, dict, true) {
			set.add(doc)
		}
	})
	return set
}

// inBound reports whether v is on the inner side of bound b (upper or lower).
func inBound(v snapshot.Value, b *query.Bound, dict snapshot.TermDict, upper bool) bool {
	if b == nil {
		return true
	}
	var c int
	switch {
	case v.Kind == snapshot.KindDate && b.Value.Kind == query.ScalarDate:
		c = cmp3(v.Millis, b.Value.Millis)
	case v.Kind == snapshot.KindNumber && b.Value.Kind == query.ScalarNumber:
		c = cmp3(v.Number, b.Value.Number)
	case v.Kind == snapshot.KindString && b.Value.Kind == query.ScalarString:
		c = strings.Compare(dict.Term(int(v.Ord)), b.Value.Str)
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

func cmp3[T int64 | float64](a, b T) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
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

// docSet is a bitset of item numbers.
type docSet []uint64

func newDocSet(n int) docSet { return make(docSet, (n+63)/64) }

func (d docSet) fill(n int) docSet {
	for i := range d {
		d[i] = ^uint64(0)
	}
	if r := n % 64; r != 0 {
		d[len(d)-1] = (1 << uint(r)) - 1
	}
	return d
}

func (d docSet) add(doc int)      { d[doc>>6] |= 1 << uint(doc&63) }
func (d docSet) has(doc int) bool { return d[doc>>6]&(1<<uint(doc&63)) != 0 }

func (d docSet) and(o docSet) {
	for i := range d {
		d[i] &= o[i]
	}
}

func (d docSet) or(o docSet) {
	for i := range d {
		d[i] |= o[i]
	}
}

func (d docSet) andNot(o docSet) {
	for i := range d {
		d[i] &^= o[i]
	}
}

func (d docSet) count() int {
	c := 0
	for _, w := range d {
		c += bits.OnesCount64(w)
	}
	return c
}

// appendRange appends the members ranked from..end-1 in increasing order.
func (d docSet) appendRange(dst []int, from, end int) []int {
	k := 0
	for i, w := range d {
		for w != 0 {
			if k >= end {
				return dst
			}
			t := bits.TrailingZeros64(w)
			if k >= from {
				dst = append(dst, i*64+t)
			}
			k++
			w &= w - 1
		}
	}
	return dst
}
