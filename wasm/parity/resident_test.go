package parity

import (
	"context"
	"os"
	"testing"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/imports/wasi_snapshot_preview1"
)

// TestTinyGoResidentBuffer: a buffer from alloc of a snapshot index's size is a resident
// allocation of the patched TinyGo runtime (wasm/tinygo/gc-resident.patch), so the heap
// grows with the garbage that requests make, not with the buffer: with 64 MiB held and
// 256 MiB of short-lived buffers churned through, the memory stays near 64 MiB, where
// TinyGo's own rule (a third of the whole heap free after a collection, else double the
// memory) took it to 128 MiB and more. Sizes, not times: the collector is deterministic.
func TestTinyGoResidentBuffer(t *testing.T) {
	module, err := os.ReadFile(tinyGoModule(t))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	rt := wazero.NewRuntime(ctx)
	defer rt.Close(ctx)
	wasi_snapshot_preview1.MustInstantiate(ctx, rt)
	mod, err := rt.InstantiateWithConfig(ctx, module, wazero.NewModuleConfig().WithStartFunctions("_initialize"))
	if err != nil {
		t.Fatal(err)
	}
	alloc, dealloc := mod.ExportedFunction("alloc"), mod.ExportedFunction("dealloc")
	const held, churn, each = 64 << 20, 256 << 20, 256 << 10
	if _, err := alloc.Call(ctx, held); err != nil { // kept until the instance ends
		t.Fatal(err)
	}
	for range churn / each {
		p, err := alloc.Call(ctx, each)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := dealloc.Call(ctx, p[0], each); err != nil {
			t.Fatal(err)
		}
	}
	size := mod.Memory().Size()
	t.Logf("wasm memory %d MiB holding %d MiB", size>>20, held>>20)
	if limit := uint32(held + held/4); size > limit {
		t.Fatalf("wasm memory %d MiB holding a %d MiB buffer: the heap grew around it (limit %d MiB)", size>>20, held>>20, limit>>20)
	}
}
