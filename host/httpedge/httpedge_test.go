package httpedge

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"

	"github.com/cdaedge/cdaedge/edge"
)

// engineFunc adapts a function to Engine.
type engineFunc func(*edge.Request) (*edge.Response, error)

func (f engineFunc) Serve(_ context.Context, r *edge.Request) (*edge.Response, error) { return f(r) }

// recorder answers 200 and keeps the last request.
func recorder(got *edge.Request) Engine {
	return engineFunc(func(r *edge.Request) (*edge.Response, error) {
		*got = *r
		return &edge.Response{Status: 200, Headers: []edge.Header{{Name: "Content-Type", Value: "text/plain"}}, Body: []byte("ok")}, nil
	})
}

// rawRequest sends raw HTTP/1.1 bytes to the server and returns the response.
func rawRequest(t *testing.T, srv *httptest.Server, raw string) *http.Response {
	t.Helper()
	conn, err := net.Dial("tcp", srv.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	if _, err := io.WriteString(conn, raw); err != nil {
		t.Fatal(err)
	}
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	return resp
}

func TestRequestKeepsEscapedTargetAndNormalisesHeaders(t *testing.T) {
	var got edge.Request
	srv := httptest.NewServer(NewHandler(recorder(&got), Options{}))
	defer srv.Close()
	rawRequest(t, srv, "GET /cda/rest/v1/a%2Fb/contents/%41?x=%20y&z HTTP/1.1\r\n"+
		"Host: example.com\r\nX-Multi: 1\r\nx-multi: 2\r\nAccept: */*\r\nConnection: close\r\n\r\n")
	want := edge.Request{
		Method:   "GET",
		Path:     "/cda/rest/v1/a%2Fb/contents/%41",
		RawQuery: "x=%20y&z",
		Headers: []edge.Header{
			{Name: "accept", Value: "*/*"},
			{Name: "connection", Value: "close"},
			{Name: "host", Value: "example.com"},
			{Name: "x-multi", Value: "1, 2"},
		},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got  %#v\nwant %#v", got, want)
	}
}

func TestRequestAbsoluteForm(t *testing.T) {
	var got edge.Request
	srv := httptest.NewServer(NewHandler(recorder(&got), Options{}))
	defer srv.Close()
	rawRequest(t, srv, "GET http://example.com/p%2F?q=1 HTTP/1.1\r\nHost: example.com\r\nConnection: close\r\n\r\n")
	if got.Path != "/p%2F" || got.RawQuery != "q=1" {
		t.Errorf("got path %q query %q", got.Path, got.RawQuery)
	}
}

func TestBodyLimit(t *testing.T) {
	var got edge.Request
	srv := httptest.NewServer(NewHandler(recorder(&got), Options{MaxBodyBytes: 1 << 20}))
	defer srv.Close()
	post := func(body io.Reader) *http.Response {
		resp, err := http.Post(srv.URL+"/x", "application/json", body)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		resp.Body = io.NopCloser(bytes.NewReader(b))
		return resp
	}
	if resp := post(bytes.NewReader(make([]byte, 1<<20))); resp.StatusCode != 200 || len(got.Body) != 1<<20 {
		t.Errorf("1 MiB body: got %d, body %d bytes", resp.StatusCode, len(got.Body))
	}
	for name, body := range map[string]io.Reader{
		"known length": bytes.NewReader(make([]byte, 1<<20+1)),
		"chunked":      io.MultiReader(strings.NewReader("x"), bytes.NewReader(make([]byte, 1<<20))),
	} {
		resp := post(body)
		b, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != 413 || !bytes.Contains(b, []byte(`"code":"payload_too_large"`)) ||
			resp.Header.Get("Content-Type") != "application/json; charset=utf-8" {
			t.Errorf("%s: got %d %q %s", name, resp.StatusCode, resp.Header.Get("Content-Type"), b)
		}
	}
}

func TestEngineErrorIsInternal(t *testing.T) {
	srv := httptest.NewServer(NewHandler(engineFunc(func(*edge.Request) (*edge.Response, error) {
		return nil, errors.New("trap")
	}), Options{}))
	defer srv.Close()
	resp, err := http.Get(srv.URL + "/")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 500 || !bytes.Contains(b, []byte(`"code":"internal"`)) || bytes.Contains(b, []byte("trap")) {
		t.Errorf("got %d %s", resp.StatusCode, b)
	}
}

func TestWriteResponse(t *testing.T) {
	w := httptest.NewRecorder()
	WriteResponse(w, &edge.Response{Status: 200, Headers: []edge.Header{{Name: "ETag", Value: `"a"`}, {Name: "Vary", Value: "Origin"}, {Name: "Vary", Value: "Accept"}}, Body: []byte("<html>")})
	if w.Code != 200 || w.Body.String() != "<html>" || w.Header().Get("Content-Length") != "6" ||
		!reflect.DeepEqual(w.Header()["Vary"], []string{"Origin", "Accept"}) || w.Header().Get("Content-Type") != "" {
		t.Errorf("got %d %v %q", w.Code, w.Header(), w.Body)
	}
	w = httptest.NewRecorder()
	WriteResponse(w, &edge.Response{Status: 304, Headers: []edge.Header{{Name: "ETag", Value: `"a"`}}})
	if w.Code != 304 || w.Body.Len() != 0 || w.Header().Get("Content-Length") != "" {
		t.Errorf("304: got %d %v %q", w.Code, w.Header(), w.Body)
	}
}
