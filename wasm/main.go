//go:build wasip1

// Command wasm is the edge engine as a WebAssembly reactor: the host instantiates it, calls
// _initialize once, hands it snapshots with load_snapshot and then requests with handle.
// See README.md in this directory for the exports, the framing and memory ownership.
//
// Build (a reactor, so -buildmode=c-shared):
//
//	GOOS=wasip1 GOARCH=wasm go build -buildmode=c-shared -o module.wasm ./wasm
//	tinygo build -target=wasip1 -buildmode=c-shared -no-debug -scheduler=none -panic=trap -o module.wasm ./wasm
package main

import (
	"unsafe"

	"github.com/cdaedge/cdaedge/edge"
	"github.com/cdaedge/cdaedge/edge/router"
	"github.com/cdaedge/cdaedge/edge/wire"
	"github.com/cdaedge/cdaedge/snapshot"
)

// main is not called in a reactor; it must exist for package main.
func main() {}

// The collector's pace is the embedder's to set, through the GOGC variable of the
// module's WASI environment (the host sets 25: see host/wasmpool). It is not set here
// with runtime/debug.SetGCPercent because runtime/debug imports fmt and os, whose
// initialisation alone kept about 345 KB in the std module;
// TinyGo's collector has no such knob at all.

// module is the instance's whole state: the adapter between the exports and the router.
// A wasm instance is single-threaded, so nothing here needs locking.
type module struct {
	router *router.Router
	// bufs holds every buffer handed out by alloc and not yet released, keyed by its
	// address: the map keeps them alive for the GC and lets the exports check that a
	// pointer they are given came from alloc.
	bufs map[uint32][]byte
	// snaps holds the loaded snapshots, one per environment in the order they were
	// first loaded, with the buffers they read in place; a snapshot replaced by a
	// newer one of its environment becomes garbage. (A slice, not a map: every request
	// walks it, and a map's walk is slower in TinyGo and in no set order, which made
	// the order of a need-ranges frame's ranges vary.)
	snaps []loaded
	// resp is the last response frame when it is not framed in place (frame), valid
	// until the next handle call; head is scratch for the head of one framed in place.
	resp, head []byte
	// msg is the last error message of load_snapshot or configure, valid until the next
	// call of either.
	msg []byte
	// pending is the request waiting for ranges of a snapshot file (bodies.go).
	pending pendingRequest
}

// loaded is a snapshot and the buffer it reads.
type loaded struct {
	data []byte
	snap *snapshot.Snapshot
}

var state = module{
	router: router.New(router.Options{LendBodies: true, BodyHeadroom: frameHeadroom}),
	bufs:   map[uint32][]byte{},
}

// frameHeadroom is the room the router keeps before each answer's body for the head of
// its response frame (router.Options.BodyHeadroom): the status and the headers, a few
// hundred bytes. A head that does not fit is framed with a copy of the body instead.
const frameHeadroom = 2048

func addr(b []byte) uint32 { return uint32(uintptr(unsafe.Pointer(unsafe.SliceData(b)))) }

func pack(b []byte) uint64 { return uint64(addr(b))<<32 | uint64(len(b)) }

// residentMin is the size from which newBuffer makes a resident allocation under
// TinyGo: request frames and batches of item bodies are far smaller, snapshot index
// parts far larger.
const residentMin = 4 << 20

// alloc returns the address of a new buffer of size bytes, owned by the caller until it
// passes the buffer to load_snapshot or handle, or releases it with dealloc.
//
//go:wasmexport alloc
func alloc(size uint32) uint32 {
	b := newBuffer(size)
	p := addr(b)
	state.bufs[p] = b
	return p
}

// dealloc releases a buffer from alloc. Unknown addresses are ignored.
//
//go:wasmexport dealloc
func dealloc(ptr, size uint32) {
	delete(state.bufs, ptr)
}

// take removes the buffer at ptr from the alloc table and returns its first n bytes.
func take(ptr, n uint32) ([]byte, bool) {
	b, ok := state.bufs[ptr]
	if !ok || uint64(n) > uint64(len(b)) {
		return nil, false
	}
	delete(state.bufs, ptr)
	return b[:n], true
}

// verify_snapshot checks the snapshot file of n bytes in the alloc buffer at ptr (its
// magic, format version and checksum: one pass over every byte) without taking the
// buffer. It returns 0, or ptr<<32|len of a UTF-8 error message that stays valid until
// the next verify_snapshot, load_snapshot or configure call. load_snapshot does not
// checksum: a file is verified once where it enters the system, and a runtime that did
// not verify it elsewhere calls this first.
//
//go:wasmexport verify_snapshot
func verifySnapshot(ptr, n uint32) uint64 {
	b, ok := state.bufs[ptr]
	if !ok || uint64(n) > uint64(len(b)) {
		return fail("verify_snapshot: buffer not from alloc or shorter than the length")
	}
	if err := snapshot.Verify(b[:n]); err != nil {
		return fail("verify_snapshot: " + err.Error())
	}
	return 0
}

// keep adds l to the loaded snapshots, in place of its environment's previous one.
func (m *module) keep(l loaded) {
	for i := range m.snaps {
		if m.snaps[i].snap.Environment() == l.snap.Environment() {
			m.snaps[i] = l
			return
		}
	}
	m.snaps = append(m.snaps, l)
}

// load_snapshot takes ownership of the alloc buffer at ptr holding a snapshot file of n
// bytes and serves it. It checks the file's header and structure, in work that grows
// with its number of sections and fields, not with its size; the checksum is
// verify_snapshot's. It returns 0, or ptr<<32|len of a UTF-8 error message that stays
// valid until the next load_snapshot call.
//
//go:wasmexport load_snapshot
func loadSnapshot(ptr, n uint32) uint64 {
	data, ok := take(ptr, n)
	if !ok {
		return fail("load_snapshot: buffer not from alloc or shorter than the length")
	}
	snap, err := snapshot.OpenVerified(data)
	if err != nil {
		return fail("load_snapshot: " + err.Error())
	}
	state.keep(loaded{data: data, snap: snap})
	state.router.Load(snap)
	snap.MissingBlocks(nil) // loading reads no bodies; forget any it did
	state.pending = pendingRequest{}
	return 0
}

// configure takes ownership of the alloc buffer at ptr holding a router options frame
// of n bytes (package edge/wire) and replaces the router with one using those options,
// serving the snapshots already loaded. Returns 0, or ptr<<32|len of a UTF-8 error
// message that stays valid until the next load_snapshot or configure call. Without
// configure the router uses the defaults (router.Options{}); either way it lends its
// answers' bodies, with room for a frame's head before them (router.Options.LendBodies,
// BodyHeadroom).
//
//go:wasmexport configure
func configure(ptr, n uint32) uint64 {
	data, ok := take(ptr, n)
	if !ok {
		return fail("configure: buffer not from alloc or shorter than the length")
	}
	opts, err := wire.DecodeOptions(data)
	if err != nil {
		return fail("configure: " + err.Error())
	}
	// serveRound frames every answer before the next request, in place when it can.
	opts.LendBodies, opts.BodyHeadroom = true, frameHeadroom
	router := router.New(opts)
	for _, l := range state.snaps {
		router.Load(l.snap)
	}
	state.router = router
	return 0
}

func fail(msg string) uint64 {
	state.msg = append(state.msg[:0], msg...)
	return pack(state.msg)
}

// handle takes ownership of the alloc buffer at ptr holding a request frame of n bytes,
// answers it and returns ptr<<32|len of the response frame, which stays valid until the
// next handle call. It always returns a response frame: a malformed request frame gets
// a 500 internal error (it is a host bug, never a client's).
//
//go:wasmexport handle
func handle(ptr, n uint32) uint64 {
	data, ok := take(ptr, n)
	var resp *edge.Response
	if !ok {
		resp = edge.ErrorResponse(edge.CodeInternal, "The request buffer was not allocated by the module.")
	} else if req, err := wire.DecodeRequest(data); err != nil {
		resp = edge.ErrorResponse(edge.CodeInternal, "The request frame is malformed.")
	} else {
		state.pending = pendingRequest{}
		return serveRound(req)
	}
	state.resp = wire.AppendResponse(state.resp[:0], resp)
	return pack(state.resp)
}
