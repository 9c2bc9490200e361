// Package snapshottest builds small snapshots from inline items for tests.
package snapshottest

import (
	"encoding/binary"
	"hash/crc32"
	"slices"
	"strings"
	"testing"

	"github.com/cdaedge/cdaedge/snapshot"
)

// Bytes builds a snapshot of items (JSON objects) for environment env and returns the
// file's bytes; any error fails the test.
func Bytes(tb testing.TB, env string, preview bool, items ...string) []byte {
	tb.Helper()
	w, err := snapshot.NewWriter(env, preview)
	if err != nil {
		tb.Fatal(err)
	}
	for _, it := range items {
		if err := w.Add([]byte(it)); err != nil {
			tb.Fatal(err)
		}
	}
	b, err := w.Bytes()
	if err != nil {
		tb.Fatal(err)
	}
	return b
}

// Open builds a snapshot of items for environment env and opens it.
func Open(tb testing.TB, env string, preview bool, items ...string) *snapshot.Snapshot {
	tb.Helper()
	s, err := snapshot.Open(Bytes(tb, env, preview, items...))
	if err != nil {
		tb.Fatal(err)
	}
	return s
}

// OpenIndex opens the index part of the snapshot file data alone, as the WebAssembly
// module and the host's file-backed instances do: item bodies and index pages are
// then read by range. Any error fails the test.
func OpenIndex(tb testing.TB, data []byte) *snapshot.Snapshot {
	tb.Helper()
	n, err := snapshot.IndexLen(data)
	if err != nil {
		tb.Fatal(err)
	}
	s, err := snapshot.Open(data[:n])
	if err != nil {
		tb.Fatal(err)
	}
	return s
}

// The file layout as snapshot's package documentation gives it, which HideSections
// and Format2 read and rewrite.
const (
	offMajor, offMinor, offSections, offTable, offChecksum, offIndexLen = 8, 10, 20, 24, 64, 72
	entrySize, nameSize, partAlign                                      = 40, 24, 4096
)

// section is one entry of a file's section table, at index i of the table.
type section struct {
	i        int
	name     string
	off, len uint64
}

// sections reads data's section table.
func sections(data []byte) []section {
	le := binary.LittleEndian
	count := int(le.Uint32(data[offSections:]))
	table := int(le.Uint64(data[offTable:]))
	out := make([]section, 0, count)
	for i := range count {
		e := data[table+i*entrySize:]
		out = append(out, section{i, strings.TrimRight(string(e[:nameSize]), "\x00"), le.Uint64(e[nameSize:]), le.Uint64(e[nameSize+8:])})
	}
	return out
}

// fixChecksum makes the index part's checksum right again for its bytes as they are.
func fixChecksum(out []byte) {
	indexLen := binary.LittleEndian.Uint64(out[offIndexLen:])
	binary.LittleEndian.PutUint32(out[offChecksum:], 0)
	binary.LittleEndian.PutUint32(out[offChecksum:], crc32.Checksum(out[:indexLen], crc32.MakeTable(crc32.Castagnoli)))
}

// HideSections returns a copy of the snapshot file data whose sections of the given
// names are renamed, so that a reader ignores them as it does any section it does not
// know, and whose checksum is made right again: a file as a writer that did not write
// those sections would have made it, but for their bytes.
func HideSections(tb testing.TB, data []byte, names ...string) []byte {
	tb.Helper()
	out := append([]byte(nil), data...)
	table := int(binary.LittleEndian.Uint64(out[offTable:]))
	hidden := 0
	for _, sec := range sections(out) {
		if slices.Contains(names, sec.name) {
			copy(out[table+sec.i*entrySize:][:nameSize], "hidden."+sec.name)
			hidden++
		}
	}
	if hidden != len(names) {
		tb.Fatalf("hid %d of the sections %v", hidden, names)
	}
	fixChecksum(out)
	return out
}

// Format2 returns the snapshot file data (of format 3) laid out as format 2's writer
// laid it out: the sections of the paged part (term dictionaries, postings, the common
// terms' bitmaps) inside the index part, the bitmaps after the head of section
// "docsets", no paged part, no sections "pages" and "terms.heads", major version 2. It
// leaves the bytes of the dropped sections where they were, unlisted.
func Format2(tb testing.TB, data []byte) []byte {
	tb.Helper()
	le := binary.LittleEndian
	table := int(le.Uint64(data[offTable:]))
	indexLen := le.Uint64(data[offIndexLen:])
	var entries []section
	var pages, bitmaps section
	for _, sec := range sections(data) {
		switch sec.name {
		case "pages":
			pages = sec
		case "docsets.bitmaps":
			bitmaps = sec
		case "terms.heads":
		default:
			entries = append(entries, sec)
		}
	}
	if pages.len == 0 {
		tb.Fatal("snapshottest.Format2: not a file with a paged part")
	}
	pagedEnd := le.Uint64(data[pages.off:]) + le.Uint64(data[pages.off+8:])
	bodyStart := (pagedEnd + partAlign - 1) &^ (partAlign - 1)
	pad := func(b []byte, to int) []byte { return append(b, make([]byte, (to-len(b)%to)%to)...) }
	out := pad(slices.Clone(data[:table]), 8)
	for i, e := range entries {
		switch {
		case e.name == "docsets" && bitmaps.len > 0: // the head, then the bitmaps
			entries[i].off, entries[i].len = uint64(len(out)), e.len+bitmaps.len
			out = append(out, data[e.off:e.off+e.len]...)
			out = pad(append(out, data[bitmaps.off:bitmaps.off+bitmaps.len]...), 8)
		case e.off >= indexLen: // a section of the paged part moves into the index part
			entries[i].off = uint64(len(out))
			out = pad(append(out, data[e.off:e.off+e.len]...), 8)
		}
	}
	tableAt := len(out)
	for _, e := range entries {
		var buf [entrySize]byte
		copy(buf[:nameSize], e.name)
		le.PutUint64(buf[nameSize:], e.off)
		le.PutUint64(buf[nameSize+8:], e.len)
		out = append(out, buf[:]...)
	}
	le.PutUint16(out[offMajor:], 2)
	le.PutUint16(out[offMinor:], 1)
	le.PutUint32(out[offSections:], uint32(len(entries)))
	le.PutUint64(out[offTable:], uint64(tableAt))
	le.PutUint64(out[offIndexLen:], uint64(len(out)))
	fixChecksum(out)
	return append(pad(out, partAlign), data[bodyStart:]...)
}
