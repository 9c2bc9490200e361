// Command loadrun measures the host under load: it starts the host on loopback over a
// snapshot folder, drives it with wrk (a mix of REST, GraphQL and search requests at
// high concurrency, for a bounded time), samples the host's resident memory every
// second, and reports throughput, latency percentiles, errors and RSS. It fails when a
// request failed or the peak RSS of the last 20 s is above that of the first 20 s by
// more than the allowed growth.
//
//	go run ./host/internal/loadrun --host build/host --snapshots DIR --env ENV [--engine wasm]
//
// `go tool task load` builds everything and runs it for both engines.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/cdaedge/cdaedge/host/internal/localproc"
	"github.com/cdaedge/cdaedge/host/internal/wrkrun"
)

type options struct {
	host, snapshots, env, engine, module, out string
	duration                                  time.Duration
	connections, threads, instances           int
	answerCacheBytes                          int64
	maxGrowth                                 float64
	window                                    time.Duration
}

func main() {
	var o options
	flag.StringVar(&o.host, "host", "build/host", "host binary")
	flag.StringVar(&o.snapshots, "snapshots", "", "snapshot folder to serve (required)")
	flag.StringVar(&o.env, "env", "load", "environment to query")
	flag.StringVar(&o.engine, "engine", "wasm", "host engine: wasm or native")
	flag.StringVar(&o.module, "module", "", "wasm module for the host (default: its embedded one)")
	flag.IntVar(&o.instances, "instances", 0, "host wasm instances (default: the host's)")
	// The mix repeats a few requests: with the host's answer cache on, the run would
	// measure the cache rather than the engine.
	flag.Int64Var(&o.answerCacheBytes, "answer-cache-bytes", 0, "the host's --answer-cache-bytes (default 0: off, so that the engine answers every request)")
	flag.DurationVar(&o.duration, "duration", 60*time.Second, "length of the run")
	flag.IntVar(&o.connections, "connections", 64, "concurrent connections")
	flag.IntVar(&o.threads, "threads", 2, "wrk threads")
	flag.DurationVar(&o.window, "window", 20*time.Second, "RSS comparison window at the start and the end of the run")
	flag.Float64Var(&o.maxGrowth, "max-rss-growth", 0.10, "allowed growth of the peak RSS from the first window to the last")
	flag.StringVar(&o.out, "out", "", "also write the report as JSON to this file")
	flag.Parse()
	if err := run(o); err != nil {
		fmt.Fprintln(os.Stderr, "loadrun:", err)
		os.Exit(1)
	}
}

// report is the outcome of one run.
type report struct {
	Engine        string  `json:"engine"`
	Seconds       float64 `json:"seconds"`
	Connections   int     `json:"connections"`
	Requests      int64   `json:"requests"`
	RPS           float64 `json:"rps"`
	P50ms         float64 `json:"p50_ms"`
	P99ms         float64 `json:"p99_ms"`
	P999ms        float64 `json:"p999_ms"`
	MaxMs         float64 `json:"max_ms"`
	Errors        int64   `json:"errors"`
	Non2xx        int64   `json:"non_2xx"`
	RSSFirstMiB   float64 `json:"rss_peak_first_window_mib"`
	RSSLastMiB    float64 `json:"rss_peak_last_window_mib"`
	RSSPeakMiB    float64 `json:"rss_peak_mib"`
	RSSGrowthPct  float64 `json:"rss_growth_pct"`
	ResponseBytes int64   `json:"bytes"`
}

func run(o options) error {
	if o.snapshots == "" {
		return errors.New("--snapshots is required")
	}
	if o.duration < 2*o.window {
		o.window = o.duration / 3
	}
	wrk, err := exec.LookPath("wrk")
	if err != nil {
		return errors.New("wrk not found: install it (apt-get install wrk; `go tool task load` does)")
	}
	work, err := os.MkdirTemp("", "cdaedge-load")
	if err != nil {
		return err
	}
	defer os.RemoveAll(work)

	args := []string{"--snapshots", o.snapshots, "--engine", o.engine, "--log-level", "warn",
		"--answer-cache-bytes", strconv.FormatInt(o.answerCacheBytes, 10)}
	if o.module != "" {
		args = append(args, "--module", o.module)
	}
	if o.instances > 0 {
		args = append(args, "--instances", strconv.Itoa(o.instances))
	}
	hostLog, err := os.Create(filepath.Join(work, "host.log"))
	if err != nil {
		return err
	}
	defer hostLog.Close()
	h, err := localproc.StartHost(o.host, args, hostLog, time.Minute)
	if err != nil {
		b, _ := os.ReadFile(hostLog.Name())
		return fmt.Errorf("%w\n%s", err, b)
	}
	defer h.Stop()
	host, base := h.Cmd, h.Base
	ids, err := localproc.ContentIDs(base, o.env)
	if err != nil {
		return err
	}
	script := filepath.Join(work, "mix.lua")
	if err := os.WriteFile(script, luaScript(o.env, ids), 0o644); err != nil {
		return err
	}
	if err := checkMix(base, o.env, ids); err != nil {
		return err
	}

	fmt.Printf("== %s engine, %d connections, %s on %s\n", o.engine, o.connections, o.duration, h.Addr)
	samples := make(chan []rssSample, 1)
	ctx, stop := context.WithCancel(context.Background())
	go func() { samples <- sampleRSS(ctx, host.Process.Pid) }()
	cmd := exec.Command(wrk, "-t", strconv.Itoa(o.threads), "-c", strconv.Itoa(o.connections),
		"-d", fmt.Sprintf("%ds", int(o.duration.Seconds())), "--timeout", "10s", "-s", script, base)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = io.MultiWriter(&out, os.Stdout), os.Stderr
	err = cmd.Run()
	stop()
	rss := <-samples
	if err != nil {
		return fmt.Errorf("wrk: %w", err)
	}
	r, err := parseWrk(out.Bytes())
	if err != nil {
		return err
	}
	r.Engine, r.Connections = o.engine, o.connections
	r.RSSFirstMiB, r.RSSLastMiB, r.RSSPeakMiB = windows(rss, o.window)
	if r.RSSFirstMiB > 0 {
		r.RSSGrowthPct = 100 * (r.RSSLastMiB - r.RSSFirstMiB) / r.RSSFirstMiB
	}
	fmt.Printf("throughput %.0f req/s (%d requests in %.1f s, %.1f MiB)\n", r.RPS, r.Requests, r.Seconds, float64(r.ResponseBytes)/(1<<20))
	fmt.Printf("latency    p50 %.2f ms  p99 %.2f ms  p99.9 %.2f ms  max %.2f ms\n", r.P50ms, r.P99ms, r.P999ms, r.MaxMs)
	fmt.Printf("errors     %d (socket errors and timeouts) + %d non-2xx\n", r.Errors, r.Non2xx)
	fmt.Printf("rss        peak %.1f MiB; first %s %.1f MiB, last %s %.1f MiB (%+.1f%%)\n",
		r.RSSPeakMiB, o.window, r.RSSFirstMiB, o.window, r.RSSLastMiB, r.RSSGrowthPct)
	if o.out != "" {
		b, _ := json.MarshalIndent(r, "", "  ")
		if err := os.WriteFile(o.out, append(b, '\n'), 0o644); err != nil {
			return err
		}
	}
	var fails []string
	if r.Errors > 0 || r.Non2xx > 0 {
		fails = append(fails, fmt.Sprintf("%d requests failed", r.Errors+r.Non2xx))
	}
	if r.Requests == 0 {
		fails = append(fails, "no request completed")
	}
	if r.RSSLastMiB > r.RSSFirstMiB*(1+o.maxGrowth) {
		fails = append(fails, fmt.Sprintf("RSS grew %.1f%% (allowed %.0f%%)", r.RSSGrowthPct, 100*o.maxGrowth))
	}
	if len(fails) > 0 {
		return errors.New(strings.Join(fails, "; "))
	}
	return nil
}

// mixRequest is one request of the load mix.
type mixRequest struct {
	method, path, body string
}

// mix is the request mix: REST lists, items and searches, GraphQL queries and search
// DSL queries, all of which must answer 200.
func mix(env string, ids []string) []mixRequest {
	rest := "/cda/rest/v1/" + env + "/contents"
	gql := "/cda/graphql/v1/" + env
	es := "/cda/es/v1/" + env
	m := []mixRequest{
		{"GET", rest, ""},
		{"GET", rest + "?pageSize=20&page=3&sort=Name&sortAsc=true", ""},
		{"GET", rest + "?searchByName=culture&pageSize=5", ""},
		{"GET", rest + "?pageSize=5&sort=UpdatedAt&sortAsc=false", ""},
		{"POST", gql, `{"query":"{ content(pageSize: 10) { Name ContentID UpdatedAt } }"}`},
		{"POST", gql, `{"query":"{ content(pageSize: 5, sort: \"Name\") { Name TemplateName } }"}`},
		{"POST", es, `{"query":{"match":{"Data.body":"garden festival"}},"size":10}`},
		{"POST", es, `{"query":{"bool":{"must":[{"match":{"Name":"culture"}}],"filter":[{"range":{"UpdatedAt":{"gte":"2020-01-01"}}}]}},"size":5}`},
		{"POST", es, `{"query":{"query_string":{"query":"Name:(culture OR night) AND TemplateName:Article"}},"size":10}`},
		{"POST", es, `{"query":{"match_all":{}},"size":3,"sort":[{"UpdatedAt":"desc"}]}`},
	}
	for i, id := range ids {
		if i >= 10 {
			break
		}
		m = append(m, mixRequest{"GET", rest + "/" + id, ""})
	}
	return m
}

// checkMix sends every request of the mix once and requires 200s.
func checkMix(base, env string, ids []string) error {
	for _, r := range mix(env, ids) {
		status, b, err := localproc.Send(base, r.method, r.path, r.body)
		if err != nil {
			return err
		}
		if status != 200 {
			return fmt.Errorf("mix request %s %s: %d %.300s", r.method, r.path, status, b)
		}
	}
	return nil
}

// luaScript is the wrk script: each thread cycles through the mix (from a different
// start), and done() prints one JSON line with the summary and percentiles.
func luaScript(env string, ids []string) []byte {
	var b bytes.Buffer
	b.WriteString("local reqs = {\n")
	for _, r := range mix(env, ids) {
		fmt.Fprintf(&b, "  {%q, %q, %q},\n", r.method, r.path, r.body)
	}
	b.WriteString(`}
local prepared = {}
local counter = 0
local tid = 0
function setup(thread)
  thread:set("tid", tid)
  tid = tid + 1
end
function init(args)
  for i, r in ipairs(reqs) do
    local headers = {["Accept-Encoding"] = (i % 3 == 0) and "gzip" or ((i % 3 == 1) and "zstd, gzip" or nil)}
    if r[3] ~= "" then headers["Content-Type"] = "application/json" end
    prepared[i] = wrk.format(r[1], r[2], headers, r[3] ~= "" and r[3] or nil)
  end
  counter = (tid or 0) * 7
end
function request()
  counter = counter + 1
  return prepared[(counter % #prepared) + 1]
end
`)
	b.WriteString(wrkrun.DoneScript)
	return b.Bytes()
}

// parseWrk reads wrk's summary into a report.
func parseWrk(out []byte) (report, error) {
	w, err := wrkrun.Parse(out)
	if err != nil {
		return report{}, err
	}
	return report{Requests: w.Requests, ResponseBytes: w.Bytes, Errors: w.Errors, Non2xx: w.Non2xx, Seconds: w.Seconds,
		RPS: w.RPS, P50ms: w.P50ms, P99ms: w.P99ms, P999ms: w.P999ms, MaxMs: w.MaxMs}, nil
}

type rssSample struct {
	at  time.Duration
	mib float64
}

// sampleRSS reads the resident set size of pid every second until ctx ends.
func sampleRSS(ctx context.Context, pid int) []rssSample {
	var out []rssSample
	start := time.Now()
	t := time.NewTicker(time.Second)
	defer t.Stop()
	for {
		if kib, err := localproc.RSSKiB(pid); err == nil {
			out = append(out, rssSample{time.Since(start), float64(kib) / 1024})
		}
		select {
		case <-ctx.Done():
			return out
		case <-t.C:
		}
	}
}

// windows returns the peak RSS of the first and the last window of the run, and the
// overall peak.
func windows(s []rssSample, w time.Duration) (first, last, peak float64) {
	if len(s) == 0 {
		return 0, 0, 0
	}
	end := s[len(s)-1].at
	for _, x := range s {
		if x.at <= w {
			first = max(first, x.mib)
		}
		if x.at >= end-w {
			last = max(last, x.mib)
		}
		peak = max(peak, x.mib)
	}
	return first, last, peak
}
