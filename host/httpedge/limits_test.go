package httpedge

import (
	"bufio"
	"encoding/json"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cdaedge/cdaedge/edge"
	"github.com/cdaedge/cdaedge/edge/edgetest"
)

// envelopeCode decodes the D8 envelope of an answer.
func envelopeCode(t *testing.T, resp *http.Response) string {
	t.Helper()
	var env struct {
		Status int
		Error  struct{ Code string }
	}
	body, _ := io.ReadAll(resp.Body)
	if err := json.Unmarshal(body, &env); err != nil || env.Status != resp.StatusCode {
		t.Fatalf("not an error envelope (%v): %d %s", err, resp.StatusCode, body)
	}
	return env.Error.Code
}

// TestAnnouncedLengthOverLimitAnsweredAtOnce: a Content-Length over the limit gets 413
// before the body is sent; the client sends 9 bytes and waits, and still gets it.
func TestAnnouncedLengthOverLimitAnsweredAtOnce(t *testing.T) {
	called := false
	srv := httptest.NewServer(NewHandler(engineFunc(func(*edge.Request) (*edge.Response, error) {
		called = true
		return &edge.Response{Status: 200}, nil
	}), Options{MaxBodyBytes: 1 << 20}))
	defer srv.Close()
	conn, err := net.Dial("tcp", srv.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	_, _ = io.WriteString(conn, "POST /cda/es/v1/demo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"+
		"Content-Length: 5242880\r\n\r\n{\"query\":")
	// Generous for a loaded machine; the old behaviour never answered before the body.
	_ = conn.SetReadDeadline(time.Now().Add(20 * time.Second))
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatalf("no answer while the body is pending: %v", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != 413 || envelopeCode(t, resp) != "payload_too_large" || called {
		t.Fatalf("got %d (engine called: %v), want 413 payload_too_large without the engine", resp.StatusCode, called)
	}
}

// TestSlowBodyCutByReadTimeout: a body that does not arrive within the server's read
// timeout gets 408 `request_timeout` and a log line naming the reason.
func TestSlowBodyCutByReadTimeout(t *testing.T) {
	var logs edgetest.SyncBuffer
	h := NewHandler(engineFunc(func(*edge.Request) (*edge.Response, error) {
		return &edge.Response{Status: 200}, nil
	}), Options{Logger: slog.New(slog.NewJSONHandler(&logs, nil))})
	srv := httptest.NewUnstartedServer(h)
	srv.Config.ReadTimeout = 300 * time.Millisecond
	srv.Start()
	defer srv.Close()
	conn, err := net.Dial("tcp", srv.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	_, _ = io.WriteString(conn, "POST /cda/es/v1/demo HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{\"qu")
	_ = conn.SetReadDeadline(time.Now().Add(20 * time.Second))
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatalf("no answer to a slow body: %v", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != 408 || envelopeCode(t, resp) != "request_timeout" {
		t.Fatalf("got %d, want 408 request_timeout", resp.StatusCode)
	}
	if !strings.Contains(logs.String(), `"reason":"read_timeout"`) {
		t.Errorf("no log line with the reason: %s", logs.String())
	}
}

// TestInFlightLimitAnswers503: past MaxInFlight requests in the engine, a request gets
// 503 `unavailable` with Retry-After at once; an engine's own `unavailable` error (a
// pool whose instances stayed busy) is answered the same way.
func TestInFlightLimitAnswers503(t *testing.T) {
	release := make(chan struct{})
	entered := make(chan struct{}, 1)
	busy := false
	var mu sync.Mutex
	eng := engineFunc(func(r *edge.Request) (*edge.Response, error) {
		if r.Path == "/busy" {
			return nil, edge.Errorf(edge.CodeUnavailable, "every engine instance stayed busy")
		}
		mu.Lock()
		first := !busy
		busy = true
		mu.Unlock()
		if first {
			entered <- struct{}{}
			<-release
		}
		return &edge.Response{Status: 200, Body: []byte("ok")}, nil
	})
	srv := httptest.NewServer(NewHandler(eng, Options{MaxInFlight: 1}))
	defer srv.Close()
	done := make(chan int, 1)
	go func() {
		resp, err := http.Get(srv.URL + "/slow")
		if err != nil {
			done <- 0
			return
		}
		resp.Body.Close()
		done <- resp.StatusCode
	}()
	<-entered
	for _, path := range []string{"/second", "/busy"} {
		resp, err := http.Get(srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		if resp.StatusCode != 503 || resp.Header.Get("Retry-After") != "1" || envelopeCode(t, resp) != "unavailable" {
			t.Errorf("%s: got %d Retry-After %q, want 503 unavailable with Retry-After 1", path, resp.StatusCode, resp.Header.Get("Retry-After"))
		}
		resp.Body.Close()
	}
	close(release)
	if got := <-done; got != 200 {
		t.Errorf("the request in flight got %d", got)
	}
	resp, err := http.Get(srv.URL + "/after")
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("after the burst: %v %v", err, resp)
	}
	resp.Body.Close()

}
