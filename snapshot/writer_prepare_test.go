package snapshot

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/cdaedge/cdaedge/builder/gen"
)

// TestPreparedAndEncodeOnce: items prepared off the writer (PrepareValidated) and a
// writer that lets go of its items as it encodes them (EncodeOnce), in any number of
// index ranges, give the bytes of Add and Encode; the spent writer then refuses to add
// or encode.
func TestPreparedAndEncodeOnce(t *testing.T) {
	lines, derive, want := referenceBuild(t, 600, 11)
	for _, ranges := range []int{1, 2, 3} {
		w, _ := NewWriter("demo", true)
		w.ranges = ranges
		w.Derive("test.derived", derive)
		for _, line := range lines {
			p := PrepareValidated(line)
			line[0] = 'X' // the prepared item keeps nothing of its input
			if err := w.AddPrepared(p); err != nil {
				t.Fatal(err)
			}
			line[0] = '{'
		}
		e, err := w.EncodeOnce()
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(e.Bytes(), want) {
			t.Errorf("%d ranges: prepared items encoded once differ from Add and Encode", ranges)
		}
		if _, err := w.Encode(); err == nil {
			t.Errorf("a spent writer encoded again")
		}
		if err := w.AddPrepared(PrepareValidated(lines[0])); err == nil {
			t.Errorf("a spent writer took an item")
		}
	}
	if p := PrepareValidated([]byte(`{"ContentID":""}`)); p.err == nil || p.err.Error() != "/ContentID: required, a non-empty string" {
		t.Errorf("PrepareValidated without a ContentID: %v", p.err)
	}
}

// referenceBuild generates items with seed and returns their NDJSON lines, a derived
// section's build function that reads every item, and the snapshot an in-memory writer
// makes of them with Add and Encode: what the other ways of writing must match.
func referenceBuild(t *testing.T, items int, seed uint64) (lines [][]byte, derive func(n int, item func(i int) []byte) []byte, want []byte) {
	t.Helper()
	var in bytes.Buffer
	if err := gen.Generate(&in, gen.Options{Items: items, Seed: seed}); err != nil {
		t.Fatal(err)
	}
	lines = bytes.Split(bytes.TrimSpace(in.Bytes()), []byte("\n"))
	derive = func(n int, item func(i int) []byte) []byte {
		var sum []byte
		for i := range n {
			sum = append(sum, item(i)[len(item(i))/2])
		}
		return sum
	}
	ref, _ := NewWriter("demo", true)
	ref.Derive("test.derived", derive)
	for _, line := range lines {
		if err := ref.Add(line); err != nil {
			t.Fatal(err)
		}
	}
	want, err := ref.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	return lines, derive, want
}

// compactByByte is appendCompact as it was first written, a byte at a time: the
// reference that TestAppendCompact and FuzzAppendCompact compare it with.
func compactByByte(dst []byte, raw string) []byte {
	inString := false
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		if inString {
			dst = append(dst, c)
			if c == '\\' && i+1 < len(raw) {
				i++
				dst = append(dst, raw[i])
			} else if c == '"' {
				inString = false
			}
			continue
		}
		switch c {
		case ' ', '\t', '\n', '\r':
		case '"':
			inString = true
			dst = append(dst, c)
		default:
			dst = append(dst, c)
		}
	}
	return dst
}

// TestAppendCompact compares appendCompact with the byte-at-a-time reference on
// random texts of JSON's structural bytes, whitespace, quotes and backslashes.
func TestAppendCompact(t *testing.T) {
	pieces := []string{`"`, `\`, `\\`, `\"`, " ", "\t", "\n", "\r", "{", "}", "[", "]", ":", ",", "a", "1",
		`"x y"`, `"a\"b"`, `"\\"`, "é", "\x00", "\xff"}
	rng := rand.New(rand.NewPCG(1, 2))
	var b strings.Builder
	for range 100000 {
		b.Reset()
		for range 1 + rng.IntN(16) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		raw := b.String()
		if got, want := appendCompact([]byte("<"), raw), compactByByte([]byte("<"), raw); string(got) != string(want) {
			t.Fatalf("%q: %q, want %q", raw, got, want)
		}
	}
}

// FuzzAppendCompact compares appendCompact with the byte-at-a-time reference.
func FuzzAppendCompact(f *testing.F) {
	f.Add(`{"a": "b \"c\" \\", "d" : [1, 2]}`)
	f.Fuzz(func(t *testing.T, raw string) {
		if got, want := appendCompact(nil, raw), compactByByte(nil, raw); string(got) != string(want) {
			t.Fatalf("%q: %q, want %q", raw, got, want)
		}
	})
}
