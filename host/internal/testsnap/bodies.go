package testsnap

import (
	"bytes"
	"context"
	"testing"

	"github.com/cdaedge/cdaedge/edge"
)

// BodyPool is an engine whose answers' bodies are the caller's, with buffers it reuses
// once handed back (the wasm and native pools).
type BodyPool interface {
	Serve(ctx context.Context, req *edge.Request) (*edge.Response, error)
	RecycleBody(body []byte)
}

// CheckAnswersOwnTheirBodies checks that an answer's body of p (serving the snapshot
// of Build under Env) is the caller's: the engine answering again leaves it as it was,
// and a body handed back is reused without changing the next answer.
func CheckAnswersOwnTheirBodies(t *testing.T, p BodyPool) {
	t.Helper()
	serve := func(query string) *edge.Response {
		t.Helper()
		resp, err := p.Serve(context.Background(), &edge.Request{Method: "GET", Path: "/cda/rest/v1/" + Env + "/contents", RawQuery: query})
		if err != nil || resp.Status != 200 {
			t.Fatalf("Serve: %v, %+v", err, resp)
		}
		return resp
	}
	first := serve("pageSize=3")
	kept := bytes.Clone(first.Body)
	second := serve("pageSize=5&page=2")
	if !bytes.Equal(first.Body, kept) || bytes.Equal(first.Body, second.Body) {
		t.Fatal("the second answer changed the first one's body, or answered the same bytes")
	}
	p.RecycleBody(first.Body)
	if third := serve("pageSize=3"); !bytes.Equal(third.Body, kept) {
		t.Fatal("an answer in a reused buffer differs from the same answer before")
	}
}
