package snapshot

import (
	"encoding/binary"
	"testing"

	"github.com/cdaedge/cdaedge/edge/jsonr"
)

// FuzzOpen feeds corrupted snapshots to the reader. Half of the time the harness fixes up
// the checksum after corrupting, so the structure checks and every accessor behind them
// are exercised, not just the checksum: all must return errors or empty values, never panic.
func FuzzOpen(f *testing.F) {
	good := build(f, false, sampleItems...)
	f.Add(good, uint32(0), byte(0), false)
	f.Add(good, uint32(100), byte(0xff), true)
	f.Add(good[:headerSize], uint32(3), byte(1), true)
	dense := build(f, false, denseItems()...)
	f.Add(dense, uint32(0), byte(0), false)
	f.Add(dense, uint32(len(dense)/3), byte(0x10), true)
	f.Fuzz(func(t *testing.T, data []byte, at uint32, xor byte, fixChecksum bool) {
		data = append([]byte(nil), data...)
		if len(data) > 0 {
			data[int(at)%len(data)] ^= xor
		}
		if fixChecksum && len(data) >= headerSize {
			end := binary.LittleEndian.Uint64(data[offIndexLen:])
			if end < headerSize || end > uint64(len(data)) {
				end = uint64(len(data))
			}
			binary.LittleEndian.PutUint32(data[offChecksum:], checksum(data[:end]))
		}
		s, err := Open(data)
		if err != nil {
			return
		}
		exercise(s)
	})
}

// exercise touches every accessor of an opened snapshot.
func exercise(s *Snapshot) {
	var vals []Value
	for i := -1; i <= s.Len(); i++ {
		// A recorded Data end, whatever its value, only guides a walk of the item.
		var it jsonr.Members
		for it.ResetKnown(jsonr.Parse(s.Item(i)), "Data", s.DataEnd(i)); it.Next(); {
		}
		id := s.ContentID(i)
		s.Lookup(id)
	}
	for _, name := range s.FieldNames() {
		f := s.Field(name)
		for _, dict := range []TermDict{f.Text(), f.Keyword()} {
			for i := 0; i < dict.Len() && i < 1000; i++ {
				dict.Find(dict.Term(i))
				p := dict.Postings(i)
				var docs, freqs []int32
				for doc, n := p.Next(), 0; doc >= 0 && n < 10000; doc, n = p.Next(), n+1 {
					docs, freqs = append(docs, int32(doc)), append(freqs, int32(p.Freq()))
					for pos := p.NextPosition(); pos >= 0; pos = p.NextPosition() {
					}
				}
				checkNextBlock(dict.Postings(i), docs, freqs)
				if m, ok := dict.Impacts(i); ok {
					for k := -1; k <= m.Windows(); k++ {
						m.Window(k)
					}
				}
				if b, ok := dict.Bitmap(i); ok {
					set := make([]uint64, b.Words())
					b.CopyTo(set)
					b.Count()
					b.WordsInto(set[:min(len(set), 3)], max(b.Words()-1, 0))
					b.OnesIn(1, b.Words()+1)
					OrAll(set, []Bitmap{b, b, b, b, b})
				}
				p = dict.Postings(i)
				for k := 0; k < len(freqs)+2; k += 3 {
					p.FreqAt(k)
				}
			}
			exerciseIter(dict)
		}
		probe := []int{-1, 0, 1, 63, 64, 65, s.Len() - 1, s.Len(), s.Len() + 64}
		entries, _ := f.AppendValueEntries(nil, nil, probe)
		for _, e := range append(entries, f.AppendEntries(nil, probe)...) {
			f.Entry(e)
		}
		for doc := -1; doc <= s.Len(); doc++ {
			vals = f.Values(vals[:0], doc)
			f.RankAsc(doc)
			f.RankDesc(doc)
			f.Length(doc)
			f.SortedDoc(doc, true)
		}
	}
}

// exerciseIter walks dict with an iterator from its start and from inside its second
// block, and checks that each term and postings list agree with random access.
func exerciseIter(dict TermDict) {
	for _, from := range []int{0, 17} {
		it := dict.Iter(from)
		for n := 0; n < 1000 && it.Next(); n++ {
			term, i := it.Term(), it.Index()
			if dict.Term(i) != term {
				panic("the iterator and Term disagree")
			}
			// A corrupt dictionary may break Compare's assumptions (sorted terms, longest
			// shared prefixes): it must only return.
			dict.Compare(i, term)
			if it.Postings().DocFreq != dict.Postings(i).DocFreq {
				panic("the iterator and Postings disagree")
			}
		}
	}
}

// FuzzOpenVerified feeds corrupted snapshots to OpenVerified, which skips the checksum
// (the runtimes that are handed an already verified file use it): every corruption
// reaches the structure checks and the accessors, which must return errors or empty
// values, never panic.
func FuzzOpenVerified(f *testing.F) {
	good := build(f, false, sampleItems...)
	f.Add(good, uint32(0), byte(0))
	f.Add(good, uint32(100), byte(0xff))
	f.Add(good, uint32(len(good)-50), byte(0x80))
	// A file with the sections of common terms (docsets, impacts), corrupted inside
	// their tables.
	dense := build(f, false, denseItems()...)
	s, err := OpenVerified(dense)
	if err != nil {
		f.Fatal(err)
	}
	for _, sec := range s.Sections() {
		if sec.Name == secDocSets || sec.Name == secImpacts {
			f.Add(dense, uint32(sec.Offset+4), byte(1))
			f.Add(dense, uint32(sec.Offset+9), byte(0x40))
			f.Add(dense, uint32(sec.Offset+sec.Length-3), byte(0xff))
		}
	}
	f.Fuzz(func(t *testing.T, data []byte, at uint32, xor byte) {
		data = append([]byte(nil), data...)
		if len(data) > 0 {
			data[int(at)%len(data)] ^= xor
		}
		s, err := OpenVerified(data)
		if err != nil {
			return
		}
		exercise(s)
		exerciseIndexPart(data)
	})
}

// denseItems are 140 small items whose common words have bitmaps and impacts.
func denseItems() []string {
	items := make([]string, 140)
	for i := range items {
		items[i] = `{"ContentID":"d` + string(rune('a'+i/26%26)) + string(rune('a'+i%26)) + `","Status":"Published","Name":"common words here","Data":{"n":` + string(rune('0'+i%10)) + `}}`
	}
	return items
}

// exerciseIndexPart opens the index part of a file that opened whole, reads every item
// and every dictionary once with nothing cached, provides the body blocks and index
// pages asked for from the file (corrupt ones are refused), and reads them again, a few
// rounds: Item, MissingBlocks, ProvideBlock, ProvideRange and the cache trims must
// return errors or empty values, never panic.
func exerciseIndexPart(data []byte) {
	n, err := IndexLen(data)
	if err != nil || n > int64(len(data)) {
		return
	}
	s, err := OpenVerified(data[:n])
	if err != nil {
		panic("the whole file opened but not its index part: " + err.Error())
	}
	for i := -1; i <= s.Len(); i++ {
		_ = s.Item(i)
	}
	for round := 0; round < 3; round++ {
		exercise(s)
		for _, r := range s.MissingBlocks(nil) {
			if r.Offset < 0 || r.Length < 0 || r.Offset+int64(r.Length) > int64(len(data)) {
				panic("a range outside the file")
			}
			if r.Block >= 0 {
				_ = s.ProvideBlock(r.Block, nil)
			}
			if r.Length > 0 {
				_ = s.ProvideRange(r, data[r.Offset+1:r.Offset+int64(r.Length)])
			}
			_ = s.ProvideRange(BlockRange{Block: -1, Offset: r.Offset + 1, Length: r.Length}, data[r.Offset:r.Offset+int64(r.Length)])
			_ = s.ProvideRange(r, data[r.Offset:r.Offset+int64(r.Length)])
		}
	}
	_ = s.ProvideBlock(-1, nil)
	_ = s.ProvideBlock(s.blockCount, nil)
	_ = s.ProvideRange(BlockRange{Block: -1, Offset: -4096, Length: 4096}, make([]byte, 4096))
	exercise(s)
	s.TrimBodyCache(0)
	s.TrimPageCache(0)
	if s.BodyCacheBytes() != 0 || s.PageCacheBytes() != 0 {
		panic("trims to 0 left bytes in the caches")
	}
	exercise(s)
}

// checkNextBlock panics unless NextBlock, three postings at a time, decodes the items and
// frequencies that Next gave (docs, freqs: at most 10,000 of them, as exercise reads).
func checkNextBlock(p Postings, docs, freqs []int32) {
	var bd, bf [3]int32
	got := 0
	for got < len(docs) {
		k := p.NextBlock(bd[:], bf[:])
		if k == 0 {
			break
		}
		for j := range k {
			if got < len(docs) && (bd[j] != docs[got] || p.positions && bf[j] != freqs[got]) {
				panic("NextBlock and Next disagree")
			}
			got++
		}
	}
	if got < len(docs) {
		panic("NextBlock ended before Next")
	}
}
