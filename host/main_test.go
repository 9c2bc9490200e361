package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"testing"

	"github.com/cdaedge/cdaedge/edge"
	"github.com/cdaedge/cdaedge/edge/edgetest"
	"github.com/cdaedge/cdaedge/host/internal/testsnap"
	"github.com/cdaedge/cdaedge/wasm/wasmtest"
)

// hostBin is the host binary, built once for the black-box tests.
var hostBin string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "cdaedge-host-test")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	hostBin = filepath.Join(dir, "host")
	build := exec.Command("go", "build", "-o", hostBin, "github.com/cdaedge/cdaedge/host")
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	code := 1
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "build host:", err)
	} else {
		code = m.Run()
	}
	os.RemoveAll(dir)
	os.Exit(code)
}

func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// startHost runs the host with args on a free 127.0.0.1 port, waits until it listens,
// and stops it (by PID, SIGTERM, expecting a clean exit) when the test ends.
func startHost(t *testing.T, args ...string) string {
	t.Helper()
	addr, _, _ := startHostProc(t, args...)
	return addr
}

// startHostProc is startHost that also returns the host's PID and its log.
func startHostProc(t *testing.T, args ...string) (string, int, *edgetest.HostLog) {
	t.Helper()
	addr := freeAddr(t)
	logs := edgetest.NewHostLog()
	cmd := exec.Command(hostBin, append([]string{"--addr", addr}, args...)...)
	cmd.Stdout, cmd.Stderr = logs, logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	t.Cleanup(func() {
		if err := syscall.Kill(cmd.Process.Pid, syscall.SIGTERM); err != nil {
			t.Errorf("stop host %d: %v", cmd.Process.Pid, err)
		}
		if err := <-exited; err != nil {
			t.Errorf("host exit: %v\n%s", err, logs)
		}
	})
	select {
	case <-logs.Listening():
	case err := <-exited:
		exited <- err
		t.Fatalf("host exited before listening: %v\n%s", err, logs)
	}
	return addr, cmd.Process.Pid, logs
}

// runHost runs the host expecting it to fail at startup, and returns its output.
func runHost(t *testing.T, args ...string) string {
	t.Helper()
	out, err := exec.Command(hostBin, append([]string{"--addr", freeAddr(t)}, args...)...).CombinedOutput()
	if err == nil {
		t.Fatalf("host started with %v:\n%s", args, out)
	}
	return string(out)
}

func moduleFile(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "module.wasm")
	if err := os.WriteFile(path, wasmtest.Module(t), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// send writes req as raw HTTP/1.1 (so that the target goes out exactly as written)
// and returns status, headers without Date, and body.
func send(t *testing.T, addr string, req edge.Request) (int, http.Header, []byte) {
	t.Helper()
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	target := req.Path
	if req.RawQuery != "" {
		target += "?" + req.RawQuery
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "%s %s HTTP/1.1\r\nHost: %s\r\nConnection: close\r\n", req.Method, target, addr)
	for _, h := range req.Headers {
		fmt.Fprintf(&b, "%s: %s\r\n", h.Name, h.Value)
	}
	if req.Body != nil {
		fmt.Fprintf(&b, "Content-Length: %d\r\n", len(req.Body))
	}
	b.WriteString("\r\n")
	b.Write(req.Body)
	if _, err := conn.Write(b.Bytes()); err != nil {
		t.Fatal(err)
	}
	resp, err := http.ReadResponse(bufio.NewReader(conn), &http.Request{Method: req.Method})
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	resp.Header.Del("Date")
	resp.Header.Del("X-Request-Id")
	return resp.StatusCode, resp.Header, body
}

func describe(status int, h http.Header, body []byte) string {
	keys := make([]string, 0, len(h))
	for k := range h {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	fmt.Fprintf(&b, "%d\n", status)
	for _, k := range keys {
		fmt.Fprintf(&b, "%s: %s\n", k, strings.Join(h[k], " | "))
	}
	b.Write(body)
	return b.String()
}

// TestEnginesAnswerAlike runs the host with each engine over the same snapshots, the wasm
// engine with item bodies in memory and read from the file, and requires identical HTTP
// answers (less the Date header).
func TestEnginesAnswerAlike(t *testing.T) {
	dir := testsnap.WriteDir(t, testsnap.Env, 12)
	for _, bodies := range []string{"memory", "file"} {
		// A fresh native host each time: its answer cache would answer a repeat as a hit.
		nativeAddr := startHost(t, "--snapshots", dir, "--engine", "native")
		wasmAddr := startHost(t, "--snapshots", dir, "--engine", "wasm", "--bodies", bodies, "--module", moduleFile(t), "--instances", "2")
		for _, req := range testsnap.Requests(testsnap.Env) {
			w := describe(send(t, wasmAddr, req))
			n := describe(send(t, nativeAddr, req))
			if w != n {
				t.Errorf("--bodies=%s: %s %s?%s:\nwasm:\n%s\nnative:\n%s", bodies, req.Method, req.Path, req.RawQuery, w, n)
			}
			if strings.HasPrefix(w, "500") {
				t.Errorf("--bodies=%s: %s %s: %s", bodies, req.Method, req.Path, w)
			}
		}
	}
}

func TestBodyOverLimit(t *testing.T) {
	dir := testsnap.WriteDir(t, testsnap.Env, 1)
	for _, args := range [][]string{{"--engine", "native"}, {"--engine", "wasm", "--module", moduleFile(t)}} {
		addr := startHost(t, append([]string{"--snapshots", dir}, args...)...)
		req := edge.Request{Method: "POST", Path: "/cda/search/v1/" + testsnap.Env, Body: make([]byte, 1<<20+1)}
		status, h, body := send(t, addr, req)
		if status != 413 || !bytes.Contains(body, []byte(`"code":"payload_too_large"`)) ||
			h.Get("Content-Type") != "application/json; charset=utf-8" {
			t.Errorf("%v: got %s", args, describe(status, h, body))
		}
	}
}

func TestServesContent(t *testing.T) {
	if testsnap.Stub() {
		t.Skip("snapshot package is still the stub")
	}
	dir := testsnap.WriteDir(t, testsnap.Env, 12)
	addr := startHost(t, "--snapshots", dir, "--module", moduleFile(t))
	req := edge.Request{Method: "GET", Path: "/cda/rest/v1/" + testsnap.Env + "/contents/" + testsnap.ContentID(3)}
	status, h, body := send(t, addr, req)
	if status != 200 || !bytes.Contains(body, []byte(testsnap.ContentID(3))) {
		t.Errorf("got %s", describe(status, h, body))
	}
}

func TestStartupErrors(t *testing.T) {
	dir := testsnap.WriteDir(t, testsnap.Env, 1)
	if out := runHost(t, "--snapshots", dir, "--engine", "wasm"); !strings.Contains(out, "--module") ||
		!strings.Contains(out, "cdaembed") {
		t.Errorf("no module: %s", out)
	}
	if out := runHost(t, "--snapshots", t.TempDir(), "--engine", "native"); !strings.Contains(out, "no *.snap file") {
		t.Errorf("empty dir: %s", out)
	}
	if out := runHost(t, "--snapshots", dir, "--engine", "bogus"); !strings.Contains(out, "unknown --engine") {
		t.Errorf("bad engine: %s", out)
	}
	if !testsnap.Stub() {
		bad := t.TempDir()
		if err := os.WriteFile(filepath.Join(bad, "x.snap"), []byte("garbage"), 0o644); err != nil {
			t.Fatal(err)
		}
		if out := runHost(t, "--snapshots", bad, "--engine", "native"); !strings.Contains(out, "x.snap") {
			t.Errorf("bad snapshot: %s", out)
		}
	}
}
