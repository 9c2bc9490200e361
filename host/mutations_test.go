package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/cdaedge/cdaedge/host/internal/testsnap"
)

// mutation is one thing that happens to a served snapshot file, and what must follow.
type mutation struct {
	name string
	// apply changes the file at path; next builds a good new version v.
	apply func(t *testing.T, path string, next func(v int) []byte) (lastGood int)
	// rejected: the change must be rejected (counted), the version serving keeps serving.
	rejected bool
	// gone: the environment stops serving for a while (the file is deleted).
	gone bool
}

var versionSeq atomic.Int64

// TestSnapshotFileMutations replays a table of things that happen to a snapshot file
// while clients keep asking, in both engines: every answer is whole and from one
// version that was written intact, nothing fails, a rejected change leaves the last
// verified version serving, and the last good version written ends up serving. The
// slowest answer is logged.
func TestSnapshotFileMutations(t *testing.T) {
	const items = 40
	table := fileMutations()
	for _, engine := range []string{"native", "wasm"} {
		t.Run(engine, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, testsnap.Env+".snap")
			var good sync.Map
			next := func(v int) []byte {
				good.Store(v, true)
				return testsnap.BuildVersion(t, testsnap.Env, items, v)
			}
			v0 := int(versionSeq.Add(1))
			if err := os.WriteFile(path, next(v0), 0o644); err != nil {
				t.Fatal(err)
			}
			args := []string{"--snapshots", dir, "--engine", engine, "--access-log=false"}
			if engine == "wasm" {
				args = append(args, "--module", moduleFile(t), "--instances", "2")
			}
			c := newReloadClient(t, startHost(t, args...))
			served := v0
			for _, m := range table {
				t.Run(m.name, func(t *testing.T) {
					var stop, gone atomic.Bool
					gone.Store(m.gone)
					var wg sync.WaitGroup
					var slowest atomic.Int64
					errs := make(chan error, 2)
					for range 2 {
						wg.Go(func() { errs <- mutationClient(c, items, &stop, &gone, &good, served, &slowest) })
					}
					before := c.rejected()
					last := m.apply(t, path, next)
					if m.rejected {
						await(t, "the change to be rejected", func() bool { return c.rejected() > before })
						// Back to a good file for the next row.
						last = int(versionSeq.Add(1))
						writeAtomic(t, path, next(last))
					}
					await(t, fmt.Sprintf("version %d to serve", last), func() bool {
						status, b, err := c.get(fmt.Sprintf("/cda/rest/v1/%s/contents?pageSize=1", testsnap.Env))
						return err == nil && status == 200 && regexpVersion(last).Match(b)
					})
					stop.Store(true)
					wg.Wait()
					close(errs)
					for err := range errs {
						if err != nil {
							t.Error(err)
						}
					}
					served = last
					t.Logf("slowest answer: %v", time.Duration(slowest.Load()))
				})
			}
		})
	}
}

// flipBytes inverts n bytes of the file at offset at, in place.
func flipBytes(t *testing.T, path string, at, n int) {
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	b := make([]byte, n)
	if _, err := f.ReadAt(b, int64(at)); err != nil {
		t.Fatal(err)
	}
	for i := range b {
		b[i] ^= 0xff
	}
	if _, err := f.WriteAt(b, int64(at)); err != nil {
		t.Fatal(err)
	}
}

// fileSize is the file's size in bytes.
func fileSize(t *testing.T, path string) int {
	info, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return int(info.Size())
}

// fileMutations are the table of TestSnapshotFileMutations: what can happen to a served
// snapshot file, and whether the host must reject the result.
func fileMutations() []mutation {
	return []mutation{
		{name: "corrupt in place, same size", rejected: true, apply: func(t *testing.T, path string, _ func(int) []byte) int {
			n := fileSize(t, path)
			flipBytes(t, path, n/2-128, 256)
			return -1
		}},
		{name: "truncated to nothing", rejected: true, apply: func(t *testing.T, path string, _ func(int) []byte) int {
			if err := os.Truncate(path, 0); err != nil {
				t.Fatal(err)
			}
			return -1
		}},
		{name: "truncated to half", rejected: true, apply: func(t *testing.T, path string, _ func(int) []byte) int {
			if err := os.Truncate(path, int64(fileSize(t, path)/2)); err != nil {
				t.Fatal(err)
			}
			return -1
		}},
		{name: "half copied in place", rejected: true, apply: func(t *testing.T, path string, next func(int) []byte) int {
			v := int(versionSeq.Add(1))
			data := next(v)
			if err := os.WriteFile(path, data[:len(data)/2], 0o644); err != nil {
				t.Fatal(err)
			}
			return -1
		}},
		{name: "half copied, then completed", apply: func(t *testing.T, path string, next func(int) []byte) int {
			v := int(versionSeq.Add(1))
			data := next(v)
			writeInPlace(t, path, data)
			return v
		}},
		{name: "corrupt copy renamed over it", rejected: true, apply: func(t *testing.T, path string, next func(int) []byte) int {
			data := next(int(versionSeq.Add(1)))
			data[len(data)/2] ^= 0x55
			writeAtomic(t, path, data)
			return -1
		}},
		{name: "replaced by rename every 100 ms", apply: func(t *testing.T, path string, next func(int) []byte) int {
			last := 0
			for range 15 {
				last = int(versionSeq.Add(1))
				writeAtomic(t, path, next(last))
				time.Sleep(100 * time.Millisecond)
			}
			return last
		}},
		{name: "rewritten in place every 100 ms", apply: func(t *testing.T, path string, next func(int) []byte) int {
			last := 0
			for range 10 {
				last = int(versionSeq.Add(1))
				writeInPlace(t, path, next(last))
				time.Sleep(100 * time.Millisecond)
			}
			return last
		}},
		{name: "deleted, then copied back", gone: true, apply: func(t *testing.T, path string, next func(int) []byte) int {
			if err := os.Remove(path); err != nil {
				t.Fatal(err)
			}
			time.Sleep(500 * time.Millisecond)
			v := int(versionSeq.Add(1))
			writeAtomic(t, path, next(v))
			return v
		}},
	}
}

// mutationClient asks for a whole page until stop: every answer must be a 200 (or a
// 404 while gone) from one version written intact, never older than the one before.
func mutationClient(c *reloadClient, items int, stop, gone *atomic.Bool, good *sync.Map, from int, slowest *atomic.Int64) error {
	prev := from
	for i := 0; !stop.Load(); i++ {
		start := time.Now()
		status, b, err := c.get(fmt.Sprintf("/cda/rest/v1/%s/contents?pageSize=%d", testsnap.Env, items))
		if d := int64(time.Since(start)); d > slowest.Load() {
			slowest.Store(d)
		}
		if err != nil {
			return fmt.Errorf("request %d failed: %w", i, err)
		}
		if status == 404 && gone.Load() {
			continue
		}
		var p listPage
		if err := json.Unmarshal(b, &p); err != nil || status != 200 || len(p.Data) != items {
			return fmt.Errorf("request %d: %d %.300s", i, status, b)
		}
		v := p.Data[0].Data.Version
		for _, it := range p.Data {
			if it.Data.Version != v {
				return fmt.Errorf("request %d mixes versions %d and %d", i, v, it.Data.Version)
			}
		}
		if _, ok := good.Load(v); !ok {
			return fmt.Errorf("request %d saw version %d, which was never written intact", i, v)
		}
		if v < prev {
			return fmt.Errorf("request %d saw version %d after %d", i, v, prev)
		}
		prev = v
	}
	return nil
}
