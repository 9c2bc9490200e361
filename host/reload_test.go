package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/cdaedge/cdaedge/host/internal/testsnap"
	"github.com/cdaedge/cdaedge/snapshot"
)

// reloadClient talks to a host under reload.
type reloadClient struct {
	t    *testing.T
	base string
	hc   *http.Client
}

func newReloadClient(t *testing.T, addr string) *reloadClient {
	return &reloadClient{t: t, base: "http://" + addr, hc: &http.Client{Timeout: time.Minute}}
}

func (c *reloadClient) get(path string) (int, []byte, error) {
	resp, err := c.hc.Get(c.base + path)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return resp.StatusCode, b, err
}

// servedVersion returns the snapshot version /readyz reports for env ("" if none).
func (c *reloadClient) servedVersion(env string) string {
	c.t.Helper()
	_, b, err := c.get("/readyz")
	if err != nil {
		c.t.Fatalf("readyz: %v", err)
	}
	var r struct {
		Environments []struct{ ID, Version string }
	}
	if err := json.Unmarshal(b, &r); err != nil {
		c.t.Fatalf("readyz: %v: %s", err, b)
	}
	for _, e := range r.Environments {
		if e.ID == env {
			return e.Version
		}
	}
	return ""
}

var rejectedRE = regexp.MustCompile(`(?m)^cda_snapshot_reloads_total\{result="rejected"\} (\d+)`)

func (c *reloadClient) rejected() int {
	c.t.Helper()
	_, b, err := c.get("/metrics")
	if err != nil {
		c.t.Fatalf("metrics: %v", err)
	}
	m := rejectedRE.FindSubmatch(b)
	if m == nil {
		c.t.Fatalf("no rejected counter in /metrics")
	}
	n, _ := strconv.Atoi(string(m[1]))
	return n
}

// await polls cond (a bounded number of times) until it holds.
func await(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for range 3000 {
		if cond() {
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Fatalf("gave up waiting for %s", what)
}

// writeAtomic writes a file the safe way: a temporary name, then a rename.
func writeAtomic(t *testing.T, path string, data []byte) {
	t.Helper()
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, path); err != nil {
		t.Fatal(err)
	}
}

// writeInPlace overwrites a file where it is, in two writes, so the watcher can see it
// half-written.
func writeInPlace(t *testing.T, path string, data []byte) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_TRUNC, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	half := len(data) / 2
	if _, err := f.Write(data[:half]); err != nil {
		t.Fatal(err)
	}
	if err := f.Sync(); err != nil {
		t.Fatal(err)
	}
	if _, err := f.Write(data[half:]); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

// listPage is the part of a REST list answer the reload test reads.
type listPage struct {
	Status int `json:"status"`
	Data   []struct {
		Name string `json:"Name"`
		Data struct {
			Version int `json:"version"`
		} `json:"Data"`
	} `json:"data"`
	TotalItems int `json:"totalItems"`
}

// TestHotReload replaces the served snapshot 50 times while clients loop over
// requests: good versions (atomic renames and in-place writes), corrupt ones (a flipped
// byte) and truncated ones. No request may fail, no answer may mix two versions, a
// client never sees a version go back, and no corrupt or truncated version ever serves.
// Then removing the file stops serving the environment. "wasm-file" is the wasm engine
// with --bodies=file, whose host holds none of the file (its instances read the index
// part from it, and the bodies by range while clients loop): files are only ever
// replaced by renaming, as that mode requires, so the in-place writes are renames there.
func TestHotReload(t *testing.T) {
	const items, replacements, clients = 60, 50, 3
	for _, engine := range []string{"native", "wasm", "wasm-file"} {
		t.Run(engine, func(t *testing.T) {
			inPlace := writeInPlace
			if engine == "wasm-file" {
				inPlace = writeAtomic
			}
			dir := t.TempDir()
			path := filepath.Join(dir, testsnap.Env+".snap")
			if err := os.WriteFile(path, testsnap.BuildVersion(t, testsnap.Env, items, 0), 0o644); err != nil {
				t.Fatal(err)
			}
			args := []string{"--snapshots", dir, "--access-log=false"}
			switch engine {
			case "native":
				args = append(args, "--engine", "native")
			case "wasm", "wasm-file":
				args = append(args, "--engine", "wasm", "--module", moduleFile(t), "--instances", "2")
				if engine == "wasm-file" {
					args = append(args, "--bodies", "file")
				}
			}
			addr := startHost(t, args...)
			c := newReloadClient(t, addr)

			var good sync.Map // versions that were written intact
			good.Store(0, true)
			var stop atomic.Bool
			var wg sync.WaitGroup
			var requests atomic.Int64
			seen := make([]map[int]bool, clients)
			errs := make(chan error, clients)
			for i := range clients {
				seen[i] = map[int]bool{}
				wg.Go(func() {
					errs <- clientLoop(c, items, &stop, &good, seen[i], &requests)
				})
			}

			last := 0
			for i := 1; i <= replacements; i++ {
				switch i % 5 {
				case 0, 1, 3: // good: atomic rename (0, 1) or in place, seen half-written (3)
					data := testsnap.BuildVersion(t, testsnap.Env, items, i)
					good.Store(i, true)
					if i%5 == 3 {
						inPlace(t, path, data)
					} else {
						writeAtomic(t, path, data)
					}
					want := versionOf(t, data)
					await(t, fmt.Sprintf("version %d to serve", i), func() bool { return c.servedVersion(testsnap.Env) == want })
					last = i
				case 2: // corrupt: one flipped byte in the middle, atomic rename
					data := testsnap.BuildVersion(t, testsnap.Env, items, 1000+i)
					data[len(data)/2] ^= 0x55
					before := c.rejected()
					writeAtomic(t, path, data)
					await(t, "a corrupt snapshot to be rejected", func() bool { return c.rejected() > before })
				case 4: // truncated, in place
					data := testsnap.BuildVersion(t, testsnap.Env, items, 2000+i)
					before := c.rejected()
					inPlace(t, path, data[:len(data)*2/3])
					await(t, "a truncated snapshot to be rejected", func() bool { return c.rejected() > before })
				}
			}
			// The last good version is still the one served.
			if _, b, _ := c.get("/cda/rest/v1/" + testsnap.Env + "/contents?pageSize=1"); !regexpVersion(last).Match(b) {
				t.Errorf("after the replacements: want version %d, got %s", last, b)
			}
			stop.Store(true)
			wg.Wait()
			close(errs)
			for err := range errs {
				if err != nil {
					t.Error(err)
				}
			}
			versions := map[int]bool{}
			for _, s := range seen {
				for v := range s {
					versions[v] = true
				}
			}
			t.Logf("%d requests saw %d versions", requests.Load(), len(versions))
			if len(versions) < 2 {
				t.Errorf("the clients saw only versions %v", versions)
			}

			// Removing the file stops serving the environment.
			if err := os.Remove(path); err != nil {
				t.Fatal(err)
			}
			await(t, "the environment to stop serving", func() bool {
				s, _, err := c.get("/cda/rest/v1/" + testsnap.Env + "/contents")
				return err == nil && s == 404
			})
			if s, _, _ := c.get("/readyz"); s != 503 {
				t.Errorf("readyz with no snapshot: %d", s)
			}
		})
	}
}

func regexpVersion(v int) *regexp.Regexp {
	return regexp.MustCompile(fmt.Sprintf(`"version":%d\b`, v))
}

func versionOf(t *testing.T, data []byte) string {
	t.Helper()
	s, err := snapshot.Open(data)
	if err != nil {
		t.Fatal(err)
	}
	return s.Version()
}

// clientLoop requests a whole page over and over until stop, checking every answer.
func clientLoop(c *reloadClient, items int, stop *atomic.Bool, good *sync.Map, seen map[int]bool, n *atomic.Int64) error {
	prev := -1
	for i := 0; !stop.Load() && i < 1_000_000; i++ {
		status, b, err := c.get(fmt.Sprintf("/cda/rest/v1/%s/contents?pageSize=%d", testsnap.Env, items))
		n.Add(1)
		if err != nil {
			return fmt.Errorf("request %d failed: %w", i, err)
		}
		var p listPage
		if err := json.Unmarshal(b, &p); err != nil || status != 200 || len(p.Data) != items {
			return fmt.Errorf("request %d: %d %.300s", i, status, b)
		}
		v := p.Data[0].Data.Version
		for _, it := range p.Data {
			if it.Data.Version != v || !regexp.MustCompile(fmt.Sprintf(`^v%d item `, v)).MatchString(it.Name) {
				return fmt.Errorf("request %d mixes versions: %d and %q (v%d)", i, v, it.Name, it.Data.Version)
			}
		}
		if _, ok := good.Load(v); !ok {
			return fmt.Errorf("request %d saw version %d, which was never written intact", i, v)
		}
		if v < prev {
			return fmt.Errorf("request %d saw version %d after %d", i, v, prev)
		}
		prev = v
		seen[v] = true
	}
	return nil
}

// TestSIGHUPRescans runs the host without the watcher: a replaced snapshot serves only
// after SIGHUP.
func TestSIGHUPRescans(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, testsnap.Env+".snap")
	if err := os.WriteFile(path, testsnap.BuildVersion(t, testsnap.Env, 5, 1), 0o644); err != nil {
		t.Fatal(err)
	}
	addr, pid, _ := startHostProc(t, "--snapshots", dir, "--engine", "native", "--watch=false")
	c := newReloadClient(t, addr)
	data := testsnap.BuildVersion(t, testsnap.Env, 5, 2)
	writeAtomic(t, path, data)
	// A second snapshot appears too.
	if err := os.WriteFile(filepath.Join(dir, "other.snap"), testsnap.Build(t, "other", 3), 0o644); err != nil {
		t.Fatal(err)
	}
	if v := c.servedVersion(testsnap.Env); v == versionOf(t, data) {
		t.Fatalf("reloaded without watcher or SIGHUP")
	}
	if err := syscall.Kill(pid, syscall.SIGHUP); err != nil {
		t.Fatal(err)
	}
	await(t, "SIGHUP to reload", func() bool { return c.servedVersion(testsnap.Env) == versionOf(t, data) })
	if c.servedVersion("other") == "" {
		t.Errorf("the new environment does not serve after SIGHUP")
	}
}
