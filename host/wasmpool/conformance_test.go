package wasmpool

import (
	"context"
	"testing"

	"github.com/cdaedge/cdaedge/edge/edgetest"
)

// TestConformance runs the shared conformance tables against the wasm pool: every case
// must be answered exactly as the native router answers it.
func TestConformance(t *testing.T) {
	snaps := [][]byte{edgetest.DemoSnapshot(t), edgetest.DemoPreviewSnapshot(t)}
	p := newPool(t, Options{Instances: 2, Router: edgetest.NativeOptions()}, snaps...)
	edgetest.RunConformance(t, p.Bind(context.Background()))
}
