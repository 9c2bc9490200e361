package snapshot

import (
	"encoding/binary"
	"testing"
)

// FuzzOpen feeds corrupted snapshots to the reader. Half of the time the harness fixes up
// the checksum after corrupting, so the structure checks and every accessor behind them
// are exercised, not just the checksum: all must return errors or empty values, never panic.
func FuzzOpen(f *testing.F) {
	good := build(f, false, sampleItems...)
	f.Add(good, uint32(0), byte(0), false)
	f.Add(good, uint32(100), byte(0xff), true)
	f.Add(good[:headerSize], uint32(3), byte(1), true)
	f.Fuzz(func(t *testing.T, data []byte, at uint32, xor byte, fixChecksum bool) {
		data = append([]byte(nil), data...)
		if len(data) > 0 {
			data[int(at)%len(data)] ^= xor
		}
		if fixChecksum && len(data) >= headerSize {
			binary.LittleEndian.PutUint32(data[offChecksum:], checksum(data))
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
		_ = s.Item(i)
		id := s.ContentID(i)
		s.Lookup(id)
	}
	for _, name := range s.FieldNames() {
		f := s.Field(name)
		for _, dict := range []TermDict{f.Text(), f.Keyword()} {
			for i := 0; i < dict.Len() && i < 1000; i++ {
				dict.Find(dict.Term(i))
				p := dict.Postings(i)
				for doc, n := p.Next(), 0; doc >= 0 && n < 10000; doc, n = p.Next(), n+1 {
					for pos := p.NextPosition(); pos >= 0; pos = p.NextPosition() {
					}
				}
			}
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

// FuzzOpenVerified feeds corrupted snapshots to OpenVerified, which skips the checksum
// (the runtimes that are handed an already verified file use it): every corruption
// reaches the structure checks and the accessors, which must return errors or empty
// values, never panic.
func FuzzOpenVerified(f *testing.F) {
	good := build(f, false, sampleItems...)
	f.Add(good, uint32(0), byte(0))
	f.Add(good, uint32(100), byte(0xff))
	f.Add(good, uint32(len(good)-50), byte(0x80))
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
	})
}
