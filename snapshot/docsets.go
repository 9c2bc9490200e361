// The item sets of common terms, stored as bitmaps beside their postings lists.
//
// # Section docsets (format 2.1)
//
// A query that counts its matches exactly must visit every item of every term it
// matches; for a term that most items have, decoding its list costs far more than
// reading a bitmap of the collection, as Lucene's cached filters and Roaring's bitmap
// containers find. So the writer stores, for every list of at least a sixteenth of the
// items, the list's items as a bitmap:
//
//	u32 count         K, the number of bitmaps
//	u32 words         W, ⌈n/64⌉ for n items
//	u32[K]            the lists' offsets in the postings section, increasing
//	padding to 8
//	K × W u64         the bitmaps, in the same order: bit d%64 of word d/64 is item d
//
// (listTable has the layout.) The bitmaps repeat what the lists say, so a reader may
// ignore them (older readers do: a minor version only adds sections); the builder
// writes both from the same items. From format 3 the bitmaps themselves are section
// docsets.bitmaps, in the paged part (pages.go): a query reads those of its terms.

package snapshot

import (
	"errors"
	"math/bits"
)

// secDocSets names the section of the common terms' bitmaps; from format 3 it ends
// after its padding, and secDocSetBitmaps, in the paged part, holds the bitmaps.
const (
	secDocSets       = "docsets"
	secDocSetBitmaps = "docsets.bitmaps"
)

// denseSections are the sections of the common terms' lists: their bitmaps, and for
// text their impacts (impacts.go).
type denseSections struct {
	docSets, impacts listTable
}

// listTable locates a section of fixed-size records, one per postings list it covers,
// keyed by the lists' offsets in the postings section: the layout of sections docsets
// and impacts.
//
//	u32 count      K
//	u32 per        the record's length in its own units (a bitmap's words, windows)
//	u32[K]         the lists' offsets in the postings section, increasing
//	padding to 8
//	K records of stride bytes, in the same order
//
// The zero value covers no list.
type listTable struct {
	offsets span // u32[count], increasing
	records span // count × stride bytes
	count   int
	stride  int
}

// readListTable checks the section sec, whose records must be per units long (its
// head says so) of unit bytes each: after its head, or, when records is not empty, in
// records (a section of the paged part).
func readListTable(base string, sec, records span, per, unit int) (listTable, error) {
	if sec.len() == 0 {
		return listTable{}, nil
	}
	b := sec.of(base)
	count, ok1 := u32At(b, 0)
	stored, ok2 := u32At(b, 1)
	if !ok1 || !ok2 || int(stored) != per {
		return listTable{}, errors.New("section head")
	}
	offsets, ok := sec.sub(8, 4*int(count))
	if !ok {
		return listTable{}, errors.New("offsets out of bounds")
	}
	start := align8(8 + 4*int(count))
	size := uint64(count) * uint64(per) * uint64(unit)
	if records.len() == 0 {
		records = span{sec.off + start, sec.end}
	} else if uint64(start) != uint64(sec.len()) {
		return listTable{}, errors.New("section size")
	}
	if size != uint64(records.len()) || records.off < 0 {
		return listTable{}, errors.New("section size")
	}
	t := listTable{offsets: offsets, records: records, count: int(count), stride: per * unit}
	prev := int64(-1)
	for i := range t.count {
		off, _ := u32At(offsets.of(base), i)
		if int64(off) <= prev {
			return listTable{}, errors.New("offsets not increasing")
		}
		prev = int64(off)
	}
	return t, nil
}

// find returns where the record of the postings list at offset off of the postings
// section starts in the file.
func (t listTable) find(base string, off int) (int, bool) {
	if t.count == 0 {
		return 0, false
	}
	k, ok := findU32(t.offsets.of(base), 0, 1, t.count, off)
	if !ok {
		return 0, false
	}
	return t.records.off + k*t.stride, true
}

// Bitmap is a set of items stored in the file: bit d%64 of word d/64 is item d. Like
// Postings it holds the file by its start and an offset.
type Bitmap struct {
	base       string
	off, words int
}

// Words is the bitmap's length in 64-bit words: ⌈n/64⌉ for n items.
func (b Bitmap) Words() int { return b.words }

// CopyTo writes the bitmap's words into dst, as many as both have.
func (b Bitmap) CopyTo(dst []uint64) {
	n := min(len(dst), b.words)
	s := b.base[b.off : b.off+8*n]
	for i := range dst[:n] {
		dst[i] = le64(s[8*i : 8*i+8])
	}
}

// WordsInto writes words first (at least 0), first+1, … of the bitmap into dst (0
// past its end) and returns their union: 0 when dst holds no item. (The union keeps
// the loop a loop: as a plain copy, compilers make it a memmove, which in a wasm
// engine is a call out of the module per window and leaf of a search.)
func (b Bitmap) WordsInto(dst []uint64, first int) (union uint64) {
	n := min(len(dst), max(b.words-first, 0))
	if n == 0 {
		clear(dst)
		return 0
	}
	s := b.base[b.off+8*first : b.off+8*(first+n)]
	for i := range dst[:n] {
		x := le64(s[8*i : 8*i+8])
		dst[i] = x
		union |= x
	}
	clear(dst[n:])
	return union
}

// OnesIn counts the items in words from to to-1 of the bitmap (those past its end
// count none).
func (b Bitmap) OnesIn(from, to int) int {
	to = min(to, b.words)
	if from >= to {
		return 0
	}
	s := b.base[b.off+8*from : b.off+8*to]
	n := 0
	for i := 0; i+8 <= len(s); i += 8 {
		n += bits.OnesCount64(le64(s[i : i+8]))
	}
	return n
}

// Word returns word i of the bitmap: items 64i to 64i+63, item 64i+j as bit j (0 for
// an i out of range).
func (b Bitmap) Word(i int) uint64 {
	if uint(i) >= uint(b.words) {
		return 0
	}
	at := b.off + 8*i
	return le64(b.base[at : at+8])
}

// OrInto adds the bitmap's items to dst, a set of the same layout, as far as both go.
func (b Bitmap) OrInto(dst []uint64) {
	n := min(len(dst), b.words)
	s := b.base[b.off : b.off+8*n]
	for i := range dst[:n] {
		dst[i] |= le64(s[8*i : 8*i+8])
	}
}

// OrAll adds the items of every bitmap of bs to dst, a set of the same layout, as far
// as each goes: the same as OrInto for each, with dst read and written once per four
// bitmaps rather than once per bitmap. Fifteen bitmaps of 90k items took 0.4-0.5x the
// time of OrInto for each, natively.
func OrAll(dst []uint64, bs []Bitmap) {
	for len(bs) >= 4 {
		n := min(len(dst), bs[0].words, bs[1].words, bs[2].words, bs[3].words)
		if n == len(dst) {
			or4(dst, bs[0].wordBytes(n), bs[1].wordBytes(n), bs[2].wordBytes(n), bs[3].wordBytes(n))
		} else {
			for _, b := range bs[:4] {
				b.OrInto(dst)
			}
		}
		bs = bs[4:]
	}
	for _, b := range bs {
		b.OrInto(dst)
	}
}

// wordBytes is the bytes of the bitmap's first n words.
func (b Bitmap) wordBytes(n int) string { return b.base[b.off : b.off+8*n] }

// or4 ors the words of a, b, c and d (each 8×len(dst) bytes) into dst.
func or4(dst []uint64, a, b, c, d string) {
	a, b, c, d = a[:8*len(dst)], b[:8*len(dst)], c[:8*len(dst)], d[:8*len(dst)]
	for i := range dst {
		at := 8 * i
		dst[i] |= le64(a[at:at+8]) | le64(b[at:at+8]) | le64(c[at:at+8]) | le64(d[at:at+8])
	}
}

// Count is the number of items in the set.
func (b Bitmap) Count() int {
	s := b.base[b.off : b.off+8*b.words]
	c := 0
	for i := 0; i+8 <= len(s); i += 8 {
		c += bits.OnesCount64(le64(s[i : i+8]))
	}
	return c
}

// Bitmap returns term i's items as a bitmap, when the file stores one for its list (it
// does for the terms of at least a sixteenth of the items, from format 2.1 on).
func (t TermDict) Bitmap(i int) (Bitmap, bool) {
	b, ok, _, _ := t.Dense(i)
	return b, ok
}

// Dense returns term i's bitmap (Bitmap) and impacts (Impacts), each with whether the
// file stores it, looking the term's list up once for both.
func (t TermDict) Dense(i int) (b Bitmap, hasBitmap bool, m Impacts, hasImpacts bool) {
	if t.dense == nil || t.dense.docSets.count == 0 && t.dense.impacts.count == 0 {
		return
	}
	list, ok := t.postingsSpan(i)
	if !ok {
		return
	}
	off := list.off - t.postings.off
	if at, ok := t.dense.docSets.find(t.base, off); ok {
		// Paged from format 3: a bitmap whose pages are missing reads as none, and the
		// request runs again once they are provided.
		rec := span{at, at + t.dense.docSets.stride}
		if data, rec, ok := t.paged(rec, rec); ok {
			b, hasBitmap = Bitmap{base: data, off: rec.off, words: t.dense.docSets.stride / 8}, true
		}
	}
	if at, ok := t.dense.impacts.find(t.base, off); ok && t.positions {
		m, hasImpacts = Impacts{base: t.base, off: at, window: t.dense.impacts.stride / impactSize}, true
	}
	return
}
