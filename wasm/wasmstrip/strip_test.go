package wasmstrip

import (
	"bytes"
	"testing"
)

func TestStrip(t *testing.T) {
	custom := []byte{0, 5, 4, 'n', 'a', 'm', 'e'}
	typeSec := []byte{1, 4, 1, 0x60, 0, 0}
	module := append(append(append(append([]byte{}, wasmHeader...), custom...), typeSec...), custom...)
	got, err := Strip(module)
	if err != nil {
		t.Fatal(err)
	}
	if want := append(append([]byte{}, wasmHeader...), typeSec...); !bytes.Equal(got, want) {
		t.Fatalf("strip = %x, want %x", got, want)
	}
	for _, bad := range [][]byte{nil, []byte("\x00asm\x02\x00\x00\x00"), append(append([]byte{}, wasmHeader...), 1, 9, 0)} {
		if _, err := Strip(bad); err == nil {
			t.Errorf("Strip(%x) succeeded", bad)
		}
	}
}
