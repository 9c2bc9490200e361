// Package localproc holds what the host's measuring tools (loadrun, soak, vsnginx) do
// alike with the servers they start on loopback: pick a free port, start and stop the
// process, wait until it answers, ask it something, read its resident memory.
package localproc

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// FreeAddr returns a loopback address with a port free at the time of the call.
func FreeAddr() (string, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer ln.Close()
	return ln.Addr().String(), nil
}

// WaitOK polls url until it answers 200, for at most limit. When exited (which may be
// nil) delivers the server process's end first, it gives up with that error, which it
// sends back on exited for its other readers.
func WaitOK(url string, exited chan error, limit time.Duration) error {
	deadline := time.Now().Add(limit)
	for time.Now().Before(deadline) {
		select {
		case err := <-exited:
			exited <- err
			return fmt.Errorf("the server exited before answering: %v", err)
		default:
		}
		if resp, err := http.Get(url); err == nil {
			resp.Body.Close()
			if resp.StatusCode == 200 {
				return nil
			}
		}
		time.Sleep(100 * time.Millisecond)
	}
	return errors.New("no answer from " + url + " after " + limit.String())
}

// Send sends one request to base+path, with body as JSON when it is not empty, and
// returns the answer's status and body.
func Send(base, method, path, body string) (int, []byte, error) {
	req, err := http.NewRequest(method, base+path, strings.NewReader(body))
	if err != nil {
		return 0, nil, err
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return resp.StatusCode, b, err
}

// ContentIDs returns the content ids of the first 50 items of env by name, for item
// requests.
func ContentIDs(base, env string) ([]string, error) {
	status, b, err := Send(base, "GET", "/cda/rest/v1/"+url.PathEscape(env)+"/contents?pageSize=50&sort=Name&sortAsc=true", "")
	if err != nil {
		return nil, err
	}
	var page struct {
		Data []struct{ ContentID string } `json:"data"`
	}
	if err := json.Unmarshal(b, &page); err != nil || len(page.Data) == 0 {
		return nil, fmt.Errorf("list %s: status %d, %v", env, status, err)
	}
	ids := make([]string, len(page.Data))
	for i, d := range page.Data {
		ids[i] = d.ContentID
	}
	return ids, nil
}

// Start starts cmd. exited delivers its end once (WaitOK hands it back for other
// readers); stop sends it SIGTERM and waits for that end.
func Start(cmd *exec.Cmd) (exited chan error, stop func(), err error) {
	if err := cmd.Start(); err != nil {
		return nil, nil, err
	}
	exited = make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	stop = func() {
		_ = syscall.Kill(cmd.Process.Pid, syscall.SIGTERM)
		<-exited
	}
	return exited, stop, nil
}

// RSSKiB returns the resident set size of process pid in KiB (Linux: /proc).
func RSSKiB(pid int) (int64, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, err
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			return strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
		}
	}
	return 0, errors.New("no VmRSS in /proc/" + strconv.Itoa(pid) + "/status")
}

// Host is a host process started on a loopback port by StartHost.
type Host struct {
	Addr   string     // 127.0.0.1:PORT
	Base   string     // its URL, http://Addr
	Cmd    *exec.Cmd  // the process
	Exited chan error // its end, as Start gives it
	Stop   func()     // SIGTERM, then wait for the end
}

// StartHost starts the host binary bin with args and --addr on a free loopback port,
// its output going to out, and waits up to ready for /readyz to answer 200. When it
// does not, the process is stopped and the error says why.
func StartHost(bin string, args []string, out io.Writer, ready time.Duration) (*Host, error) {
	addr, err := FreeAddr()
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(bin, slices.Concat(args, []string{"--addr", addr})...)
	cmd.Stdout, cmd.Stderr = out, out
	exited, stop, err := Start(cmd)
	if err != nil {
		return nil, fmt.Errorf("start host: %w", err)
	}
	h := &Host{Addr: addr, Base: "http://" + addr, Cmd: cmd, Exited: exited, Stop: stop}
	if err := WaitOK(h.Base+"/readyz", exited, ready); err != nil {
		stop()
		return nil, err
	}
	return h, nil
}
