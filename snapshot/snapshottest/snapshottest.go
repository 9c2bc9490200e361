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
