// The postings cursor: one term's items, frequencies and positions, decoded in place
// from the file.

package snapshot

import (
	"encoding/binary"
	"math"
)

// Postings iterates one term's items in increasing order. For analysed text it also
// yields the term's frequency and positions in each item. Like TermDict it holds the
// file by its start and offsets, so that any number of cursors kept by a query cost the
// collector nothing more than one pointer each.
type Postings struct {
	base      string // the whole file
	at, end   int    // the rest of the list: base[at:end]
	DocFreq   int    // number of items holding the term
	positions bool
	doc       int
	freq      int
	posAt     int // the current item's positions, still encoded: base[posAt:posEnd]
	posEnd    int
	pos       int
}

// openPostings returns a cursor over the postings list base[list.off:list.end], as
// appendPostingList wrote it; positions says whether it is a list of analysed text
// (frequencies and positions). A list that does not decode is empty.
func openPostings(base string, list span, positions bool) Postings {
	d := decoder{b: list.of(base)}
	df := d.int(list.len())
	if d.err != nil {
		return Postings{}
	}
	return Postings{base: base, at: list.end - len(d.b), end: list.end, DocFreq: df, positions: positions, doc: -1}
}

// Next advances to the next item and returns it, or -1 at the end. The positions of
// the item it leaves are skipped without being decoded.
func (p *Postings) Next() int {
	at := p.at
	if at >= p.end {
		p.doc = -1
		return -1
	}
	delta, at := uvarintAt(p.base, at, p.end)
	if p.positions && at >= 0 {
		var freq, n uint64
		freq, at = uvarintAt(p.base, at, p.end)
		if at >= 0 {
			n, at = uvarintAt(p.base, at, p.end)
		}
		if at >= 0 && n <= uint64(p.end-at) && freq <= n {
			p.freq, p.posAt, p.posEnd, p.pos = int(freq), at, at+int(n), 0
			at += int(n)
		} else {
			at = -1
		}
	}
	if p.doc < 0 {
		p.doc = 0
	}
	if at < 0 || delta > math.MaxInt32 || p.doc+int(delta) < 0 {
		p.at, p.end, p.doc, p.posAt, p.posEnd = 0, 0, -1, 0, 0
		return -1
	}
	p.doc += int(delta)
	p.at = at
	return p.doc
}

// NextBlock decodes the next postings, up to len(docs) of them, into docs and, for
// analysed text, their frequencies into freqs (which must be as long as docs), skipping
// positions; it returns how many it decoded, 0 at the end of the list. It is Next in a
// loop without a call per item, for the scoring loops; NextPosition then has nothing to
// read until the next Next.
func (p *Postings) NextBlock(docs, freqs []int32) int {
	at, end, doc, base := p.at, p.end, p.doc, p.base
	if doc < 0 {
		doc = 0
	}
	k := 0
	for ; k < len(docs) && at < end; k++ {
		var delta uint64
		delta, at = uvarintAt(base, at, end)
		if p.positions && at >= 0 {
			var freq, n uint64
			freq, at = uvarintAt(base, at, end)
			if at >= 0 {
				n, at = uvarintAt(base, at, end)
			}
			if at >= 0 && n <= uint64(end-at) && freq <= n {
				freqs[k] = int32(freq)
				at += int(n)
			} else {
				at = -1
			}
		}
		if at < 0 || delta > math.MaxInt32 || doc+int(delta) > math.MaxInt32 {
			p.at, p.end, p.doc, p.posAt, p.posEnd = 0, 0, -1, 0, 0
			return k
		}
		doc += int(delta)
		docs[k] = int32(doc)
	}
	p.at, p.posAt, p.posEnd = at, 0, 0
	if k > 0 {
		p.doc = doc
	}
	return k
}

// uvarintAt reads the uvarint at s[i:end] and returns it with the index after it, or
// -1 for a bad or truncated one. The one-byte case, nearly every delta, frequency and
// length of a postings list, stays inlinable.
func uvarintAt(s string, i, end int) (uint64, int) {
	if i < end && i < len(s) && s[i] < 0x80 {
		return uint64(s[i]), i + 1
	}
	return uvarintSlow(s, i, end)
}

func uvarintSlow(s string, i, end int) (uint64, int) {
	end = min(end, len(s))
	var x uint64
	var shift uint
	for j := 0; i+j < end && j < binary.MaxVarintLen64; j++ {
		c := s[i+j]
		x |= uint64(c&0x7f) << shift
		if c < 0x80 {
			return x, i + j + 1
		}
		shift += 7
	}
	return 0, -1
}

// Freq is the term's frequency in the current item (text postings only).
func (p *Postings) Freq() int { return p.freq }

// NextPosition returns the term's next position in the current item, or -1.
func (p *Postings) NextPosition() int {
	if p.posAt >= p.posEnd {
		return -1
	}
	d := decoder{b: p.base[p.posAt:p.posEnd]}
	p.pos += int(d.uvarint())
	if d.err != nil {
		p.posAt, p.posEnd = 0, 0
		return -1
	}
	p.posAt = p.posEnd - len(d.b)
	return p.pos
}
