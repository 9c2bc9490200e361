package wasmpool

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/cdaedge/cdaedge/edge"
	"github.com/cdaedge/cdaedge/host/internal/testsnap"
)

// TestQueueTimeoutAnswersUnavailable: with every instance busy, a request waits at
// most QueueTimeout and gets an `unavailable` error (503), not an unbounded wait.
func TestQueueTimeoutAnswersUnavailable(t *testing.T) {
	p := newPool(t, Options{Instances: 1, QueueTimeout: 50 * time.Millisecond, ReplaceBusyAfter: -1})
	in := p.takeSlot()
	req := testsnap.Requests(env)[0]
	_, err := p.Serve(context.Background(), &req)
	var e *edge.Error
	if !errors.As(err, &e) || e.Code != edge.CodeUnavailable {
		t.Fatalf("Serve with every instance busy = %v, want an unavailable error", err)
	}
	p.putSlot(in)
	assertServes(t, p)
}

// TestBusyInstanceIsNotWaitedOn: a call holding its instance past ReplaceBusyAfter
// gives its slot to a fresh instance, so the next request is answered while it still
// runs; the busy call's own answer still arrives.
func TestBusyInstanceIsNotWaitedOn(t *testing.T) {
	p := newPool(t, Options{Instances: 1, QueueTimeout: -1, ReplaceBusyAfter: 20 * time.Millisecond})
	release := make(chan struct{})
	var once sync.Once
	entered := make(chan struct{})
	p.setBeforeCall(func() {
		first := false
		once.Do(func() { first = true })
		if first {
			close(entered)
			<-release
		}
	})
	req := testsnap.Requests(env)[0]
	slow := make(chan error, 1)
	go func() {
		resp, err := p.Serve(context.Background(), &req)
		if err == nil && resp.Status != 200 {
			err = fmt.Errorf("status %d", resp.Status)
		}
		slow <- err
	}()
	<-entered
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	resp, err := p.Serve(ctx, &req)
	if err != nil || resp.Status != 200 {
		t.Fatalf("request behind a busy instance: %v %v", err, resp)
	}
	close(release)
	if err := <-slow; err != nil {
		t.Fatalf("the busy request: %v", err)
	}
	for range 3 {
		assertServes(t, p)
	}
}
