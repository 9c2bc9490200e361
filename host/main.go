// Command host serves snapshots over HTTP, answering through the engine's WebAssembly
// module (run by wazero) or, with --engine native, through native routers.
//
//	go run ./host --snapshots DIR [--addr 127.0.0.1:8080] [--engine wasm|native] [--module FILE]
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/cdaedge/cdaedge/edge"
	"github.com/cdaedge/cdaedge/host/httpedge"
	"github.com/cdaedge/cdaedge/host/nativepool"
	"github.com/cdaedge/cdaedge/host/snapdir"
	"github.com/cdaedge/cdaedge/host/wasmpool"
	"github.com/cdaedge/cdaedge/snapshot"
)

// buildHint tells how to get a module when none is embedded or given.
const buildHint = "build one with `GOOS=wasip1 GOARCH=wasm go build -buildmode=c-shared -o host/module.wasm ./wasm` " +
	"and pass --module host/module.wasm, or build the host with it embedded " +
	"(`go build -tags cdaembed ./host` after that copy; the Taskfile does both)"

type config struct {
	callTimeout time.Duration
	snapshots   string
	addr        string
	engine      string
	module      string
	instances   int
	router      edge.Options
}

// tokenFlag collects --preview-token ENV=TOKEN flags into the router's preview tokens.
type tokenFlag struct{ opts *edge.Options }

func (f tokenFlag) String() string { return "" }

func (f tokenFlag) Set(v string) error {
	env, token, ok := strings.Cut(v, "=")
	if !ok || env == "" || token == "" {
		return errors.New("want ENV=TOKEN")
	}
	if f.opts.PreviewTokens == nil {
		f.opts.PreviewTokens = map[string]string{}
	}
	f.opts.PreviewTokens[env] = token
	return nil
}

// engine is what main runs: an httpedge.Engine that can be closed.
type engine interface {
	httpedge.Engine
	Close(ctx context.Context) error
}

func main() {
	var cfg config
	flag.StringVar(&cfg.snapshots, "snapshots", "", "directory of *.snap files to serve (required)")
	flag.StringVar(&cfg.addr, "addr", "127.0.0.1:8080", "listen address")
	flag.StringVar(&cfg.engine, "engine", "wasm", "engine: wasm (the module in wazero) or native")
	flag.StringVar(&cfg.module, "module", "", "wasm module file (default: the embedded module)")
	flag.IntVar(&cfg.instances, "instances", 0, "wasm instances (default GOMAXPROCS)")
	flag.DurationVar(&cfg.callTimeout, "call-timeout", 0, "watchdog on each call into a wasm instance, e.g. 5s (default off: the engine's step budget bounds work, D11)")
	flag.StringVar(&cfg.router.CacheControl, "cache-control", "", "Cache-Control of published 200s (default public, max-age=60, D11)")
	flag.Var(tokenFlag{&cfg.router}, "preview-token", "ENV=TOKEN: the access token of preview environment ENV (D3); repeatable")
	flag.Parse()
	log := slog.New(slog.NewTextHandler(os.Stderr, nil))
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, cfg, log); err != nil {
		log.Error("host failed", "err", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, cfg config, log *slog.Logger) error {
	if cfg.snapshots == "" {
		return errors.New("--snapshots DIR is required")
	}
	files, err := snapdir.Load(cfg.snapshots)
	if err != nil {
		return err
	}
	for _, f := range files {
		log.Info("snapshot", "env", f.Env, "path", f.Path, "bytes", len(f.Data))
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

	ln, err := net.Listen("tcp", cfg.addr)
	if err != nil {
		return fmt.Errorf("listen: %w", err)
	}
	srv := &http.Server{
		Handler:           httpedge.NewHandler(eng, httpedge.Options{Logger: log}),
		ReadHeaderTimeout: 10 * time.Second,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelWarn),
	}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	log.Info("listening", "addr", ln.Addr().String(), "engine", cfg.engine)

	select {
	case err := <-served:
		return fmt.Errorf("serve: %w", err)
	case <-ctx.Done():
	}
	log.Info("shutting down")
	shutCtx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := srv.Shutdown(shutCtx); err != nil {
		return fmt.Errorf("shutdown: %w", err)
	}
	return nil
}

func newEngine(ctx context.Context, cfg config, files []snapdir.File, log *slog.Logger) (engine, error) {
	switch cfg.engine {
	case "native":
		snaps := make([]*snapshot.Snapshot, len(files))
		for i, f := range files {
			snaps[i] = f.Snap
		}
		return nativepool.New(snaps, cfg.router), nil
	case "wasm":
		module := embeddedModule
		if cfg.module != "" {
			b, err := os.ReadFile(cfg.module)
			if err != nil {
				return nil, fmt.Errorf("read module: %w", err)
			}
			module = b
		}
		if len(module) == 0 {
			return nil, errors.New("no wasm module embedded in this host and no --module given: " + buildHint)
		}
		data := make([][]byte, len(files))
		for i, f := range files {
			data[i] = f.Data
		}
		start := time.Now()
		pool, err := wasmpool.New(ctx, module, data, wasmpool.Options{
			Router:      cfg.router,
			Instances:   cfg.instances,
			CallTimeout: cfg.callTimeout,
			Stderr:      os.Stderr,
			Logger:      log,
		})
		if err != nil {
			return nil, fmt.Errorf("start wasm pool: %w", err)
		}
		log.Info("wasm pool ready", "instances", pool.Size(), "took", time.Since(start).Round(time.Millisecond))
		return pool, nil
	default:
		return nil, fmt.Errorf("unknown --engine %q (want wasm or native)", cfg.engine)
	}
}
