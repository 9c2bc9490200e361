package wasmpool

import (
	"context"
	"testing"

	"github.com/cdaedge/cdaedge/edge/edgetest"
)

// TestConformance runs the shared conformance tables against the wasm pool: every case
// must be answered exactly as the native router answers it.
func TestConformance(t *testing.T) {
	p := newPool(t, Options{Instances: 2, Router: edgetest.NativeOptions()}, edgetest.Snapshots(t)...)
	edgetest.RunConformance(t, p.Bind(context.Background()))
}
