package eval

import (
	"math/bits"

	"github.com/cdaedge/cdaedge/snapshot"
)

// scoreCandidates scores the window's candidates (tk.candDocs) and offers them to the
// heap of the k best. It runs the plan's program column by column, a column holding a
// node's scores of all the candidates: every candidate's score is computed with the
// node-by-node way's float operations in its order (0 for a leaf left out, which
// candidates shows cannot change it), for the cost of a few loops per window rather
// than a walk of the program per item.
func (tk *tkScratch) scoreCandidates(k int) {
	docs := tk.candDocs
	n := len(docs)
	tk.scored += n
	if n == 0 {
		return
	}
	// Each column is n scores long, written before it is read: tk.columns is not
	// cleared, and grows to the most candidates a window has had.
	if need := (len(tk.leaves) + 2*len(tk.plan.ops) + 1) * n; cap(tk.columns) < need {
		tk.columns = make([]float32, need)
	}
	cols := columnArena{cols: tk.columns, w: n, n: n}
	w := n
	zero := cols.take()
	clear(zero)
	leafCols := cols.next
	for i := range tk.leaves {
		col := cols.take()
		if tk.kept[i] {
			tk.leaves[i].scoreColumn(col, docs)
		}
	}
	stack := tk.stack[:0]
	for _, op := range tk.plan.ops {
		switch op.kind {
		case tkOpLeaf:
			col := zero
			if tk.kept[op.n] {
				col = tk.columns[(leafCols+int(op.n))*w : (leafCols+int(op.n))*w+n]
			}
			stack = append(stack, col)
		case tkOpSum:
			// A bool's should clauses add up in clause order (0 + x is x).
			base := len(stack) - int(op.n)
			sum := cols.take()
			copy(sum, stack[base])
			for _, c := range stack[base+1:] {
				addColumn(sum, c)
			}
			stack = append(stack[:base], sum)
		case tkOpMax:
			base := len(stack) - int(op.n)
			stack = append(stack[:base], maxColumn(stack[base:], op.tie, &cols))
		}
	}
	tk.stack = stack[:0]
	limit := tk.limit(k) // changes only with an offer
	for i, s := range stack[0] {
		if s >= limit {
			tk.offer(tkHit{doc: docs[i], score: s}, k)
			limit = tk.limit(k)
		}
	}
}

// columnArena hands out the columns of one window's scoring: consecutive slices of n
// scores, w apart, of tk.columns. (A closure over the same state cost the TinyGo
// module four heap allocations per window.)
type columnArena struct {
	cols       []float32
	w, n, next int
}

// take returns the next column.
func (a *columnArena) take() []float32 {
	c := a.cols[a.next*a.w : a.next*a.w+a.n]
	a.next++
	return c
}

// addColumn adds src's scores to dst's, item by item.
func addColumn(dst, src []float32) {
	src = src[:len(dst)]
	for i, v := range src {
		dst[i] += v
	}
}

// maxColumn is disMax's score of each candidate from its children's columns: the best
// score, then tie × (the sum of all − the best), as disMax computes them.
func maxColumn(children [][]float32, tie float32, cols *columnArena) []float32 {
	best := cols.take()
	clear(best)
	if tie == 0 {
		for _, c := range children {
			c = c[:len(best)]
			for i, v := range c {
				if v > best[i] {
					best[i] = v
				}
			}
		}
		return best
	}
	sum := cols.take()
	clear(sum)
	for _, c := range children {
		c = c[:len(best)]
		for i, v := range c {
			if v > best[i] {
				best[i] = v
			}
			sum[i] += v
		}
	}
	for i := range best {
		best[i] += tie * (sum[i] - best[i])
	}
	return best
}

// scoreColumn writes the leaf's score of each of docs (increasing) into col, 0 where
// the term is absent. An item's index in the term's list is its rank in the leaf's set
// of items, so the cursor reads its frequency there (FreqAt) without decoding the items
// between candidates, which are few and far apart.
//
// The leaf's fields it reads per item are in locals: in the TinyGo module each store
// to col made them loads again (WebAssembly engines check every load's bounds).
func (l *tkLeaf) scoreColumn(col []float32, docs []int32) {
	col = col[:len(docs)]
	rankWord, rankBase := l.rankWord, l.rankBase
	dense, bitmap, items := l.dense, l.bitmap, l.items
	scorer := l.scorer
	if l.keyword {
		one := scorer.score(1, 1)
		for i, d := range docs {
			word, bit := int(d)>>6, uint(d&63)
			col[i] = 0
			if leafWord(dense, bitmap, items, word)>>bit&1 != 0 {
				col[i] = one
			}
		}
		return
	}
	lengths := l.field.Lengths()
	for i, d := range docs {
		doc := int(d)
		word, bit := doc>>6, uint(doc&63)
		x := leafWord(dense, bitmap, items, word)
		if x>>bit&1 == 0 {
			col[i] = 0
			continue
		}
		if rankWord < word {
			if dense {
				rankBase += bitmap.OnesIn(rankWord, word)
			} else {
				rankBase += items[rankWord:word].count()
			}
			rankWord = word
		}
		freq := l.post.FreqAt(rankBase + bits.OnesCount64(x&(1<<bit-1)))
		var length byte
		if doc < len(lengths) {
			length = lengths[doc]
		}
		col[i] = scorer.score(float32(freq), length)
	}
	l.rankWord, l.rankBase = rankWord, rankBase
}

// leafWord is tkLeaf.word from the leaf's fields, for scoreColumn.
func leafWord(dense bool, bitmap snapshot.Bitmap, items docSet, i int) uint64 {
	if dense {
		return bitmap.Word(i)
	}
	return items[i]
}
