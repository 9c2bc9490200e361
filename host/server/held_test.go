package server

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// countingConn counts the writes that reach the connection under a conn.
type countingConn struct {
	net.Conn
	mu     sync.Mutex
	writes int
}

func (c *countingConn) Write(b []byte) (int, error) {
	c.mu.Lock()
	c.writes++
	c.mu.Unlock()
	return c.Conn.Write(b)
}

func (c *countingConn) count() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.writes
}

// TestAnswerInOneWrite: an answer that net/http writes through its 4 KiB buffer in
// pieces reaches the connection in one write, complete, when the server clears the
// write deadline after it; a read, a half-close or a close sends what is held too.
func TestAnswerInOneWrite(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	accepted := make(chan net.Conn, 1)
	go func() {
		c, err := ln.Accept()
		if err == nil {
			accepted <- c
		}
	}()
	client, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	under := &countingConn{Conn: <-accepted}
	l := limitConns(ln, 0, time.Second, slog.New(slog.NewTextHandler(io.Discard, nil)))
	c := &conn{Conn: under, log: l.log, pool: &l.held}
	defer c.Close()

	answer := bytes.Repeat([]byte("0123456789abcdef"), 4000) // 64,000 bytes
	for rest := answer; len(rest) > 0; rest = rest[min(4096, len(rest)):] {
		if n, err := c.Write(rest[:min(4096, len(rest))]); err != nil || n != min(4096, len(rest)) {
			t.Fatalf("Write: %d, %v", n, err)
		}
	}
	if n := under.count(); n != 0 {
		t.Fatalf("%d writes before the answer was done; want none", n)
	}
	_ = c.SetWriteDeadline(time.Time{})
	got := make([]byte, len(answer))
	_ = client.SetReadDeadline(time.Now().Add(5 * time.Second))
	if _, err := io.ReadFull(client, got); err != nil || !bytes.Equal(got, answer) {
		t.Fatalf("client read %v; equal %v", err, bytes.Equal(got, answer))
	}
	if n := under.count(); n != 1 {
		t.Errorf("the answer took %d writes; want 1", n)
	}

	// A read sends what is held first (a 100 Continue before the body is read).
	_, _ = c.Write([]byte("HTTP/1.1 100 Continue\r\n\r\n"))
	go func() { _, _ = client.Write([]byte("x")) }()
	one := make([]byte, 1)
	if _, err := c.Read(one); err != nil {
		t.Fatal(err)
	}
	line := make([]byte, len("HTTP/1.1 100 Continue\r\n\r\n"))
	if _, err := io.ReadFull(client, line); err != nil || !strings.HasPrefix(string(line), "HTTP/1.1 100") {
		t.Fatalf("after the server's read the client got %q, %v", line, err)
	}

	// More than maxHeld goes out at once, held bytes first.
	big := bytes.Repeat([]byte("z"), maxHeld+1)
	_, _ = c.Write([]byte("head"))
	if n, err := c.Write(big); n != len(big) || err != nil {
		t.Fatalf("Write of %d: %d, %v", len(big), n, err)
	}
	want := append([]byte("head"), big...)
	got = make([]byte, len(want))
	if _, err := io.ReadFull(client, got); err != nil || !bytes.Equal(got, want) {
		t.Fatalf("over maxHeld: read %v, equal %v", err, bytes.Equal(got, want))
	}

	// A half-close sends what is held.
	_, _ = c.Write([]byte("tail"))
	if err := c.CloseWrite(); err != nil {
		t.Fatal(err)
	}
	tail := make([]byte, 4)
	if _, err := io.ReadFull(client, tail); err != nil || string(tail) != "tail" {
		t.Fatalf("after CloseWrite the client read %q, %v", tail, err)
	}

	// Close sends what is held.
	_, _ = c.Write([]byte("last"))
	_ = c.Close()
	rest, _ := io.ReadAll(client)
	if string(rest) != "last" {
		t.Errorf("after Close the client read %q; want \"last\"", rest)
	}
}

// TestHeldAnswersOverHTTP: through Serve, answers of every size reach a keep-alive
// client whole, and so does the 100 Continue it waits for before it sends its body
// (the client waits for it without end: were it held back, the request would time out).
func TestHeldAnswersOverHTTP(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		size, _ := strconv.Atoi(r.URL.Query().Get("n"))
		w.Header().Set("Content-Length", strconv.Itoa(size))
		_, _ = w.Write(bytes.Repeat(body[:1], size))
	})
	go func() {
		defer close(done)
		_ = Serve(ctx, ln, h, Limits{WriteTimeout: 10 * time.Second}, time.Second, slog.New(slog.NewTextHandler(io.Discard, nil)))
	}()
	defer func() { cancel(); <-done }()
	client := &http.Client{Transport: &http.Transport{ExpectContinueTimeout: time.Hour}}
	defer client.CloseIdleConnections()
	for _, size := range []int{1, 4000, 60000, 300000} {
		rctx, stop := context.WithTimeout(context.Background(), 30*time.Second)
		req, _ := http.NewRequestWithContext(rctx, "POST", "http://"+ln.Addr().String()+"/?n="+strconv.Itoa(size), strings.NewReader("q"))
		req.Header.Set("Expect", "100-continue")
		resp, err := client.Do(req)
		if err != nil {
			stop()
			t.Fatalf("size %d: %v", size, err)
		}
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		stop()
		if err != nil || len(body) != size || string(body) != strings.Repeat("q", size) {
			t.Fatalf("size %d: %d bytes, %v", size, len(body), err)
		}
	}
}
