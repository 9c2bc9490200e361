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
	// spilledAt and spilledSize place the dictionary in the spool, when spilled; the
	// lists are its last bytes, after spilledHead bytes of counts and terms.
	spilledAt                int64
	spilledSize, spilledHead int
	// lister reads the lists of a dictionary loaded from the spool, which stay there.
	lister *listReader
}

// termList is a term and its postings in one range of items.
type termList struct {
	term string
	pb   *postingBuf
}

// list returns term i's postings buffer. The lists of a dictionary loaded from the
// spool are read in term order: the buffer is valid until the next term's is asked for.
func (d *frozenDict) list(i int) []byte {
	start := 0
	if i > 0 {
		start = d.ends[i-1]
	}
	if d.lister != nil {
		return d.lister.slice(start, d.ends[i])
	}
	return d.lists[start:d.ends[i]]
}

// listReader reads a spilled dictionary's postings buffers from the spool, a window of
// an eighth of the spool's chunk (1 MiB; or one buffer, if larger) at a time: a field's
// runs are read side by side, a window each.
type listReader struct {
	sp   *spool
	at   int64 // where the lists start in the spool
	size int   // their length
	buf  []byte
	from int // the offset in the lists of buf[0]
}

// slice returns bytes [start, end) of the lists, which follow those asked for before.
func (r *listReader) slice(start, end int) []byte {
	if start < r.from || end > r.from+len(r.buf) {
		r.buf = r.sp.read(r.at+int64(start), min(max(end-start, r.sp.chunk/8), r.size-start), r.buf)
		r.from = start
	}
	return r.buf[start-r.from : end-r.from]
}

// freeze replaces the builder's term and keyword maps, once its range is indexed, by
// their frozen form, spilled to sp unless sp is nil.
func (fb *fieldBuilder) freeze(sp *spool) {
	fb.frozenText, fb.frozenKeywords = freezeDict(fb.terms), freezeDict(fb.keywords)
	fb.terms, fb.keywords = termTable{}, termTable{}
	if sp != nil {
		fb.frozenText.spill(sp)
		fb.frozenKeywords.spill(sp)
		fb.values.spill(sp)
	}
}

// freezeDict returns dict's frozen form.
func freezeDict(dict termTable) frozenDict {
	if len(dict.bufs) == 0 {
		return frozenDict{}
	}
	run := make([]termList, 0, len(dict.bufs))
	size := 0
	for i := range dict.bufs {
		pb := &dict.bufs[i]
		run = append(run, termList{pb.term, pb})
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
func (d *frozenDict) spill(sp *spool) {
	if d.count == 0 {
		return
	}
	termBytes := 0
	for _, t := range d.terms {
		termBytes += len(t)
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
	head := len(out)
	out = append(out, d.lists...)
	d.spilledAt, d.spilledSize, d.spilledHead = sp.store(out), len(out), head
	d.terms, d.lists, d.ends, d.dfs = nil, nil, nil, nil
}

// load returns the dictionary, reading its terms and counts back from sp if it was
// spilled; its lists are then read from sp as they are asked for (list). The terms of a
// loaded dictionary are views of the bytes read: copy those that are kept.
func (d *frozenDict) load(sp *spool) *frozenDict {
	if d.spilledSize == 0 {
		return d
	}
	r := uvarintReader{b: sp.read(d.spilledAt, d.spilledHead, nil)}
	if r.next() != uint64(d.count) || r.bad {
		return &frozenDict{} // the spool failed (read as zeros): Encode reports it
	}
	out := &frozenDict{count: d.count, terms: make([]string, d.count), ends: make([]int, d.count), dfs: make([]uint32, d.count)}
	lens := make([]int, d.count)
	end := 0
	for i := range d.count {
		lens[i] = int(r.next())
		end += int(r.next())
		out.ends[i], out.dfs[i] = end, uint32(r.next())
	}
	for i, n := range lens {
		out.terms[i] = r.str(n)
	}
	if r.bad || len(r.b) != 0 || end != d.spilledSize-d.spilledHead {
		return &frozenDict{}
	}
	out.lister = &listReader{sp: sp, at: d.spilledAt + int64(d.spilledHead), size: end}
	return out
}

// spill moves a range's value column to sp, once the range is indexed: the item ends
// and the values as uvarints and bytes (load reads them back). A column past 4 GiB of
// values stays in memory.
func (c *valueColumn) spill(sp *spool) {
	if len(c.ends) == 0 || uint64(len(c.vals)) > math.MaxUint32 {
		return
	}
	size := 2*binary.MaxVarintLen64 + binary.MaxVarintLen32*len(c.ends)
	for i := range c.vals {
		size += 1 + 8 + binary.MaxVarintLen64 + len(c.vals[i].str)
	}
	out := make([]byte, 0, size)
	out = binary.AppendUvarint(out, uint64(len(c.ends)))
	out = binary.AppendUvarint(out, uint64(len(c.vals)))
	prev := uint32(0)
	for _, e := range c.ends {
		out = binary.AppendUvarint(out, uint64(e-prev))
		prev = e
	}
	for i := range c.vals {
		v := &c.vals[i]
		out = append(out, byte(v.kind))
		switch v.kind {
		case KindNumber, KindDate:
			out = binary.LittleEndian.AppendUint64(out, v.bits)
		case KindBool:
			out = append(out, byte(v.bits))
		}
		if v.kind == KindString || v.kind == KindDate {
			out = binary.AppendUvarint(out, uint64(len(v.str)))
			out = append(out, v.str...)
		}
	}
	c.spilledAt, c.spilledSize, c.spilledEnds = sp.store(out), len(out), len(c.ends)
	c.vals, c.ends = nil, nil
}

// load reads a spilled column back from sp, its strings views of the bytes read (the
// column is let go of once its field is encoded). A column read wrong (the spool
// failed, which Encode reports) reads as having no values.
func (c *valueColumn) load(sp *spool) {
	if c.spilledSize == 0 {
		return
	}
	b := sp.read(c.spilledAt, c.spilledSize, nil)
	c.spilledSize = 0
	r := uvarintReader{b: b}
	ends, count := r.next(), r.next()
	if r.bad || ends != uint64(c.spilledEnds) || count > uint64(len(b)) {
		return
	}
	c.ends, c.vals = make([]uint32, ends), make([]buildValue, count)
	end := uint32(0)
	for i := range c.ends {
		end += uint32(r.next())
		c.ends[i] = end
	}
	for i := range c.vals {
		v := &c.vals[i]
		v.kind = ValueKind(r.byte())
		switch v.kind {
		case KindNumber, KindDate:
			v.bits = r.u64()
		case KindBool:
			v.bits = uint64(r.byte())
		}
		if v.kind == KindString || v.kind == KindDate {
			v.str = r.str(int(r.next()))
		}
	}
	if r.bad || end != uint32(len(c.vals)) {
		c.ends, c.vals = nil, nil
	}
}

// uvarintReader reads what spill wrote; past the end or on a bad uvarint it sets bad
// and reads zeros.
type uvarintReader struct {
	b   []byte
	bad bool
}

func (r *uvarintReader) next() uint64 {
	v, k := binary.Uvarint(r.b)
	if k <= 0 {
		r.bad = true
		return 0
	}
	r.b = r.b[k:]
	return v
}

func (r *uvarintReader) byte() byte {
	if len(r.b) < 1 {
		r.bad = true
		return 0
	}
	v := r.b[0]
	r.b = r.b[1:]
	return v
}

func (r *uvarintReader) u64() uint64 {
	if len(r.b) < 8 {
		r.bad = true
		return 0
	}
	v := binary.LittleEndian.Uint64(r.b)
	r.b = r.b[8:]
	return v
}

func (r *uvarintReader) str(n int) string {
	if n < 0 || n > len(r.b) {
		r.bad = true
		return ""
	}
	s := unsafe.String(unsafe.SliceData(r.b), n)
	r.b = r.b[n:]
	return s
}
