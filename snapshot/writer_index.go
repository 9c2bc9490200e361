//go:build !wasm

// The indexing pass of the writer: the sorted items are cut into a few ranges per core
// and each range is indexed on its own. The ranges' builders of a field are not merged:
// the encoders read them one after another in item order. Postings are delta-coded from
// item 0, so a range's lists continue the previous range's after one re-coded delta,
// and the result is byte for byte that of one pass.

package snapshot

import (
	"hash/maphash"
	"math"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/tidwall/gjson"
)

// minItemsPerRange keeps small snapshots in one range: below it, starting goroutines
// and stitching the ranges' lists together costs more than it saves.
const minItemsPerRange = 2048

// indexedRange is what indexing one range of items yields.
type indexedRange struct {
	fields   map[string]*fieldBuilder
	statuses map[string]struct{}
}

// rangesPerCore is how many ranges of items each core indexes, taking the next one
// when it is done: with one range per core, a core slowed by other work (the machine is
// shared) leaves the other idle at the end; with a few, the faster core takes more of
// them. A range costs a builder per field and one more list per term to merge.
const rangesPerCore = 4

// maxItemsPerRange bounds a range, so that the ranges being indexed at once (one per
// core) hold a bounded share of memory whatever the number of items: in a spooling
// build a range's dictionaries and values leave memory as soon as it is indexed.
const maxItemsPerRange = 32 << 10

// indexRanges is how many ranges n items are indexed in: rangesPerCore per core, each of
// at least minItemsPerRange items, or more when they would pass maxItemsPerRange.
func indexRanges(n int) int {
	perCore := min(rangesPerCore*runtime.GOMAXPROCS(0), n/minItemsPerRange)
	return max(1, perCore, (n+maxItemsPerRange-1)/maxItemsPerRange)
}

// fieldParts are one field's builders of consecutive ranges of items, in item order
// (ranges without the field have none).
type fieldParts []*fieldBuilder

// indexItems is the indexing pass over the sorted items, item number doc being the
// position in items, in the given number of ranges. It returns the builders of each
// field (dotted path of a scalar value), holding the field's index structures, and the
// set of Status values present, and sets dataEnds[doc] to where item doc's Data value
// ends in its JSON. With release, each item's JSON is dropped (set to nil in items)
// once it is indexed.
func indexItems(src itemSource, ranges int, release bool, dataEnds []uint32) (map[string]fieldParts, map[string]struct{}) {
	n := len(src.items)
	ranges = max(1, min(ranges, n))
	parts := make([]indexedRange, ranges)
	forEachIndex(ranges, func(r int) {
		parts[r] = indexRange(src, r*n/ranges, (r+1)*n/ranges, release, dataEnds)
	})
	statuses := map[string]struct{}{}
	fields := map[string]fieldParts{}
	for _, p := range parts {
		for s := range p.statuses {
			statuses[s] = struct{}{}
		}
		for name, fb := range p.fields {
			fields[name] = append(fields[name], fb)
		}
	}
	for _, fp := range fields {
		slices.SortFunc(fp, func(a, b *fieldBuilder) int { return a.base - b.base })
	}
	return fields, statuses
}

// indexRange indexes items lo to hi-1, dropping their JSON as it goes with release.
// A spooled item is read into a buffer that the next one reuses: what the index keeps
// of an item it copies.
func indexRange(src itemSource, lo, hi int, release bool, dataEnds []uint32) indexedRange {
	out := indexedRange{fields: map[string]*fieldBuilder{}, statuses: map[string]struct{}{}}
	scratch := &docScratch{}
	var buf []byte
	for doc := lo; doc < hi; doc++ {
		buf = src.json(doc, buf)
		root := gjson.Parse(bytesView(buf))
		if st := root.Get("Status"); st.Exists() {
			if _, ok := out.statuses[st.String()]; !ok {
				out.statuses[strings.Clone(st.String())] = struct{}{} // not a view of the item
			}
		}
		scratch.gather(root)
		if e := scratch.dataEnd; uint64(e) <= math.MaxUint32 {
			dataEnds[doc] = uint32(e)
		}
		for _, i := range scratch.order {
			sl := &scratch.slots[i]
			if sl.fb == nil {
				sl.fb = newFieldBuilder(sl.path, lo, hi-lo)
				out.fields[sl.path] = sl.fb
			}
			sl.fb.addDoc(doc, sl.values, scratch)
		}
		if release {
			src.items[doc].json = nil
		}
	}
	for _, fb := range out.fields {
		fb.freeze(src.spool)
	}
	return out
}

// forEachIndex calls fn(i) for every i in [0, count), on every core.
func forEachIndex(count int, fn func(i int)) {
	var next atomic.Int64
	var wg sync.WaitGroup
	for range max(1, min(runtime.GOMAXPROCS(0), count)) {
		wg.Go(func() {
			for i := int(next.Add(1)) - 1; i < count; i = int(next.Add(1)) - 1 {
				fn(i)
			}
		})
	}
	wg.Wait()
}

// newFieldBuilder returns an empty builder for the field at the dotted path, for the
// span items from base on.
func newFieldBuilder(path string, base, span int) *fieldBuilder {
	return &fieldBuilder{
		name: path, topLevel: !strings.Contains(path, "."), base: base, span: span,
		terms: newTermTable(), keywords: newTermTable(),
	}
}

// termTable is one field's terms (or keywords) in one range of items and their
// postings: an open-addressing table of places in one slice of postings buffers, each
// buffer holding its term. Why not a map from term to buffer: the indexing pass holds
// a few hundred thousand terms per range, and the collector, run often to keep a
// build's memory down, walked a pointer and an object per term (one slice of buffers
// instead of a buffer each: 0.96x the CPU time and 0.91x the peak memory at 100k
// items). Why not a map from term to place either: it kept a second copy of each
// term's string header for the collector to walk, and hashed every term again each
// time it grew; this table keeps each term's hash beside its place, in memory
// without pointers. A pointer into bufs is valid until the next add.
type termTable struct {
	// slots holds, per slot, the term's hash in the high 32 bits and its place in
	// bufs plus one in the low 32 (0: empty); its length is a power of two, at least
	// twice len(bufs).
	slots []uint64
	bufs  []postingBuf
	seed  maphash.Seed
}

// newTermTable returns an empty table.
func newTermTable() termTable {
	return termTable{seed: maphash.MakeSeed()}
}

// get returns term's postings buffer, adding an empty one for a new term. The table
// keeps a copy of term (postingBuf.term): the caller's may be a view of an item's
// JSON, which the writer may drop once the items are indexed (EncodeOnce).
func (t *termTable) get(term string) (*postingBuf, int32) {
	if 2*len(t.bufs) >= len(t.slots) {
		t.grow()
	}
	// The hash's high half is both what a slot keeps and where probing starts, so
	// that growing places the terms without hashing them again.
	tag, mask := maphash.String(t.seed, term)>>32, len(t.slots)-1
	for i := int(tag) & mask; ; i = (i + 1) & mask {
		s := t.slots[i]
		if s == 0 {
			id := int32(len(t.bufs))
			t.bufs = append(t.bufs, postingBuf{term: strings.Clone(term)})
			t.slots[i] = tag<<32 | uint64(id+1)
			return &t.bufs[id], id
		}
		if s>>32 == tag {
			if id := int32(uint32(s) - 1); t.bufs[id].term == term {
				return &t.bufs[id], id
			}
		}
	}
}

// grow doubles the slots (to 64 at first) and places every term again, by the hash
// its slot keeps.
func (t *termTable) grow() {
	old := t.slots
	t.slots = make([]uint64, max(64, 2*len(old)))
	mask := len(t.slots) - 1
	for _, s := range old {
		if s == 0 {
			continue
		}
		i := int(s>>32) & mask
		for t.slots[i] != 0 {
			i = (i + 1) & mask
		}
		t.slots[i] = s
	}
}

// valueColumn holds a field's typed values for consecutive items, one item's after
// another in one array (one allocation per field, not one per item): those of item i,
// counted from the column's first item, are vals[ends[i-1]:ends[i]]. Items past the
// end of ends have none.
type valueColumn struct {
	vals []buildValue
	ends []uint32
	// spilledAt and spilledSize place the column in the spool when it was spilled
	// (writer_frozen.go), with spilledEnds items.
	spilledAt                int64
	spilledSize, spilledEnds int
}

// pad gives the items before item i that have no entry yet no values, so that item
// i's values are the next to be appended (then closed with an entry in ends).
func (c *valueColumn) pad(i int) {
	for len(c.ends) < i {
		c.ends = append(c.ends, uint32(len(c.vals)))
	}
}

// reserve makes room for k more values, to be appended for item i of the column's span
// items (see growFor).
func (c *valueColumn) reserve(k, i, span int) {
	if len(c.vals)+k > cap(c.vals) {
		c.vals = growFor(c.vals, k, i, span)
	}
}

// growFor returns s with room for k more elements, s having been filled by items [0,
// i] of span items. A large s grows by doubling, not by append's quarter, and, once a
// sixteenth of the items has been seen, to the size their rate foretells for all of
// them (an eighth more): a dense field's value column or a common term's postings are
// then copied a few times instead of some forty, those copies having been a tenth of
// the indexing time. A small s grows as append grows it, so that the many small lists
// and sparse columns are not given room they will not use.
func growFor[T any](s []T, k, i, span int) []T {
	need := len(s) + k
	if need <= cap(s) || len(s) < growForMin {
		return s
	}
	want := max(need, 2*cap(s))
	if (i+1)*16 >= span {
		want = max(need, need*span/(i+1)+need/8)
	}
	return slices.Grow(s, want-len(s))
}

// growForMin is the length from which growFor grows a slice.
const growForMin = 1024

// of returns item i's values.
func (c *valueColumn) of(i int) []buildValue {
	if i >= len(c.ends) {
		return nil
	}
	start := uint32(0)
	if i > 0 {
		start = c.ends[i-1]
	}
	return c.vals[start:c.ends[i]]
}

// eachValues calls fn for each of the n items in order with the field's values of that
// item (none for most items of a sparse field).
func (fp fieldParts) eachValues(n int, fn func(doc int, vals []buildValue)) {
	doc := 0
	for _, p := range fp {
		for ; doc < p.base; doc++ {
			fn(doc, nil)
		}
		for i := range p.span {
			fn(doc+i, p.values.of(i))
		}
		doc += p.span
	}
	for ; doc < n; doc++ {
		fn(doc, nil)
	}
}

// valueCount is how many values the field has in all.
func (fp fieldParts) valueCount() int {
	count := 0
	for _, p := range fp {
		count += len(p.values.vals)
	}
	return count
}
