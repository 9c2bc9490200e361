// Package server is the host's HTTP front: the operational endpoints (/healthz,
// /readyz, /metrics) beside the API, request ids, JSON access logs, metrics per
// request, and an http.Server with timeouts and graceful shutdown.
package server

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/cdaedge/cdaedge/edge"
	"github.com/cdaedge/cdaedge/edge/router"
	"github.com/cdaedge/cdaedge/host/metrics"
	"github.com/cdaedge/cdaedge/host/snapdir"
	"github.com/cdaedge/cdaedge/host/webui"
)

// Options configures the front handler.
type Options struct {
	// API answers every request outside the operational endpoints.
	API http.Handler
	// Metrics records requests and serves /metrics; nil disables both.
	Metrics *metrics.Metrics
	// Snapshots returns the served snapshots, for /readyz and for the environment of
	// logs and metrics (only a served environment is named, so hostile paths cannot
	// grow the label set).
	Snapshots func() []snapdir.File
	// Logger receives the access log (one JSON line per request at Info) when
	// AccessLog is set.
	Logger    *slog.Logger
	AccessLog bool
}

// Handler returns the front handler. Paths are matched as sent, without cleaning, so
// that the API sees (and rejects) dot segments itself.
func Handler(opts Options) http.Handler {
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	if opts.Snapshots == nil {
		opts.Snapshots = func() []snapdir.File { return nil }
	}
	f := &front{opts: opts}
	if opts.Metrics != nil {
		f.metrics = opts.Metrics.Handler()
	}
	var seed [8]byte
	_, _ = rand.Read(seed[:])
	f.idPrefix = hex.EncodeToString(seed[:])
	return f
}

type front struct {
	opts     Options
	metrics  http.Handler
	idPrefix string
	idSeq    atomic.Uint64
}

func (f *front) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	id := r.Header.Get("X-Request-Id")
	if !validID(id) {
		id = f.idPrefix + "-" + strconv.FormatUint(f.idSeq.Add(1), 16)
	}
	w.Header().Set("X-Request-Id", id)
	sw := &statusWriter{ResponseWriter: w}
	route, env := Classify(r.URL.EscapedPath())
	switch route {
	case "healthz":
		f.plain(sw, r, http.StatusOK, `{"status":"ok"}`)
	case "readyz":
		f.ready(sw, r)
	case "metrics":
		if f.metrics == nil {
			e := edge.Errorf(edge.CodeNotFound, "metrics are disabled (--metrics=false)")
			f.plain(sw, r, e.Status(), string(edge.AppendErrorEnvelope(nil, e)))
		} else {
			f.metrics.ServeHTTP(sw, r)
		}
	default:
		f.opts.API.ServeHTTP(sw, r)
	}
	if !f.served(env) {
		env = ""
	}
	d := time.Since(start)
	status := sw.status
	if status == 0 {
		status = http.StatusOK
	}
	if f.opts.Metrics != nil && route != "metrics" {
		f.opts.Metrics.Observe(route, env, status, sw.bytes, d)
	}
	if status == http.StatusUnauthorized {
		// A failed preview access: counted and logged, never with the token itself.
		if f.opts.Metrics != nil {
			f.opts.Metrics.PreviewDenied(env)
		}
		f.opts.Logger.LogAttrs(r.Context(), slog.LevelWarn, "preview access denied",
			slog.String("id", id),
			slog.String("env", env),
			slog.String("route", route),
			slog.Bool("authorization_sent", r.Header.Get("Authorization") != ""),
			slog.String("remote", r.RemoteAddr),
		)
	}
	if f.opts.AccessLog {
		f.opts.Logger.LogAttrs(r.Context(), slog.LevelInfo, "request",
			slog.String("id", id),
			slog.String("method", r.Method),
			slog.String("route", route),
			slog.String("env", env),
			slog.String("path", clip(r.URL.EscapedPath(), 256)),
			slog.Int("status", status),
			slog.Int64("bytes", sw.bytes),
			slog.Float64("duration_ms", float64(d.Microseconds())/1000),
			// The engine's count of the work the request spent (0: none reported).
			slog.Int64("steps", headerInt(sw.Header(), "Cda-Work-Steps")),
			// Whether the answer came from the answer cache (its steps are the first's).
			slog.Bool("cached", strings.HasSuffix(sw.Header().Get("Cache-Status"), "; hit")),
			slog.String("encoding", sw.Header().Get("Content-Encoding")),
			slog.String("remote", r.RemoteAddr),
		)
	}
}

// headerInt is the integer value of h's header name, or 0.
func headerInt(h http.Header, name string) int64 {
	n, _ := strconv.ParseInt(h.Get(name), 10, 64)
	return n
}

// served reports whether env is a served environment.
func (f *front) served(env string) bool {
	if env == "" {
		return false
	}
	for _, s := range f.opts.Snapshots() {
		if s.Env == env {
			return true
		}
	}
	return false
}

func (f *front) plain(w http.ResponseWriter, r *http.Request, status int, body string) {
	w.Header().Set("Content-Type", edge.ContentTypeJSON)
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	if r.Method != http.MethodHead {
		_, _ = w.Write([]byte(body + "\n"))
	}
}

// readyEnv is one environment in the /readyz answer.
type readyEnv struct {
	ID      string `json:"id"`
	Version string `json:"version"`
	Preview bool   `json:"preview"`
	Items   int    `json:"items"`
	Bytes   int64  `json:"bytes"` // the file's size
}

// ready answers /readyz: 200 with the served environments, 503 when none is served.
func (f *front) ready(w http.ResponseWriter, r *http.Request) {
	files := f.opts.Snapshots()
	envs := make([]readyEnv, len(files))
	for i, s := range files {
		envs[i] = readyEnv{ID: s.Env, Version: s.Version, Preview: s.Preview, Items: s.Items, Bytes: s.Size}
	}
	status, word := http.StatusOK, "ready"
	if len(files) == 0 {
		status, word = http.StatusServiceUnavailable, "no snapshots"
	}
	b, _ := json.Marshal(struct {
		Status       string     `json:"status"`
		Environments []readyEnv `json:"environments"`
	}{word, envs})
	f.plain(w, r, status, string(b))
}

// validID accepts a client's X-Request-Id of up to 64 safe characters.
func validID(id string) bool {
	if id == "" || len(id) > 64 {
		return false
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.') {
			return false
		}
	}
	return true
}

func clip(s string, n int) string {
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}

// Classify names the route of an escaped request path (a fixed, small set, for logs
// and metric labels) and the environment it addresses (unescaped; "" when none): the
// host's own routes, else the API's route table (router.Classify).
func Classify(path string) (route, env string) {
	switch path {
	case "/healthz", "/readyz", "/metrics":
		return path[1:], ""
	}
	if webui.IsPath(path) {
		return "web", ""
	}
	rt, env := router.Classify(path)
	return rt.String(), env
}

// statusWriter records the status and body bytes of an answer.
type statusWriter struct {
	http.ResponseWriter
	status int
	bytes  int64
}

func (w *statusWriter) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	n, err := w.ResponseWriter.Write(b)
	w.bytes += int64(n)
	return n, err
}

// Unwrap gives http.ResponseController the underlying writer.
func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// Limits are the http.Server's timeouts and sizes.
type Limits struct {
	ReadHeaderTimeout time.Duration
	ReadTimeout       time.Duration
	WriteTimeout      time.Duration
	IdleTimeout       time.Duration
	MaxHeaderBytes    int
	// MaxConnections bounds the connections open at once; past it a new connection is
	// answered 503 with Retry-After (RetryAfter) and closed. Zero means no limit.
	MaxConnections int
	RetryAfter     time.Duration
}

// Serve answers on ln with h until ctx ends, then shuts down gracefully: it stops
// accepting, lets requests in flight finish for up to drain, and closes what is left.
// A connection that sends no complete request headers within ReadHeaderTimeout is
// closed with a `slow sender` log line.
func Serve(ctx context.Context, ln net.Listener, h http.Handler, lim Limits, drain time.Duration, log *slog.Logger) error {
	ln = limitConns(ln, lim.MaxConnections, lim.RetryAfter, log)
	srv := &http.Server{
		ConnState:         connState,
		Handler:           h,
		ReadHeaderTimeout: lim.ReadHeaderTimeout,
		ReadTimeout:       lim.ReadTimeout,
		WriteTimeout:      lim.WriteTimeout,
		IdleTimeout:       lim.IdleTimeout,
		MaxHeaderBytes:    lim.MaxHeaderBytes,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelWarn),
	}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	select {
	case err := <-served:
		return fmt.Errorf("serve: %w", err)
	case <-ctx.Done():
	}
	log.Info("shutting down; draining requests in flight", "drain_ms", drain.Milliseconds())
	shutCtx, cancel := context.WithTimeout(context.Background(), drain)
	defer cancel()
	if err := srv.Shutdown(shutCtx); err != nil {
		_ = srv.Close()
		if errors.Is(err, context.DeadlineExceeded) {
			log.Warn("drain time over; closed the remaining connections")
			return nil
		}
		return fmt.Errorf("shutdown: %w", err)
	}
	return nil
}
