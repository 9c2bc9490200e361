// Package clients runs real GraphQL clients against the host (API.md D9): graphql-request,
// Apollo Client (with its cache) and urql in clients.mjs, then GraphQL Code Generator
// types the documents of documents/ from the host's schema and tsc compiles
// typed-client.ts against those types, which then runs against the host too. The clients
// are the exact versions of package-lock.json (go tool task tools:npm:clients installs
// them; this test runs npm ci when they are missing), each with its own fetch.
//
// Inputs, set by `go tool task test`:
//
//	CDA_HOST               the host binary to run (build/host, the module embedded);
//	                       else the test builds the host and runs its native engine
//	CDA_PARITY_REQUIRED=1  a missing node fails instead of skipping
package clients

import (
	"bytes"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/cdaedge/cdaedge/edge/edgetest"
)

func TestGraphQLClients(t *testing.T) {
	if testing.Short() {
		t.Skip("runs node and the host")
	}
	node, err := exec.LookPath("node")
	if err != nil {
		if os.Getenv("CDA_PARITY_REQUIRED") == "1" {
			t.Fatal("node is not installed")
		}
		t.Skip("node is not installed")
	}
	dir := filepath.Join(edgetest.RepoRoot(t), "web", "clients")
	if _, err := os.Stat(filepath.Join(dir, "node_modules", ".package-lock.json")); err != nil {
		runIn(t, dir, nil, "npm", "ci", "--no-audit", "--no-fund", "--loglevel=error")
	}
	endpoint := "http://" + startHost(t) + "/cda/graphql/v1/" + edgetest.DemoEnvironment

	out := runIn(t, dir, nil, node, "clients.mjs", endpoint)
	t.Logf("clients.mjs:\n%s", out)

	// GraphQL Code Generator reads the schema from the host, tsc compiles the typed
	// client against what it generated, and the compiled client runs.
	if err := os.RemoveAll(filepath.Join(dir, ".gen")); err != nil {
		t.Fatal(err)
	}
	runIn(t, dir, []string{"CDA_GRAPHQL_URL=" + endpoint}, node, filepath.Join("node_modules", "@graphql-codegen", "cli", "esm", "bin.js"), "--config", "codegen.ts")
	runIn(t, dir, nil, node, filepath.Join("node_modules", "typescript", "bin", "tsc"), "-p", "tsconfig.json")
	t.Logf("%s", runIn(t, dir, nil, node, filepath.Join(".gen", "out", "typed-client.js"), endpoint))
}

// runIn runs a command in dir and returns its output; failing, it fails the test with
// the output.
func runIn(t *testing.T, dir string, env []string, name string, args ...string) []byte {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", filepath.Base(name), strings.Join(args, " "), err, out)
	}
	return out
}

// startHost serves the demo environment with the host on a free 127.0.0.1 port, waits
// until it listens, and stops it by its PID when the test ends. It returns the address.
func startHost(t *testing.T) string {
	t.Helper()
	host, args := os.Getenv("CDA_HOST"), []string(nil)
	if host == "" {
		// No build/host given: build the host and run the engine compiled in (the
		// embedded module needs go tool task build).
		host = filepath.Join(t.TempDir(), "host")
		runIn(t, edgetest.RepoRoot(t), nil, "go", "build", "-o", host, "./host")
		args = []string{"--engine", "native"}
	}
	snaps := t.TempDir()
	if err := os.WriteFile(filepath.Join(snaps, edgetest.DemoEnvironment+".snap"), edgetest.DemoSnapshot(t), 0o644); err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	logs := &logBuffer{ready: make(chan struct{})}
	cmd := exec.Command(host, append([]string{"--snapshots", snaps, "--addr", addr, "--access-log=false"}, args...)...)
	cmd.Stdout, cmd.Stderr = logs, logs
	if err := cmd.Start(); err != nil {
		t.Fatalf("start %s: %v", host, err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	t.Cleanup(func() {
		if err := syscall.Kill(cmd.Process.Pid, syscall.SIGTERM); err != nil {
			t.Errorf("stop host %d: %v", cmd.Process.Pid, err)
		}
		select {
		case <-exited:
		case <-time.After(20 * time.Second):
			_ = cmd.Process.Kill()
			<-exited
		}
		if t.Failed() {
			t.Logf("host log:\n%s", logs)
		}
	})
	select {
	case <-logs.ready:
	case err := <-exited:
		t.Fatalf("the host exited before listening: %v\n%s", err, logs)
	case <-time.After(30 * time.Second):
		t.Fatalf("the host did not listen within 30 s\n%s", logs)
	}
	return addr
}

// logBuffer collects the host's log and signals its "listening" line.
type logBuffer struct {
	mu    sync.Mutex
	buf   bytes.Buffer
	ready chan struct{}
	once  sync.Once
}

func (l *logBuffer) Write(b []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.buf.Write(b)
	if bytes.Contains(l.buf.Bytes(), []byte(`"msg":"listening"`)) {
		l.once.Do(func() { close(l.ready) })
	}
	return len(b), nil
}

func (l *logBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}
