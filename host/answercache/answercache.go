// Package answercache keeps the engine's recent answers in memory, so that a request
// asked again while the snapshots stay the same is answered without evaluating it again:
// the hot queries of a site (its home page's list, a popular search) then cost what
// serving stored bytes costs. It sits between the HTTP adapter and the engine, and is
// emptied whenever the served snapshot set changes.
//
// An answer depends only on the snapshot set and the request (API.md: the same bytes in
// every runtime), which is what makes it safe to keep: the key is the method, path,
// query string, body, and the request headers the router reads (edge.AnswerHeaders).
// Requests carrying credentials and answers marked private (preview environments) are
// never kept.
package answercache

import (
	"container/list"
	"context"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/cdaedge/cdaedge/edge"
)

// Engine answers edge requests (the wasm pool or the native routers).
type Engine interface {
	Serve(ctx context.Context, req *edge.Request) (*edge.Response, error)
}

// bodyRecycler is an Engine that reuses its answers' body buffers once handed back
// (the wasm and native pools).
type bodyRecycler interface {
	RecycleBody(body []byte)
}

// Cache is an Engine that answers from its memory when it can and asks next otherwise.
// It is safe for concurrent use.
type Cache struct {
	next     Engine
	recycler bodyRecycler // next, when it reuses its answers' buffers; nil otherwise
	maxBytes int64

	mu      sync.Mutex
	gen     uint64 // incremented by Purge: answers computed before it are not kept
	size    int64
	lru     list.List // of *entry, most recently used first
	entries map[string]*list.Element

	hits, misses atomic.Uint64
}

type entry struct {
	key  string
	resp *edge.Response
	size int64
}

// entryOverhead approximates the memory of an entry beyond its key, headers and body.
const entryOverhead = 256

// New returns a cache of at most maxBytes of answers in front of next. An answer larger
// than an eighth of maxBytes is not kept, so that one large answer does not empty the
// cache of the many small ones.
func New(next Engine, maxBytes int64) *Cache {
	c := &Cache{next: next, maxBytes: maxBytes, entries: map[string]*list.Element{}}
	c.recycler, _ = next.(bodyRecycler)
	return c
}

// Serve answers req from the cache, or from the engine (keeping the answer when it may
// be kept). A conditional request whose If-None-Match lists a kept answer's ETag gets
// 304, as the router would answer it.
func (c *Cache) Serve(ctx context.Context, req *edge.Request) (*edge.Response, error) {
	key, ok := keyOf(req)
	if !ok {
		return c.next.Serve(ctx, req)
	}
	if resp := c.get(key); resp != nil {
		c.hits.Add(1)
		resp.Headers = append(resp.Headers, edge.Header{Name: "Cache-Status", Value: statusHit})
		return conditional(resp, req), nil
	}
	c.misses.Add(1)
	c.mu.Lock()
	gen := c.gen
	c.mu.Unlock()
	resp, err := c.next.Serve(ctx, req)
	if err == nil && keepable(resp) {
		if kept := c.put(gen, key, resp); kept != nil && c.recycler != nil {
			// The answer goes out from the kept copy, as a hit's does, and the engine's
			// buffer, which nothing else holds, goes back to it. The Cache offers no
			// RecycleBody, so nothing it answers is handed back: a hit's body is the
			// cache's, and an answer it does not keep is left to the collector.
			c.recycler.RecycleBody(resp.Body)
			resp = clone(kept, false)
		}
		resp.Headers = append(resp.Headers, edge.Header{Name: "Cache-Status", Value: statusMiss})
	}
	return resp, err
}

// The Cache-Status header (RFC 9211) of answers that went through the cache: served
// from it, or computed by the engine and kept.
const (
	statusHit  = "cdaedge; hit"
	statusMiss = "cdaedge; fwd=miss; stored"
)

// Purge empties the cache; answers being computed now are not kept either. Call it once
// a new snapshot set serves (after the engine's swap returns).
func (c *Cache) Purge() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.gen++
	c.lru.Init()
	clear(c.entries)
	c.size = 0
}

// Stats are the cache's counters.
type Stats struct {
	Hits, Misses uint64
	Entries      int
	Bytes        int64
}

// Stats returns the cache's counters since it started.
func (c *Cache) Stats() Stats {
	c.mu.Lock()
	defer c.mu.Unlock()
	return Stats{Hits: c.hits.Load(), Misses: c.misses.Load(), Entries: len(c.entries), Bytes: c.size}
}

// get returns a copy of the answer kept under key (nil: none), as most recently used.
func (c *Cache) get(key string) *edge.Response {
	c.mu.Lock()
	defer c.mu.Unlock()
	el := c.entries[key]
	if el == nil {
		return nil
	}
	c.lru.MoveToFront(el)
	return clone(el.Value.(*entry).resp, false)
}

// put keeps a copy of resp under key, unless the cache was purged since gen, evicting the
// least recently used answers to stay within the size. It returns the copy, or nil
// when it keeps none.
func (c *Cache) put(gen uint64, key string, resp *edge.Response) *edge.Response {
	size := int64(len(key)+len(resp.Body)) + entryOverhead
	for _, h := range resp.Headers {
		size += int64(len(h.Name) + len(h.Value))
	}
	if size > c.maxBytes/8 {
		return nil
	}
	kept := clone(resp, true)
	c.mu.Lock()
	defer c.mu.Unlock()
	if gen != c.gen {
		return nil // computed on a snapshot set that no longer serves, perhaps
	}
	if old := c.entries[key]; old != nil {
		c.size -= old.Value.(*entry).size
		c.lru.Remove(old)
	}
	c.entries[key] = c.lru.PushFront(&entry{key: key, resp: kept, size: size})
	c.size += size
	for c.size > c.maxBytes {
		last := c.lru.Back()
		e := last.Value.(*entry)
		c.lru.Remove(last)
		delete(c.entries, e.key)
		c.size -= e.size
	}
	return kept
}

// clone copies resp's headers (the HTTP adapter edits the headers of the answer it gets:
// compression's Vary, the ETag's suffix) and, when deep, its body, which the adapter
// replaces but never writes into.
func clone(resp *edge.Response, deep bool) *edge.Response {
	out := &edge.Response{Status: resp.Status, Headers: append([]edge.Header(nil), resp.Headers...), Body: resp.Body}
	if deep && resp.Body != nil {
		out.Body = append([]byte(nil), resp.Body...)
	}
	return out
}

// keyOf is the cache key of req, and whether its answer may be kept at all: GET and POST
// requests without credentials.
func keyOf(req *edge.Request) (string, bool) {
	if req.Method != "GET" && req.Method != "POST" || edge.HeaderValue(req.Headers, "Authorization") != "" {
		return "", false
	}
	var b strings.Builder
	b.Grow(len(req.Method) + len(req.Path) + len(req.RawQuery) + len(req.Body) + 64)
	b.WriteString(req.Method)
	b.WriteByte(0)
	b.WriteString(req.Path)
	b.WriteByte('?')
	b.WriteString(req.RawQuery)
	for _, name := range edge.AnswerHeaders {
		b.WriteByte(0)
		b.WriteString(edge.HeaderValue(req.Headers, name))
	}
	b.WriteByte(0)
	b.Write(req.Body)
	return b.String(), true
}

// keepable reports whether resp may be kept: a success or a refused request (whose
// answer, too_complex after a whole work budget included, is as deterministic), not a
// 304 (it answers one client's validator), not an engine failure or overload, and not
// private.
func keepable(resp *edge.Response) bool {
	if resp.Status != 200 && resp.Status != 400 {
		return false
	}
	cc := edge.HeaderValue(resp.Headers, "Cache-Control")
	return !strings.Contains(cc, "private") && !strings.Contains(cc, "no-store")
}

// conditional is the answer to req from a kept answer: 304 with the same headers when
// its If-None-Match lists the answer's ETag (API.md D11).
func conditional(resp *edge.Response, req *edge.Request) *edge.Response {
	if resp.Status != 200 {
		return resp
	}
	inm := edge.HeaderValue(req.Headers, "If-None-Match")
	if inm != "" && edge.IfNoneMatch(inm, edge.HeaderValue(resp.Headers, "ETag")) {
		resp.Status = 304
		resp.Body = nil
	}
	return resp
}
