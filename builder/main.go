// Command builder compiles one environment's content items into a snapshot file
// (package snapshot), and inspects, exports and generates content.
//
//	builder build   --env ENV --out FILE.snap [--preview] INPUT...
//	builder inspect FILE.snap [--json]
//	builder export  FILE.snap [--out FILE]
//	builder gen     --items N --seed S [--env ID] [--out FILE]
//
// Exit status: 0 on success, 1 when the input has problems or I/O fails, 2 for usage
// errors.
package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/cdaedge/cdaedge/builder/gen"
	"github.com/cdaedge/cdaedge/builder/ingest"
	"github.com/cdaedge/cdaedge/snapshot"
	"golang.org/x/term"
)

const usage = `usage: builder <command> [flags] [arguments]

commands:
  build    --env ENV --out FILE.snap [--preview] INPUT...
           compile content items into a snapshot; each INPUT is NDJSON (.ndjson,
           .jsonl), a JSON array (.json), or - for NDJSON on stdin. Only items whose
           Status is Published go in, unless --preview (decisions D3).
  inspect  FILE.snap [--json]
           show a snapshot's header and section sizes
  export   FILE.snap [--out FILE]
           write a snapshot's items as NDJSON (stdout by default)
  gen      --items N --seed S [--env ID] [--out FILE]
           generate N realistic content items as NDJSON (stdout by default)

Run 'builder <command> -h' for the flags of one command.
Exit status: 0 success, 1 problems in the input or I/O failure, 2 usage error.
`

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// errUsage marks a usage error (exit status 2); its message is printed before usage.
type errUsage struct{ msg string }

func (e errUsage) Error() string { return e.msg }

// run is the whole command line program; tests call it without a subprocess.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	var err error
	switch args[0] {
	case "build":
		err = cmdBuild(args[1:], stdin, stderr)
	case "inspect":
		err = cmdInspect(args[1:], stdout, stderr)
	case "export":
		err = cmdExport(args[1:], stdout, stderr)
	case "gen":
		err = cmdGen(args[1:], stdout, stderr)
	case "help", "-h", "-help", "--help":
		fmt.Fprint(stdout, usage)
		return 0
	default:
		fmt.Fprintf(stderr, "builder: unknown command %q\n\n%s", args[0], usage)
		return 2
	}
	var ue errUsage
	switch {
	case err == nil:
		return 0
	case errors.Is(err, flag.ErrHelp):
		return 0
	case errors.As(err, &ue):
		fmt.Fprintf(stderr, "builder %s: %s\n\n%s", args[0], ue.msg, usage)
		return 2
	case errors.Is(err, errReported):
		return 1
	default:
		fmt.Fprintf(stderr, "builder %s: %v\n", args[0], err)
		return 1
	}
}

// errReported is returned when the problems were already printed.
var errReported = errors.New("problems reported")

// newFlags returns a flag set that prints nothing itself: run reports its errors as
// usage errors, and -h prints the command's flags.
func newFlags(name string) *flag.FlagSet {
	fs := flag.NewFlagSet("builder "+name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	return fs
}

// parseFlags parses flags given before, between or after positional arguments and
// returns the positional ones. "--" ends flag parsing. For -h it prints the command's
// flags to stderr and returns flag.ErrHelp.
func parseFlags(fs *flag.FlagSet, args []string, stderr io.Writer) ([]string, error) {
	var rest []string
	for i, a := range args {
		if a == "--" {
			args, rest = args[:i], args[i+1:]
			break
		}
	}
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				fmt.Fprintf(stderr, "usage of %s:\n", fs.Name())
				fs.SetOutput(stderr)
				fs.PrintDefaults()
				return nil, err
			}
			return nil, errUsage{err.Error()}
		}
		args = fs.Args()
		if len(args) == 0 {
			break
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
	return append(pos, rest...), nil
}

func cmdBuild(args []string, stdin io.Reader, stderr io.Writer) error {
	fs := newFlags("build")
	env := fs.String("env", "", "environment `id` written into the snapshot (decisions D1)")
	out := fs.String("out", "", "output snapshot `file`")
	preview := fs.Bool("preview", false, "include items of every status and mark the snapshot as preview (D3)")
	inputs, err := parseFlags(fs, args, stderr)
	if err != nil {
		return err
	}
	switch {
	case *env == "":
		return errUsage{"--env is required"}
	case !ingest.ValidEnvironment(*env):
		return errUsage{fmt.Sprintf("invalid environment id %q: want [A-Za-z0-9][A-Za-z0-9_.-]{0,127} (decisions D1)", *env)}
	case *out == "":
		return errUsage{"--out is required"}
	case len(inputs) == 0:
		return errUsage{"no INPUT given"}
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

	start := time.Now()
	pr := newProgress(stderr)
	b, err := ingest.NewBuilder(ingest.Options{Environment: *env, Preview: *preview, Progress: pr.update})
	if err != nil {
		return err
	}
	for _, in := range inputs {
		if err := b.AddFile(in, stdin); err != nil {
			pr.clear()
			return err
		}
	}
	pr.status(fmt.Sprintf("building snapshot of %d items", b.Stats().Included))
	snap, warnings, err := b.Finish()
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
	if n := st.SkippedTotal(); n > 0 {
		fmt.Fprintf(stderr, "skipped %d unpublished %s (%s)\n", n, plural(n, "item", "items"), st.SkippedSummary())
	}
	if err := ingest.WriteFile(*out, snap); err != nil {
		return err
	}
	kind := ""
	if *preview {
		kind = "preview, "
	}
	fmt.Fprintf(stderr, "wrote %s: %s%d %s, %s in %s\n", *out, kind, st.Included,
		plural(st.Included, "item", "items"), humanSize(int64(len(snap))), since(start))
	return nil
}

func cmdInspect(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("inspect")
	asJSON := fs.Bool("json", false, "print JSON instead of tables")
	pos, err := parseFlags(fs, args, stderr)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return errUsage{"want exactly one FILE.snap"}
	}
	s, err := openSnapshot(pos[0])
	if err != nil {
		return err
	}
	info := describe(pos[0], s)
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		if err := enc.Encode(info); err != nil {
			return fmt.Errorf("write: %w", err)
		}
		return nil
	}
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintf(tw, "file\t%s\n", info.File)
	fmt.Fprintf(tw, "environment\t%s\n", info.Environment)
	fmt.Fprintf(tw, "format\t%s\n", info.FormatVersion)
	fmt.Fprintf(tw, "preview\t%t\n", info.Preview)
	fmt.Fprintf(tw, "items\t%d\n", info.Items)
	fmt.Fprintf(tw, "statuses\t%s\n", strings.Join(info.Statuses, ", "))
	fmt.Fprintf(tw, "version\t%s\n", info.Version)
	fmt.Fprintf(tw, "size\t%s (%d bytes)\n", humanSize(info.Size), info.Size)
	if err := tw.Flush(); err != nil {
		return fmt.Errorf("write: %w", err)
	}
	fmt.Fprintln(stdout)
	tw = tabwriter.NewWriter(stdout, 0, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "section\toffset\tlength\tsize\t\n")
	for _, sec := range info.Sections {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%s\t\n", sec.Name, sec.Offset, sec.Length, humanSize(sec.Length))
	}
	if err := tw.Flush(); err != nil {
		return fmt.Errorf("write: %w", err)
	}
	return nil
}

// snapInfo is what inspect prints.
type snapInfo struct {
	File          string        `json:"file"`
	Environment   string        `json:"environment"`
	FormatVersion string        `json:"formatVersion"`
	Preview       bool          `json:"preview"`
	Items         int           `json:"items"`
	Statuses      []string      `json:"statuses"`
	Version       string        `json:"version"`
	Size          int64         `json:"size"`
	Sections      []sectionInfo `json:"sections"`
}

type sectionInfo struct {
	Name   string `json:"name"`
	Offset int64  `json:"offset"`
	Length int64  `json:"length"`
}

func describe(file string, s *snapshot.Snapshot) snapInfo {
	major, minor := s.FormatVersion()
	info := snapInfo{
		File: file, Environment: s.Environment(), Preview: s.Preview(), Items: s.Len(),
		FormatVersion: strconv.Itoa(major) + "." + strconv.Itoa(minor),
		Statuses:      append([]string{}, s.Statuses()...),
		Version:       s.Version(), Size: int64(s.Size()), Sections: []sectionInfo{},
	}
	for _, sec := range s.Sections() {
		info.Sections = append(info.Sections, sectionInfo{Name: sec.Name, Offset: sec.Offset, Length: sec.Length})
	}
	return info
}

func openSnapshot(path string) (*snapshot.Snapshot, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read snapshot: %w", err)
	}
	s, err := snapshot.Open(data)
	if err != nil {
		return nil, fmt.Errorf("open snapshot %s: %w", path, err)
	}
	return s, nil
}

func cmdExport(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("export")
	out := fs.String("out", "", "output NDJSON `file` (default stdout)")
	pos, err := parseFlags(fs, args, stderr)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return errUsage{"want exactly one FILE.snap"}
	}
	s, err := openSnapshot(pos[0])
	if err != nil {
		return err
	}
	write := func(w io.Writer) error {
		for i := 0; i < s.Len(); i++ {
			if _, err := io.WriteString(w, s.Item(i)); err != nil {
				return err
			}
			if _, err := io.WriteString(w, "\n"); err != nil {
				return err
			}
		}
		return nil
	}
	if *out != "" {
		return ingest.WriteFileFunc(*out, write)
	}
	bw := bufio.NewWriterSize(stdout, 1<<20)
	if err := write(bw); err != nil {
		return fmt.Errorf("write: %w", err)
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("write: %w", err)
	}
	return nil
}

func cmdGen(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("gen")
	items := fs.Int("items", 0, "number `N` of items to generate (required)")
	seed := fs.Uint64("seed", 1, "random seed; the same seed gives the same output")
	env := fs.String("env", "demo", "environment `id` used in generated media URLs")
	out := fs.String("out", "", "output NDJSON `file` (default stdout)")
	pos, err := parseFlags(fs, args, stderr)
	if err != nil {
		return err
	}
	switch {
	case len(pos) > 0:
		return errUsage{fmt.Sprintf("unexpected argument %q", pos[0])}
	case !flagSet(fs, "items") || *items < 0:
		return errUsage{"--items N is required (N >= 0)"}
	case !ingest.ValidEnvironment(*env):
		return errUsage{fmt.Sprintf("invalid environment id %q (decisions D1)", *env)}
	}
	opts := gen.Options{Items: *items, Seed: *seed, Environment: *env}
	if *out == "" {
		return gen.Generate(stdout, opts)
	}
	start := time.Now()
	if err := ingest.WriteFileFunc(*out, func(w io.Writer) error { return gen.Generate(w, opts) }); err != nil {
		return err
	}
	fmt.Fprintf(stderr, "generated %d items to %s in %s\n", *items, *out, since(start))
	return nil
}

// flagSet reports whether the flag name was given on the command line.
func flagSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
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

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// humanSize formats a byte count: 512 B, 1.2 KiB, 3.4 MiB.
func humanSize(n int64) string {
	const unit = 1024
	if n < unit {
		return strconv.FormatInt(n, 10) + " B"
	}
	f, i := float64(n)/unit, 0
	for f >= unit && i < 3 {
		f /= unit
		i++
	}
	return strconv.FormatFloat(f, 'f', 1, 64) + " " + [...]string{"KiB", "MiB", "GiB", "TiB"}[i]
}

// since formats the time elapsed since start for log lines: 35ms, 1.2s.
func since(start time.Time) string {
	d := time.Since(start)
	if d < time.Second {
		return strconv.FormatInt(d.Milliseconds(), 10) + "ms"
	}
	return strconv.FormatFloat(d.Seconds(), 'f', 1, 64) + "s"
}
