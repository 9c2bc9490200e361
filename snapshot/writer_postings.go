//go:build !wasm

// The postings list writer: a term's items, recorded per range of items in varints by
// the indexing pass, laid out in blocks and chunks as openPostings reads them
// (postings.go has the layout).

package snapshot

import (
	"encoding/binary"
	"math/bits"
	"slices"
)

// postingsWriter lays out one dictionary's postings lists, one after another, reusing
// its buffers from list to list.
type postingsWriter struct {
	positions bool // text lists: frequencies and positions
	// items is the collection's size; a list of denseDocFreq(items) or more also
	// leaves its items as a bitmap in bitmap (0: no bitmaps).
	items  int
	bitmap []byte
	// A dense text list also leaves its impacts (impacts.go) in impacts, computed
	// from the field's norms and average length (none without norms).
	norms    []byte
	avgdl    float64
	impacts  []byte
	imp      impactsWriter
	deltas   [postingsBlock]uint32
	freqs    [postingsBlock]uint32
	pos      []uint32 // a block's position values
	doc, grp []byte   // the list's doc part and position groups
}

// appendPostingList appends one term's postings list, which openPostings reads, from
// its buffers of consecutive ranges of items (df items in all). The blocks run across
// the ranges' bounds: the list is the same whichever ranges the items were indexed in.
func (w *postingsWriter) appendPostingList(dst []byte, lists [][]byte, df int) []byte {
	r := postingReader{lists: lists, positions: w.positions}
	w.doc, w.grp, w.bitmap, w.impacts = w.doc[:0], w.grp[:0], nil, nil
	impacts := false
	if w.items > 0 && df >= denseDocFreq(w.items) {
		w.bitmap = bitmapOf(w.items)
		r.bitmap = w.bitmap
		if impacts = w.positions && len(w.norms) == w.items; impacts {
			w.imp.norms, w.imp.avgdl = w.norms, w.avgdl
			w.imp.start(w.items)
		}
	}
	last := 0 // the last item of the previous block
	for left := df; left >= postingsBlock; left -= postingsBlock {
		prev, maxFreq := last, 0
		w.pos = w.pos[:0]
		for i := range w.deltas {
			doc, freq := r.next()
			if impacts {
				w.imp.add(doc, freq)
			}
			w.deltas[i], prev = uint32(doc-prev), doc
			if w.positions {
				w.freqs[i], maxFreq = uint32(freq-1), max(maxFreq, freq)
				w.pos = r.positionValues(w.pos, freq)
			}
		}
		w.doc = binary.AppendUvarint(w.doc, uint64(prev-last))
		if w.positions {
			start := len(w.grp)
			for c := 0; c < len(w.pos); c += postingsBlock {
				w.grp = appendChunk(w.grp, w.pos[c:min(len(w.pos), c+postingsBlock)], maxChunkExceptions)
			}
			w.doc = binary.AppendUvarint(w.doc, uint64(maxFreq))
			w.doc = binary.AppendUvarint(w.doc, uint64(len(w.grp)-start))
		}
		w.doc = appendChunk(w.doc, w.deltas[:], 0)
		if w.positions {
			w.doc = appendChunk(w.doc, w.freqs[:], 0)
		}
		last = prev
	}
	for range df % postingsBlock {
		doc, freq := r.next()
		if impacts {
			w.imp.add(doc, freq)
		}
		delta := uint64(doc - last)
		last = doc
		switch {
		case !w.positions:
			w.doc = binary.AppendUvarint(w.doc, delta)
		case freq == 1:
			w.doc = binary.AppendUvarint(w.doc, delta<<1|1)
		default:
			w.doc = binary.AppendUvarint(w.doc, delta<<1)
			w.doc = binary.AppendUvarint(w.doc, uint64(freq))
		}
		if w.positions { // the tail's group is in uvarints, as recorded
			w.grp = append(w.grp, r.positionBytes(freq)...)
		}
	}
	if impacts {
		w.impacts = w.imp.finish()
	}
	dst = binary.AppendUvarint(dst, uint64(df))
	if w.positions && df > 1 {
		dst = binary.AppendUvarint(dst, uint64(len(w.doc)))
	}
	dst = append(dst, w.doc...)
	return append(dst, w.grp...)
}

// postingReader reads a term's items back from its buffers of consecutive ranges.
type postingReader struct {
	lists     [][]byte // postingBuf.buf of each range
	buf       []byte   // the rest of the current buffer
	doc       int      // the current buffer's last item read
	positions bool
	bitmap    []byte // when set, every item read is added to it
}

// next returns the next item and, for text, its frequency; the item's positions are
// to be read next.
func (r *postingReader) next() (doc, freq int) {
	for len(r.buf) == 0 {
		r.buf, r.doc, r.lists = r.lists[0], 0, r.lists[1:]
	}
	r.doc += int(r.uvarint())
	if r.bitmap != nil {
		r.bitmap[r.doc>>3] |= 1 << (r.doc & 7)
	}
	if r.positions {
		freq = int(r.uvarint())
	}
	return r.doc, freq
}

// positionValues appends the current item's freq position values to dst.
func (r *postingReader) positionValues(dst []uint32, freq int) []uint32 {
	for range freq {
		dst = append(dst, uint32(r.uvarint()))
	}
	return dst
}

// uvarint reads the next uvarint of the buffer, which the indexing pass wrote: most
// are one byte, which is read here without a call.
func (r *postingReader) uvarint() uint64 {
	if b := r.buf[0]; b < 0x80 {
		r.buf = r.buf[1:]
		return uint64(b)
	}
	v, k := binary.Uvarint(r.buf)
	r.buf = r.buf[k:]
	return v
}

// positionBytes returns the current item's freq position values, as their uvarints.
func (r *postingReader) positionBytes(freq int) []byte {
	k := 0
	for ; freq > 0; k++ {
		if r.buf[k] < 0x80 {
			freq--
		}
	}
	b := r.buf[:k]
	r.buf = r.buf[k:]
	return b
}

// appendChunk appends vals (at most 128, each below 2^31) as a chunk, with the width
// and exceptions (at most maxExceptions) that make it smallest, the fewest exceptions
// among equals.
func appendChunk(dst []byte, vals []uint32, maxExceptions int) []byte {
	var count [33]int // values by bit length
	for _, v := range vals {
		count[bits.Len32(v)]++
	}
	top := 32
	for top > 0 && count[top] == 0 {
		top--
	}
	if top > 31 {
		panic("snapshot: a postings value at or above 2^31")
	}
	// Exceptions keep up to 8 bits above the width, in a byte.
	width, size, exceptions := top, packedSize(len(vals), top), 0
	for w, e := top-1, 0; w >= 0 && w >= top-8; w-- {
		if e += count[w+1]; e > maxExceptions {
			break
		}
		if s := 2*e + packedSize(len(vals), w); s < size {
			width, size, exceptions = w, s, e
		}
	}
	dst = append(dst, byte(exceptions<<5|width))
	for i, v := range vals {
		if exceptions > 0 && v>>width != 0 {
			dst = append(dst, byte(i), byte(v>>width))
		}
	}
	// The values are packed 32 bits at a time: a width is below 32, so the bits that
	// wait for the next word fit beside the new value.
	start := len(dst)
	dst = slices.Grow(dst, size+4)
	mask := uint32(1)<<width - 1
	var acc uint64
	n := 0
	for _, v := range vals {
		acc |= uint64(v&mask) << n
		if n += width; n >= 32 {
			dst = binary.LittleEndian.AppendUint32(dst, uint32(acc))
			acc >>= 32
			n -= 32
		}
	}
	dst = binary.LittleEndian.AppendUint32(dst, uint32(acc))
	return dst[:start+packedSize(len(vals), width)]
}

// packedSize is the byte length of n values of w bits packed.
func packedSize(n, w int) int { return (n*w + 7) / 8 }
