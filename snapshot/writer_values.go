//go:build !wasm

// The writer's value columns: a field's typed values and sort ranks, written once as a
// table of its distinct values and, per item, ordinals into that table (values.go reads
// them).

package snapshot

import (
	"encoding/binary"
	"math"
	"math/bits"
	"slices"
)

// encodedValues is the encoded form of one field's typed values, with the per-item
// ranks that the field's sort orders (perms) are computed from.
type encodedValues struct {
	bytes     []byte
	asc, desc []uint32 // per item, NoRank when absent; only when wantRanks
}

// encodeValues writes the value column of a field over n items (see values.go for
// the layout). ords maps the field's exact strings to their keyword ordinals. When
// wantRanks is set it also returns every item's ascending and descending rank, for the
// precomputed sort orders.
func encodeValues(fp fieldParts, n int, ords map[string]uint32, wantRanks bool) encodedValues {
	type entry struct {
		value *buildValue
		idx   uint32 // the value's place among all the field's values, item after item
	}
	entries := make([]entry, 0, fp.valueCount())
	var present, multi = 0, false
	fp.eachValues(n, func(_ int, vals []buildValue) {
		if len(vals) > 0 {
			present++
			multi = multi || len(vals) > 1
		}
		for i := range vals {
			entries = append(entries, entry{&vals[i], uint32(len(entries))})
		}
	})
	// The table holds the values distinct bit for bit (-0 and 0 both keep their sign
	// when read back), in rank order; a value's rank counts the values that compare
	// below it, so equal-comparing entries share one.
	slices.SortFunc(entries, func(a, b entry) int {
		if c := compareValues(*a.value, *b.value); c != 0 {
			return c
		}
		if c := compareExact(*a.value, *b.value); c != 0 {
			return c
		}
		return int(a.idx) - int(b.idx)
	})
	tableOf := make([]uint32, len(entries)) // by idx
	var table []*buildValue
	var tieRanks []uint32
	var kinds [4]uint32
	ties := false
	rank := uint32(0)
	for i, e := range entries {
		if i > 0 {
			prev := *entries[i-1].value
			if compareValues(prev, *e.value) != 0 {
				rank++
			}
			if compareExact(prev, *e.value) == 0 && compareValues(prev, *e.value) == 0 {
				tableOf[e.idx] = uint32(len(table) - 1)
				continue
			}
		}
		table = append(table, e.value)
		tieRanks = append(tieRanks, rank)
		ties = ties || rank != uint32(len(table)-1)
		kinds[e.value.kind-KindNumber]++
		tableOf[e.idx] = uint32(len(table) - 1)
	}
	entries = nil

	identity := true
	for i, v := range table[kinds[0]+kinds[1] : kinds[0]+kinds[1]+kinds[2]] {
		identity = identity && ords[v.str] == uint32(i)
	}
	h := valuesHeader{
		items: uint32(present), distinct: uint32(len(table)), values: uint32(len(tableOf)),
		kinds: kinds, ordWidth: uint8(bitsFor(uint64(len(table)))),
	}
	if present == n {
		h.flags |= valuesDense
	}
	if multi {
		h.flags |= valuesMulti
		h.offWidth = uint8(bitsFor(uint64(len(tableOf)) + 1))
	}
	if identity {
		h.flags |= valuesStringIdentity
	}
	if ties {
		h.flags |= valuesTieRanks
	}
	dst := h.append(nil)

	if h.flags&valuesDense == 0 {
		dst = appendPresence(dst, fp, n)
	}
	dst = appendTable(dst, table, ords, identity)
	if ties {
		dst = appendU32s(dst, tieRanks)
	}
	// Per present item its values' table entries, in source order; for a multi-valued
	// field, where each item's entries start.
	dst = appendPacked(dst, tableOf, uint(h.ordWidth))
	out := encodedValues{}
	if multi {
		starts := make([]uint32, 0, present+1)
		at := uint32(0)
		fp.eachValues(n, func(_ int, vals []buildValue) {
			if len(vals) > 0 {
				starts = append(starts, at)
				at += uint32(len(vals))
			}
		})
		starts = append(starts, at)
		dst = appendPacked(dst, starts, uint(h.offWidth))
	}
	out.bytes = dst
	if wantRanks {
		out.asc, out.desc = itemRanks(fp, n, tableOf, tieRanks)
	}
	return out
}

// itemRanks returns each item's smallest and largest value's rank (NoRank for an item
// without values).
func itemRanks(fp fieldParts, n int, tableOf, tieRanks []uint32) (asc, desc []uint32) {
	asc, desc = make([]uint32, n), make([]uint32, n)
	at := 0
	fp.eachValues(n, func(doc int, vals []buildValue) {
		asc[doc], desc[doc] = NoRank, NoRank
		for range vals {
			r := tieRanks[tableOf[at]]
			at++
			if asc[doc] == NoRank || r < asc[doc] {
				asc[doc] = r
			}
			if desc[doc] == NoRank || r > desc[doc] {
				desc[doc] = r
			}
		}
	})
	return asc, desc
}

// compareExact orders values that compareValues finds equal by their stored bits
// (only -0 and 0 compare equal with different bits).
func compareExact(a, b buildValue) int {
	if a.kind == KindNumber && b.kind == KindNumber {
		x, y := a.bits, b.bits
		switch {
		case x < y:
			return -1
		case x > y:
			return 1
		}
	}
	return 0
}

// appendPacked appends vs at width bits each, least significant bits first, followed
// by packedSlack zero bytes so that a reader may load any value with one 8-byte read.
func appendPacked(dst []byte, vs []uint32, width uint) []byte {
	var acc uint64
	var have uint
	for _, v := range vs {
		acc |= uint64(v) << have
		have += width
		for have >= 8 {
			dst = append(dst, byte(acc))
			acc >>= 8
			have -= 8
		}
	}
	if have > 0 {
		dst = append(dst, byte(acc))
	}
	return append(dst, make([]byte, packedSlack)...)
}

// append writes the header.
func (h valuesHeader) append(dst []byte) []byte {
	dst = binary.LittleEndian.AppendUint32(dst, h.flags)
	dst = append(dst, h.ordWidth, h.offWidth, 0, 0)
	for _, v := range [...]uint32{h.items, h.distinct, h.values, h.kinds[0], h.kinds[1], h.kinds[2], h.kinds[3]} {
		dst = binary.LittleEndian.AppendUint32(dst, v)
	}
	return dst
}

// appendPresence writes which of the n items have values: a count of the items present
// before each presenceBlock items, then a bitmap of u64 words.
func appendPresence(dst []byte, fp fieldParts, n int) []byte {
	words := make([]uint64, (n+63)/64)
	fp.eachValues(n, func(doc int, vals []buildValue) {
		if len(vals) > 0 {
			words[doc>>6] |= 1 << (doc & 63)
		}
	})
	before := uint32(0)
	for i, w := range words {
		if i%(presenceBlock/64) == 0 {
			dst = binary.LittleEndian.AppendUint32(dst, before)
		}
		before += uint32(bits.OnesCount64(w))
	}
	for _, w := range words {
		dst = binary.LittleEndian.AppendUint64(dst, w)
	}
	return dst
}

// appendTable writes the distinct values in rank order, kind after kind; strings as
// their keyword ordinals, none when identity says the i-th string is keyword term i.
func appendTable(dst []byte, table []*buildValue, ords map[string]uint32, identity bool) []byte {
	for _, v := range table {
		switch v.kind {
		case KindNumber:
			dst = binary.LittleEndian.AppendUint64(dst, v.bits)
		case KindDate:
			dst = binary.LittleEndian.AppendUint64(dst, v.bits)
		case KindString:
			if !identity {
				dst = binary.LittleEndian.AppendUint32(dst, ords[v.str])
			}
		case KindBool:
			dst = append(dst, byte(v.bits))
		}
	}
	return dst
}

// buildValue is one typed scalar of a field while the snapshot is built. There is one
// per value of every item, the largest share of a build's memory after the postings:
// the number, instant or boolean share one word (32 bytes a value instead of 48).
type buildValue struct {
	str  string // KindString, KindDate (raw text, for the keyword form)
	bits uint64 // KindNumber: the float64's bits; KindDate: the instant in ms; KindBool: 0 or 1
	kind ValueKind
}

// num is a KindNumber value's number.
func (v *buildValue) num() float64 { return math.Float64frombits(v.bits) }

// ms is a KindDate value's instant, in milliseconds since the Unix epoch.
func (v *buildValue) ms() int64 { return int64(v.bits) }

// b is a KindBool value's boolean.
func (v *buildValue) b() bool { return v.bits != 0 }
