package snapshot

// FreqAt returns the frequency of the list's item of index k (its rank: the items
// before it in the list), for scoring by rank. A caller that holds the set of a list's
// items knows each one's index from the set alone, and reads its frequency here without
// decoding the items before it: the cursor steps over whole blocks by their skip
// entries, and in a block reads the one packed value. In the tail, whose items are
// varints, it reads item after item.
//
// The cursor only moves forward: k must not be below the index asked for last. A
// keyword list's frequency is 1. It returns 0 for a k past the end, or where the list
// does not decode. Next, Advance and NextPosition must not be used on a cursor after
// FreqAt: it leaves the item number undecoded.
func (p *Postings) FreqAt(k int) int {
	if k < 0 || k >= p.DocFreq {
		return 0
	}
	if !p.positions {
		return 1
	}
	blocks := p.DocFreq / postingsBlock
	if b := k / postingsBlock; b < blocks {
		// The block entered last is blocks-p.blocks-1 (-1 before the first).
		for blocks-int(p.blocks)-1 < b {
			if p.blocks == 0 || !p.enterBlock() {
				p.fail()
				return 0
			}
		}
		if p.tail || blocks-int(p.blocks)-1 != b {
			return 0 // k is behind the cursor
		}
		j, w := k%postingsBlock, int(p.fw)
		bit := j * w
		k := p.blk + 16*int(p.dw) + 1 + bit>>3
		var x uint64
		if k+8 <= len(p.base) {
			x = le64(p.base[k : k+8])
		} else {
			x = wordSlow(p.base, k)
		}
		return int(uint32(x>>(bit&7))&(1<<(w&31)-1)) + 1
	}
	if !p.tail {
		for p.blocks > 0 {
			if !p.enterBlock() {
				p.fail()
				return 0
			}
		}
		p.enterTail()
	}
	t := int32(k - blocks*postingsBlock)
	for p.j <= t {
		if p.Next() < 0 {
			return 0
		}
	}
	if p.j != t+1 {
		return 0 // k is behind the cursor
	}
	return int(p.freq)
}
