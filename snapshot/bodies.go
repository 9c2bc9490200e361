package snapshot

import (
	"bytes"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"io"
	"math"
	"slices"
	"strconv"
	"unsafe"
)

// The body part: item JSON in deflated blocks (writer_bodies.go). A snapshot keeps the
// blocks it has inflated in a cache. Opened on the whole file, it inflates a block the
// first time one of its items is read. Opened on its index part alone, it is given
// blocks (ProvideBlock), and an item whose block is not cached reads as "{}" while the
// block is recorded as missing; the caller (the WebAssembly module's request loop)
// finishes the request, asks its embedder for the missing blocks' byte ranges
// (MissingBlocks), hands them over and runs the request again. Evaluation is
// deterministic, so the second run meets the same items and renders them from the
// cache; an answer never depends on where bodies came from. The cache is guarded by a
// mutex, so a snapshot is safe for concurrent use either way.

// missingBody is what Item returns for an item whose block is not in the cache: a
// valid, empty object, so that a first pass renders something harmless before the
// request runs again with the body.
const missingBody = "{}"

// BlockRange is a range of the file that a snapshot opened on its index part reads on
// demand: one body block, or a run of the paged part's index pages (pages.go).
type BlockRange struct {
	Block  int   // the body block's number; -1 for a run of index pages
	Offset int64 // its first byte, from the start of the file
	Length int   // its stored length in bytes
}

// bodyCache holds inflated body blocks.
type bodyCache struct {
	mu      cacheLock // a mutex natively; nothing in the single-threaded module
	blocks  map[int]*cachedBlock
	bytes   int      // total length of the cached (inflated) blocks
	clock   uint64   // ticks at every use, for least-recently-used eviction
	missing []int    // blocks read since the last MissingBlocks call and not cached, in first-read order
	asked   []uint64 // the same blocks as a bit set, so that recording one is O(1)
	// inflater and src are reused from block to block (a flate reader holds ~40 KB).
	inflater io.ReadCloser
	src      bytes.Reader
}

type cachedBlock struct {
	data string
	used uint64
}

// IndexLen reads, from the first bytes of a snapshot file (at least HeaderSize), how
// many bytes from its start make up its index part: what a runtime that reads bodies by
// range loads and opens.
func IndexLen(header []byte) (int64, error) {
	if err := checkHeader(header); err != nil {
		return 0, err
	}
	n := binary.LittleEndian.Uint64(header[offIndexLen:])
	if n < headerSize || n > 1<<62 {
		return 0, wrapf(ErrCorrupt, "index part length "+strconv.FormatUint(n, 10))
	}
	return int64(n), nil
}

// HeaderSize is how many bytes IndexLen needs.
const HeaderSize = headerSize

// readBodies checks the body sections and whether data holds the body part after the
// index part of indexLen bytes.
func (s *Snapshot) readBodies(byName map[string]span, indexLen uint64) error {
	s.bodyOffsets, s.bodyBlocks, s.bodyDict = byName[secBodyOffsets], byName[secBodyBlocks], byName[secBodyDict]
	if uint64(s.bodyOffsets.len()) != 8*(uint64(s.n)+1) {
		return errors.New("body offsets do not match " + strconv.Itoa(s.n) + " items")
	}
	if l := s.bodyBlocks.len(); l < 12 || (l-12)%16 != 0 {
		return errors.New("body block table of " + strconv.Itoa(l) + " bytes")
	}
	s.blockCount = (s.bodyBlocks.len() - 12) / 16
	if ends, ok := byName[secDataEnds]; ok {
		width := uint8(0)
		if ends.len() > 0 {
			width = s.str[ends.off]
		}
		packed, fits := ends.sub(8, int(packedLen(uint64(s.n), width)))
		if width < 1 || width > 32 || !fits {
			return errors.New("data ends do not match " + strconv.Itoa(s.n) + " items")
		}
		s.dataEnds, s.dataEndWidth = packed, width
	}
	partsEnd := indexLen
	if s.pages != nil {
		partsEnd = uint64(s.pages.end())
	}
	s.bodyStart = (partsEnd + bodyAlign - 1) &^ (bodyAlign - 1)
	bodyEnd := s.bodyStart + s.storedOffset(s.blockCount)
	if bodyEnd < s.bodyStart {
		return errors.New("body part length overflows")
	}
	s.fileSize = bodyEnd
	s.cache = &bodyCache{blocks: map[int]*cachedBlock{}}
	switch size := uint64(len(s.data)); {
	case size == indexLen:
	case size == bodyEnd:
		s.resident = true
	default:
		return errors.New(strconv.FormatUint(size, 10) + " bytes: neither the index part (" +
			strconv.FormatUint(indexLen, 10) + ") nor the whole file (" + strconv.FormatUint(bodyEnd, 10) + ")")
	}
	return nil
}

// bodyOffset is entry i of bodies.offsets (bounds checked at open).
func (s *Snapshot) bodyOffset(i int) uint64 {
	return le64(s.str[s.bodyOffsets.off+8*i:])
}

// storedOffset is where stored block b starts in the body part (b == blockCount gives
// the part's length).
func (s *Snapshot) storedOffset(b int) uint64 {
	return le64(s.str[s.bodyBlocks.off+8*b:])
}

// blockFirst is the first item of block b (b == blockCount gives the item count).
func (s *Snapshot) blockFirst(b int) int {
	v, _ := u32At(s.str[s.bodyBlocks.off+8*(s.blockCount+1):s.bodyBlocks.end], b)
	return int(min(v, math.MaxInt32)) // a corrupt entry past any item, not a negative 32-bit int
}

// blockCRC is the stored checksum of block b.
func (s *Snapshot) blockCRC(b int) uint32 {
	v, _ := u32At(s.str[s.bodyBlocks.off+8*(s.blockCount+1)+4*(s.blockCount+1):s.bodyBlocks.end], b)
	return v
}

// blockOf finds the block holding item i, or -1 when the table is corrupt.
func (s *Snapshot) blockOf(i int) int {
	lo, hi := 0, s.blockCount // the last block whose first item is <= i
	for lo < hi {
		mid := int(uint(lo+hi+1) >> 1)
		if s.blockFirst(mid) <= i {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	if lo >= s.blockCount || s.blockFirst(lo) > i || s.blockFirst(lo+1) <= i {
		return -1
	}
	return lo
}

// BodyPart describes the body part: its stored size, its number of blocks, and the
// size of the items' JSON it holds.
func (s *Snapshot) BodyPart() (stored int64, blocks int, items int64) {
	return int64(s.storedOffset(s.blockCount)), s.blockCount, int64(s.bodyOffset(s.n))
}

// BodiesResident reports whether the snapshot was opened on the whole file, so that
// every item body is at hand; otherwise bodies come through ProvideBlock.
func (s *Snapshot) BodiesResident() bool { return s.resident }

// DataEnd returns where item i's top-level Data object (or array) ends in the JSON
// Item returns, as the builder recorded it from format 3.2, or 0 when it did not (no
// such member, an older file). jsonr.Members.ResetKnown takes it, so that reading the
// members after Data, most of an item's bytes, does not scan Data.
func (s *Snapshot) DataEnd(i int) int {
	if s.dataEndWidth == 0 || i < 0 || i >= s.n {
		return 0
	}
	return int(packedAt(s.str, s.dataEnds.off, uint32(i), s.dataEndWidth))
}

// Item returns item i (0 <= i < Len) as its stored compact JSON. Items are numbered in
// ContentID order. A corrupt entry reads as the empty string. An item is a slice of its
// inflated block, which the snapshot caches; in a snapshot opened on its index part, an
// item whose block is not cached reads as "{}" and its block is recorded for
// MissingBlocks.
func (s *Snapshot) Item(i int) string {
	if i < 0 || i >= s.n {
		return ""
	}
	start, end := s.bodyOffset(i), s.bodyOffset(i+1)
	b := s.blockOf(i)
	if start > end || b < 0 {
		return ""
	}
	base := s.bodyOffset(s.blockFirst(b))
	c := s.cache
	c.mu.Lock()
	defer c.mu.Unlock()
	blk, ok := c.blocks[b]
	if !ok && s.resident {
		r, crc, ok := s.blockRange(b)
		if !ok {
			return ""
		}
		data, err := s.inflate(b, s.data[r.Offset:r.Offset+int64(r.Length)], crc)
		if err != nil {
			return ""
		}
		blk = s.insert(b, data)
	} else if !ok {
		if c.asked == nil {
			c.asked = make([]uint64, (s.blockCount+63)/64)
		}
		if c.asked[b/64]&(1<<(b%64)) == 0 {
			c.asked[b/64] |= 1 << (b % 64)
			c.missing = append(c.missing, b)
		}
		return missingBody
	}
	c.clock++
	blk.used = c.clock
	if start < base || end-base > uint64(len(blk.data)) {
		return ""
	}
	return blk.data[start-base : end-base]
}

// blockRange is where block b's stored bytes lie in the file, and their checksum.
func (s *Snapshot) blockRange(b int) (BlockRange, uint32, bool) {
	if b < 0 || b >= s.blockCount {
		return BlockRange{}, 0, false
	}
	start, end := s.storedOffset(b), s.storedOffset(b+1)
	if start > end || end-start > 1<<31-1 || end > s.fileSize-s.bodyStart {
		return BlockRange{}, 0, false
	}
	return BlockRange{Block: b, Offset: int64(s.bodyStart + start), Length: int(end - start)}, s.blockCRC(b), true
}

// inflate checks block b's stored bytes against their checksum and returns the block's
// items' JSON. The caller holds the cache's lock.
func (s *Snapshot) inflate(b int, stored []byte, crc uint32) (string, error) {
	if err := checkBlock(b, stored, crc); err != nil {
		return "", err
	}
	first, next := s.blockFirst(b), s.blockFirst(b+1)
	if first < 0 || first >= next || next > s.n {
		return "", wrapf(ErrCorrupt, "body block "+strconv.Itoa(b)+" is not in the block table")
	}
	start, end := s.bodyOffset(first), s.bodyOffset(next)
	if start > end || end-start > 1<<31-1 || end-start > 1032*uint64(len(stored))+64 {
		// Deflate expands at most 1032:1; a larger claim is a corrupt table, and must not
		// become a huge allocation.
		return "", wrapf(ErrCorrupt, "body block "+strconv.Itoa(b)+": its items' length does not fit its stored bytes")
	}
	c := s.cache
	c.src.Reset(stored)
	// The reader must not keep pointing into the file once done: a long-lived pointer
	// into its middle costs TinyGo's collector a walk back to its start at every
	// collection (snapshottest.TestNoInteriorPointers).
	defer c.src.Reset(nil)
	dict := s.data[s.bodyDict.off:s.bodyDict.end]
	if c.inflater == nil {
		c.inflater = newInflater(&c.src, dict)
	} else if err := resetInflater(c.inflater, &c.src, dict); err != nil {
		return "", wrap(ErrCorrupt, err)
	}
	out := make([]byte, end-start)
	if _, err := io.ReadFull(c.inflater, out); err != nil {
		return "", wrapf(ErrCorrupt, "body block "+strconv.Itoa(b)+": "+err.Error())
	}
	var one [1]byte
	if n, err := c.inflater.Read(one[:]); n != 0 || err != io.EOF {
		return "", wrapf(ErrCorrupt, "body block "+strconv.Itoa(b)+": longer than its items")
	}
	return unsafe.String(unsafe.SliceData(out), len(out)), nil
}

// insert caches block b's inflated items. The caller holds the cache's lock.
func (s *Snapshot) insert(b int, data string) *cachedBlock {
	c := s.cache
	if old, ok := c.blocks[b]; ok {
		c.bytes -= len(old.data)
	}
	c.clock++
	blk := &cachedBlock{data: data, used: c.clock}
	c.blocks[b] = blk
	c.bytes += len(data)
	return blk
}

// MissingBlocks appends to dst the ranges that the snapshot needed and did not find
// since the last call, and forgets them: runs of index pages (Block -1) in file order
// when pages of the paged part were missing, else the body blocks that Item needed, in the order
// first needed. When pages were missing the items read were not the answer's, so their
// blocks are forgotten unasked. A snapshot opened on the whole file never misses a range.
func (s *Snapshot) MissingBlocks(dst []BlockRange) []BlockRange {
	n := len(dst)
	if s.pages != nil && !s.resident {
		dst = s.pages.takeMissing(dst)
	}
	pagesMissing := len(dst) > n
	c := s.cache
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, b := range c.missing {
		if r, _, ok := s.blockRange(b); ok && !pagesMissing {
			dst = append(dst, r)
		}
		c.asked[b/64] &^= 1 << (b % 64)
	}
	c.missing = c.missing[:0]
	return dst
}

// ProvideBlock checks data against block b's stored checksum, inflates it and caches
// its items, so that Item reads them from it.
func (s *Snapshot) ProvideBlock(b int, data []byte) error {
	r, crc, ok := s.blockRange(b)
	if !ok {
		return wrapf(ErrCorrupt, "body block "+strconv.Itoa(b)+" is not in the block table")
	}
	if len(data) != r.Length {
		return wrapf(ErrCorrupt, "body block "+strconv.Itoa(b)+": "+strconv.Itoa(len(data))+" bytes provided, "+strconv.Itoa(r.Length)+" expected")
	}
	c := s.cache
	c.mu.Lock()
	defer c.mu.Unlock()
	items, err := s.inflate(b, data, crc)
	if err != nil {
		return err
	}
	s.insert(b, items)
	return nil
}

// BodyCacheBytes is the total length of the cached, inflated body blocks.
func (s *Snapshot) BodyCacheBytes() int {
	c := s.cache
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.bytes
}

// TrimBodyCache drops the least recently used body blocks until the cache holds at
// most maxBytes. The module calls it after each answer, so that a request whose page
// needs more than the budget is still answered in one run, and the cache is back within
// its budget before the next. Without it the cache keeps every block it inflated.
func (s *Snapshot) TrimBodyCache(maxBytes int) {
	c := s.cache
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.bytes <= maxBytes {
		return
	}
	type entry struct {
		block int
		used  uint64
	}
	order := make([]entry, 0, len(c.blocks))
	for b, blk := range c.blocks {
		order = append(order, entry{b, blk.used})
	}
	slices.SortFunc(order, func(x, y entry) int {
		switch {
		case x.used < y.used:
			return -1
		case x.used > y.used:
			return 1
		}
		return 0
	})
	for _, e := range order {
		if c.bytes <= maxBytes {
			break
		}
		c.bytes -= len(c.blocks[e.block].data)
		delete(c.blocks, e.block)
	}
}

// checkBlock checks block b's stored bytes against their stored checksum crc.
func checkBlock(b int, stored []byte, crc uint32) error {
	if got := crc32.Checksum(stored, castagnoli); got != crc {
		return wrapf(ErrChecksum, "body block "+strconv.Itoa(b)+": stored "+hex32(crc)+", computed "+hex32(got))
	}
	return nil
}

// verifyBodies checks every stored body block of a whole file against its checksum.
func (s *Snapshot) verifyBodies() error {
	for b := 0; b < s.blockCount; b++ {
		r, crc, ok := s.blockRange(b)
		if !ok {
			return wrapf(ErrCorrupt, "body block "+strconv.Itoa(b)+" is not in the block table")
		}
		if err := checkBlock(b, s.data[r.Offset:r.Offset+int64(r.Length)], crc); err != nil {
			return err
		}
	}
	return nil
}
