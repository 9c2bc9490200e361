package reload

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/cdaedge/cdaedge/host/internal/testsnap"
	"github.com/cdaedge/cdaedge/host/snapdir"
)

// fakeEngine records the sets it is given.
type fakeEngine struct {
	sets [][]snapdir.File
	fail bool
}

func (e *fakeEngine) swap(_ context.Context, files []snapdir.File) error {
	if e.fail {
		return errors.New("refused")
	}
	e.sets = append(e.sets, files)
	return nil
}

func served(r *Reloader) map[string]string {
	m := map[string]string{}
	for _, f := range r.Served() {
		m[f.Env] = f.Version
	}
	return m
}

func write(t *testing.T, path string, b []byte) {
	t.Helper()
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, b, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, path); err != nil {
		t.Fatal(err)
	}
}

func TestRescan(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	a := filepath.Join(dir, "a.snap")
	write(t, a, testsnap.BuildVersion(t, "a", 3, 1))
	files, err := snapdir.Load(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	e := &fakeEngine{}
	r := New(dir, files, e.swap, Options{})
	v1 := served(r)["a"]

	// Nothing changed: no swap.
	if err := r.Rescan(ctx); err != nil || len(e.sets) != 0 {
		t.Fatalf("idle rescan: %v, %d swaps", err, len(e.sets))
	}
	// A corrupt replacement is rejected; version 1 keeps serving; rejected once only.
	bad := testsnap.BuildVersion(t, "a", 3, 2)
	bad[len(bad)/2] ^= 1
	write(t, a, bad)
	_ = r.Rescan(ctx)
	_ = r.Rescan(ctx)
	if got := r.Counts(); got.Rejected != 1 || len(e.sets) != 0 || served(r)["a"] != v1 {
		t.Fatalf("corrupt: counts %+v, %d swaps, served %v", got, len(e.sets), served(r))
	}
	// A good replacement and a new environment serve together, in one swap.
	write(t, a, testsnap.BuildVersion(t, "a", 3, 3))
	write(t, filepath.Join(dir, "b.snap"), testsnap.BuildVersion(t, "b", 3, 1))
	if err := r.Rescan(ctx); err != nil || len(e.sets) != 1 || len(e.sets[0]) != 2 {
		t.Fatalf("good: %v, sets %v", err, e.sets)
	}
	if s := served(r); s["a"] == v1 || s["b"] == "" {
		t.Fatalf("served %v", s)
	}
	// A second file of environment b is rejected; b keeps its file.
	write(t, filepath.Join(dir, "c.snap"), testsnap.BuildVersion(t, "b", 3, 9))
	_ = r.Rescan(ctx)
	if len(e.sets) != 1 || r.Counts().Rejected != 2 {
		t.Fatalf("duplicate: %d swaps, %+v", len(e.sets), r.Counts())
	}
	// The engine refuses: nothing changes.
	e.fail = true
	if err := os.Remove(filepath.Join(dir, "c.snap")); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(a); err != nil {
		t.Fatal(err)
	}
	before := served(r)
	if err := r.Rescan(ctx); err == nil || len(served(r)) != len(before) || r.Counts().Failed != 1 {
		t.Fatalf("refused: %v, served %v", err, served(r))
	}
	// Removal stops serving.
	e.fail = false
	if err := r.Rescan(ctx); err != nil || served(r)["a"] != "" || served(r)["b"] == "" {
		t.Fatalf("removed: %v, served %v", err, served(r))
	}
}
