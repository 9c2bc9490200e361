package eval

import (
	"cmp"
	"slices"
	"sort"
	"strings"

	"github.com/cdaedge/cdaedge/edge/content"
	"github.com/cdaedge/cdaedge/edge/query"
	"github.com/cdaedge/cdaedge/snapshot"
)

// Search evaluates s: it matches, scores when the order needs it, counts, sorts and
// pages. The returned slices are reused by the next call.
// The work it does is charged to the current request's budget (see BeginRequest).
func (e *Evaluator) Search(s *query.Search) (Result, error) {
	for _, b := range e.used {
		clear(b)
	}
	e.free = append(e.free, e.used...)
	e.used = e.used[:0]

	keys := s.Sort
	if len(keys) == 0 {
		keys = content.RelevanceOrder
	}
	if res, ok, err := e.searchTopK(s, keys); ok {
		return res, err
	}
	if e.replay != nil {
		defer e.forgetLookups()
	}
	scoring := s.Scores
	for _, k := range keys {
		scoring = scoring || k.Score
	}
	// A constant-score query fills no score array: its matches all score one value,
	// so that ranking by it orders nothing and the page's scores are that value.
	// Filling one per item cost a match_all page as much as writing its items, and a
	// count of every item (size 0, as aggregations ask) four times its other work.
	uniform, constant := false, float32(0)
	if scoring {
		constant, uniform = constantScore(s.Query)
		scoring = !uniform
	}
	m, err := e.run(s.Query, scoring, 1)
	if err != nil {
		return Result{}, err
	}
	total := m.set.count()
	res := Result{Total: total, Matched: DocSet{m.set}}
	end := min(s.From+s.Size, total)
	if s.Size <= 0 || s.From >= total {
		e.docs = e.docs[:0]
		res.Docs = e.docs
		return res, nil
	}
	if err := e.spend(total); err != nil {
		return Result{}, err
	}
	e.docs = e.order(m, total, keys, s.From, end)
	res.Docs = e.docs
	if scoring || uniform {
		e.scores = e.scores[:0]
		for _, doc := range e.docs {
			v := constant
			if m.scores != nil {
				v = m.scores[doc]
			}
			e.scores = append(e.scores, float64(v))
		}
		res.Scores = e.scores
	}
	if m.scores != nil {
		e.release(m) // the page's scores are copied out
	}
	return res, nil
}

// constantScore returns the score every match of q has when q is a constant-score
// query under Boost nodes (what run gives each of its items: the boosts' product,
// multiplied in the same order); false for any other query, and for a field pattern,
// which run expands.
func constantScore(q query.Query) (float32, bool) {
	boost := float32(1)
	for {
		if fq, ok := q.(query.Fielded); ok && strings.Contains(fq.FieldName(), "*") {
			return 0, false
		}
		switch b := q.(type) {
		case query.Boost:
			if b.Boost < 0 {
				return 0, false // run refuses it
			}
			boost *= float32(b.Boost)
			q = b.Query
			continue
		case nil, query.MatchAll, query.Range, query.Exists, query.IDs, query.Prefix,
			query.Wildcard, query.Regexp, query.ConstantScore:
			return boost, true
		}
		return 0, false
	}
}

// sortKey is a resolved SortField.
type sortKey struct {
	score bool
	desc  bool
	field *snapshot.Field
}

// fieldKey resolves a sort by a field; false when no item has the field, which then
// orders nothing (D12).
func (e *Evaluator) fieldKey(k query.SortField) (sortKey, bool) {
	f := e.snap.Field(strings.TrimSuffix(k.Field, ".keyword"))
	if f == nil || !f.HasValues() {
		return sortKey{}, false
	}
	return sortKey{desc: k.Desc, field: f}, true
}

// order returns the matches ranked from..end-1 under keys; the final tie-break is the
// item number (ContentID ascending, D6).
func (e *Evaluator) order(m scored, total int, keys []query.SortField, from, end int) []int {
	var resolved []sortKey
	for _, k := range keys {
		if k.Score {
			// Equal scores order nothing: a constant-score query keeps the later keys'
			// order (and item order), and need not sort by score at all.
			if m.scores != nil && !m.uniform {
				resolved = append(resolved, sortKey{score: true, desc: k.Desc})
			}
			continue
		}
		if key, ok := e.fieldKey(k); ok {
			resolved = append(resolved, key)
		}
	}
	docs := e.docs[:0]
	if len(resolved) == 0 {
		return m.set.appendRange(docs, from, end)
	}
	if len(resolved) == 1 && resolved[0].field != nil && resolved[0].field.HasSortOrders() && total*16 >= e.n {
		// Dense result on a top-level field: walk the precomputed order and stop at
		// the end of the page.
		f, desc := resolved[0].field, resolved[0].desc
		skip := from
		// Runs of the order grow from what the page needs if every item is in the
		// result, so that a first page does not decode a whole run.
		size := min(end, len(e.orderRun))
		for i := 0; i < e.n && len(docs) < end-from; size = min(2*size, len(e.orderRun)) {
			run := e.orderRun[:f.SortedDocs(e.orderRun[:size], i, desc)]
			if len(run) == 0 {
				break
			}
			i += len(run)
			for _, d := range run {
				doc := int(d)
				if doc < 0 || !m.set.has(doc) {
					continue
				}
				if skip > 0 {
					skip--
					continue
				}
				if docs = append(docs, doc); len(docs) == end-from {
					break
				}
			}
		}
		return docs
	}
	cmp := func(a, b int) int {
		for _, k := range resolved {
			if k.score {
				sa, sb := m.scores[a], m.scores[b]
				if sa != sb {
					if (sa > sb) == k.desc {
						return -1
					}
					return 1
				}
				continue
			}
			if c := k.compareRanks(a, b); c != 0 {
				return c
			}
		}
		return a - b
	}
	if end*8 < total {
		return topK(m.set, end, cmp, docs)[from:]
	}
	docs = m.set.appendRange(docs, 0, total)
	slices.SortFunc(docs, cmp)
	return append(docs[:0], docs[from:end]...)
}

// compareRanks orders items a and b by field key k: by the field's rank in k's
// direction, items without the field last; 0 when they rank alike.
func (k sortKey) compareRanks(a, b int) int { return k.compareRankValues(k.rank(a), k.rank(b)) }

// rank is doc's rank by the field of key k in k's direction (snapshot.NoRank without
// the field).
func (k sortKey) rank(doc int) uint32 {
	if k.desc {
		return k.field.RankDesc(doc)
	}
	return k.field.RankAsc(doc)
}

// compareRankValues orders two items of ranks ra and rb (sortKey.rank) as compareRanks
// does.
func (k sortKey) compareRankValues(ra, rb uint32) int {
	switch {
	case ra == rb:
		return 0
	case ra == snapshot.NoRank:
		return 1
	case rb == snapshot.NoRank:
		return -1
	case (ra > rb) == k.desc:
		return -1
	}
	return 1
}

// topK returns the k smallest members of set under cmp, in order, using a bounded
// max-heap so that a first page of a large result costs O(n log k).
func topK(set docSet, k int, cmp func(a, b int) int, heap []int) []int {
	heap = heap[:0]
	down := func(i int) {
		for {
			l, r, worst := 2*i+1, 2*i+2, i
			if l < len(heap) && cmp(heap[l], heap[worst]) > 0 {
				worst = l
			}
			if r < len(heap) && cmp(heap[r], heap[worst]) > 0 {
				worst = r
			}
			if worst == i {
				return
			}
			heap[i], heap[worst] = heap[worst], heap[i]
			i = worst
		}
	}
	set.forEach(func(doc int) {
		if len(heap) < k {
			heap = append(heap, doc)
			for i := len(heap) - 1; i > 0; {
				parent := (i - 1) / 2
				if cmp(heap[i], heap[parent]) <= 0 {
					break
				}
				heap[i], heap[parent] = heap[parent], heap[i]
				i = parent
			}
			return
		}
		if cmp(doc, heap[0]) < 0 {
			heap[0] = doc
			down(0)
		}
	})
	slices.SortFunc(heap, cmp)
	return heap
}

// compareInts orders ints ascending. Sorting []int through slices.SortFunc with it
// shares one instantiation of the generic sort with the result ordering above; each
// further instantiation costs the wasm module a few KB.
func compareInts(a, b int) int { return cmp.Compare(a, b) }

// stableSort sorts n elements stably by compare, moving them with swap. Small sorts
// (aggregation buckets, fuzzy expansions) go through it and the sort package's one
// non-generic implementation, rather than a generic instantiation per element type.
func stableSort(n int, swap func(i, j int), compare func(i, j int) int) {
	sort.Stable(funcSorter{n: n, swap: swap, compare: compare})
}

// funcSorter is sort.Interface over closures.
type funcSorter struct {
	n       int
	swap    func(i, j int)
	compare func(i, j int) int
}

func (s funcSorter) Len() int           { return s.n }
func (s funcSorter) Less(i, j int) bool { return s.compare(i, j) < 0 }
func (s funcSorter) Swap(i, j int)      { s.swap(i, j) }
