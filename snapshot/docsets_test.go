package snapshot

import (
	"fmt"
	"slices"
	"testing"
)

// TestDocSets checks that the writer stores a bitmap for exactly the lists of
// denseDocFreq items or more, text and keyword, and that each holds its list's items.
func TestDocSets(t *testing.T) {
	const n = 2100 // denseDocFreq: 131
	var items []string
	for i := range n {
		words := "common"
		if i%2 == 0 {
			words += " even"
		}
		if i%16 == 0 {
			words += " sixteenth" // 132 items: dense
		}
		if i%17 == 0 {
			words += " seventeenth" // 124 items: not
		}
		items = append(items, fmt.Sprintf(`{"ContentID":"c%04d","Status":"Published","Name":%q,"Data":{"kind":"k%d"}}`, i, words, i%3))
	}
	s, err := Open(build(t, false, items...))
	if err != nil {
		t.Fatal(err)
	}
	if denseDocFreq(n) != 131 {
		t.Fatalf("denseDocFreq(%d) = %d", n, denseDocFreq(n))
	}
	found := 0
	for _, name := range s.FieldNames() {
		f := s.Field(name)
		for _, dict := range []TermDict{f.Text(), f.Keyword()} {
			for i := range dict.Len() {
				p := dict.Postings(i)
				b, ok := dict.Bitmap(i)
				if ok != (p.DocFreq >= denseDocFreq(n)) {
					t.Fatalf("%s %q: %d items, bitmap %v", name, dict.Term(i), p.DocFreq, ok)
				}
				if !ok {
					continue
				}
				found++
				want := make([]uint64, (n+63)/64)
				p.AddTo(want)
				got := make([]uint64, b.Words())
				b.CopyTo(got)
				if !slices.Equal(got, want) || b.Count() != p.DocFreq {
					t.Fatalf("%s %q: the bitmap and the list disagree", name, dict.Term(i))
				}
			}
		}
	}
	// Name: common, even, sixteenth; Data.kind (keyword and text): k0, k1, k2 each.
	if found < 9 {
		t.Fatalf("%d bitmaps", found)
	}
}

// TestDocSetsCorrupt checks that a docsets section whose head or offsets are wrong
// fails to open.
func TestDocSetsCorrupt(t *testing.T) {
	base := "........" + "\x02\x00\x00\x00\x01\x00\x00\x00" + "\x05\x00\x00\x00\x09\x00\x00\x00" + string(make([]byte, 16))
	sec := span{8, len(base)}
	if _, err := readDocSets(base, sec, 64); err != nil {
		t.Fatalf("a good section: %v", err)
	}
	for name, c := range map[string]struct {
		base string
		n    int
	}{
		"words":      {base, 65},
		"offsets":    {base[:16] + "\x09" + base[17:], 64},
		"size":       {base + "12345678", 64},
		"short head": {base[:12], 64},
	} {
		if _, err := readDocSets(c.base, span{8, len(c.base)}, c.n); err == nil {
			t.Errorf("%s: opened", name)
		}
	}
}
