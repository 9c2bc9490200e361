package snapdir

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cdaedge/cdaedge/host/internal/testsnap"
	"github.com/cdaedge/cdaedge/snapshot"
)

// TestVerifyIndexFileShrunk: a file that is shorter than its index part while it is
// mapped (truncated by a writer between the size check and the checksum) makes the
// checksum pass fault on the pages past its end; that is an error, not a crash.
func TestVerifyIndexFileShrunk(t *testing.T) {
	whole := testsnap.Build(t, testsnap.Env, 300)
	n, err := snapshot.IndexLen(whole)
	if err != nil {
		t.Fatal(err)
	}
	if n < 3*int64(os.Getpagesize()) {
		t.Fatalf("an index part of %d bytes: too small to leave whole pages past a truncation", n)
	}
	path := filepath.Join(t.TempDir(), "shrunk.snap")
	if err := os.WriteFile(path, whole[:os.Getpagesize()], 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, _, err := verifyIndex(f, int(n)); err == nil || !strings.Contains(err.Error(), "changed while it was read") {
		t.Errorf("verifyIndex of a file shorter than the mapping: %v", err)
	}
}
