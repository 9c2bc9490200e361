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

// HideSections returns a copy of the snapshot file data whose sections of the given
// names are renamed, so that a reader ignores them as it does any section it does not
// know, and whose checksum is made right again: a file as a writer that did not write
// those sections would have made it, but for their bytes. It reads the header and the
// section table as snapshot's package documentation lays them out.
func HideSections(tb testing.TB, data []byte, names ...string) []byte {
	tb.Helper()
	const (
		offSections, offTable, offChecksum, offIndexLen = 20, 24, 64, 72
		entrySize, nameSize                             = 40, 24
	)
	out := append([]byte(nil), data...)
	count := int(binary.LittleEndian.Uint32(out[offSections:]))
	table := int(binary.LittleEndian.Uint64(out[offTable:]))
	hidden := 0
	for i := range count {
		entry := out[table+i*entrySize:]
		name := strings.TrimRight(string(entry[:nameSize]), "\x00")
		if slices.Contains(names, name) {
			copy(entry[:nameSize], "hidden."+name)
			hidden++
		}
	}
	if hidden != len(names) {
		tb.Fatalf("hid %d of the sections %v", hidden, names)
	}
	indexLen := binary.LittleEndian.Uint64(out[offIndexLen:])
	binary.LittleEndian.PutUint32(out[offChecksum:], 0)
	sum := crc32.Checksum(out[:indexLen], crc32.MakeTable(crc32.Castagnoli))
	binary.LittleEndian.PutUint32(out[offChecksum:], sum)
	return out
}

// Format2 returns the snapshot file data (of format 3) laid out as format 2's writer
// laid it out: the sections of the paged part (term dictionaries, postings, the common
// terms' bitmaps) inside the index part, the bitmaps after the head of section
// "docsets", no paged part, no sections "pages" and "terms.heads", major version 2. It reads the header and the section table as snapshot's package documentation lays
// them out, and leaves the bytes of the dropped sections where they were, unlisted.
func Format2(tb testing.TB, data []byte) []byte {
	tb.Helper()
	const (
		offMajor, offMinor, offSections, offTable, offChecksum, offIndexLen = 8, 10, 20, 24, 64, 72
		entrySize, nameSize, align                                          = 40, 24, 4096
	)
	le := binary.LittleEndian
	count := int(le.Uint32(data[offSections:]))
	table := int(le.Uint64(data[offTable:]))
	indexLen := le.Uint64(data[offIndexLen:])
	type entry struct {
		name     string
		off, len uint64
	}
	var entries []entry
	var pages, bitmaps entry
	for i := range count {
		e := data[table+i*entrySize:]
		en := entry{strings.TrimRight(string(e[:nameSize]), "\x00"), le.Uint64(e[nameSize:]), le.Uint64(e[nameSize+8:])}
		switch en.name {
		case "pages":
			pages = en
		case "docsets.bitmaps":
			bitmaps = en
		case "terms.heads":
		default:
			entries = append(entries, en)
		}
	}
	if pages.len == 0 {
		tb.Fatal("snapshottest.Format2: not a file with a paged part")
	}
	pagedEnd := le.Uint64(data[pages.off:]) + le.Uint64(data[pages.off+8:])
	bodyStart := (pagedEnd + align - 1) &^ (align - 1)
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
	newLen := len(out)
	le.PutUint16(out[offMajor:], 2)
	le.PutUint16(out[offMinor:], 1)
	le.PutUint32(out[offSections:], uint32(len(entries)))
	le.PutUint64(out[offTable:], uint64(tableAt))
	le.PutUint64(out[offIndexLen:], uint64(newLen))
	le.PutUint32(out[offChecksum:], 0)
	le.PutUint32(out[offChecksum:], crc32.Checksum(out[:newLen], crc32.MakeTable(crc32.Castagnoli)))
	return append(pad(out, align), data[bodyStart:]...)
}
