package httpedge

import (
	"bufio"
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/cdaedge/cdaedge/edge"
	"github.com/cdaedge/cdaedge/edge/wire"
	"github.com/cdaedge/cdaedge/host/compress"
)

// FuzzRequestFraming parses arbitrary bytes as an HTTP/1.1 request the way the server
// does, converts it to an edge.Request and frames it for the module: the frame must
// decode to exactly the same request, with lower-case sorted header names.
func FuzzRequestFraming(f *testing.F) {
	for _, s := range []string{
		"GET /cda/rest/v1/site/contents?pageSize=2 HTTP/1.1\r\nHost: x\r\n\r\n",
		"POST /cda/es/v1/site HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nX-A: 1\r\nx-a: 2\r\n\r\n{}",
		"GET http://example.com/p%2F?q=1 HTTP/1.1\r\nHost: example.com\r\n\r\n",
		"OPTIONS * HTTP/1.1\r\nHost: x\r\n\r\n",
		"POST /x HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n",
		"GET /\x00 HTTP/1.1\r\nHost: \xff\r\n\r\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		r, err := http.ReadRequest(bufio.NewReader(bytes.NewReader(raw)))
		if err != nil {
			return
		}
		body, err := readBody(r, 1<<20)
		if err != nil {
			return
		}
		r.RequestURI = r.URL.RequestURI() // as the server keeps it, in origin form
		if strings.HasPrefix(string(raw), r.Method+" ") {
			target, _, _ := strings.Cut(string(raw[len(r.Method)+1:]), " ")
			r.RequestURI = target
		}
		req := Request(r, body)
		names := make([]string, len(req.Headers))
		for i, h := range req.Headers {
			if h.Name != strings.ToLower(h.Name) {
				t.Fatalf("header name %q is not lower-case", h.Name)
			}
			names[i] = h.Name
		}
		if !sort.StringsAreSorted(names) {
			t.Fatalf("header names not sorted: %q", names)
		}
		got, err := wire.DecodeRequest(wire.AppendRequest(nil, &req))
		if err != nil {
			t.Fatalf("decode own frame: %v", err)
		}
		if len(got.Body) == 0 {
			got.Body = nil
		}
		if len(got.Headers) == 0 {
			got.Headers = nil
		}
		if len(req.Headers) == 0 {
			req.Headers = nil
		}
		if !reflect.DeepEqual(got, req) {
			t.Fatalf("round trip:\n got %#v\nwant %#v", got, req)
		}
	})
}

// FuzzResponseWriting decodes arbitrary bytes as a module's response frame and writes
// whatever decodes through the handler, compressed or not: the handler never panics,
// answers 500 for an out-of-range status, and sends an exact Content-Length.
func FuzzResponseWriting(f *testing.F) {
	f.Add(wire.AppendResponse(nil, &edge.Response{Status: 200, Headers: []edge.Header{{Name: "Content-Type", Value: "application/json"}}, Body: bytes.Repeat([]byte(`{"a":1}`), 400)}), "gzip", false)
	f.Add(wire.AppendResponse(nil, &edge.Response{Status: 304, Headers: []edge.Header{{Name: "ETag", Value: `"x"`}}}), "zstd", true)
	f.Add(wire.AppendResponse(nil, &edge.Response{Status: 42}), "", false)
	c := compress.New(16)
	f.Fuzz(func(t *testing.T, frame []byte, accept string, head bool) {
		resp, err := wire.DecodeResponse(frame)
		if err != nil {
			return
		}
		h := NewHandler(engineFunc(func(*edge.Request) (*edge.Response, error) { return &resp, nil }), Options{Compressor: c})
		method := "GET"
		if head {
			method = "HEAD"
		}
		r := httptest.NewRequest(method, "/cda/rest/v1/site/contents", nil)
		r.Header.Set("Accept-Encoding", accept)
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		if resp.Status < 200 || resp.Status > 599 {
			if w.Code != 500 {
				t.Fatalf("status %d answered %d", resp.Status, w.Code)
			}
			return
		}
		if w.Code != resp.Status {
			t.Fatalf("status %d answered %d", resp.Status, w.Code)
		}
		if cl := w.Header().Get("Content-Length"); cl != "" && !head {
			if n, err := strconv.Atoi(cl); err != nil || n != w.Body.Len() {
				t.Fatalf("Content-Length %q for %d bytes", cl, w.Body.Len())
			}
		}
		if head && w.Body.Len() != 0 {
			t.Fatalf("HEAD answer has a body")
		}
		_, _ = io.Copy(io.Discard, w.Body)
	})
}
