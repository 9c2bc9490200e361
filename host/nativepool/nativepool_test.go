package nativepool

import (
	"bytes"
	"context"
	"testing"

	"github.com/cdaedge/cdaedge/edge"
	"github.com/cdaedge/cdaedge/edge/router"
	"github.com/cdaedge/cdaedge/host/internal/testsnap"
	"github.com/cdaedge/cdaedge/snapshot"
)

// An answer's body is the caller's: the router that lent it answering again (the pool
// has one idle router here) leaves it as it was, and a body handed back is reused.
func TestAnswersOwnTheirBodies(t *testing.T) {
	snap, err := snapshot.Open(testsnap.Build(t, testsnap.Env, 12))
	if err != nil {
		t.Fatal(err)
	}
	p := New([]*snapshot.Snapshot{snap}, router.Options{})
	serve := func(query string) *edge.Response {
		t.Helper()
		resp, err := p.Serve(context.Background(), &edge.Request{Method: "GET", Path: "/cda/rest/v1/" + testsnap.Env + "/contents", RawQuery: query})
		if err != nil || resp.Status != 200 {
			t.Fatalf("Serve: %v, %+v", err, resp)
		}
		return resp
	}
	first := serve("pageSize=3")
	kept := bytes.Clone(first.Body)
	second := serve("pageSize=5&page=2")
	if !bytes.Equal(first.Body, kept) {
		t.Fatal("the second answer changed the first one's body")
	}
	if bytes.Equal(first.Body, second.Body) {
		t.Fatal("two different pages answered the same bytes")
	}
	p.RecycleBody(first.Body)
	third := serve("pageSize=3")
	if !bytes.Equal(third.Body, kept) {
		t.Fatal("an answer in a reused buffer differs from the same answer before")
	}
}
