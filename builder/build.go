package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"time"

	"github.com/cdaedge/cdaedge/builder/ingest"
	"golang.org/x/term"
)

var buildCommand = command{
	name:     "build",
	summary:  "compile content items (NDJSON or JSON) into a snapshot file",
	synopsis: "builder build --env ID --out FILE [flags] INPUT...",
	about: `
Compiles one environment's content items into a snapshot file. Each INPUT is NDJSON
(.ndjson, .jsonl), a JSON array (.json), or - for NDJSON on standard input. Only
items whose Status is Published go in, unless --preview. Every problem is reported
with its file and line, and then no snapshot is written; an existing FILE is
replaced only when the build succeeds. The environment ID is 1 to 128 letters,
digits, '_', '.' or '-', starting with a letter or digit.

While it builds, the items and the index being built wait in a temporary file
beside FILE rather than in memory: the build needs free disk space there of about
the input's size, and removes the file when it ends.`,
	example: "builder build --env demo --out build/demo.snap testdata/demo/content.ndjson",
	run:     runBuild,
}

// buildMemoryLimit is the heap size past which a build's collector runs as often as it
// must to stay under it (the runtime's soft memory limit).
const buildMemoryLimit = 1536 << 20

// runBuild is the build command.
func runBuild(fs *flag.FlagSet, args []string, std stdio) error {
	env := fs.String("env", "", "environment `ID` written into the snapshot (required)")
	out := fs.String("out", "", "snapshot `FILE` to write (required)")
	preview := fs.Bool("preview", false, "include items of every status and mark the snapshot as a preview, which a server serves only with an access token")
	inputs, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	switch {
	case *env == "":
		return errUsage{"--env is required"}
	case !ingest.ValidEnvironment(*env):
		return errUsage{fmt.Sprintf("invalid environment id %q: %s", *env, envRule)}
	case *out == "":
		return errUsage{"--out is required"}
	case len(inputs) == 0:
		return errUsage{"no INPUT given"}
	}
	if err := ingest.CheckOutput(*out); err != nil {
		return err
	}
	stdinUsed := false
	for _, in := range inputs {
		if _, err := ingest.FormatOf(in); err != nil {
			return errUsage{err.Error()}
		}
		if in == "-" {
			if stdinUsed {
				return errUsage{"- (stdin) given twice"}
			}
			stdinUsed = true
		}
	}

	// A build's memory is mostly the index it is building, all of it live until the end,
	// and what it spools goes to disk: the heap stays a few hundred MB at 100k items and
	// grows with the items past that. The collector may then run less often than its
	// default goal allows (twice the live heap), within a ceiling that keeps a 1M-item
	// build under 2 GB. Measured against GOGC 50 (used before), in one run each: at
	// 100k generated items, 0.91x the CPU time for 450 MB of peak memory instead of
	// 270 MB; at 1M, a peak of 1.50 GiB instead of 1.28 GiB. GOGC and
	// GOMEMLIMIT, when set, still decide.
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(200)
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(buildMemoryLimit)
	}
	stderr := std.stderr
	start := time.Now()
	pr := newProgress(stderr)
	b, err := ingest.NewBuilder(ingest.Options{Environment: *env, Preview: *preview, Progress: pr.update,
		Spool: true, SpoolDir: filepath.Dir(*out)})
	if err != nil {
		return err
	}
	defer b.Close()
	for _, in := range inputs {
		if err := b.AddFile(in, std.stdin); err != nil {
			pr.clear()
			return err
		}
	}
	pr.status(fmt.Sprintf("building snapshot of %d items", b.Stats().Included))
	snap, warnings, err := b.Encode()
	pr.clear()
	for _, w := range warnings {
		fmt.Fprintf(stderr, "warning: %s\n", w)
	}
	st := b.Stats()
	var verr *ingest.ValidationError
	if errors.As(err, &verr) {
		for _, p := range verr.Problems {
			fmt.Fprintln(stderr, p)
		}
		n := len(verr.Problems)
		fmt.Fprintf(stderr, "build failed: %d %s in %d items; no snapshot written\n", n, plural(n, "problem", "problems"), st.Read)
		return errReported
	}
	if err != nil {
		return err
	}
	defer snap.Close()
	if n := st.SkippedTotal(); n > 0 {
		fmt.Fprintf(stderr, "skipped %d unpublished %s (%s)\n", n, plural(n, "item", "items"), st.SkippedSummary())
	}
	if err := ingest.WriteFileFunc(*out, func(w io.Writer) error {
		_, err := snap.WriteTo(w)
		return err
	}); err != nil {
		return err
	}
	kind := ""
	if *preview {
		kind = "preview, "
	}
	fmt.Fprintf(stderr, "wrote %s: %s%d %s, %s in %s\n", *out, kind, st.Included,
		plural(st.Included, "item", "items"), humanSize(snap.Size()), since(start))
	return nil
}

// progress prints "read N items from FILE" lines and, on a terminal, a progress bar
// while a long input is read.
type progress struct {
	w      io.Writer
	tty    bool
	width  int
	start  time.Time
	last   time.Time
	drawn  bool
	file   string
	clock  func() time.Time
	before time.Duration // no bar for inputs read faster than this
}

// newProgress returns a progress writing to w, with a bar if w is a terminal.
func newProgress(w io.Writer) *progress {
	p := &progress{w: w, clock: time.Now, before: 300 * time.Millisecond, width: 80}
	if f, ok := w.(interface{ Fd() uintptr }); ok && term.IsTerminal(int(f.Fd())) {
		p.tty = true
		if wd, _, err := term.GetSize(int(f.Fd())); err == nil && wd > 40 {
			p.width = wd
		}
	}
	return p
}

// update is the ingest.Options.Progress callback.
func (p *progress) update(pr ingest.Progress) {
	if pr.File != p.file {
		p.file, p.start = pr.File, p.clock()
	}
	if pr.Done {
		p.clear()
		fmt.Fprintf(p.w, "read %d %s from %s\n", pr.Items, plural(pr.Items, "item", "items"), pr.File)
		p.file = ""
		return
	}
	now := p.clock()
	if !p.tty || now.Sub(p.start) < p.before || now.Sub(p.last) < 100*time.Millisecond {
		return
	}
	p.last = now
	label := fmt.Sprintf(" %d items", pr.Items)
	name := pr.File
	if len(name) > 24 {
		name = "…" + name[len(name)-23:]
	}
	barW := p.width - len(name) - len(label) - 12
	if barW > 50 {
		barW = 50
	}
	line := name + " " + label
	if pr.Total > 0 && barW > 5 {
		frac := float64(pr.Bytes) / float64(pr.Total)
		if frac > 1 {
			frac = 1
		}
		fill := int(frac * float64(barW))
		line = fmt.Sprintf("%s [%s%s] %3d%%%s", name, strings.Repeat("=", fill), strings.Repeat(" ", barW-fill), int(frac*100), label)
	}
	fmt.Fprintf(p.w, "\r\x1b[K%s", line)
	p.drawn = true
}

// status shows a one-line status on a terminal until the next clear.
func (p *progress) status(msg string) {
	if p.tty {
		fmt.Fprintf(p.w, "\r\x1b[K%s…", msg)
		p.drawn = true
	}
}

// clear removes a drawn progress bar.
func (p *progress) clear() {
	if p.drawn {
		fmt.Fprint(p.w, "\r\x1b[K")
		p.drawn = false
	}
}
