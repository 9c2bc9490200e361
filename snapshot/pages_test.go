package snapshot

import (
	"errors"
	"fmt"
	"slices"
	"testing"
)

// pagedItems are items whose postings span many pages: a few hundred words over a
// thousand items.
func pagedItems(n int) []string {
	items := make([]string, n)
	for i := range items {
		items[i] = fmt.Sprintf(`{"ContentID":"Content_%04d","Status":"Published","Name":"w%d w%d","Data":{"body":"w%d w%d w%d common w%d"}}`,
			i, i%300, i%7, i%101, i%13, i%300, (i*7)%211)
	}
	return items
}

// listOf decodes a postings list whole: items, frequencies and positions.
func listOf(p Postings) []int {
	out := []int{p.DocFreq}
	for doc := p.Next(); doc >= 0; doc = p.Next() {
		out = append(out, doc, p.Freq())
		for pos := p.NextPosition(); pos >= 0; pos = p.NextPosition() {
			out = append(out, pos)
		}
	}
	return out
}

// provideAll hands part every range it misses, read from file.
func provideAll(t *testing.T, part *Snapshot, file []byte, pagesOnly bool) int {
	t.Helper()
	missing := part.MissingBlocks(nil)
	for _, r := range missing {
		if pagesOnly && r.Block >= 0 {
			t.Fatalf("a body block %+v asked for with index pages", r)
		}
		if err := part.ProvideRange(r, file[r.Offset:r.Offset+int64(r.Length)]); err != nil {
			t.Fatal(err)
		}
	}
	return len(missing)
}

func TestPagedPostings(t *testing.T) {
	file := build(t, false, pagedItems(1200)...)
	whole, err := Open(file)
	if err != nil {
		t.Fatal(err)
	}
	n, err := IndexLen(file)
	if err != nil {
		t.Fatal(err)
	}
	part, err := Open(file[:n])
	if err != nil {
		t.Fatal(err)
	}
	if whole.pages == nil || whole.pages.length < 8*pageSize {
		t.Fatalf("paged part %+v: want several pages", whole.pages)
	}
	if _, ok := part.Section(secPostings); ok {
		t.Fatal("Section gave the postings of an index part")
	}
	for _, name := range []string{"Name", "Data.body"} {
		for _, keyword := range []bool{false, true} {
			wd, pd := whole.Field(name).Text(), part.Field(name).Text()
			if keyword {
				wd, pd = whole.Field(name).Keyword(), part.Field(name).Keyword()
			}
			for i := range wd.Len() {
				want := listOf(wd.Postings(i))
				got := readPaged(t, part, file, func() []int { return listOf(pd.Postings(i)) })
				if !slices.Equal(got, want) {
					t.Fatalf("%s term %d: paged %.200v, whole %.200v", name, i, got, want)
				}
			}
		}
	}
	if part.PageCacheBytes() == 0 || whole.PageMisses() != 0 || whole.PageCacheBytes() != 0 {
		t.Fatalf("cache %d bytes, whole file: %d misses, %d bytes", part.PageCacheBytes(), whole.PageMisses(), whole.PageCacheBytes())
	}
	part.TrimPageCache(pageSize)
	if b := part.PageCacheBytes(); b > pageSize {
		t.Fatalf("trimmed to %d bytes, want at most %d", b, pageSize)
	}
	// Every list reads the same again after the trim, scanned with an iterator.
	wd := whole.Field("Data.body").Text()
	got := readPaged(t, part, file, func() []int {
		var all []int
		for it := part.Field("Data.body").Text().Iter(0); it.Next(); {
			all = append(all, listOf(it.Postings())...)
		}
		return all
	})
	var want []int
	for i := range wd.Len() {
		want = append(want, listOf(wd.Postings(i))...)
	}
	if !slices.Equal(got, want) {
		t.Fatalf("after a trim, a scan read %d values, the whole file %d", len(got), len(want))
	}
}

// readPaged runs read until it misses no page of part, providing the missing ones from
// file: at most three rounds (the dictionary's blocks, the lists, then none).
func readPaged(t *testing.T, part *Snapshot, file []byte, read func() []int) []int {
	t.Helper()
	for round := 0; ; round++ {
		misses := part.PageMisses()
		got := read()
		if part.PageMisses() == misses {
			return got
		}
		if round == 2 || provideAll(t, part, file, true) == 0 {
			t.Fatalf("round %d: pages missed, and asked for nothing", round)
		}
	}
}

func TestPagedPostingsRefuseBadPages(t *testing.T) {
	file := build(t, false, pagedItems(600)...)
	n, _ := IndexLen(file)
	part, err := Open(file[:n])
	if err != nil {
		t.Fatal(err)
	}
	body := part.Field("Data.body").Text()
	i, _ := body.Find("common")
	_ = body.Postings(i)
	_ = part.Item(0)
	missing := part.MissingBlocks(nil)
	if len(missing) == 0 || slices.ContainsFunc(missing, func(r BlockRange) bool { return r.Block >= 0 }) {
		t.Fatalf("missing %+v: want index pages only, the body block later", missing)
	}
	r := missing[0]
	good := file[r.Offset : r.Offset+int64(r.Length)]
	flipped := slices.Clone(good)
	flipped[len(flipped)/2] ^= 1
	for name, c := range map[string]struct {
		r    BlockRange
		data []byte
		want error
	}{
		"flipped":    {r, flipped, ErrChecksum},
		"short":      {r, good[1:], ErrCorrupt},
		"misaligned": {BlockRange{Block: -1, Offset: r.Offset + 1, Length: r.Length}, good, ErrCorrupt},
		"past":       {BlockRange{Block: -1, Offset: r.Offset + 1<<30, Length: r.Length}, good, ErrCorrupt},
		"empty":      {BlockRange{Block: -1, Offset: r.Offset, Length: 0}, nil, ErrCorrupt},
	} {
		if err := part.ProvideRange(c.r, c.data); !errors.Is(err, c.want) {
			t.Errorf("%s: %v, want %v", name, err, c.want)
		}
	}
	if part.PageCacheBytes() != 0 {
		t.Fatal("refused pages were cached")
	}
	whole, _ := Open(file)
	if err := whole.ProvideRange(r, good); !errors.Is(err, ErrCorrupt) {
		t.Errorf("pages provided to a whole file: %v", err)
	}
	// A whole file whose paged part is damaged fails Verify.
	bad := slices.Clone(file)
	bad[whole.pages.start+10] ^= 1
	if err := Verify(bad); !errors.Is(err, ErrChecksum) {
		t.Errorf("Verify of a damaged paged part: %v", err)
	}
}
