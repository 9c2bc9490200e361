package wasmpool

import (
	"context"
	"strings"
	"testing"

	"github.com/cdaedge/cdaedge/host/internal/testsnap"
	"github.com/cdaedge/cdaedge/snapshot"
)

// TestVerifyIsSeparateFromLoad: load_snapshot does not checksum (the host verifies a file
// once, natively, before instances get it), and the module's verify_snapshot export
// refuses a file whose bytes changed, with the reader's message.
func TestVerifyIsSeparateFromLoad(t *testing.T) {
	good := testsnap.Build(t, env, 12)
	s, err := snapshot.Open(good)
	if err != nil {
		t.Fatal(err)
	}
	flipped := append([]byte(nil), good...)
	flipped[s.Sections()[1].Offset] ^= 1 // a byte of the first item
	if snapshot.Verify(flipped) == nil {
		t.Fatal("the flip did not change the checksum")
	}
	p := newPool(t, Options{Instances: 1}, flipped) // loads: no checksum pass
	in := p.takeSlot()
	defer p.putSlot(in)
	verify := in.mod.ExportedFunction("verify_snapshot")
	if verify == nil {
		t.Skip("module without verify_snapshot")
	}
	ctx := context.Background()
	for _, tc := range []struct {
		data []byte
		want string
	}{{good, ""}, {flipped, "checksum mismatch"}} {
		ptr, err := in.write(ctx, tc.data)
		if err != nil {
			t.Fatal(err)
		}
		in.stack[0], in.stack[1] = uint64(ptr), uint64(len(tc.data))
		if err := verify.CallWithStack(ctx, in.stack[:]); err != nil {
			t.Fatal(err)
		}
		msg := ""
		if in.stack[0] != 0 {
			b, err := in.read(in.stack[0])
			if err != nil {
				t.Fatal(err)
			}
			msg = string(b)
		}
		if tc.want == "" && msg != "" || tc.want != "" && !strings.Contains(msg, tc.want) {
			t.Errorf("verify_snapshot = %q, want %q", msg, tc.want)
		}
	}
}
