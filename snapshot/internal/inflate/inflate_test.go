package inflate

import (
	"bytes"
	"compress/flate"
	"io"
	"testing"
)

// decodeBoth inflates stream with dict through this package and through compress/flate.
func decodeBoth(stream, dict []byte) (ours, std []byte, oursErr, stdErr error) {
	ours, oursErr = io.ReadAll(NewReaderDict(bytes.NewReader(stream), dict))
	std, stdErr = io.ReadAll(flate.NewReaderDict(bytes.NewReader(stream), dict))
	return ours, std, oursErr, stdErr
}

// FuzzAgreesWithCompressFlate checks that this copy decodes any input, with or without
// a dictionary, exactly as compress/flate does: the same bytes, and an error where it
// errs. Seeds are real streams at several levels, so that mutations reach every kind
// of block.
func FuzzAgreesWithCompressFlate(f *testing.F) {
	text := bytes.Repeat([]byte(`{"Name":"A garden by the river","Data":{"body":"<p>coffee and mountain</p>"}}`), 40)
	dict := []byte(`{"Name":"","Data":{"body":"<p></p>"}} garden river coffee mountain`)
	for _, level := range []int{flate.NoCompression, flate.BestSpeed, 6, flate.BestCompression, flate.HuffmanOnly} {
		for _, d := range [][]byte{nil, dict} {
			var buf bytes.Buffer
			w, _ := flate.NewWriterDict(&buf, level, d)
			w.Write(text)
			w.Close()
			f.Add(buf.Bytes(), d != nil)
		}
	}
	f.Add([]byte{}, false)
	f.Fuzz(func(t *testing.T, stream []byte, withDict bool) {
		var d []byte
		if withDict {
			d = dict
		}
		ours, std, oursErr, stdErr := decodeBoth(stream, d)
		if !bytes.Equal(ours, std) || (oursErr == nil) != (stdErr == nil) {
			t.Fatalf("ours %d bytes, %v; compress/flate %d bytes, %v", len(ours), oursErr, len(std), stdErr)
		}
	})
}

// TestResetReuses checks that a reader reset onto another stream and dictionary decodes
// it as a new one would.
func TestResetReuses(t *testing.T) {
	var a, b bytes.Buffer
	w, _ := flate.NewWriterDict(&a, 6, []byte("alpha beta"))
	w.Write([]byte("alpha beta gamma alpha beta"))
	w.Close()
	w, _ = flate.NewWriterDict(&b, 6, []byte("delta"))
	w.Write([]byte("delta epsilon delta"))
	w.Close()
	r := NewReaderDict(bytes.NewReader(a.Bytes()), []byte("alpha beta"))
	if got, err := io.ReadAll(r); err != nil || string(got) != "alpha beta gamma alpha beta" {
		t.Fatalf("first stream: %q, %v", got, err)
	}
	if err := r.(Resetter).Reset(bytes.NewReader(b.Bytes()), []byte("delta")); err != nil {
		t.Fatal(err)
	}
	if got, err := io.ReadAll(r); err != nil || string(got) != "delta epsilon delta" {
		t.Fatalf("after Reset: %q, %v", got, err)
	}
}
