//go:build !wasm

// The field sections: every field's dictionaries, postings, norms, doc values, ranks
// and sort orders are encoded on every core, each into bytes of its own, and then laid
// end to end in field-name order with their offsets made absolute.

package snapshot

import (
	"bytes"
	"encoding/binary"
)

// fieldSections are the sections that index the fields: the field directory (dir)
// and the sections its entries point into.
type fieldSections struct {
	// ids are the items' ContentIDs in item order: a dictionary of exactly these refers
	// to the ids section instead of storing them again (termdict.go, kind 2).
	ids []string

	sp                                       *spool // nil unless spooling
	dir                                      []byte
	terms, postings, norms, docvalues, perms sectionPieces // in the spool, in a spooling build
	heads                                    termHeadsWriter
	dense                                    denseTables
}

// preparedField is one field's encoded structures, with offsets relative to its own
// bytes, ready to be appended to the sections.
type preparedField struct {
	name          string
	flags         uint64
	docCount      int
	text, keyword preparedDict
	textDocs      int
	sumTTF        int64
	// The bytes below are pieces: in a spooling build they wait in the spool, not in
	// memory, for the fields before to be laid out.
	norms     piece
	docvalues piece // the value column (values.go)
	permAsc   piece // sort orders, top-level fields only, packed (fieldHasPackedPerms)
	permDesc  piece
}

// preparedDict is a term dictionary with its postings: the sorted terms, and each
// term's list (document frequency, then the list) one after another in postings, the
// k-th starting at starts[k] (starts has one more entry, the end).
type preparedDict struct {
	terms    []string
	starts   []uint32
	postings sectionPieces // in the spool, in a spooling build
	dense    []denseList   // the lists also stored as bitmaps, in term order
	// Once encoded (encode): the dictionary's bytes, with postings offsets from its
	// own lists' start (in the spool, in a spooling build), its head, and whether its
	// block index is to be rebased; terms and starts are let go of then.
	dict     piece
	head     []byte
	indexLen int
	rebase   bool
}

// denseList is the bitmap of a term's items (docsets.go) and, for text, its impacts
// (impacts.go); off is the term's list's offset among the dictionary's lists.
type denseList struct {
	off             uint32
	bitmap, impacts []byte
}

// buildFieldSections writes the directory entry and index structures of every field,
// in name order, for the items whose ContentIDs are ids. The fields' builders are
// released as they are encoded.
func buildFieldSections(fields map[string]fieldParts, ids []string, sp *spool) fieldSections {
	names := sortedKeys(fields)
	builders := make([]fieldParts, len(names))
	for i, name := range names {
		builders[i] = fields[name]
		delete(fields, name)
	}
	prepared := make([]preparedField, len(names))
	forEachIndex(len(names), func(i int) {
		prepared[i] = prepareField(builders[i], ids, sp)
		builders[i] = nil
	})
	s := fieldSections{ids: ids, sp: sp}
	for _, p := range []*sectionPieces{&s.terms, &s.postings, &s.norms, &s.docvalues, &s.perms, &s.dense.docSets.records, &s.dense.impacts.records} {
		p.sp = sp
	}
	s.dir = binary.AppendUvarint(s.dir, uint64(len(names)))
	for i := range prepared {
		s.addField(&prepared[i])
		prepared[i] = preparedField{}
	}
	return s
}

// prepareField encodes one field's structures for the items whose ContentIDs are ids,
// from its builders of consecutive ranges (their dictionaries read back from sp if
// spilled), and releases the builders' dictionaries. The terms of dictionaries read
// back are views of the bytes read: what the prepared field keeps of them is encoded
// (preparedDict.encode) before it returns.
func prepareField(fp fieldParts, ids []string, sp *spool) preparedField {
	n := len(ids)
	f := preparedField{name: fp[0].name, flags: fp.flags()}
	var terms, keywords []*frozenDict
	for _, p := range fp {
		f.docCount += p.docCount
		f.textDocs += p.textDocs
		f.sumTTF += p.sumTTF
		terms, keywords = append(terms, p.frozenText.load(sp)), append(keywords, p.frozenKeywords.load(sp))
		p.values.load(sp)
	}
	defer func() {
		for _, p := range fp {
			p.frozenText, p.frozenKeywords, p.values = frozenDict{}, frozenDict{}, valueColumn{}
		}
	}()
	if f.flags&fieldHasText != 0 {
		norms := fp.norms(n)
		f.text = prepareDict(terms, true, n, norms, float64(f.sumTTF)/float64(max(f.textDocs, 1)), sp)
		f.text.encode(ids, sp)
		f.norms = keep(sp, norms)
	}
	var kwOrder map[string]uint32
	if f.flags&fieldHasKeyword != 0 {
		f.keyword = prepareDict(keywords, false, n, nil, 0, sp)
		kwOrder = make(map[string]uint32, len(f.keyword.terms))
		for i, k := range f.keyword.terms {
			kwOrder[k] = uint32(i)
		}
		f.keyword.encode(ids, sp)
	}
	if f.flags&fieldHasValues != 0 {
		vals := encodeValues(fp, n, kwOrder, f.flags&fieldHasPackedPerms != 0)
		f.docvalues = keep(sp, vals.bytes)
		if f.flags&fieldHasPackedPerms != 0 {
			pa, pd := sortOrders(vals.asc, vals.desc)
			width := bitsFor(uint64(n))
			size := int(packedLen(uint64(n), uint8(width)))
			f.permAsc = keep(sp, appendPacked(make([]byte, 0, size), pa, uint(width)))
			f.permDesc = keep(sp, appendPacked(make([]byte, 0, size), pd, uint(width)))
		}
	}
	return f
}

// norms returns the field's length bytes of the n items (zero where a range has no text).
func (fp fieldParts) norms(n int) []byte {
	if len(fp) == 1 && fp[0].base == 0 && len(fp[0].norms) == n {
		return fp[0].norms
	}
	out := make([]byte, n)
	for _, p := range fp {
		copy(out[p.base:], p.norms)
	}
	return out
}

// prepareDict lays out a dictionary's terms and their postings lists, from the frozen
// dictionaries of consecutive ranges of items; positions says whether it is a text
// dictionary (frequencies and positions) or a keyword one. The common terms' lists of
// a collection of n items are also kept as bitmaps and, for text, impacts, which need
// the field's length bytes (norms) and average length (avgdl). Each range's terms are
// sorted already (freeze): the runs are merged, a term's lists taken in range order.
func prepareDict(dicts []*frozenDict, positions bool, n int, norms []byte, avgdl float64, sp *spool) preparedDict {
	var d preparedDict
	size, total := 0, 0
	for _, dict := range dicts {
		size += len(dict.lists) + binary.MaxVarintLen64*len(dict.terms)
		total += len(dict.terms)
	}
	next := make([]int, len(dicts)) // per run, its next term
	d.terms = make([]string, 0, total)
	d.starts = make([]uint32, 0, total+1)
	if sp != nil {
		size = min(size, sp.chunk+sp.chunk/4)
	}
	postings := make([]byte, 0, size)
	flushed := 0 // bytes of the lists stored in the spool already
	lists := make([][]byte, 0, len(dicts))
	pw := postingsWriter{positions: positions, items: n, norms: norms, avgdl: avgdl}
	for {
		// The smallest term at the head of a run, then its lists in range order.
		term, found := "", false
		for r, dict := range dicts {
			if k := next[r]; k < len(dict.terms) && (!found || dict.terms[k] < term) {
				term, found = dict.terms[k], true
			}
		}
		if !found {
			break
		}
		lists, df := lists[:0], 0
		for r, dict := range dicts {
			if k := next[r]; k < len(dict.terms) && dict.terms[k] == term {
				lists = append(lists, dict.list(k))
				df += int(dict.dfs[k])
				next[r]++
			}
		}
		d.terms = append(d.terms, term)
		d.starts = append(d.starts, uint32(flushed+len(postings)))
		postings = pw.appendPostingList(postings, lists, df)
		if sp != nil && len(postings) >= sp.chunk {
			d.postings.addPiece(keep(sp, postings))
			flushed += len(postings)
			postings = postings[:0]
		}
		if pw.bitmap != nil {
			d.dense = append(d.dense, denseList{off: d.starts[len(d.starts)-1], bitmap: pw.bitmap, impacts: pw.impacts})
		}
	}
	d.starts = append(d.starts, uint32(flushed+len(postings)))
	// Kept in memory, the lists are kept until the file is written: not the room
	// reserved for them, an upper bound.
	if sp == nil && cap(postings)-len(postings) > len(postings)/8 {
		postings = bytes.Clone(postings)
	}
	d.postings.addPiece(keep(sp, postings))
	return d
}

// postingsChunk is how much of a dictionary's lists a spooling build holds in memory
// before it stores them in the spool: a large field's lists are then never all in
// memory at once.
const postingsChunk = 8 << 20

// flags returns the field's directory flags: where it is and which index structures
// it has.
func (fp fieldParts) flags() uint64 {
	flags := uint64(0)
	if fp[0].topLevel {
		flags |= fieldTopLevel
	}
	for _, fb := range fp {
		if fb.frozenText.count > 0 { // every range is frozen once indexed
			flags |= fieldHasText
		}
		if fb.frozenKeywords.count > 0 {
			flags |= fieldHasKeyword
		}
		if fb.hasValues {
			flags |= fieldHasValues
		}
		if fb.multi {
			flags |= fieldMultiValued
		}
	}
	if flags&fieldHasValues != 0 && flags&fieldTopLevel != 0 {
		flags |= fieldHasPackedPerms // sort orders are precomputed for top-level fields only
	}
	return flags
}

// addField appends the field's directory entry, name, flags and item count followed
// by the locations of its text, keyword and value structures, which it appends to
// their sections, in that order.
func (s *fieldSections) addField(f *preparedField) {
	s.dir = binary.AppendUvarint(s.dir, uint64(len(f.name)))
	s.dir = append(s.dir, f.name...)
	s.dir = binary.AppendUvarint(s.dir, f.flags)
	s.dir = binary.AppendUvarint(s.dir, uint64(f.docCount))
	if f.flags&fieldHasText != 0 {
		var off, size int
		off, size = s.addDict(&f.text)
		s.dir = appendUvarints(s.dir, off, size, f.textDocs, int(f.sumTTF), s.norms.size)
		s.norms.addPiece(f.norms)
	}
	if f.flags&fieldHasKeyword != 0 {
		var off, size int
		off, size = s.addDict(&f.keyword)
		s.dir = appendUvarints(s.dir, off, size)
	}
	if f.flags&fieldHasValues != 0 {
		s.dir = appendUvarints(s.dir, s.docvalues.size, f.docvalues.size())
		s.docvalues.addPiece(f.docvalues)
		if f.flags&fieldHasPackedPerms != 0 {
			s.perms.addPiece(f.permAsc) // their places follow from n (fieldHasPackedPerms)
			s.perms.addPiece(f.permDesc)
		}
	}
}

// encode encodes the dictionary (termDictOf) and its head, and lets go of its terms:
// a prepared field waits for its turn holding the few bytes of its head, not its terms.
func (d *preparedDict) encode(ids []string, sp *spool) {
	dict := termDictOf(d, ids)
	d.head = termHead(dict)
	d.indexLen = 8 * (blockCount(len(d.terms)) + 1)
	d.rebase = len(d.starts) > len(d.terms) // every entry of the block index is set
	d.dict = keep(sp, dict)
	d.terms, d.starts = nil, nil
}

// addDict appends an encoded dictionary to the terms section, 4-byte aligned, its head
// to the term heads and its lists to the postings section, moving its postings offsets
// to where its lists land, and returns its offset and size in the terms section.
func (s *fieldSections) addDict(d *preparedDict) (off, size int) {
	if pad := (4 - s.terms.size%4) % 4; pad > 0 {
		s.terms.addPiece(piece{b: zeros[:pad]})
	}
	off, size = s.terms.size, d.dict.size()
	base := uint32(s.postings.size)
	if d.rebase && base != 0 {
		rebaseIndex(d.head[8:8+d.indexLen], base)
		if d.dict.b != nil {
			rebaseIndex(d.dict.b[8:8+d.indexLen], base)
		} else { // in place in the spool
			index := s.sp.read(d.dict.at+8, d.indexLen, nil)
			rebaseIndex(index, base)
			s.sp.writeAt(index, d.dict.at+8)
		}
	}
	s.heads.add(off, d.head)
	s.terms.addPiece(d.dict)
	for _, pc := range d.postings.parts {
		s.postings.addPiece(pc)
	}
	for _, l := range d.dense {
		s.dense.docSets.add(base+l.off, l.bitmap)
		if l.impacts != nil {
			s.dense.impacts.add(base+l.off, l.impacts)
		}
	}
	return off, size
}
