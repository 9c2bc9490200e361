package eval

import (
	"math"
	"math/bits"

	"github.com/cdaedge/cdaedge/snapshot"
)

// tkLeaf is a term of the top-k path being scored.
type tkLeaf struct {
	start   snapshot.Postings // at the list's start, for the passes that restart
	post    snapshot.Postings // the scoring cursor, moved by Advance
	field   *snapshot.Field
	scorer  bm25Scorer
	keyword bool
	factor  float32 // the field's largest norm factor: the best any item's length gives
	// items are the term's items, decoded by the counting pass; or, for a common
	// term (dense), bitmap holds them where the file stores them (read by word).
	items  docSet
	bitmap snapshot.Bitmap
	dense  bool
	// impacts bound the term's scores per window of the file's (none: zero windows).
	impacts snapshot.Impacts
	// rankWord and rankBase place the scoring cursor by rank: rankBase items of the
	// set lie in its words before rankWord.
	rankWord, rankBase int
}

// tkNode is a node of the plan's tree, for the window-by-window pruning: a leaf, or a
// sum or dis_max over children (tkScratch.kids[first:first+count]).
type tkNode struct {
	op           tkOp
	first, count int
}

// openLeaves makes a leaf of each term of the plan, and the plan's node tree.
func (e *Evaluator) openLeaves(tk *tkScratch) {
	terms := tk.plan.terms
	tk.setWords = (e.n + 63) / 64
	if cap(tk.leaves) < len(terms) {
		tk.leaves = append(tk.leaves[:cap(tk.leaves)], make([]tkLeaf, len(terms)-cap(tk.leaves))...)
	}
	tk.leaves = tk.leaves[:len(terms)]
	for i, t := range terms {
		l := &tk.leaves[i]
		l.start = t.dict.Postings(t.i)
		l.post = l.start
		l.field, l.keyword = t.field, t.keyword
		st := e.stats(t.field, t.keyword)
		l.scorer = e.newBM25(t.boost, idf(int64(l.start.DocFreq), st.docCount), st)
		if !t.keyword {
			l.factor = e.largestFactor(t.field, st)
		}
		var m snapshot.Impacts
		l.bitmap, l.dense, m, _ = t.dict.Dense(t.i)
		l.impacts = snapshot.Impacts{}
		if m.Windows() == (e.n+snapshot.ImpactWindow-1)/snapshot.ImpactWindow {
			l.impacts = m
		}
		l.dense = l.dense && l.bitmap.Words() == (e.n+63)/64
		if l.dense {
			tk.dense++
		} else {
			l.items = e.newSet()
		}
	}
	// The program is the tree in post-order: each node's children are the nodes on
	// the stack when it comes.
	tk.nodes, tk.kids = tk.nodes[:0], tk.kids[:0]
	stack := tk.order[:0]
	for _, op := range tk.plan.ops {
		node := tkNode{op: op}
		if op.kind != tkOpLeaf {
			base := len(stack) - int(op.n)
			node.first, node.count = len(tk.kids), int(op.n)
			tk.kids = append(tk.kids, stack[base:]...)
			stack = stack[:base]
		}
		stack = append(stack, len(tk.nodes))
		tk.nodes = append(tk.nodes, node)
	}
	tk.order = stack[:0]
}

// largestFactor is the largest norm factor (1 / (k1 × ((1-b) + b × dl/avgdl))) of the
// lengths f's items have: with it, a frequency bounds a term's score in any item.
func (e *Evaluator) largestFactor(f *snapshot.Field, st fieldStats) float32 {
	if c, ok := e.tk.factors[f]; ok && c.st == st {
		return c.factor
	}
	var present [256]bool
	for doc := 0; doc < e.n; doc++ {
		present[f.Length(doc)] = true
	}
	table := e.normTable(st)
	var best float32
	for norm, ok := range present {
		// An item with no terms in the field has no postings in it (norm 0).
		if ok && norm > 0 && table[norm] > best {
			best = table[norm]
		}
	}
	if e.tk.factors == nil {
		e.tk.factors = map[*snapshot.Field]fieldFactor{}
	}
	e.tk.factors[f] = fieldFactor{st: st, factor: best}
	return best
}

// score is the leaf's score for an item of frequency freq, as termInto computes it.
func (l *tkLeaf) score(freq int, doc int) float32 {
	if l.keyword {
		return l.scorer.score(1, 1)
	}
	return l.scorer.score(float32(freq), l.field.Length(doc))
}

// wordsInto copies words first, first+1, … of the leaf's set of items into dst, which
// the set reaches the end of, and returns their union: one call per window rather than
// one per word. It copies word by word, as Bitmap.WordsInto does, and for the same
// reason: copy (a wasm memory.copy, which wazero hands to Go's memmove) of these 8
// words per window and leaf was 1 % of the wasm host's time on a search.
func (l *tkLeaf) wordsInto(dst []uint64, first int) (union uint64) {
	if l.dense {
		return l.bitmap.WordsInto(dst, first)
	}
	src := l.items[first:]
	for i := range min(len(dst), len(src)) {
		x := src[i]
		dst[i] = x
		union |= x
	}
	return union
}

// countMatches fills each leaf's set with its items, decoding item numbers only (a
// common term's are in the file's bitmap already), and returns their union.
func (e *Evaluator) countMatches(tk *tkScratch) docSet {
	set := e.newSet()
	dense := tk.denseMaps[:0]
	for i := range tk.leaves {
		if l := &tk.leaves[i]; l.dense {
			dense = append(dense, l.bitmap)
		}
	}
	snapshot.OrAll(set, dense)
	tk.denseMaps = dense[:0]
	for i := range tk.leaves {
		if l := &tk.leaves[i]; !l.dense {
			p := l.start
			p.AddTo(l.items)
			set.or(l.items)
		}
	}
	return set
}

// closeLeaves hands the leaves' sets back to the evaluator.
func (e *Evaluator) closeLeaves(tk *tkScratch) {
	for i := range tk.leaves {
		if tk.leaves[i].items != nil {
			e.releaseSet(tk.leaves[i].items)
		}
		tk.leaves[i].items = nil
	}
}

// windowSize is the number of items of a window for a collection of n items: a
// multiple of the file's impact windows (snapshot.ImpactWindow), about a 32nd of the
// collection, at most maxWindow. Each window walks the query's tree, which costs more
// than the looser bounds of larger windows: at 100k generated items (90k published),
// windows of 3,072 items rather than 512 took the TinyGo module's searches over every
// field 0.72-0.8x the time, a long match 0.92x; at 10k, where this keeps 512, windows
// of 1,024 or 2,048 items gained nothing.
func windowSize(n int) int {
	const unit = snapshot.ImpactWindow
	return min(maxWindow, max(unit, (n/32+unit-1)/unit*unit))
}

// maxWindow bounds a window (at a million items, a 32nd would be 31k): the scratch
// sets of each node of the query's tree, a few per node (tkScratch.cands, counts),
// are a window long.
const maxWindow = 8 * snapshot.ImpactWindow

// leafBounds fills tk.bounds with each leaf's best possible score in each window of
// size w: from the file's impacts where it has them for the term, else a block's from
// its largest frequency, the tail's (which no skip entry bounds) from its items' own
// scores.
func (tk *tkScratch) leafBounds(w, windows int) {
	tk.bounds = zeroed(tk.bounds, len(tk.leaves)*windows)
	for i := range tk.leaves {
		l := &tk.leaves[i]
		b := tk.bounds[i*windows : (i+1)*windows]
		if l.impacts.Windows() > 0 && w%snapshot.ImpactWindow == 0 {
			l.impactBounds(b, w)
			tk.impacted++
			continue
		}
		r := l.start
		prev, blocks := 0, false
		for {
			last, maxFreq, ok := r.SkipBlock()
			if !ok {
				break
			}
			bound := l.scorer.score(1, 1)
			if !l.keyword {
				bound = l.scorer.bound(float32(maxFreq), l.factor)
			}
			for k := prev / w; k <= last/w && k < windows; k++ {
				b[k] = max(b[k], bound)
			}
			prev, blocks = last, true
		}
		target := 0
		if blocks {
			target = prev + 1
		}
		for doc := r.Advance(target); doc >= 0; doc = r.Next() {
			if k := doc / w; k < windows {
				b[k] = max(b[k], l.score(r.Freq(), doc))
			}
		}
	}
}

// impactBounds fills b (all zero), the leaf's bounds per window of w items (a multiple
// of snapshot.ImpactWindow), from the file's impacts: each impact window's two pairs
// dominate its items, and a score grows with the frequency and falls with the length,
// in float32 arithmetic too, so a pair's score bounds theirs. The score grows with
// the pair's tf alone, so b first holds each window's largest tf and then its score:
// one division per window, not two per impact window (the bounds are the same bits).
func (l *tkLeaf) impactBounds(b []float32, w int) {
	per := w / snapshot.ImpactWindow
	for k := range l.impacts.Windows() {
		f1, n1, f2, n2 := l.impacts.Window(k)
		if win := k / per; win < len(b) {
			b[win] = max(b[win], l.pairTF(f1, n1), l.pairTF(f2, n2))
		}
	}
	for win, x := range b {
		b[win] = l.scorer.scoreOf(x) // 0 for a tf of 0: no pair
	}
}

// pairTF is the tf (bm25Scorer.tf) of an item of frequency freq (0: none, a tf of 0,
// whose score is 0; saturated: any) and length byte norm.
func (l *tkLeaf) pairTF(freq, norm byte) float32 {
	switch freq {
	case 0:
		return 0
	case snapshot.ImpactSaturated:
		return l.scorer.tf(float32(math.Inf(1)), norm)
	}
	return l.scorer.tf(float32(freq), norm)
}

// zeroed returns a slice of n zero values, reusing b's storage.
func zeroed[T any](b []T, n int) []T {
	if cap(b) < n {
		return make([]T, n)
	}
	b = b[:n]
	clear(b)
	return b
}

// allNodeBounds fills tk.allBounds with each node's best possible score in each
// window, composed from the leaves' as the score program composes scores, each widened
// by inflate. It works node by node over all the windows at once, each node's bounds a
// row, so that its loops run over consecutive floats (a node's bound in a window is
// the same float operations in the same order as window by window: same bounds); one
// window at a time, the dispatch per node and window cost the TinyGo module a tenth of
// a three-word search.
func (tk *tkScratch) allNodeBounds(windows int) {
	tk.allBounds = zeroed(tk.allBounds, len(tk.nodes)*windows)
	tk.sumRow = zeroed(tk.sumRow, windows)
	for i, nd := range tk.nodes {
		b := tk.allBounds[i*windows : (i+1)*windows]
		switch nd.op.kind {
		case tkOpLeaf:
			leaf := int(nd.op.n)
			copy(b, tk.bounds[leaf*windows:(leaf+1)*windows])
		case tkOpSum:
			for _, c := range tk.kids[nd.first : nd.first+nd.count] {
				addColumn(b, tk.allBounds[c*windows:(c+1)*windows])
			}
		case tkOpMax:
			sum := tk.sumRow
			clear(sum)
			for _, c := range tk.kids[nd.first : nd.first+nd.count] {
				kid := tk.allBounds[c*windows : (c+1)*windows]
				for w, x := range kid {
					b[w] = max(b[w], x)
					sum[w] += x
				}
			}
			// best + tie × (sum − best) is at most best + tie × sum.
			for w := range b {
				b[w] += nd.op.tie * sum[w]
			}
		}
		for w, x := range b {
			b[w] = inflate(x)
		}
	}
}

// nodeBounds sets tk.nodeBound to each node's bound in window win (allNodeBounds).
func (tk *tkScratch) nodeBounds(win, windows int) {
	for i := range tk.nodeBound {
		tk.nodeBound[i] = tk.allBounds[i*windows+win]
	}
}

// topHits returns the k best hits among the items of set, best first.
func (e *Evaluator) topHits(tk *tkScratch, set docSet, k int) []tkHit {
	tk.heap = tk.heap[:0]
	if len(tk.leaves) == 0 {
		return tk.heap
	}
	w := windowSize(e.n)
	if tk.window > 0 {
		w = tk.window
	}
	windows := (e.n + w - 1) / w
	tk.leafBounds(w, windows)
	tk.nodeBound = zeroed(tk.nodeBound, len(tk.nodes))
	tk.allNodeBounds(windows)
	root := len(tk.nodes) - 1
	tk.wins = tk.allBounds[root*windows : (root+1)*windows]
	tk.kept = zeroed(tk.kept, len(tk.leaves))
	if words := len(tk.nodes) * (w / 64); cap(tk.cands) < words {
		tk.cands = make([]uint64, words)
	}
	tk.cands = tk.cands[:len(tk.nodes)*(w/64)]
	// Each sum node counts in a region of its own: a sum inside a sum (`a b:(c d)`)
	// counts while its parent's counts are still being gathered.
	if words := len(tk.nodes) * maxLeast * (w / 64); cap(tk.counts) < words {
		tk.counts = make([]uint64, words)
	}
	tk.counts = tk.counts[:len(tk.nodes)*maxLeast*(w/64)]
	tk.siblings = zeroed(tk.siblings, len(tk.kids))
	// Each pass keeps only the hits that reach its floor, a fraction of the best bound,
	// which prunes more than the heap's threshold does while the heap fills with the
	// first items; its answer stands when k hits reach the floor (every item it left
	// out scores below it), else the next pass lowers the floor, the last to none.
	// Bounds are loose, so the k-th best score is often half the best bound or less:
	// measured at 100k generated items, two words over every field scored 2,736 items
	// with one pass at a third of it, and 19 with these; three words 1,733 and 863.
	var best float32
	for _, b := range tk.wins {
		best = max(best, b)
	}
	floors := [...]float32{0.7, 0.45, 0.25, 0}
	for p, f := range floors {
		floor := best * f
		tk.heap, tk.floor = tk.heap[:0], floor
		for i := range tk.leaves {
			l := &tk.leaves[i]
			l.post, l.rankWord, l.rankBase = l.start, 0, 0
		}
		// A pass that has kept no hit at all by its first quarter of windows gives
		// up there for the next floor: it would end short of k. Measured at 100k
		// generated items over 40 random queries of one to four words: every pass
		// at 0.7 that ended short of k kept none by then (three and four words over
		// every field), and every pass that reached k had kept at least 2 (of 10).
		// Such a query then takes a quarter of a pass and a pass, not two passes.
		check := windows / 4
		if p == len(floors)-1 || check == 0 {
			check = -1
		}
		finished := true
		for win := range windows {
			if win == check && len(tk.heap) == 0 {
				finished = false
				tk.gaveUp++
				break
			}
			if tk.wins[win] >= tk.limit(k) {
				tk.scoreWindow(set, win, w, windows, k)
			}
		}
		if finished && len(tk.heap) == k && tk.heap[0].score >= floor {
			break
		}
	}
	return tk.sortedHits()
}

// limit is the score an item must reach to be offered to the heap of the k best: the
// heap's threshold or the pass's floor.
func (tk *tkScratch) limit(k int) float32 {
	return max(tk.threshold(k), tk.floor)
}

// scoreWindow scores the items of set in window win (of size w) that may reach the
// heap's threshold and offers them to the heap of the k best.
func (tk *tkScratch) scoreWindow(set docSet, win, w, windows, k int) {
	lo := win * w
	tk.nodeBounds(win, windows)
	clear(tk.kept)
	root := len(tk.nodes) - 1
	words := w / 64
	cand := tk.cands[root*words : (root+1)*words]
	if !tk.candidates(root, max(tk.limit(k), 0), lo, words) {
		return
	}
	docs := tk.candDocs[:0]
	for i, x := range cand {
		if word := lo>>6 + i; word < len(set) {
			x &= set[word]
		} else {
			x = 0
		}
		for ; x != 0; x &= x - 1 {
			docs = append(docs, int32((lo>>6+i)<<6+bits.TrailingZeros64(x)))
		}
	}
	tk.candDocs = docs
	tk.scoreCandidates(k)
}

// candidates computes, into node's slot of tk.cands, the items of the window (from
// lo, words long) whose node score may reach t, and marks in tk.kept the leaves whose
// scores count for them; false when there is none. Lucene's MaxScore reasoning, by
// node: a dis_max (without tie breaker) child bounded below t cannot give an item its
// best score, and a sum's child that the others' bounds cannot make up for is required.
func (tk *tkScratch) candidates(node int, t float32, lo, words int) bool {
	nd := tk.nodes[node]
	out := tk.cands[node*words : (node+1)*words]
	if tk.nodeBound[node] < t {
		return false
	}
	kids := tk.kids[nd.first : nd.first+nd.count]
	switch nd.op.kind {
	case tkOpLeaf:
		tk.kept[nd.op.n] = true
		l := &tk.leaves[nd.op.n]
		first := lo >> 6
		n := min(len(out), max(tk.setWords-first, 0))
		any := l.wordsInto(out[:n], first)
		clear(out[n:])
		return any != 0
	case tkOpMax:
		if nd.op.tie != 0 {
			t = 0 // every child adds to the score
		}
		clear(out)
		found := false
		for _, c := range kids {
			if tk.candidates(c, t, lo, words) {
				found = true
				docSet(out).or(tk.cands[c*words : (c+1)*words])
			}
		}
		return found
	}
	return tk.sumCandidates(node, kids, t, lo, words, out)
}

// sumCandidates is candidates for the sum node node: the intersection of its required
// children's candidates, or the union of all when none is required. The children
// that are not required are visited all the same, to keep their leaves.
func (tk *tkScratch) sumCandidates(node int, kids []int, t float32, lo, words int, out []uint64) bool {
	siblings := tk.siblingBounds(node, kids)
	required := false
	for i := range kids {
		required = required || childNeed(t, siblings[i]) > 0
	}
	if required {
		for i := range out {
			out[i] = ^uint64(0)
		}
	} else {
		clear(out)
	}
	least := 1
	if !required {
		least = tk.leastPresent(kids, t)
	}
	region := node * maxLeast * words
	counts := tk.counts[region : region+least*words]
	clear(counts)
	for i, c := range kids {
		need := childNeed(t, siblings[i])
		ok := tk.candidates(c, max(need, 0), lo, words)
		child := tk.cands[c*words : (c+1)*words]
		switch {
		case need > 0 && !ok:
			return false
		case need > 0:
			docSet(out).and(child)
		case ok && !required:
			// counts[m-1] holds the items in at least m of the children so far.
			for m := least - 1; m > 0; m-- {
				for i := range words {
					counts[m*words+i] |= counts[(m-1)*words+i] & child[i]
				}
			}
			docSet(counts[:words]).or(child)
		}
	}
	if !required {
		copy(out, counts[(least-1)*words:])
	}
	for _, x := range out {
		if x != 0 {
			return true
		}
	}
	return false
}

// maxLeast bounds the count of children leastPresent asks for.
const maxLeast = 8

// leastPresent is how many of a sum's children an item needs, at least, for the sum to
// reach t: one more than the most whose largest bounds together stay below t (with
// the margin of childNeed). Lucene's minimum-should-match reasoning, from scores.
func (tk *tkScratch) leastPresent(kids []int, t float32) int {
	top := tk.order[:0]
	for _, c := range kids {
		top = append(top, c)
	}
	// A few children: an insertion sort, largest bound first.
	for i := 1; i < len(top); i++ {
		for j := i; j > 0 && tk.nodeBound[top[j]] > tk.nodeBound[top[j-1]]; j-- {
			top[j], top[j-1] = top[j-1], top[j]
		}
	}
	tk.order = top[:0]
	var sum float32
	least := 1
	for _, c := range top {
		sum += tk.nodeBound[c]
		if sum*(1+0x1p-10) >= t*(1-0x1p-10) || least == maxLeast {
			break
		}
		least++
	}
	return min(least, len(kids))
}

// childNeed is the score a sum's child must reach for the sum to reach t when its
// siblings (the sum of their bounds) give their most: t − siblings, lowered by a
// margin that covers the rounding of the sums (positive: the child is required).
func childNeed(t float32, siblings float64) float32 {
	return float32(float64(t)*(1-0x1p-10) - siblings*(1+0x1p-10))
}

// siblingBounds returns, for each child of the sum node node, the sum of its siblings'
// bounds in the current window. They are added up, not taken as the total less the
// child's own: beside a child far above them (a rare word next to a term of every
// item), the siblings' bounds vanish in the rounding of the total, and the child would
// look required, dropping the items only its siblings match. Each node has its own
// place in tk.siblings (its children's places in tk.kids), since a sum inside a sum
// asks while its parent still reads its own.
func (tk *tkScratch) siblingBounds(node int, kids []int) []float64 {
	first := int(tk.nodes[node].first)
	sib := tk.siblings[first : first+len(kids)]
	var before float64
	for i, c := range kids {
		sib[i] = before
		before += float64(tk.nodeBound[c])
	}
	var after float64
	for i := len(kids) - 1; i >= 0; i-- {
		sib[i] += after
		after += float64(tk.nodeBound[kids[i]])
	}
	return sib
}
