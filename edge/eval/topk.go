package eval

import (
	"github.com/cdaedge/cdaedge/edge/query"
	"github.com/cdaedge/cdaedge/snapshot"
)

// The top-k path answers a full-text search sorted by relevance, the common case, without
// scoring every match. The node-by-node way (eval.go, fused.go) gives every node a set
// of items and a score array of the collection's size, and then picks the page from
// them. Here, as in Lucene's block-max scorers (MaxScore, block-max WAND):
//
//   - the matches are counted without scoring: each term's item numbers alone are
//     decoded into a set of its own, whose union is the answer's exact total and
//     Matched set (topk_score.go, countMatches);
//   - the collection is cut into windows of items, and each node of the query gets a
//     bound of its score in each window, composed from its terms' block maxima (a skip
//     entry's largest frequency with the field's shortest length);
//   - in a window, the items that may still reach the k-th best score so far are found
//     by set operations on the terms' sets: a dis_max child bounded below what the
//     dis_max needs cannot give an item its score and is left out, a sum's child that
//     the others' bounds cannot make up for is required, and a sum needs as many
//     children present as its best bounds say (candidates);
//   - only those items are scored, column by column, with the node-by-node way's float
//     operations in its order, so that every score is the same bits (topk_columns.go).
//
// It charges the same work steps, in the same order, as the node-by-node way (see
// tkPlan), ranks ties as order does, and applies only when the order starts with the
// score, descending.

// maxTopK bounds the hits (from + size) the top-k path keeps; deeper pages take the
// node-by-node way, which sorts every match.
const maxTopK = 10000

// The top-k path takes small queries too. It used to leave those of fewer postings
// than half the collection's items to the node-by-node way, whose fixed costs were
// lower than its own with windows of 512 items; with windows of a 32nd of the
// collection it is the faster for them as well. Measured in the TinyGo module at 100k
// generated items, alternating with the build before: two rare words over every field
// took 0.42x the time (1.1 ms instead of 2.6), a word no field has 0.3-0.36x (its plan
// finds no term, and the answer is empty at once); at 10k items 0.44x and 0.34x.

// tkHit is a scored item of the top-k heap.
type tkHit struct {
	doc   int32
	score float32
	// tie is the item's rank by the first field key (tkScratch.keys), read once when
	// the hit is offered: equal scores are common (BM25 stores lengths in a byte), and
	// the heap compares a hit with several others (two ranks read per comparison took
	// 6% of a full-text search's time in the TinyGo module).
	tie uint32
}

// tkScratch is the top-k path's state, kept between searches for its buffers.
type tkScratch struct {
	plan   tkPlan
	leaves []tkLeaf
	nodes  []tkNode
	kids   []int     // the children of nodes, by node index
	order  []int     // scratch for building nodes
	bounds []float32 // per leaf and window: the leaf's best possible score there
	wins   []float32 // per window: the query's best possible score there (the root's row of allBounds)
	// nodeBound is, per node, its best possible score in the current window, and
	// allBounds the same for every window, node after node (sumRow is its scratch).
	nodeBound, allBounds, sumRow []float32
	// cands is, per node, the window's items that may reach what the node needs.
	cands []uint64
	// counts are a sum's items present in at least 1, 2, ... of its children.
	counts []uint64
	// siblings holds, per child of a sum, the sum of its siblings' bounds (by the
	// child's place in kids; siblingBounds).
	siblings []float64
	kept     []bool  // per leaf: its score counts for the window's candidates
	floor    float32 // the least score of the hits the current pass keeps
	// candDocs are the window's candidates; columns holds, per leaf and per node of
	// the program, a column of their scores (scoreCandidates).
	candDocs []int32
	columns  []float32
	stack    [][]float32
	heap     []tkHit
	keys     []sortKey // the sort keys after the score
	// window overrides windowSize (tests: many small windows); answered counts the
	// searches the path answered, matched their matches, scored the items it
	// scored, dense the terms it read from the file's bitmaps and impacted those it
	// bounded by the file's impacts, and gaveUp the passes that gave up at their first
	// quarter.
	window, answered, matched, scored, dense, impacted, gaveUp int
	setWords                                                   int // the words of a set of the collection's items
	// factors caches, per field, the largest norm factor of its items' lengths.
	factors map[*snapshot.Field]fieldFactor
	// denseMaps is scratch: the dense leaves' bitmaps, for their union.
	denseMaps []snapshot.Bitmap
}

// fieldFactor is a field's largest norm factor, for the statistics it was found with.
type fieldFactor struct {
	st     fieldStats
	factor float32
}

// searchTopK answers s by the top-k path when it applies (ok); otherwise it spends
// nothing and the caller evaluates s node by node.
func (e *Evaluator) searchTopK(s *query.Search, keys []query.SortField) (res Result, ok bool, err error) {
	if e.noTopK || e.unfused || s.From < 0 || s.Size > maxTopK || s.From > maxTopK-max(s.Size, 0) {
		return Result{}, false, nil
	}
	if e.tk == nil {
		e.tk = &tkScratch{}
	}
	tk := e.tk
	if !e.relevanceKeys(keys, tk) {
		return Result{}, false, nil
	}
	if !e.planTopK(s.Query, &tk.plan) {
		e.keepLookups(&tk.plan)
		return Result{}, false, nil
	}
	filter, hasFilter, err := e.chargeTopK(&tk.plan)
	if err != nil {
		return Result{}, true, err
	}
	tk.answered++
	e.openLeaves(tk)
	defer e.closeLeaves(tk)
	set := e.countMatches(tk)
	if hasFilter {
		set.and(filter)
	}
	total := set.count()
	tk.matched += total
	res = Result{Total: total, Matched: DocSet{set}}
	e.docs = e.docs[:0]
	res.Docs = e.docs
	if s.Size <= 0 || s.From >= total {
		return res, true, nil
	}
	if err := e.spend(total); err != nil {
		return Result{}, true, err
	}
	end := min(s.From+s.Size, total)
	hits := e.topHits(tk, set, end)
	if len(hits) < end {
		// The k best of at least k matches are k hits: fewer would be a flaw of the
		// pruning, whose node-by-node evaluation gives the right answer, not a panic.
		return Result{}, false, nil
	}
	e.scores = e.scores[:0]
	for _, h := range hits[s.From:end] {
		e.docs = append(e.docs, int(h.doc))
		e.scores = append(e.scores, float64(h.score))
	}
	res.Docs, res.Scores = e.docs, e.scores
	return res, true, nil
}

// relevanceKeys reports whether keys order by score, descending, first and by no score
// after, and resolves the field keys after it into tk.keys as order does.
func (e *Evaluator) relevanceKeys(keys []query.SortField, tk *tkScratch) bool {
	if len(keys) == 0 || !keys[0].Score || !keys[0].Desc {
		return false
	}
	tk.keys = tk.keys[:0]
	for _, k := range keys[1:] {
		if k.Score {
			return false
		}
		if key, ok := e.fieldKey(k); ok {
			tk.keys = append(tk.keys, key)
		}
	}
	return true
}

// compareHits orders hits as order does: by score, descending, then by the field keys,
// then by item number.
func compareHits(keys []sortKey, a, b tkHit) int {
	if a.score != b.score {
		if a.score > b.score {
			return -1
		}
		return 1
	}
	if len(keys) == 0 {
		return int(a.doc) - int(b.doc)
	}
	if c := keys[0].compareRankValues(a.tie, b.tie); c != 0 {
		return c
	}
	for _, k := range keys[1:] {
		if c := k.compareRanks(int(a.doc), int(b.doc)); c != 0 {
			return c
		}
	}
	return int(a.doc) - int(b.doc)
}

// offer adds hit h to the heap of the k best hits (the worst on top) when it is among
// them.
func (tk *tkScratch) offer(h tkHit, k int) {
	if len(tk.keys) > 0 {
		h.tie = tk.keys[0].rank(int(h.doc))
	}
	heap := tk.heap
	if len(heap) < k {
		heap = append(heap, h)
		for i := len(heap) - 1; i > 0; {
			parent := (i - 1) / 2
			if compareHits(tk.keys, heap[i], heap[parent]) <= 0 {
				break
			}
			heap[i], heap[parent] = heap[parent], heap[i]
			i = parent
		}
		tk.heap = heap
		return
	}
	if compareHits(tk.keys, h, heap[0]) >= 0 {
		return
	}
	heap[0] = h
	siftDown(tk.keys, heap)
}

// siftDown moves the top of heap (the worst hit on top) down to its place.
func siftDown(keys []sortKey, heap []tkHit) {
	for i := 0; ; {
		l, r, worst := 2*i+1, 2*i+2, i
		if l < len(heap) && compareHits(keys, heap[l], heap[worst]) > 0 {
			worst = l
		}
		if r < len(heap) && compareHits(keys, heap[r], heap[worst]) > 0 {
			worst = r
		}
		if worst == i {
			return
		}
		heap[i], heap[worst] = heap[worst], heap[i]
		i = worst
	}
}

// threshold is the score a hit must reach to enter a full heap of k hits (a hit with
// that very score may still enter, by the later keys); -1 while the heap has room.
func (tk *tkScratch) threshold(k int) float32 {
	if len(tk.heap) < k {
		return -1
	}
	return tk.heap[0].score
}

// sortedHits sorts the heap best first, by taking its worst hit off the top to the end
// of the heap until one is left (heapsort). compareHits orders any two hits (their
// items differ), so this is the order a stable sort gives, without the closures and
// the interface a sort call took: three heap allocations per search in the TinyGo
// module.
func (tk *tkScratch) sortedHits() []tkHit {
	h := tk.heap
	for end := len(h) - 1; end > 0; end-- {
		h[0], h[end] = h[end], h[0]
		siftDown(tk.keys, h[:end])
	}
	return h
}

// keepLookups hands the terms p looked up to lookupTerm, for the node-by-node
// evaluation of the same search, which looks them up again in the same order (but for
// the clauses of a bool it starts over, which lookupTerm then finds itself): a query
// over every field looks up a hundred terms or more, which took a fifth of a small
// query's time.
func (e *Evaluator) keepLookups(p *tkPlan) {
	e.replay, e.replayAt = p.looked, 0
}

// forgetLookups ends what keepLookups started, at the end of the search.
func (e *Evaluator) forgetLookups() { e.replay, e.replayAt = nil, 0 }
