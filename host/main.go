// Command host serves snapshots over HTTP, answering through the engine's WebAssembly
// module (run by wazero) or, with --engine native, through native routers. It reloads
// the snapshot folder when it changes, and serves /healthz, /readyz and /metrics.
//
//	go run ./host --snapshots DIR [--addr 127.0.0.1:8080] [--engine wasm|native] [--module FILE]
//
// `host --help` lists every flag and its CDA_* environment variable.
package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"runtime"
	"syscall"
	"time"

	"github.com/cdaedge/cdaedge/builder/version"
	"github.com/cdaedge/cdaedge/host/answercache"
	"github.com/cdaedge/cdaedge/host/compress"
	"github.com/cdaedge/cdaedge/host/config"
	"github.com/cdaedge/cdaedge/host/httpedge"
	"github.com/cdaedge/cdaedge/host/metrics"
	"github.com/cdaedge/cdaedge/host/nativepool"
	"github.com/cdaedge/cdaedge/host/reload"
	"github.com/cdaedge/cdaedge/host/server"
	"github.com/cdaedge/cdaedge/host/snapdir"
	"github.com/cdaedge/cdaedge/host/wasmpool"
	"github.com/cdaedge/cdaedge/host/webui"
	"github.com/cdaedge/cdaedge/snapshot"
)

// buildHint tells how to get a module when none is embedded or given.
const buildHint = "build the host with the repository's module embedded (`go build -tags cdaembed ./host`, " +
	"as `go tool task build` does), or pass --module with a build of ./wasm " +
	"(`GOOS=wasip1 GOARCH=wasm go build -buildmode=c-shared -o module.wasm ./wasm`)"

// engine is what main runs: an httpedge.Engine whose snapshot set can be swapped.
type engine interface {
	httpedge.Engine
	Close(ctx context.Context) error
	Swap(ctx context.Context, files []snapdir.File) error
	Size() int
	Failures() uint64
}

func main() {
	if len(os.Args) == 2 && (os.Args[1] == "--version" || os.Args[1] == "-version") {
		fmt.Println("host", version.String())
		return
	}
	cfg, err := config.Parse(os.Args[1:], os.Getenv, os.Stderr)
	if errors.Is(err, config.ErrHelp) {
		return
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "host:", err)
		os.Exit(2)
	}
	log, err := newLogger(cfg)
	if err != nil {
		fmt.Fprintln(os.Stderr, "host:", err)
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, cfg, log); err != nil {
		log.Error("host failed", "err", err)
		os.Exit(1)
	}
}

func newLogger(cfg config.Config) (*slog.Logger, error) {
	var level slog.Level
	if err := level.UnmarshalText([]byte(cfg.LogLevel)); err != nil {
		return nil, fmt.Errorf("--log-level: %w", err)
	}
	opts := &slog.HandlerOptions{Level: level}
	switch cfg.LogFormat {
	case "json":
		return slog.New(slog.NewJSONHandler(os.Stderr, opts)), nil
	case "text":
		return slog.New(slog.NewTextHandler(os.Stderr, opts)), nil
	}
	return nil, fmt.Errorf("unknown --log-format %q (want json or text)", cfg.LogFormat)
}

func run(ctx context.Context, cfg config.Config, log *slog.Logger) error {
	// The wasm engine's instances hold each file's index part and ask for item bodies
	// by range; with --bodies=file the host keeps none of the file in its own memory
	// (it verifies it through a mapping dropped at once) and the instances read the
	// index part and the bodies from the file. The native engine reads the whole file in
	// place.
	open := snapdir.Open
	switch {
	case cfg.Bodies != "memory" && cfg.Bodies != "file":
		return fmt.Errorf("unknown --bodies %q (want memory or file)", cfg.Bodies)
	case cfg.Engine == "wasm" && cfg.Bodies == "file":
		open = snapdir.OpenIndex
	}
	files, err := snapdir.Load(cfg.Snapshots, open)
	if err != nil {
		return err
	}
	for _, f := range files {
		log.Info("snapshot", "env", f.Env, "path", f.Path, "version", f.Version, "bytes", f.Size,
			"resident_bytes", len(f.Data), "items", f.Items, "preview", f.Preview)
		if f.Preview && cfg.Router.PreviewTokens[f.Env] == "" {
			log.Warn("preview environment without an access token: every request gets 401", "env", f.Env)
		}
	}
	if cfg.Instances <= 0 {
		cfg.Instances = runtime.GOMAXPROCS(0)
	}
	if cfg.Engine == "wasm" {
		spareProcs(cfg.Instances, log)
	}
	eng, err := newEngine(ctx, cfg, files, log)
	if err != nil {
		return err
	}
	defer func() {
		if err := eng.Close(context.Background()); err != nil {
			log.Error("close engine", "err", err)
		}
	}()

	var served httpedge.Engine = eng
	swap := eng.Swap
	var cache *answercache.Cache
	if cfg.AnswerCacheBytes > 0 {
		cache = answercache.New(eng, cfg.AnswerCacheBytes)
		served = cache
		swap = func(ctx context.Context, files []snapdir.File) error {
			err := eng.Swap(ctx, files)
			if err == nil {
				cache.Purge() // after the swap: the requests that start now see the new set
			}
			return err
		}
	}
	reloader := reload.New(cfg.Snapshots, files, swap, reload.Options{Poll: cfg.Poll, Logger: log, Open: open})
	defer startReloads(ctx, cfg, reloader, log)()

	var m *metrics.Metrics
	if cfg.Metrics {
		src := metrics.Sources{Snapshots: reloader.Served, PoolSize: eng.Size,
			Failures: eng.Failures, Reloads: reloader.Counts}
		if cache != nil {
			src.AnswerCache = cache.Stats
		}
		m = metrics.New(src)
	}
	apiOpts := httpedge.Options{MaxBodyBytes: int64(cfg.Router.MaxBodyBytes), Logger: log, RetryAfter: time.Second}
	if cfg.MaxInFlightPerInstance > 0 {
		apiOpts.MaxInFlight = cfg.Instances * cfg.MaxInFlightPerInstance
	}
	if cfg.Compress {
		apiOpts.Compressor = compress.New(cfg.CompressMinBytes)
	}
	var api http.Handler = httpedge.NewHandler(served, apiOpts)
	if cfg.Web {
		api = webui.Handler(webui.Options{Module: browserModule(cfg), Snapshots: reloader.Served, Next: api})
	}
	front := server.Handler(server.Options{
		API:       api,
		Metrics:   m,
		Snapshots: reloader.Served,
		Logger:    log,
		AccessLog: cfg.AccessLog,
	})
	ln, err := net.Listen("tcp", cfg.Addr)
	if err != nil {
		return fmt.Errorf("listen: %w", err)
	}
	attrs := []any{"addr", ln.Addr().String(), "engine", cfg.Engine, "pid", os.Getpid()}
	if cfg.Web {
		attrs = append(attrs, "playground", "http://"+ln.Addr().String()+"/")
	}
	log.Info("listening", attrs...)
	return server.Serve(ctx, ln, front, server.Limits{
		ReadHeaderTimeout: cfg.ReadHeaderTimeout,
		ReadTimeout:       cfg.ReadTimeout,
		WriteTimeout:      cfg.WriteTimeout,
		IdleTimeout:       cfg.IdleTimeout,
		MaxHeaderBytes:    cfg.MaxHeaderBytes,
		MaxConnections:    cfg.MaxConnections,
		RetryAfter:        time.Second,
	}, cfg.ShutdownTimeout, log)
}

// startReloads rescans the snapshot folder on SIGHUP and, with cfg.Watch, when the
// folder changes (polling it where it cannot be watched; see reload.Reloader.Run),
// until ctx ends or the returned stop is called.
func startReloads(ctx context.Context, cfg config.Config, reloader *reload.Reloader, log *slog.Logger) (stop func()) {
	hup := make(chan os.Signal, 1)
	signal.Notify(hup, syscall.SIGHUP)
	watchCtx, stopWatch := context.WithCancel(ctx)
	stop = func() {
		stopWatch()
		signal.Stop(hup)
	}
	if cfg.Watch {
		if err := reloader.Watch(); err != nil {
			log.Warn("cannot watch the snapshot folder; polling instead", "dir", cfg.Snapshots, "err", err)
		}
		go reloader.Run(watchCtx, hup)
		return stop
	}
	go func() {
		for {
			select {
			case <-watchCtx.Done():
				return
			case <-hup:
				log.Info("SIGHUP: rescanning the snapshot folder", "dir", cfg.Snapshots)
				_ = reloader.Rescan(watchCtx)
			}
		}
	}()
	return stop
}

// spareProcs gives the Go scheduler more Ps than wasm calls can hold at once. Go cannot
// preempt a goroutine running wasm code compiled by wazero, so each call holds its P
// until it returns: with as many Ps as instances, a few long calls (a request spending
// its whole budget, the instances of a new snapshot set loading) left no P for the
// listener and the other requests, which paused for seconds. Instances answering, as
// many again being built or replaced, and two for everything else; the kernel shares
// the CPUs between the threads. An explicit GOMAXPROCS is left alone.
func spareProcs(instances int, log *slog.Logger) {
	if os.Getenv("GOMAXPROCS") != "" {
		return
	}
	if want := 2*instances + 2; runtime.GOMAXPROCS(0) < want {
		log.Info("scheduler threads raised above the wasm instances", "gomaxprocs", want, "instances", instances)
		runtime.GOMAXPROCS(want)
	}
}

func newEngine(ctx context.Context, cfg config.Config, files []snapdir.File, log *slog.Logger) (engine, error) {
	switch cfg.Engine {
	case "native":
		snaps := make([]*snapshot.Snapshot, len(files))
		for i, f := range files {
			snaps[i] = f.Snap
		}
		return nativeEngine{nativepool.New(snaps, cfg.Router)}, nil
	case "wasm":
		module, err := moduleBytes(cfg)
		if err != nil {
			return nil, err
		}
		if len(module) == 0 {
			return nil, errors.New("no wasm module embedded in this host and no --module given: " + buildHint)
		}
		start := time.Now()
		pool, err := wasmpool.New(ctx, module, poolFiles(files), wasmpool.Options{
			Router:      cfg.Router,
			Instances:   cfg.Instances,
			CallTimeout: cfg.CallTimeout,
			Stderr:      os.Stderr,

			QueueTimeout:     cfg.QueueTimeout,
			ReplaceBusyAfter: cfg.ReplaceBusyAfter,
			Logger:           log,
		})
		if err != nil {
			return nil, fmt.Errorf("start wasm pool: %w", err)
		}
		log.Info("wasm pool ready", "instances", pool.Size(), "took_ms", time.Since(start).Milliseconds())
		return wasmEngine{pool}, nil
	default:
		return nil, fmt.Errorf("unknown --engine %q (want wasm or native)", cfg.Engine)
	}
}

// moduleBytes returns the wasm module the host runs: --module's file, else the embedded
// one (empty in a build without it).
func moduleBytes(cfg config.Config) ([]byte, error) {
	if cfg.Module == "" {
		return embeddedModule, nil
	}
	b, err := os.ReadFile(cfg.Module)
	if err != nil {
		return nil, fmt.Errorf("read module: %w", err)
	}
	return b, nil
}

// browserModule is the module the playground's in-browser mode runs: the host's own,
// or none when it has none.
func browserModule(cfg config.Config) []byte {
	b, err := moduleBytes(cfg)
	if err != nil {
		return nil
	}
	return b
}

// wasmEngine and nativeEngine adapt the pools' Swap to snapshot files.
type wasmEngine struct{ *wasmpool.Pool }

func (e wasmEngine) Swap(ctx context.Context, files []snapdir.File) error {
	return e.Pool.Swap(ctx, poolFiles(files))
}

// poolFiles hands the pool each file's bytes, or its reader for a file the host does
// not hold.
func poolFiles(files []snapdir.File) []wasmpool.File {
	out := make([]wasmpool.File, len(files))
	for i, f := range files {
		out[i] = wasmpool.File{Data: f.Data, Reader: f.Reader}
	}
	return out
}

type nativeEngine struct{ *nativepool.Pool }

func (e nativeEngine) Swap(ctx context.Context, files []snapdir.File) error {
	snaps := make([]*snapshot.Snapshot, len(files))
	for i, f := range files {
		snaps[i] = f.Snap
	}
	return e.Pool.Swap(ctx, snaps)
}
