// Package wasmpool runs the engine's WebAssembly module in wazero: a pool of module
// instances, each holding every snapshot, that answers edge requests.
//
// The module is compiled once (with a compilation cache on disk when possible). Each
// instance is a WASI reactor: it is instantiated with "_initialize" as its start
// function, given every snapshot once, then serves one request at a time through the
// wire framing (see wasm/README.md). An instance whose call fails (a trap, a guest
// exit, a malformed answer) is discarded and replaced in the background; the pool stays
// usable.
//
// Instances belong to a generation: the snapshot set they were loaded with. Serve always
// takes an instance of the current generation, and a retired generation lets in-flight
// requests finish before its instances are closed, so swapping the snapshot set can be
// done by installing a new generation.
package wasmpool

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
	"github.com/tetratelabs/wazero/experimental"
	"github.com/tetratelabs/wazero/imports/wasi_snapshot_preview1"

	"github.com/cdaedge/cdaedge/edge"
	"github.com/cdaedge/cdaedge/edge/router"
	"github.com/cdaedge/cdaedge/edge/wire"
	"github.com/cdaedge/cdaedge/host/bodybuf"
)

// ErrClosed is returned by Serve after Close.
var ErrClosed = errors.New("wasmpool: pool closed")

// Options configures a Pool. The zero value gives the defaults.
type Options struct {
	// Router configures the router inside every instance (the module's configure
	// export); the zero value gives the router's defaults.
	Router router.Options
	// Instances is the number of module instances; 0 means runtime.GOMAXPROCS(0).
	Instances int
	// CacheDir is the directory of wazero's compilation cache; empty means
	// os.UserCacheDir()/cdaedge/wazero. When the directory cannot be used the cache is
	// kept in memory.
	CacheDir string
	// MemoryOnlyCache keeps the compilation cache in memory (no files are written).
	MemoryOnlyCache bool
	// MemoryLimitPages caps each instance's memory in 64 KiB pages; 0 means wazero's
	// default (4 GiB). A guest that needs more fails its call and is replaced.
	MemoryLimitPages uint32
	// CallTimeout, when positive, is a watchdog on each call into an instance: a call
	// still running after it is stopped and its instance replaced. Zero (the default)
	// means no watchdog: the engine's own step budget already stops a request after
	// about a second of work (API.md D11), and wazero's close-on-context-done makes
	// every call markedly slower (5-10x on scans).
	CallTimeout time.Duration
	// QueueTimeout is the longest a request waits for a free instance; past it Serve
	// returns an `unavailable` *edge.Error (503 with Retry-After), so a pool whose
	// instances are all busy sheds load instead of queueing without bound. Zero means
	// two seconds; negative means wait while the request's context allows.
	QueueTimeout time.Duration
	// ReplaceBusyAfter is how long one call may hold an instance before the pool builds
	// a fresh instance in its place for the next requests; the busy one is closed when
	// its call ends. A request never waits on an instance stuck past its work budget.
	// Zero means three seconds; negative disables it.
	ReplaceBusyAfter time.Duration
	// Stderr receives the guests' standard error (a Go guest's panic message); nil
	// discards it.
	Stderr io.Writer
	// Logger receives events such as a discarded instance; nil discards them.
	Logger *slog.Logger
}

// Pool is a set of module instances answering edge requests. It is safe for concurrent
// use; each instance serves one request at a time.
type Pool struct {
	opts     Options
	log      *slog.Logger
	rt       wazero.Runtime
	cache    wazero.CompilationCache
	compiled wazero.CompiledModule
	modCfg   wazero.ModuleConfig

	ctx    context.Context // the pool's lifetime: background work and guest calls
	cancel context.CancelFunc

	alloc experimental.MemoryAllocator // backs every instance's linear memory; nil: wazero's

	gen       atomic.Pointer[generation]
	swapMu    sync.Mutex // serialises Swap and Close
	closed    bool       // guarded by swapMu
	closeOnce sync.Once
	bg        sync.WaitGroup // background replacements and retirements
	failures  atomic.Uint64  // calls that failed (traps, guest exits, bad frames)
	bodies    bodybuf.Pool   // the answers' bodies, copied out of guest memory (RecycleBody)

	beforeCall func() // test hook: runs before each call into an instance
}

// New compiles module, instantiates the pool's instances and loads every snapshot file
// of snapshots into each. The pool keeps references to the files, which must not
// change. Close releases it.
func New(ctx context.Context, module []byte, snapshots []File, opts Options) (*Pool, error) {
	if opts.Instances <= 0 {
		opts.Instances = runtime.GOMAXPROCS(0)
	}
	if opts.Stderr == nil {
		opts.Stderr = io.Discard
	}
	if opts.QueueTimeout == 0 {
		opts.QueueTimeout = 2 * time.Second
	}
	if opts.ReplaceBusyAfter == 0 {
		opts.ReplaceBusyAfter = 3 * time.Second
	}
	p := &Pool{opts: opts, log: opts.Logger}
	if p.log == nil {
		p.log = slog.New(slog.DiscardHandler)
	}
	p.cache = newCache(opts, p.log)
	cfg := wazero.NewRuntimeConfig().
		WithCompilationCache(p.cache).
		WithCloseOnContextDone(opts.CallTimeout > 0)
	if opts.MemoryLimitPages > 0 {
		cfg = cfg.WithMemoryLimitPages(opts.MemoryLimitPages)
	}
	p.rt = wazero.NewRuntimeWithConfig(ctx, cfg)
	p.ctx, p.cancel = context.WithCancel(context.Background())
	if opts.CallTimeout <= 0 {
		// With the watchdog, wazero closes a module from another goroutine while its call
		// still runs; that is only safe with memory the Go collector owns.
		p.alloc = newMemoryAllocator()
	}
	fail := func(err error) (*Pool, error) {
		p.cancel()
		_ = p.rt.Close(ctx)
		_ = p.cache.Close(ctx)
		return nil, err
	}
	if _, err := wasi_snapshot_preview1.Instantiate(ctx, p.rt); err != nil {
		return fail(fmt.Errorf("instantiate wasi: %w", err))
	}
	compiled, err := p.rt.CompileModule(ctx, module)
	if err != nil {
		return fail(fmt.Errorf("compile module: %w", err))
	}
	if err := checkExports(compiled); err != nil {
		return fail(err)
	}
	p.compiled = compiled
	// A reactor: "_initialize" runs the Go (or TinyGo) runtime's initialisation once;
	// "_start" must not run. An empty name lets many instances coexist.
	//
	// GOGC=25: an instance's live heap is mostly its snapshot, one pointer-free byte
	// slice that costs the collector nothing to mark. Collecting at 25% growth instead of
	// 100% keeps its memory near the snapshot's size (wasm memory never shrinks) for
	// little CPU. The std Go runtime reads it at _initialize; TinyGo ignores it.
	p.modCfg = wazero.NewModuleConfig().
		WithName("").
		WithEnv("GOGC", "25").
		WithStartFunctions("_initialize").
		WithStderr(opts.Stderr).
		WithSysWalltime().
		WithSysNanotime().
		WithSysNanosleep().
		WithRandSource(rand.Reader)

	g, err := p.newGeneration(ctx, snapshots)
	if err != nil {
		return fail(err)
	}
	p.gen.Store(g)
	return p, nil
}

func newCache(opts Options, log *slog.Logger) wazero.CompilationCache {
	if opts.MemoryOnlyCache {
		return wazero.NewCompilationCache()
	}
	dir := opts.CacheDir
	if dir == "" {
		base, err := os.UserCacheDir()
		if err != nil {
			log.Warn("no user cache directory; compiling in memory", "err", err)
			return wazero.NewCompilationCache()
		}
		dir = filepath.Join(base, "cdaedge", "wazero")
	}
	c, err := wazero.NewCompilationCacheWithDir(dir)
	if err != nil {
		log.Warn("compilation cache directory unusable; compiling in memory", "dir", dir, "err", err)
		return wazero.NewCompilationCache()
	}
	return c
}

// checkExports verifies the module's ABI (wasm/README.md) so that a wrong file fails
// at startup with a clear message.
func checkExports(m wazero.CompiledModule) error {
	i32, i64 := api.ValueTypeI32, api.ValueTypeI64
	want := map[string][2][]api.ValueType{
		"alloc":         {{i32}, {i32}},
		"dealloc":       {{i32, i32}, nil},
		"load_snapshot": {{i32, i32}, {i64}},
		"configure":     {{i32, i32}, {i64}},
		"handle":        {{i32, i32}, {i64}},
		"provide":       {{i32, i32}, {i64}},
	}
	fns := m.ExportedFunctions()
	for name, sig := range want {
		f, ok := fns[name]
		if !ok {
			return fmt.Errorf("check module: no export %q (not a cdaedge module?)", name)
		}
		if !sameTypes(f.ParamTypes(), sig[0]) || !sameTypes(f.ResultTypes(), sig[1]) {
			return fmt.Errorf("check module: export %q has the wrong signature", name)
		}
	}
	if _, ok := m.ExportedMemories()["memory"]; !ok {
		return errors.New("check module: no exported memory")
	}
	return nil
}

func sameTypes(a, b []api.ValueType) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// Size returns the number of instances of the pool.
func (p *Pool) Size() int { return p.opts.Instances }

// Failures returns how many calls into an instance have failed (a trap, a guest exit,
// a malformed answer) since the pool started; each failed instance was replaced.
func (p *Pool) Failures() uint64 { return p.failures.Load() }

// Swap builds a new generation loaded with snapshots and makes it current atomically:
// requests that start afterwards are answered by it, requests in flight finish on the
// generation they started with, whose instances are closed once they are done. When a
// new instance cannot be built (a snapshot the module rejects) nothing changes and the
// error is returned. The pool keeps references to the snapshot bytes.
func (p *Pool) Swap(ctx context.Context, snapshots []File) error {
	p.swapMu.Lock()
	defer p.swapMu.Unlock()
	if p.closed {
		return ErrClosed
	}
	g, err := p.newGeneration(ctx, snapshots)
	if err != nil {
		return err
	}
	old := p.gen.Swap(g)
	p.bg.Go(func() { old.retire(p.ctx) })
	return nil
}

// RecycleBody hands back the body of an answer of Serve once it is written, for a later
// answer's body to reuse its buffer. The caller must not use body afterwards, nor hand
// back a body that anything else still holds (an answer cache's entry).
func (p *Pool) RecycleBody(body []byte) { p.bodies.Put(body) }

// Serve answers req with an instance of the current generation, waiting for a free one
// for up to Options.QueueTimeout while ctx allows. An error means no answer: the pool
// closed, ctx ended while waiting, every instance stayed busy (an `unavailable`
// *edge.Error), or the instance failed (and was replaced); the caller answers 500
// `internal` (D8), or 503 for `unavailable`.
func (p *Pool) Serve(ctx context.Context, req *edge.Request) (*edge.Response, error) {
	// An idle instance is taken without arming the queue timer: most short requests
	// find one (86% of one-item requests under 32 connections), and a timer costs an
	// allocation and two updates of the runtime's timer heap.
	if g := p.gen.Load(); g != nil {
		select {
		case inst := <-g.slots:
			return g.serve(inst, req)
		default:
		}
	}
	var timeout <-chan time.Time
	if p.opts.QueueTimeout > 0 {
		t := time.NewTimer(p.opts.QueueTimeout)
		defer t.Stop()
		timeout = t.C
	}
	for {
		g := p.gen.Load()
		if g == nil {
			return nil, ErrClosed
		}
		select {
		case inst := <-g.slots:
			return g.serve(inst, req)
		case <-g.retired:
			// A newer generation took over (or the pool closed): look again.
		case <-timeout:
			return nil, edge.Errorf(edge.CodeUnavailable, "every engine instance stayed busy for %s; retry later", p.opts.QueueTimeout.String())
		case <-ctx.Done():
			return nil, fmt.Errorf("wait for instance: %w", ctx.Err())
		}
	}
}

// Bound is a Pool bound to a context, with the context-free Serve of conformance
// harnesses (edgetest.Handler).
type Bound struct {
	pool *Pool
	ctx  context.Context
}

// Bind returns p with every Serve using ctx.
func (p *Pool) Bind(ctx context.Context) Bound { return Bound{pool: p, ctx: ctx} }

// Serve is Pool.Serve with the bound context.
func (b Bound) Serve(req *edge.Request) (*edge.Response, error) { return b.pool.Serve(b.ctx, req) }

// Close waits (while ctx allows) for in-flight requests, then releases every instance,
// the runtime and the compilation cache. Later Serve calls return ErrClosed.
func (p *Pool) Close(ctx context.Context) error {
	var err error
	p.closeOnce.Do(func() {
		p.swapMu.Lock()
		p.closed = true
		p.swapMu.Unlock()
		if g := p.gen.Swap(nil); g != nil {
			g.retire(ctx)
		}
		p.cancel() // stops background replacements and any call still running
		p.bg.Wait()
		err = errors.Join(p.rt.Close(ctx), p.cache.Close(ctx))
	})
	return err
}

// generation is the set of instances loaded with one snapshot set.
type generation struct {
	pool  *Pool
	snaps []*source
	// files finds a snapshot file by its content hash, for the byte ranges of item
	// bodies an instance asks for.
	files map[[32]byte]*source
	// slots holds one token per instance: the idle instance, or nil for a slot whose
	// instance must be (re)built by whoever takes it.
	slots   chan *instance
	retired chan struct{} // closed once every instance is closed
	// stuck counts instances given up on as busy (ReplaceBusyAfter) whose call has not
	// ended yet; at most Instances of them, so a flood of slow requests cannot make the
	// pool build instances without bound.
	stuck atomic.Int64
}

// newGeneration builds the instances of a snapshot set, in parallel.
func (p *Pool) newGeneration(ctx context.Context, snaps []File) (*generation, error) {
	g := &generation{
		pool: p,
		// Room for a replacement of every instance: a slot handed back by an instance
		// given up on as busy stays in the channel beside its replacement's only briefly.
		slots:   make(chan *instance, 2*p.opts.Instances),
		retired: make(chan struct{}),
		files:   map[[32]byte]*source{},
	}
	for i, f := range snaps {
		src, err := newSource(f)
		if err != nil {
			return nil, fmt.Errorf("snapshot %d: %w", i, err)
		}
		g.snaps = append(g.snaps, src)
		if src.named {
			g.files[src.hash] = src
		}
	}
	errs := make([]error, p.opts.Instances)
	var wg sync.WaitGroup
	for i := range p.opts.Instances {
		wg.Go(func() {
			inst, err := g.newInstance(ctx)
			if err != nil {
				errs[i] = err
				g.slots <- nil
				return
			}
			g.slots <- inst
		})
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		g.retire(ctx)
		return nil, err
	}
	return g, nil
}

// retire takes back every slot (waiting for in-flight requests while ctx allows),
// closes the instances and marks the generation retired.
func (g *generation) retire(ctx context.Context) {
	defer close(g.retired)
	for range g.pool.opts.Instances {
		select {
		case inst := <-g.slots:
			inst.close()
		case <-ctx.Done():
			return // the runtime's Close ends the rest
		}
	}
}

// serve answers req with inst (nil: build one first) and gives the slot back. A call
// still running after ReplaceBusyAfter gives its slot to a fresh instance, so that the
// next requests do not wait for it; the busy instance is closed when its call ends.
func (g *generation) serve(inst *instance, req *edge.Request) (*edge.Response, error) {
	p := g.pool
	if inst == nil {
		var err error
		if inst, err = g.newInstance(p.ctx); err != nil {
			g.slots <- nil
			return nil, err
		}
	}
	var owned atomic.Bool // the slot is still this call's to give back
	owned.Store(true)
	if after := p.opts.ReplaceBusyAfter; after > 0 {
		t := time.AfterFunc(after, func() {
			if g.stuck.Load() >= int64(p.opts.Instances) || !owned.CompareAndSwap(true, false) {
				return
			}
			g.stuck.Add(1)
			p.log.Warn("wasm instance busy past its work budget; a fresh one takes its place", "busy_for_ms", after.Milliseconds())
			g.replace()
		})
		defer t.Stop()
	}
	if p.beforeCall != nil {
		p.beforeCall()
	}
	resp, err := inst.serve(p.ctx, p.opts.CallTimeout, req)
	if !owned.CompareAndSwap(true, false) {
		// Replaced while it answered: its slot already went to another instance.
		g.stuck.Add(-1)
		inst.close()
		if err != nil {
			p.failures.Add(1)
		}
		return resp, err
	}
	if err != nil {
		p.failures.Add(1)
		p.log.Warn("wasm instance failed; replacing it", "err", err)
		inst.close()
		g.replace()
		return nil, err
	}
	g.slots <- inst
	return resp, nil
}

// replace builds an instance for a freed slot in the background; if that fails the
// slot stays empty and the next request that takes it tries again.
func (g *generation) replace() {
	p := g.pool
	p.bg.Go(func() {
		inst, err := g.newInstance(p.ctx)
		if err != nil {
			if p.ctx.Err() == nil {
				p.log.Error("replace wasm instance", "err", err)
			}
			g.slots <- nil
			return
		}
		g.slots <- inst
	})
}

// instance is one module instance and its exports.
type instance struct {
	mod                                             api.Module
	mem                                             api.Memory
	alloc, handle, provide, loadSnapshot, configure api.Function
	files                                           map[[32]byte]*source // the generation's, by hash
	frame                                           []byte               // request frame buffer, reused
	stack                                           [2]uint64            // call stack for CallWithStack, reused
	bodyBuffer                                      func(n int) []byte   // the pool's bodies.Get
}

// maxKeptFrame is the largest request frame buffer an instance keeps for reuse.
const maxKeptFrame = 64 << 10

// newInstance instantiates the module and loads the generation's snapshots.
func (g *generation) newInstance(ctx context.Context) (*instance, error) {
	p := g.pool
	mod, err := p.rt.InstantiateModule(experimental.WithMemoryAllocator(ctx, p.alloc), p.compiled, p.modCfg)
	if err != nil {
		return nil, fmt.Errorf("instantiate module: %w", err)
	}
	inst := &instance{
		mod:          mod,
		mem:          mod.Memory(),
		alloc:        mod.ExportedFunction("alloc"),
		handle:       mod.ExportedFunction("handle"),
		provide:      mod.ExportedFunction("provide"),
		loadSnapshot: mod.ExportedFunction("load_snapshot"),
		configure:    mod.ExportedFunction("configure"),
		files:        g.files,
		bodyBuffer:   p.bodies.Get,
	}
	if err := inst.give(ctx, inst.configure, wire.AppendOptions(nil, &p.opts.Router)); err != nil {
		inst.close()
		return nil, fmt.Errorf("configure router: %w", err)
	}
	for i, src := range g.snaps {
		if err := inst.load(ctx, src); err != nil {
			inst.close()
			return nil, fmt.Errorf("load snapshot %d: %w", i, err)
		}
	}
	return inst, nil
}

// give copies data into a guest buffer and hands it to fn (load_snapshot or
// configure), which returns 0 or a packed error message.
func (in *instance) give(ctx context.Context, fn api.Function, data []byte) error {
	ptr, err := in.write(ctx, data)
	if err != nil {
		return err
	}
	return in.call(ctx, fn, ptr, len(data))
}

// call hands the guest buffer ptr of n bytes to fn (load_snapshot or configure), which
// returns 0 or a packed error message.
func (in *instance) call(ctx context.Context, fn api.Function, ptr uint32, n int) error {
	in.stack[0], in.stack[1] = uint64(ptr), uint64(n)
	if err := fn.CallWithStack(ctx, in.stack[:]); err != nil {
		return fmt.Errorf("call %s: %w", fn.Definition().ExportNames()[0], err)
	}
	if in.stack[0] == 0 {
		return nil
	}
	msg, err := in.read(in.stack[0])
	if err != nil {
		return err
	}
	return errors.New(string(msg))
}

// write allocates a guest buffer and copies b into it.
func (in *instance) write(ctx context.Context, b []byte) (uint32, error) {
	ptr, dst, err := in.buffer(ctx, uint64(len(b)))
	if err != nil {
		return 0, err
	}
	copy(dst, b)
	return ptr, nil
}

// buffer allocates a guest buffer of n bytes and returns its address and a view of it,
// valid until the next call into the instance (which may grow its memory).
func (in *instance) buffer(ctx context.Context, n uint64) (uint32, []byte, error) {
	if n > 1<<32-1 {
		return 0, nil, errors.New("buffer larger than 4 GiB")
	}
	in.stack[0] = n
	if err := in.alloc.CallWithStack(ctx, in.stack[:]); err != nil {
		return 0, nil, fmt.Errorf("call alloc: %w", err)
	}
	ptr := uint32(in.stack[0])
	dst, ok := in.mem.Read(ptr, uint32(n))
	if ptr == 0 || !ok {
		return 0, nil, fmt.Errorf("alloc returned an invalid buffer %#x+%d", ptr, n)
	}
	return ptr, dst, nil
}

// read returns the guest memory view of a packed ptr<<32|len; it is valid until the
// next call into the instance.
func (in *instance) read(packed uint64) ([]byte, error) {
	ptr, n := uint32(packed>>32), uint32(packed)
	b, ok := in.mem.Read(ptr, n)
	if !ok {
		return nil, fmt.Errorf("result %#x+%d out of memory bounds", ptr, n)
	}
	return b, nil
}

// serve runs one request through the instance. Any error leaves the instance unusable.
func (in *instance) serve(ctx context.Context, timeout time.Duration, req *edge.Request) (*edge.Response, error) {
	if timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, timeout)
		defer cancel()
	}
	frame := wire.AppendRequest(in.frame[:0], req)
	if cap(frame) <= maxKeptFrame {
		in.frame = frame
	}
	ptr, err := in.write(ctx, frame)
	if err != nil {
		return nil, err
	}
	in.stack[0], in.stack[1] = uint64(ptr), uint64(len(frame))
	if err := in.handle.CallWithStack(ctx, in.stack[:]); err != nil {
		return nil, fmt.Errorf("call handle: %w", err)
	}
	out, err := in.read(in.stack[0])
	if err != nil {
		return nil, err
	}
	for wire.IsNeed(out) {
		if out, err = in.provideBodies(ctx, out); err != nil {
			return nil, err
		}
	}
	resp, err := wire.DecodeResponseInto(out, in.bodyBuffer) // copies out of guest memory
	if err != nil {
		return nil, fmt.Errorf("decode response: %w", err)
	}
	return &resp, nil
}

// provideBodies answers a need-ranges frame: it copies the ranges from the snapshot
// files straight into one guest buffer and calls provide, whose answer it returns (a
// response or another need-ranges frame; the module bounds the rounds).
func (in *instance) provideBodies(ctx context.Context, need []byte) ([]byte, error) {
	ranges, err := wire.DecodeNeed(need)
	if err != nil {
		return nil, fmt.Errorf("decode need-ranges frame: %w", err)
	}
	total := uint64(0)
	for _, r := range ranges {
		file, ok := in.files[r.Snapshot]
		if !ok || file.Reader == nil && (r.Offset > uint64(len(file.Data)) || uint64(r.Length) > uint64(len(file.Data))-r.Offset) {
			return nil, fmt.Errorf("the module asked for bytes %d+%d of a snapshot it was not given", r.Offset, r.Length)
		}
		total += uint64(r.Length)
	}
	if total > 1<<32-1 {
		return nil, errors.New("the module asked for more than 4 GiB of item bodies at once")
	}
	ptr, dst, err := in.buffer(ctx, total) // a view of guest memory: reads land in place
	if err != nil {
		return nil, err
	}
	for _, r := range ranges {
		file, part := in.files[r.Snapshot], dst[:r.Length]
		if file.Reader == nil {
			copy(part, file.Data[r.Offset:])
		} else if _, err := file.Reader.ReadAt(part, int64(r.Offset)); err != nil {
			return nil, fmt.Errorf("read item bodies: %w", err)
		}
		dst = dst[r.Length:]
	}
	in.stack[0], in.stack[1] = uint64(ptr), total
	if err := in.provide.CallWithStack(ctx, in.stack[:]); err != nil {
		return nil, fmt.Errorf("call provide: %w", err)
	}
	return in.read(in.stack[0])
}

func (in *instance) close() {
	if in != nil {
		_ = in.mod.Close(context.Background())
	}
}

// MemorySizes returns the size in bytes of each instance's wasm memory in the current
// generation (0 for a slot without an instance). It takes every instance in turn, waiting
// for requests in flight: it is meant for measurements and diagnostics, not a hot path.
func (p *Pool) MemorySizes() []uint64 {
	g := p.gen.Load()
	if g == nil {
		return nil
	}
	// One token per instance: the channel has room for twice as many (see
	// newGeneration), so its capacity is not the count.
	n := p.opts.Instances
	taken := make([]*instance, 0, n)
	sizes := make([]uint64, 0, n)
	for range n {
		inst := <-g.slots
		taken = append(taken, inst)
		if inst == nil {
			sizes = append(sizes, 0)
		} else {
			sizes = append(sizes, uint64(inst.mem.Size()))
		}
	}
	for _, inst := range taken {
		g.slots <- inst
	}
	return sizes
}
