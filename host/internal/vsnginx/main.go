// Command vsnginx compares the host's throughput with nginx serving the same answer
// bytes as static files, in one run on this machine: for each request (a REST list, one
// item, a GraphQL query, a full-text search) it drives nginx and the host with each
// engine, with and without its answer cache, with wrk at the same concurrency, in rounds
// of alternating order, and prints each one's mean requests per second, its ratio to
// nginx's, and the range of the rounds' own ratios. The ratios, not the absolute
// numbers, are what carries from one machine to another; the range shows how much of a
// difference between two runs is the machine's noise.
//
//	go run ./host/internal/vsnginx --host build/host --snapshots DIR --env ENV
//
// `go tool task bench:http` builds everything, installs nginx and wrk, and runs it.
package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"text/tabwriter"
	"time"

	"github.com/cdaedge/cdaedge/host/internal/localproc"
	"github.com/cdaedge/cdaedge/host/internal/wrkrun"
)

type options struct {
	host, snapshots, env, nginx, out string
	stdModule                        string // the std-Go build of the module, measured too when set
	duration                         time.Duration
	connections, rounds              int
}

func main() {
	var o options
	flag.StringVar(&o.host, "host", "build/host", "host binary")
	flag.StringVar(&o.snapshots, "snapshots", "", "snapshot folder to serve (required)")
	flag.StringVar(&o.env, "env", "load", "environment to query")
	flag.StringVar(&o.nginx, "nginx", "nginx", "nginx binary")
	flag.StringVar(&o.stdModule, "std-module", "", "also measure the host running this module (the std-Go build) instead of its embedded one (the TinyGo build)")
	flag.DurationVar(&o.duration, "duration", 10*time.Second, "length of each wrk run")
	flag.IntVar(&o.connections, "connections", 32, "concurrent connections")
	flag.IntVar(&o.rounds, "rounds", 2, "rounds per request, in alternating order; each server's req/s and p50 are its means")
	flag.StringVar(&o.out, "out", "", "also write the results as JSON to this file")
	flag.Parse()
	if err := run(o); err != nil {
		fmt.Fprintln(os.Stderr, "vsnginx:", err)
		os.Exit(1)
	}
}

// request is one measured request; nginx serves its answer as the static file named
// file.
type request struct {
	name, method, path, body, file string
}

// server is one configuration measured: its base URL, and whether it is nginx (which
// serves every request's bytes by GET from /<file>).
type server struct {
	label string
	base  string
	nginx bool
	stop  func()
}

// result is one wrk run.
type result struct {
	Request string  `json:"request"`
	Server  string  `json:"server"`
	RPS     float64 `json:"rps"`
	P50ms   float64 `json:"p50_ms"`
	Errors  int64   `json:"errors"`
	Ratio   float64 `json:"ratio_to_nginx"`
	// RatioMin and RatioMax are the lowest and highest of the rounds' own ratios (the
	// server's req/s over nginx's in the same round): how far the machine's noise moves
	// the ratio between one run and the next.
	RatioMin float64 `json:"ratio_min"`
	RatioMax float64 `json:"ratio_max"`
}

func run(o options) error {
	if o.snapshots == "" {
		return errors.New("--snapshots is required")
	}
	if o.rounds < 1 {
		return errors.New("--rounds must be at least 1")
	}
	wrk, err := exec.LookPath("wrk")
	if err != nil {
		return errors.New("wrk not found: install it (apt-get install wrk; `go tool task bench:http` does)")
	}
	work, err := os.MkdirTemp("", "cdaedge-vsnginx")
	if err != nil {
		return err
	}
	defer os.RemoveAll(work)
	// nginx's workers run as an unprivileged user when it starts as root: they must be
	// able to read the answers.
	if err := os.Chmod(work, 0o755); err != nil {
		return err
	}

	var servers []server
	defer func() {
		for _, s := range servers {
			s.stop()
		}
	}()
	configs := []hostConfig{{"wasm", "0", ""}, {"wasm", "67108864", ""}, {"native", "0", ""}}
	if o.stdModule != "" {
		configs = append(configs, hostConfig{"wasm", "0", o.stdModule})
	}
	for _, c := range configs {
		s, err := startHost(o, work, c)
		if err != nil {
			return err
		}
		servers = append(servers, s)
	}
	reqs, err := requests(servers[0].base, o.env)
	if err != nil {
		return err
	}
	static := filepath.Join(work, "static")
	if err := writeAnswers(servers[0].base, static, reqs); err != nil {
		return err
	}
	ng, err := startNginx(o.nginx, work, static)
	if err != nil {
		return err
	}
	servers = append(servers, ng)

	var results []result
	for _, r := range reqs {
		row, err := measure(wrk, work, o, servers, r)
		if err != nil {
			return err
		}
		results = append(results, row...)
	}
	return report(o, results)
}

// measure drives every server with request r for o.rounds rounds, in one order and
// then the reverse, so that the machine's drift weighs on all alike, and returns each
// server's means (nginx's row first), with its ratio to nginx's mean.
func measure(wrk, work string, o options, servers []server, r request) ([]result, error) {
	sums := make([]result, len(servers))
	perRound := make([][]float64, o.rounds) // each round's req/s, by server
	for round := range o.rounds {
		perRound[round] = make([]float64, len(servers))
		for k := range servers {
			i := len(servers) - 1 - k // nginx (the last) first
			if round%2 == 1 {
				i = k
			}
			s := servers[i]
			sum, err := drive(wrk, work, o, s, r)
			if err != nil {
				return nil, fmt.Errorf("%s on %s: %w", r.name, s.label, err)
			}
			perRound[round][i] = sum.RPS
			sums[i].RPS += sum.RPS / float64(o.rounds)
			sums[i].P50ms += sum.P50ms / float64(o.rounds)
			sums[i].Errors += sum.Errors + sum.Non2xx
		}
	}
	last := len(servers) - 1
	nginx := sums[last].RPS
	var row []result
	for i := last; i >= 0; i-- {
		res := result{Request: r.name, Server: servers[i].label, RPS: sums[i].RPS, P50ms: sums[i].P50ms,
			Errors: sums[i].Errors, Ratio: sums[i].RPS / nginx}
		for round, rps := range perRound {
			ratio := rps[i] / rps[last]
			if round == 0 || ratio < res.RatioMin {
				res.RatioMin = ratio
			}
			res.RatioMax = max(res.RatioMax, ratio)
		}
		row = append(row, res)
	}
	return row, nil
}

// requests are the measured requests, with an item id read from the environment.
func requests(base, env string) ([]request, error) {
	ids, err := localproc.ContentIDs(base, env)
	if err != nil {
		return nil, err
	}
	rest := "/cda/rest/v1/" + url.PathEscape(env) + "/contents"
	return []request{
		{"REST list", "GET", rest, "", "list"},
		{"REST get one", "GET", rest + "/" + url.PathEscape(ids[0]), "", "item"},
		{"GraphQL", "POST", "/cda/graphql/v1/" + url.PathEscape(env), `{"query":"{ content(pageSize: 10) { Name ContentID UpdatedAt } }"}`, "graphql"},
		{"search", "POST", "/cda/es/v1/" + url.PathEscape(env), `{"query":{"query_string":{"query":"coffee espresso"}},"size":10}`, "search"},
	}, nil
}

// writeAnswers stores each request's answer body under dir, for nginx.
func writeAnswers(base, dir string, reqs []request) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for _, r := range reqs {
		status, b, err := localproc.Send(base, r.method, r.path, r.body)
		if err != nil || status != 200 {
			return fmt.Errorf("%s: %d %v %.200s", r.name, status, err, b)
		}
		if err := os.WriteFile(filepath.Join(dir, r.file), b, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// drive runs wrk against s for request r and returns its summary.
func drive(wrk, work string, o options, s server, r request) (wrkrun.Summary, error) {
	method, path, body := r.method, r.path, r.body
	if s.nginx {
		method, body = "GET", ""
		path = "/" + r.file
	}
	script := filepath.Join(work, "req.lua")
	lua := fmt.Sprintf("wrk.method = %q\nwrk.body = %q\n", method, body)
	if body != "" {
		lua += "wrk.headers[\"Content-Type\"] = \"application/json\"\n"
	}
	if err := os.WriteFile(script, []byte(lua+wrkrun.DoneScript), 0o644); err != nil {
		return wrkrun.Summary{}, err
	}
	out, err := exec.Command(wrk, "-t", "2", "-c", strconv.Itoa(o.connections), "-d", o.duration.String(),
		"-s", script, s.base+path).CombinedOutput()
	if err != nil {
		return wrkrun.Summary{}, fmt.Errorf("wrk: %v: %s", err, out)
	}
	return wrkrun.Parse(out)
}

func report(o options, results []result) error {
	tw := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "request\tserver\treq/s\tp50 ms\terrors\tvs nginx\trounds' range\n")
	for _, r := range results {
		fmt.Fprintf(tw, "%s\t%s\t%.0f\t%.2f\t%d\t%.3f×\t%.3f–%.3f×\n", r.Request, r.Server, r.RPS, r.P50ms, r.Errors, r.Ratio, r.RatioMin, r.RatioMax)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if o.out == "" {
		return nil
	}
	b, err := json.MarshalIndent(results, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(o.out, append(b, '\n'), 0o644)
}

// hostConfig is one configuration of the host measured: its engine, answer cache size
// and module (empty: the embedded one).
type hostConfig struct{ engine, cacheBytes, module string }

// startHost starts the host configured as c on a free loopback port.
func startHost(o options, work string, c hostConfig) (server, error) {
	args := []string{"--snapshots", o.snapshots, "--engine", c.engine,
		"--answer-cache-bytes", c.cacheBytes, "--access-log=false", "--log-level", "warn", "--web=false"}
	label := "host " + c.engine
	if c.module != "" {
		args = append(args, "--module", c.module)
		label += " (std module)"
	}
	if c.cacheBytes != "0" {
		label += " + answer cache"
	}
	log, err := os.CreateTemp(work, "host-*.log")
	if err != nil {
		return server{}, err
	}
	h, err := localproc.StartHost(o.host, args, log, time.Minute)
	if err != nil {
		return server{}, fmt.Errorf("%s: %w", label, err)
	}
	return server{label: label, base: h.Base, stop: h.Stop}, nil
}

// startNginx serves dir's files on a free loopback port with nginx, in the foreground
// under a config of its own in work (two workers, as many as the machine's cores here).
func startNginx(bin, work, dir string) (server, error) {
	addr, err := localproc.FreeAddr()
	if err != nil {
		return server{}, err
	}
	prefix := filepath.Join(work, "nginx")
	if err := os.MkdirAll(filepath.Join(prefix, "tmp"), 0o755); err != nil {
		return server{}, err
	}
	conf := fmt.Sprintf(`worker_processes 2;
daemon off;
pid %[1]s/nginx.pid;
error_log %[1]s/error.log warn;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path %[1]s/tmp; proxy_temp_path %[1]s/tmp; fastcgi_temp_path %[1]s/tmp;
  uwsgi_temp_path %[1]s/tmp; scgi_temp_path %[1]s/tmp;
  default_type "application/json; charset=utf-8";
  server { listen %[2]s; root %[3]s; etag on; }
}
`, prefix, addr, dir)
	confPath := filepath.Join(prefix, "nginx.conf")
	if err := os.WriteFile(confPath, []byte(conf), 0o644); err != nil {
		return server{}, err
	}
	cmd := exec.Command(bin, "-p", prefix, "-e", filepath.Join(prefix, "error.log"), "-c", confPath)
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	// nginx's master forks its workers: stop the whole process group.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		return server{}, fmt.Errorf("start nginx (install it: apt-get install nginx): %w", err)
	}
	s := server{label: "nginx", base: "http://" + addr, nginx: true, stop: func() {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGQUIT)
		_ = cmd.Wait()
	}}
	if err := localproc.WaitOK(s.base+"/list", nil, time.Minute); err != nil {
		s.stop()
		return server{}, fmt.Errorf("nginx: %w", err)
	}
	return s, nil
}
