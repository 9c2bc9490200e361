//go:build !wasm

package snapshot

import "slices"

// impactsWriter computes a dense text list's impacts (impacts.go) as the list is
// written, item after item in increasing order.
type impactsWriter struct {
	norms []byte  // the field's length byte per item
	avgdl float64 // the field's average length, to choose how to merge pairs
	out   []byte  // the list's records: impactSize bytes per window
	win   int     // the window of the items in best
	// best is, per length byte, the largest frequency of the window's items of that
	// length; touched lists the length bytes set.
	best    [256]int
	touched []byte
	front   []impactPair
}

// impactPair is a frequency and a length byte.
type impactPair struct {
	freq int
	norm byte
}

// start begins a list of n items.
func (w *impactsWriter) start(n int) {
	w.out, w.win = make([]byte, impactSize*impactWindows(n)), 0
}

// add records an item of the list, after those added before.
func (w *impactsWriter) add(doc, freq int) {
	if k := doc / ImpactWindow; k != w.win {
		w.flush()
		w.win = k
	}
	norm := w.norms[doc]
	if w.best[norm] == 0 {
		w.touched = append(w.touched, norm)
	}
	w.best[norm] = max(w.best[norm], freq)
}

// finish returns the list's records.
func (w *impactsWriter) finish() []byte {
	w.flush()
	out := w.out
	w.out = nil
	return out
}

// flush writes the current window's record: its items' Pareto frontier (the pairs no
// item beats in both frequency and length), merged down to two pairs.
func (w *impactsWriter) flush() {
	if len(w.touched) == 0 {
		return
	}
	slices.Sort(w.touched)
	front := w.front[:0]
	top := 0
	for _, norm := range w.touched {
		// By increasing length: a pair is on the frontier when its frequency beats
		// every shorter one's.
		if f := w.best[norm]; f > top {
			front = append(front, impactPair{f, norm})
			top = f
		}
		w.best[norm] = 0
	}
	w.touched, w.front = w.touched[:0], front
	a, b := w.merge(front)
	rec := w.out[impactSize*w.win:]
	rec[0], rec[1] = byte(min(a.freq, ImpactSaturated)), a.norm
	rec[2], rec[3] = byte(min(b.freq, ImpactSaturated)), b.norm
}

// merge covers the frontier (lengths and frequencies increasing) with two pairs: it
// cuts it in two runs, each merged into its largest frequency with its smallest length
// (which dominates the run), at the cut whose larger pair scores least by BM25's shape
// with the field's average length. The cover is a bound whatever the cut; the choice
// only makes it tight.
func (w *impactsWriter) merge(front []impactPair) (a, b impactPair) {
	switch len(front) {
	case 1:
		return front[0], impactPair{}
	case 2:
		return front[0], front[1]
	}
	last := front[len(front)-1]
	best, cut := 0.0, 0
	for s := 1; s < len(front); s++ {
		lo := impactPair{front[s-1].freq, front[0].norm}
		hi := impactPair{last.freq, front[s].norm}
		if v := max(w.shape(lo), w.shape(hi)); cut == 0 || v < best {
			best, cut = v, s
		}
	}
	return impactPair{front[cut-1].freq, front[0].norm}, impactPair{last.freq, front[cut].norm}
}

// shape is BM25's term frequency part for a pair (k1 1.2, b 0.75), which orders pairs
// as scores do.
func (w *impactsWriter) shape(p impactPair) float64 {
	f := float64(p.freq)
	dl := float64(DecodeLength(p.norm))
	return f / (f + 1.2*(0.25+0.75*dl/max(w.avgdl, 1)))
}
