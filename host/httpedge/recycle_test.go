package httpedge

import (
	"context"
	"errors"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/cdaedge/cdaedge/edge"
	"github.com/cdaedge/cdaedge/host/compress"
)

// recyclingEngine answers with a body of its own and records the bodies handed back.
type recyclingEngine struct {
	body     []byte
	fail     bool
	recycled [][]byte
}

func (e *recyclingEngine) Serve(context.Context, *edge.Request) (*edge.Response, error) {
	if e.fail {
		return nil, errors.New("instance failed")
	}
	return &edge.Response{Status: 200, Headers: []edge.Header{{Name: "Content-Type", Value: "application/json"}}, Body: e.body}, nil
}

func (e *recyclingEngine) RecycleBody(b []byte) {
	// Scribbled over at once, as the next answer would: the client must have its bytes.
	for i := range b {
		b[i] = 'x'
	}
	e.recycled = append(e.recycled, b)
}

// The handler hands each answer's body back to an engine that reuses them, after
// writing it (also when compression sent other bytes, and for HEAD), and hands back
// nothing of a failed call.
func TestBodiesGoBackAfterTheyAreWritten(t *testing.T) {
	answer := `{"items":[` + strings.Repeat(`"abcdefgh",`, 300) + `"z"]}`
	for _, tc := range []struct {
		name, method, encoding string
		fail                   bool
		recycled               int
	}{
		{"GET", "GET", "", false, 1},
		{"gzip", "GET", "gzip", false, 1},
		{"HEAD", "HEAD", "", false, 1},
		{"failed", "GET", "", true, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := &recyclingEngine{body: []byte(answer), fail: tc.fail}
			h := NewHandler(e, Options{Compressor: compress.New(64)})
			req := httptest.NewRequest(tc.method, "/cda/rest/v1/env/contents", nil)
			if tc.encoding != "" {
				req.Header.Set("Accept-Encoding", tc.encoding)
			}
			w := httptest.NewRecorder()
			h.ServeHTTP(w, req)
			if len(e.recycled) != tc.recycled {
				t.Fatalf("%d bodies handed back, want %d", len(e.recycled), tc.recycled)
			}
			if tc.recycled > 0 && &e.recycled[0][0] != &e.body[0] {
				t.Fatal("the body handed back is not the engine's")
			}
			if tc.method == "GET" && tc.encoding == "" && !tc.fail && w.Body.String() != answer {
				t.Fatalf("the client got %.40q…, not the answer", w.Body.String())
			}
		})
	}
}
