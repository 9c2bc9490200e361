package server

import (
	"bufio"
	"context"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/cdaedge/cdaedge/edge/edgetest"
)

// serve runs Serve on a loopback port until the test ends and returns its address.
func serve(t *testing.T, lim Limits, logs io.Writer) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { _, _ = io.WriteString(w, "ok") })
	go func() {
		defer close(done)
		_ = Serve(ctx, ln, h, lim, time.Second, slog.New(slog.NewJSONHandler(logs, nil)))
	}()
	t.Cleanup(func() { cancel(); <-done })
	return ln.Addr().String()
}

// TestConnectionLimitAnswers503: past MaxConnections, a new connection is answered 503
// with Retry-After and the envelope, and closed; once a slot frees, connections are
// served again.
func TestConnectionLimitAnswers503(t *testing.T) {
	addr := serve(t, Limits{MaxConnections: 1, RetryAfter: time.Second, ReadHeaderTimeout: 10 * time.Second}, io.Discard)
	first, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	_, _ = io.WriteString(first, "GET / HTTP/1.1\r\nHost: x\r\n\r\n")
	resp, err := http.ReadResponse(bufio.NewReader(first), nil)
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("first connection: %v %v", err, resp)
	}
	resp, err = http.Get("http://" + addr + "/")
	if err != nil {
		t.Fatalf("second connection: %v", err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 503 || resp.Header.Get("Retry-After") != "1" || !strings.Contains(string(body), `"code":"unavailable"`) {
		t.Fatalf("second connection: %d %q %s, want 503 unavailable with Retry-After", resp.StatusCode, resp.Header.Get("Retry-After"), body)
	}
	first.Close()
	deadline := time.Now().Add(10 * time.Second)
	for {
		resp, err := http.Get("http://" + addr + "/")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == 200 {
				break
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("no connection served after the first closed: %v %v", err, resp)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestSlowHeadersLogged: a client that does not finish its request headers within the
// header timeout is cut off with a log line naming the reason; an idle keep-alive
// connection reaching the idle timeout is not reported as one.
func TestSlowHeadersLogged(t *testing.T) {
	var logs edgetest.SyncBuffer
	addr := serve(t, Limits{ReadHeaderTimeout: 200 * time.Millisecond, IdleTimeout: 200 * time.Millisecond}, &logs)
	slow, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer slow.Close()
	_, _ = io.WriteString(slow, "GET / HTTP/1.1\r\nHost: x\r\nX-Slow: ")
	idle, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer idle.Close()
	_, _ = io.WriteString(idle, "GET / HTTP/1.1\r\nHost: x\r\n\r\n")
	if resp, err := http.ReadResponse(bufio.NewReader(idle), nil); err != nil || resp.StatusCode != 200 {
		t.Fatalf("idle connection's request: %v %v", err, resp)
	}
	_ = slow.SetReadDeadline(time.Now().Add(20 * time.Second))
	_, _ = io.Copy(io.Discard, slow) // returns once the server closes it
	_ = idle.SetReadDeadline(time.Now().Add(20 * time.Second))
	_, _ = io.Copy(io.Discard, idle)
	time.Sleep(50 * time.Millisecond)
	if n := strings.Count(logs.String(), `"reason":"read_header_timeout"`); n != 1 {
		t.Errorf("%d slow-sender lines, want 1:\n%s", n, logs.String())
	}
}
