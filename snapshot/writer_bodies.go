//go:build !wasm

package snapshot

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"sync"

	"github.com/klauspost/compress/flate"
)

// Body blocks are deflate streams (RFC 1951) with a preset dictionary. Deflate was
// chosen by measuring (DESIGN-v2.md, "Bodies: compression, measured"): with a 32 KiB
// dictionary of the environment's own items it stores builder-gen items at 0.23-0.25 of
// their size, as zstd with a trained dictionary does, and its decoder (the standard
// library's, snapshot/internal/inflate in the module) adds ~20 KB to the TinyGo module.
// A block of a few items compresses as well as one item at a time with the dictionary,
// and keeps one checksum and one read per block. The compressor is klauspost/compress's
// flate, not the standard library's: its streams are plain deflate, which the readers
// inflate as before, and it makes them smaller and faster (below).

const (
	// bodyDictSize is the preset dictionary's size: deflate's whole window.
	bodyDictSize = 32 << 10
	// bodyDictSamples is how many items, evenly spaced, the dictionary is cut from.
	bodyDictSamples = 64
	// bodyLevel is the deflate level. Measured on 30k builder-gen items in 16 KiB
	// blocks with the dictionary, in one run (ratio of their size, compression speed
	// on one core): the standard library's level 3 (used before) 0.2405 at 48 MB/s,
	// its level 6 0.2241 at 25 MB/s; klauspost/compress level 4 0.2512 at 90 MB/s,
	// 5 0.2425 at 72 MB/s, 6 0.2386 at 63 MB/s, 7 0.2382 at 42 MB/s. Level 6 is both
	// smaller and 1.3x faster than what it replaced.
	bodyLevel = 6
)

// bodyDictionary returns the preset dictionary of the body blocks: the last
// bodyDictSize bytes of bodyDictSamples items taken at even steps through the items, so
// that it holds the member names, template names and common words of this
// environment. It depends on the items only, so builds stay deterministic.
func bodyDictionary(src itemSource) []byte {
	var sample, buf []byte
	n := len(src.items)
	for k := range min(n, bodyDictSamples) {
		buf = src.json(k*n/min(n, bodyDictSamples), buf)
		sample = append(sample, buf...)
	}
	if len(sample) > bodyDictSize {
		sample = sample[len(sample)-bodyDictSize:]
	}
	return sample
}

// bodySections cuts the items' canonical JSON, one after another, into body blocks of
// about BodyBlockTarget bytes and compresses each with the preset dictionary, on every
// core. It returns the body part (the stored blocks, in the spool if the items are), the
// bodies.offsets section (u64[n+1]: item i is bytes [o[i], o[i+1]) of the items' JSON
// laid end to end), the bodies.blocks section (u64[B+1] offset of each stored block in
// the body part, the last one the part's length; u32[B+1] first item of each block, the
// last one n; u32[B] CRC-32C of each stored block) and the bodies.dict section.
func bodySections(src itemSource) (stored sectionPieces, offs, blocks, dict []byte) {
	n := len(src.items)
	offs = make([]byte, 0, 8*(n+1))
	offs = binary.LittleEndian.AppendUint64(offs, 0)
	var firsts []uint32
	total, blockStart := uint64(0), uint64(0)
	for i := range n {
		size := uint64(src.size(i))
		if i == 0 || total-blockStart+size > BodyBlockTarget && total > blockStart {
			firsts, blockStart = append(firsts, uint32(i)), total
		}
		total += size
		offs = binary.LittleEndian.AppendUint64(offs, total)
	}
	firsts = append(firsts, uint32(n))
	count := len(firsts) - 1

	dict = bodyDictionary(src)
	parts := make([]piece, count)
	crcs := make([]uint32, count)
	// Each core compresses into a scratch buffer of its own and keeps an exact copy (or
	// stores it in the spool), so that the blocks leave no garbage of grown buffers
	// behind for the indexing to come.
	type compressor struct {
		w        *flate.Writer
		buf      bytes.Buffer
		itemJSON []byte
	}
	compressors := sync.Pool{New: func() any {
		c := &compressor{}
		c.w, _ = flate.NewWriterDict(&c.buf, bodyLevel, dict) // the level is valid
		return c
	}}
	forEachIndex(count, func(b int) {
		c := compressors.Get().(*compressor)
		c.buf.Reset()
		c.w.Reset(&c.buf)
		for i := firsts[b]; i < firsts[b+1]; i++ {
			c.itemJSON = src.json(int(i), c.itemJSON)
			_, _ = c.w.Write(c.itemJSON) // writes to a bytes.Buffer do not fail
		}
		_ = c.w.Close()
		block := c.buf.Bytes()
		crcs[b] = crc32.Checksum(block, castagnoli)
		if src.spool == nil {
			block = bytes.Clone(block)
		}
		parts[b] = keep(src.spool, block)
		compressors.Put(c)
	})

	blocks = make([]byte, 0, 8*(count+1)+4*(2*count+1))
	at := uint64(0)
	blocks = binary.LittleEndian.AppendUint64(blocks, at)
	for _, p := range parts {
		at += uint64(p.size())
		blocks = binary.LittleEndian.AppendUint64(blocks, at)
	}
	stored = sectionPieces{parts: parts, size: int(at)}
	blocks = appendU32s(blocks, firsts)
	return stored, offs, appendU32s(blocks, crcs), dict
}

// dataEndsSection encodes section bodies.dataends from each item's end of its Data
// value (0: none): a width byte, seven zero bytes, then the ends packed at that many
// bits (appendPacked). ok is false when no item has an end to record.
func dataEndsSection(ends []uint32) (sec []byte, ok bool) {
	limit := uint64(0)
	for _, e := range ends {
		limit = max(limit, uint64(e)+1)
	}
	if limit <= 1 {
		return nil, false
	}
	width := bitsFor(limit)
	sec = make([]byte, 8, 8+packedLen(uint64(len(ends)), uint8(width)))
	sec[0] = byte(width)
	return appendPacked(sec, ends, uint(width)), true
}
