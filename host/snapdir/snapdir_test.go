package snapdir_test

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/cdaedge/cdaedge/host/internal/testsnap"
	"github.com/cdaedge/cdaedge/host/snapdir"
	"github.com/cdaedge/cdaedge/snapshot"
)

func writeFile(t *testing.T, data []byte) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), testsnap.Env+".snap")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestOpenIndexHoldsNothing: a file opened by OpenIndex is verified and described like
// one read whole, but the File holds none of its bytes, only a reader of the file.
func TestOpenIndexHoldsNothing(t *testing.T) {
	whole := testsnap.Build(t, testsnap.Env, 300)
	path := writeFile(t, whole)
	mem, err := snapdir.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	f, err := snapdir.OpenIndex(path)
	if err != nil {
		t.Fatal(err)
	}
	if f.Data != nil || f.Snap != nil || f.Reader == nil {
		t.Fatalf("OpenIndex: %d bytes held, reader over them %v, file reader %v", len(f.Data), f.Snap != nil, f.Reader != nil)
	}
	if f.Env != testsnap.Env || f.Meta != mem.Meta || f.Meta != snapdir.MetaOf(mem.Snap) {
		t.Errorf("OpenIndex: %q %+v; Open: %q %+v", f.Env, f.Meta, mem.Env, mem.Meta)
	}
	if f.Size != int64(len(whole)) || f.IndexSize >= f.Size || f.Items != 300 {
		t.Errorf("meta %+v of a file of %d bytes and 300 items", f.Meta, len(whole))
	}
	got, err := io.ReadAll(io.NewSectionReader(f.Reader, 0, f.Size))
	if err != nil || string(got) != string(whole) {
		t.Errorf("the reader reads %d bytes (%v), want the file's %d", len(got), err, len(whole))
	}
	if !f.SameVersion(mem) {
		t.Error("two opens of one file are not the same version")
	}
	// A new version renamed over the file leaves an open File reading the old one.
	next := testsnap.BuildVersion(t, testsnap.Env, 300, 1)
	if err := os.WriteFile(path+".tmp", next, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(path+".tmp", path); err != nil {
		t.Fatal(err)
	}
	got, err = io.ReadAll(io.NewSectionReader(f.Reader, 0, f.Size))
	if err != nil || string(got) != string(whole) {
		t.Errorf("after a rename over the file, the reader reads %d bytes (%v), want the old file's %d", len(got), err, len(whole))
	}
	g, err := snapdir.OpenIndex(path)
	if err != nil {
		t.Fatal(err)
	}
	if g.SameVersion(f) || g.Version == f.Version {
		t.Error("the new version reads as the old one")
	}
}

// TestOpenIndexRejects: whatever OpenIndex refuses, Open refuses too, with the same
// kind of error; the index part's checksum is checked without the host reading the file
// into its memory.
func TestOpenIndexRejects(t *testing.T) {
	whole := testsnap.Build(t, testsnap.Env, 300)
	n, err := snapshot.IndexLen(whole)
	if err != nil {
		t.Fatal(err)
	}
	s, err := snapshot.Open(whole)
	if err != nil {
		t.Fatal(err)
	}
	flipped := append([]byte(nil), whole...)
	flipped[s.Sections()[1].Offset] ^= 1
	for _, c := range []struct {
		name string
		data []byte
		want error
	}{
		{"empty", nil, snapshot.ErrNotSnapshot},
		{"not a snapshot", []byte("hello, this is not a snapshot file at all, but a long enough text for a header."), snapshot.ErrNotSnapshot},
		{"a flipped byte in the index part", flipped, snapshot.ErrChecksum},
		{"shorter than its index part", whole[:n-1], snapshot.ErrCorrupt},
		{"the index part alone", whole[:n], snapshot.ErrCorrupt},
		{"a byte more", append(append([]byte(nil), whole...), 0), snapshot.ErrCorrupt},
	} {
		t.Run(c.name, func(t *testing.T) {
			path := writeFile(t, c.data)
			if _, err := snapdir.OpenIndex(path); !errors.Is(err, c.want) {
				t.Errorf("OpenIndex: %v, want %v", err, c.want)
			}
			if _, err := snapdir.Open(path); !errors.Is(err, c.want) {
				t.Errorf("Open: %v, want %v", err, c.want)
			}
		})
	}
	if _, err := snapdir.OpenIndex(filepath.Join(t.TempDir(), "missing.snap")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a missing file: %v", err)
	}
}
