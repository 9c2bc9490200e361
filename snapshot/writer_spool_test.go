package snapshot

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/cdaedge/cdaedge/builder/gen"
)

// TestSpooledWriter: a writer that keeps its items and body blocks in a spool file
// writes the bytes of one that keeps them in memory, whichever way the items were
// added and in any number of index ranges; it leaves no file behind, and refuses to
// spool once items are in.
func TestSpooledWriter(t *testing.T) {
	lines, derive, want := referenceBuild(t, 700, 5)
	var err error
	for _, ranges := range []int{1, 3} {
		dir := t.TempDir()
		w, _ := NewWriter("demo", true)
		w.ranges = ranges
		w.Derive("test.derived", derive)
		if err := w.SpoolTo(dir); err != nil {
			t.Fatal(err)
		}
		w.spool.chunk = 512 << ranges // lists stored a few KiB at a time
		for i, line := range lines {
			switch i % 3 { // every way in
			case 0:
				err = w.Add(line)
			case 1:
				err = w.AddValidated(line)
			default:
				err = w.AddPrepared(PrepareValidated(line))
			}
			if err != nil {
				t.Fatal(err)
			}
		}
		e, err := w.Encode()
		if err != nil {
			t.Fatal(err)
		}
		var out bytes.Buffer
		if _, err := e.WriteTo(&out); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(out.Bytes(), want) || !bytes.Equal(e.Bytes(), want) {
			t.Errorf("%d ranges: the spooled writer's snapshot differs from the in-memory one", ranges)
		}
		if _, err := w.Encode(); err == nil {
			t.Errorf("a spooling writer encoded twice")
		}
		if err := e.Close(); err != nil {
			t.Fatal(err)
		}
		if _, err := e.WriteTo(&out); err == nil {
			t.Errorf("a closed snapshot was written")
		}
		if left, _ := os.ReadDir(dir); len(left) > 0 {
			t.Errorf("%d ranges: the spool left %s behind", ranges, left[0].Name())
		}
	}

	late, _ := NewWriter("demo", true)
	if err := late.Add(lines[0]); err != nil {
		t.Fatal(err)
	}
	if err := late.SpoolTo(t.TempDir()); err == nil {
		t.Errorf("SpoolTo after the first item was accepted")
	}
}

// TestSpoolFailure: a spool that can no longer be read or written makes Encode fail
// with an error naming it, not a wrong snapshot or a panic; a writer closed unencoded
// is spent.
func TestSpoolFailure(t *testing.T) {
	var in bytes.Buffer
	if err := gen.Generate(&in, gen.Options{Items: 50, Seed: 2}); err != nil {
		t.Fatal(err)
	}
	w, _ := NewWriter("demo", true)
	if err := w.SpoolTo(t.TempDir()); err != nil {
		t.Fatal(err)
	}
	for _, line := range bytes.Split(bytes.TrimSpace(in.Bytes()), []byte("\n")) {
		if err := w.Add(line); err != nil {
			t.Fatal(err)
		}
	}
	_ = w.spool.f.Close() // the disk goes away
	if e, err := w.Encode(); err == nil || !strings.Contains(err.Error(), "spool") {
		t.Errorf("Encode over a closed spool: %v, %v", e, err)
	}

	closed, _ := NewWriter("demo", true)
	if err := closed.SpoolTo(t.TempDir()); err != nil {
		t.Fatal(err)
	}
	if err := closed.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := closed.Encode(); err == nil {
		t.Errorf("a closed writer encoded")
	}
}
