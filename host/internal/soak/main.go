// Command soak runs the host for a long while under mixed load while its snapshot is
// replaced every few seconds, and reports what a long run shows and a short one hides:
// errors (any failure or unexpected status: only the deliberately bad requests may get
// a 4xx), answers that mix two snapshot versions, latency per minute, and the host's
// resident memory and open file descriptors per minute with a least-squares slope.
//
//	go run ./host/internal/soak --host build/host --engine wasm --duration 30m --out build/soak/wasm.json
//
// `go tool task soak` builds the host and runs it for both engines. It exits 1 when a
// request failed or an answer mixed versions.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/cdaedge/cdaedge/host/internal/localproc"
)

type options struct {
	host, engine, out, module string
	duration, swapEvery       time.Duration
	bucket                    time.Duration
	workers, items, instances int
}

func main() {
	var o options
	flag.StringVar(&o.host, "host", "build/host", "host binary")
	flag.StringVar(&o.engine, "engine", "wasm", "host engine: wasm or native")
	flag.StringVar(&o.module, "module", "", "wasm module for the host (default: its embedded one)")
	flag.IntVar(&o.instances, "instances", 0, "host wasm instances (default: the host's)")
	flag.DurationVar(&o.duration, "duration", 30*time.Minute, "length of the run")
	flag.DurationVar(&o.swapEvery, "swap-every", 10*time.Second, "replace the snapshot this often")
	flag.DurationVar(&o.bucket, "bucket", time.Minute, "reporting period (latency, memory, descriptors)")
	flag.IntVar(&o.workers, "workers", 8, "concurrent clients")
	flag.IntVar(&o.items, "items", 2000, "items of the generated snapshot")
	flag.StringVar(&o.out, "out", "", "write the report as JSON to this file")
	flag.Parse()
	rep, err := run(o)
	if err != nil {
		fmt.Fprintln(os.Stderr, "soak:", err)
		os.Exit(1)
	}
	if rep.Errors > 0 || rep.Mixed > 0 {
		fmt.Fprintf(os.Stderr, "soak: %d errors, %d answers mixing versions\n", rep.Errors, rep.Mixed)
		os.Exit(1)
	}
}

func run(o options) (*report, error) {
	dir, err := os.MkdirTemp("", "cdaedge-soak")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, env+".snap")
	if err := os.WriteFile(path, buildVersion(o.items, 1), 0o644); err != nil {
		return nil, err
	}
	args := []string{"--snapshots", dir, "--engine", o.engine, "--access-log=false", "--log-level=warn"}
	if o.module != "" {
		args = append(args, "--module", o.module)
	}
	if o.instances > 0 {
		args = append(args, "--instances", fmt.Sprint(o.instances))
	}
	h, err := localproc.StartHost(o.host, args, os.Stderr, 2*time.Minute)
	if err != nil {
		return nil, err
	}
	defer h.Stop()
	host, exited, base := h.Cmd, h.Exited, h.Base
	fmt.Printf("soak: %s engine, %s, snapshot of %d items replaced every %s, %d clients\n",
		o.engine, o.duration, o.items, o.swapEvery, o.workers)

	ctx, cancel := context.WithTimeout(context.Background(), o.duration)
	defer cancel()
	start := time.Now()
	rec := newRecorder(start, o.bucket)
	sampler := startSampler(ctx, host.Process.Pid, start)
	swaps := startSwapper(ctx, path, o.items, o.swapEvery, rec)
	runClients(ctx, base, o.workers, o.items, rec)
	rep := rec.report(o, <-sampler, <-swaps, time.Since(start))
	select {
	case err := <-exited:
		exited <- err
		return rep, fmt.Errorf("the host exited during the run: %v", err)
	default:
	}
	rep.print(os.Stdout)
	if o.out != "" {
		if err := rep.write(o.out); err != nil {
			return rep, err
		}
		fmt.Println("report:", o.out)
	}
	return rep, nil
}
