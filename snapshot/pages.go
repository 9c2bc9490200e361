package snapshot

import (
	"errors"
	"hash/crc32"
	"strconv"
)

// The paged part (format 3): sections that a query reads a little of at a time (the
// term dictionaries' blocks, the postings lists, the common terms' bitmaps) lie after
// the index part, in pages of pageSize bytes, each with a CRC-32C stored in the index
// part's section "pages":
//
//	u64 start    the paged part's first byte in the file: the index part's length
//	             rounded up to pageSize
//	u64 length   its length in bytes
//	u32[P]       the CRC-32C of each page, P = ⌈length / pageSize⌉ (the last page may
//	             be shorter)
//
// Opened on the whole file, a snapshot reads paged sections in place, as any other.
// Opened on its index part alone, it reads a block, a list or a bitmap from a cache of
// page runs: one whose pages are not cached reads as missing (a term not found, an
// empty list, no bitmap) while its pages are recorded, and the request loop asks for
// them as it does for body blocks (MissingBlocks), hands them over (ProvideRange) and
// runs the request again. The index a runtime holds is then the index part alone: at
// 100k builder-gen items, a quarter of the index.

const (
	// pageSize is the paged part's unit of reading and checking: small enough that a
	// rare term's list costs one small read, large enough that its checksum table stays
	// a thousandth of the part.
	pageSize = 4096
	// pagesHead is the length of section "pages" before its checksums.
	pagesHead = 16
	// maxInt is the largest int: offsets in the paged part are ints, 32 bits wide in
	// some WebAssembly builds.
	maxInt = int(^uint(0) >> 1)
)

// pageCache holds the paged part's geometry and the runs of pages provided to a
// snapshot opened on its index part.
type pageCache struct {
	mu            cacheLock // a mutex natively; nothing in the single-threaded module
	start, length int       // the paged part in the file
	crcs          span      // its pages' checksums, in the index part
	base          string    // the index part, for crcs
	// runs maps every page of the paged part to the run of held that holds it (its
	// index + 1; 0: none); a page in two runs maps to the one that reaches further, so
	// that a list starting on it is found in one look. A slice, not a map: a lookup
	// reads it once or more per dictionary block or postings list it finds, and a map
	// lookup took the TinyGo module a few percent of a search over many fields.
	runs    []int32
	held    []*pageRun // every cached run, until evicted
	bytes   int        // total length of the held runs
	clock   uint64     // ticks at every use, for least-recently-used eviction
	missing []pageRun
	// misses counts the reads that found their pages missing, ever: a caller that
	// derives something lasting from the index (a field's statistics) keeps it only if
	// the count did not move meanwhile.
	misses uint64
}

// pageRun is pages [first, last] of the paged part.
type pageRun struct {
	first, last int
	data        string
	used        uint64
}

// readPages reads section "pages" and checks that the paged part it describes starts
// at the index part's end, rounded up, and ends within the file's bounds.
func readPages(base string, sec span, indexLen uint64) (*pageCache, error) {
	if sec.len() == 0 {
		return nil, nil
	}
	if sec.len() < pagesHead || (sec.len()-pagesHead)%4 != 0 {
		return nil, errors.New("pages section of " + strconv.Itoa(sec.len()) + " bytes")
	}
	start := le64(base[sec.off:])
	length := le64(base[sec.off+8:])
	count := uint64(sec.len()-pagesHead) / 4
	if start != (indexLen+pageSize-1)&^(pageSize-1) || length > 1<<46 || start+length > uint64(maxInt) ||
		(length+pageSize-1)/pageSize != count {
		return nil, errors.New("paged part of " + strconv.FormatUint(length, 10) + " bytes at " + strconv.FormatUint(start, 10) +
			" with " + strconv.FormatUint(count, 10) + " page checksums")
	}
	return &pageCache{start: int(start), length: int(length), crcs: span{sec.off + pagesHead, sec.end}, base: base}, nil
}

// end is the first byte after the paged part.
func (c *pageCache) end() int { return c.start + c.length }

// pageLen is the length of page p.
func (c *pageCache) pageLen(p int) int { return min(pageSize, c.length-p*pageSize) }

// get returns the bytes holding the file's range sp (of the paged part) and where sp
// lies in them, when its pages are cached; otherwise it records the pages of ask (a
// range that holds sp) as missing.
func (c *pageCache) get(sp, ask span) (string, span, bool) {
	if sp.off < c.start || sp.off > sp.end || sp.end > c.end() ||
		ask.off > sp.off || ask.end < sp.end || ask.end > c.end() {
		return "", span{}, false
	}
	first, last := c.pagesOf(sp)
	c.mu.Lock()
	defer c.mu.Unlock()
	if r := c.runAt(first); r != nil && r.last >= last {
		c.clock++
		r.used = c.clock
		at := c.start + r.first*pageSize
		return r.data, span{sp.off - at, sp.end - at}, true
	}
	c.misses++
	first, last = c.pagesOf(ask)
	for i := range c.missing {
		if m := &c.missing[i]; m.first == first {
			m.last = max(m.last, last)
			return "", span{}, false
		}
	}
	c.missing = append(c.missing, pageRun{first: first, last: last})
	return "", span{}, false
}

// pagesOf returns the first and last pages of sp, a range of the paged part.
func (c *pageCache) pagesOf(sp span) (first, last int) {
	first = (sp.off - c.start) / pageSize
	return first, max(first, (sp.end-1-c.start)/pageSize)
}

// takeMissing appends the missing runs to dst, merged where they touch or overlap and
// in file order, and forgets them.
func (c *pageCache) takeMissing(dst []BlockRange) []BlockRange {
	c.mu.Lock()
	defer c.mu.Unlock()
	m := c.missing
	sortRuns(m)
	for i := 0; i < len(m); {
		r := m[i]
		for i++; i < len(m) && m[i].first <= r.last+1; i++ {
			r.last = max(r.last, m[i].last)
		}
		end := min((r.last+1)*pageSize, c.length)
		dst = append(dst, BlockRange{Block: -1, Offset: int64(c.start + r.first*pageSize), Length: end - r.first*pageSize})
	}
	c.missing = m[:0]
	return dst
}

// sortRuns sorts runs by their first page. An insertion sort, not slices.SortFunc: a
// request's lists are mostly opened in file order, so the runs come nearly sorted, and
// one more instantiation of the generic sort cost the std module 53 KB.
func sortRuns(m []pageRun) {
	for i := 1; i < len(m); i++ {
		for j := i; j > 0 && m[j].first < m[j-1].first; j-- {
			m[j], m[j-1] = m[j-1], m[j]
		}
	}
}

// provide checks the pages of r against their checksums and caches them.
func (c *pageCache) provide(r BlockRange, data []byte) error {
	off := int(r.Offset) - c.start
	if r.Offset < int64(c.start) || off%pageSize != 0 || r.Length <= 0 || off+r.Length > c.length ||
		(r.Length%pageSize != 0 && off+r.Length != c.length) {
		return wrapf(ErrCorrupt, "index pages at "+strconv.FormatInt(r.Offset, 10)+" are not a run of the paged part")
	}
	if len(data) != r.Length {
		return wrapf(ErrCorrupt, "index pages at "+strconv.FormatInt(r.Offset, 10)+": "+strconv.Itoa(len(data))+" bytes provided, "+strconv.Itoa(r.Length)+" expected")
	}
	first := off / pageSize
	if err := c.check(first, data); err != nil {
		return err
	}
	run := &pageRun{first: first, last: first + (r.Length-1)/pageSize, data: string(data)}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.runs == nil {
		// As many entries as the index part holds page checksums (readPages), so no
		// larger than what the runtime already holds.
		c.runs = make([]int32, (c.length+pageSize-1)/pageSize)
	}
	c.clock++
	run.used = c.clock
	c.held = append(c.held, run)
	c.index(len(c.held) - 1)
	c.bytes += len(run.data)
	return nil
}

// runAt returns the held run that page p maps to (nil: none).
func (c *pageCache) runAt(p int) *pageRun {
	if p < 0 || p >= len(c.runs) || c.runs[p] == 0 {
		return nil
	}
	return c.held[c.runs[p]-1]
}

// index maps the pages of run i of held to it, but for those that a run reaching
// further holds.
func (c *pageCache) index(i int) {
	run := c.held[i]
	for p := run.first; p <= run.last; p++ {
		if r := c.runAt(p); r == nil || r.last <= run.last {
			c.runs[p] = int32(i + 1)
		}
	}
}

// check verifies pages first, first+1, … laid end to end in data against their
// stored checksums.
func (c *pageCache) check(first int, data []byte) error {
	for p := first; len(data) > 0; p++ {
		n := min(c.pageLen(p), len(data))
		want, _ := u32At(c.crcs.of(c.base), p)
		if got := crc32.Checksum(data[:n], castagnoli); got != want {
			return wrapf(ErrChecksum, "index page "+strconv.Itoa(p)+": stored "+hex32(want)+", computed "+hex32(got))
		}
		data = data[n:]
	}
	return nil
}

// trim drops the least recently used runs until the cache holds at most maxBytes.
func (c *pageCache) trim(maxBytes int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.bytes <= maxBytes {
		return
	}
	// Least recently used first. An insertion sort, as sortRuns: runs are held in the
	// order they came, mostly their order of use, and at most a few thousand.
	h := c.held
	for i := 1; i < len(h); i++ {
		for j := i; j > 0 && h[j].used < h[j-1].used; j-- {
			h[j], h[j-1] = h[j-1], h[j]
		}
	}
	k := 0
	for ; k < len(h) && c.bytes > maxBytes; k++ {
		c.bytes -= len(h[k].data)
		h[k] = nil
	}
	c.held = append(h[:0], h[k:]...)
	clear(c.runs)
	for i := range c.held {
		c.index(i)
	}
}

// verify checks every page of a whole file against its checksum.
func (c *pageCache) verify(data []byte) error {
	return c.check(0, data[c.start:c.end()])
}

// ProvideRange hands over the bytes of a range that MissingBlocks returned: a body
// block (as ProvideBlock) or a run of index pages, each page checked against its stored
// checksum.
func (s *Snapshot) ProvideRange(r BlockRange, data []byte) error {
	if r.Block >= 0 {
		return s.ProvideBlock(r.Block, data)
	}
	if s.pages == nil || s.resident {
		return wrapf(ErrCorrupt, "index pages provided to a snapshot that reads none by range")
	}
	return s.pages.provide(r, data)
}

// PageMisses counts, since the snapshot was opened, the reads of dictionary blocks,
// postings lists and bitmaps whose pages were not at hand (and read as missing). It
// never moves for a snapshot opened on its whole file.
func (s *Snapshot) PageMisses() uint64 {
	if s.pages == nil || s.resident {
		return 0
	}
	c := s.pages
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.misses
}

// PageCacheBytes is the total length of the cached runs of index pages.
func (s *Snapshot) PageCacheBytes() int {
	if s.pages == nil {
		return 0
	}
	c := s.pages
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.bytes
}

// TrimPageCache drops the least recently used runs of index pages until the cache
// holds at most maxBytes. The module calls it after each answer, as TrimBodyCache.
func (s *Snapshot) TrimPageCache(maxBytes int) {
	if s.pages != nil {
		s.pages.trim(maxBytes)
	}
}

// paged returns the bytes that hold sp (a range of the file: a dictionary block or a
// postings list) and where sp lies in them: the file itself unless sp is in the paged
// part of a snapshot opened on its index part. When sp's pages are not cached, it
// records those of ask (which holds sp) as missing.
func (t TermDict) paged(sp, ask span) (string, span, bool) {
	if t.pages == nil || sp.end <= len(t.base) && sp.off >= 0 {
		return t.base, sp, true
	}
	return t.pages.get(sp, ask)
}
