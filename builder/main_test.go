package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/cdaedge/cdaedge/builder/gen"
	"github.com/cdaedge/cdaedge/builder/ingest"
	"github.com/cdaedge/cdaedge/snapshot"
)

// cli runs the program with args and returns its exit code, stdout and stderr.
func cli(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := run(args, strings.NewReader(stdin), &stdout, &stderr)
	return code, stdout.String(), stderr.String()
}

var (
	items     = filepath.Join("testdata", "items.ndjson")
	itemsJSON = filepath.Join("testdata", "items.json")
	invalid   = filepath.Join("testdata", "invalid.ndjson")
)

func TestUsageErrors(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "x.snap")
	tests := []struct {
		name string
		args []string
		want string // in stderr
	}{
		{"no command", nil, "usage: builder <command>"},
		{"unknown command", []string{"frobnicate"}, `unknown command "frobnicate"`},
		{"build without env", []string{"build", "--out", out, items}, "--env is required"},
		{"build with bad env", []string{"build", "--env", "bad env", "--out", out, items}, `invalid environment id "bad env"`},
		{"build without out", []string{"build", "--env", "demo", items}, "--out is required"},
		{"build without inputs", []string{"build", "--env", "demo", "--out", out}, "no INPUT given"},
		{"build with unknown format", []string{"build", "--env", "demo", "--out", out, "x.txt"}, "unknown format"},
		{"build with stdin twice", []string{"build", "--env", "demo", "--out", out, "-", "-"}, "given twice"},
		{"build with unknown flag", []string{"build", "--env", "demo", "--fast", "--out", out, items}, "flag provided but not defined: -fast"},
		{"inspect without file", []string{"inspect"}, "want exactly one FILE.snap"},
		{"export with two files", []string{"export", "a.snap", "b.snap"}, "want exactly one FILE.snap"},
		{"gen without items", []string{"gen", "--seed", "1"}, "--items N is required"},
		{"gen with bad items", []string{"gen", "--items", "many"}, `invalid value "many" for flag -items`},
		{"gen with argument", []string{"gen", "--items", "1", "extra"}, `unexpected argument "extra"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := cli(t, "", tt.args...)
			if code != 2 {
				t.Errorf("exit code %d, want 2", code)
			}
			if !strings.Contains(stderr, tt.want) || !strings.Contains(stderr, "usage: builder") {
				t.Errorf("stderr = %q, want it to contain %q and the usage", stderr, tt.want)
			}
			if stdout != "" {
				t.Errorf("stdout = %q, want nothing", stdout)
			}
		})
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("usage errors created %s", out)
	}
}

func TestHelp(t *testing.T) {
	code, stdout, _ := cli(t, "", "help")
	if code != 0 || !strings.Contains(stdout, "  build    compile content items") {
		t.Errorf("help: code %d, stdout %q", code, stdout)
	}
	if code, _, stderr := cli(t, "", "build", "-h"); code != 0 || !strings.Contains(stderr, "-preview") {
		t.Errorf("build -h: code %d, stderr %q", code, stderr)
	}
}

var logLine = regexp.MustCompile(`^wrote .*demo\.snap: 5 items, [0-9.]+ (B|KiB|MiB) in [0-9.]+(ms|s)$`)

// TestBuild: a successful build logs what it read, skipped (API.md D3) and wrote,
// with flags before or after the inputs.
func TestBuild(t *testing.T) {
	out := filepath.Join(t.TempDir(), "demo.snap")
	code, stdout, stderr := cli(t, "", "build", items, "--env", "demo", itemsJSON, "--out", out)
	if code != 0 {
		t.Fatalf("exit code %d, stderr:\n%s", code, stderr)
	}
	if stdout != "" {
		t.Errorf("stdout = %q", stdout)
	}
	lines := strings.Split(strings.TrimSpace(stderr), "\n")
	want := []string{
		"read 5 items from " + items,
		"read 3 items from " + itemsJSON,
		"skipped 3 unpublished items (2 Draft, 1 Archived)",
	}
	if len(lines) != 4 || !slices.Equal(lines[:3], want) || !logLine.MatchString(lines[3]) {
		t.Errorf("stderr:\n%s\nwant:\n%s\n%s", stderr, strings.Join(want, "\n"), logLine)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	s, err := snapshot.Open(data)
	if err != nil {
		t.Fatal(err)
	}
	if s.Environment() != "demo" || s.Preview() || s.Len() != 5 {
		t.Errorf("snapshot: env %q preview %v len %d", s.Environment(), s.Preview(), s.Len())
	}
	entries, _ := os.ReadDir(filepath.Dir(out))
	if len(entries) != 1 {
		t.Errorf("output directory holds %d files, want 1 (no temporary files)", len(entries))
	}
}

func TestBuildPreviewFromStdin(t *testing.T) {
	out := filepath.Join(t.TempDir(), "demo.snap")
	in, err := os.ReadFile(items)
	if err != nil {
		t.Fatal(err)
	}
	code, _, stderr := cli(t, string(in), "build", "--env", "demo", "--preview", "--out", out, "-")
	if code != 0 {
		t.Fatalf("exit code %d, stderr:\n%s", code, stderr)
	}
	if !strings.Contains(stderr, "read 5 items from -\n") || !strings.Contains(stderr, ": preview, 5 items,") || strings.Contains(stderr, "skipped") {
		t.Errorf("stderr:\n%s", stderr)
	}
	data, _ := os.ReadFile(out)
	s, err := snapshot.Open(data)
	if err != nil {
		t.Fatal(err)
	}
	if !s.Preview() || s.Len() != 5 {
		t.Errorf("preview %v len %d, want a preview snapshot of 5 items (API.md D3)", s.Preview(), s.Len())
	}
}

// TestBuildFailureLeavesOutputAlone: with problems, exit 1, every problem on stderr, and
// an existing output file untouched; no new file or temporary file appears.
func TestBuildFailureLeavesOutputAlone(t *testing.T) {
	dir := t.TempDir()
	existing := filepath.Join(dir, "old.snap")
	if err := os.WriteFile(existing, []byte("previous snapshot"), 0o644); err != nil {
		t.Fatal(err)
	}
	fresh := filepath.Join(dir, "new.snap")
	for _, out := range []string{existing, fresh} {
		code, _, stderr := cli(t, "", "build", "--env", "demo", "--out", out, items, invalid)
		if code != 1 {
			t.Errorf("exit code %d, want 1", code)
		}
		for _, want := range []string{
			invalid + ":1: /Data: must be an object, got an array\n",
			invalid + ":4:48: invalid JSON: invalid character '}' looking for beginning of object key string\n",
			invalid + `:5: /ContentID: duplicate ContentID "Content_i1", first seen at ` + invalid + ":1: /ContentID\n",
			"build failed: 6 problems in 10 items; no snapshot written\n",
		} {
			if !strings.Contains(stderr, want) {
				t.Errorf("stderr lacks %q:\n%s", want, stderr)
			}
		}
	}
	if data, _ := os.ReadFile(existing); string(data) != "previous snapshot" {
		t.Errorf("existing output changed to %q", data)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		t.Errorf("directory holds %v, want only old.snap", names)
	}
}

func TestBuildMissingInput(t *testing.T) {
	out := filepath.Join(t.TempDir(), "demo.snap")
	code, _, stderr := cli(t, "", "build", "--env", "demo", "--out", out, "testdata/nope.ndjson")
	if code != 1 || !strings.Contains(stderr, "open input: ") {
		t.Errorf("code %d, stderr %q", code, stderr)
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("output written despite the error")
	}
}

func TestBuildWarnings(t *testing.T) {
	out := filepath.Join(t.TempDir(), "demo.snap")
	p := filepath.Join("testdata", "dangling.ndjson")
	code, _, stderr := cli(t, "", "build", "--env", "demo", "--out", out, p)
	if code != 0 {
		t.Fatalf("code %d: %s", code, stderr)
	}
	want := "warning: " + p + `:1: /Data/rel/ContentIDs/1: dangling content reference "Content_missing": no such item` + "\n"
	if !strings.Contains(stderr, want) {
		t.Errorf("stderr lacks %q:\n%s", want, stderr)
	}
}

func buildDemo(t *testing.T, preview bool) string {
	t.Helper()
	out := filepath.Join(t.TempDir(), "demo.snap")
	args := []string{"build", "--env", "demo", "--out", out, items, itemsJSON}
	if preview {
		args = append(args, "--preview")
	}
	if code, _, stderr := cli(t, "", args...); code != 0 {
		t.Fatalf("build: %s", stderr)
	}
	return out
}

func TestInspect(t *testing.T) {
	snap := buildDemo(t, true)
	data, _ := os.ReadFile(snap)
	s, err := snapshot.Open(data)
	if err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := cli(t, "", "inspect", snap)
	if code != 0 {
		t.Fatalf("code %d: %s", code, stderr)
	}
	for _, re := range []string{
		`(?m)^environment\s+demo$`, `(?m)^format\s+\d+\.\d+$`, `(?m)^preview\s+true$`, `(?m)^items\s+8$`,
		`(?m)^statuses\s+.*Draft`, `(?m)^version\s+` + s.Version() + `$`, `(?m)^size\s+.* \(` + strconv.Itoa(len(data)) + ` bytes\)$`,
		`(?m)^\s+section\s+offset\s+length\s+size\s*$`,
	} {
		if !regexp.MustCompile(re).MatchString(stdout) {
			t.Errorf("inspect output does not match %s:\n%s", re, stdout)
		}
	}
	for _, sec := range s.Sections() {
		if !regexp.MustCompile(`(?m)^\s*` + regexp.QuoteMeta(sec.Name) + `\s+` + strconv.Itoa(int(sec.Offset)) + `\s+` + strconv.Itoa(int(sec.Length)) + `\s`).MatchString(stdout) {
			t.Errorf("section %s missing:\n%s", sec.Name, stdout)
		}
	}

	code, stdout, _ = cli(t, "", "inspect", "--json", snap)
	if code != 0 {
		t.Fatal(code)
	}
	var info snapInfo
	if err := json.Unmarshal([]byte(stdout), &info); err != nil {
		t.Fatalf("inspect --json: %v\n%s", err, stdout)
	}
	if info.Environment != "demo" || !info.Preview || info.Items != 8 || info.Version != s.Version() ||
		info.Size != int64(len(data)) || len(info.Sections) != len(s.Sections()) || len(info.Statuses) != 3 {
		t.Errorf("inspect --json = %+v", info)
	}
}

func TestInspectNotASnapshot(t *testing.T) {
	code, _, stderr := cli(t, "", "inspect", items)
	if code != 1 || !strings.Contains(stderr, "open snapshot") {
		t.Errorf("code %d, stderr %q", code, stderr)
	}
	code, _, stderr = cli(t, "", "export", "testdata/missing.snap")
	if code != 1 || !strings.Contains(stderr, "read snapshot: ") {
		t.Errorf("code %d, stderr %q", code, stderr)
	}
}

// TestExport: export writes the stored items, one per line, sorted by ContentID; to
// stdout or atomically to --out. Exporting and rebuilding gives the same snapshot.
func TestExport(t *testing.T) {
	snap := buildDemo(t, false)
	data, _ := os.ReadFile(snap)
	s, err := snapshot.Open(data)
	if err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := cli(t, "", "export", snap)
	if code != 0 {
		t.Fatalf("code %d: %s", code, stderr)
	}
	var want strings.Builder
	for i := 0; i < s.Len(); i++ {
		want.WriteString(s.Item(i) + "\n")
	}
	if stdout != want.String() || s.Len() != 5 {
		t.Errorf("export:\n%s\nwant:\n%s", stdout, want.String())
	}
	out := filepath.Join(t.TempDir(), "export.ndjson")
	if code, _, stderr := cli(t, "", "export", "--out", out, snap); code != 0 {
		t.Fatalf("code %d: %s", code, stderr)
	}
	if got, _ := os.ReadFile(out); string(got) != stdout {
		t.Errorf("--out file differs from stdout")
	}
	// Rebuild from the export: identical snapshot (API.md D2: nothing is lost).
	again := filepath.Join(t.TempDir(), "again.snap")
	if code, _, stderr := cli(t, "", "build", "--env", "demo", "--out", again, out); code != 0 {
		t.Fatalf("rebuild: %s", stderr)
	}
	if got, _ := os.ReadFile(again); !bytes.Equal(got, data) {
		t.Errorf("build(export(snap)) differs from snap")
	}
}

func TestGen(t *testing.T) {
	code, a, stderr := cli(t, "", "gen", "--items", "50", "--seed", "42")
	if code != 0 {
		t.Fatalf("code %d: %s", code, stderr)
	}
	var want bytes.Buffer
	if err := gen.Generate(&want, gen.Options{Items: 50, Seed: 42, Environment: "demo"}); err != nil {
		t.Fatal(err)
	}
	if a != want.String() || strings.Count(a, "\n") != 50 {
		t.Errorf("gen output differs from gen.Generate")
	}
	out := filepath.Join(t.TempDir(), "g.ndjson")
	code, _, stderr = cli(t, "", "gen", "--items", "50", "--seed", "42", "--out", out)
	if code != 0 || !strings.HasPrefix(stderr, "generated 50 items to "+out) {
		t.Fatalf("code %d: %s", code, stderr)
	}
	if got, _ := os.ReadFile(out); string(got) != a {
		t.Errorf("--out file differs from stdout")
	}
	snap := filepath.Join(t.TempDir(), "g.snap")
	if code, _, stderr := cli(t, "", "build", "--env", "demo", "--out", snap, out); code != 0 || strings.Contains(stderr, "warning") {
		t.Errorf("gen output does not build cleanly: code %d\n%s", code, stderr)
	}
}

func TestHumanSize(t *testing.T) {
	tests := map[int64]string{0: "0 B", 1023: "1023 B", 1024: "1.0 KiB", 1258291: "1.2 MiB", 5 << 30: "5.0 GiB"}
	for n, want := range tests {
		if got := humanSize(n); got != want {
			t.Errorf("humanSize(%d) = %q, want %q", n, got, want)
		}
	}
}

// TestProgressBar: on a terminal a bar is drawn for inputs that take a while, and
// erased before the "read N items" line; elsewhere only the log lines appear.
func TestProgressBar(t *testing.T) {
	var buf bytes.Buffer
	now := time.Unix(0, 0)
	p := &progress{w: &buf, tty: true, width: 80, clock: func() time.Time { return now }, before: 300 * time.Millisecond}
	p.update(ingest.Progress{File: "x.ndjson", Items: 2048, Bytes: 100, Total: 1000})
	if buf.Len() != 0 {
		t.Errorf("bar drawn for a fast input: %q", buf.String())
	}
	now = now.Add(time.Second)
	p.update(ingest.Progress{File: "x.ndjson", Items: 4096, Bytes: 450, Total: 1000})
	if got := buf.String(); !strings.HasPrefix(got, "\r\x1b[Kx.ndjson [") || !strings.HasSuffix(got, "]  45% 4096 items") {
		t.Errorf("bar = %q", got)
	}
	buf.Reset()
	p.update(ingest.Progress{File: "x.ndjson", Items: 9000, Bytes: 1000, Total: 1000, Done: true})
	if got := buf.String(); got != "\r\x1b[Kread 9000 items from x.ndjson\n" {
		t.Errorf("done = %q", got)
	}

	buf.Reset()
	p = &progress{w: &buf, clock: time.Now}
	p.update(ingest.Progress{File: "x.ndjson", Items: 4096, Bytes: 450, Total: 1000})
	p.status("building")
	p.update(ingest.Progress{File: "x.ndjson", Items: 1, Done: true})
	if got := buf.String(); got != "read 1 item from x.ndjson\n" {
		t.Errorf("not a terminal: %q", got)
	}
}

// ordered decodes JSON keeping object member order and exact number text; the top
// level is sorted by key (API.md D2 reorders it), everything below keeps source order.
func ordered(t *testing.T, line string) any {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(line))
	dec.UseNumber()
	var walk func() any
	walk = func() any {
		tok, err := dec.Token()
		if err != nil {
			t.Fatalf("decode %q: %v", line, err)
		}
		switch tok {
		case json.Delim('{'):
			var obj [][2]any
			for dec.More() {
				k, _ := dec.Token()
				obj = append(obj, [2]any{k, walk()})
			}
			dec.Token()
			return obj
		case json.Delim('['):
			arr := []any{}
			for dec.More() {
				arr = append(arr, walk())
			}
			dec.Token()
			return arr
		}
		return tok
	}
	top := walk().([][2]any)
	slices.SortFunc(top, func(a, b [2]any) int { return strings.Compare(a[0].(string), b[0].(string)) })
	return top
}

// TestExportRoundTripGenerated: export(build(x)) holds exactly the published items of
// x, member for member, numbers with their source text (API.md D2, D3).
func TestExportRoundTripGenerated(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "x.ndjson")
	snap := filepath.Join(dir, "x.snap")
	if code, _, stderr := cli(t, "", "gen", "--items", "400", "--seed", "9", "--out", src); code != 0 {
		t.Fatal(stderr)
	}
	if code, _, stderr := cli(t, "", "build", "--env", "demo", "--out", snap, src); code != 0 {
		t.Fatal(stderr)
	}
	code, exported, stderr := cli(t, "", "export", snap)
	if code != 0 {
		t.Fatal(stderr)
	}
	want := map[string]any{}
	data, _ := os.ReadFile(src)
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		if strings.Contains(line, `"Status":"Published"`) {
			var id struct{ ContentID string }
			json.Unmarshal([]byte(line), &id)
			want[id.ContentID] = ordered(t, line)
		}
	}
	lines := strings.Split(strings.TrimSpace(exported), "\n")
	if len(lines) != len(want) || len(want) < 300 {
		t.Fatalf("exported %d items, want %d", len(lines), len(want))
	}
	for _, line := range lines {
		var id struct{ ContentID string }
		json.Unmarshal([]byte(line), &id)
		if w, ok := want[id.ContentID]; !ok {
			t.Errorf("unexpected item %s", id.ContentID)
		} else if got := ordered(t, line); !reflect.DeepEqual(got, w) {
			t.Errorf("item %s differs:\n got %v\nwant %v", id.ContentID, got, w)
		}
	}
}

// An --out in a directory that does not exist, or naming a directory, is refused
// before any work, with a message that names it, and leaves nothing behind.
func TestOutputNowhere(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "nope", "demo.snap")
	snap := filepath.Join(dir, "demo.snap")
	if code, _, stderr := cli(t, "", "build", "--env", "demo", "--out", snap, items); code != 0 {
		t.Fatalf("build: code %d\n%s", code, stderr)
	}
	for _, args := range [][]string{
		{"build", "--env", "demo", "--out", missing, items},
		{"build", "--env", "demo", "--out", dir, items},
		{"export", "--out", missing, snap},
		{"gen", "--items", "2", "--env", "demo", "--out", missing},
	} {
		code, _, stderr := cli(t, "", args...)
		want := "no directory " + filepath.Dir(missing)
		if args[len(args)-2] == dir {
			want = dir + ": it is a directory"
		}
		if code != 1 || !strings.Contains(stderr, want) {
			t.Errorf("%v: code %d, stderr %q; want 1 and %q", args, code, stderr, want)
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("left behind: %v", entries)
	}
}
