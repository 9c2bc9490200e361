//go:build !wasm

// Frozen dictionaries: once a range of items is indexed, each field's term and keyword
// maps become sorted arrays (the encoders read the terms in order anyway), and, in a
// spooling build, leave memory for the spool until the field is encoded. What stays in
// memory through the indexing is then a few counters per field and range.

package snapshot

import (
	"encoding/binary"
	"math"
	"slices"
	"strings"
	"unsafe"
)

// frozenDict is one range's dictionary of a field once the range is indexed: its terms
// sorted, and their postings buffers (postingBuf.buf) laid end to end in term order.
// The maps and postingBuf records it replaces take ~100 bytes more a term, and hold the
// pointers the collector walks. A spilled one is in the spool (load reads it back).
type frozenDict struct {
	count int // how many terms
	terms []string
	lists []byte
	ends  []int    // term i's buffer is lists[ends[i-1]:ends[i]]
	dfs   []uint32 // term i's item count
	// spilledAt and spilledSize place the dictionary in the spool, when spilled.
	spilledAt   int64
	spilledSize int
	// views is set on a dictionary loaded from the spool: its terms are views of the
	// bytes read, which are let go of once the field is encoded.
	views bool
}

// termList is a term and its postings in one range of items.
type termList struct {
	term string
	pb   *postingBuf
}

// list returns term i's postings buffer.
func (d *frozenDict) list(i int) []byte {
	start := 0
	if i > 0 {
		start = d.ends[i-1]
	}
	return d.lists[start:d.ends[i]]
}

// freeze replaces the builder's term and keyword maps, once its range is indexed, by
// their frozen form, spilled to sp unless sp is nil.
func (fb *fieldBuilder) freeze(sp *spool) {
	fb.frozenText, fb.frozenKeywords = freezeDict(fb.terms), freezeDict(fb.keywords)
	fb.terms, fb.keywords = nil, nil
	if sp != nil {
		fb.frozenText.spill(sp)
		fb.frozenKeywords.spill(sp)
	}
}

// freezeDict returns dict's frozen form.
func freezeDict(dict map[string]*postingBuf) frozenDict {
	if len(dict) == 0 {
		return frozenDict{}
	}
	run := make([]termList, 0, len(dict))
	size := 0
	for term, pb := range dict {
		run = append(run, termList{term, pb})
		size += len(pb.buf)
	}
	slices.SortFunc(run, func(a, b termList) int { return strings.Compare(a.term, b.term) })
	d := frozenDict{count: len(run), terms: make([]string, len(run)), lists: make([]byte, 0, size),
		ends: make([]int, len(run)), dfs: make([]uint32, len(run))}
	for i, tl := range run {
		d.terms[i] = tl.term
		d.lists = append(d.lists, tl.pb.buf...)
		d.ends[i], d.dfs[i] = len(d.lists), tl.pb.df
	}
	return d
}

// spill moves the dictionary to sp: its count, the terms' lengths, the postings
// buffers' lengths and the item counts as uvarints, then the terms and the buffers.
// A dictionary whose terms pass 4 GiB stays in memory.
func (d *frozenDict) spill(sp *spool) {
	termBytes := 0
	for _, t := range d.terms {
		termBytes += len(t)
	}
	if d.count == 0 || termBytes > math.MaxUint32 {
		return
	}
	out := make([]byte, 0, 3*binary.MaxVarintLen32*d.count+termBytes+len(d.lists)+binary.MaxVarintLen64)
	out = binary.AppendUvarint(out, uint64(d.count))
	prev := 0
	for i, t := range d.terms {
		out = binary.AppendUvarint(out, uint64(len(t)))
		out = binary.AppendUvarint(out, uint64(d.ends[i]-prev))
		out = binary.AppendUvarint(out, uint64(d.dfs[i]))
		prev = d.ends[i]
	}
	for _, t := range d.terms {
		out = append(out, t...)
	}
	out = append(out, d.lists...)
	d.spilledAt, d.spilledSize = sp.store(out), len(out)
	d.terms, d.lists, d.ends, d.dfs = nil, nil, nil, nil
}

// load returns the dictionary in memory, reading it from sp if it was spilled. The
// terms of a loaded dictionary are views of the bytes read: copy those that are kept.
func (d *frozenDict) load(sp *spool) *frozenDict {
	if d.spilledSize == 0 {
		return d
	}
	b := sp.read(d.spilledAt, d.spilledSize, nil)
	out := &frozenDict{views: true, count: d.count, terms: make([]string, d.count), ends: make([]int, d.count), dfs: make([]uint32, d.count)}
	count, k := binary.Uvarint(b)
	if k <= 0 || count != uint64(d.count) {
		return &frozenDict{} // the spool failed (read as zeros): Encode reports it
	}
	b = b[k:]
	lens := make([]int, d.count)
	end := 0
	for i := range d.count {
		var v [3]uint64
		for j := range v {
			v[j], k = binary.Uvarint(b)
			if k <= 0 {
				return &frozenDict{}
			}
			b = b[k:]
		}
		end += int(v[1])
		lens[i], out.ends[i], out.dfs[i] = int(v[0]), end, uint32(v[2])
	}
	for i, n := range lens {
		if n > len(b) {
			return &frozenDict{}
		}
		out.terms[i] = unsafe.String(unsafe.SliceData(b), n)
		b = b[n:]
	}
	if end != len(b) {
		return &frozenDict{}
	}
	out.lists = b
	return out
}
