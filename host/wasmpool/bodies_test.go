package wasmpool

import (
	"bytes"
	"context"
	"io"
	"strings"
	"testing"

	"github.com/cdaedge/cdaedge/edge"
	"github.com/cdaedge/cdaedge/host/internal/testsnap"
	"github.com/cdaedge/cdaedge/snapshot"
	"github.com/cdaedge/cdaedge/wasm/wasmtest"
)

// flipReader reads a file with one byte flipped while flip is set.
type flipReader struct {
	file []byte
	at   int64
	flip bool
}

func (r *flipReader) ReadAt(p []byte, off int64) (int, error) {
	n, err := bytes.NewReader(r.file).ReadAt(p, off)
	if r.flip && r.at >= off && r.at < off+int64(n) {
		p[r.at-off] ^= 1
	}
	return n, err
}

// TestBodiesFromReader serves a snapshot whose item bodies the pool reads by range from
// the file (the host's OpenIndex), not from memory: answers are the native router's, a
// corrupt body block answers a 500 without costing the instance, and the next request
// is answered again.
func TestBodiesFromReader(t *testing.T) {
	file := testsnap.Build(t, env, 300)
	n, err := snapshot.IndexLen(file)
	if err != nil {
		t.Fatal(err)
	}
	reader := &flipReader{file: file, at: int64(len(file)) - 10}
	p, err := New(context.Background(), wasmtest.Module(t), []File{{Data: file[:n:n], Reader: reader}}, Options{Instances: 1, MemoryOnlyCache: true})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close(context.Background())
	native := nativeRouter(t, file)
	serve := func(req edge.Request) *edge.Response {
		t.Helper()
		resp, err := p.Serve(context.Background(), &req)
		if err != nil {
			t.Fatalf("%s %s: %v", req.Method, req.Path, err)
		}
		return resp
	}
	for _, req := range testsnap.Requests(env) {
		if got, want := serve(req), native.Serve(&req); !bytes.Equal(frame(got), frame(want)) {
			t.Errorf("%s %s?%s: wasm %d %.200s, native %d %.200s", req.Method, req.Path, req.RawQuery, got.Status, got.Body, want.Status, want.Body)
		}
	}

	// The last item's block, not cached yet (the requests above read the first pages).
	last := edge.Request{Method: "GET", Path: "/cda/rest/v1/" + env + "/contents", RawQuery: "sort=ContentID&sortAsc=false&pageSize=1"}
	reader.flip = true
	if got := serve(last); got.Status != 500 || !strings.Contains(string(got.Body), "failed their check") {
		t.Errorf("a corrupt body block: %d %s, want a 500 that says the bodies failed their check", got.Status, got.Body)
	}
	reader.flip = false
	if got, want := serve(last), native.Serve(&last); !bytes.Equal(frame(got), frame(want)) {
		t.Errorf("after a corrupt block: %d %.200s, want the native answer", got.Status, got.Body)
	}
	if f := p.Failures(); f != 0 {
		t.Errorf("%d instance failures, want none", f)
	}
}

// TestIndexFromReader serves a snapshot the host does not hold (Data nil, the host's
// --bodies=file): each instance reads the index part from the file straight into its
// memory, and the item bodies by range. An instance built later (replacing a failed
// one) reads the index part again, and refuses a file whose header changed since the
// pool was given it (a file rewritten in place, not verified), until it is back.
func TestIndexFromReader(t *testing.T) {
	file := testsnap.Build(t, env, 300)
	reader := &flipReader{file: file, at: 40} // a byte of the content hash
	p, err := New(context.Background(), wasmtest.Module(t), []File{{Reader: reader}}, Options{Instances: 1, MemoryOnlyCache: true})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close(context.Background())
	native := nativeRouter(t, file)
	check := func(when string) {
		t.Helper()
		for _, req := range testsnap.Requests(env) {
			got, err := p.Serve(context.Background(), &req)
			if err != nil {
				t.Fatalf("%s: %s %s: %v", when, req.Method, req.Path, err)
			}
			if want := native.Serve(&req); !bytes.Equal(frame(got), frame(want)) {
				t.Errorf("%s: %s %s?%s: wasm %d %.200s, native %d %.200s", when, req.Method, req.Path, req.RawQuery, got.Status, got.Body, want.Status, want.Body)
			}
		}
	}
	check("first instance")

	reader.flip = true
	breakIdleInstance(t, p)
	req := testsnap.Requests(env)[0]
	if _, err := p.Serve(context.Background(), &req); err == nil || !strings.Contains(err.Error(), "changed on disk") {
		t.Errorf("an instance built from a file whose header changed: %v, want an error that says it changed on disk", err)
	}
	reader.flip = false
	check("an instance built after the file came back")
	breakIdleInstance(t, p)
	check("a replacement instance")
}

var _ io.ReaderAt = (*flipReader)(nil)
