// Package nativepool answers edge requests with native routers: one router.Router per
// concurrent request, all reading the same snapshots (which are safe for concurrent
// reads). It is the reference the wasm pool is compared with.
package nativepool

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/cdaedge/cdaedge/edge"
	"github.com/cdaedge/cdaedge/edge/router"
	"github.com/cdaedge/cdaedge/host/bodybuf"
	"github.com/cdaedge/cdaedge/snapshot"
)

// ErrClosed is returned by Serve and Swap after Close.
var ErrClosed = errors.New("nativepool: pool closed")

// Pool hands each request a router of its own. It is safe for concurrent use.
type Pool struct {
	opts     router.Options
	set      atomic.Pointer[set]
	failures atomic.Uint64
	bodies   bodybuf.Pool // the answers' bodies, copied out of the routers' (RecycleBody)
}

// set is the routers of one snapshot set. A request keeps the set it started with, so
// swapping sets never mixes two versions in one answer.
type set struct {
	snaps []*snapshot.Snapshot
	mu    sync.Mutex
	idle  []*router.Router
	busy  atomic.Int64
}

// New returns a pool of routers serving snaps with opts.
func New(snaps []*snapshot.Snapshot, opts router.Options) *Pool {
	// Serve copies each body out of its router into a buffer of p.bodies, which the
	// HTTP handler reuses: a copy, where the router's own copy was a fresh allocation.
	opts.LendBodies = true
	p := &Pool{opts: opts}
	p.set.Store(&set{snaps: snaps})
	return p
}

// Swap makes snaps the served snapshot set atomically; requests in flight finish with
// the set they started with.
func (p *Pool) Swap(_ context.Context, snaps []*snapshot.Snapshot) error {
	for {
		old := p.set.Load()
		if old == nil {
			return ErrClosed
		}
		if p.set.CompareAndSwap(old, &set{snaps: snaps}) {
			return nil
		}
	}
}

// Size returns the number of routers: the idle ones plus those answering a request.
func (p *Pool) Size() int {
	s := p.set.Load()
	if s == nil {
		return 0
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.idle) + int(s.busy.Load())
}

// Failures returns how many requests made a router panic (it never should).
func (p *Pool) Failures() uint64 { return p.failures.Load() }

func (p *Pool) get(s *set) *router.Router {
	s.busy.Add(1)
	s.mu.Lock()
	if n := len(s.idle); n > 0 {
		r := s.idle[n-1]
		s.idle = s.idle[:n-1]
		s.mu.Unlock()
		return r
	}
	s.mu.Unlock()
	r := router.New(p.opts)
	for _, snap := range s.snaps {
		r.Load(snap)
	}
	return r
}

func (s *set) put(r *router.Router) {
	s.mu.Lock()
	s.idle = append(s.idle, r)
	s.mu.Unlock()
	s.busy.Add(-1)
}

// Serve answers req. A router that panics (it never should) is dropped and the panic
// becomes an error.
func (p *Pool) Serve(ctx context.Context, req *edge.Request) (resp *edge.Response, err error) {
	s := p.set.Load()
	if s == nil {
		return nil, ErrClosed
	}
	r := p.get(s)
	defer func() {
		if v := recover(); v != nil {
			s.busy.Add(-1)
			p.failures.Add(1)
			resp, err = nil, fmt.Errorf("router panic: %v", v)
			return
		}
		s.put(r)
	}()
	resp = r.Serve(req)
	if len(resp.Body) > 0 { // lent by the router until it answers again: copied out first
		resp.Body = append(p.bodies.Get(len(resp.Body)), resp.Body...)
	}
	return resp, nil
}

// RecycleBody hands back the body of an answer of Serve once it is written, for a later
// answer's body to reuse its buffer. The caller must not use body afterwards, nor hand
// back a body that anything else still holds (an answer cache's entry).
func (p *Pool) RecycleBody(body []byte) { p.bodies.Put(body) }

// Close drops the routers; later Serve calls return ErrClosed.
func (p *Pool) Close(ctx context.Context) error {
	p.set.Store(nil)
	return nil
}
