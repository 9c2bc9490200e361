// Package ingest reads content items (NDJSON or JSON arrays), validates them as API.md
// D2 requires, selects the items that go into a snapshot (D3) and builds the snapshot
// with package snapshot.
//
// Reading is streaming for NDJSON: one line at a time, lines up to 64 MiB. A JSON array
// file is read whole (its items are needed in memory by the snapshot writer anyway); use
// NDJSON for very large inputs.
package ingest

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/cdaedge/cdaedge/edge/datetime"
	"github.com/cdaedge/cdaedge/edge/graphql"
	"github.com/cdaedge/cdaedge/snapshot"
)

// MaxLine is the longest NDJSON line (one item) the reader accepts.
const MaxLine = 64 << 20

// Options configures a build.
type Options struct {
	// Environment is the environment id written into the snapshot (API.md D1).
	Environment string
	// Preview includes items of every status and marks the snapshot as preview (D3).
	// Without it only items whose Status is exactly "Published" go in.
	Preview bool
	// Progress, when set, is called while inputs are read: every few thousand items
	// and once when an input is finished (Progress.Done).
	Progress func(Progress)
	// Spool, when set, keeps the items in a temporary file while they wait to be
	// encoded, instead of in memory (snapshot.Writer.SpoolTo): about the input's size
	// on disk, in SpoolDir (the system's temporary directory if empty). The snapshot
	// is the same. A spooling builder must be closed (Close), and the snapshot it
	// encodes too (snapshot.Encoded.Close).
	Spool    bool
	SpoolDir string
}

// Progress reports how far reading one input has come.
type Progress struct {
	File  string // input name as given
	Items int    // items read from File so far
	Bytes int64  // bytes read from File so far
	Total int64  // size of File in bytes, or -1 when unknown (stdin)
	Done  bool   // File is finished
}

// Problem is one finding in the input, with its location: File and Line (1-based) for
// NDJSON, File, Line and a JSON pointer to the item (/3) for JSON arrays, and the
// pointer of the member inside the item when the finding is about a member
// (/Data, /3/CreatedAt). Column is set (1-based, in bytes) for invalid JSON.
type Problem struct {
	File    string
	Line    int
	Column  int
	Pointer string
	Message string
}

// Location renders where the problem is: "file:line", "file:line:column",
// "file:line: /3/Data" and so on.
func (p Problem) Location() string {
	var sb strings.Builder
	sb.WriteString(p.File)
	if p.Line > 0 {
		sb.WriteByte(':')
		sb.WriteString(strconv.Itoa(p.Line))
		if p.Column > 0 {
			sb.WriteByte(':')
			sb.WriteString(strconv.Itoa(p.Column))
		}
	}
	if p.Pointer != "" {
		sb.WriteString(": ")
		sb.WriteString(p.Pointer)
	}
	return sb.String()
}

// String renders the problem as "file:line: pointer: message".
func (p Problem) String() string { return p.Location() + ": " + p.Message }

// ValidationError is returned when the input has problems; it lists every one of them.
// No snapshot is produced then (API.md D2).
type ValidationError struct {
	Problems []Problem
}

// Error lists every problem, one per line.
func (e *ValidationError) Error() string {
	var sb strings.Builder
	if len(e.Problems) == 1 {
		sb.WriteString("invalid input: 1 problem")
	} else {
		fmt.Fprintf(&sb, "invalid input: %d problems", len(e.Problems))
	}
	for _, p := range e.Problems {
		sb.WriteString("\n")
		sb.WriteString(p.String())
	}
	return sb.String()
}

// FileStats counts the items read from one input.
type FileStats struct {
	Name  string // input name as given ("-" for stdin)
	Items int    // items read (valid or not)
	Bytes int64  // bytes read
}

// Stats summarises a build.
type Stats struct {
	Files    []FileStats
	Read     int            // items read from all inputs (valid or not)
	Included int            // items added to the snapshot
	Skipped  map[string]int // items left out by status (D3); "" counts items without Status
}

// SkippedTotal is the number of items left out because they were not published.
func (s Stats) SkippedTotal() int {
	n := 0
	for _, c := range s.Skipped {
		n += c
	}
	return n
}

// Format is the format of an input file.
type Format int

const (
	// NDJSON is one item per line (.ndjson, .jsonl, or "-" for stdin).
	NDJSON Format = iota + 1
	// JSONArray is one JSON array of items (.json).
	JSONArray
)

// FormatOf returns the format of an input path by its extension; "-" is NDJSON on stdin.
func FormatOf(path string) (Format, error) {
	if path == "-" {
		return NDJSON, nil
	}
	switch strings.ToLower(filepath.Ext(path)) {
	case ".ndjson", ".jsonl":
		return NDJSON, nil
	case ".json":
		return JSONArray, nil
	}
	return 0, fmt.Errorf("input %s: unknown format (want .ndjson, .jsonl, .json or -)", path)
}

// ValidEnvironment reports whether env is a valid environment id (API.md D1); it is
// the snapshot package's rule, so the CLI can refuse a bad id before reading anything.
func ValidEnvironment(env string) bool { return snapshot.ValidEnvironmentID(env) }

// location of an item already seen, for duplicate reports.
type itemLoc struct {
	file int32
	line int32
	ptr  string // "" for NDJSON, "/3" in a JSON array
}

// pendingRef is a content reference of an included item, checked when all items are known.
type pendingRef struct {
	file int32
	line int32
	ptr  string
	id   string
}

// Builder validates items from any number of inputs and builds one snapshot. Use
// NewBuilder, then Add* for each input, then Finish.
type Builder struct {
	opts     Options
	w        *snapshot.Writer
	files    []string
	seen     map[string]itemLoc
	excluded map[string]string // ContentID -> Status of items left out (D3)
	refs     []pendingRef
	problems []Problem
	stats    Stats
	check    func(string) error
	lastEnd  int // offset just past the last item scanned
}

// NewBuilder returns a builder for opts. The environment id must be valid (API.md D1).
func NewBuilder(opts Options) (*Builder, error) {
	if !ValidEnvironment(opts.Environment) {
		return nil, fmt.Errorf("invalid environment id %q: want [A-Za-z0-9][A-Za-z0-9_.-]{0,127} (API.md D1)", opts.Environment)
	}
	w, err := snapshot.NewWriter(opts.Environment, opts.Preview)
	if err != nil {
		return nil, fmt.Errorf("new snapshot writer: %w", err)
	}
	// The GraphQL schema's shapes are computed here, from every item, so that the
	// engine types its schema from the snapshot's index without reading item bodies.
	w.Derive(graphql.ShapesSection, graphql.DeriveShapes)
	if opts.Spool {
		if err := w.SpoolTo(opts.SpoolDir); err != nil {
			return nil, err
		}
	}
	return &Builder{
		opts:     opts,
		w:        w,
		seen:     make(map[string]itemLoc),
		excluded: make(map[string]string),
		stats:    Stats{Skipped: map[string]int{}},
		check:    checkDate,
	}, nil
}

// BuildFiles validates the inputs at paths (NDJSON, JSON arrays, "-" for NDJSON on
// stdin) and builds a snapshot. When any input has problems, err is a
// *ValidationError listing all of them and snap is nil. Warnings (dangling content
// references) never stop a build.
func BuildFiles(opts Options, paths ...string) (snap []byte, warnings []Problem, err error) {
	b, err := NewBuilder(opts)
	if err != nil {
		return nil, nil, err
	}
	for _, p := range paths {
		if err := b.AddFile(p, os.Stdin); err != nil {
			return nil, nil, err
		}
	}
	return b.Finish()
}

// AddFile reads the input at path in the format its extension gives (FormatOf); "-"
// reads NDJSON from stdin. Problems in the content are collected for Finish; the error
// is for I/O failures only.
func (b *Builder) AddFile(path string, stdin io.Reader) error {
	format, err := FormatOf(path)
	if err != nil {
		return err
	}
	if path == "-" {
		return b.AddNDJSON("-", stdin, -1)
	}
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("open input: %w", err)
	}
	defer f.Close()
	size := int64(-1)
	if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() {
		size = fi.Size()
	}
	if format == JSONArray {
		return b.AddJSONArray(path, f, size)
	}
	return b.AddNDJSON(path, f, size)
}

// AddJSONArray reads one JSON array of items from r (read whole), named name in
// problem reports.
func (b *Builder) AddJSONArray(name string, r io.Reader, size int64) error {
	fi := b.addFileName(name)
	data, err := io.ReadAll(r)
	if err != nil {
		return fmt.Errorf("read %s: %w", name, err)
	}
	lines := newLineIndex(data)
	s := &scanner{data: data, check: b.check}
	if bytes.HasPrefix(data, []byte("\xef\xbb\xbf")) {
		s.pos = 3
	}
	syntax := func(err error) {
		var se *syntaxError
		if errors.As(err, &se) {
			line, col := lines.at(se.off)
			b.problem(Problem{File: name, Line: line, Column: col, Message: "invalid JSON: " + se.msg})
		}
	}
	items := 0
	s.skipWS()
	switch {
	case s.pos >= len(data):
		syntax(s.fail(s.pos, "empty file (expecting a JSON array of items)"))
	case data[s.pos] != '[':
		syntax(s.fail(s.pos, "invalid %s: a .json input must hold a JSON array of items (use .ndjson for one item per line)", s.describe(s.pos)))
	default:
		s.pos++
		for i := 0; ; i++ {
			s.skipWS()
			if i == 0 && s.pos < len(data) && data[s.pos] == ']' {
				s.pos++
				break
			}
			start := s.pos
			items++
			ptr := "/" + strconv.Itoa(i)
			if err := b.item(fi, 0, data, start, -1, ptr, lines); err != nil {
				syntax(err)
				break
			}
			// b.item advanced nothing; rescan position from the scanner it used.
			s.pos = b.lastEnd
			if b.opts.Progress != nil && items%progressEvery == 0 {
				b.opts.Progress(Progress{File: name, Items: items, Bytes: int64(s.pos), Total: size})
			}
			s.skipWS()
			if s.pos >= len(data) {
				syntax(s.fail(s.pos, "unexpected end of input in array (expecting ',' or ']')"))
				break
			}
			if data[s.pos] == ']' {
				s.pos++
				s.skipWS()
				if s.pos < len(data) {
					syntax(s.fail(s.pos, "invalid %s after the array of items", s.describe(s.pos)))
				}
				break
			}
			if data[s.pos] != ',' {
				syntax(s.fail(s.pos, "invalid %s after array element (expecting ',' or ']')", s.describe(s.pos)))
				break
			}
			s.pos++
		}
	}
	b.finishFile(name, items, int64(len(data)), size)
	return nil
}

func (b *Builder) addFileName(name string) int32 {
	b.files = append(b.files, name)
	return int32(len(b.files) - 1)
}

func (b *Builder) finishFile(name string, items int, nbytes, size int64) {
	b.stats.Files = append(b.stats.Files, FileStats{Name: name, Items: items, Bytes: nbytes})
	if b.opts.Progress != nil {
		b.opts.Progress(Progress{File: name, Items: items, Bytes: nbytes, Total: size, Done: true})
	}
}

func (b *Builder) problem(p Problem) { b.problems = append(b.problems, p) }

// item validates one item found in data at start and, if it is valid and selected
// (API.md D3), adds it to the snapshot. For NDJSON, data[start:end] is the line and
// line its number; for a JSON array, end is -1 (the item ends where its value ends), ptr
// is the item's pointer and lines maps offsets to lines. A syntax error is returned for
// JSON arrays (reading cannot go on) and reported directly for NDJSON.
func (b *Builder) item(fi int32, line int32, data []byte, start, end int, ptr string, lines *lineIndex) error {
	return b.accept(fi, line, data, start, ptr, lines, b.scan(data, start, end, ptr))
}

// scanned is what checking one item found: its facts, where it ended, and a syntax
// error if it has one.
type scanned struct {
	info itemInfo
	end  int
	err  error
	// prepared is the item made ready for the writer, when prepare is set: done on the
	// scanning goroutine for the items that will go in, so that the accepting one,
	// which takes the items one at a time, only records them.
	prepared snapshot.PreparedItem
	prepare  bool
}

// selected reports whether an item with info goes into the snapshot by its Status
// (API.md D3): every item in a preview, else only those whose Status is exactly
// "Published".
func (b *Builder) selected(info *itemInfo) bool {
	return b.opts.Preview || info.hasStatus && info.status == snapshot.PublishedStatus
}

// scanAndPrepare is scan for an NDJSON line, data[start:end], which also prepares
// the item for the writer if it is valid and selected (API.md D3) as far as the item
// alone tells: accept decides the rest (duplicates, problems elsewhere).
func (b *Builder) scanAndPrepare(data []byte, start, end int) scanned {
	r := b.scan(data, start, end, "")
	in := &r.info
	if r.err == nil && len(in.issues) == 0 && in.hasID && b.selected(in) {
		r.prepared, r.prepare = snapshot.PrepareValidated(data[start:r.end]), true
	}
	return r
}

// scan checks the item at data[start:] (ending at end, or where its value ends when
// end is -1). It reads nothing of the builder's state but the date check, so items may
// be scanned at once on several goroutines.
func (b *Builder) scan(data []byte, start, end int, ptr string) scanned {
	s := &scanner{data: data, pos: start, prefix: ptr, check: b.check}
	if end >= 0 {
		s.data = data[:end]
	}
	var r scanned
	r.err = s.item(&r.info)
	if r.err == nil && end >= 0 {
		s.skipWS()
		if s.pos < len(s.data) {
			r.err = s.fail(s.pos, "invalid %s after the item (one item per line)", s.describe(s.pos))
		}
	}
	r.end = s.pos
	return r
}

// accept records what scan found of the item at data[start:], in input order: its
// problems, its ContentID, the counts, and, if it is valid and selected, the item.
func (b *Builder) accept(fi int32, line int32, data []byte, start int, ptr string, lines *lineIndex, r scanned) error {
	name := b.files[fi]
	b.stats.Read++
	b.lastEnd = r.end
	info, err := &r.info, r.err
	lineOf := func(off int) int32 {
		if lines == nil {
			return line
		}
		l, _ := lines.at(off)
		return int32(l)
	}
	if err != nil {
		if lines != nil {
			return err
		}
		var se *syntaxError
		if errors.As(err, &se) {
			b.problem(Problem{File: name, Line: int(line), Column: se.off - start + 1, Message: "invalid JSON: " + se.msg})
		}
		return nil
	}
	itemLine := lineOf(start)
	for _, is := range info.issues {
		b.problem(Problem{File: name, Line: int(lineOf(is.off)), Pointer: is.ptr, Message: is.msg})
	}
	ok := len(info.issues) == 0
	if info.hasID {
		if first, dup := b.seen[info.contentID]; dup {
			b.problem(Problem{File: name, Line: int(itemLine), Pointer: ptr + "/ContentID",
				Message: fmt.Sprintf("duplicate ContentID %q, first seen at %s", info.contentID,
					Problem{File: b.files[first.file], Line: int(first.line), Pointer: first.ptr + "/ContentID"}.Location())})
			ok = false
		} else {
			b.seen[info.contentID] = itemLoc{file: fi, line: itemLine, ptr: ptr}
		}
	}
	if !ok {
		return nil
	}
	if !b.selected(info) {
		b.stats.Skipped[info.status]++
		b.excluded[info.contentID] = info.status
		return nil
	}
	for _, ref := range info.refs {
		b.refs = append(b.refs, pendingRef{file: fi, line: lineOf(ref.off), ptr: ref.ptr, id: ref.id})
	}
	if len(b.problems) > 0 {
		return nil // no snapshot will be written; spare the work
	}
	// The scanner has checked the item's syntax and member names as strictly as the
	// writer's Add would, so the writer may skip that pass. It copies what it keeps, so
	// the reused NDJSON line buffer may be handed over as is.
	if r.prepare {
		err = b.w.AddPrepared(r.prepared)
	} else {
		err = b.w.AddValidated(data[start:r.end])
	}
	if err != nil {
		b.problem(Problem{File: name, Line: int(itemLine), Pointer: ptr, Message: err.Error()})
		return nil
	}
	b.stats.Included++
	return nil
}

// Finish checks content references across all inputs and builds the snapshot. With
// problems, it returns a *ValidationError listing every one and no snapshot.
// Warnings are returned in both cases.
func (b *Builder) Finish() (snap []byte, warnings []Problem, err error) {
	e, warnings, err := b.Encode()
	if err != nil {
		return nil, warnings, err
	}
	out := e.Bytes()
	if err := e.Close(); err != nil {
		return nil, warnings, fmt.Errorf("write snapshot: %w", err)
	}
	return out, warnings, nil
}

// Encode is Finish with the snapshot left as an *snapshot.Encoded, which a large
// snapshot is best written from (its WriteTo streams it without copying it first).
// A builder encodes once (Finish or Encode): the writer lets go of the items as it
// encodes them, to keep the peak memory of a large build down.
func (b *Builder) Encode() (snap *snapshot.Encoded, warnings []Problem, err error) {
	for _, r := range b.refs {
		if _, ok := b.seen[r.id]; ok {
			if st, out := b.excluded[r.id]; !out {
				continue
			} else {
				warnings = append(warnings, Problem{File: b.files[r.file], Line: int(r.line), Pointer: r.ptr,
					Message: fmt.Sprintf("dangling content reference %q: that item is not in the snapshot (Status %q, API.md D3)", r.id, st)})
				continue
			}
		}
		warnings = append(warnings, Problem{File: b.files[r.file], Line: int(r.line), Pointer: r.ptr,
			Message: fmt.Sprintf("dangling content reference %q: no such item", r.id)})
	}
	if len(b.problems) > 0 {
		_ = b.w.Close() // the spool, which nothing will read; the problems are the news
		return nil, warnings, &ValidationError{Problems: b.problems}
	}
	// What the checks needed (every ContentID seen, every reference) is let go of
	// before the writer encodes: at 1M items it is ~200 MB that the encoding can use.
	// (Empty, not nil: input added after this is refused by the spent writer.)
	b.seen, b.excluded, b.refs = map[string]itemLoc{}, map[string]string{}, nil
	snap, err = b.w.EncodeOnce()
	if err != nil {
		return nil, warnings, fmt.Errorf("write snapshot: %w", err)
	}
	return snap, warnings, nil
}

// Close releases what a builder that was not encoded holds: the temporary file of a
// spooling build. After Encode it does nothing (the snapshot holds the file then).
func (b *Builder) Close() error { return b.w.Close() }

// Stats returns the counts of the build so far.
func (b *Builder) Stats() Stats { return b.stats }

// SkippedSummary renders Stats.Skipped as "10 Draft, 2 Archived" (largest first).
func (s Stats) SkippedSummary() string {
	keys := make([]string, 0, len(s.Skipped))
	for k := range s.Skipped {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if s.Skipped[keys[i]] != s.Skipped[keys[j]] {
			return s.Skipped[keys[i]] > s.Skipped[keys[j]]
		}
		return keys[i] < keys[j]
	})
	parts := make([]string, len(keys))
	for i, k := range keys {
		if k == "" {
			k = "without Status"
		}
		parts[i] = fmt.Sprintf("%d %s", s.Skipped[keys[i]], k)
	}
	return strings.Join(parts, ", ")
}

// checkDate checks a CreatedAt, UpdatedAt or PublishedAt value with the engine's own
// parser, so that the builder accepts exactly the date-times the engine can sort and
// filter on (API.md D2, D5).
func checkDate(s string) error {
	_, err := datetime.Parse(s)
	return err
}

// lineIndex maps byte offsets of a whole file to 1-based line and byte column. It
// counts forward from the last answer, so increasing offsets cost O(distance).
type lineIndex struct {
	data      []byte
	off, line int // data[:off] holds line-1 newlines...
	lineStart int // ...and the line holding off starts here
}

func newLineIndex(data []byte) *lineIndex { return &lineIndex{data: data, line: 1} }

func (li *lineIndex) at(off int) (line, col int) {
	if off < li.off {
		li.off, li.line, li.lineStart = 0, 1, 0
	}
	if off > len(li.data) {
		off = len(li.data)
	}
	for {
		i := bytes.IndexByte(li.data[li.off:off], '\n')
		if i < 0 {
			break
		}
		li.line++
		li.off += i + 1
		li.lineStart = li.off
	}
	li.off = off
	return li.line, off - li.lineStart + 1
}

// WriteFile writes data to path atomically: a temporary file in the same directory,
// fsync, then rename over path. On failure no temporary file is left and an existing
// file at path is untouched.
func WriteFile(path string, data []byte) error {
	return WriteFileFunc(path, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// CheckOutput reports why path cannot be an output file, before any work is done for
// it: its directory does not exist or is not a directory, or path is a directory.
// (Permissions show when the file is created.)
func CheckOutput(path string) error {
	dir := filepath.Dir(path)
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return fmt.Errorf("cannot write %s: no directory %s", path, dir)
	}
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		return fmt.Errorf("cannot write %s: it is a directory", path)
	}
	return nil
}

// WriteFileFunc is WriteFile with the content streamed by write.
func WriteFileFunc(path string, write func(io.Writer) error) (err error) {
	if err := CheckOutput(path); err != nil {
		return err
	}
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	tmp, err := os.CreateTemp(dir, "."+base+".tmp-*")
	if err != nil {
		return fmt.Errorf("create a temporary file beside %s: %w", path, err)
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	bw := bufio.NewWriterSize(tmp, 1<<20)
	if err := write(bw); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := tmp.Chmod(0o644); err != nil {
		return fmt.Errorf("chmod temporary file: %w", err)
	}
	if err := tmp.Sync(); err != nil {
		return fmt.Errorf("sync %s: %w", path, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("close temporary file: %w", err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("rename to %s: %w", path, err)
	}
	if d, derr := os.Open(dir); derr == nil { // best effort: make the rename durable
		d.Sync()
		d.Close()
	}
	return nil
}
