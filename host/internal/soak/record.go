package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"time"

	"github.com/cdaedge/cdaedge/host/internal/localproc"
)

// recorder collects every request's outcome, by period.
type recorder struct {
	start  time.Time
	bucket time.Duration

	mu      sync.Mutex
	periods []*period
	kinds   map[string]*kindCount
	notes   []string
	written int // the last snapshot version written
}

type period struct {
	lat      []time.Duration
	errors   int
	mixed    int
	deliber  int // deliberate 4xx answers
	requests int
}

type kindCount struct {
	Requests int         `json:"requests"`
	Errors   int         `json:"errors"`
	Statuses map[int]int `json:"statuses"`
}

func newRecorder(start time.Time, bucket time.Duration) *recorder {
	return &recorder{start: start, bucket: bucket, kinds: map[string]*kindCount{}}
}

func (r *recorder) periodAt(t time.Time) *period {
	i := int(t.Sub(r.start) / r.bucket)
	for len(r.periods) <= i {
		r.periods = append(r.periods, &period{})
	}
	return r.periods[i]
}

// record notes one request: its latency, status (0: no answer), whether it mixed
// versions, and a failure message ("" when it went as expected).
func (r *recorder) record(k kind, d time.Duration, status int, mixed bool, failure string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	p := r.periodAt(time.Now())
	p.requests++
	if !k.hostile {
		// Latency is that of the ordinary requests; the hostile ones run to their
		// budget by design.
		p.lat = append(p.lat, d)
	}
	kc := r.kinds[k.name]
	if kc == nil {
		kc = &kindCount{Statuses: map[int]int{}}
		r.kinds[k.name] = kc
	}
	kc.Requests++
	kc.Statuses[status]++
	if failure != "" {
		p.errors++
		kc.Errors++
		if len(r.notes) < 20 {
			r.notes = append(r.notes, failure)
		}
	}
	if mixed {
		p.mixed++
		if len(r.notes) < 20 {
			r.notes = append(r.notes, k.name+": an answer mixed snapshot versions")
		}
	}
	if k.hostile && status >= 400 && status < 500 {
		p.deliber++
	}
}

func (r *recorder) note(s string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.notes) < 20 {
		r.notes = append(r.notes, s)
	}
}

func (r *recorder) wrote(v int) {
	r.mu.Lock()
	r.written = v
	r.mu.Unlock()
}

// sample is one reading of the host process.
type sample struct {
	at  time.Duration
	rss float64 // MiB
	fds int
}

// startSampler reads the host's resident memory and open descriptors every second
// until ctx ends.
func startSampler(ctx context.Context, pid int, start time.Time) <-chan []sample {
	out := make(chan []sample, 1)
	go func() {
		var s []sample
		t := time.NewTicker(time.Second)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				out <- s
				return
			case <-t.C:
			}
			kib, err := localproc.RSSKiB(pid)
			if err != nil {
				continue
			}
			fds, _ := os.ReadDir(fmt.Sprintf("/proc/%d/fd", pid))
			s = append(s, sample{at: time.Since(start), rss: float64(kib) / 1024, fds: len(fds)})
		}
	}()
	return out
}

// report is the outcome of a run.
type report struct {
	Engine        string                `json:"engine"`
	Seconds       float64               `json:"seconds"`
	Workers       int                   `json:"workers"`
	Items         int                   `json:"items"`
	Swaps         int                   `json:"swaps"`
	Requests      int                   `json:"requests"`
	Errors        int                   `json:"errors"`
	Mixed         int                   `json:"mixed_versions"`
	Deliberate4xx int                   `json:"deliberate_4xx"`
	Minutes       []minute              `json:"periods"`
	RSSSlope      float64               `json:"rss_slope_mib_per_min"`
	FDSlope       float64               `json:"fd_slope_per_min"`
	Kinds         map[string]*kindCount `json:"kinds"`
	Notes         []string              `json:"notes,omitempty"`
}

type minute struct {
	Start    float64 `json:"start_s"`
	Requests int     `json:"requests"`
	Errors   int     `json:"errors"`
	Mixed    int     `json:"mixed"`
	P50ms    float64 `json:"p50_ms"`
	P99ms    float64 `json:"p99_ms"`
	MaxMs    float64 `json:"max_ms"`
	RSSMiB   float64 `json:"rss_mib"`
	FDs      float64 `json:"fds"`
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

func (r *recorder) report(o options, samples []sample, swaps int, took time.Duration) *report {
	r.mu.Lock()
	defer r.mu.Unlock()
	rep := &report{Engine: o.engine, Seconds: took.Seconds(), Workers: o.workers, Items: o.items, Swaps: swaps,
		Kinds: r.kinds, Notes: r.notes}
	for i, p := range r.periods {
		if time.Duration(i)*r.bucket >= took-time.Second {
			break // a period begun as the run ended: a few requests cut short
		}
		m := minute{Start: (time.Duration(i) * r.bucket).Seconds(), Requests: p.requests, Errors: p.errors, Mixed: p.mixed}
		if n := len(p.lat); n > 0 {
			sort.Slice(p.lat, func(a, b int) bool { return p.lat[a] < p.lat[b] })
			m.P50ms, m.P99ms, m.MaxMs = ms(p.lat[n/2]), ms(p.lat[n*99/100]), ms(p.lat[n-1])
		}
		var rss, fds, n float64
		for _, s := range samples {
			if int(s.at/r.bucket) == i {
				rss, fds, n = rss+s.rss, fds+float64(s.fds), n+1
			}
		}
		if n > 0 {
			m.RSSMiB, m.FDs = rss/n, fds/n
		}
		rep.Requests += p.requests
		rep.Errors += p.errors
		rep.Mixed += p.mixed
		rep.Deliberate4xx += p.deliber
		rep.Minutes = append(rep.Minutes, m)
	}
	// The slopes leave out the first period (start-up, first instances warming).
	var steady []sample
	for _, s := range samples {
		if s.at >= r.bucket || len(r.periods) < 2 {
			steady = append(steady, s)
		}
	}
	rep.RSSSlope = slope(steady, func(s sample) float64 { return s.rss })
	rep.FDSlope = slope(steady, func(s sample) float64 { return float64(s.fds) })
	return rep
}

// slope is the least-squares slope of y over time, per minute.
func slope(s []sample, y func(sample) float64) float64 {
	if len(s) < 2 {
		return 0
	}
	var sx, sy, sxx, sxy float64
	for _, p := range s {
		x := p.at.Minutes()
		sx, sy, sxx, sxy = sx+x, sy+y(p), sxx+x*x, sxy+x*y(p)
	}
	n := float64(len(s))
	den := n*sxx - sx*sx
	if den == 0 {
		return 0
	}
	return (n*sxy - sx*sy) / den
}

func (rep *report) print(w io.Writer) {
	fmt.Fprintf(w, "%s: %d requests in %.0f s, %d swaps, %d errors, %d mixed versions, %d deliberate 4xx\n",
		rep.Engine, rep.Requests, rep.Seconds, rep.Swaps, rep.Errors, rep.Mixed, rep.Deliberate4xx)
	fmt.Fprintf(w, "%8s %9s %7s %6s %9s %9s %9s %9s %6s\n", "start_s", "requests", "errors", "mixed", "p50_ms", "p99_ms", "max_ms", "rss_mib", "fds")
	for _, m := range rep.Minutes {
		fmt.Fprintf(w, "%8.0f %9d %7d %6d %9.2f %9.2f %9.1f %9.1f %6.1f\n", m.Start, m.Requests, m.Errors, m.Mixed, m.P50ms, m.P99ms, m.MaxMs, m.RSSMiB, m.FDs)
	}
	fmt.Fprintf(w, "slopes after the first period: RSS %+.2f MiB/min, open fds %+.2f/min\n", rep.RSSSlope, rep.FDSlope)
	for _, n := range rep.Notes {
		fmt.Fprintln(w, "  ", n)
	}
}

func (rep *report) write(path string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	b, err := json.MarshalIndent(rep, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(b, '\n'), 0o644)
}
