package snapshot

import (
	"encoding/binary"
	"errors"
	"hash/crc32"
	"slices"
	"strconv"
)

// The body part: item JSON in blocks, read in place from a whole file, or, for a
// snapshot opened on its index part alone, provided block by block into a cache.
//
// A snapshot opened without its body part answers Item from its cache. An item whose
// block is not cached reads as "{}" and the block is recorded as missing; the caller
// (the WebAssembly module's request loop) finishes the request, asks its embedder for
// the missing blocks' byte ranges (MissingBlocks), hands them over (ProvideBlock) and
// runs the request again. Evaluation is deterministic, so the second run meets the same
// items and renders them from the cache; an answer never depends on where bodies came
// from. Such a snapshot changes as it is used, so it is for one goroutine at a time
// (a WebAssembly instance is single-threaded); a snapshot of a whole file never
// changes and is safe for any number of goroutines.

// missingBody is what Item returns for an item whose block is not in the cache: a
// valid, empty object, so that a first pass renders something harmless before the
// request runs again with the body.
const missingBody = "{}"

// BlockRange is one body block and where its bytes lie in the file.
type BlockRange struct {
	Block  int   // the block's number
	Offset int64 // its first byte, from the start of the file
	Length int   // its length in bytes
}

// bodyCache holds the body blocks provided to a snapshot opened on its index part.
type bodyCache struct {
	blocks  map[int]*cachedBlock
	bytes   int      // total length of the cached blocks
	clock   uint64   // ticks at every use, for least-recently-used eviction
	missing []int    // blocks read since the last MissingBlocks call and not cached, in first-read order
	asked   []uint64 // the same blocks as a bit set, so that recording one is O(1)
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
	s.bodyOffsets, s.bodyBlocks = byName[secBodyOffsets], byName[secBodyBlocks]
	if uint64(s.bodyOffsets.len()) != 8*(uint64(s.n)+1) {
		return errors.New("body offsets do not match " + strconv.Itoa(s.n) + " items")
	}
	if l := s.bodyBlocks.len(); l < 4 || (l-4)%8 != 0 {
		return errors.New("body block table of " + strconv.Itoa(l) + " bytes")
	}
	s.blockCount = (s.bodyBlocks.len() - 4) / 8
	s.bodyStart = (indexLen + bodyAlign - 1) &^ (bodyAlign - 1)
	bodyEnd := s.bodyStart + s.bodyOffset(s.n)
	if bodyEnd < s.bodyStart {
		return errors.New("body part length overflows")
	}
	s.fileSize = bodyEnd
	switch size := uint64(len(s.data)); {
	case size == indexLen:
		s.cache = &bodyCache{blocks: map[int]*cachedBlock{}}
	case size == bodyEnd:
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

// blockFirst is the first item of block b (b == blockCount gives the item count).
func (s *Snapshot) blockFirst(b int) int {
	v, _ := u32At(s.bodyBlocks.of(s.str), b)
	return int(v)
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

// BodiesResident reports whether the snapshot was opened on the whole file, so that
// every item body is in memory; otherwise bodies come through ProvideBlock.
func (s *Snapshot) BodiesResident() bool { return s.cache == nil }

// Item returns item i (0 <= i < Len) as its stored compact JSON, without copying. Items
// are numbered in ContentID order. A corrupt entry reads as the empty string. In a
// snapshot opened on its index part, an item whose block is not cached reads as "{}"
// and its block is recorded for MissingBlocks.
func (s *Snapshot) Item(i int) string {
	if i < 0 || i >= s.n {
		return ""
	}
	start, end := s.bodyOffset(i), s.bodyOffset(i+1)
	if start > end {
		return ""
	}
	if s.cache == nil {
		if end > s.fileSize-s.bodyStart {
			return ""
		}
		return s.str[s.bodyStart+start : s.bodyStart+end]
	}
	b := s.blockOf(i)
	if b < 0 {
		return ""
	}
	c := s.cache
	blk, ok := c.blocks[b]
	if !ok {
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
	base := s.bodyOffset(s.blockFirst(b))
	if start < base || end-base > uint64(len(blk.data)) {
		return ""
	}
	return blk.data[start-base : end-base]
}

// blockRange is where block b lies in the file, and its stored checksum.
func (s *Snapshot) blockRange(b int) (BlockRange, uint32, bool) {
	if b < 0 || b >= s.blockCount {
		return BlockRange{}, 0, false
	}
	first, next := s.blockFirst(b), s.blockFirst(b+1)
	if first < 0 || first >= next || next > s.n {
		return BlockRange{}, 0, false
	}
	start, end := s.bodyOffset(first), s.bodyOffset(next)
	if start > end || end-start > 1<<31-1 || end > s.fileSize-s.bodyStart {
		return BlockRange{}, 0, false
	}
	crc, _ := u32At(s.bodyBlocks.of(s.str), s.blockCount+1+b)
	return BlockRange{Block: b, Offset: int64(s.bodyStart + start), Length: int(end - start)}, crc, true
}

// MissingBlocks appends to dst the blocks that Item needed and did not find since the
// last call, in the order first needed, and forgets them. A snapshot with resident
// bodies never misses a block.
func (s *Snapshot) MissingBlocks(dst []BlockRange) []BlockRange {
	if s.cache == nil {
		return dst
	}
	for _, b := range s.cache.missing {
		if r, _, ok := s.blockRange(b); ok {
			dst = append(dst, r)
		}
		s.cache.asked[b/64] &^= 1 << (b % 64)
	}
	s.cache.missing = s.cache.missing[:0]
	return dst
}

// ProvideBlock checks data against block b's length and stored checksum and caches a
// copy of it, so that Item reads the block's items from it.
func (s *Snapshot) ProvideBlock(b int, data []byte) error {
	if s.cache == nil {
		return nil
	}
	r, crc, ok := s.blockRange(b)
	if !ok {
		return wrapf(ErrCorrupt, "body block "+strconv.Itoa(b)+" is not in the block table")
	}
	if len(data) != r.Length {
		return wrapf(ErrCorrupt, "body block "+strconv.Itoa(b)+": "+strconv.Itoa(len(data))+" bytes provided, "+strconv.Itoa(r.Length)+" expected")
	}
	if got := crc32.Checksum(data, castagnoli); got != crc {
		return wrapf(ErrChecksum, "body block "+strconv.Itoa(b)+": stored "+hex32(crc)+", computed "+hex32(got))
	}
	c := s.cache
	if old, ok := c.blocks[b]; ok {
		c.bytes -= len(old.data)
	}
	c.clock++
	c.blocks[b] = &cachedBlock{data: string(data), used: c.clock}
	c.bytes += len(data)
	return nil
}

// BodyCacheBytes is the total length of the cached body blocks.
func (s *Snapshot) BodyCacheBytes() int {
	if s.cache == nil {
		return 0
	}
	return s.cache.bytes
}

// TrimBodyCache drops the least recently used body blocks until the cache holds at
// most maxBytes. The module calls it after each answer, so that a request whose page
// needs more than the budget is still answered in one run, and the cache is back within
// its budget before the next.
func (s *Snapshot) TrimBodyCache(maxBytes int) {
	c := s.cache
	if c == nil || c.bytes <= maxBytes {
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

// verifyBodies checks every body block of a whole file against its stored checksum.
func (s *Snapshot) verifyBodies() error {
	for b := 0; b < s.blockCount; b++ {
		r, crc, ok := s.blockRange(b)
		if !ok {
			return wrapf(ErrCorrupt, "body block "+strconv.Itoa(b)+" is not in the block table")
		}
		if got := crc32.Checksum(s.data[r.Offset:r.Offset+int64(r.Length)], castagnoli); got != crc {
			return wrapf(ErrChecksum, "body block "+strconv.Itoa(b)+": stored "+hex32(crc)+", computed "+hex32(got))
		}
	}
	return nil
}
