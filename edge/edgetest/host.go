package edgetest

import (
	"bytes"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sync"
	"syscall"
	"testing"
	"time"
)

// StartHost serves the demo environment with the host on a free 127.0.0.1 port, with
// the extra command-line args, waits until it listens, and stops it by its PID when the
// test ends. It returns the address. The host is $CDA_HOST (build/host, the module
// embedded); without it, the host is built into a temporary folder and runs its native
// engine, unless args name a --module to run.
func StartHost(t testing.TB, args ...string) string {
	t.Helper()
	host := os.Getenv("CDA_HOST")
	if host == "" {
		host = filepath.Join(t.TempDir(), "host")
		cmd := exec.Command("go", "build", "-o", host, "./host")
		cmd.Dir = RepoRoot(t)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("go build ./host: %v\n%s", err, out)
		}
		if !slices.Contains(args, "--module") {
			args = append(args, "--engine", "native")
		}
	}
	snaps := t.TempDir()
	if err := os.WriteFile(filepath.Join(snaps, DemoEnvironment+".snap"), DemoSnapshot(t), 0o644); err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	logs := NewHostLog()
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
	case <-logs.Listening():
	case err := <-exited:
		t.Fatalf("the host exited before listening: %v\n%s", err, logs)
	case <-time.After(30 * time.Second):
		t.Fatalf("the host did not listen within 30 s\n%s", logs)
	}
	return addr
}

// HostLog collects a host process's log (its stdout and stderr) and signals its
// "listening" line. It is safe for concurrent use.
type HostLog struct {
	mu    sync.Mutex
	buf   bytes.Buffer
	ready chan struct{}
	once  sync.Once
}

// NewHostLog returns an empty log.
func NewHostLog() *HostLog { return &HostLog{ready: make(chan struct{})} }

// Listening is closed once the host has logged that it listens.
func (l *HostLog) Listening() <-chan struct{} { return l.ready }

// Write implements io.Writer.
func (l *HostLog) Write(b []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.buf.Write(b)
	if bytes.Contains(l.buf.Bytes(), []byte(`"msg":"listening"`)) {
		l.once.Do(func() { close(l.ready) })
	}
	return len(b), nil
}

// String returns what the host has logged so far.
func (l *HostLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}
