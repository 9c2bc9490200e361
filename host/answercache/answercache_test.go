package answercache

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/cdaedge/cdaedge/edge"
	"github.com/cdaedge/cdaedge/edge/edgetest"
)

// TestConformanceThroughCache replays every conformance case through the cache twice,
// in front of the native router: the first answer (computed) and the second (kept) are
// the native router's answer byte for byte, apart from Cache-Status.
func TestConformanceThroughCache(t *testing.T) {
	native := edgetest.NativeHandler(t)
	cache := New(engineFunc(func(_ context.Context, req *edge.Request) (*edge.Response, error) {
		return native.Serve(req)
	}), 256<<20)
	edgetest.RunConformance(t, edgetest.HandlerFunc(func(req *edge.Request) (*edge.Response, error) {
		first, err := cache.Serve(context.Background(), req)
		if err != nil {
			return nil, err
		}
		first = withoutCacheStatus(first)
		again, err := cache.Serve(context.Background(), req)
		if err != nil {
			return nil, err
		}
		again = withoutCacheStatus(again)
		if first.Status != again.Status || !bytes.Equal(first.Body, again.Body) || !slices.Equal(first.Headers, again.Headers) {
			return nil, fmt.Errorf("asked again: %d %v %q, first %d %v %q", again.Status, again.Headers, again.Body, first.Status, first.Headers, first.Body)
		}
		return again, nil
	}))
	if st := cache.Stats(); st.Hits == 0 || st.Entries == 0 {
		t.Fatalf("the cache kept nothing: %+v", st)
	}
}

func withoutCacheStatus(resp *edge.Response) *edge.Response {
	out := *resp
	out.Headers = slices.DeleteFunc(slices.Clone(resp.Headers), func(h edge.Header) bool { return h.Name == "Cache-Status" })
	return &out
}

type engineFunc func(ctx context.Context, req *edge.Request) (*edge.Response, error)

func (f engineFunc) Serve(ctx context.Context, req *edge.Request) (*edge.Response, error) {
	return f(ctx, req)
}

// counting is an engine answering every request with its own body and ETag, counting calls.
type counting struct {
	calls  int
	status int
	cc     string
	during func() // runs inside each call
}

func (c *counting) Serve(_ context.Context, req *edge.Request) (*edge.Response, error) {
	c.calls++
	if c.during != nil {
		c.during()
	}
	status := c.status
	if status == 0 {
		status = 200
	}
	body := []byte(fmt.Sprintf("%s %s?%s %s #%d", req.Method, req.Path, req.RawQuery, req.Body, c.calls))
	hs := []edge.Header{{Name: "ETag", Value: `"e1"`}}
	if c.cc != "" {
		hs = append(hs, edge.Header{Name: "Cache-Control", Value: c.cc})
	}
	return &edge.Response{Status: status, Headers: hs, Body: body}, nil
}

func get(path string, headers ...edge.Header) *edge.Request {
	return &edge.Request{Method: "GET", Path: path, Headers: headers}
}

// TestKeeps: which requests and answers are kept, and what a kept answer answers.
func TestKeeps(t *testing.T) {
	accept := func(v string) edge.Header { return edge.Header{Name: "accept", Value: v} }
	for _, tc := range []struct {
		name         string
		engine       counting
		first, again *edge.Request
		calls        int // engine calls for both
		againStatus  int
	}{
		{"the same request twice", counting{}, get("/a"), get("/a"), 1, 200},
		{"another path", counting{}, get("/a"), get("/b"), 2, 200},
		{"another query", counting{}, &edge.Request{Method: "GET", Path: "/a", RawQuery: "x=1"}, &edge.Request{Method: "GET", Path: "/a", RawQuery: "x=2"}, 2, 200},
		{"another body", counting{}, &edge.Request{Method: "POST", Path: "/a", Body: []byte("1")}, &edge.Request{Method: "POST", Path: "/a", Body: []byte("2")}, 2, 200},
		{"GET and POST apart", counting{}, get("/a"), &edge.Request{Method: "POST", Path: "/a"}, 2, 200},
		{"another Accept", counting{}, get("/a", accept("application/json")), get("/a", accept("application/graphql-response+json")), 2, 200},
		{"a header the router does not read", counting{}, get("/a", edge.Header{Name: "user-agent", Value: "x"}), get("/a", edge.Header{Name: "user-agent", Value: "y"}), 1, 200},
		{"credentials are never kept", counting{}, get("/a", edge.Header{Name: "authorization", Value: "Bearer t"}), get("/a", edge.Header{Name: "authorization", Value: "Bearer t"}), 2, 200},
		{"private answers are not kept", counting{cc: "private, no-store"}, get("/a"), get("/a"), 2, 200},
		{"a refused request is kept", counting{status: 400}, get("/a"), get("/a"), 1, 400},
		{"a failure is not kept", counting{status: 500}, get("/a"), get("/a"), 2, 500},
		{"overload is not kept", counting{status: 503}, get("/a"), get("/a"), 2, 503},
		{"OPTIONS is not kept", counting{}, &edge.Request{Method: "OPTIONS", Path: "/a"}, &edge.Request{Method: "OPTIONS", Path: "/a"}, 2, 200},
		{"a matching If-None-Match gets 304", counting{}, get("/a"), get("/a", edge.Header{Name: "if-none-match", Value: `"x", W/"e1"`}), 1, 304},
		{"another If-None-Match gets the answer", counting{}, get("/a"), get("/a", edge.Header{Name: "if-none-match", Value: `"x"`}), 1, 200},
	} {
		t.Run(tc.name, func(t *testing.T) {
			eng := tc.engine
			c := New(&eng, 1<<20)
			first, _ := c.Serve(context.Background(), tc.first)
			again, _ := c.Serve(context.Background(), tc.again)
			if eng.calls != tc.calls || again.Status != tc.againStatus {
				t.Fatalf("engine calls %d, second status %d; want %d, %d", eng.calls, again.Status, tc.calls, tc.againStatus)
			}
			if tc.calls == 1 && tc.againStatus != 304 && !bytes.Equal(first.Body, again.Body) {
				t.Fatalf("kept answer %q differs from the first %q", again.Body, first.Body)
			}
			if tc.againStatus == 304 && again.Body != nil {
				t.Fatalf("304 with a body: %q", again.Body)
			}
		})
	}
}

// TestKeptAnswerIsACopy: what the HTTP adapter does to an answer (adding headers,
// editing the ETag, replacing the body) does not change the kept one.
func TestKeptAnswerIsACopy(t *testing.T) {
	c := New(&counting{}, 1<<20)
	for range 2 {
		resp, _ := c.Serve(context.Background(), get("/a"))
		resp.Headers[0].Value = `"e1-gzip"`
		resp.Headers = append(resp.Headers, edge.Header{Name: "Vary", Value: "Accept-Encoding"})
		resp.Body = []byte("compressed")
	}
	resp, _ := c.Serve(context.Background(), get("/a"))
	if got := edge.HeaderValue(resp.Headers, "ETag"); got != `"e1"` || edge.HeaderValue(resp.Headers, "Vary") != "" || string(resp.Body) != "GET /a?  #1" {
		t.Fatalf("kept answer changed: %v %q", resp.Headers, resp.Body)
	}
}

// TestPurge: after Purge nothing kept is served, and an answer computed while the purge
// happened (perhaps on the snapshot set being replaced) is not kept.
func TestPurge(t *testing.T) {
	eng := &counting{}
	c := New(eng, 1<<20)
	c.Serve(context.Background(), get("/a"))
	c.Purge()
	eng.during = c.Purge
	c.Serve(context.Background(), get("/a")) // computed across a purge: not kept
	eng.during = nil
	c.Serve(context.Background(), get("/a"))
	if eng.calls != 3 {
		t.Fatalf("engine calls %d, want 3", eng.calls)
	}
	if st := c.Stats(); st.Entries != 1 || st.Hits != 0 || st.Misses != 3 {
		t.Fatalf("stats %+v, want one entry, no hit, three misses", st)
	}
}

// TestBounded: the cache stays within its size, evicting the least recently used
// answers, and does not keep an answer over an eighth of it.
func TestBounded(t *testing.T) {
	eng := &counting{}
	c := New(eng, 8<<10)
	for i := range 200 {
		c.Serve(context.Background(), get(fmt.Sprintf("/item/%d", i)))
		c.Serve(context.Background(), get("/hot")) // used all along: never evicted
		if st := c.Stats(); st.Bytes > 8<<10 {
			t.Fatalf("after %d answers the cache holds %d bytes, over its 8 KiB", i, st.Bytes)
		}
	}
	if eng.calls != 201 {
		t.Fatalf("engine calls %d, want 201 (the hot answer kept throughout)", eng.calls)
	}
	big := &edge.Request{Method: "POST", Path: "/big", Body: bytes.Repeat([]byte("x"), 2<<10)}
	c.Serve(context.Background(), big)
	c.Serve(context.Background(), big)
	if eng.calls != 203 {
		t.Fatalf("an answer over an eighth of the cache was kept (engine calls %d)", eng.calls)
	}
}

// recycling answers every request with a fresh buffer of its own and records the
// buffers handed back.
type recycling struct {
	cc       string
	recycled [][]byte
}

func (e *recycling) Serve(_ context.Context, req *edge.Request) (*edge.Response, error) {
	return &edge.Response{Status: 200, Headers: []edge.Header{{Name: "Cache-Control", Value: e.cc}},
		Body: []byte(`{"answer":"` + req.RawQuery + `"}`)}, nil
}

func (e *recycling) RecycleBody(b []byte) {
	clear(b) // as the next answer would overwrite it
	e.recycled = append(e.recycled, b)
}

// A kept answer goes out from the cache's copy and the engine's buffer goes back to it;
// an answer the cache does not keep goes out in the engine's buffer, which the cache
// does not hand back (the HTTP adapter sees no RecycleBody on the cache), and a hit
// hands back nothing.
func TestEngineBuffersGoBackOnlyWhenCopied(t *testing.T) {
	for _, tc := range []struct {
		cc       string
		recycled int
	}{{"public, max-age=60", 1}, {"private, no-store", 0}} {
		e := &recycling{cc: tc.cc}
		c := New(e, 1<<20)
		if _, ok := any(c).(interface{ RecycleBody([]byte) }); ok {
			t.Fatal("the cache offers RecycleBody: its hits' bodies would be reused under it")
		}
		req := &edge.Request{Method: "GET", Path: "/cda/rest/v1/env/contents", RawQuery: "page=2"}
		for range 2 {
			resp, err := c.Serve(context.Background(), req)
			if err != nil || string(resp.Body) != `{"answer":"page=2"}` {
				t.Fatalf("%s: got %q, %v", tc.cc, resp.Body, err)
			}
		}
		if len(e.recycled) != tc.recycled {
			t.Fatalf("%s: %d buffers handed back, want %d", tc.cc, len(e.recycled), tc.recycled)
		}
	}
}
