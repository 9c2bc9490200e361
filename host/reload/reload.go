// Package reload keeps the host's snapshot set in step with its snapshot folder.
//
// A rescan lists the folder's *.snap files; a new or changed file is read and verified
// (checksum, format version) before it may replace the version serving its environment.
// A file that does not verify (corrupt, truncated, half-written, a second file of an
// environment already served) is rejected with a log line and the version already
// serving keeps serving; a removed file stops serving its environment. When the set
// changes, the whole new set is handed to the engine at once (a new generation of
// instances, swapped atomically), so a request is always answered by one consistent
// set. Rescans run on file-system events (debounced), on SIGHUP and, optionally, on a
// timer.
package reload

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"github.com/fsnotify/fsnotify"

	"github.com/cdaedge/cdaedge/host/snapdir"
)

// SwapFunc installs a complete snapshot set in the engine, atomically; on error the
// engine keeps the set it had.
type SwapFunc func(ctx context.Context, files []snapdir.File) error

// Options configures a Reloader.
type Options struct {
	// Debounce is how long the folder must be quiet after an event before a rescan;
	// zero means 100 ms.
	Debounce time.Duration
	// MaxDelay bounds how long events may keep postponing a rescan (a file rewritten
	// more often than Debounce would otherwise never be read); zero means one second.
	MaxDelay time.Duration
	// Poll, when positive, also rescans at this interval (for file systems without
	// change events).
	Poll time.Duration
	// Logger receives one line per loaded, rejected or removed snapshot; nil discards.
	Logger *slog.Logger
	// Open opens and verifies a changed file; nil means snapdir.Open (the whole file).
	Open snapdir.Opener
}

// Counts are the reloader's running totals.
type Counts struct {
	Scans    uint64 // rescans done
	Loaded   uint64 // snapshot versions installed after startup
	Rejected uint64 // files that did not verify
	Failed   uint64 // swaps the engine refused
}

// Reloader watches a snapshot folder and swaps the engine's set. Its methods are safe
// for concurrent use.
type Reloader struct {
	dir  string
	swap SwapFunc
	opts Options
	log  *slog.Logger

	mu       sync.Mutex                     // serialises rescans
	current  map[string]snapdir.File        // served files by path
	infos    map[string]os.FileInfo         // file information of current, by path
	rejected map[string]os.FileInfo         // last rejected version of a path
	served   atomic.Pointer[[]snapdir.File] // current, sorted by path, for readers

	scans, loaded, rejects, failed atomic.Uint64

	watcher *fsnotify.Watcher // set by Watch
}

// New returns a reloader for dir whose engine already serves initial (as loaded by
// snapdir.Load).
func New(dir string, initial []snapdir.File, swap SwapFunc, opts Options) *Reloader {
	if opts.Debounce <= 0 {
		opts.Debounce = 100 * time.Millisecond
	}
	if opts.MaxDelay <= 0 {
		opts.MaxDelay = time.Second
	}
	if opts.Open == nil {
		opts.Open = snapdir.Open
	}
	r := &Reloader{dir: dir, swap: swap, opts: opts, log: opts.Logger,
		current: map[string]snapdir.File{}, infos: map[string]os.FileInfo{}, rejected: map[string]os.FileInfo{}}
	if r.log == nil {
		r.log = slog.New(slog.DiscardHandler)
	}
	for _, f := range initial {
		r.current[f.Path] = f
		if info, err := os.Stat(f.Path); err == nil {
			r.infos[f.Path] = info
		}
	}
	r.publish()
	return r
}

// Served returns the snapshot files being served, sorted by path. The caller must not
// modify them.
func (r *Reloader) Served() []snapdir.File { return *r.served.Load() }

// Counts returns the running totals.
func (r *Reloader) Counts() Counts {
	return Counts{Scans: r.scans.Load(), Loaded: r.loaded.Load(), Rejected: r.rejects.Load(), Failed: r.failed.Load()}
}

func (r *Reloader) publish() {
	files := make([]snapdir.File, 0, len(r.current))
	for _, f := range r.current {
		files = append(files, f)
	}
	sort.Slice(files, func(i, j int) bool { return files[i].Path < files[j].Path })
	r.served.Store(&files)
}

// Rescan compares the folder with the served set and installs the changes. It returns
// an error only when the folder cannot be listed or the engine refuses the new set; in
// both cases the served set is unchanged.
func (r *Reloader) Rescan(ctx context.Context) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.scans.Add(1)
	list, err := snapdir.List(r.dir)
	if err != nil {
		r.failed.Add(1)
		r.log.Error("rescan snapshot folder", "dir", r.dir, "err", err)
		return err
	}
	next := make(map[string]snapdir.File, len(list))
	infos := make(map[string]os.FileInfo, len(list))
	var changed []snapdir.File
	present := map[string]bool{}
	for _, c := range list {
		present[c.Path] = true
		old, served := r.current[c.Path]
		if served && snapdir.Same(r.infos[c.Path], c.Info) {
			next[c.Path], infos[c.Path] = old, r.infos[c.Path]
			continue
		}
		if snapdir.Same(r.rejected[c.Path], c.Info) {
			r.keep(next, infos, c.Path)
			continue
		}
		f, err := r.opts.Open(c.Path)
		if err == nil && served && f.Env != old.Env {
			err = fmt.Errorf("snapshot %s changed environment from %q to %q; remove the file first", c.Path, old.Env, f.Env)
		}
		if err != nil {
			if !unchanged(c) {
				// Written to while we read it (a copy in progress): not a verdict on the
				// file. Keep what serves and read it again at the next rescan, which its
				// writer's events bring.
				r.log.Debug("snapshot changed while read; will read it again", "path", c.Path, "err", err)
				r.keep(next, infos, c.Path)
				continue
			}
			r.reject(c, err, served)
			r.keep(next, infos, c.Path)
			continue
		}
		delete(r.rejected, c.Path)
		if served && f.Version == old.Version {
			next[c.Path], infos[c.Path] = old, c.Info // touched, same content
			continue
		}
		next[c.Path], infos[c.Path] = f, c.Info
		changed = append(changed, f)
	}
	for path := range r.rejected {
		if !present[path] {
			delete(r.rejected, path)
		}
	}
	// One file per environment: a newcomer whose environment another file serves is
	// rejected.
	owner := map[string]string{}
	for path, f := range next {
		if old, ok := r.current[path]; ok && old.SameVersion(f) {
			owner[f.Env] = path // unchanged: keeps its environment
		}
	}
	accepted := changed[:0]
	for _, f := range changed {
		if p, ok := owner[f.Env]; ok && p != f.Path {
			r.reject(snapdir.Candidate{Path: f.Path, Info: infos[f.Path]},
				fmt.Errorf("environment %q is also in %s", f.Env, p), false)
			delete(next, f.Path)
			delete(infos, f.Path)
			if old, ok := r.current[f.Path]; ok {
				next[f.Path], infos[f.Path] = old, r.infos[f.Path]
			}
			continue
		}
		owner[f.Env] = f.Path
		accepted = append(accepted, f)
	}
	changed = accepted
	var removed []snapdir.File
	for path, f := range r.current {
		if _, ok := next[path]; !ok {
			removed = append(removed, f)
		}
	}
	if !r.differs(next) {
		r.infos = infos
		return nil
	}
	files := make([]snapdir.File, 0, len(next))
	for _, f := range next {
		files = append(files, f)
	}
	sort.Slice(files, func(i, j int) bool { return files[i].Path < files[j].Path })
	if err := r.swap(ctx, files); err != nil {
		r.failed.Add(1)
		r.log.Error("install snapshot set; the previous set keeps serving", "err", err)
		return fmt.Errorf("swap snapshots: %w", err)
	}
	r.current, r.infos = next, infos
	r.publish()
	for _, f := range files {
		if containsFile(changed, f) {
			r.loaded.Add(1)
			r.log.Info("snapshot loaded", "env", f.Env, "path", f.Path, "version", f.Version,
				"bytes", f.Size, "resident_bytes", len(f.Data), "items", f.Items, "preview", f.Preview)
		}
	}
	for _, f := range removed {
		r.log.Info("snapshot removed; environment no longer served", "env", f.Env, "path", f.Path)
	}
	return nil
}

// unchanged reports whether c's file still has the information it had when listed.
func unchanged(c snapdir.Candidate) bool {
	info, err := os.Stat(c.Path)
	return err == nil && snapdir.Same(info, c.Info)
}

// keep carries the served version of path (if any) into next.
func (r *Reloader) keep(next map[string]snapdir.File, infos map[string]os.FileInfo, path string) {
	if old, ok := r.current[path]; ok {
		next[path], infos[path] = old, r.infos[path]
	}
}

func (r *Reloader) reject(c snapdir.Candidate, err error, served bool) {
	r.rejects.Add(1)
	r.rejected[c.Path] = c.Info
	if served {
		r.log.Warn("snapshot rejected; the previous version keeps serving", "path", c.Path, "err", err)
	} else {
		r.log.Warn("snapshot rejected", "path", c.Path, "err", err)
	}
}

func containsFile(fs []snapdir.File, f snapdir.File) bool {
	for _, g := range fs {
		if g.SameVersion(f) {
			return true
		}
	}
	return false
}

// differs reports whether next serves anything other than the current set.
func (r *Reloader) differs(next map[string]snapdir.File) bool {
	if len(next) != len(r.current) {
		return true
	}
	for path, f := range next {
		if old, ok := r.current[path]; !ok || !old.SameVersion(f) {
			return true
		}
	}
	return false
}

// Watch starts watching the folder for changes, so that every change after it returns
// is seen by Run. Without it (or when it fails) Run relies on hup and polling.
func (r *Reloader) Watch() error {
	w, err := fsnotify.NewWatcher()
	if err != nil {
		return fmt.Errorf("watch snapshot folder: %w", err)
	}
	if err := w.Add(r.dir); err != nil {
		_ = w.Close()
		return fmt.Errorf("watch snapshot folder: %w", err)
	}
	r.watcher = w
	return nil
}

// Run rescans on file-system events in the folder (debounced; see Watch), on every
// value of hup (SIGHUP) and every Options.Poll, until ctx ends. It starts with one
// rescan, for changes made before Watch. Without a watcher it polls (every 2 s when
// Poll is zero).
func (r *Reloader) Run(ctx context.Context, hup <-chan os.Signal) {
	var events <-chan fsnotify.Event
	var errs <-chan error
	poll := r.opts.Poll
	if w := r.watcher; w != nil {
		defer w.Close()
		events, errs = w.Events, w.Errors
	} else if poll <= 0 {
		poll = 2 * time.Second
	}
	_ = r.Rescan(ctx)
	var tick <-chan time.Time
	if poll > 0 {
		t := time.NewTicker(poll)
		defer t.Stop()
		tick = t.C
	}
	debounce := time.NewTimer(time.Hour)
	debounce.Stop()
	defer debounce.Stop()
	// pending is when the first event not yet rescanned arrived (zero: none). Each
	// event restarts the debounce, but never past MaxDelay after the first.
	var pending time.Time
	postpone := func() {
		now := time.Now()
		if pending.IsZero() {
			pending = now
		}
		wait := r.opts.Debounce
		if left := pending.Add(r.opts.MaxDelay).Sub(now); left < wait {
			wait = max(left, 0)
		}
		debounce.Reset(wait)
	}
	for {
		select {
		case <-ctx.Done():
			return
		case ev, ok := <-events:
			if !ok {
				events = nil
				continue
			}
			if filepath.Ext(ev.Name) == ".snap" {
				postpone()
			}
		case err, ok := <-errs:
			if !ok {
				errs = nil
				continue
			}
			r.log.Warn("snapshot folder watcher", "err", err)
			postpone()
		case <-hup:
			r.log.Info("SIGHUP: rescanning the snapshot folder", "dir", r.dir)
			_ = r.Rescan(ctx)
		case <-tick:
			_ = r.Rescan(ctx)
		case <-debounce.C:
			pending = time.Time{}
			_ = r.Rescan(ctx)
		}
	}
}
