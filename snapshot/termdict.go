// Term dictionaries: a field's sorted terms, front-coded in blocks, each term with the
// location of its postings list. termDictOf (writer_termdict.go) writes them.
//
// A dictionary lies in the terms section, 4-byte aligned:
//
//	count u32
//	kind u32: 1 front-coded terms, 2 the items' ContentIDs (below)
//	block index: (B+1) × {block offset u32, postings offset u32}, B = ceil(count/16)
//	blocks
//
// Terms are cut into blocks of termBlock (16) in order. Entry b of the index is where
// block b's bytes start (counted from the first block's) and where its first term's
// postings list starts (counted from the start of the postings section); entry B holds
// the ends of both, so that every block's bytes and postings are a checked range. A
// block holds, per term:
//
//	first term:  length uvarint, bytes             | postings list length uvarint
//	each next:   shared uvarint, suffix length uvarint, suffix bytes | postings list length uvarint
//
// where shared is the length of the longest prefix the term shares with the term before
// it, and the suffix is the rest of the term. A term's postings list follows the one of
// the term before it, so term k of a block starts at the block's postings offset plus the
// lengths of terms 0..k-1.
//
// A dictionary of kind 2 holds exactly the ContentIDs of section ids, in the same order
// (term i is item i's id: the keyword dictionary of ContentID, as items are sorted by
// it). Its blocks hold only the postings list lengths; its terms are read from section
// ids, which stores them already.
//
// Why: content repeats long prefixes (URLs, ISO dates, "Content_" ids, slugs), which
// front coding stores once per block instead of once per term, and the per-term offsets
// of a flat layout (8 bytes a term) become one to three bytes of lengths. At 100k
// generated items the section went from 62.3 MB (1.87M terms, 47 MB of them bytes) to
// 33.3 MB, 3.2 MB of it by kind 2. Lookups stay logarithmic: a binary search over the
// blocks' first terms, which are stored whole and so compared in place, then a scan of
// at most 15 entries that compares incrementally and allocates nothing.

package snapshot

import (
	"errors"
	"strconv"
	"strings"
	"unsafe"
)

// termBlock is the number of terms per block. At 100k generated items, blocks of 32
// terms would save 3% more of the section than 16 (1.0 MB) for a lookup 8% slower and
// a Term 25% slower: every Find, Postings(i) and Term(i) scans half a block on average.
const termBlock = 16

// Dictionary kinds. There is no kind 0: a dictionary of the flat layout that format 2
// had before (count, then term offsets from 0) is refused rather than misread.
const (
	dictTerms = 1 // front-coded terms
	dictIDs   = 2 // the items' ContentIDs, read from section ids
)

// TermDict is a sorted dictionary of terms with a postings list per term. It holds the
// file by its start (base) and its parts as spans, so that it costs the collector one
// pointer however long it lives.
type TermDict struct {
	base      string // the whole file
	positions bool   // postings carry frequencies and positions (analysed text)
	fromIDs   bool   // kind 2: the terms are those of ids and idOffs
	count     int
	index     span // (blocks+1) × {block offset u32, postings offset u32}
	firsts    span // from format 3: (blocks+1) × u32 offsets of the blocks' first terms, then those terms
	blocks    span // the blocks' bytes (in the paged part from format 3)
	postings  span // the postings section
	ids       span // sections ids and ids.offsets, for a dictionary of kind 2
	idOffs    span
	dense     *denseSections // the snapshot's, shared by its dictionaries (nil: none)
	pages     *pageCache     // the snapshot's paged part, when its blocks and postings are read by range
}

// newTermDict reads the dictionary at dict of s's file, and records an error in d when
// its head does not fit. From format 3 its head is read from section terms.heads, so
// that its blocks may lie in the paged part, out of reach.
func newTermDict(s *Snapshot, dict span, positions bool, d *decoder) TermDict {
	if d.err != nil {
		return TermDict{}
	}
	head, firsts, hasHead := dict, span{}, false
	if s.termHeads.len() > 0 {
		if head, hasHead = findTermHead(s.str, s.termHeads, dict.off-s.terms.off); !hasHead {
			d.err = errors.New("term dictionary without a head")
			return TermDict{}
		}
	} else if s.pages != nil && dict.end > s.pages.start {
		// Without heads, the dictionary is its own head, which must lie in the index
		// part, at hand in every runtime: a file whose terms lie in its paged part
		// has heads.
		d.err = errors.New("term dictionary without a head")
		return TermDict{}
	}
	b := head.of(s.str)
	c, ok1 := u32At(b, 0)
	kind, ok2 := u32At(b, 1)
	// Every term takes at least a byte (its postings list's length), which also keeps
	// the block count below from overflowing.
	if !ok1 || !ok2 || uint64(c) > uint64(dict.len()) {
		d.err = errors.New("term dictionary out of bounds")
		return TermDict{}
	}
	count := int(c)
	indexEnd := 8 + 8*(blockCount(count)+1)
	if indexEnd > dict.len() || indexEnd > head.len() || hasHead && indexEnd+4*(blockCount(count)+1) > head.len() {
		d.err = errors.New("term dictionary out of bounds")
		return TermDict{}
	}
	if hasHead {
		firsts = span{head.off + indexEnd, head.end}
	}
	t := TermDict{
		base:      s.str,
		positions: positions,
		count:     count,
		index:     span{head.off + 8, head.off + indexEnd},
		firsts:    firsts,
		blocks:    span{dict.off + indexEnd, dict.end},
		postings:  s.postings,
		dense:     &s.dense,
	}
	if s.pages != nil && !s.resident {
		t.pages = s.pages
	}
	switch {
	case kind == dictIDs && count == s.n:
		t.fromIDs, t.ids, t.idOffs = true, s.ids, s.idOffsets
	case kind != dictTerms:
		d.err = errors.New("term dictionary of kind " + strconv.FormatUint(uint64(kind), 10) + " and " + strconv.Itoa(count) + " terms")
		return TermDict{}
	}
	return t
}

// findTermHead finds, in section terms.heads (heads), the head of the dictionary at
// offset off of the terms section: a table of (dictionary offset, head offset) pairs in
// increasing order, then the heads.
func findTermHead(base string, heads span, off int) (span, bool) {
	h := heads.of(base)
	n, ok := u32At(h, 0)
	if !ok || uint64(n) > uint64(len(h)/8) {
		return span{}, false
	}
	lo, found := findU32(h, 1, 2, int(n), off)
	if !found {
		return span{}, false
	}
	at, _ := u32At(h, 2+2*lo)
	end := uint64(len(h))
	if lo+1 < int(n) {
		next, _ := u32At(h, 2+2*(lo+1))
		end = uint64(next) // in 64 bits: a 32-bit int would wrap past the check
	}
	if uint64(at) < 4+8*uint64(n) || uint64(at) > end || end > uint64(len(h)) {
		return span{}, false
	}
	return span{heads.off + int(at), heads.off + int(end)}, true
}

// blockCount is the number of blocks of a dictionary of count terms.
func blockCount(count int) int { return count/termBlock + min(count%termBlock, 1) }

// Len is the number of terms.
func (t TermDict) Len() int { return t.count }

// block returns a reader over block b's entries and the range [post, postEnd) of the
// file that holds its postings lists; ok is false when the index entry is out of bounds.
func (t TermDict) block(b int) (r blockReader, post, postEnd int, ok bool) {
	return t.blockFor(b, false)
}

// blockFor is block; with scan, a block whose pages are missing asks for the pages of
// every block after it too, since a scan goes on through them: one round then brings a
// whole dictionary instead of one block per round.
func (t TermDict) blockFor(b int, scan bool) (r blockReader, post, postEnd int, ok bool) {
	idx := t.index.of(t.base)
	at, ok1 := u32At(idx, 2*b)
	p, ok2 := u32At(idx, 2*b+1)
	end, ok3 := u32At(idx, 2*b+2)
	pEnd, ok4 := u32At(idx, 2*b+3)
	if !ok1 || !ok2 || !ok3 || !ok4 || at > end || uint64(end) > uint64(t.blocks.len()) ||
		p > pEnd || uint64(pEnd) > uint64(t.postings.len()) {
		return blockReader{}, 0, 0, false
	}
	sp := span{t.blocks.off + int(at), t.blocks.off + int(end)}
	ask := sp
	if scan {
		ask.end = t.blocks.end
	}
	data, sp, ok := t.paged(sp, ask)
	if !ok {
		return blockReader{}, 0, 0, false
	}
	r = blockReader{s: data, at: sp.off, end: sp.end, lengthsOnly: t.fromIDs}
	return r, t.postings.off + int(p), t.postings.off + int(pEnd), true
}

// blockTerms is the number of terms in block b.
func (t TermDict) blockTerms(b int) int { return min(termBlock, t.count-b*termBlock) }

// firstTerm returns block b's first term, in place; "" when it is out of bounds. It
// reads only the block's start, not its end: it runs at every step of a lookup's binary
// search, and its term need only lie inside the blocks.
func (t TermDict) firstTerm(b int) string {
	if t.firsts.len() > 0 {
		f := t.firsts.of(t.base)
		at, ok1 := u32At(f, b)
		end, ok2 := u32At(f, b+1)
		terms := 4 * (blockCount(t.count) + 1)
		if !ok1 || !ok2 || at > end || uint64(end) > uint64(len(f)-terms) {
			return ""
		}
		return f[terms+int(at) : terms+int(end)]
	}
	at, ok := u32At(t.index.of(t.base), 2*b)
	if !ok || uint64(at) > uint64(t.blocks.len()) {
		return ""
	}
	r := blockReader{s: t.base, at: t.blocks.off + int(at), end: t.blocks.end}
	n, ok := r.uvarint()
	if !ok || n > uint64(r.end-r.at) {
		return ""
	}
	return t.base[r.at : r.at+int(n)]
}

// idTerm is term i of a dictionary of kind 2: item i's ContentID.
func (t TermDict) idTerm(i int) string {
	at, n := t.idAt(i)
	return t.base[at : at+n]
}

// idAt locates term i of a dictionary of kind 2 in the file: its offset and length
// (0, 0 for an entry that does not decode, as slice gives "").
func (t TermDict) idAt(i int) (at, n int) {
	offs := t.idOffs.of(t.base)
	start, ok1 := u32At(offs, i)
	end, ok2 := u32At(offs, i+1)
	if !ok1 || !ok2 || start > end || uint64(end) > uint64(t.ids.len()) {
		return 0, 0
	}
	return t.ids.off + int(start), int(end - start)
}

// Find returns the index of term, or the index where it would be and false. It
// allocates nothing.
func (t TermDict) Find(term string) (int, bool) {
	if t.fromIDs {
		return searchSorted(t.count, term, t.idTerm)
	}
	// The term lies in the last block whose first term is not after it.
	lo, hi := 0, blockCount(t.count)
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		if t.firstTerm(mid) <= term {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	if lo == 0 {
		return 0, false
	}
	k, c, ok := t.compareIn(lo-1, term, termBlock, true)
	return (lo-1)*termBlock + k, ok && c == 0
}

// Compare compares term i with s as strings.Compare(t.Term(i), s) does, without
// assembling the term: -1, 0 or +1. A term out of range or corrupt reads as "".
func (t TermDict) Compare(i int, s string) int {
	if i < 0 || i >= t.count || t.fromIDs {
		return strings.Compare(t.Term(i), s)
	}
	if _, c, ok := t.compareIn(i/termBlock, s, i%termBlock, false); ok {
		return c
	}
	return strings.Compare("", s)
}

// compareIn compares the terms of block b with s in order, entry by entry, up to entry
// upto, and returns the entry it stopped at and how that entry compares with s (-1, 0
// or +1): entry upto, or with ge the first entry not before s. Past the block's last
// term it returns the block's term count and -1; ok is false at a corrupt entry.
//
// It never assembles a term. It keeps the length c of the prefix that the current term
// shares with s. The next term shares `shared` bytes with the current one, the longest
// such prefix, so: when shared < c, the next term's byte at shared is above the current
// one's, which is s's, and the next term is after s; when shared > c, the next term
// compares with s as the current one does; when they are equal, only its suffix needs
// comparing with the rest of s.
func (t TermDict) compareIn(b int, s string, upto int, ge bool) (k, cmp int, ok bool) {
	r, _, _, ok := t.block(b)
	if !ok {
		return 0, -1, false
	}
	n := min(t.blockTerms(b), upto+1)
	c, prevLen := 0, 0
	// The entries are decoded here rather than by entry: this loop is most of a lookup.
	for k = 0; k < n; k++ {
		shared := 0
		if k > 0 {
			v, ok := r.uvarint()
			if !ok || v > uint64(prevLen) {
				return k, -1, false
			}
			shared = int(v)
		}
		m, ok := r.uvarint()
		if !ok || m > uint64(r.end-r.at) {
			return k, -1, false
		}
		at := r.at
		r.at += int(m)
		if _, ok := r.uvarint(); !ok { // the postings list's length
			return k, -1, false
		}
		prevLen = shared + int(m)
		switch {
		case k > 0 && shared < c:
			c, cmp = shared, 1
		case k > 0 && shared > c:
		default:
			c, cmp = extendCompare(r.s[at:at+int(m)], s, c)
		}
		if k == upto || ge && cmp >= 0 {
			return k, cmp, true
		}
	}
	return n, -1, true
}

// extendCompare compares the term s[:c]+suffix with s: it returns the length of the
// prefix they share and -1, 0 or +1.
func extendCompare(suffix, s string, c int) (int, int) {
	rest := s[c:]
	j := 0
	for j < len(suffix) && j < len(rest) && suffix[j] == rest[j] {
		j++
	}
	switch {
	case j == len(suffix) && j == len(rest):
		return c + j, 0
	case j == len(suffix):
		return c + j, -1
	case j == len(rest):
		return c + j, 1
	case suffix[j] < rest[j]:
		return c + j, -1
	}
	return c + j, 1
}

// Term returns term i (0 <= i < Len), in byte order; "" out of range. A term stored
// whole (a block's first, or one that shares nothing with the term before it) is a
// substring of the file; any other is assembled into a new string. Sequential scans
// should use Iter, which assembles terms without allocating.
func (t TermDict) Term(i int) string {
	if i < 0 || i >= t.count {
		return ""
	}
	if t.fromIDs {
		return t.idTerm(i)
	}
	r, _, _, ok := t.block(i / termBlock)
	if !ok {
		return ""
	}
	// termAssembler's steps, kept local so that the scratch array stays on the stack.
	var scratch [128]byte
	buf, whole, inBuf := scratch[:0], "", false
	for k := 0; k <= i%termBlock; k++ {
		prevLen := len(whole)
		if inBuf {
			prevLen = len(buf)
		}
		shared, suffix, ok := r.entry(k == 0, prevLen)
		if !ok || !r.skipUvarint() {
			return ""
		}
		switch {
		case shared == 0:
			whole, inBuf = suffix, false
		case inBuf:
			buf = append(buf[:shared], suffix...)
		default:
			buf, inBuf = append(append(buf[:0], whole[:shared]...), suffix...), true
		}
	}
	if inBuf {
		return string(buf)
	}
	return whole
}

// Postings returns a cursor over term i's postings list; an empty cursor when i is out
// of range or the dictionary is corrupt.
func (t TermDict) Postings(i int) Postings {
	list, ok := t.postingsSpan(i)
	if !ok {
		return Postings{}
	}
	base, list, ok := t.paged(list, list)
	if !ok {
		return Postings{}
	}
	return openPostings(base, list, t.positions)
}

// postingsSpan locates term i's postings list in the file.
func (t TermDict) postingsSpan(i int) (span, bool) {
	if i < 0 || i >= t.count {
		return span{}, false
	}
	r, post, postEnd, ok := t.block(i / termBlock)
	if !ok {
		return span{}, false
	}
	// The entries are skipped here rather than read by entry: a term query opens every
	// term it finds. Shared lengths are not checked, as no term is assembled.
	for k := 0; ; k++ {
		if !r.lengthsOnly {
			if k > 0 && !r.skipUvarint() {
				return span{}, false
			}
			m, ok := r.uvarint()
			if !ok || m > uint64(r.end-r.at) {
				return span{}, false
			}
			r.at += int(m)
		}
		length, ok := r.uvarint()
		if !ok || length > uint64(postEnd-post) {
			return span{}, false
		}
		if k == i%termBlock {
			return span{post, post + int(length)}, true
		}
		post += int(length)
	}
}

// termAssembler keeps the current term of a walk through a block: bytes of the file
// (base[at:at+n]) while the terms are stored whole, else the bytes of buf, which it
// assembles from the term before and the suffix. It holds the file by its start and an
// offset, as TermDict does, so that an iterator kept between scans costs the collector
// no walk from the middle of the file back to its head.
type termAssembler struct {
	base  string // the whole file
	at, n int
	buf   []byte
	inBuf bool
}

func (a *termAssembler) len() int {
	if a.inBuf {
		return len(a.buf)
	}
	return a.n
}

// next makes the term the first shared bytes of the current one followed by suffix,
// the n bytes of the file at at (entry checked shared against the current term's length).
func (a *termAssembler) next(shared, at, n int) {
	switch {
	case shared == 0:
		a.at, a.n, a.inBuf = at, n, false
	case a.inBuf:
		a.buf = append(a.buf[:shared], a.base[at:at+n]...)
	default:
		a.buf = append(append(a.buf[:0], a.base[a.at:a.at+shared]...), a.base[at:at+n]...)
		a.inBuf = true
	}
}

// view is the current term, valid until the next call of next.
func (a *termAssembler) view() string {
	if !a.inBuf {
		return a.base[a.at : a.at+a.n]
	}
	return unsafe.String(unsafe.SliceData(a.buf), len(a.buf))
}

// blockReader reads the entries of one block, s[at:end]; end is within s.
type blockReader struct {
	s           string
	at, end     int
	lengthsOnly bool // a block of kind 2: the entries hold no term
}

// uvarint reads a uvarint; ok is false when it is bad or runs past the block. It is a
// loop without calls, which the compiler inlines (a fast path for one byte with a call
// for the rest would not be).
func (r *blockReader) uvarint() (uint64, bool) {
	var x uint64
	at := r.at
	for shift := uint(0); at < r.end && shift < 64; shift += 7 {
		c := r.s[at]
		at++
		x |= uint64(c&0x7f) << shift
		if c < 0x80 {
			r.at = at
			return x, true
		}
	}
	return 0, false
}

// skipUvarint skips a uvarint (a postings list length).
func (r *blockReader) skipUvarint() bool {
	_, ok := r.uvarint()
	return ok
}

// entry reads a term's entry up to its postings length: the length of the prefix it
// shares with the term before it (of length prevLen; 0 for a block's first term) and
// its suffix, a substring of the file. ok is false when the entry does not fit.
func (r *blockReader) entry(first bool, prevLen int) (shared int, suffix string, ok bool) {
	if r.lengthsOnly {
		return 0, "", true
	}
	if !first {
		v, ok := r.uvarint()
		if !ok || v > uint64(prevLen) {
			return 0, "", false
		}
		shared = int(v)
	}
	n, ok := r.uvarint()
	if !ok || n > uint64(r.end-r.at) {
		return 0, "", false
	}
	suffix = r.s[r.at : r.at+int(n)]
	r.at += int(n)
	return shared, suffix, true
}

// TermIter walks a dictionary's terms in order without allocating for each: it
// assembles every term into a buffer of its own that it reuses, grown to the longest
// term it has met. Its zero value is an iterator over no terms.
type TermIter struct {
	t       TermDict
	i       int // the current term's index; before Next, the one before the first
	r       blockReader
	loaded  bool // r, post and postEnd are those of the current term's block
	post    int  // the current term's postings list, [post, post+plen) of the file
	plen    int
	postEnd int // the end of the block's postings lists
	a       termAssembler
}

// Iter returns an iterator whose first Next moves to term from (clamped to 0).
func (t TermDict) Iter(from int) TermIter {
	var it TermIter
	it.Reset(t, from)
	return it
}

// Reset makes it an iterator over t whose next Next moves to term from (clamped to 0),
// keeping its buffer: an evaluator that reuses one iterator allocates nothing per scan.
func (it *TermIter) Reset(t TermDict, from int) {
	buf := it.a.buf[:0]
	*it = TermIter{t: t, i: max(from, 0) - 1, a: termAssembler{base: t.base, buf: buf}}
}

// Next moves to the next term and reports whether there is one. It stops early at a
// corrupt entry.
func (it *TermIter) Next() bool {
	it.i++
	if it.i < 0 || it.i >= it.t.count {
		it.i = it.t.count
		return false
	}
	k := it.i % termBlock
	if !it.loaded || k == 0 {
		// Enter the term's block: decode its entries from the first.
		b := it.i / termBlock
		var ok bool
		if it.r, it.post, it.postEnd, ok = it.t.blockFor(b, true); !ok {
			return it.stop()
		}
		// A block's first term is stored whole, so the assembler may move to the bytes
		// that hold this block (the file's, or a run of its pages).
		it.a.base = it.r.s
		it.loaded, it.plen = true, 0
		for j := 0; j < k; j++ {
			if !it.step(j == 0) {
				return it.stop()
			}
		}
	}
	if !it.step(k == 0) {
		return it.stop()
	}
	if it.t.fromIDs {
		it.a.base = it.t.base
		it.a.at, it.a.n = it.t.idAt(it.i)
		it.a.inBuf = false
	}
	return true
}

// step decodes the block's next entry into the current term.
func (it *TermIter) step(first bool) bool {
	shared, suffix, ok := it.r.entry(first, it.a.len())
	if !ok {
		return false
	}
	sufAt := it.r.at - len(suffix) // entry leaves r just past the suffix
	length, ok := it.r.uvarint()
	it.post += it.plen
	if !ok || length > uint64(it.postEnd-it.post) {
		return false
	}
	it.plen = int(length)
	it.a.next(shared, sufAt, len(suffix))
	return true
}

// stop ends the iteration after a corrupt entry.
func (it *TermIter) stop() bool {
	it.i, it.loaded = it.t.count, false
	it.a.n, it.a.inBuf = 0, false
	return false
}

// Index is the current term's index in the dictionary.
func (it *TermIter) Index() int { return it.i }

// Term is the current term. It is valid only until the next call of Next or Reset,
// which may overwrite its bytes: strings.Clone it to keep it.
func (it *TermIter) Term() string { return it.a.view() }

// Postings returns a cursor over the current term's postings list.
func (it *TermIter) Postings() Postings {
	if !it.loaded || it.i >= it.t.count {
		return Postings{}
	}
	list := span{it.post, it.post + it.plen}
	base, list, ok := it.t.paged(list, list)
	if !ok {
		return Postings{}
	}
	return openPostings(base, list, it.t.positions)
}
