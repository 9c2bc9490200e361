package eval

// sloppyPhrase is Lucene's SloppyPhraseMatcher (8.x), which a phrase with a slop uses:
// it repeatedly takes the phrase position at the smallest shifted position (a priority
// queue ordered by position, then offset in the phrase, then order), measures the window
// to the largest, and advances the smallest; each window within the slop counts
// 1/(1+window) towards the phrase frequency BM25 scores.
//
// Phrases that repeat a term ("case case study", "a b a") need Lucene's handling of
// repeating positions: the positions of one term are shared by the phrase positions
// that hold it, and two of them must never stand on the same document position. Each
// such group starts with its later members advanced past the earlier ones, and when a
// move makes two members collide, the lesser of the two is advanced again. Without it,
// one occurrence of "case" would serve both "case" slots of "case case study".
//
// Positions are the slot lists the caller fills per item (already shifted by each slot's
// offset, as Lucene's PhrasePositions.position). The queue is Lucene's PriorityQueue,
// step for step, so that the matches, and so the scores, are Lucene's even where its
// re-queueing after a collision is not a plain ordering (API.md D6).
type sloppyPhrase struct {
	slop   int
	s      []sloppySlot
	groups [][]int // repeat groups: slots sharing a term, in offset order
	rpts   bool    // some term repeats (Lucene's hasRpts)
	multi  bool    // a repeating slot has several terms (hasMultiTermRpts)

	// Per item.
	end        int // the largest position
	positioned bool
	heap       []int // 1-based binary heap of slots (heap[0] unused)
	size       int
	marks      []bool
	stack      []int
}

// sloppySlot is one phrase position: Lucene's PhrasePositions.
type sloppySlot struct {
	offset int   // its offset in the phrase
	group  int   // its repeat group, or -1
	rptInd int   // its index in its group
	list   []int // the item's positions, shifted by the offset
	idx    int   // the current one: list[idx]
	pos    int
}

// newSloppyPhrase prepares the matcher of a phrase with the given slots: it finds the
// repeat groups, as SloppyPhraseMatcher does on its first candidate document. Slots
// sharing a term form one group (for single-term slots: the slots of one term; with
// several terms per slot, the connected ones). A group is labelled by its first slot
// while they are found, then numbered in slot order, so that each group is in offset
// order, as Lucene sorts it.
func newSloppyPhrase(slots []phraseSlot, slop int) *sloppyPhrase {
	n := len(slots)
	m := &sloppyPhrase{slop: slop, s: make([]sloppySlot, n), heap: make([]int, n+1)}
	st := m.s
	for i, s := range slots {
		st[i].offset, st[i].group = s.offset, -1
		for j := 0; j < i; j++ {
			if !shareTerm(s.terms, slots[j].terms) {
				continue
			}
			m.rpts = true
			m.multi = m.multi || len(s.terms) > 1 || len(slots[j].terms) > 1
			if st[j].group < 0 {
				st[j].group = j
			}
			if st[i].group < 0 {
				st[i].group = i
			}
			from, to := max(st[i].group, st[j].group), min(st[i].group, st[j].group)
			for k := 0; k <= i; k++ {
				if st[k].group == from {
					st[k].group = to
				}
			}
		}
	}
	if !m.rpts {
		return m
	}
	number := make([]int, n)
	for i := range st {
		label := st[i].group
		if label < 0 {
			continue
		}
		if label == i {
			number[i] = len(m.groups)
			m.groups = append(m.groups, nil)
		}
		g := number[label]
		st[i].group, st[i].rptInd = g, len(m.groups[g])
		m.groups[g] = append(m.groups[g], i)
	}
	m.marks = make([]bool, n)
	return m
}

// shareTerm reports whether two slots have a term in common.
func shareTerm(a, b []string) bool {
	for _, x := range a {
		for _, y := range b {
			if x == y {
				return true
			}
		}
	}
	return false
}

// freq is the item's phrase frequency: the sum of 1/(1+matchLength) over the matches
// within the slop (0: no match). Every list must hold at least one position, in order.
func (m *sloppyPhrase) freq(lists [][]int) float32 {
	if len(lists) == 1 {
		return float32(len(lists[0]))
	}
	for i := range m.s {
		m.s[i].list = lists[i]
	}
	if !m.reset() {
		return 0
	}
	var freq float32
	for {
		ml, ok := m.nextMatch()
		if !ok {
			return freq
		}
		freq += 1 / float32(1+ml)
	}
}

// reset places every slot on its first position (and the repeat groups apart) and
// fills the queue: Lucene's initPhrasePositions.
func (m *sloppyPhrase) reset() bool {
	m.end = -1 << 31
	for i := range m.s {
		m.s[i].idx, m.s[i].pos = 0, m.s[i].list[0]
	}
	m.positioned = false
	if m.rpts && !m.advanceRepeatGroups() {
		return false
	}
	m.size = 0
	for i := range m.s {
		m.end = max(m.end, m.s[i].pos)
		m.add(i)
	}
	m.positioned = true
	return true
}

// nextMatch is SloppyPhraseMatcher.nextMatch: the length of the next match within the
// slop, or false when there is none.
func (m *sloppyPhrase) nextMatch() (int, bool) {
	if !m.positioned {
		return 0, false
	}
	pp := m.pop()
	ml := m.end - m.s[pp].pos
	next := m.s[m.heap[1]].pos
	for m.advance(pp) {
		if m.rpts && !m.advanceRpts(pp) {
			break
		}
		if m.s[pp].pos > next {
			m.add(pp)
			if ml <= m.slop {
				return ml, true
			}
			pp = m.pop()
			next = m.s[m.heap[1]].pos
			ml = m.end - m.s[pp].pos
		} else if d := m.end - m.s[pp].pos; d < ml {
			ml = d
		}
	}
	m.positioned = false
	return ml, ml <= m.slop
}

// nextPosition moves slot i to its next position; false when it has none left.
func (m *sloppyPhrase) nextPosition(i int) bool {
	s := &m.s[i]
	if s.idx+1 >= len(s.list) {
		return false
	}
	s.idx++
	s.pos = s.list[s.idx]
	return true
}

// advance is advancePP: nextPosition, keeping end the largest position.
func (m *sloppyPhrase) advance(i int) bool {
	if !m.nextPosition(i) {
		return false
	}
	m.end = max(m.end, m.s[i].pos)
	return true
}

// advanceRepeatGroups starts each repeat group with no two members on one position.
func (m *sloppyPhrase) advanceRepeatGroups() bool {
	for _, rg := range m.groups {
		if !m.multi {
			// The k-th member of a group of one term moves k positions ahead.
			for j := 1; j < len(rg); j++ {
				for k := 0; k < j; k++ {
					if !m.nextPosition(rg[j]) {
						return false
					}
				}
			}
			continue
		}
		for i := 0; i < len(rg); {
			incr := 1
			pp := rg[i]
			for k := m.collide(pp); k >= 0; k = m.collide(pp) {
				pp2 := m.lesser(pp, rg[k])
				if !m.advance(pp2) {
					return false
				}
				if m.s[pp2].rptInd < i {
					incr = 0
					break
				}
			}
			i += incr
		}
	}
	return true
}

// advanceRpts resolves a collision that moving pp caused in its repeat group by
// advancing the lesser of the two colliding slots until none remains, then re-queues
// the moved slots as Lucene does (popping until each marked one was seen).
func (m *sloppyPhrase) advanceRpts(pp int) bool {
	g := m.s[pp].group
	if g < 0 {
		return true
	}
	rg := m.groups[g]
	marks := m.marks[:len(rg)]
	clear(marks)
	k0 := m.s[pp].rptInd
	marked := 0
	for k := m.collide(pp); k >= 0; k = m.collide(pp) {
		pp = m.lesser(pp, rg[k])
		if !m.advance(pp) {
			return false
		}
		if k != k0 && !marks[k] {
			marks[k] = true
			marked++
		}
	}
	m.stack = m.stack[:0]
	for marked > 0 && m.size > 0 {
		pp2 := m.pop()
		m.stack = append(m.stack, pp2)
		// Lucene checks the popped slot's index in its own group against the marks of
		// this group, whichever group it belongs to.
		if r := m.s[pp2].rptInd; m.s[pp2].group >= 0 && r < len(marks) && marks[r] {
			marks[r] = false
			marked--
		}
	}
	for i := len(m.stack) - 1; i >= 0; i-- {
		m.add(m.stack[i])
	}
	return true
}

// collide returns the index in pp's group of a member on pp's document position, or -1.
func (m *sloppyPhrase) collide(pp int) int {
	tp := m.s[pp].pos + m.s[pp].offset
	for k, s := range m.groups[m.s[pp].group] {
		if s != pp && m.s[s].pos+m.s[s].offset == tp {
			return k
		}
	}
	return -1
}

// lesser is the slot of the two with the smaller position, then offset.
func (m *sloppyPhrase) lesser(a, b int) int {
	x, y := &m.s[a], &m.s[b]
	if x.pos < y.pos || x.pos == y.pos && x.offset < y.offset {
		return a
	}
	return b
}

// less is PhraseQueue.lessThan: by position, then offset, then slot.
func (m *sloppyPhrase) less(a, b int) bool {
	x, y := &m.s[a], &m.s[b]
	if x.pos != y.pos {
		return x.pos < y.pos
	}
	if x.offset != y.offset {
		return x.offset < y.offset
	}
	return a < b
}

// add, pop and the sifts are Lucene's PriorityQueue, so that ties and the re-queueing
// of advanceRpts come out as in Lucene.
func (m *sloppyPhrase) add(s int) {
	m.size++
	i := m.size
	for j := i >> 1; j > 0 && m.less(s, m.heap[j]); j = i >> 1 {
		m.heap[i] = m.heap[j]
		i = j
	}
	m.heap[i] = s
}

func (m *sloppyPhrase) pop() int {
	top := m.heap[1]
	m.heap[1] = m.heap[m.size]
	m.size--
	i := 1
	node := m.heap[i]
	j := i << 1
	if k := j + 1; k <= m.size && m.less(m.heap[k], m.heap[j]) {
		j = k
	}
	for j <= m.size && m.less(m.heap[j], node) {
		m.heap[i] = m.heap[j]
		i = j
		j = i << 1
		if k := j + 1; k <= m.size && m.less(m.heap[k], m.heap[j]) {
			j = k
		}
	}
	m.heap[i] = node
	return top
}
