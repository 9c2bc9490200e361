package snapshot

import (
	"fmt"
	"math/bits"
	"math/rand/v2"
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
	var all []Bitmap   // every bitmap, for OrAll
	var union []uint64 // their union, from their lists
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
				checkWordRanges(t, b, want)
				checkImpacts(t, f, dict, i, n)
				all = append(all, b)
				if union == nil {
					union = make([]uint64, len(want))
				}
				for w, x := range want {
					union[w] |= x
				}
				checkOrAll(t, all, union)
			}
		}
	}
	// Name: common, even, sixteenth; Data.kind (keyword and text): k0, k1, k2 each.
	if found < 9 {
		t.Fatalf("%d bitmaps", found)
	}
}

// checkOrAll checks that OrAll adds the union of bs (want) to a set, as OrInto does
// bitmap by bitmap, and leaves the words past a shorter set's end alone.
func checkOrAll(t *testing.T, bs []Bitmap, want []uint64) {
	t.Helper()
	for _, extra := range []int{0, -1, 2} {
		dst := make([]uint64, len(want)+extra)
		dst[0] = 1 << 63 // an item of the set's own stays
		OrAll(dst, bs)
		for w := range dst {
			x := uint64(0)
			if w < len(want) {
				x = want[w]
			}
			if w == 0 {
				x |= 1 << 63
			}
			if dst[w] != x {
				t.Fatalf("OrAll of %d bitmaps into %d words: word %d = %x, want %x", len(bs), len(dst), w, dst[w], x)
			}
		}
	}
}

// checkImpacts checks that a dense text term has impacts, which bound each of its
// items in its window, and that a keyword term has none.
func checkImpacts(t *testing.T, f *Field, dict TermDict, i, n int) {
	t.Helper()
	m, ok := dict.Impacts(i)
	if text := dict == f.Text(); ok != text {
		t.Fatalf("%s %q: text %v, impacts %v", f.Name(), dict.Term(i), text, ok)
	}
	if !ok {
		return
	}
	if m.Windows() != (n+ImpactWindow-1)/ImpactWindow {
		t.Fatalf("%d windows", m.Windows())
	}
	seen := make([]bool, m.Windows())
	p := dict.Postings(i)
	for doc := p.Next(); doc >= 0; doc = p.Next() {
		k := doc / ImpactWindow
		seen[k] = true
		f1, n1, f2, n2 := m.Window(k)
		norm := f.Length(doc)
		covers := func(fr, nm byte) bool {
			return fr > 0 && (fr == ImpactSaturated || p.Freq() <= int(fr)) && norm >= nm
		}
		if !covers(f1, n1) && !covers(f2, n2) {
			t.Fatalf("%s %q: item %d (freq %d, norm %d) above window %d's pairs %d/%d %d/%d", f.Name(), dict.Term(i), doc, p.Freq(), norm, k, f1, n1, f2, n2)
		}
	}
	for k, s := range seen {
		if f1, _, f2, _ := m.Window(k); !s && (f1 != 0 || f2 != 0) {
			t.Fatalf("window %d without the term has pairs", k)
		}
	}
}

// TestDocSetsCorrupt checks that a docsets section (a listTable) whose head or
// offsets are wrong fails to open.
func TestDocSetsCorrupt(t *testing.T) {
	base := "........" + "\x02\x00\x00\x00\x01\x00\x00\x00" + "\x05\x00\x00\x00\x09\x00\x00\x00" + string(make([]byte, 16))
	sec := span{8, len(base)}
	if _, err := readListTable(base, sec, span{}, 1, 8); err != nil {
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
		if _, err := readListTable(c.base, span{8, len(c.base)}, span{}, (c.n+63)/64, 8); err == nil {
			t.Errorf("%s: opened", name)
		}
	}
}

// TestImpactsWriter feeds random lists to the impacts writer: every item must be
// dominated by one of its window's two pairs, frequencies past 255 included.
func TestImpactsWriter(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for round := range 200 {
		n := 1 + r.IntN(3000)
		norms := make([]byte, n)
		for i := range norms {
			norms[i] = byte(1 + r.IntN(255))
		}
		w := impactsWriter{norms: norms, avgdl: float64(1 + r.IntN(300))}
		w.start(n)
		type item struct{ doc, freq int }
		var items []item
		for doc := range n {
			if r.IntN(3) == 0 {
				freq := 1 + r.IntN(1+r.IntN(400))
				items = append(items, item{doc, freq})
				w.add(doc, freq)
			}
		}
		out := w.finish()
		if len(out) != impactSize*impactWindows(n) {
			t.Fatalf("round %d: %d bytes for %d items", round, len(out), n)
		}
		m := Impacts{base: string(out), window: impactWindows(n)}
		for _, it := range items {
			f1, n1, f2, n2 := m.Window(it.doc / ImpactWindow)
			covers := func(fr, nm byte) bool {
				return fr > 0 && (fr == ImpactSaturated || it.freq <= int(fr)) && norms[it.doc] >= nm
			}
			if !covers(f1, n1) && !covers(f2, n2) {
				t.Fatalf("round %d: item %d (freq %d, norm %d) above %d/%d %d/%d", round, it.doc, it.freq, norms[it.doc], f1, n1, f2, n2)
			}
		}
	}
}

// checkWordRanges checks WordsInto and OnesIn against the bitmap's words (want) over
// ranges that start and end inside and past it.
func checkWordRanges(t *testing.T, b Bitmap, want []uint64) {
	t.Helper()
	for from := 0; from <= len(want)+1; from++ {
		for to := from; to <= len(want)+2; to++ {
			dst := make([]uint64, to-from)
			for i := range dst {
				dst[i] = ^uint64(0) // WordsInto must overwrite every word
			}
			b.WordsInto(dst, from)
			ones := 0
			for i, x := range dst {
				w := uint64(0)
				if from+i < len(want) {
					w = want[from+i]
					ones += bits.OnesCount64(w)
				}
				if x != w {
					t.Fatalf("WordsInto(%d words, %d): word %d = %x, want %x", len(dst), from, from+i, x, w)
				}
			}
			if got := b.OnesIn(from, to); got != ones {
				t.Fatalf("OnesIn(%d, %d) = %d, want %d", from, to, got, ones)
			}
		}
	}
}
