package snapshot

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// postingItem is one item of a model postings list: its number and, for text, the
// term's positions in it (as many as its frequency).
type postingItem struct {
	doc int
	pos []int
}

// postingCase is a model list and whether it is a text one.
type postingCase struct {
	name  string
	items []postingItem
	text  bool
}

// postingCases are lists of every length around the block size, with small and huge
// gaps, outliers that make chunk exceptions, and small and large frequencies.
func postingCases() []postingCase {
	gaps := map[string]func(r *rand.Rand, n int) int{
		"dense":    func(*rand.Rand, int) int { return 1 },
		"sparse":   func(r *rand.Rand, _ int) int { return 1 + r.IntN(1000) },
		"huge":     func(r *rand.Rand, n int) int { return 1 + r.IntN((math.MaxInt32-1)/max(n, 1)) },
		"outliers": outlierGap,
	}
	freqs := map[string]func(r *rand.Rand) int{
		"keyword": nil,
		"freq1":   func(*rand.Rand) int { return 1 },
		"freqs": func(r *rand.Rand) int {
			if r.IntN(50) == 0 {
				return 1000 + r.IntN(300)
			}
			return 1 + r.IntN(40)
		},
	}
	var cases []postingCase
	for _, n := range []int{0, 1, 2, 127, 128, 129, 255, 256, 300, 1000} {
		for _, gname := range sortedKeys(gaps) {
			for _, fname := range sortedKeys(freqs) {
				r := rand.New(rand.NewPCG(uint64(n), uint64(len(gname)*31+len(fname))))
				c := postingCase{name: fmt.Sprintf("%d/%s/%s", n, gname, fname), text: freqs[fname] != nil}
				doc := r.IntN(3)
				for i := range n {
					if i > 0 {
						doc += gaps[gname](r, n)
					}
					it := postingItem{doc: doc}
					if c.text {
						it.pos = modelPositions(r, freqs[fname](r), gname == "huge")
					}
					c.items = append(c.items, it)
				}
				cases = append(cases, c)
			}
		}
	}
	// The largest item number a list holds, after the largest delta.
	cases = append(cases, postingCase{name: "maxdoc", text: true, items: []postingItem{
		{doc: 0, pos: []int{0}}, {doc: math.MaxInt32, pos: []int{math.MaxInt32 - 1, math.MaxInt32}},
	}})
	return cases
}

// outlierGap is 1 to 3 but one time in 40, when it is up to 2^20: a block of such
// gaps has a few exceptions to its width.
func outlierGap(r *rand.Rand, _ int) int {
	if r.IntN(40) == 0 {
		return 1 + r.IntN(1<<20)
	}
	return 1 + r.IntN(3)
}

// modelPositions returns freq ascending positions, up to near 2^31 when huge.
func modelPositions(r *rand.Rand, freq int, huge bool) []int {
	limit := 200
	if huge {
		limit = (math.MaxInt32 - 5000) / freq
	}
	pos := make([]int, freq)
	p := r.IntN(3000)
	for k := range pos {
		if k > 0 {
			p += 1 + r.IntN(limit)
		}
		pos[k] = p
	}
	return pos
}

// encodePostings records items as the indexing pass does, cut into ranges at cuts (item
// indexes), and lays them out as one list.
func encodePostings(items []postingItem, text bool, cuts ...int) []byte {
	var lists [][]byte
	bounds := append(append([]int{0}, cuts...), len(items))
	for k := 1; k < len(bounds); k++ {
		pb := &postingBuf{}
		for _, it := range items[bounds[k-1]:bounds[k]] {
			pb.addDoc(it.doc)
			if text {
				pb.addPositions(it.pos)
			}
		}
		if pb.df > 0 {
			lists = append(lists, pb.buf)
		}
	}
	w := postingsWriter{positions: text}
	return w.appendPostingList(nil, lists, len(items))
}

// openTestPostings opens list between other bytes, as it lies in a file.
func openTestPostings(list []byte, text bool) Postings {
	base := "head" + string(list) + "tail"
	return openPostings(base, span{4, 4 + len(list)}, text)
}

// TestPostingsLayout pins the bytes of a few lists to the layout postings.go describes.
func TestPostingsLayout(t *testing.T) {
	dense := make([]postingItem, postingsBlock) // items 0 to 127
	for i := range dense {
		dense[i].doc = i
	}
	for _, c := range []struct {
		name  string
		items []postingItem
		text  bool
		want  []byte
	}{
		{"keyword item", []postingItem{{doc: 5}}, false, []byte{1, 5}},
		{"text item", []postingItem{{doc: 5, pos: []int{2, 9}}}, true, []byte{1, 5 << 1, 2, 2, 7}},
		{"text items", []postingItem{{doc: 3, pos: []int{7}}, {doc: 10, pos: []int{1, 4}}}, true,
			// n, docLen, 3<<1|1, 7<<1 and freq 2, then the positions: 7; 1, 4-1
			[]byte{2, 3, 3<<1 | 1, 7 << 1, 2, 7, 1, 3}},
		{"keyword block", dense, false, append(
			// n (uvarint 128), lastDelta 127, token (width 1, no exceptions), the deltas
			// 0, 1, 1, ... one bit each
			[]byte{0x80, 0x01, 127, 1, 0xfe}, bytes.Repeat([]byte{0xff}, 15)...)},
	} {
		if got := encodePostings(c.items, c.text); !bytes.Equal(got, c.want) {
			t.Errorf("%s: % x, want % x", c.name, got, c.want)
		}
	}
}

func TestPostingsNext(t *testing.T) {
	for _, c := range postingCases() {
		list := encodePostings(c.items, c.text)
		p := openTestPostings(list, c.text)
		if p.DocFreq != len(c.items) {
			t.Fatalf("%s: DocFreq %d", c.name, p.DocFreq)
		}
		for i, it := range c.items {
			if doc := p.Next(); doc != it.doc {
				t.Fatalf("%s: item %d is %d, want %d", c.name, i, doc, it.doc)
			}
			if p.Freq() != len(it.pos) {
				t.Fatalf("%s: item %d has freq %d, want %d", c.name, i, p.Freq(), len(it.pos))
			}
			// Every third item's positions are read, every fifth's only the first: the
			// others' are skipped.
			switch {
			case i%3 == 0:
				if got := readPositions(&p); !slices.Equal(got, it.pos) {
					t.Fatalf("%s: item %d positions %v, want %v", c.name, i, got, it.pos)
				}
			case i%5 == 0 && c.text:
				if got := p.NextPosition(); got != it.pos[0] {
					t.Fatalf("%s: item %d first position %d, want %d", c.name, i, got, it.pos[0])
				}
			}
		}
		if doc := p.Next(); doc != -1 {
			t.Fatalf("%s: after the last item %d", c.name, doc)
		}
		if doc := p.Next(); doc != -1 || p.NextPosition() != -1 {
			t.Fatalf("%s: the end does not last", c.name)
		}
	}
}

func readPositions(p *Postings) []int {
	var out []int
	for pos := p.NextPosition(); pos >= 0; pos = p.NextPosition() {
		out = append(out, pos)
	}
	return out
}

func TestPostingsNextBlock(t *testing.T) {
	for _, c := range postingCases() {
		list := encodePostings(c.items, c.text)
		for _, size := range []int{1, 3, 128, 200} {
			p := openTestPostings(list, c.text)
			docs, freqs := make([]int32, size), make([]int32, size)
			i := 0
			for {
				k := p.NextBlock(docs, freqs)
				if k == 0 {
					break
				}
				if p.NextPosition() != -1 {
					t.Fatalf("%s: positions after NextBlock", c.name)
				}
				for j := range k {
					it := c.items[i]
					if int(docs[j]) != it.doc || c.text && int(freqs[j]) != len(it.pos) {
						t.Fatalf("%s by %d: item %d is %d freq %d, want %d freq %d",
							c.name, size, i, docs[j], freqs[j], it.doc, len(it.pos))
					}
					i++
				}
			}
			if i != len(c.items) {
				t.Fatalf("%s by %d: %d items, want %d", c.name, size, i, len(c.items))
			}
		}
	}
}

// TestPostingsMixed interleaves NextBlock, Next and NextPosition: positions read after
// items that NextBlock decoded must still be the right ones.
func TestPostingsMixed(t *testing.T) {
	for _, c := range postingCases() {
		p := openTestPostings(encodePostings(c.items, c.text), c.text)
		var docs, freqs [5]int32
		for i := 0; i < len(c.items); {
			if i%7 < 3 {
				k := p.NextBlock(docs[:], freqs[:])
				for j := range k {
					if int(docs[j]) != c.items[i+j].doc {
						t.Fatalf("%s: item %d", c.name, i+j)
					}
				}
				i += k
				continue
			}
			if doc := p.Next(); doc != c.items[i].doc {
				t.Fatalf("%s: item %d is %d, want %d", c.name, i, doc, c.items[i].doc)
			}
			if got := readPositions(&p); !slices.Equal(got, c.items[i].pos) {
				t.Fatalf("%s: item %d positions %v, want %v", c.name, i, got, c.items[i].pos)
			}
			i++
		}
	}
}

func TestPostingsAdvance(t *testing.T) {
	for _, c := range postingCases() {
		list := encodePostings(c.items, c.text)
		r := rand.New(rand.NewPCG(uint64(len(c.items)), 7))
		last := 1
		if len(c.items) > 0 {
			last = c.items[len(c.items)-1].doc
			last += min(2, math.MaxInt-last) // the last item may be math.MaxInt32, a 32-bit int's largest
		}
		for round := range 20 {
			p := openTestPostings(list, c.text)
			at, read := -1, false // the model's current item, and whether its positions were read
			for step := 0; step < 50; step++ {
				var target int
				switch {
				case round == 0 && step < len(c.items): // every item in turn
					target = c.items[step].doc
				case r.IntN(4) == 0 && at >= 0: // at or before the current item: stays
					target = c.items[at].doc - r.IntN(3)
				default:
					target = r.IntN(last)
				}
				want := at
				if at < 0 || at < len(c.items) && c.items[at].doc < target {
					want = at + 1
					for want < len(c.items) && c.items[want].doc < target {
						want++
					}
				}
				got := p.Advance(target)
				if want >= len(c.items) {
					if got != -1 {
						t.Fatalf("%s: Advance(%d) = %d past the end", c.name, target, got)
					}
					break
				}
				if got != c.items[want].doc {
					t.Fatalf("%s: Advance(%d) from %d = %d, want %d", c.name, target, at, got, c.items[want].doc)
				}
				if want != at {
					at, read = want, false
				}
				if p.Freq() != len(c.items[at].pos) {
					t.Fatalf("%s: Advance(%d): freq %d, want %d", c.name, target, p.Freq(), len(c.items[at].pos))
				}
				if step%2 == 0 && !read { // an item's positions are read once
					read = true
					if pos := readPositions(&p); !slices.Equal(pos, c.items[at].pos) {
						t.Fatalf("%s: Advance(%d): positions %v, want %v", c.name, target, pos, c.items[at].pos)
					}
				}
				if step%3 == 0 && at+1 < len(c.items) { // Next carries on after Advance
					if doc := p.Next(); doc != c.items[at+1].doc {
						t.Fatalf("%s: Next after Advance = %d, want %d", c.name, doc, c.items[at+1].doc)
					}
					at, read = at+1, false
				}
			}
		}
	}
}

// TestPostingsAdvanceSkips checks that Advance steps over blocks by their skip entries
// without decoding them: past a block whose deltas are broken, which stops Next, it
// still finds its target.
func TestPostingsAdvanceSkips(t *testing.T) {
	items := make([]postingItem, 1000)
	for i := range items {
		items[i] = postingItem{doc: 2 * i, pos: []int{i % 7}}
	}
	list := encodePostings(items, true)
	p := openTestPostings(list, true)
	p.Advance(items[300].doc) // in block 2
	bad := []byte("head" + string(list) + "tail")
	bad[p.blk] = 0xff // the block's deltas add up past its skip entry
	open := func() Postings { return openPostings(string(bad), span{4, 4 + len(list)}, true) }
	n := 0
	for p := open(); p.Next() >= 0; n++ {
	}
	if n < 2*postingsBlock || n >= 3*postingsBlock {
		t.Fatalf("Next read %d items of the broken list, want it to stop in block 2", n)
	}
	p = open()
	if doc := p.Advance(items[900].doc); doc != items[900].doc || p.NextPosition() != 900%7 {
		t.Fatalf("Advance(%d) = %d, position %d", items[900].doc, doc, p.NextPosition())
	}
}

// TestPostingsRanges checks that a list recorded in several ranges of items is laid
// out byte for byte as one recorded in one range.
func TestPostingsRanges(t *testing.T) {
	for _, c := range postingCases() {
		n := len(c.items)
		one := encodePostings(c.items, c.text)
		for _, cuts := range [][]int{{n / 2}, {n / 3, 2 * n / 3}, {1, 127, 129}, {0, n}} {
			cuts = slices.DeleteFunc(slices.Clone(cuts), func(k int) bool { return k > n })
			if got := encodePostings(c.items, c.text, cuts...); !bytes.Equal(got, one) {
				t.Fatalf("%s: cut at %v: a different list", c.name, cuts)
			}
		}
	}
}

// TestChunks round-trips chunks of every width, with and without exceptions, through a
// plain reading of the layout, and through unpack where they have no exceptions.
func TestChunks(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for w := 0; w <= 31; w++ {
		for _, n := range []int{1, 5, 127, 128} {
			for _, outliers := range []int{0, 3, 9} {
				vals := make([]uint32, n)
				for i := range vals {
					vals[i] = uint32(r.Uint64N(1 << w))
				}
				for range outliers {
					vals[r.IntN(n)] = uint32(r.Uint64N(1 << 31))
				}
				for _, maxEx := range []int{0, maxChunkExceptions} {
					chunk := string(appendChunk(nil, vals, maxEx))
					cw, ce := int(chunk[0]&31), int(chunk[0]>>5)
					if ce > maxEx || len(chunk) != 1+2*ce+packedSize(n, cw) {
						t.Fatalf("width %d, %d values: chunk of %d bytes, token %#x", w, n, len(chunk), chunk[0])
					}
					if got := readChunk(chunk, n); !slices.Equal(got, vals) {
						t.Fatalf("width %d, %d values, %d exceptions at most: %v, want %v", w, n, maxEx, got, vals)
					}
					if ce > 0 {
						continue
					}
					got := make([]int32, n-n/3)
					unpack(got, chunk, 1, uint8(cw), n/3)
					for i, v := range got {
						if uint32(v) != vals[n/3+i] {
							t.Fatalf("width %d: unpack from %d: value %d is %d, want %d", w, n/3, n/3+i, v, vals[n/3+i])
						}
					}
				}
			}
		}
	}
}

// readChunk decodes a chunk of n values bit by bit, as the layout describes it.
func readChunk(chunk string, n int) []uint32 {
	w, e := int(chunk[0]&31), int(chunk[0]>>5)
	data := chunk[1+2*e:]
	vals := make([]uint32, n)
	for i := range vals {
		for b := range w {
			bit := i*w + b
			vals[i] |= uint32(data[bit/8]>>(bit%8)&1) << b
		}
	}
	for x := 0; x < e; x++ {
		vals[chunk[1+2*x]] |= uint32(chunk[2+2*x]) << w
	}
	return vals
}

// TestPostingsCorrupt truncates and alters lists all over: the cursors must end, never
// panic.
func TestPostingsCorrupt(t *testing.T) {
	for _, c := range postingCases() {
		if len(c.items) > 300 {
			continue
		}
		list := encodePostings(c.items, c.text)
		stride := 1 + len(list)/200 // long lists at about 200 places
		for cut := 0; cut < len(list); cut += stride {
			exercisePostings(string(list[:cut]), c.text)
		}
		for i := 0; i < len(list); i += stride {
			for _, x := range []byte{0x01, 0x80, 0xff, 0xe0} {
				bad := slices.Clone(list)
				bad[i] ^= x
				exercisePostings(string(bad), c.text)
				exercisePostings(string(bad), !c.text)
			}
		}
	}
}

// FuzzPostings opens arbitrary bytes as a postings list: every cursor method must end
// and never panic, and NextBlock must agree with Next.
func FuzzPostings(f *testing.F) {
	for _, c := range postingCases() {
		if len(c.items) <= 300 {
			f.Add(encodePostings(c.items, c.text), c.text)
		}
	}
	f.Fuzz(func(t *testing.T, list []byte, text bool) {
		exercisePostings(string(list), text)
	})
}

// exercisePostings walks the list base with every cursor method.
func exercisePostings(base string, text bool) {
	open := func() Postings { return openPostings(base, span{0, len(base)}, text) }
	p := open()
	var docs, freqs []int32
	for doc := p.Next(); doc >= 0; doc = p.Next() {
		if len(docs) > 0 && doc < int(docs[len(docs)-1]) {
			panic("items out of order")
		}
		docs, freqs = append(docs, int32(doc)), append(freqs, int32(p.Freq()))
		if len(docs)%2 == 0 {
			for pos := p.NextPosition(); pos >= 0; pos = p.NextPosition() {
			}
		}
	}
	if len(docs) > p.DocFreq {
		panic("more items than DocFreq")
	}
	checkNextBlock(open(), docs, freqs)
	p = open()
	for target := 0; target >= 0; target += 1 + target/2 { // stops where a 32-bit int wraps
		doc := p.Advance(target)
		if doc < 0 {
			break
		}
		// A corrupt block that stops Next may be stepped over by its skip entry: Advance
		// only has to keep to its targets.
		if doc < target {
			panic("Advance before its target")
		}
		p.NextPosition()
	}
}
