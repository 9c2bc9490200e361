//go:build !wasm

// The writer of term dictionaries, front-coded in blocks as termdict.go reads them.

package snapshot

import (
	"encoding/binary"
	"slices"
)

// termDictOf encodes a sorted term dictionary (termdict.go has the layout) on its
// own: at offset 0 of the terms section, its postings lists at offset 0 of the postings
// section (fieldSections.addDict moves its postings offsets, rebaseIndex, to where its
// lists land). A dictionary whose terms are
// ids, the items' ContentIDs in item order, is written as a reference to section ids
// (kind 2).
func termDictOf(d *preparedDict, ids []string) []byte {
	terms := make([]byte, 0, termDictSize(d, ids))
	n := len(d.terms)
	fromIDs := isIDs(d, ids)
	kind := uint32(dictTerms)
	if fromIDs {
		kind = dictIDs
	}
	terms = binary.LittleEndian.AppendUint32(terms, uint32(n))
	terms = binary.LittleEndian.AppendUint32(terms, kind)
	index := len(terms)
	terms = append(terms, make([]byte, 8*(blockCount(n)+1))...)
	blocks := len(terms)
	setEntry := func(b, term int) { // block b starts here, with term's postings list
		binary.LittleEndian.PutUint32(terms[index+8*b:], uint32(len(terms)-blocks))
		binary.LittleEndian.PutUint32(terms[index+8*b+4:], d.starts[term])
	}
	for k := range d.terms {
		if k%termBlock == 0 {
			setEntry(k/termBlock, k)
		}
		if !fromIDs {
			terms = appendTermEntry(terms, d.terms, k)
		}
		terms = binary.AppendUvarint(terms, uint64(d.starts[k+1]-d.starts[k]))
	}
	if len(d.starts) > n { // the ends (the zero preparedDict has no starts)
		setEntry(blockCount(n), n)
	}
	return terms
}

// rebaseIndex adds base to the postings offsets of a block index (count+1 entries of
// u32 block offset, u32 postings offset): the offsets of a dictionary's lists, encoded
// from 0, once the lists before them in the postings section are known.
func rebaseIndex(index []byte, base uint32) {
	for at := 4; at+4 <= len(index); at += 8 {
		binary.LittleEndian.PutUint32(index[at:], binary.LittleEndian.Uint32(index[at:])+base)
	}
}

// appendTermEntry appends term k's entry up to its postings list length: whole at the
// start of a block, else as the prefix it shares with term k-1 and its suffix.
func appendTermEntry(dst []byte, terms []string, k int) []byte {
	term, shared := terms[k], 0
	if k%termBlock != 0 {
		shared = sharedPrefix(terms[k-1], term)
		dst = binary.AppendUvarint(dst, uint64(shared))
	}
	dst = binary.AppendUvarint(dst, uint64(len(term)-shared))
	return append(dst, term[shared:]...)
}

// termDictSize is the size termDictOf gives d, so that its bytes are allocated once at
// their final size.
func termDictSize(d *preparedDict, ids []string) int {
	size := 8 + 8*(blockCount(len(d.terms))+1)
	fromIDs := isIDs(d, ids)
	for k, term := range d.terms {
		if !fromIDs {
			shared := 0
			if k%termBlock != 0 {
				shared = sharedPrefix(d.terms[k-1], term)
				size += uvarintLen(shared)
			}
			size += uvarintLen(len(term)-shared) + len(term) - shared
		}
		if k+1 < len(d.starts) {
			size += uvarintLen(int(d.starts[k+1] - d.starts[k]))
		}
	}
	return size
}

// isIDs reports whether d's terms are ids, the items' ContentIDs in item order (the
// keyword dictionary of ContentID, as items are sorted by it).
func isIDs(d *preparedDict, ids []string) bool {
	return len(d.terms) > 0 && slices.Equal(d.terms, ids)
}

// itemIDs lists the items' ContentIDs in order.
func itemIDs(items []pendingItem) []string {
	ids := make([]string, len(items))
	for i := range items {
		ids[i] = items[i].id
	}
	return ids
}

// sharedPrefix is the length of the longest common prefix of a and b.
func sharedPrefix(a, b string) int {
	n := min(len(a), len(b))
	i := 0
	for i < n && a[i] == b[i] {
		i++
	}
	return i
}

// uvarintLen is the number of bytes of v's uvarint.
func uvarintLen(v int) int {
	n := 1
	for ; v >= 0x80; v >>= 7 {
		n++
	}
	return n
}

// termHeadsWriter gathers section terms.heads (termdict.go has the layout) as the
// dictionaries are laid out: per dictionary its header, block index and each block's
// first term (termHead), which a reader keeps resident to find a term's block without
// reading the paged dictionary.
type termHeadsWriter struct {
	table []uint32 // per dictionary: its offset in terms, its head's offset in body
	body  []byte
}

// add records head, the head of the dictionary at offset off of the terms section.
func (h *termHeadsWriter) add(off int, head []byte) {
	for len(h.body)%4 != 0 {
		h.body = append(h.body, 0)
	}
	h.table = append(h.table, uint32(off), uint32(len(h.body)))
	h.body = append(h.body, head...)
}

// termHead returns the head of the dictionary whose bytes, from its header on, are
// dict: its header, its block index, the offsets of its blocks' first terms and the
// first terms.
func termHead(dict []byte) []byte {
	count := int(binary.LittleEndian.Uint32(dict))
	kind := int(binary.LittleEndian.Uint32(dict[4:]))
	blocks := blockCount(count)
	index := dict[8 : 8+8*(blocks+1)]
	out := make([]byte, 0, 8+len(index)+4*(blocks+1)+16*blocks)
	out = append(append(out, dict[:8]...), index...)
	firsts := len(out)
	out = append(out, make([]byte, 4*(blocks+1))...)
	bytesAt := len(out)
	blockBytes := 8 + len(index)
	for b := 0; b < blocks; b++ {
		binary.LittleEndian.PutUint32(out[firsts+4*b:], uint32(len(out)-bytesAt))
		if kind == dictTerms {
			at := blockBytes + int(binary.LittleEndian.Uint32(index[8*b:]))
			n, k := binary.Uvarint(dict[at:])
			out = append(out, dict[at+k:at+k+int(n)]...)
		}
	}
	binary.LittleEndian.PutUint32(out[firsts+4*blocks:], uint32(len(out)-bytesAt))
	return out
}

// bytes returns the section: the dictionary count, the table of (dictionary offset,
// head offset) pairs, then the heads (4-byte aligned: the table ends at a multiple of 4).
func (h *termHeadsWriter) bytes() []byte {
	dicts := len(h.table) / 2
	prefix := 4 + 8*dicts
	out := make([]byte, 0, prefix+len(h.body))
	out = binary.LittleEndian.AppendUint32(out, uint32(dicts))
	for i := 0; i < len(h.table); i += 2 {
		out = binary.LittleEndian.AppendUint32(out, h.table[i])
		out = binary.LittleEndian.AppendUint32(out, uint32(prefix)+h.table[i+1])
	}
	return append(out, h.body...)
}
