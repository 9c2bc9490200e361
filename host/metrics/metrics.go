// Package metrics exposes the host's Prometheus metrics: requests by route, status and
// environment, latency histograms, the served snapshots (version, size, items), the
// engine's instance pool and failures (traps), snapshot reloads, and the Go runtime and
// process collectors.
package metrics

import (
	"net/http"
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/cdaedge/cdaedge/host/answercache"
	"github.com/cdaedge/cdaedge/host/reload"
	"github.com/cdaedge/cdaedge/host/snapdir"
)

// Sources are the functions the metrics read at scrape time. Any may be nil.
type Sources struct {
	// Snapshots returns the served snapshot files.
	Snapshots func() []snapdir.File
	// PoolSize returns the engine's number of instances (wasm) or routers (native).
	PoolSize func() int
	// Failures returns how many engine calls failed (wasm traps, router panics).
	Failures func() uint64
	// Reloads returns the reloader's totals.
	Reloads func() reload.Counts
	// AnswerCache returns the answer cache's counters (nil: no cache).
	AnswerCache func() answercache.Stats
}

// Metrics is the host's metric registry. It is safe for concurrent use.
type Metrics struct {
	reg      *prometheus.Registry
	requests *prometheus.CounterVec
	latency  *prometheus.HistogramVec
	bytes    *prometheus.CounterVec
	denied   *prometheus.CounterVec
}

// New registers the host's metrics, reading src at scrape time.
func New(src Sources) *Metrics {
	m := &Metrics{reg: prometheus.NewRegistry()}
	m.requests = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "cda_http_requests_total",
		Help: "HTTP requests answered, by route, status and environment.",
	}, []string{"route", "status", "env"})
	m.latency = prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Name:    "cda_http_request_duration_seconds",
		Help:    "Time from reading the request headers to writing the answer, by route.",
		Buckets: []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5},
	}, []string{"route"})
	m.bytes = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "cda_http_response_bytes_total",
		Help: "Response body bytes written (after compression), by route.",
	}, []string{"route"})
	m.denied = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "cda_preview_auth_failures_total",
		Help: "Requests to a preview environment refused for a missing or wrong access token, by environment.",
	}, []string{"env"})
	m.reg.MustRegister(m.requests, m.latency, m.bytes, m.denied,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
		&snapshotCollector{src: src})
	if src.PoolSize != nil {
		m.reg.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name: "cda_engine_instances", Help: "Instances of the engine pool (wasm instances or native routers).",
		}, func() float64 { return float64(src.PoolSize()) }))
	}
	if src.Failures != nil {
		m.reg.MustRegister(prometheus.NewCounterFunc(prometheus.CounterOpts{
			Name: "cda_engine_traps_total", Help: "Engine calls that failed (a wasm trap or guest exit, a router panic); the instance was replaced.",
		}, func() float64 { return float64(src.Failures()) }))
	}
	if src.Reloads != nil {
		for _, c := range []struct {
			result string
			get    func(reload.Counts) uint64
		}{
			{"loaded", func(c reload.Counts) uint64 { return c.Loaded }},
			{"rejected", func(c reload.Counts) uint64 { return c.Rejected }},
			{"failed", func(c reload.Counts) uint64 { return c.Failed }},
		} {
			m.reg.MustRegister(prometheus.NewCounterFunc(prometheus.CounterOpts{
				Name:        "cda_snapshot_reloads_total",
				Help:        "Snapshot files handled by rescans: loaded (a new version serves), rejected (did not verify), failed (the engine refused the set).",
				ConstLabels: prometheus.Labels{"result": c.result},
			}, func() float64 { return float64(c.get(src.Reloads())) }))
		}
		m.reg.MustRegister(prometheus.NewCounterFunc(prometheus.CounterOpts{
			Name: "cda_snapshot_rescans_total", Help: "Rescans of the snapshot folder.",
		}, func() float64 { return float64(src.Reloads().Scans) }))
	}
	if src.AnswerCache != nil {
		m.registerAnswerCache(src.AnswerCache)
	}
	return m
}

// registerAnswerCache registers the answer cache's hits, misses and size.
func (m *Metrics) registerAnswerCache(stats func() answercache.Stats) {
	m.reg.MustRegister(prometheus.NewCounterFunc(prometheus.CounterOpts{
		Name: "cda_answer_cache_hits_total", Help: "Requests answered from the answer cache.",
	}, func() float64 { return float64(stats().Hits) }))
	m.reg.MustRegister(prometheus.NewCounterFunc(prometheus.CounterOpts{
		Name: "cda_answer_cache_misses_total", Help: "Requests the answer cache could have answered but did not hold (the engine answered them).",
	}, func() float64 { return float64(stats().Misses) }))
	m.reg.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{
		Name: "cda_answer_cache_bytes", Help: "Memory held by the answer cache's answers (approximate).",
	}, func() float64 { return float64(stats().Bytes) }))
}

// Observe records one answered request.
func (m *Metrics) Observe(route, env string, status int, bytes int64, d time.Duration) {
	m.requests.WithLabelValues(route, strconv.Itoa(status), env).Inc()
	m.latency.WithLabelValues(route).Observe(d.Seconds())
	m.bytes.WithLabelValues(route).Add(float64(bytes))
}

// PreviewDenied records a request refused for a missing or wrong preview token.
func (m *Metrics) PreviewDenied(env string) { m.denied.WithLabelValues(env).Inc() }

// Handler serves the metrics in the Prometheus exposition formats.
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{})
}

// snapshotCollector reports the served snapshots at scrape time.
type snapshotCollector struct{ src Sources }

var (
	snapInfo = prometheus.NewDesc("cda_snapshot_info",
		"A served snapshot: its environment, content version (hash) and preview flag; always 1.",
		[]string{"env", "version", "preview"}, nil)
	snapBytes = prometheus.NewDesc("cda_snapshot_bytes", "Size of a served snapshot file.", []string{"env"}, nil)
	snapItems = prometheus.NewDesc("cda_snapshot_items", "Content items of a served snapshot.", []string{"env"}, nil)
	snapCount = prometheus.NewDesc("cda_snapshots", "Snapshots (environments) served.", nil, nil)
)

// Describe sends the collector's descriptions.
func (c *snapshotCollector) Describe(ch chan<- *prometheus.Desc) {
	ch <- snapInfo
	ch <- snapBytes
	ch <- snapItems
	ch <- snapCount
}

// Collect sends one sample of each served snapshot.
func (c *snapshotCollector) Collect(ch chan<- prometheus.Metric) {
	if c.src.Snapshots == nil {
		return
	}
	files := c.src.Snapshots()
	ch <- prometheus.MustNewConstMetric(snapCount, prometheus.GaugeValue, float64(len(files)))
	for _, f := range files {
		ch <- prometheus.MustNewConstMetric(snapInfo, prometheus.GaugeValue, 1,
			f.Env, f.Version, strconv.FormatBool(f.Preview))
		ch <- prometheus.MustNewConstMetric(snapBytes, prometheus.GaugeValue, float64(f.Size), f.Env)
		ch <- prometheus.MustNewConstMetric(snapItems, prometheus.GaugeValue, float64(f.Items), f.Env)
	}
}
