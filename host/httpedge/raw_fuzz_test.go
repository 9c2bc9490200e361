package httpedge

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"github.com/cdaedge/cdaedge/edge"
	"github.com/cdaedge/cdaedge/edge/router"
	"github.com/cdaedge/cdaedge/host/compress"
	"github.com/cdaedge/cdaedge/host/internal/testsnap"
	"github.com/cdaedge/cdaedge/snapshot"
)

// routerEngine answers with a native router, as the native pool does.
type routerEngine struct{ r *router.Router }

func (e routerEngine) Serve(_ context.Context, req *edge.Request) (*edge.Response, error) {
	return e.r.Serve(req), nil
}

// FuzzRawRequest parses arbitrary bytes as an HTTP/1.1 request the way the server does
// and answers it through the whole adapter and a real router: nothing panics, every
// answer has a status from 200 to 599 and an exact Content-Length, and every error
// answer is the API's envelope (D8) with the same status.
func FuzzRawRequest(f *testing.F) {
	env := testsnap.Env
	for _, s := range []string{
		"GET /cda/rest/v1/" + env + "/contents?pageSize=2 HTTP/1.1\r\nHost: x\r\n\r\n",
		"POST /cda/es/v1/" + env + " HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 27\r\n\r\n{\"query\":{\"match_all\":{}}}",
		"POST /cda/graphql/v1/" + env + " HTTP/1.1\r\nHost: x\r\nContent-Type: application/graphql\r\nContent-Length: 27\r\n\r\nquery { content { Name } }",
		"HEAD /cda/rest/v1/" + env + "/contents HTTP/1.1\r\nHost: x\r\nIf-None-Match: *\r\nAccept-Encoding: gzip\r\n\r\n",
		"OPTIONS /cda/es/v1/" + env + " HTTP/1.1\r\nHost: x\r\nAccess-Control-Request-Headers: x-a\r\n\r\n",
		"POST /cda/es/v1/" + env + " HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n3\r\n{\"q\r\n0\r\n\r\n",
		"POST /cda/es/v1/" + env + " HTTP/1.1\r\nHost: x\r\nContent-Length: 5242880\r\n\r\n{",
		"GET /cda/rest/v1/%zz/contents HTTP/1.1\r\nHost: x\r\n\r\n",
	} {
		f.Add([]byte(s))
	}
	snap, err := snapshot.Open(testsnap.Build(f, env, 12))
	if err != nil {
		f.Fatal(err)
	}
	rt := router.New(router.Options{})
	rt.Load(snap)
	h := NewHandler(routerEngine{rt}, Options{MaxBodyBytes: 4096, Compressor: compress.New(64)})
	f.Fuzz(func(t *testing.T, raw []byte) {
		r, err := http.ReadRequest(bufio.NewReader(bytes.NewReader(raw)))
		if err != nil {
			return
		}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		if w.Code < 200 || w.Code > 599 {
			t.Fatalf("status %d", w.Code)
		}
		if cl := w.Header().Get("Content-Length"); cl != "" && r.Method != http.MethodHead {
			if n, err := strconv.Atoi(cl); err != nil || n != w.Body.Len() {
				t.Fatalf("Content-Length %q for %d bytes", cl, w.Body.Len())
			}
		}
		standard := strings.Contains(w.Header().Get("Content-Type"), "graphql-response") // GraphQL over HTTP: no status member
		if w.Code >= 400 && !standard && r.Method != http.MethodHead && w.Header().Get("Content-Encoding") == "" {
			var env struct {
				Status int             `json:"status"`
				Error  json.RawMessage `json:"error"`
				Errors json.RawMessage `json:"errors"`
			}
			if err := json.Unmarshal(w.Body.Bytes(), &env); err != nil || env.Status != w.Code || env.Error == nil && env.Errors == nil {
				t.Fatalf("error answer %d is not an envelope: %q", w.Code, w.Body.Bytes())
			}
		}
	})
}
