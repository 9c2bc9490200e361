// Package snapshot defines the compact, sorted, immutable snapshot file that holds one
// environment's content items, with a deterministic writer and a zero-copy reader.
//
// A snapshot is built once (by the builder CLI) and then served read-only by every
// runtime: natively, inside the WebAssembly module, at the edge. The reader side of this
// package is TinyGo-compatible: it never imports os, net, encoding/json or reflect-heavy
// packages, and every access into the file is bounds-checked so that a corrupted file
// yields an error, never a panic.
//
// # Layout
//
// All integers are little-endian.
//
//	index part (what a query needs at hand; loaded whole)
//	  header (80 bytes)
//	    0  magic "CDASNAP\x00"
//	    8  major u16 (3), minor u16
//	   12  flags u32 (bit 0: preview snapshot, API.md D3)
//	   16  item count u32
//	   20  section count u32
//	   24  section table offset u64
//	   32  content hash [32]byte: SHA-256 of every byte after the header, bodies
//	       included (the snapshot's version)
//	   64  checksum u32: CRC-32C of the index part with these four bytes taken as zero
//	   68  reserved u32 (zero)
//	   72  index part length u64 (header, sections and table)
//	  sections, each 8-byte aligned
//	  section table: count × {name [24]byte zero-padded, offset u64, length u64}
//	  (it lists the paged part's sections too)
//	zero padding to a 4096-byte boundary
//	paged part (from format 3: the index a query reads a little of; may stay where the
//	file lives, read by range in pages of 4 KiB)
//	  sections terms, postings and docsets.bitmaps, each 8-byte aligned; section pages in
//	  the index part
//	  gives the part's place and each page's CRC-32C
//	zero padding to a 4096-byte boundary
//	body part (what answers return; may stay where the file lives, read by range)
//	  the items' compact JSON one after another, cut into blocks of about 16 KiB, each
//	  stored as a deflate stream (RFC 1951) with the preset dictionary bodies.dict
//	  (bodies.offsets and bodies.blocks in the index part locate items and blocks and
//	  hold each stored block's CRC-32C)
//
// A runtime either opens the whole file, or opens its index part alone and is handed
// runs of index pages and body blocks as requests need them (pages.go, bodies.go; the
// WebAssembly module's need-ranges protocol, wasm/README.md). Format 2 files (terms and
// postings in the index part, no paged part) are read as they are. Format 1 files (one
// part, one checksum) are refused with a message that says to rebuild them.
//
// Items are stored sorted by ContentID (byte order), so an item's number is its rank by
// ContentID: lookups by id are a binary search and the tie-break of every sort
// (API.md D6, "ties break by ContentID ascending") is the item number itself.
//
// A field's analysed terms and its exact values each have a term dictionary in section
// terms (termdict.go has the exact layout): the terms in byte order, cut into blocks of
// 16, the first term of each block stored whole and each next one as the length of the
// prefix it shares with the one before plus the rest (front coding), each with the
// length of its postings list; a fixed-width index gives every block's start and its
// first postings list's offset. A lookup is a binary search over the blocks' first terms
// and a scan of one block; a sequential scan (prefixes, patterns, ranges) walks the
// blocks with TermDict.Iter. The keyword dictionary of ContentID, which is exactly the
// ids section in the same order, refers to it instead of storing the ids again. From
// format 3 every dictionary's block index and its blocks' first terms are also in
// section terms.heads, in the index part: a lookup's binary search then runs on what a
// runtime holds, and reads one block of the paged part.
//
// Each term has a postings list in section postings (postings.go has the exact layout),
// after Lucene 8's: the item count, then the items in blocks of 128 whose deltas and
// frequencies are bit-packed at the block's own width, each block led by a skip entry
// (its last item, its largest frequency, the length of its positions), the last
// partial block in varints, and the positions of all the items after them (a block's
// in chunks of 128 bit-packed values with a few exceptions, a patched frame of
// reference; the last partial block's in varints). Scoring reads no positions, a
// cursor skips blocks by their entries, and nothing is decoded into buffers: a packed
// value is read where it lies.
//
// A term in a sixteenth of the items or more also has its items stored as a bitmap of
// the collection, in section docsets (format 2.1, docsets.go): counting a query's
// matches exactly then reads a word per 64 items instead of decoding every item, and
// scoring finds an item's place in the list from its rank in the bitmap. Older readers
// ignore the section.
//
// From format 3.2, section bodies.dataends records for each item where its top-level
// Data object (or array) ends in its JSON: a projection of the members after it (a
// GraphQL selection of Name and ContentID, say) steps over Data, most of an item's
// bytes, instead of scanning it. Older readers ignore the section.
//
// See format.go for the sections and the per-field index structures.
package snapshot
