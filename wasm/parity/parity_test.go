// Package parity replays the conformance tables (testdata/conformance) against every
// runtime of the query module and compares each answer with the native router's, byte
// for byte: the engine natively, the std Go module in wazero, the TinyGo
// module in wazero, the TinyGo module in Node (the @cdaedge/engine package) and in
// workerd over HTTP (the Cloudflare worker). A failure names the runtime (the test) and
// the case (the subtest).
//
// Inputs, set by `go tool task test`:
//
//	CDA_WASM_MODULE          the std module (else one is built)
//	CDA_WASM_MODULE_TINYGO   the TinyGo module (go tool task build:wasm)
//	CDA_TINYGO               the TinyGo that built it (go tool task tools:tinygo)
//	CDA_WORKERD              the workerd binary (go tool task tools:npm)
//	CDA_PARITY_REQUIRED=1    a runtime that cannot run fails instead of being skipped
package parity

import (
	"bufio"
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/cdaedge/cdaedge/edge"
	"github.com/cdaedge/cdaedge/edge/edgetest"
	"github.com/cdaedge/cdaedge/host/wasmpool"
	"github.com/cdaedge/cdaedge/wasm/wasmtest"
)

const (
	envTinyGo   = "CDA_WASM_MODULE_TINYGO"
	envWorkerd  = "CDA_WORKERD"
	envRequired = "CDA_PARITY_REQUIRED"
)

// unavailable skips, or fails when every runtime is required (CI).
func unavailable(t *testing.T, format string, args ...any) {
	t.Helper()
	if os.Getenv(envRequired) == "1" {
		t.Fatalf(format, args...)
	}
	t.Skipf(format+" (set %s=1 to make this an error)", append(args, envRequired)...)
}

func tinyGoModule(t *testing.T) string {
	t.Helper()
	path := os.Getenv(envTinyGo)
	if path == "" {
		unavailable(t, "%s is not set: no TinyGo module (go tool task build:wasm)", envTinyGo)
	}
	if _, err := os.Stat(path); err != nil {
		unavailable(t, "TinyGo module: %v", err)
	}
	return path
}

func nodeBinary(t *testing.T) string {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		unavailable(t, "no node in PATH: %v", err)
	}
	return node
}

// snapshotFiles writes the snapshots of edgetest.Snapshots into a temporary directory.
func snapshotFiles(t *testing.T) []string {
	t.Helper()
	dir := t.TempDir()
	var paths []string
	for name, data := range map[string][]byte{
		edgetest.DemoEnvironment:        edgetest.DemoSnapshot(t),
		edgetest.DemoPreviewEnvironment: edgetest.DemoPreviewSnapshot(t),
		edgetest.LuceneEnvironment:      edgetest.LuceneSnapshot(t),
	} {
		p := filepath.Join(dir, name+".snap")
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	return paths
}

var previewToken = edgetest.DemoPreviewEnvironment + "=" + edgetest.DemoPreviewToken

func jsDir(t *testing.T) string { return filepath.Join(edgetest.RepoRoot(t), "wasm", "js") }

// TestNative: the engine compiled into the test, the reference of all others.
func TestNative(t *testing.T) {
	edgetest.RunConformance(t, edgetest.NativeHandler(t))
}

// TestWazeroStd: the std Go module in wazero (host/wasmpool).
func TestWazeroStd(t *testing.T) {
	edgetest.RunConformance(t, wazeroHandler(t, wasmtest.Module(t)))
}

// TestWazeroTinyGo: the TinyGo module in wazero.
func TestWazeroTinyGo(t *testing.T) {
	module, err := os.ReadFile(tinyGoModule(t))
	if err != nil {
		t.Fatal(err)
	}
	edgetest.RunConformance(t, wazeroHandler(t, module))
}

func wazeroHandler(t *testing.T, module []byte) edgetest.Handler {
	t.Helper()
	ctx := context.Background()
	pool, err := wasmpool.New(ctx, module, wasmpool.Whole(edgetest.Snapshots(t)...),
		wasmpool.Options{Instances: 1, Router: edgetest.NativeOptions(), MemoryOnlyCache: true, Stderr: os.Stderr})
	if err != nil {
		t.Fatalf("wasmpool: %v", err)
	}
	t.Cleanup(func() { _ = pool.Close(ctx) })
	return edgetest.HandlerFunc(func(req *edge.Request) (*edge.Response, error) { return pool.Serve(ctx, req) })
}

// TestNodeTinyGo: the TinyGo module in Node, through the package's request() API
// (wasm/js/test/driver.mjs speaks JSON lines on stdin/stdout).
func TestNodeTinyGo(t *testing.T) {
	module, node := tinyGoModule(t), nodeBinary(t)
	args := []string{filepath.Join(jsDir(t), "test", "driver.mjs"), "serve", "--module", module, "--preview-token", previewToken}
	for _, p := range snapshotFiles(t) {
		args = append(args, "--snap", p)
	}
	cmd := exec.Command(node, args...)
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatalf("start node: %v", err)
	}
	t.Cleanup(func() { stop(t, cmd, stdin) })
	lines := bufio.NewReaderSize(stdout, 1<<20)
	if line, err := lines.ReadBytes('\n'); err != nil || !bytes.Contains(line, []byte(`"ready"`)) {
		t.Fatalf("node driver did not start: %q %v", line, err)
	}
	type wireResp struct {
		Status  int         `json:"status"`
		Headers [][2]string `json:"headers"`
		Body    []byte      `json:"body"`
		Error   string      `json:"error"`
	}
	edgetest.RunConformance(t, edgetest.HandlerFunc(func(req *edge.Request) (*edge.Response, error) {
		headers := make([][2]string, len(req.Headers))
		for i, h := range req.Headers {
			headers[i] = [2]string{h.Name, h.Value}
		}
		line, err := json.Marshal(map[string]any{
			"method": req.Method, "path": req.Path, "query": req.RawQuery, "headers": headers,
			"body": base64.StdEncoding.EncodeToString(req.Body),
		})
		if err != nil {
			return nil, err
		}
		if _, err := stdin.Write(append(line, '\n')); err != nil {
			return nil, fmt.Errorf("node: write: %w", err)
		}
		answer, err := lines.ReadBytes('\n')
		if err != nil {
			return nil, fmt.Errorf("node: read: %w", err)
		}
		var r wireResp
		if err := json.Unmarshal(answer, &r); err != nil {
			return nil, fmt.Errorf("node: %w: %q", err, answer)
		}
		if r.Error != "" {
			return nil, fmt.Errorf("node: %s", r.Error)
		}
		resp := &edge.Response{Status: r.Status, Body: r.Body}
		for _, h := range r.Headers {
			resp.Headers = append(resp.Headers, edge.Header{Name: h[0], Value: h[1]})
		}
		return resp, nil
	}))
}

// stop ends a child process: closes its stdin, waits a little, then kills it by PID.
func stop(t *testing.T, cmd *exec.Cmd, stdin io.Closer) {
	if stdin != nil {
		_ = stdin.Close()
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		_ = cmd.Process.Kill()
		<-done
	}
}

// TestWorkerd: the Cloudflare worker (wasm/js/worker.mjs) with the TinyGo module, in
// workerd itself, over HTTP on 127.0.0.1.
func TestWorkerd(t *testing.T) {
	addr := startWorkerd(t)
	client := &http.Client{Transport: &http.Transport{DisableCompression: true}, Timeout: 30 * time.Second}
	edgetest.RunConformance(t, edgetest.HandlerFunc(func(req *edge.Request) (*edge.Response, error) {
		return sendHTTP(client, addr, req)
	}))
}

// TestWorkerdAssets: the worker with the conformance snapshots deployed the way large
// environments are (edge:serve SNAPSHOTS=DIR): not bundled, but read by range from a
// disk service bound as static assets, their index parts streamed into the module at
// the first request and item bodies read as requests need them.
func TestWorkerdAssets(t *testing.T) {
	tinyGoModule(t) // skips before building the snapshots when there is none
	dir := filepath.Dir(snapshotFiles(t)[0])
	addr := startWorkerd(t, "--assets", dir)
	client := &http.Client{Transport: &http.Transport{DisableCompression: true}, Timeout: 30 * time.Second}
	edgetest.RunConformance(t, edgetest.HandlerFunc(func(req *edge.Request) (*edge.Response, error) {
		return sendHTTP(client, addr, req)
	}))
}

// startWorkerd stages a worker bundle with the TinyGo module, the conformance snapshots
// (bundled, unless stageArgs has --assets) and stageArgs (more stage.mjs options),
// starts workerd on a free 127.0.0.1 port, waits for its first answer and returns its
// address; the test's cleanup stops it by PID.
func startWorkerd(t *testing.T, stageArgs ...string) string {
	t.Helper()
	module, node := tinyGoModule(t), nodeBinary(t)
	workerd := os.Getenv(envWorkerd)
	if workerd == "" {
		workerd = filepath.Join(jsDir(t), "node_modules", ".bin", "workerd")
	}
	if _, err := os.Stat(workerd); err != nil {
		unavailable(t, "no workerd (go tool task tools:npm): %v", err)
	}
	bundle := filepath.Join(t.TempDir(), "worker")
	args := []string{filepath.Join(jsDir(t), "tools", "stage.mjs"), "--out", bundle, "--module", module, "--preview-token", previewToken}
	if !slices.Contains(stageArgs, "--assets") {
		for _, p := range snapshotFiles(t) {
			args = append(args, "--snap", p)
		}
	}
	args = append(args, stageArgs...)
	if out, err := exec.Command(node, args...).CombinedOutput(); err != nil {
		t.Fatalf("stage the worker: %v\n%s", err, out)
	}
	addr := freeAddr(t)
	cmd := exec.Command(workerd, "serve", filepath.Join(bundle, "config.capnp"), "--socket-addr", "http="+addr)
	var logs edgetest.SyncBuffer
	cmd.Stdout, cmd.Stderr = &logs, &logs
	if err := cmd.Start(); err != nil {
		t.Fatalf("start workerd: %v", err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Signal(os.Interrupt)
		stop(t, cmd, nil)
		if t.Failed() {
			t.Logf("workerd output:\n%s", strings.TrimSpace(logs.String()))
		}
	})
	client := &http.Client{Timeout: 30 * time.Second}
	// workerd starts in a fraction of a second; allow a slow CI machine much longer.
	deadline := time.Now().Add(60 * time.Second)
	for {
		_, err := sendHTTP(client, addr, &edge.Request{Method: "GET", Path: "/cda/rest/v1/demo/contents", RawQuery: "pageSize=1"})
		if err == nil {
			return addr
		}
		if cmd.ProcessState != nil || time.Now().After(deadline) {
			t.Fatalf("workerd did not answer on %s: %v\n%s", addr, err, strings.TrimSpace(logs.String()))
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// sendHTTP sends req to addr as written (path and query unescaped by nobody, no headers
// but the request's own) and returns the answer.
func sendHTTP(client *http.Client, addr string, req *edge.Request) (*edge.Response, error) {
	hr, err := http.NewRequest(req.Method, "http://"+addr+"/", bytes.NewReader(req.Body))
	if err != nil {
		return nil, err
	}
	hr.URL = &url.URL{Scheme: "http", Host: addr, Opaque: req.Path, RawQuery: req.RawQuery} // sent as written
	if len(req.Body) == 0 {
		hr.Body, hr.ContentLength = http.NoBody, 0
	}
	hr.Header.Set("User-Agent", "") // none: the native router gets only the case's headers
	for _, h := range req.Headers {
		hr.Header.Add(h.Name, h.Value)
	}
	resp, err := client.Do(hr)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, err
	}
	out := &edge.Response{Status: resp.StatusCode, Body: body}
	for name, values := range resp.Header {
		for _, v := range values {
			out.Headers = append(out.Headers, edge.Header{Name: name, Value: v})
		}
	}
	return out, nil
}

// freeAddr returns a 127.0.0.1 address with a port that was free a moment ago.
func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}
