package snapshot

import (
	"math/bits"
	"math/rand/v2"
	"runtime"
	"slices"
	"syscall"
	"testing"
)

// The accessors the evaluator's top-k path reads postings with: NextDocs and AddTo
// (item numbers only, for counting) and SkipBlock (the skip entries' bounds).

// setWords is the size of the bitsets the tests add items to: the items past it (the
// "huge" cases') are left out, as AddTo leaves out the items past its set.
const setWords = 1 << 10

// TestPostingsNextDocs checks that NextDocs and AddTo read the items Next reads.
func TestPostingsNextDocs(t *testing.T) {
	for _, c := range postingCases() {
		list := encodePostings(c.items, c.text)
		var want []int32
		for _, it := range c.items {
			want = append(want, int32(it.doc))
		}
		for _, size := range []int{1, 3, 128, 200} {
			p := openTestPostings(list, c.text)
			if got := readDocs(&p, size); !slices.Equal(got, want) {
				t.Fatalf("%s by %d: NextDocs reads %v, want %v", c.name, size, got, want)
			}
		}
		// AddTo, also after items read one by one and by a block.
		for _, skip := range []int{0, 1, 130} {
			p := openTestPostings(list, c.text)
			for range min(skip, len(c.items)) {
				p.Next()
			}
			set := make([]uint64, setWords)
			if n := p.AddTo(set); n != len(c.items)-min(skip, len(c.items)) {
				t.Fatalf("%s after %d: AddTo reads %d items, want %d", c.name, skip, n, len(c.items)-skip)
			}
			if got, want := bitsOf(set), inSet(want[min(skip, len(want)):]); !slices.Equal(got, want) {
				t.Fatalf("%s after %d: AddTo adds %v, want %v", c.name, skip, got, want)
			}
		}
	}
}

// readDocs reads p's items by NextDocs, size at a time.
func readDocs(p *Postings, size int) []int32 {
	var all []int32
	docs := make([]int32, size)
	for {
		k := p.NextDocs(docs)
		if k == 0 {
			return all
		}
		all = append(all, docs[:k]...)
	}
}

// bitsOf lists the members of a bitset.
func bitsOf(set []uint64) []int32 {
	var out []int32
	for i, w := range set {
		for ; w != 0; w &= w - 1 {
			out = append(out, int32(i*64+bits.TrailingZeros64(w)))
		}
	}
	return out
}

// inSet keeps the items a set of setWords words holds.
func inSet(docs []int32) []int32 {
	var out []int32
	for _, d := range docs {
		if int(d) < setWords*64 && (len(out) == 0 || out[len(out)-1] != d) {
			out = append(out, d)
		}
	}
	return out
}

// TestPostingsSkipBlock checks the skip entries SkipBlock reads against the model: each
// block's last item and largest frequency, and the cursor it leaves at the block.
func TestPostingsSkipBlock(t *testing.T) {
	for _, c := range postingCases() {
		list := encodePostings(c.items, c.text)
		p := openTestPostings(list, c.text)
		for b := 0; ; b++ {
			last, maxFreq, ok := p.SkipBlock()
			if !ok {
				if b != len(c.items)/postingsBlock {
					t.Fatalf("%s: %d blocks, want %d", c.name, b, len(c.items)/postingsBlock)
				}
				break
			}
			block := c.items[b*postingsBlock : (b+1)*postingsBlock]
			wantFreq := 0
			for _, it := range block {
				wantFreq = max(wantFreq, len(it.pos))
			}
			if last != block[len(block)-1].doc || maxFreq != wantFreq {
				t.Fatalf("%s block %d: last %d maxFreq %d, want %d and %d", c.name, b, last, maxFreq, block[len(block)-1].doc, wantFreq)
			}
			// The cursor stands at the block's start: it reads the block's items.
			q := p
			if doc := q.Next(); doc != block[0].doc {
				t.Fatalf("%s block %d: the cursor reads %d after SkipBlock, want %d", c.name, b, doc, block[0].doc)
			}
		}
	}
}

// TestPostingsTopKCorrupt reads damaged lists with the counting accessors: they must
// end, never panic, and add what NextBlock reads.
func TestPostingsTopKCorrupt(t *testing.T) {
	for _, c := range postingCases() {
		if len(c.items) > 300 {
			continue
		}
		list := encodePostings(c.items, c.text)
		stride := 1 + len(list)/50
		for cut := 0; cut < len(list); cut += stride {
			exerciseTopK(t, string(list[:cut]), c.text)
		}
		for i := 0; i < len(list); i += stride {
			for _, x := range []byte{0x01, 0x80, 0xff, 0xe0} {
				bad := slices.Clone(list)
				bad[i] ^= x
				exerciseTopK(t, string(bad), c.text)
				exerciseTopK(t, string(bad), !c.text)
			}
		}
	}
}

// FuzzPostingsTopK opens arbitrary bytes as a postings list for the counting accessors.
func FuzzPostingsTopK(f *testing.F) {
	for _, c := range postingCases() {
		if len(c.items) <= 300 {
			f.Add(encodePostings(c.items, c.text), c.text)
		}
	}
	f.Fuzz(func(t *testing.T, list []byte, text bool) {
		exerciseTopK(t, string(list), text)
	})
}

// exerciseTopK checks NextDocs and AddTo against NextBlock on the list base, and walks
// its skip entries.
func exerciseTopK(t *testing.T, base string, text bool) {
	open := func() Postings { return openPostings(base, span{0, len(base)}, text) }
	p := open()
	var want, wantFreqs []int32
	docs, freqs := make([]int32, 128), make([]int32, 128)
	for {
		k := p.NextBlock(docs, freqs)
		if k == 0 {
			break
		}
		want = append(want, docs[:k]...)
		if text {
			wantFreqs = append(wantFreqs, freqs[:k]...)
		}
	}
	// FreqAt by rank, with strides that land in the same block, skip blocks, and
	// reach the tail.
	for _, stride := range []int{1, 3, 130} {
		p = open()
		for k := 0; k < len(want); k += stride {
			want := int32(1)
			if text {
				want = wantFreqs[k]
			}
			if got := p.FreqAt(k); int32(got) != want {
				t.Fatalf("FreqAt(%d) by %d = %d, NextBlock reads %d", k, stride, got, want)
			}
		}
		if got := p.FreqAt(p.DocFreq); got != 0 {
			t.Fatalf("FreqAt past the end = %d", got)
		}
	}
	p = open()
	if got := readDocs(&p, 128); !slices.Equal(got, want) {
		t.Fatalf("NextDocs reads %v, NextBlock %v", got, want)
	}
	p = open()
	set := make([]uint64, setWords)
	p.AddTo(set)
	sorted := slices.Clone(want)
	slices.Sort(sorted)
	if got := bitsOf(set); !slices.Equal(got, inSet(sorted)) {
		t.Fatalf("AddTo adds %v, NextBlock reads %v", got, want)
	}
	p = open()
	for range 1 << 20 {
		if _, _, ok := p.SkipBlock(); !ok {
			break
		}
	}
}

// BenchmarkAddTo counts a long text list of small gaps (a common word's, in a long
// field) into a set, as the top-k path's counting pass does.
func BenchmarkAddTo(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	var items []postingItem
	for doc := 0; doc < 100000; doc += 1 + r.IntN(3) {
		items = append(items, postingItem{doc: doc, pos: []int{1 + r.IntN(50)}})
	}
	list := encodePostings(items, true)
	set := make([]uint64, 100000/64+1)
	b.SetBytes(int64(len(items)))
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	start := threadCPU()
	for b.Loop() {
		p := openTestPostings(list, true)
		p.AddTo(set)
	}
	b.ReportMetric(float64(threadCPU()-start)/float64(b.N)/float64(len(items)), "cpu-ns/item")
}

// threadCPU is the CPU time the calling thread has used, in nanoseconds (0 where the
// system does not tell): on a busy machine, other processes inflate the wall clock.
func threadCPU() int64 {
	const rusageThread = 1 // RUSAGE_THREAD (Linux)
	var ru syscall.Rusage
	if syscall.Getrusage(rusageThread, &ru) != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}
