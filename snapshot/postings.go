// The postings cursor: one term's items, frequencies and positions, decoded in place
// from the file.
//
// # Postings list layout
//
// A term's list (the span its dictionary gives) follows Lucene 8's postings format:
// items in blocks of 128 whose deltas and frequencies are bit-packed, each block led by
// a skip entry, the final partial block in varints, and positions apart, after all of
// the list's items, so that scoring never reads them.
//
//	uvarint n          the number of items (the document frequency)
//	uvarint docLen     text lists of 2 items or more only: the byte length of the doc
//	                   part, which the position groups follow (a single item's
//	                   positions follow it)
//	doc part
//	  n/128 blocks of 128 items, each:
//	    uvarint lastDelta  skip entry: the block's last item minus the previous block's
//	                       (the first block's: minus 0)
//	    uvarint maxFreq    text only: the block's largest frequency (its impact)
//	    uvarint posLen     text only: the byte length of the block's position group
//	    chunk              the items' deltas, without exceptions: from the item before,
//	                       the first from the previous block's last item (from 0 for
//	                       the first block)
//	    chunk              text only: the items' frequencies minus 1, without exceptions
//	  the tail: the last n%128 items (all n below 128), deltas continuing from the last
//	  block's last item (from 0 without blocks), each
//	    keyword: uvarint delta
//	    text:    uvarint delta<<1 | (1 if freq is 1), then uvarint freq unless it is 1
//	position groups, text only: one per block in order, then the tail's. A group holds
//	its items' positions item after item, each item's first as it is and the next ones
//	as deltas from the one before.
//	  a block's group: chunks of 128 values, the last one shorter
//	  the tail's group: uvarints
//
// A chunk holds up to 128 values below 2^31 as a patched frame of reference (Lucene's
// PForUtil): a few large values, the exceptions, do not widen all the others.
//
//	byte token                     width w (low 5 bits), exception count e (high 3 bits)
//	e × {byte index, byte high}    in increasing index order: value index has high<<w
//	                               added, its bits above w
//	⌈count·w/8⌉ bytes              the low w bits of every value, packed little-endian:
//	                               value i is bits [i·w, i·w+w) of these bytes
//
// Reading value i is one 8-byte window read at byte i·w/8 (and, for positions, a look
// at the next exception), so a cursor decodes a block where it lies, with no buffer.
// Deltas and frequencies, which Next reads one at a time, have no exceptions: their
// check on every item cost more time than the 1.5% of the postings they saved.
// A chunk's count is not stored: a block's chunks hold 128 values, a position group's
// chunks too but its last, and a reader only ever steps over whole chunks.
//
// Skipping: a cursor steps from skip entry to skip entry, adding up lastDelta, posLen
// and the chunks' sizes (from their tokens), and decodes only the block it stops in.
// maxFreq bounds the block's scores for skipping by score (block-max WAND); a finer
// impact (with the block's smallest norm) would be one more uvarint in the entry.

package snapshot

import "math"

const (
	// postingsBlock is the number of items of a block and of values of a full chunk.
	postingsBlock = 128
	// maxChunkExceptions is the most exceptions a chunk's token can count.
	maxChunkExceptions = 7
	// noChunk marks Postings.pex while the position chunk at posAt is not read yet.
	noChunk = 0xff
)

// Postings iterates one term's items in increasing order. For analysed text it also
// yields the term's frequency and positions in each item. Like TermDict it holds the
// file by its start and offsets, so that any number of cursors kept by a query cost the
// collector nothing more than one pointer each; it decodes packed values where they lie
// and so holds no buffer.
type Postings struct {
	base string // the whole file
	// DocFreq is the number of items in the list: the term's document frequency.
	DocFreq int

	doc      int // the current item (before the first, what its delta adds to); -1 at the end
	last     int // the current block's last item, from its skip entry; 0 before the first
	at       int // the next block's skip entry or, in the tail, the next item's uvarints
	end      int // the end of the list
	blk      int // the current block's packed deltas (its chunk of frequencies follows)
	grp      int // the next position group (the next block's or the tail's); 0: unknown
	posAt    int // the chunk holding position value posNext or, in the tail's group, its uvarint
	posStart int // the current item's first position: its index in the group

	j, cnt  int32 // items read from the current block or the tail, and its item count
	blocks  int32 // blocks not yet entered
	freq    int32 // the current item's frequency (text)
	posItem int32 // the item (its index in the block or tail) whose positions are open
	posNext int32 // the index in the group of the next position value to read
	posEnd  int32 // the end of posItem's positions in the group
	pos     int32 // the last position returned (0 before the item's first)
	maxFreq int32 // the current block's largest frequency, from its skip entry

	dw, fw      uint8 // the current block's widths of deltas and frequencies
	pw, pe, pex uint8 // the position chunk at posAt: width, exceptions, those passed
	pnext       uint8 // the value index of exception pex, noChunk past the last
	positions   bool  // a list of analysed text: frequencies and positions
	tail        bool  // the cursor is in the tail (or at the end)
	noPos       bool  // NextPosition has nothing to read until the next Next
}

// openPostings returns a cursor over the postings list base[list.off:list.end], as
// appendPostingList wrote it; positions says whether it is a list of analysed text
// (frequencies and positions). A list whose head does not decode is empty; one that
// breaks further on ends there.
func openPostings(base string, list span, positions bool) (p Postings) {
	if list.off < 0 || list.off > list.end || list.end > len(base) {
		return p
	}
	n, at := uvarintAt(base, list.off, list.end)
	// An item takes at least a byte of the tail or an eighth of one of a block (whose
	// deltas after the first are at least 1): a larger count is corrupt, and would
	// mislead the callers that budget work by it.
	if at < 0 || n > math.MaxInt32 || n > 8*uint64(list.len()) {
		return p
	}
	if positions && n > 1 {
		docLen, next := uvarintAt(base, at, list.end)
		if next < 0 || docLen > uint64(list.end-next) {
			return p
		}
		at, p.grp = next, next+int(docLen)
	}
	// The fields are set one by one, in place: a composite literal is built aside and
	// copied, which costs more than the rest for the many short lists.
	p.base, p.DocFreq, p.doc, p.at, p.end = base, int(n), -1, at, list.end
	p.blocks, p.positions = int32(n/postingsBlock), positions
	if p.blocks == 0 { // all tail, entered at once for the many short lists
		p.enterTail()
	}
	return p
}

// Next advances to the next item and returns it, or -1 at the end. It decodes the
// item's delta and frequency; positions are read when asked for.
func (p *Postings) Next() int {
	if p.j >= p.cnt || p.tail {
		return p.nextSlow()
	}
	s, j, w := p.base, int(p.j), p.dw
	bit := j * int(w)
	var x uint64
	if k := p.blk + bit>>3; k+8 <= len(s) { // word(s, k), inlined
		x = le64(s[k : k+8])
	} else {
		x = wordSlow(s, k)
	}
	// w&31 is w (a token's 5 bits): said so, a shift by 32 or more needs no handling.
	p.doc += int(uint32(x>>(bit&7)) & (1<<(w&31) - 1))
	if p.positions {
		at := p.blk + 16*int(w) + 1
		w = p.fw
		bit = j * int(w)
		if k := at + bit>>3; k+8 <= len(s) {
			x = le64(s[k : k+8])
		} else {
			x = wordSlow(s, k)
		}
		p.posStart += int(p.freq)
		p.freq = int32(uint32(x>>(bit&7))&(1<<(w&31)-1)) + 1
		p.posEnd = 0 // NextPosition opens the new item
	}
	p.j++
	p.noPos = false
	if p.doc > p.last { // deltas that overshoot the skip entry: corrupt
		return p.fail()
	}
	return p.doc
}

// nextSlow is Next at the start of a block, and in the tail.
func (p *Postings) nextSlow() int {
	for p.j >= p.cnt {
		if !p.nextPart() {
			return p.fail()
		}
	}
	if !p.tail {
		return p.Next()
	}
	// The tail's next item, with tailBlock's checks: they stop at the same item of a
	// corrupt list.
	s, end := p.base, p.end
	v, at := uvarintAt(s, p.at, end)
	if p.positions {
		f := uint64(1)
		if v&1 == 0 {
			f, at = uvarintAt(s, at, end)
		}
		if v >>= 1; at < 0 || f == 0 || f > math.MaxInt32 {
			return p.fail()
		}
		p.posStart += int(p.freq)
		p.freq, p.posEnd = int32(f), 0
	}
	if at < 0 || v > math.MaxInt32 || int64(p.doc)+int64(v) > math.MaxInt32 {
		return p.fail()
	}
	p.doc += int(v)
	p.at = at
	p.j++
	p.noPos = false
	return p.doc
}

// nextPart enters the next block, or the tail after the last block; false at the end
// of the list or when a skip entry does not decode.
func (p *Postings) nextPart() bool {
	switch {
	case p.tail:
		return false
	case p.blocks > 0:
		return p.enterBlock()
	}
	p.enterTail()
	return true
}

// fail ends the cursor (at the end of the list, or where it does not decode) and
// returns -1.
func (p *Postings) fail() int {
	p.doc, p.j, p.cnt, p.blocks, p.tail, p.noPos = -1, 0, 0, 0, true, true
	return -1
}

// enterBlock reads the skip entry at p.at and makes its block current, leaving the
// rest of the current one unread.
func (p *Postings) enterBlock() bool {
	s, end := p.base, p.end
	delta, at := uvarintAt(s, p.at, end)
	var maxFreq, posLen uint64
	if p.positions && at >= 0 {
		maxFreq, at = uvarintAt(s, at, end)
		if at >= 0 {
			posLen, at = uvarintAt(s, at, end)
		}
	}
	if at < 0 || delta > math.MaxInt32 || int64(p.last)+int64(delta) > math.MaxInt32 || maxFreq > math.MaxInt32 {
		return false
	}
	dw, next := blockChunk(s, at, end)
	var fw uint8
	if p.positions {
		fw, next = blockChunk(s, next, end)
		if next < 0 || p.grp == 0 || posLen > uint64(end-p.grp) {
			return false
		}
		p.posAt, p.grp = p.grp, p.grp+int(posLen)
	}
	if next < 0 {
		return false
	}
	p.doc, p.last = p.last, p.last+int(delta)
	p.blk, p.at, p.dw, p.fw = at+1, next, dw, fw
	p.j, p.cnt, p.blocks, p.maxFreq = 0, postingsBlock, p.blocks-1, int32(maxFreq)
	p.resetPositions()
	return true
}

// blockChunk reads the token of a block's chunk (128 values without exceptions) at
// s[at:end] and returns its width and end, or an end of -1 when it is not one.
func blockChunk(s string, at, end int) (uint8, int) {
	if at < 0 || at >= end || s[at]>>5 != 0 {
		return 0, -1
	}
	if next := at + 1 + 16*int(s[at]); next <= end {
		return s[at], next
	}
	return 0, -1
}

// enterTail makes the tail current, leaving the rest of the current block unread.
func (p *Postings) enterTail() {
	p.tail, p.j, p.cnt = true, 0, int32(p.DocFreq%postingsBlock)
	p.doc, p.posAt = p.last, p.grp
	p.resetPositions()
}

// resetPositions starts the position reader at the start of a group (whose chunk or
// uvarint is at posAt), before the block's or tail's first item.
func (p *Postings) resetPositions() {
	p.freq, p.posStart, p.posNext, p.posEnd, p.posItem = 0, 0, 0, 0, -1
	p.pex, p.pnext = noChunk, noChunk
}

// Advance moves to the first item at or after target and returns it, or -1 at the end;
// on an item already at or after target it stays there. Blocks that end before target
// are stepped over by their skip entries, without being decoded.
func (p *Postings) Advance(target int) int {
	if p.j > 0 && p.doc >= target {
		return p.doc
	}
	for !p.tail && (p.j >= p.cnt || p.last < target) {
		if p.blocks == 0 {
			p.enterTail() // what is left of the current block is before target
			break
		}
		if !p.enterBlock() {
			return p.fail()
		}
	}
	for {
		if doc := p.Next(); doc < 0 || doc >= target {
			return doc
		}
	}
}

// NextBlock decodes the next postings, up to len(docs) of them, into docs and, for
// analysed text, their frequencies into freqs (which must be as long as docs); it
// returns how many it decoded, 0 at the end of the list. It is Next in a loop without a
// call per item, for the scoring loops: a whole block is unpacked in one pass when docs
// has room for it. NextPosition then has nothing to read until the next Next.
func (p *Postings) NextBlock(docs, freqs []int32) int {
	if p.positions && len(freqs) < len(docs) {
		docs = docs[:len(freqs)]
	}
	k := 0
	for k < len(docs) {
		if p.j >= p.cnt {
			if p.tail { // the end
				break
			}
			if !p.nextPart() {
				p.fail()
				break
			}
			continue
		}
		var n int
		var ok bool
		if p.tail {
			n, ok = p.tailBlock(docs[k:], freqs)
		} else {
			n, ok = p.packedBlock(docs[k:], freqs)
		}
		if p.positions {
			freqs = freqs[n:]
		}
		k += n
		if !ok {
			p.fail()
			break
		}
	}
	p.noPos = true
	return k
}

// packedBlock decodes the current block's next items into docs and their frequencies
// into freqs (text only), as many as both hold, and returns how many; false after the
// items that decode when the block is corrupt.
func (p *Postings) packedBlock(docs, freqs []int32) (int, bool) {
	n, ok := p.decodeDocs(docs)
	if n == 0 {
		return 0, false
	}
	if p.positions {
		freqs = freqs[:n]
		unpack(freqs, p.base, p.blk+16*int(p.dw)+1, p.fw, int(p.j))
		start := p.posStart + int(p.freq)
		for i := range freqs {
			freqs[i]++
			start += int(freqs[i])
		}
		p.freq = freqs[n-1]
		p.posStart, p.posEnd = start-int(p.freq), 0
	}
	p.doc = int(docs[n-1])
	p.j += int32(n)
	return n, ok
}

// decodeDocs decodes the current block's next items into docs, as many as both hold,
// without moving the cursor, and returns how many; false after the items that decode
// when the block is corrupt (an item beyond the block's last).
func (p *Postings) decodeDocs(docs []int32) (int, bool) {
	n := min(int(p.cnt-p.j), len(docs))
	docs = docs[:n]
	unpack(docs, p.base, p.blk, p.dw, int(p.j))
	doc, last := p.doc, p.last
	for i, d := range docs {
		if d < 0 || int64(doc)+int64(d) > int64(last) { // a delta of 32 bits, or past the block
			return i, false
		}
		doc += int(d)
		docs[i] = int32(doc)
	}
	return n, true
}

// tailBlock decodes the tail's next items into docs and their frequencies into freqs
// (text only), as many as both hold, and returns how many; false after the items that
// decode when the tail is corrupt. It has nextSlow's checks.
func (p *Postings) tailBlock(docs, freqs []int32) (int, bool) {
	s, at, end, doc := p.base, p.at, p.end, p.doc
	n := min(int(p.cnt-p.j), len(docs))
	k, ok := 0, true
	if p.positions {
		freqs = freqs[:n]
		start, freq := p.posStart, int(p.freq)
		for ; k < n; k++ {
			v, next := uvarintAt(s, at, end)
			f := uint64(1)
			if v&1 == 0 {
				f, next = uvarintAt(s, next, end)
			}
			if v >>= 1; next < 0 || f == 0 || f > math.MaxInt32 || v > math.MaxInt32 || int64(doc)+int64(v) > math.MaxInt32 {
				ok = false
				break
			}
			doc, at, start, freq = doc+int(v), next, start+freq, int(f)
			docs[k], freqs[k] = int32(doc), int32(f)
		}
		p.posStart, p.freq, p.posEnd = start, int32(freq), 0
	} else {
		for ; k < n; k++ {
			v, next := uvarintAt(s, at, end)
			if next < 0 || v > math.MaxInt32 || int64(doc)+int64(v) > math.MaxInt32 {
				ok = false
				break
			}
			doc, at = doc+int(v), next
			docs[k] = int32(doc)
		}
	}
	p.at, p.doc, p.j = at, doc, p.j+int32(k)
	return k, ok
}

// Freq is the term's frequency in the current item (text postings only; 0 otherwise).
func (p *Postings) Freq() int { return int(p.freq) }

// NextPosition returns the term's next position in the current item, or -1. The first
// call for an item skips the positions of the items before it that were not read.
func (p *Postings) NextPosition() int {
	if p.posNext >= p.posEnd { // the item's positions are not open, or all read
		if p.noPos || p.posItem == p.j-1 || !p.openItem() {
			return -1
		}
	}
	var v uint32
	if p.tail {
		if at := p.posAt; uint(at) < uint(p.end) && p.base[at] < 0x80 { // uvarintAt, inlined
			v, p.posAt = uint32(p.base[at]), at+1
		} else {
			x, at := uvarintSlow(p.base, at, p.end)
			if at < 0 || x > math.MaxInt32 {
				return p.stopPositions()
			}
			v, p.posAt = uint32(x), at
		}
		p.posNext++
	} else {
		s, w, i := p.base, p.pw, p.posNext%postingsBlock
		data, bit := p.posAt+1+2*int(p.pe), int(i)*int(w)
		var x uint64
		if k := data + bit>>3; k+8 <= len(s) { // word(s, k), inlined
			x = le64(s[k : k+8])
		} else {
			x = wordSlow(s, k)
		}
		v = uint32(x>>(bit&7)) & (1<<(w&31) - 1)
		if int32(p.pnext) == i { // exceptions come in value order
			ex := p.posAt + 2*int(p.pex)
			v |= uint32(s[ex+2]) << w
			p.seekException(i + 1)
		}
		if p.posNext++; p.posNext%postingsBlock == 0 && !p.nextChunk() {
			return p.stopPositions()
		}
	}
	pos := int64(p.pos) + int64(v)
	if pos > math.MaxInt32 {
		return p.stopPositions()
	}
	p.pos = int32(pos)
	return int(pos)
}

// stopPositions makes NextPosition return -1 until the next item, where the positions
// do not decode, and returns -1.
func (p *Postings) stopPositions() int {
	p.posEnd, p.noPos = p.posNext, true
	return -1
}

// openItem makes the current item the one whose positions are read, stepping the
// position reader over those of the items before it that were not read.
func (p *Postings) openItem() bool {
	start, freq := p.posStart, int(p.freq)
	if !p.positions || p.j == 0 || freq <= 0 || start < int(p.posNext) || int64(start)+int64(freq) > math.MaxInt32 {
		return false
	}
	if p.tail {
		if p.posAt == 0 { // a list of one item: its positions follow it
			p.posAt = p.at
		}
		// A uvarint takes a byte at least: its last one, which ends it, is below 0x80.
		at := p.posAt
		if start+freq-int(p.posNext) > p.end-at {
			return false
		}
		for n := start - int(p.posNext); n > 0; at++ {
			if at >= p.end {
				return false
			}
			if p.base[at] < 0x80 {
				n--
			}
		}
		p.posAt, p.posNext = at, int32(start)
	} else if freq > int(p.maxFreq) || !p.positionsFit(start+freq) || !p.skipChunks(start) {
		// A frequency above the skip entry's maximum is corrupt, and would have the
		// reader step through the rest of the group.
		return false
	}
	p.posItem, p.posEnd, p.pos = p.j-1, int32(start+freq), 0
	return true
}

// readChunk reads the token of the position chunk at posAt, which must lie in the
// block's group (it ends at p.grp, where the next group starts).
func (p *Postings) readChunk() bool {
	at := p.posAt
	if at < 0 || at >= p.grp || at+1+2*int(p.base[at]>>5) > p.grp {
		return false
	}
	p.pw, p.pe, p.pex = p.base[at]&31, p.base[at]>>5, 0
	p.seekException(0)
	return true
}

// nextChunk moves the position reader to the next chunk of the block's group, once
// the current one is read; false when the item has values left and the chunk is not
// there.
func (p *Postings) nextChunk() bool {
	p.posAt, p.pex, p.pnext = p.posAt+1+2*int(p.pe)+16*int(p.pw), noChunk, noChunk
	return p.posNext >= p.posEnd || p.readChunk()
}

// seekException passes the exceptions of the position chunk of values before i.
func (p *Postings) seekException(i int32) {
	for ; p.pex < p.pe; p.pex++ {
		if x := p.base[p.posAt+1+2*int(p.pex)]; int32(x) >= i {
			p.pnext = x
			return
		}
	}
	p.pnext = noChunk
}

// positionsFit reports whether the block's group can hold values up to index end
// (exclusive) from the reader on: a chunk takes a byte at least. Corrupt frequencies are
// caught before they have the reader step through the group again and again: all the
// positions that the items of a group ask for are at most 128 per byte of it.
func (p *Postings) positionsFit(end int) bool {
	return (end-1)/postingsBlock-int(p.posNext)/postingsBlock < p.grp-p.posAt
}

// skipChunks steps the position reader forward to value to of the block's group, over
// whole chunks by their tokens, and reads the token of the chunk it stops in.
func (p *Postings) skipChunks(to int) bool {
	s, at := p.base, p.posAt
	chunkRead := p.pex != noChunk
	if int(p.posNext)/postingsBlock < to/postingsBlock {
		for next := int(p.posNext); next/postingsBlock < to/postingsBlock; {
			if at < 0 || at >= p.grp { // p.grp: the end of the block's group
				return false
			}
			at += 1 + 2*int(s[at]>>5) + 16*int(s[at]&31)
			next = (next/postingsBlock + 1) * postingsBlock
		}
		chunkRead = false
	}
	p.posAt, p.posNext = at, int32(to)
	if !chunkRead && !p.readChunk() {
		// No chunk is read at posAt: the next item's call must not take the last
		// one's token and exceptions for this one's (a corrupt group).
		p.pex, p.pnext = noChunk, noChunk
		return false
	}
	p.seekException(p.posNext % postingsBlock)
	return true
}

// unpack decodes values from, from+1, ... of the w-bit values packed at s[data:] into
// dst.
func unpack(dst []int32, s string, data int, w uint8, from int) {
	mask := uint64(1)<<w - 1
	switch bit := from * int(w); {
	case w == 0:
		clear(dst)
	case data+(bit+len(dst)*int(w))>>3+8 <= len(s): // every window within s
		for i := range dst {
			k := data + bit>>3
			dst[i] = int32(le64(s[k:k+8]) >> (bit & 7) & mask)
			bit += int(w)
		}
	default:
		for i := range dst {
			dst[i] = int32(wordSlow(s, data+bit>>3) >> (bit & 7) & mask)
			bit += int(w)
		}
	}
}

// wordSlow returns the 8 bytes of s from k, little-endian, with zeros past its end:
// the window that holds a packed value, where it is near the end of the file.
//
//go:noinline
func wordSlow(s string, k int) uint64 {
	var x uint64
	for b := 0; b < 8 && k+b < len(s); b++ {
		if k+b >= 0 {
			x |= uint64(s[k+b]) << (8 * b)
		}
	}
	return x
}

// uvarintAt reads the uvarint at s[i:end] and returns it with the index after it, or
// -1 for a bad or truncated one. The one-byte case, nearly every frequency and many
// deltas of a tail, comes first.
func uvarintAt(s string, i, end int) (uint64, int) {
	if uint(i) < uint(end) && uint(i) < uint(len(s)) && s[i] < 0x80 {
		return uint64(s[i]), i + 1
	}
	return uvarintSlow(s, i, end)
}

func uvarintSlow(s string, i, end int) (uint64, int) {
	if i < 0 {
		return 0, -1
	}
	end = min(end, len(s))
	var x uint64
	var shift uint
	for j := 0; i+j < end && j < 10; j++ {
		c := s[i+j]
		x |= uint64(c&0x7f) << shift
		if c < 0x80 {
			return x, i + j + 1
		}
		shift += 7
	}
	return 0, -1
}

// SkipBlock enters the next block by its skip entry alone, decoding none of its items,
// and returns the block's last item and largest frequency (0 for a list without
// frequencies); ok is false when no block is left (the cursor is in the tail, at the
// end, or the entry does not decode). The cursor then stands before the block's first
// item, the rest of the block it was in left unread. Scoring by block maxima (block-max
// WAND) reads the bounds of blocks this way, with a copy of a cursor, before it decides
// which blocks to decode.
func (p *Postings) SkipBlock() (last, maxFreq int, ok bool) {
	if p.tail || p.blocks == 0 {
		return 0, 0, false
	}
	if !p.enterBlock() {
		p.fail()
		return 0, 0, false
	}
	return p.last, int(p.maxFreq), true
}

// NextDocs decodes the next items, up to len(docs) of them, into docs, and returns how
// many it decoded, 0 at the end of the list: NextBlock for a caller that needs no
// frequency (counting a query's matches). Freq and NextPosition are not meaningful
// after it.
func (p *Postings) NextDocs(docs []int32) int {
	var freqs [postingsBlock]int32
	k := 0
	for k < len(docs) {
		n := p.NextBlock(docs[k:min(len(docs), k+len(freqs))], freqs[:])
		if n == 0 {
			break
		}
		k += n
	}
	return k
}

// AddTo adds the cursor's remaining items to the bitset set (item d is bit d%64 of word
// d/64; items past its end are left out) and returns how many it read, decoding item
// numbers only: counting a query's matches needs no frequency. It reads what NextDocs
// reads, without a buffer in between. Freq and NextPosition are not meaningful after it.
func (p *Postings) AddTo(set []uint64) int {
	var docs [postingsBlock]int32
	n := 0
	for {
		if !p.tail && p.j >= p.cnt {
			if !p.nextPart() { // as NextDocs ends
				p.fail()
				return n
			}
			continue
		}
		if !p.tail && p.j == 0 && p.cnt == postingsBlock {
			if k, ok := p.addBlock(set); ok {
				n += k
				continue
			}
		}
		k := p.NextDocs(docs[:])
		if k == 0 {
			return n
		}
		for _, d := range docs[:k] {
			if w := int(d >> 6); w < len(set) {
				set[w] |= 1 << uint(d&63)
			}
		}
		n += k
	}
}

// addBlock adds the items of the current block, none of which is read yet, to set and
// returns how many; false, having done nothing, when the block does not lie wholly
// within the file (NextDocs then reads it). Like packedBlock, it stops the cursor at the
// first item past the skip entry's, in a corrupt block.
func (p *Postings) addBlock(set []uint64) (int, bool) {
	w := uint(p.dw)
	if p.blk+16*int(w)+8 > len(p.base) {
		return 0, false
	}
	b := p.base[p.blk : p.blk+16*int(w)+8]
	mask := uint64(1)<<w - 1
	doc, last, bit := p.doc, p.last, uint(0)
	// The bits of the items in one word of set gather in acc, which is written once
	// per word: or-ing each item into memory waits on the store before.
	word, acc := doc>>6, uint64(0)
	for i := range postingsBlock {
		k := bit >> 3
		d := le64(b[k:k+8]) >> (bit & 7) & mask
		bit += w
		if int64(d) > int64(last)-int64(doc) { // past the block's last item (in 64 bits: a 32-bit int would wrap)
			flushWord(set, word, acc)
			p.fail()
			return i, true
		}
		doc += int(d)
		if doc>>6 != word {
			flushWord(set, word, acc)
			word, acc = doc>>6, 0
		}
		acc |= 1 << uint(doc&63)
	}
	flushWord(set, word, acc)
	p.doc, p.j = doc, postingsBlock
	p.noPos = true
	return postingsBlock, true
}

// flushWord ors acc into word i of set, when set has it.
func flushWord(set []uint64, i int, acc uint64) {
	if uint(i) < uint(len(set)) {
		set[i] |= acc
	}
}
