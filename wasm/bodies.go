//go:build wasip1

package main

import (
	"strconv"

	"github.com/cdaedge/cdaedge/edge"
	"github.com/cdaedge/cdaedge/edge/wire"
	"github.com/cdaedge/cdaedge/snapshot"
)

// A snapshot loaded by its index part alone reads item bodies from a cache of body
// blocks, and dictionary blocks, postings lists and bitmaps from a cache of the paged
// part's index pages (package snapshot, bodies.go and pages.go). When a request meets
// any of these that is not cached, handle answers a need-ranges frame naming their
// byte ranges instead of a response; the embedder reads them from the file and passes
// them to provide, which caches them and runs the request again. See README.md, "Item
// bodies by range".

const (
	// bodyCacheBytes is how many bytes of body blocks a snapshot keeps between requests.
	// A request whose items need more is still answered in one run: the cache is trimmed
	// back to this after each answer.
	bodyCacheBytes = 4 << 20
	// pageCacheBytes is how many bytes of index pages a snapshot keeps between requests;
	// like bodies, a request that needs more is answered, then the cache trimmed. The
	// two budgets are sized for a 128 MB edge isolate: at 100k generated items, caches
	// of 16 and 8 MiB took the module's memory from 61 to 73 MiB after 1,000 mixed
	// requests (a three-word query over every field reads 2.4 MiB of pages).
	pageCacheBytes = 8 << 20
	// maxBodyRounds bounds the need-ranges rounds of one request. A request needs one
	// round for the items it answers with, and one more per level of GraphQL references
	// it follows, and a few before those for its index pages (dictionary blocks, then
	// postings lists); this leaves room for the deepest query the router accepts (D11).
	maxBodyRounds = 24
	// maxRequestPageBytes bounds the index pages one request may have read for it. Wasm
	// memory never shrinks, so one request that pulled in most of a large paged part
	// (a pattern over every field of 100k items: tens of MiB) would keep an edge
	// isolate at that size for good. Requests within the work budget (D11) need far
	// less: at 100k generated items, three words over every field read 2.4 MiB of
	// pages, and a fuzzy term or an infix pattern over every field 7.7-7.9 MiB before
	// the budget stops them.
	maxRequestPageBytes = 48 << 20
)

// pendingRequest is a request that answered a need-ranges frame, waiting for provide.
type pendingRequest struct {
	req       edge.Request
	needs     []need
	rounds    int
	pageBytes int // the index pages asked for in the rounds so far
}

// need is one range (a body block or a run of index pages) a pending request asked for.
type need struct {
	snap *snapshot.Snapshot
	r    snapshot.BlockRange
}

// serveRound answers req, or, when it read items whose bodies are not cached, records
// it as pending and answers the need-ranges frame for their blocks.
func serveRound(req edge.Request) uint64 {
	resp := state.router.Serve(&req)
	var needs []need
	var ranges []wire.Range
	var blocks []snapshot.BlockRange
	pageBytes := state.pending.pageBytes
	for _, l := range state.snaps {
		blocks = l.snap.MissingBlocks(blocks[:0])
		for _, b := range blocks {
			needs = append(needs, need{snap: l.snap, r: b})
			ranges = append(ranges, wire.Range{Snapshot: l.snap.Hash(), Offset: uint64(b.Offset), Length: uint32(b.Length)})
			if b.Block < 0 {
				pageBytes += b.Length
			}
		}
	}
	switch {
	case len(needs) > 0 && pageBytes > maxRequestPageBytes:
		resp = edge.ErrorResponse(edge.CodeTooComplex, "The query needs more of the snapshot's index at once than the engine may hold (limit: "+
			strconv.Itoa(maxRequestPageBytes>>20)+" MiB of index pages per request).")
	case len(needs) > 0 && state.pending.rounds < maxBodyRounds:
		state.pending = pendingRequest{req: req, needs: needs, rounds: state.pending.rounds + 1, pageBytes: pageBytes}
		state.resp = wire.AppendNeed(state.resp[:0], ranges)
		return pack(state.resp)
	case len(needs) > 0:
		resp = edge.ErrorResponse(edge.CodeInternal, "The request needed parts of the snapshot file in more rounds than the engine allows.")
	}
	state.pending = pendingRequest{}
	for _, l := range state.snaps {
		l.snap.TrimBodyCache(bodyCacheBytes)
		l.snap.TrimPageCache(pageCacheBytes)
	}
	return pack(frame(resp))
}

// frame returns resp's response frame, valid until the next handle or provide call:
// written in place, its head in the room the router keeps before the body it lent
// (router.Router.Headroom), or else copied into state.resp.
func frame(resp *edge.Response) []byte {
	if room := state.router.Headroom(resp.Body); room != nil {
		head := wire.AppendResponseHead(state.head[:0], resp)
		state.head = head
		if at := len(room) - len(resp.Body) - len(head); at >= 0 {
			copy(room[at:], head)
			return room[at:]
		}
	}
	state.resp = wire.AppendResponse(state.resp[:0], resp)
	return state.resp
}

// provide takes ownership of the alloc buffer at ptr holding n bytes: the byte ranges of
// the last need-ranges frame, one after another in its order. It checks and caches them,
// runs the pending request again and returns ptr<<32|len of its answer (a response or
// another need-ranges frame), valid until the next handle or provide call. Bytes that
// are not what was asked for (wrong length, a block failing its checksum) answer a 500
// internal error response, as does a provide with no request pending.
//
//go:wasmexport provide
func provide(ptr, n uint32) uint64 {
	data, ok := take(ptr, n)
	p := state.pending
	var msg string
	switch {
	case !ok:
		msg = "The buffer of snapshot ranges was not allocated by the module."
	case p.needs == nil:
		msg = "Snapshot ranges were provided with no request waiting for them."
	default:
		total := 0
		for _, nd := range p.needs {
			total += nd.r.Length
		}
		if total != len(data) {
			msg = "The snapshot ranges provided are not the length asked for."
			break
		}
		for _, nd := range p.needs {
			if err := nd.snap.ProvideRange(nd.r, data[:nd.r.Length]); err != nil {
				msg = "The ranges read from the snapshot file failed their check."
				break
			}
			data = data[nd.r.Length:]
		}
	}
	if msg != "" {
		state.pending = pendingRequest{}
		state.resp = wire.AppendResponse(state.resp[:0], edge.ErrorResponse(edge.CodeInternal, msg))
		return pack(state.resp)
	}
	state.pending.needs = nil
	return serveRound(p.req)
}
