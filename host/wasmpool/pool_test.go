package wasmpool

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/cdaedge/cdaedge/edge"
	"github.com/cdaedge/cdaedge/edge/edgetest"
	"github.com/cdaedge/cdaedge/edge/router"
	"github.com/cdaedge/cdaedge/edge/wire"
	"github.com/cdaedge/cdaedge/host/internal/testsnap"
	"github.com/cdaedge/cdaedge/snapshot"
	"github.com/cdaedge/cdaedge/wasm/wasmtest"
)

const env = testsnap.Env

func newPool(t testing.TB, opts Options, snaps ...[]byte) *Pool {
	t.Helper()
	if len(snaps) == 0 {
		snaps = [][]byte{testsnap.Build(t, env, 12)}
	}
	if opts.Stderr == nil {
		w := &edgetest.SyncBuffer{}
		opts.Stderr = w
		t.Cleanup(func() {
			if out := w.String(); out != "" {
				t.Logf("guest stderr:\n%s", out)
			}
		})
	}
	p, err := New(context.Background(), wasmtest.Module(t), Whole(snaps...), opts)
	if err != nil {
		t.Fatalf("new pool: %v", err)
	}
	t.Cleanup(func() {
		if err := p.Close(context.Background()); err != nil {
			t.Errorf("close pool: %v", err)
		}
	})
	return p
}

func nativeRouter(t testing.TB, snaps ...[]byte) *router.Router {
	t.Helper()
	r := router.New(router.Options{})
	for _, b := range snaps {
		s, err := snapshot.Open(b)
		if err != nil {
			t.Fatalf("open snapshot: %v", err)
		}
		r.Load(s)
	}
	return r
}

// frame compares responses byte for byte, through their canonical wire form.
func frame(r *edge.Response) []byte { return wire.AppendResponse(nil, r) }

func TestServeMatchesNativeRouter(t *testing.T) {
	snap := testsnap.Build(t, env, 12)
	p := newPool(t, Options{Instances: 2}, snap)
	native := nativeRouter(t, snap)
	for _, req := range testsnap.Requests(env) {
		got, err := p.Serve(context.Background(), &req)
		if err != nil {
			t.Fatalf("%s %s: %v", req.Method, req.Path, err)
		}
		want := native.Serve(&req)
		if !bytes.Equal(frame(got), frame(want)) {
			t.Errorf("%s %s?%s:\nwasm   %d %v %s\nnative %d %v %s", req.Method, req.Path, req.RawQuery,
				got.Status, got.Headers, got.Body, want.Status, want.Headers, want.Body)
		}
	}
}

func TestServesContent(t *testing.T) {
	if testsnap.Stub() {
		t.Skip("snapshot package is still the stub")
	}
	p := newPool(t, Options{Instances: 1})
	req := edge.Request{Method: "GET", Path: "/cda/rest/v1/" + env + "/contents/" + testsnap.ContentID(3)}
	resp, err := p.Serve(context.Background(), &req)
	if err != nil {
		t.Fatal(err)
	}
	if resp.Status != 200 || !bytes.Contains(resp.Body, []byte(testsnap.ContentID(3))) {
		t.Errorf("got %d %s", resp.Status, resp.Body)
	}
}

// TestMemorySizes: one size per instance, each instance given back afterwards (the slot
// channel has room for twice as many tokens as instances, so counting its capacity
// waited for ever).
func TestMemorySizes(t *testing.T) {
	p := newPool(t, Options{Instances: 2})
	sizes := p.MemorySizes()
	if len(sizes) != 2 || sizes[0] == 0 || sizes[1] == 0 {
		t.Fatalf("sizes %v, want two non-zero", sizes)
	}
	req := edge.Request{Method: "GET", Path: "/cda/rest/v1/" + env + "/contents"}
	if _, err := p.Serve(context.Background(), &req); err != nil {
		t.Fatal(err)
	}
}

// TestGuestOutOfMemoryReplacesInstance makes the guest die for real: with a memory cap,
// allocating a huge request buffer kills the Go runtime inside the instance.
func TestGuestOutOfMemoryReplacesInstance(t *testing.T) {
	p := newPool(t, Options{Instances: 1, MemoryLimitPages: 1024}) // 64 MiB
	huge := edge.Request{Method: "POST", Path: "/cda/search/v1/" + env, Body: make([]byte, 80<<20)}
	if _, err := p.Serve(context.Background(), &huge); err == nil {
		t.Fatal("a request larger than the guest's memory succeeded")
	} else {
		t.Logf("expected failure: %v", err)
	}
	assertServes(t, p)
}

// TestClosedInstanceIsReplaced breaks an idle instance under the pool.
func TestClosedInstanceIsReplaced(t *testing.T) {
	p := newPool(t, Options{Instances: 1})
	breakIdleInstance(t, p)
	assertServes(t, p)
	assertServes(t, p)
}

// breakIdleInstance closes the module of an idle instance of p under the pool, and
// checks that the next request, which it takes, fails: the pool then builds a new one.
func breakIdleInstance(t *testing.T, p *Pool) {
	t.Helper()
	in := p.takeSlot()
	in.closeModule()
	p.putSlot(in)
	req := testsnap.Requests(env)[0]
	if _, err := p.Serve(context.Background(), &req); err == nil {
		t.Fatal("a closed instance answered")
	}
}

func assertServes(t *testing.T, p *Pool) {
	t.Helper()
	req := testsnap.Requests(env)[0]
	resp, err := p.Serve(context.Background(), &req)
	if err != nil {
		t.Fatalf("serve after a failure: %v", err)
	}
	if want := nativeRouter(t, testsnap.Build(t, env, 12)).Serve(&req); !bytes.Equal(frame(resp), frame(want)) {
		t.Fatalf("got %d %s, want %d %s", resp.Status, resp.Body, want.Status, want.Body)
	}
}

func TestConcurrentServe(t *testing.T) {
	snap := testsnap.Build(t, env, 12)
	p := newPool(t, Options{Instances: 2}, snap)
	reqs := testsnap.Requests(env)
	native := nativeRouter(t, snap)
	want := make([][]byte, len(reqs))
	for i := range reqs {
		want[i] = frame(native.Serve(&reqs[i]))
	}
	var wg sync.WaitGroup
	errs := make(chan error, 32)
	for g := range 32 {
		wg.Go(func() {
			for i := range 40 {
				k := (g + i) % len(reqs)
				resp, err := p.Serve(context.Background(), &reqs[k])
				if err != nil {
					errs <- err
					return
				}
				if !bytes.Equal(frame(resp), want[k]) {
					errs <- fmt.Errorf("request %d: got %d %s", k, resp.Status, resp.Body)
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

func TestServeWaitsWithContext(t *testing.T) {
	p := newPool(t, Options{Instances: 1})
	in := p.takeSlot() // the only instance is busy
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	req := testsnap.Requests(env)[0]
	if _, err := p.Serve(ctx, &req); !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v, want context.Canceled", err)
	}
	p.putSlot(in)
	assertServes(t, p)
}

func TestClose(t *testing.T) {
	p := newPool(t, Options{Instances: 2})
	if err := p.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	req := testsnap.Requests(env)[0]
	if _, err := p.Serve(context.Background(), &req); !errors.Is(err, ErrClosed) {
		t.Fatalf("got %v, want ErrClosed", err)
	}
}

func TestRejectsForeignModule(t *testing.T) {
	empty := []byte("\x00asm\x01\x00\x00\x00") // a valid module with no exports
	_, err := New(context.Background(), empty, nil, Options{Instances: 1, MemoryOnlyCache: true})
	if err == nil || !strings.Contains(err.Error(), "no export") {
		t.Fatalf("got %v", err)
	}
}

func TestRejectsBadSnapshot(t *testing.T) {
	if testsnap.Stub() {
		t.Skip("snapshot package is still the stub")
	}
	_, err := New(context.Background(), wasmtest.Module(t), Whole([]byte("garbage")), Options{Instances: 1})
	if err == nil || !strings.Contains(err.Error(), "load snapshot 0") {
		t.Fatalf("got %v", err)
	}
	t.Logf("expected failure: %v", err)
}

// handler is edgetest.Handler, for the conformance harness.
type handler interface {
	Serve(*edge.Request) (*edge.Response, error)
}

var _ handler = Bound{}

func BenchmarkInstantiate(b *testing.B) {
	p := newPool(b, Options{Instances: 1})
	g := p.gen.Load()
	b.ResetTimer()
	for b.Loop() {
		in, err := g.newInstance(context.Background())
		if err != nil {
			b.Fatal(err)
		}
		in.close()
	}
}

func BenchmarkServe(b *testing.B) {
	snap := testsnap.Build(b, env, 12)
	req := edge.Request{Method: "GET", Path: "/cda/rest/v1/" + env + "/contents/" + testsnap.ContentID(3)}
	b.Run("native", func(b *testing.B) {
		r := nativeRouter(b, snap)
		b.ReportAllocs()
		for b.Loop() {
			_ = frame(r.Serve(&req)) // the same copy-out the pool does
		}
	})
	b.Run("wasm", func(b *testing.B) {
		p := newPool(b, Options{Instances: 1}, snap)
		b.ReportAllocs()
		for b.Loop() {
			if _, err := p.Serve(context.Background(), &req); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("wasm-notimeout", func(b *testing.B) {
		p := newPool(b, Options{Instances: 1, CallTimeout: -1}, snap)
		b.ReportAllocs()
		for b.Loop() {
			if _, err := p.Serve(context.Background(), &req); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("wasm-parallel-notimeout", func(b *testing.B) {
		p := newPool(b, Options{CallTimeout: -1}, snap)
		b.ReportAllocs()
		b.ResetTimer()
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				if _, err := p.Serve(context.Background(), &req); err != nil {
					b.Fatal(err)
				}
			}
		})
	})
	b.Run("wasm-parallel", func(b *testing.B) {
		p := newPool(b, Options{}, snap)
		b.ReportAllocs()
		b.ResetTimer()
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				if _, err := p.Serve(context.Background(), &req); err != nil {
					b.Fatal(err)
				}
			}
		})
	})
}

// An answer's body is out of guest memory and the caller's: the instance answering
// again leaves it as it was, and a body handed back (RecycleBody) is reused.
func TestAnswersOwnTheirBodies(t *testing.T) {
	testsnap.CheckAnswersOwnTheirBodies(t, newPool(t, Options{Instances: 1}))
}
