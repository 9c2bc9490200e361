package automaton

import (
	"math/bits"
	"unicode/utf8"
)

// The instructions of the Thompson automaton: a state consumes one character of a
// class, or splits to two states, or passes to the next without consuming, or accepts.
const (
	iClass uint8 = iota
	iSplit
	iNop
	iMatch
)

type inst struct {
	op  uint8
	out int32
	arg int32 // iSplit: the other successor; iClass: index into Matcher.classes
}

// charClass is a set of characters laid out for matching: a bitmap of the ASCII ones
// and sorted lo,hi pairs of the others.
type charClass struct {
	ascii [2]uint64
	wide  []rune
	one   rune // the only member, or -1
}

func newCharClass(set []rng) charClass {
	c := charClass{one: -1}
	if len(set) == 1 && set[0].lo == set[0].hi {
		c.one = set[0].lo
	}
	for _, r := range set {
		for ch := r.lo; ch <= r.hi && ch < utf8.RuneSelf; ch++ {
			c.ascii[ch>>6] |= 1 << (ch & 63)
		}
		if r.hi >= utf8.RuneSelf {
			c.wide = append(c.wide, max(r.lo, utf8.RuneSelf), r.hi)
		}
	}
	return c
}

func (c *charClass) has(r rune) bool {
	if r < utf8.RuneSelf {
		return c.ascii[r>>6]&(1<<(r&63)) != 0
	}
	lo, hi := 0, len(c.wide)/2
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		switch {
		case r < c.wide[2*m]:
			hi = m
		case r > c.wide[2*m+1]:
			lo = m + 1
		default:
			return true
		}
	}
	return false
}

// sparseSet is a set of states with constant-time clear and insertion order, after
// Briggs and Torczon; its arrays are sized once so that matching never allocates.
type sparseSet struct {
	dense  []int32
	sparse []int32
}

func newSparseSet(n int) sparseSet {
	return sparseSet{dense: make([]int32, 0, n), sparse: make([]int32, n)}
}

func (s *sparseSet) has(pc int32) bool {
	i := uint32(s.sparse[pc])
	return i < uint32(len(s.dense)) && s.dense[i] == pc
}

func (s *sparseSet) add(pc int32) {
	s.sparse[pc] = int32(len(s.dense))
	s.dense = append(s.dense, pc)
}

// closure adds pc and the states it reaches without consuming to set.
func closure(prog []inst, set *sparseSet, stack []int32, pc int32) []int32 {
	stack = append(stack[:0], pc)
	for len(stack) > 0 {
		pc := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if set.has(pc) {
			continue
		}
		set.add(pc)
		switch in := &prog[pc]; in.op {
		case iSplit:
			stack = append(stack, in.arg, in.out)
		case iNop:
			stack = append(stack, in.out)
		}
	}
	return stack
}

const acceptBit = 1 << 63

func newMatcher(p *parser, start int32, general bool) *Matcher {
	m := &Matcher{prog: p.prog, startPC: start}
	n := len(p.prog)
	m.cur, m.next = newSparseSet(n), newSparseSet(n)
	// Each state is pushed at most once per split that reaches it, plus the start.
	m.stack = make([]int32, 0, 2*n+2)
	m.prefix = literalPrefix(p.prog, p.classes, start, m)

	bit := make([]int32, n)
	k := 0
	for pc := range p.prog {
		bit[pc] = -1
		if p.prog[pc].op == iClass {
			bit[pc] = int32(k)
			k++
		}
	}
	if general || k > 63 {
		m.classes = p.classes
		return m
	}
	// The small engine: what each state leads to, closed over the moves that consume
	// nothing, computed once as a word.
	m.small = true
	m.follow = make([]uint64, k)
	m.classes = make([]charClass, k)
	word := func(pc int32) uint64 {
		m.cur.dense = m.cur.dense[:0]
		m.stack = closure(p.prog, &m.cur, m.stack, pc)
		var w uint64
		for _, s := range m.cur.dense {
			switch p.prog[s].op {
			case iClass:
				w |= 1 << bit[s]
			case iMatch:
				w |= acceptBit
			}
		}
		return w
	}
	m.start = word(start)
	for pc, in := range p.prog {
		if b := bit[pc]; b >= 0 {
			m.follow[b] = word(in.out)
			m.classes[b] = p.classes[in.arg]
			cl := &m.classes[b]
			for ch := 0; ch < utf8.RuneSelf; ch++ {
				if cl.ascii[ch>>6]&(1<<(ch&63)) != 0 {
					m.byASCII[ch] |= 1 << b
				}
			}
		}
	}
	m.prog, m.cur, m.next, m.stack = nil, sparseSet{}, sparseSet{}, nil
	return m
}

// literalPrefix follows the automaton from its start while exactly one state, of a
// single character, can come next.
func literalPrefix(prog []inst, classes []charClass, pc int32, m *Matcher) string {
	var b []byte
	for range prog {
		m.cur.dense = m.cur.dense[:0]
		m.stack = closure(prog, &m.cur, m.stack, pc)
		only := int32(-1)
		for _, s := range m.cur.dense {
			if op := prog[s].op; op == iClass || op == iMatch {
				if only >= 0 {
					only = -2
					break
				}
				only = s
			}
		}
		if only < 0 || prog[only].op != iClass {
			break
		}
		// U+FFFD also matches a byte of invalid UTF-8, which does not start with it.
		r := classes[prog[only].arg].one
		if r < 0 || r == utf8.RuneError {
			break
		}
		b = utf8.AppendRune(b, r)
		pc = prog[only].out
	}
	return string(b)
}

func (m *Matcher) matchSmall(s string) bool {
	set := m.start
	for i := 0; i < len(s); {
		var next uint64
		if c := s[i]; c < utf8.RuneSelf {
			i++
			for live := set & m.byASCII[c]; live != 0; live &= live - 1 {
				next |= m.follow[bits.TrailingZeros64(live)]
			}
		} else {
			r, w := utf8.DecodeRuneInString(s[i:])
			i += w
			for live := set &^ acceptBit; live != 0; live &= live - 1 {
				if b := bits.TrailingZeros64(live); m.classes[b].has(r) {
					next |= m.follow[b]
				}
			}
		}
		if next == 0 {
			return false
		}
		set = next
	}
	return set&acceptBit != 0
}

func (m *Matcher) matchGeneral(s string) bool {
	cur, next := &m.cur, &m.next
	cur.dense = cur.dense[:0]
	m.stack = closure(m.prog, cur, m.stack, m.startPC)
	for i := 0; i < len(s); {
		r, w := rune(s[i]), 1
		if r >= utf8.RuneSelf {
			r, w = utf8.DecodeRuneInString(s[i:])
		}
		i += w
		next.dense = next.dense[:0]
		for _, pc := range cur.dense {
			if in := &m.prog[pc]; in.op == iClass && m.classes[in.arg].has(r) {
				m.stack = closure(m.prog, next, m.stack, in.out)
			}
		}
		if len(next.dense) == 0 {
			return false
		}
		cur, next = next, cur
	}
	for _, pc := range cur.dense {
		if m.prog[pc].op == iMatch {
			return true
		}
	}
	return false
}
