//go:build !wasm

// The writer's encoders: value order, sort ranks and permutations, doc values and the
// file's section table (term dictionaries: writer_termdict.go).

package snapshot

import (
	"cmp"
	"encoding/binary"
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
		return cmp.Compare(a.num(), b.num())
	case KindDate:
		return cmp.Compare(a.ms(), b.ms())
	case KindString:
		return strings.Compare(a.str, b.str)
	default:
		return boolInt(a.b()) - boolInt(b.b())
	}
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
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
