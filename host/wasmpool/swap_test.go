package wasmpool

import (
	"context"
	"regexp"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/cdaedge/cdaedge/edge"
	"github.com/cdaedge/cdaedge/host/internal/testsnap"
)

// TestSwapKeepsAnswersWhole swaps generations while requests run: every answer is
// whole and from one version, and a version never goes back for a sequential client.
func TestSwapKeepsAnswersWhole(t *testing.T) {
	p := newPool(t, Options{Instances: 2}, testsnap.BuildVersion(t, env, 20, 0))
	req := &edge.Request{Method: "GET", Path: "/cda/rest/v1/" + env + "/contents", RawQuery: "pageSize=20"}
	var stop atomic.Bool
	var wg sync.WaitGroup
	versionRE := regexp.MustCompile(`"version":(\d+)`)
	for range 3 {
		wg.Go(func() {
			prev := ""
			for i := 0; !stop.Load() && i < 100000; i++ {
				resp, err := p.Serve(context.Background(), req)
				if err != nil || resp.Status != 200 {
					t.Errorf("serve: %v %v", err, resp)
					return
				}
				vs := versionRE.FindAllSubmatch(resp.Body, -1)
				if len(vs) != 20 {
					t.Errorf("got %d items", len(vs))
					return
				}
				for _, v := range vs {
					if string(v[1]) != string(vs[0][1]) {
						t.Errorf("mixed versions %s and %s", v[1], vs[0][1])
						return
					}
				}
				if v := string(vs[0][1]); len(v) < len(prev) || len(v) == len(prev) && v < prev {
					t.Errorf("version %s after %s", v, prev)
					return
				} else {
					prev = v
				}
			}
		})
	}
	for v := 1; v <= 10; v++ {
		if err := p.Swap(context.Background(), Whole(testsnap.BuildVersion(t, env, 20, v))); err != nil {
			t.Fatal(err)
		}
	}
	if err := p.Swap(context.Background(), Whole([]byte("not a snapshot"))); err == nil {
		t.Errorf("a bad snapshot was installed")
	}
	stop.Store(true)
	wg.Wait()
	resp, err := p.Serve(context.Background(), req)
	if err != nil || !regexp.MustCompile(`"version":10\b`).Match(resp.Body) {
		t.Errorf("after the swaps: %v %s", err, resp.Body)
	}
}
