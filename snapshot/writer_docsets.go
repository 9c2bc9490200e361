//go:build !wasm

package snapshot

import "encoding/binary"

// denseDocFreq is the document frequency from which a term's list is also stored as a
// bitmap (docsets.go), for n items: a sixteenth of them, and at least a block. Its
// bitmap then costs at most 2 bits per item of the list (measured on generated items
// at 100k: 566 terms, 6 MiB, 5% of the index part), and a query reads it instead of
// decoding 16 or more items per word of it.
func denseDocFreq(n int) int { return max(n/16, postingsBlock) }

// denseTables gathers the sections of the dense lists: their bitmaps, and the text
// lists' impacts.
type denseTables struct {
	docSets, impacts listTableWriter
}

// listTableWriter gathers a listTable section: records with their lists' offsets in
// the postings section, in increasing order.
type listTableWriter struct {
	offsets []byte
	count   int
	records sectionPieces // in the spool, in a spooling build
}

// add records rec for the list at offset off of the postings section, which must
// follow those added before.
func (w *listTableWriter) add(off uint32, rec []byte) {
	w.offsets = binary.LittleEndian.AppendUint32(w.offsets, off)
	w.count++
	w.records.add(rec)
}

// pieces returns the section, its head then its records, for records of per units
// each; ok is false when there is no record.
func (w *listTableWriter) pieces(per int) (_ sectionPieces, ok bool) {
	if w.count == 0 {
		return sectionPieces{}, false
	}
	head := w.head(per)
	return sectionPieces{parts: append([]piece{{b: head}}, w.records.parts...), size: len(head) + w.records.size}, true
}

// head returns the section's head alone (count, per, offsets, padding), for a table
// whose records are a section of their own.
func (w *listTableWriter) head(per int) []byte {
	head := binary.LittleEndian.AppendUint32(nil, uint32(w.count))
	head = binary.LittleEndian.AppendUint32(head, uint32(per))
	head = append(head, w.offsets...)
	return append(head, make([]byte, align8(len(head))-len(head))...)
}

// bitmapOf returns an empty bitmap of n items, as the section stores it: its bytes
// in little-endian words, so that item d is bit d%8 of byte d/8.
func bitmapOf(n int) []byte { return make([]byte, 8*((n+63)/64)) }
