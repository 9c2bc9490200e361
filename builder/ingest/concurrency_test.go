package ingest

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/cdaedge/cdaedge/builder/gen"
)

// generated returns n generated items as NDJSON lines.
func generated(t *testing.T, n int, seed uint64) []string {
	t.Helper()
	var buf bytes.Buffer
	if err := gen.Generate(&buf, gen.Options{Items: n, Seed: seed}); err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSpace(buf.String()), "\n")
}

// TestSameBytesOnAnyNumberOfCores: the NDJSON reader prepares items on every core,
// recycles its batch buffers, and the writer compresses, indexes and derives at once;
// none of it may change the snapshot. It is compared with the build of the same items
// as a JSON array, which is read on one goroutine and added as AddValidated adds them,
// and with builds at other GOMAXPROCS. Under -race this exercises the pipeline's
// goroutines on a small input.
func TestSameBytesOnAnyNumberOfCores(t *testing.T) {
	lines := generated(t, 700, 3)
	dir := t.TempDir()
	nd := writeInput(t, dir, "items.ndjson", strings.Join(lines, "\n"))
	arr := writeInput(t, dir, "items.json", "[\n"+strings.Join(lines, ",\n")+"\n]")
	for _, preview := range []bool{false, true} {
		opts := Options{Environment: "test", Preview: preview}
		want, _, err := BuildFiles(opts, arr)
		if err != nil {
			t.Fatal(err)
		}
		for _, procs := range []int{1, 2} {
			prev := runtime.GOMAXPROCS(procs)
			got, _, err := BuildFiles(opts, nd)
			runtime.GOMAXPROCS(prev)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("preview=%v GOMAXPROCS=%d: the NDJSON build differs from the JSON array's", preview, procs)
			}
		}
	}
}

// failingReader returns its data, then err.
type failingReader struct {
	data []byte
	err  error
}

func (r *failingReader) Read(p []byte) (int, error) {
	if len(r.data) == 0 {
		return 0, r.err
	}
	n := copy(p, r.data)
	r.data = r.data[n:]
	return n, nil
}

// settledGoroutines waits, without a clock, for goroutines that have finished their
// work to exit, and returns how many are left.
func settledGoroutines(want int) int {
	n := runtime.NumGoroutine()
	for i := 0; i < 1000 && n > want; i++ {
		runtime.Gosched()
		n = runtime.NumGoroutine()
	}
	return n
}

// TestReadErrorStopsWorkers: a read error in the middle of an input, after several
// batches have gone to the workers, is returned, and the reader and the workers have
// all stopped when AddNDJSON returns.
func TestReadErrorStopsWorkers(t *testing.T) {
	lines := generated(t, 1200, 5)
	data := []byte(strings.Join(lines, "\n"))
	before := runtime.NumGoroutine()
	b, err := NewBuilder(Options{Environment: "test"})
	if err != nil {
		t.Fatal(err)
	}
	boom := errors.New("boom")
	err = b.AddNDJSON("in.ndjson", &failingReader{data: data[:len(data)*2/3], err: boom}, -1)
	if !errors.Is(err, boom) || !strings.Contains(err.Error(), "read in.ndjson") {
		t.Fatalf("err = %v, want the read error", err)
	}
	if n := settledGoroutines(before); n > before {
		t.Errorf("%d goroutines after the read error, %d before", n, before)
	}
}

// TestProblemInTheMiddle: an invalid line and a duplicate in the middle of a large
// input are reported with their lines, whatever the batches and cores, no snapshot is
// made, and no goroutine is left behind.
func TestProblemInTheMiddle(t *testing.T) {
	lines := generated(t, 1200, 9)
	lines[700] = `{"ContentID":` // line 701
	lines[1100] = lines[2]       // line 1101 repeats line 3's ContentID
	p := writeInput(t, t.TempDir(), "in.ndjson", strings.Join(lines, "\n"))
	before := runtime.NumGoroutine()
	for _, procs := range []int{1, 2} {
		prev := runtime.GOMAXPROCS(procs)
		snap, _, err := BuildFiles(Options{Environment: "test"}, p)
		runtime.GOMAXPROCS(prev)
		if snap != nil {
			t.Errorf("GOMAXPROCS=%d: a snapshot despite problems", procs)
		}
		got := problems(t, err)
		name := filepath.Base(p)
		if len(got) != 2 || !strings.Contains(got[0], name+":701:") || !strings.Contains(got[1], name+":1101: /ContentID: duplicate ContentID") ||
			!strings.Contains(got[1], fmt.Sprintf("first seen at %s:3", p)) {
			t.Errorf("GOMAXPROCS=%d: problems = %q", procs, got)
		}
	}
	if n := settledGoroutines(before); n > before {
		t.Errorf("%d goroutines after the builds, %d before", n, before)
	}
}

// TestEncodeOnce: a builder encodes once; the snapshot is written, and encoding again
// is an error, not a snapshot of items the writer has let go of.
func TestEncodeOnce(t *testing.T) {
	p := writeInput(t, t.TempDir(), "in.ndjson", strings.Join(generated(t, 50, 1), "\n"))
	b, err := NewBuilder(Options{Environment: "test"})
	if err != nil {
		t.Fatal(err)
	}
	if err := b.AddFile(p, nil); err != nil {
		t.Fatal(err)
	}
	snap, _, err := b.Encode()
	if err != nil || snap.Size() == 0 {
		t.Fatalf("Encode: %v", err)
	}
	if _, err := snap.WriteTo(io.Discard); err != nil {
		t.Fatal(err)
	}
	if _, _, err := b.Encode(); err == nil {
		t.Errorf("a second Encode succeeded")
	}
}

// TestSpoolingBuilder: a builder that spools its items builds the snapshot of one
// that does not, leaves no file behind once it and its snapshot are closed, and
// closes its spool when the content has problems.
func TestSpoolingBuilder(t *testing.T) {
	dir := t.TempDir()
	p := writeInput(t, dir, "in.ndjson", strings.Join(generated(t, 300, 4), "\n"))
	want, _, err := BuildFiles(Options{Environment: "test"}, p)
	if err != nil {
		t.Fatal(err)
	}
	spoolDir := t.TempDir()
	b, err := NewBuilder(Options{Environment: "test", Spool: true, SpoolDir: spoolDir})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if err := b.AddFile(p, nil); err != nil {
		t.Fatal(err)
	}
	snap, _, err := b.Encode()
	if err != nil {
		t.Fatal(err)
	}
	var got bytes.Buffer
	if _, err := snap.WriteTo(&got); err != nil {
		t.Fatal(err)
	}
	if err := snap.Close(); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got.Bytes(), want) {
		t.Errorf("the spooling builder's snapshot differs")
	}

	bad := writeInput(t, dir, "bad.ndjson", `{"ContentID":"a","Status":"Published","CreatedAt":"not a date"}`)
	b2, err := NewBuilder(Options{Environment: "test", Spool: true, SpoolDir: spoolDir})
	if err != nil {
		t.Fatal(err)
	}
	if err := b2.AddFile(bad, nil); err != nil {
		t.Fatal(err)
	}
	var verr *ValidationError
	if _, _, err := b2.Encode(); !errors.As(err, &verr) {
		t.Errorf("Encode of bad content: %v", err)
	}
	if left, _ := os.ReadDir(spoolDir); len(left) > 0 {
		t.Errorf("the spool left %s behind", left[0].Name())
	}
}
