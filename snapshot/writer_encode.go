//go:build !wasm

// The writer's encoders: value order, sort ranks and permutations, term dictionaries
// with their postings, doc values and the file's section table.

package snapshot

import (
	"cmp"
	"encoding/binary"
	"math"
	"slices"
	"strings"
)

// compareValues orders values as API.md D6/D12 sort them: by kind (numbers <
// strings < booleans), then dates by instant, numbers numerically, strings by byte order.
func compareValues(a, b buildValue) int {
	if a.kind != b.kind {
		return int(a.kind) - int(b.kind)
	}
	switch a.kind {
	case KindNumber:
		return cmp.Compare(a.num, b.num)
	case KindDate:
		return cmp.Compare(a.ms, b.ms)
	case KindString:
		return strings.Compare(a.str, b.str)
	default:
		return boolInt(a.b) - boolInt(b.b)
	}
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// ranks returns, per item, the rank of its smallest value (ascending sorts) and of its
// largest value (descending sorts, API.md D12) among the field's distinct values.
// One sort of every (value, item) pair gives both: ranks rise where the value changes.
func (fp fieldParts) ranks(n int) (asc, desc []uint32) {
	type entry struct {
		value *buildValue
		doc   uint32
	}
	entries := make([]entry, 0, fp.valueCount())
	fp.eachValues(n, func(doc int, vals []buildValue) {
		for i := range vals {
			entries = append(entries, entry{&vals[i], uint32(doc)})
		}
	})
	slices.SortFunc(entries, func(a, b entry) int { return compareValues(*a.value, *b.value) })
	asc = make([]uint32, n)
	desc = make([]uint32, n)
	for i := range asc {
		asc[i], desc[i] = NoRank, NoRank
	}
	rank := uint32(0)
	for i, e := range entries {
		if i > 0 && compareValues(*entries[i-1].value, *e.value) != 0 {
			rank++
		}
		if asc[e.doc] == NoRank {
			asc[e.doc] = rank // entries come in rising value order: the first is the smallest
		}
		desc[e.doc] = rank // and the last the largest
	}
	return asc, desc
}

// sortOrders returns the items in ascending order of asc and in descending order of
// desc; ties by item number (ContentID) ascending and items without the field last in
// both (API.md D6).
func sortOrders(asc, desc []uint32) (pa, pd []uint32) {
	pa = make([]uint32, len(asc))
	pd = make([]uint32, len(desc))
	for i := range pa {
		pa[i], pd[i] = uint32(i), uint32(i)
	}
	slices.SortStableFunc(pa, func(a, b uint32) int { return cmp.Compare(int64(asc[a]), int64(asc[b])) })
	slices.SortStableFunc(pd, func(a, b uint32) int {
		ra, rb := desc[a], desc[b]
		switch {
		case ra == rb:
			return 0
		case ra == NoRank:
			return 1
		case rb == NoRank:
			return -1
		}
		return cmp.Compare(int64(rb), int64(ra))
	})
	return pa, pd
}

// appendTermDict writes a sorted term dictionary to terms and its postings to postings:
//
//	count u32 | term offsets u32[count+1] | postings offsets u32[count+1] | term bytes
//
// padded to 4 bytes. Term offsets are relative to the term bytes, postings offsets are
// absolute in the postings section. Each postings list starts with the document frequency.
func appendTermDict(terms, postings []byte, d *preparedDict) ([]byte, []byte, int, int) {
	for len(terms)%4 != 0 {
		terms = append(terms, 0)
	}
	off := len(terms)
	terms = binary.LittleEndian.AppendUint32(terms, uint32(len(d.terms)))
	pos := 0
	terms = binary.LittleEndian.AppendUint32(terms, 0)
	for _, k := range d.terms {
		pos += len(k)
		terms = binary.LittleEndian.AppendUint32(terms, uint32(pos))
	}
	base := uint32(len(postings))
	for _, start := range d.starts {
		terms = binary.LittleEndian.AppendUint32(terms, base+start)
	}
	postings = append(postings, d.postings...)
	for _, k := range d.terms {
		terms = append(terms, k...)
	}
	return terms, postings, off, len(terms) - off
}

// appendDocValues writes u32[n+1] offsets (relative to the entries) then the entries:
// kind byte, then float64 bits (number), int64 ms (date), uvarint ordinal in the
// keyword dictionary (string) or one byte (bool).
func appendDocValues(dst []byte, fp fieldParts, n int, ords map[string]uint32) []byte {
	var entries []byte
	dst = binary.LittleEndian.AppendUint32(dst, 0)
	fp.eachValues(n, func(_ int, vals []buildValue) {
		for _, v := range vals {
			entries = append(entries, byte(v.kind))
			switch v.kind {
			case KindNumber:
				entries = binary.LittleEndian.AppendUint64(entries, math.Float64bits(v.num))
			case KindDate:
				entries = binary.LittleEndian.AppendUint64(entries, uint64(v.ms))
			case KindString:
				entries = binary.AppendUvarint(entries, uint64(ords[v.str]))
			case KindBool:
				entries = append(entries, byte(boolInt(v.b)))
			}
		}
		dst = binary.LittleEndian.AppendUint32(dst, uint32(len(entries)))
	})
	return append(dst, entries...)
}

func appendU32s(dst []byte, vs []uint32) []byte {
	for _, v := range vs {
		dst = binary.LittleEndian.AppendUint32(dst, v)
	}
	return dst
}

func appendUvarints(dst []byte, vs ...int) []byte {
	for _, v := range vs {
		dst = binary.AppendUvarint(dst, uint64(v))
	}
	return dst
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
