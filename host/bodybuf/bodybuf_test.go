package bodybuf

import "testing"

func TestGetHoldsTheSize(t *testing.T) {
	var p Pool
	for _, n := range []int{0, 1, 1023, 1024, 1025, 4096, 60_000, 1 << 20, 1<<20 + 1, 3 << 20} {
		b := p.Get(n)
		if len(b) != 0 || cap(b) < n {
			t.Errorf("Get(%d): len %d cap %d", n, len(b), cap(b))
		}
		p.Put(append(b, make([]byte, n)...))
		if b := p.Get(n); len(b) != 0 || cap(b) < n {
			t.Errorf("Get(%d) after Put: len %d cap %d", n, len(b), cap(b))
		}
	}
}

func TestPutKeepsByClass(t *testing.T) {
	var p Pool
	// A buffer of 3,000 bytes of capacity holds class 11 (2 KiB) bodies, never a 4 KiB one.
	p.Put(make([]byte, 0, 3000))
	if b := p.Get(4000); cap(b) < 4000 {
		t.Fatalf("Get(4000) gave cap %d", cap(b))
	}
	if b := p.Get(2000); cap(b) < 2000 {
		t.Fatalf("Get(2000) gave cap %d", cap(b))
	}
	p.Put(make([]byte, 0, 100))   // too small: dropped
	p.Put(make([]byte, 0, 4<<20)) // too large: dropped
	if b := p.Get(10); cap(b) < 10 {
		t.Fatalf("Get(10) gave cap %d", cap(b))
	}
}

func TestGetAllocatesNothingOnceWarm(t *testing.T) {
	var p Pool
	p.Put(p.Get(55_000))
	allocs := testing.AllocsPerRun(100, func() {
		b := p.Get(55_000)
		p.Put(b)
	})
	// Put boxes the slice header (one small allocation); the 64 KiB buffer is reused.
	if allocs > 1 {
		t.Fatalf("%v allocations per Get and Put, want at most 1", allocs)
	}
}
