//go:build !wasm

package snapshot

import (
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"io"
)

// Encoded is a snapshot laid out and hashed, not yet copied into one buffer: its
// sections are the writer's own slices, and its body blocks too or the spool's
// (Writer.SpoolTo), so that a large snapshot streams to a file without a second copy of
// itself in memory. An Encoded made by a spooling writer must be closed (Close).
type Encoded struct {
	header    [headerSize]byte
	sections  []encodedSection
	table     []byte
	indexLen  int64 // the index part: header, sections and table
	paged     []encodedSection
	pagedEnd  int64         // the end of the paged part (indexLen when there is none)
	bodyStart int64         // the body part's offset: pagedEnd rounded up to bodyAlign
	bodies    sectionPieces // the body part: the stored blocks in item order
	size      int64
	sp        *spool // where the spooled pieces and blocks are, in a spooling build
	closed    bool
}

// encodedSection is one section: its name, its bytes as pieces, their total length,
// and where it starts in the file.
type encodedSection struct {
	name   string
	pieces []piece
	size   int64
	at     int64
}

// piece is part of a section: bytes in memory, or, in a spooling build, n bytes at
// offset at of the spool.
type piece struct {
	b  []byte
	at int64
	n  int
}

// sectionPieces is a section made of pieces laid end to end: the fields' own slices,
// not a copy of them all, and in a spooling build extents of the spool (sp set), so
// that the largest sections leave memory as soon as each part is encoded.
type sectionPieces struct {
	parts []piece
	size  int
	sp    *spool // when set, add stores the bytes in the spool
}

// add appends b to the section (storing it in the spool, when there is one).
func (p *sectionPieces) add(b []byte) { p.addPiece(keep(p.sp, b)) }

// addPiece appends a piece kept before (keep).
func (p *sectionPieces) addPiece(pc piece) {
	if n := pc.size(); n > 0 {
		p.parts = append(p.parts, pc)
		p.size += n
	}
}

// size is the piece's length.
func (pc piece) size() int { return len(pc.b) + pc.n }

// keep returns b as a piece: stored in sp when there is one (its memory is then free
// to be reused), as it is otherwise.
func keep(sp *spool, b []byte) piece {
	if sp == nil || len(b) == 0 {
		return piece{b: b}
	}
	return piece{at: sp.store(b), n: len(b)}
}

// spoolChunk is how much of a spooled piece is read at a time to be written out.
const spoolChunk = 1 << 20

// Size is the file's length in bytes.
func (e *Encoded) Size() int64 { return e.size }

// Bytes returns the file in one buffer.
func (e *Encoded) Bytes() []byte {
	out := make([]byte, 0, e.size)
	out = append(out, e.header[:]...)
	e.body(func(b []byte) { out = append(out, b...) })
	return out
}

// WriteTo writes the file to w.
func (e *Encoded) WriteTo(w io.Writer) (int64, error) {
	n, err := w.Write(e.header[:])
	total := int64(n)
	e.body(func(b []byte) {
		if err == nil {
			n, err = w.Write(b)
			total += int64(n)
		}
	})
	if err == nil && e.sp != nil {
		err = e.sp.failed()
	}
	return total, err
}

// Close releases the spool that a spooling writer left the body blocks and the
// largest sections in, and returns the first error met reading it, if any (Bytes has
// no error of its own to return it with). Writing the snapshot after Close fails. It
// does nothing for a snapshot encoded in memory.
func (e *Encoded) Close() error {
	if e.sp == nil || e.closed {
		return nil
	}
	e.closed = true
	return errors.Join(e.sp.failed(), e.sp.close())
}

// zeros pads sections to their alignment.
var zeros [bodyAlign]byte

// body calls emit with the bytes after the header, in file order.
func (e *Encoded) body(emit func([]byte)) {
	e.indexPart(emit)
	if len(e.paged) > 0 {
		if pad := e.paged[0].at - e.indexLen; pad > 0 {
			emit(zeros[:pad])
		}
		emitSections(e.paged, e.paged[0].at, e.sp, emit)
	}
	e.bodyPart(emit)
}

// emitSections calls emit with sections laid out from pos, padding between them
// included; spooled pieces are read from sp a chunk at a time.
func emitSections(sections []encodedSection, pos int64, sp *spool, emit func([]byte)) int64 {
	var buf []byte
	for _, s := range sections {
		if pad := s.at - pos; pad > 0 {
			emit(zeros[:pad])
		}
		buf = emitPieces(s.pieces, sp, buf, emit)
		pos = s.at + s.size
	}
	return pos
}

// emitPieces calls emit with the pieces' bytes in order, reading spooled ones from sp
// a chunk at a time into buf, which it returns for the next call.
func emitPieces(pieces []piece, sp *spool, buf []byte, emit func([]byte)) []byte {
	for _, p := range pieces {
		if len(p.b) > 0 {
			emit(p.b)
		}
		for done := 0; done < p.n; {
			k := min(p.n-done, spoolChunk)
			buf = sp.read(p.at+int64(done), k, buf)
			emit(buf)
			done += k
		}
	}
	return buf
}

// bodyPart calls emit with the padding after the paged part, then the items.
func (e *Encoded) bodyPart(emit func([]byte)) {
	if pad := e.bodyStart - e.pagedEnd; pad > 0 {
		emit(zeros[:pad])
	}
	emitPieces(e.bodies.parts, e.sp, nil, emit)
}

// indexPart calls emit with the index part's bytes after the header, in file order.
func (e *Encoded) indexPart(emit func([]byte)) {
	pos := emitSections(e.sections, headerSize, e.sp, emit)
	if pad := align8(pos) - pos; pad > 0 {
		emit(zeros[:pad])
	}
	emit(e.table)
}

// fileBuilder lays out the header, the 8-byte aligned sections and the section table,
// then the paged part's sections (pages.go).
type fileBuilder struct {
	sections []encodedSection
	paged    []encodedSection
	sp       *spool // where spooled pieces are, if any
}

// pagedSection adds a section of the paged part.
func (b *fileBuilder) pagedSection(name string, pieces sectionPieces) {
	b.sectionOf(name, pieces)
	last := len(b.sections) - 1
	b.paged = append(b.paged, b.sections[last])
	b.sections = b.sections[:last]
}

// layoutPaged places the paged sections from offset 0 of the paged part and returns
// section "pages" for them, whose start the caller fills in.
func (b *fileBuilder) layoutPaged() []byte {
	var pos int64
	for i := range b.paged {
		s := &b.paged[i]
		s.at = align8(pos)
		pos = s.at + s.size
	}
	crcs := make([]uint32, 0, (pos+pageSize-1)/pageSize)
	var crc uint32
	fill := 0 // bytes of the current page checksummed so far
	emitSections(b.paged, 0, b.sp, func(p []byte) {
		for len(p) > 0 {
			n := min(len(p), pageSize-fill)
			crc = crc32.Update(crc, castagnoli, p[:n])
			p, fill = p[n:], fill+n
			if fill == pageSize {
				crcs, crc, fill = append(crcs, crc), 0, 0
			}
		}
	})
	if fill > 0 {
		crcs = append(crcs, crc)
	}
	out := make([]byte, pagesHead+4*len(crcs))
	binary.LittleEndian.PutUint64(out[8:], uint64(pos))
	for i, c := range crcs {
		binary.LittleEndian.PutUint32(out[pagesHead+4*i:], c)
	}
	return out
}

// section adds a section made of pieces in memory laid end to end.
func (b *fileBuilder) section(name string, pieces ...[]byte) {
	var ps sectionPieces
	for _, p := range pieces {
		ps.add(p)
	}
	b.sectionOf(name, ps)
}

// sectionOf adds a section made of pieces.
func (b *fileBuilder) sectionOf(name string, pieces sectionPieces) {
	b.sections = append(b.sections, encodedSection{name: name, pieces: pieces.parts, size: int64(pieces.size)})
}

// finish lays the sections out, then the body part, and computes the header, its
// content hash and checksum.
func (b *fileBuilder) finish(preview bool, n int, bodies sectionPieces) *Encoded {
	var pages []byte
	if len(b.paged) > 0 {
		pages = b.layoutPaged()
		b.section(secPages, pages)
	}
	e := &Encoded{sections: b.sections, paged: b.paged, bodies: bodies, sp: b.sp}
	pos := int64(headerSize)
	for i := range e.sections {
		s := &e.sections[i]
		s.at = align8(pos)
		pos = s.at + s.size
	}
	tableOff := align8(pos)
	e.indexLen = tableOff + int64(sectionEntry*(len(e.sections)+len(e.paged)))
	e.pagedEnd = e.indexLen
	if pages != nil {
		start := (e.indexLen + pageSize - 1) &^ (pageSize - 1)
		binary.LittleEndian.PutUint64(pages, uint64(start))
		for i := range e.paged {
			e.paged[i].at += start
		}
		e.pagedEnd = start + int64(binary.LittleEndian.Uint64(pages[8:]))
	}
	e.table = make([]byte, 0, sectionEntry*(len(e.sections)+len(e.paged)))
	for _, s := range append(e.sections[:len(e.sections):len(e.sections)], e.paged...) {
		var entry [sectionEntry]byte
		copy(entry[:sectionNameSize], s.name)
		binary.LittleEndian.PutUint64(entry[sectionNameSize:], uint64(s.at))
		binary.LittleEndian.PutUint64(entry[sectionNameSize+8:], uint64(s.size))
		e.table = append(e.table, entry[:]...)
	}
	e.bodyStart = (e.pagedEnd + bodyAlign - 1) &^ (bodyAlign - 1)
	e.size = e.bodyStart + int64(bodies.size)

	h := &e.header
	copy(h[offMagic:], Magic)
	binary.LittleEndian.PutUint16(h[offMajor:], MajorVersion)
	binary.LittleEndian.PutUint16(h[offMinor:], MinorVersion)
	var flags uint32
	if preview {
		flags |= flagPreview
	}
	binary.LittleEndian.PutUint32(h[offFlags:], flags)
	binary.LittleEndian.PutUint32(h[offItems:], uint32(n))
	binary.LittleEndian.PutUint32(h[offSections:], uint32(len(e.sections)+len(e.paged)))
	binary.LittleEndian.PutUint64(h[offTable:], uint64(tableOff))
	binary.LittleEndian.PutUint64(h[offIndexLen:], uint64(e.indexLen))
	// The hash identifies the content, bodies included. It is computed first since the
	// checksum covers the header, which holds it.
	sum := sha256.New()
	e.body(func(b []byte) { sum.Write(b) })
	copy(h[offHash:offHash+sha256.Size], sum.Sum(nil))
	// The checksum covers the index part with its own four bytes read as zero; the body
	// blocks' checksums are in the index part.
	c := crc32.Update(0, castagnoli, h[:offChecksum])
	c = crc32.Update(c, castagnoli, zeros[:checksumSize])
	c = crc32.Update(c, castagnoli, h[offChecksum+checksumSize:])
	e.indexPart(func(b []byte) { c = crc32.Update(c, castagnoli, b) })
	binary.LittleEndian.PutUint32(h[offChecksum:], c)
	return e
}
