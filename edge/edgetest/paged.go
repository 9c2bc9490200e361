package edgetest

import (
	"testing"

	"github.com/cdaedge/cdaedge/edge"
	"github.com/cdaedge/cdaedge/edge/router"
	"github.com/cdaedge/cdaedge/snapshot"
	"github.com/cdaedge/cdaedge/snapshot/snapshottest"
)

// maxPagedRounds bounds PagedHandler's rounds per request, as the module bounds its
// need-ranges rounds.
const maxPagedRounds = 24

// PagedHandler returns a native router serving Snapshots opened on their index parts
// alone, with the loop the WebAssembly module runs around them: a request that read
// postings lists or item bodies the snapshot did not hold runs again once their ranges
// (snapshot.MissingBlocks) are provided from the file, until none is missing. Its
// caches are trimmed to cacheBytes after every answer, so a small budget exercises
// eviction. Its answers must be the native router's, byte for byte.
func PagedHandler(t testing.TB, cacheBytes int) Handler {
	t.Helper()
	r := router.New(NativeOptions())
	h := &pagedHandler{r: r, cacheBytes: cacheBytes}
	for _, data := range Snapshots(t) {
		snap := snapshottest.OpenIndex(t, data)
		r.Load(snap)
		snap.MissingBlocks(nil)
		h.snaps = append(h.snaps, pagedSnapshot{snap: snap, file: data})
	}
	return h
}

type pagedHandler struct {
	r          *router.Router
	snaps      []pagedSnapshot
	cacheBytes int
}

type pagedSnapshot struct {
	snap *snapshot.Snapshot
	file []byte
}

func (h *pagedHandler) Serve(req *edge.Request) (*edge.Response, error) {
	for round := 1; ; round++ {
		resp := h.r.Serve(req)
		missed := false
		for _, s := range h.snaps {
			for _, r := range s.snap.MissingBlocks(nil) {
				missed = true
				if err := s.snap.ProvideRange(r, s.file[r.Offset:r.Offset+int64(r.Length)]); err != nil {
					return nil, err
				}
			}
		}
		if !missed || round == maxPagedRounds {
			for _, s := range h.snaps {
				s.snap.TrimBodyCache(h.cacheBytes)
				s.snap.TrimPageCache(h.cacheBytes)
			}
			if missed {
				resp = edge.ErrorResponse(edge.CodeInternal, "more rounds than allowed")
			}
			return resp, nil
		}
	}
}
