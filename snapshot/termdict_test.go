package snapshot

import (
	"encoding/binary"
	"fmt"
	"slices"
	"sort"
	"strings"
	"testing"
)

// termDictCases are dictionaries whose sizes fall on either side of the block
// boundaries, with the empty term, shared prefixes and terms that are prefixes of others.
func termDictCases() map[string][]string {
	many := func(n int, format string) []string {
		var out []string
		for i := range n {
			out = append(out, fmt.Sprintf(format, i*7919%n))
		}
		return out
	}
	cases := map[string][]string{
		"0":        nil,
		"1":        {"only"},
		"empty":    {""},
		"15":       many(15, "https://media.example.com/scale/Media_%03d.jpg"),
		"16":       many(16, "2024-05-01T10:%02d:00.000Z"),
		"17":       many(17, "Content_%04x"),
		"33":       many(33, "/Article/%d"),
		"prefixes": {"", "a", "ab", "abc", "abcd", "abcde", "abd", "b", "ba", "bab", "babe", "c", "ca", "cab", "caba", "cabab", "cababa", "d"},
		"unicode":  {"café", "cafétéria", "caff", "straße", "über", "東京", "東京都", "京都"},
		"long":     {strings.Repeat("x", 300), strings.Repeat("x", 300) + "y", strings.Repeat("x", 301)},
	}
	var mixed []string // 40 terms: whole-stored ones (nothing shared) between shared ones
	for i := range 40 {
		mixed = append(mixed, fmt.Sprintf("%c%03d", 'a'+i%5, i))
	}
	cases["mixed"] = mixed
	for name, terms := range cases {
		slices.Sort(terms)
		cases[name] = slices.Compact(terms)
	}
	return cases
}

// encodeTermDict writes terms as the field sections do (addDict), after a few bytes of other
// dictionaries and lists (so that offsets are not from 0), with a postings list of
// k%5+1 bytes for term k, and returns a snapshot over the file whose ids are the terms
// when fromIDs, the dictionary's span and the dictionary.
func encodeTermDict(t testing.TB, terms []string, fromIDs bool) (*Snapshot, span, TermDict, []span) {
	d := preparedDict{terms: terms, starts: []uint32{0}}
	var listBytes []byte
	for k := range terms {
		for j := 0; j < k%5+1; j++ {
			listBytes = append(listBytes, byte(k))
		}
		d.starts = append(d.starts, uint32(len(listBytes)))
	}
	d.postings.add(listBytes)
	var ids []string
	if fromIDs {
		ids = terms
	}
	starts, want := d.starts, termDictSize(&d, ids)
	fs := fieldSections{ids: ids}
	fs.terms.add([]byte{1, 2, 3, 4, 5})
	fs.postings.add([]byte{9, 9, 9})
	d.encode(ids, nil)
	off, size := fs.addDict(&d)
	termsSec, postingsSec := flatten(fs.terms), flatten(fs.postings)
	if off%4 != 0 || off+size != len(termsSec) {
		t.Fatalf("dictionary at %d, %d bytes, in %d", off, size, len(termsSec))
	}
	if size != want {
		t.Fatalf("termDictSize %d, written %d", want, size)
	}
	if head := fs.heads.bytes(); len(head) < 4 || binary.LittleEndian.Uint32(head) != 1 {
		t.Fatalf("term heads %v", head)
	}
	s := withIDs(string(termsSec)+string(postingsSec), terms)
	s.postings = span{len(termsSec), len(termsSec) + len(postingsSec)}
	dec := &decoder{}
	dict := newTermDict(s, span{off, off + size}, false, dec)
	if dec.err != nil {
		t.Fatal(dec.err)
	}
	if dict.fromIDs != (fromIDs && len(terms) > 0) {
		t.Fatalf("dictionary of kind 2: %v", dict.fromIDs)
	}
	var lists []span
	for k := range terms {
		lists = append(lists, span{s.postings.off + 3 + int(starts[k]), s.postings.off + 3 + int(starts[k+1])})
	}
	return s, span{off, off + size}, dict, lists
}

// flatten lays an in-memory section's pieces end to end.
func flatten(p sectionPieces) []byte {
	var out []byte
	for _, pc := range p.parts {
		out = append(out, pc.b...)
	}
	return out
}

// withIDs returns a snapshot over file followed by ids and ids.offsets sections of ids.
func withIDs(file string, ids []string) *Snapshot {
	b := []byte(file)
	idsOff := len(b)
	offs := binary.LittleEndian.AppendUint32(nil, 0)
	for _, id := range ids {
		b = append(b, id...)
		offs = binary.LittleEndian.AppendUint32(offs, uint32(len(b)-idsOff))
	}
	s := &Snapshot{n: len(ids), ids: span{idsOff, len(b)}}
	s.idOffsets = span{len(b), len(b) + len(offs)}
	s.str = string(append(b, offs...))
	return s
}

func TestTermDict(t *testing.T) {
	for name, terms := range termDictCases() {
		for _, fromIDs := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/ids=%v", name, fromIDs), func(t *testing.T) {
				_, _, dict, lists := encodeTermDict(t, terms, fromIDs)
				checkTermDict(t, dict, terms, lists)
			})
		}
	}
}

// checkTermDict checks every accessor of dict against terms and their postings lists.
func checkTermDict(t *testing.T, dict TermDict, terms []string, lists []span) {
	if dict.Len() != len(terms) {
		t.Fatalf("Len %d, want %d", dict.Len(), len(terms))
	}
	for i, want := range terms {
		if got := dict.Term(i); got != want {
			t.Errorf("Term(%d) = %q, want %q", i, got, want)
		}
		if got, ok := dict.postingsSpan(i); !ok || got != lists[i] {
			t.Errorf("postings of %d at %v, want %v", i, got, lists[i])
		}
	}
	for _, i := range []int{-1, len(terms), len(terms) + 16} {
		if dict.Term(i) != "" || dict.Postings(i) != (Postings{}) {
			t.Errorf("term %d out of range is not empty", i)
		}
	}
	for _, probe := range termProbes(terms) {
		want, wantOK := sort.SearchStrings(terms, probe), slices.Contains(terms, probe)
		if got, ok := dict.Find(probe); got != want || ok != wantOK {
			t.Errorf("Find(%q) = %d, %v, want %d, %v", probe, got, ok, want, wantOK)
		}
		for i, term := range terms {
			if got, want := dict.Compare(i, probe), strings.Compare(term, probe); got != want {
				t.Errorf("Compare(%d, %q) = %d, want %d", i, probe, got, want)
			}
		}
	}
	checkIter(t, dict, terms, lists)
}

// termProbes are the terms, and strings just before, after and between them.
func termProbes(terms []string) []string {
	probes := []string{"", "\x00", "\xff\xff", "m"}
	for _, term := range terms {
		probes = append(probes, term, term+"\x00", term+"~", strings.ToUpper(term))
		if term != "" {
			probes = append(probes, term[:len(term)-1], term[:len(term)-1]+"\x00")
		}
	}
	return probes
}

// checkIter walks dict from every start near a block boundary, with a new iterator
// and with one reused through Reset.
func checkIter(t *testing.T, dict TermDict, terms []string, lists []span) {
	var reused TermIter
	for _, from := range []int{-3, 0, 1, 14, 15, 16, 17, 31, 32, 33, len(terms) - 1, len(terms), len(terms) + 1} {
		fresh := dict.Iter(from)
		reused.Reset(dict, from)
		for _, it := range []*TermIter{&fresh, &reused} {
			i := max(from, 0)
			for it.Next() {
				if i >= len(terms) || it.Index() != i || it.Term() != terms[i] {
					t.Fatalf("from %d: term %d = %q, want %d", from, it.Index(), it.Term(), i)
				}
				if got := (span{it.post, it.post + it.plen}); got != lists[i] {
					t.Fatalf("from %d: postings of %d at %v, want %v", from, i, got, lists[i])
				}
				i++
			}
			if i < len(terms) || it.Next() || it.Postings() != (Postings{}) {
				t.Fatalf("from %d: iteration ended at %d of %d", from, i, len(terms))
			}
		}
	}
}

// TestTermDictAllocations checks that lookups, comparisons and a reused iterator's scan
// allocate nothing, and Term only for a term it has to assemble.
func TestTermDictAllocations(t *testing.T) {
	terms := termDictCases()["33"]
	_, _, dict, _ := encodeTermDict(t, terms, false)
	var it TermIter
	n := testing.AllocsPerRun(100, func() {
		for _, term := range terms {
			dict.Find(term)
			dict.Compare(20, term)
		}
		it.Reset(dict, 3)
		for it.Next() {
			_ = it.Term()
		}
	})
	if n != 0 {
		t.Errorf("%v allocations per run", n)
	}
	if n := testing.AllocsPerRun(100, func() { _ = dict.Term(16) }); n != 0 {
		t.Errorf("Term of a block's first term: %v allocations", n)
	}
	if n := testing.AllocsPerRun(100, func() { _ = dict.Term(20) }); n != 1 {
		t.Errorf("Term of an assembled term: %v allocations, want 1", n)
	}
}

// TestTermDictCorrupt truncates dictionaries of both kinds at every length and flips
// every byte of them: every accessor must return, never panic.
func TestTermDictCorrupt(t *testing.T) {
	terms := termDictCases()["prefixes"]
	for _, fromIDs := range []bool{false, true} {
		s, dict, _, _ := encodeTermDict(t, terms, fromIDs)
		for cut := dict.off; cut <= dict.end; cut++ {
			exerciseTermDict(s, span{dict.off, cut})
		}
		file := s.str
		for at := dict.off; at < dict.end; at++ {
			for _, xor := range []byte{0x01, 0x80, 0xff} {
				b := []byte(file)
				b[at] ^= xor
				s.str = string(b)
				exerciseTermDict(s, dict)
			}
		}
	}
}

// exerciseTermDict opens the dictionary at dict of s, when its head fits, and calls
// every accessor on it.
func exerciseTermDict(s *Snapshot, dict span) {
	d := &decoder{}
	t := newTermDict(s, dict, false, d)
	if d.err != nil {
		return
	}
	n := min(t.Len(), 200)
	for i := -1; i <= n; i++ {
		term := t.Term(i)
		t.Find(term)
		t.Find(term + "\x00")
		t.Compare(i, term)
		p := t.Postings(i)
		for k := 0; k < 100 && p.Next() >= 0; k++ {
		}
	}
	it := t.Iter(0)
	for k := 0; k < 1000 && it.Next(); k++ {
		t.Find(it.Term())
		it.Postings()
	}
	it.Reset(t, n/2)
	for k := 0; k < 1000 && it.Next(); k++ {
	}
}

// FuzzTermDict reads arbitrary bytes as a dictionary, followed by its postings lists,
// in a file whose ids are those of one of termDictCases: no accessor may panic.
func FuzzTermDict(f *testing.F) {
	cases := termDictCases()
	names := sortedKeys(cases)
	for i, name := range names {
		for _, fromIDs := range []bool{false, true} {
			s, dict, _, _ := encodeTermDict(f, cases[name], fromIDs)
			f.Add([]byte(s.str[dict.off:s.postings.end]), uint16(dict.len()), uint8(i))
		}
	}
	f.Fuzz(func(t *testing.T, data []byte, dictLen uint16, ids uint8) {
		n := min(int(dictLen), len(data))
		s := withIDs(string(data), cases[names[int(ids)%len(names)]])
		s.postings = span{n, len(data)}
		exerciseTermDict(s, span{0, n})
	})
}

// TestTermDictThroughWriter checks the dictionaries the writer builds from items: the
// keyword values of a field across more than two blocks, each with its items.
func TestTermDictThroughWriter(t *testing.T) {
	values := termDictCases()["prefixes"]
	values = append(values, termDictCases()["33"]...)
	var items []string
	want := map[string][]int{}
	ids := make([]string, 40)
	for i := range ids {
		ids[i] = fmt.Sprintf("Content_%02d", i)
	}
	for i, id := range ids {
		var mine []string
		for k, v := range values {
			if k%len(ids) == i || (k*7+3)%len(ids) == i {
				mine = append(mine, fmt.Sprintf("%q", v))
				want[v] = append(want[v], i)
			}
		}
		items = append(items, fmt.Sprintf(`{"ContentID":%q,"Status":"Published","Data":{"k":[%s]}}`, id, strings.Join(mine, ",")))
	}
	s, err := Open(build(t, false, items...))
	if err != nil {
		t.Fatal(err)
	}
	dict := s.Field("Data.k").Keyword()
	terms := sortedKeys(want)
	if dict.Len() != len(terms) {
		t.Fatalf("%d terms, want %d", dict.Len(), len(terms))
	}
	it := dict.Iter(0)
	for i, term := range terms {
		if j, ok := dict.Find(term); !ok || j != i || dict.Term(i) != term {
			t.Errorf("Find(%q) = %d, %v; Term(%d) = %q", term, j, ok, i, dict.Term(i))
		}
		if !it.Next() || it.Term() != term {
			t.Fatalf("iterator at %q, want %q", it.Term(), term)
		}
		for _, p := range []Postings{dict.Postings(i), it.Postings()} {
			var docs []int
			for doc := p.Next(); doc >= 0; doc = p.Next() {
				docs = append(docs, doc)
			}
			if !slices.Equal(docs, slices.Compact(want[term])) {
				t.Errorf("%q: items %v, want %v", term, docs, want[term])
			}
		}
	}
	ids2 := s.Field("ContentID").Keyword()
	if !ids2.fromIDs {
		t.Error("the keyword dictionary of ContentID does not refer to section ids")
	}
	for i, id := range ids {
		if ids2.Term(i) != id || s.ContentID(i) != id {
			t.Errorf("ContentID keyword %d = %q, want %q", i, ids2.Term(i), id)
		}
	}
}

// benchTerms are 60,000 terms of the shapes of generated content (words, ISO dates,
// URLs with ids), sorted, and as many probes: half of them terms, half not.
func benchTerms() (terms, probes []string) {
	for i := range 20000 {
		h := uint32(i) * 2654435761
		terms = append(terms,
			fmt.Sprintf("%c%c%c%c", 'a'+h%26, 'a'+h/26%26, 'a'+h/676%26, 'a'+h/17576%26),
			fmt.Sprintf("20%02d-%02d-%02dT%02d:%02d:00.000Z", 19+h%6, 1+h/6%12, 1+h/72%28, h/2016%24, h/48384%60),
			fmt.Sprintf("https://media.example.com/scale/Media_%08x-%04x.jpg", h, i))
	}
	slices.Sort(terms)
	terms = slices.Compact(terms)
	for i, term := range terms {
		if i%2 == 0 {
			probes = append(probes, term)
		} else {
			probes = append(probes, term+"0")
		}
	}
	rand := uint32(1)
	for i := range probes { // a fixed shuffle, so that lookups hit the caches as queries do
		rand = rand*1664525 + 1013904223
		j := int(rand % uint32(i+1))
		probes[i], probes[j] = probes[j], probes[i]
	}
	return terms, probes
}

// BenchmarkTermDictFind looks terms up and opens their postings, as a term query does,
// in a dictionary that fits in the caches and in a larger one.
func BenchmarkTermDictFind(b *testing.B) {
	all, allProbes := benchTerms()
	for _, n := range []int{1000, len(all)} {
		terms, probes := all[:n], allProbes
		_, _, dict, _ := encodeTermDict(b, terms, false)
		b.Run(fmt.Sprintf("terms=%d", n), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				if k, ok := dict.Find(probes[i%len(probes)]); ok {
					_ = dict.Postings(k)
				}
			}
		})
	}
}

// BenchmarkTermDictIter walks every term with a reused iterator.
func BenchmarkTermDictIter(b *testing.B) {
	terms, _ := benchTerms()
	_, _, dict, _ := encodeTermDict(b, terms, false)
	var it TermIter
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for it.Reset(dict, 0); it.Next(); {
			_ = it.Term()
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(terms)), "ns/term")
}
