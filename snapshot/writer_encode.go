//go:build !wasm

// The writer's encoders: value order, sort ranks and permutations, term dictionaries
// with their postings, doc values and the file's section table.

package snapshot

import (
	"cmp"
	"crypto/sha256"
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
func (fb *fieldBuilder) ranks(n int) (asc, desc []uint32) {
	var distinct []buildValue
	for _, vs := range fb.values {
		distinct = append(distinct, vs...)
	}
	slices.SortFunc(distinct, compareValues)
	distinct = slices.CompactFunc(distinct, func(a, b buildValue) bool { return compareValues(a, b) == 0 })
	rankOf := func(v buildValue) uint32 {
		i, _ := slices.BinarySearchFunc(distinct, v, compareValues)
		return uint32(i)
	}
	asc = make([]uint32, n)
	desc = make([]uint32, n)
	for doc := range asc {
		vs := fb.values[doc]
		if len(vs) == 0 {
			asc[doc], desc[doc] = NoRank, NoRank
			continue
		}
		lo, hi := vs[0], vs[0]
		for _, v := range vs[1:] {
			if compareValues(v, lo) < 0 {
				lo = v
			}
			if compareValues(v, hi) > 0 {
				hi = v
			}
		}
		asc[doc], desc[doc] = rankOf(lo), rankOf(hi)
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
func appendTermDict(terms, postings []byte, dict map[string]*postingBuf) ([]byte, []byte, int, int) {
	for len(terms)%4 != 0 {
		terms = append(terms, 0)
	}
	off := len(terms)
	keys := sortedKeys(dict)
	terms = binary.LittleEndian.AppendUint32(terms, uint32(len(keys)))
	pos := 0
	terms = binary.LittleEndian.AppendUint32(terms, 0)
	for _, k := range keys {
		pos += len(k)
		terms = binary.LittleEndian.AppendUint32(terms, uint32(pos))
	}
	for _, k := range keys {
		terms = binary.LittleEndian.AppendUint32(terms, uint32(len(postings)))
		pb := dict[k]
		postings = binary.AppendUvarint(postings, uint64(pb.df))
		postings = append(postings, pb.buf...)
	}
	terms = binary.LittleEndian.AppendUint32(terms, uint32(len(postings)))
	for _, k := range keys {
		terms = append(terms, k...)
	}
	return terms, postings, off, len(terms) - off
}

// appendDocValues writes u32[n+1] offsets (relative to the entries) then the entries:
// kind byte, then float64 bits (number), int64 ms (date), uvarint ordinal in the
// keyword dictionary (string) or one byte (bool).
func appendDocValues(dst []byte, values [][]buildValue, n int, ords map[string]uint32) []byte {
	var entries []byte
	dst = binary.LittleEndian.AppendUint32(dst, 0)
	for doc := 0; doc < n; doc++ {
		for _, v := range values[doc] {
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
	}
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

// fileBuilder lays out the header, the 8-byte aligned sections and the section table.
// Sections are collected first and copied once into an exactly sized file.
type fileBuilder struct {
	names []string
	data  [][]byte
}

func (b *fileBuilder) start() {}

func (b *fileBuilder) section(name string, data []byte) {
	b.names = append(b.names, name)
	b.data = append(b.data, data)
}

func align8(n int) int { return (n + 7) &^ 7 }

func (b *fileBuilder) finish(preview bool, n int) []byte {
	size := headerSize
	for _, d := range b.data {
		size = align8(size) + len(d)
	}
	tableOff := align8(size)
	out := make([]byte, tableOff+sectionEntry*len(b.data))
	pos := headerSize
	for i, d := range b.data {
		pos = align8(pos)
		copy(out[pos:], d)
		e := out[tableOff+i*sectionEntry:]
		copy(e[:sectionNameSize], b.names[i])
		binary.LittleEndian.PutUint64(e[sectionNameSize:], uint64(pos))
		binary.LittleEndian.PutUint64(e[sectionNameSize+8:], uint64(len(d)))
		pos += len(d)
	}
	copy(out[offMagic:], Magic)
	binary.LittleEndian.PutUint16(out[offMajor:], MajorVersion)
	binary.LittleEndian.PutUint16(out[offMinor:], MinorVersion)
	var flags uint32
	if preview {
		flags |= flagPreview
	}
	binary.LittleEndian.PutUint32(out[offFlags:], flags)
	binary.LittleEndian.PutUint32(out[offItems:], uint32(n))
	binary.LittleEndian.PutUint32(out[offSections:], uint32(len(b.data)))
	binary.LittleEndian.PutUint64(out[offTable:], uint64(tableOff))
	hash := sha256.Sum256(out[headerSize:])
	copy(out[offHash:], hash[:])
	binary.LittleEndian.PutUint32(out[offChecksum:], checksum(out))
	return out
}
