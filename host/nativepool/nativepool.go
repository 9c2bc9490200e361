// Package nativepool answers edge requests with native routers: one edge.Router per
// concurrent request, all reading the same snapshots (which are safe for concurrent
// reads). It is the reference the wasm pool is compared with.
package nativepool

import (
	"context"
	"fmt"
	"sync"

	"github.com/cdaedge/cdaedge/edge"
	"github.com/cdaedge/cdaedge/snapshot"
)

// Pool hands each request a router of its own. It is safe for concurrent use.
type Pool struct {
	opts  edge.Options
	snaps []*snapshot.Snapshot

	mu   sync.Mutex
	idle []*edge.Router
}

// New returns a pool of routers serving snaps with opts.
func New(snaps []*snapshot.Snapshot, opts edge.Options) *Pool {
	return &Pool{opts: opts, snaps: snaps}
}

func (p *Pool) get() *edge.Router {
	p.mu.Lock()
	if n := len(p.idle); n > 0 {
		r := p.idle[n-1]
		p.idle = p.idle[:n-1]
		p.mu.Unlock()
		return r
	}
	p.mu.Unlock()
	r := edge.NewRouter(p.opts)
	for _, s := range p.snaps {
		r.Load(s)
	}
	return r
}

func (p *Pool) put(r *edge.Router) {
	p.mu.Lock()
	p.idle = append(p.idle, r)
	p.mu.Unlock()
}

// Serve answers req. A router that panics (it never should) is dropped and the panic
// becomes an error.
func (p *Pool) Serve(ctx context.Context, req *edge.Request) (resp *edge.Response, err error) {
	r := p.get()
	defer func() {
		if v := recover(); v != nil {
			resp, err = nil, fmt.Errorf("router panic: %v", v)
			return
		}
		p.put(r)
	}()
	return r.Serve(req), nil
}

// Close drops the idle routers.
func (p *Pool) Close(ctx context.Context) error {
	p.mu.Lock()
	p.idle = nil
	p.mu.Unlock()
	return nil
}
