package snapshot

import (
	"bytes"
	"errors"
	"hash/crc32"
	"slices"
	"strings"
	"testing"

	"github.com/cdaedge/cdaedge/builder/gen"
	"github.com/cdaedge/cdaedge/edge/jsonr"
)

// genSnapshot builds a snapshot of n generated items (about 5 KB each: many body blocks).
func genSnapshot(t testing.TB, n int) []byte {
	t.Helper()
	var in bytes.Buffer
	if err := gen.Generate(&in, gen.Options{Items: n, Seed: 3}); err != nil {
		t.Fatal(err)
	}
	return build(t, true, strings.Split(strings.TrimSpace(in.String()), "\n")...)
}

// TestBodiesByBlock opens a file's index part alone and checks the protocol that serves
// its items: a missing body reads as {} and names its block, once; a provided block is
// checked against its length and checksum; cached items read as in the whole file; the
// cache drops its least recently used blocks first.
func TestBodiesByBlock(t *testing.T) {
	file := genSnapshot(t, 120)
	whole, err := Open(file)
	if err != nil {
		t.Fatal(err)
	}
	indexLen, err := IndexLen(file)
	if err != nil {
		t.Fatal(err)
	}
	if indexLen != whole.IndexSize() || indexLen%8 != 0 || whole.Size() != int64(len(file)) {
		t.Fatalf("index part %d (IndexSize %d), file %d (Size %d)", indexLen, whole.IndexSize(), len(file), whole.Size())
	}
	part, err := Open(file[:indexLen])
	if err != nil {
		t.Fatal(err)
	}
	if !whole.BodiesResident() || part.BodiesResident() || part.Size() != int64(len(file)) {
		t.Fatalf("resident: whole %v, index part %v; index part's Size %d", whole.BodiesResident(), part.BodiesResident(), part.Size())
	}
	if part.blockCount < 10 {
		t.Fatalf("%d body blocks for 120 items of ~5 KB: want blocks of about %d bytes", part.blockCount, BodyBlockTarget)
	}

	// First pass: nothing cached.
	for i := 0; i < part.Len(); i++ {
		if got := part.Item(i); got != missingBody {
			t.Fatalf("item %d before its block was provided: %.40q", i, got)
		}
	}
	missing := part.MissingBlocks(nil)
	if len(missing) != part.blockCount {
		t.Fatalf("%d blocks missing, want every one of %d", len(missing), part.blockCount)
	}
	if again := part.MissingBlocks(nil); len(again) != 0 {
		t.Fatalf("MissingBlocks did not forget what it returned: %v", again)
	}
	inflated := func(k int) int {
		return int(part.bodyOffset(part.blockFirst(k+1)) - part.bodyOffset(part.blockFirst(k)))
	}
	stored := 0
	for k, r := range missing {
		if r.Block != k || r.Offset < indexLen || r.Offset+int64(r.Length) > int64(len(file)) {
			t.Fatalf("block range %d: %+v", k, r)
		}
		if inflated(k) > BodyBlockTarget && part.blockFirst(k+1)-part.blockFirst(k) > 1 {
			t.Errorf("block %d: %d bytes in %d items, over the target", k, inflated(k), part.blockFirst(k+1)-part.blockFirst(k))
		}
		stored += r.Length
	}
	if total := int(part.bodyOffset(part.Len())); stored*3 > total {
		t.Errorf("the blocks store %d bytes of items in %d: want deflate to keep under a third", total, stored)
	}

	// Refusals, then the real bytes.
	r := missing[0]
	bytesOf := func(r BlockRange) []byte { return file[r.Offset : r.Offset+int64(r.Length)] }
	flipped := slices.Clone(bytesOf(r))
	flipped[len(flipped)/2] ^= 1
	if err := part.ProvideBlock(r.Block, flipped); !errors.Is(err, ErrChecksum) {
		t.Errorf("a corrupt block: %v, want %v", err, ErrChecksum)
	}
	if err := part.ProvideBlock(r.Block, bytesOf(r)[1:]); !errors.Is(err, ErrCorrupt) {
		t.Errorf("a short block: %v, want %v", err, ErrCorrupt)
	}
	if err := part.ProvideBlock(part.blockCount, nil); !errors.Is(err, ErrCorrupt) {
		t.Errorf("a block past the table: %v, want %v", err, ErrCorrupt)
	}
	for _, r := range missing {
		if err := part.ProvideBlock(r.Block, bytesOf(r)); err != nil {
			t.Fatal(err)
		}
	}
	for i := 0; i < part.Len(); i++ {
		if part.Item(i) != whole.Item(i) {
			t.Fatalf("item %d differs from the whole file's", i)
		}
	}
	if m := part.MissingBlocks(nil); len(m) != 0 {
		t.Fatalf("blocks missing after every one was provided: %v", m)
	}
	if got, want := part.BodyCacheBytes(), int(part.bodyOffset(part.Len())); got != want {
		t.Errorf("cache holds %d bytes, want the items' %d", got, want)
	}

	// Eviction: touch the first block last; trimming to one block's size keeps it.
	part.Item(0)
	part.TrimBodyCache(inflated(0))
	if got := part.BodyCacheBytes(); got != inflated(0) {
		t.Fatalf("after trimming to one block: %d bytes cached", got)
	}
	if part.Item(0) != whole.Item(0) {
		t.Error("the most recently used block was evicted")
	}
	last := part.Len() - 1
	if part.Item(last) != missingBody || len(part.MissingBlocks(nil)) != 1 {
		t.Error("a block evicted by the trim still reads as cached")
	}
}

// TestEmptySnapshotBodies checks the body part of an environment with no items.
func TestEmptySnapshotBodies(t *testing.T) {
	file := build(t, false)
	indexLen, err := IndexLen(file)
	if err != nil {
		t.Fatal(err)
	}
	for _, data := range [][]byte{file, file[:indexLen]} {
		s, err := Open(data)
		if err != nil {
			t.Fatal(err)
		}
		if s.Len() != 0 || s.Item(0) != "" || len(s.MissingBlocks(nil)) != 0 {
			t.Errorf("%d bytes: an empty environment reads an item or misses a block", len(data))
		}
	}
}

// TestBodiesInflateChecks provides blocks whose checksum matches but whose deflate
// stream is wrong: cut short, or followed by more than the block's items.
func TestBodiesInflateChecks(t *testing.T) {
	file := genSnapshot(t, 20)
	indexLen, _ := IndexLen(file)
	part, err := Open(file[:indexLen])
	if err != nil {
		t.Fatal(err)
	}
	part.Item(0)
	r := part.MissingBlocks(nil)[0]
	_, crc, _ := part.blockRange(r.Block)
	stored := file[r.Offset : r.Offset+int64(r.Length)]
	for name, data := range map[string][]byte{
		"truncated stream": append(slices.Clone(stored[:len(stored)/2]), make([]byte, len(stored)-len(stored)/2)...),
		"garbage":          bytes.Repeat([]byte{0xff}, len(stored)),
	} {
		if _, err := part.inflate(r.Block, data, crc32Of(data)); !errors.Is(err, ErrCorrupt) {
			t.Errorf("%s: %v, want %v", name, err, ErrCorrupt)
		}
	}
	if _, err := part.inflate(r.Block, stored, crc); err != nil {
		t.Errorf("the real block: %v", err)
	}
}

// TestBodiesConcurrentReads reads every item of a whole file from several goroutines at
// once, as the native engine does (run with -race).
func TestBodiesConcurrentReads(t *testing.T) {
	file := genSnapshot(t, 60)
	s, err := Open(file)
	if err != nil {
		t.Fatal(err)
	}
	want := make([]string, s.Len())
	done := make(chan bool)
	for g := range 4 {
		go func() {
			ok := true
			for k := range s.Len() {
				i := (k + g*17) % s.Len()
				got := s.Item(i)
				if g == 0 {
					want[i] = got
				}
				ok = ok && len(got) > 2 && got[0] == '{'
			}
			done <- ok
		}()
	}
	for range 4 {
		if !<-done {
			t.Error("an item read concurrently is not a JSON object")
		}
	}
	for i, w := range want {
		if s.Item(i) != w {
			t.Fatalf("item %d changed between reads", i)
		}
	}
}

func crc32Of(b []byte) uint32 { return crc32.Checksum(b, castagnoli) }

// TestDataEnds checks section bodies.dataends: for every item, DataEnd is where its
// top-level Data value ends in Item when that value is an object or an array, and 0
// otherwise; a snapshot whose items have no such value has no section, and reads 0.
func TestDataEnds(t *testing.T) {
	var in bytes.Buffer
	if err := gen.Generate(&in, gen.Options{Items: 40, Seed: 5}); err != nil {
		t.Fatal(err)
	}
	items := append(strings.Split(strings.TrimSpace(in.String()), "\n"),
		`{"ContentID":"x1","Status":"Published","Data":[1,{"a":"]"}],"Name":"array"}`,
		`{"ContentID":"x2","Status":"Published","Data":"a string","Name":"string"}`,
		`{"ContentID":"x3","Status":"Published","Name":"no Data"}`,
		`{"ContentID":"x4","Status":"Published","Data":{},"Name":"empty"}`)
	s, err := Open(build(t, true, items...))
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := s.Section(secDataEnds); !ok {
		t.Fatal("no section " + secDataEnds)
	}
	for i := range s.Len() {
		want := 0
		item := jsonr.Parse(s.Item(i))
		var it jsonr.Members
		for it.Reset(item); it.Next(); {
			if it.Key.Str == "Data" && it.Value.Type == jsonr.JSON {
				want = it.Value.Index - item.Index + len(it.Value.Raw)
			}
		}
		if got := s.DataEnd(i); got != want {
			t.Errorf("item %d (%s): DataEnd %d, want %d", i, s.ContentID(i), got, want)
		}
	}
	if s.DataEnd(-1) != 0 || s.DataEnd(s.Len()) != 0 {
		t.Error("DataEnd out of range is not 0")
	}
	plain, err := Open(build(t, false, `{"ContentID":"a","Status":"Published","Name":"n"}`))
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := plain.Section(secDataEnds); ok || plain.DataEnd(0) != 0 {
		t.Error("a snapshot without Data objects has data ends")
	}
}
