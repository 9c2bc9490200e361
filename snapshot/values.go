// The value columns: a field's typed values and sort ranks, read in place.
//
// A field's column is one table of its distinct values in rank order and, per item that
// has values, ordinals into that table; an item's ranks are its values' places in the
// table. Items without the field cost one bit (none when every item has it), so a
// field that few items have costs little more than its values.
//
//	header (36 bytes)
//	  flags u32 (valuesDense, valuesMulti, valuesStringIdentity, valuesTieRanks)
//	  ordinal width u8, start width u8, reserved u16
//	  present items u32 (k), distinct values u32 (d), values u32 (m), and the number of
//	  distinct numbers, dates, strings and booleans u32 each (they sum to d)
//	presence (unless dense): u32[ceil(n/64)] present items before each 64-item block,
//	  then a bitmap u64[ceil(n/64)] (bit i of word w: item 64w+i has values)
//	the distinct values in rank order: numbers f64, dates i64 (ms since the epoch),
//	  strings u32 keyword ordinals (absent when string i is keyword i), booleans u8
//	tie ranks (only when two entries compare equal, as -0 and 0 do): u32[d]
//	ordinals: m values at the ordinal width, item after item in source order
//	starts (multi-valued only): k+1 values at the start width, where each present
//	  item's ordinals start
//
// Packed arrays hold values least significant bit first and end with packedSlack zero
// bytes, so that any value is one 8-byte load.

package snapshot

import (
	"errors"
	"math"
	"math/bits"
	"slices"
)

// Value column flags.
const (
	valuesDense          = 1 << iota // every item has values: no presence bitmap
	valuesMulti                      // some item has several values: starts present
	valuesStringIdentity             // the i-th distinct string is keyword term i
	valuesTieRanks                   // ranks stored apart from table positions
)

const (
	valuesHeaderSize = 36
	// presenceBlock is how many items share one count of the presence directory: a
	// lookup counts the bits of at most presenceBlock/64 words. One count per word
	// costs half a bit per item and makes a rank one popcount (sorting calls it
	// O(hits log hits) times).
	presenceBlock = 64
	packedSlack   = 8
)

// valuesHeader is a value column's header.
type valuesHeader struct {
	flags              uint32
	ordWidth, offWidth uint8
	items, distinct    uint32
	values             uint32
	kinds              [4]uint32 // numbers, dates, strings, booleans
}

// valueIndex is an opened value column: offsets into the file and the header's counts,
// so that reading a value costs no allocation.
type valueIndex struct {
	h              valuesHeader
	dir, words     int // presence directory and bitmap (unless dense)
	numbers, dates int
	strings, bools int
	ties           int
	ords, starts   int
	n              int  // items in the snapshot
	present        bool // the column exists
}

// packedLen is the stored size of count values of width bits.
func packedLen(count uint64, width uint8) uint64 {
	return (count*uint64(width)+7)/8 + packedSlack
}

// openValues reads the column at base[sec.off:sec.end] of a field over n items.
func openValues(base string, sec span, n int) (valueIndex, error) {
	bad := errors.New("value column out of bounds")
	if sec.len() < valuesHeaderSize {
		return valueIndex{}, bad
	}
	b := base[sec.off:sec.end]
	h := valuesHeader{flags: le32(b), ordWidth: b[4], offWidth: b[5]}
	h.items, h.distinct, h.values = le32(b[8:]), le32(b[12:]), le32(b[16:])
	sum := uint64(0)
	for i := range h.kinds {
		h.kinds[i] = le32(b[20+4*i:])
		sum += uint64(h.kinds[i])
	}
	multi := h.flags&valuesMulti != 0
	switch {
	case h.ordWidth == 0 || h.ordWidth > 32 || multi && (h.offWidth == 0 || h.offWidth > 32):
		return valueIndex{}, errors.New("value column widths")
	case uint64(h.items) > uint64(n) || sum != uint64(h.distinct) || h.distinct > h.values ||
		!multi && h.values != h.items || multi && h.values < h.items || h.kinds[3] > 2:
		return valueIndex{}, errors.New("value column counts")
	case h.flags&valuesDense != 0 && uint64(h.items) != uint64(n):
		return valueIndex{}, errors.New("value column counts")
	}
	c := valueIndex{h: h, n: n, present: true}
	at := uint64(sec.off) + valuesHeaderSize
	take := func(size uint64) int {
		start := at
		at += size
		return int(start)
	}
	if h.flags&valuesDense == 0 {
		c.dir = take(4 * uint64((n+presenceBlock-1)/presenceBlock))
		c.words = take(8 * uint64((n+63)/64))
	}
	c.numbers = take(8 * uint64(h.kinds[0]))
	c.dates = take(8 * uint64(h.kinds[1]))
	c.strings = takeIf(take, h.flags&valuesStringIdentity == 0, 4*uint64(h.kinds[2]))
	c.bools = take(uint64(h.kinds[3]))
	c.ties = takeIf(take, h.flags&valuesTieRanks != 0, 4*uint64(h.distinct))
	c.ords = take(packedLen(uint64(h.values), h.ordWidth))
	c.starts = takeIf(take, multi, packedLen(uint64(h.items)+1, h.offWidth))
	if at > uint64(sec.end) {
		return valueIndex{}, bad
	}
	return c, nil
}

// takeIf takes size bytes when present is set (an optional part), else none.
func takeIf(take func(uint64) int, present bool, size uint64) int {
	if !present {
		return take(0)
	}
	return take(size)
}

// bitsFor is the number of bits that hold every value below limit (at least 1).
func bitsFor(limit uint64) int {
	if limit <= 1 {
		return 1
	}
	return bits.Len64(limit - 1)
}

// packedAt reads value j of the packed array at base[off:] of the given width; the
// caller has checked j against the array's count.
func packedAt(base string, off int, j uint32, width uint8) uint32 {
	bit := uint64(j) * uint64(width)
	at := off + int(bit>>3)
	return uint32(le64(base[at:at+8])>>(bit&7)) & uint32(1<<width-1)
}

// item returns the place of item doc among the column's present items, and false when
// doc has no values.
func (c *valueIndex) item(base string, doc int) (uint32, bool) {
	if !c.present || doc < 0 || doc >= c.n {
		return 0, false
	}
	if c.h.flags&valuesDense != 0 {
		return uint32(doc), true
	}
	w := doc >> 6
	word := le64(base[c.words+8*w:])
	if word>>(doc&63)&1 == 0 {
		return 0, false
	}
	r := c.wordRank(base, w) + uint32(bits.OnesCount64(word&(1<<(doc&63)-1)))
	return r, r < c.h.items
}

// wordRank returns the number of present items before word w of the presence bitmap
// of a column that is not dense.
func (c *valueIndex) wordRank(base string, w int) uint32 {
	block := w * 64 / presenceBlock
	r := le32(base[c.dir+4*block:])
	for i := block * (presenceBlock / 64); i < w; i++ {
		r += uint32(bits.OnesCount64(le64(base[c.words+8*i:])))
	}
	return r
}

// itemOrds returns the range of item doc's ordinals, [from, to), empty when it has none.
func (c *valueIndex) itemOrds(base string, doc int) (from, to uint32) {
	k, ok := c.item(base, doc)
	if !ok {
		return 0, 0
	}
	if c.h.flags&valuesMulti == 0 {
		return k, k + 1
	}
	from = packedAt(base, c.starts, k, c.h.offWidth)
	to = packedAt(base, c.starts, k+1, c.h.offWidth)
	if from > to || to > c.h.values {
		return 0, 0
	}
	return from, to
}

// ord returns the table entry of the j-th ordinal (j < values), false when corrupt.
func (c *valueIndex) ord(base string, j uint32) (uint32, bool) {
	t := packedAt(base, c.ords, j, c.h.ordWidth)
	return t, t < c.h.distinct
}

// rank is table entry t's sort rank.
func (c *valueIndex) rank(base string, t uint32) uint32 {
	if c.h.flags&valuesTieRanks == 0 {
		return t
	}
	return le32(base[c.ties+4*int(t):])
}

// value returns table entry t (t < distinct).
func (c *valueIndex) value(base string, t uint32) Value {
	k := c.h.kinds
	switch {
	case t < k[0]:
		return Value{Kind: KindNumber, Number: math.Float64frombits(le64(base[c.numbers+8*int(t):]))}
	case t-k[0] < k[1]:
		return Value{Kind: KindDate, Millis: int64(le64(base[c.dates+8*int(t-k[0]):]))}
	case t-k[0]-k[1] < k[2]:
		i := t - k[0] - k[1]
		if c.h.flags&valuesStringIdentity != 0 {
			return Value{Kind: KindString, Ord: i}
		}
		return Value{Kind: KindString, Ord: le32(base[c.strings+4*int(i):])}
	default:
		return Value{Kind: KindBool, Bool: base[c.bools+int(t-k[0]-k[1]-k[2])] != 0}
	}
}

// ranks returns item doc's smallest and largest rank, or NoRank twice.
func (c *valueIndex) ranks(base string, doc int) (lo, hi uint32) {
	if c.h.flags&valuesMulti == 0 { // one value: its rank both ways (sorts call this most)
		k, ok := c.item(base, doc)
		if !ok {
			return NoRank, NoRank
		}
		t := packedAt(base, c.ords, k, c.h.ordWidth)
		if t >= c.h.distinct {
			return NoRank, NoRank
		}
		r := c.rank(base, t)
		return r, r
	}
	from, to := c.itemOrds(base, doc)
	lo, hi = NoRank, NoRank
	for j := from; j < to; j++ {
		t, ok := c.ord(base, j)
		if !ok {
			return NoRank, NoRank
		}
		r := c.rank(base, t)
		if lo == NoRank || r < lo {
			lo = r
		}
		if hi == NoRank || r > hi {
			hi = r
		}
	}
	return lo, hi
}

// SingleValued reports whether no item has more than one value of the field (and some
// item has one), so that AppendEntries gives each item's value as an entry of the
// field's table of distinct values, one per item.
func (f *Field) SingleValued() bool {
	return f.values.present && f.values.h.flags&valuesMulti == 0
}

// NoEntry stands, in AppendEntries, for an item without a value.
const NoEntry = ^uint32(0)

// Entries is the number of entries of the field's table of distinct values: numbers
// ascending, then dates ascending, then strings in keyword order, then booleans (false
// first), each value once. AppendValueEntries gives items' values as entries of it, so
// that an aggregation reads and converts each distinct value once rather than once
// per item.
func (f *Field) Entries() int {
	if !f.values.present {
		return 0
	}
	return int(f.values.h.distinct)
}

// Entry returns entry t of the field's table of distinct values (t < Entries), the
// Value that Values gives for each item with that value; the zero Value for any other t.
func (f *Field) Entry(t uint32) Value {
	if t >= uint32(f.Entries()) {
		return Value{}
	}
	return f.values.value(f.s.str, t)
}

// AppendValueEntries appends to entries the entries of the field's table that are the
// values of the items of docs, item after item and each item's in source order (as
// Values gives them, and ending where they do), and to owners, for each, the place in
// docs of its item: one call for an aggregation's items, not one per item.
// (AppendEntries is the same for a field of SingleValued, one entry per item and no
// owners.)
func (f *Field) AppendValueEntries(entries []uint32, owners []int32, docs []int) ([]uint32, []int32) {
	c, base := &f.values, f.s.str
	if !c.present {
		return entries, owners
	}
	dense, multi := c.h.flags&valuesDense != 0, c.h.flags&valuesMulti != 0
	// The items ascend, as an aggregation's do, so a word of the presence bitmap and
	// its rank are read once for all its items (item reads them for each).
	lastWord, word, rank := -1, uint64(0), uint32(0)
	for i, doc := range docs {
		var k uint32
		switch {
		case doc < 0 || doc >= c.n:
			continue
		case dense:
			k = uint32(doc)
		default:
			if w := doc >> 6; w != lastWord {
				lastWord, word, rank = w, le64(base[c.words+8*w:]), c.wordRank(base, w)
			}
			if word>>(doc&63)&1 == 0 {
				continue
			}
			k = rank + uint32(bits.OnesCount64(word&(1<<(doc&63)-1)))
		}
		from, to := k, k+1
		switch {
		case k >= c.h.items:
			from, to = 0, 0
		case multi:
			from = packedAt(base, c.starts, k, c.h.offWidth)
			to = packedAt(base, c.starts, k+1, c.h.offWidth)
			if from > to || to > c.h.values {
				from, to = 0, 0
			}
		}
		for j := from; j < to; j++ {
			t, ok := c.ord(base, j)
			if !ok {
				break
			}
			entries, owners = append(entries, t), append(owners, int32(i))
		}
	}
	return entries, owners
}

// AppendEntries appends to dst, for each item of docs, the entry of the field's table
// of distinct values that is its value, or NoEntry when it has none, the field is not
// SingleValued, or the file is damaged there: one call for an aggregation's items, not
// one per item.
func (f *Field) AppendEntries(dst []uint32, docs []int) []uint32 {
	// The entries are written in place, not appended one by one: an append is a
	// runtime call per item in TinyGo.
	start := len(dst)
	dst = slices.Grow(dst, len(docs))[:start+len(docs)]
	out := dst[start:]
	if !f.SingleValued() {
		for i := range out {
			out[i] = NoEntry
		}
		return dst
	}
	c, base := &f.values, f.s.str
	dense := c.h.flags&valuesDense != 0
	// As AppendValueEntries, in a loop of its own for one value per item: a shared
	// loop, or a presence cursor type shared by both, cost the TinyGo module 1.1-1.3x
	// the time of a facet.
	lastWord, word, rank := -1, uint64(0), uint32(0)
	for i, doc := range docs {
		out[i] = NoEntry
		var k uint32
		switch {
		case doc < 0 || doc >= c.n:
			continue
		case dense:
			k = uint32(doc)
		default:
			if w := doc >> 6; w != lastWord {
				lastWord, word, rank = w, le64(base[c.words+8*w:]), c.wordRank(base, w)
			}
			if word>>(doc&63)&1 == 0 {
				continue
			}
			k = rank + uint32(bits.OnesCount64(word&(1<<(doc&63)-1)))
		}
		if k < c.h.items {
			if t, ok := c.ord(base, k); ok {
				out[i] = t
			}
		}
	}
	return dst
}
