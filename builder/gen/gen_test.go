package gen

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cdaedge/cdaedge/builder/ingest"
)

func generate(t testing.TB, opts Options) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := Generate(&buf, opts); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestDeterministic(t *testing.T) {
	a := generate(t, Options{Items: 300, Seed: 7})
	b := generate(t, Options{Items: 300, Seed: 7})
	if !bytes.Equal(a, b) {
		t.Fatal("same seed, different output")
	}
	c := generate(t, Options{Items: 300, Seed: 8})
	if bytes.Equal(a, c) {
		t.Fatal("different seeds, same output")
	}
	// A prefix of a larger run is the smaller run: items depend on (seed, k) only
	// except for references, which may point past the end of the smaller run.
	if n := bytes.Count(a, []byte("\n")); n != 300 {
		t.Fatalf("%d lines, want 300", n)
	}
}

// TestParallelMatchesSequential: chunked parallel generation writes exactly the
// sequential output.
func TestParallelMatchesSequential(t *testing.T) {
	opts := Options{Items: 3001, Seed: 5}
	got := generate(t, opts)
	want := New(opts).appendRange(nil, 0, opts.Items)
	if !bytes.Equal(got, want) {
		t.Fatal("parallel output differs from sequential output")
	}
}

// TestRealistic checks the shape of generated items against the documented content item
// fields and API.md D2/D3.
func TestRealistic(t *testing.T) {
	out := generate(t, Options{Items: 2000, Seed: 1})
	templates := map[string]int{}
	statuses := map[string]int{}
	var parents, mediaRefs, contentRefs, nonASCII, missingOptional int
	var bodyBytes int
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := sc.Text()
		var it map[string]any
		if err := json.Unmarshal([]byte(line), &it); err != nil {
			t.Fatalf("invalid JSON: %v\n%s", err, line)
		}
		id, _ := it["ContentID"].(string)
		if !strings.HasPrefix(id, "Content_") || len(id) != len("Content_")+36 {
			t.Errorf("ContentID %q", id)
		}
		if tid, _ := it["TemplateID"].(string); !strings.HasPrefix(tid, "Template_") {
			t.Errorf("TemplateID %q", tid)
		}
		templates[it["TemplateID"].(string)]++
		statuses[it["Status"].(string)]++
		created, err1 := time.Parse("2006-01-02T15:04:05.000Z", it["CreatedAt"].(string))
		updated, err2 := time.Parse("2006-01-02T15:04:05.000Z", it["UpdatedAt"].(string))
		if err1 != nil || err2 != nil || updated.Before(created) {
			t.Errorf("dates %v %v", it["CreatedAt"], it["UpdatedAt"])
		}
		if p, ok := it["PublishedAt"].(string); ok {
			pt, err := time.Parse("2006-01-02T15:04:05.000Z", p)
			if err != nil || pt.Before(created) {
				t.Errorf("PublishedAt %q before CreatedAt", p)
			}
		}
		if _, ok := it["ParentID"]; ok {
			parents++
		}
		if _, ok := it["TemplateName"]; !ok {
			missingOptional++
		}
		mediaRefs += strings.Count(line, `"ReferenceType":"Media"`)
		contentRefs += strings.Count(line, `"ReferenceType":"Content"`)
		for _, r := range it["Name"].(string) {
			if r > 127 {
				nonASCII++
				break
			}
		}
		data := it["Data"].(map[string]any)
		if body, ok := data["body"].(string); ok {
			bodyBytes += len(body)
		}
	}
	if len(templates) < 5 {
		t.Errorf("%d templates, want several", len(templates))
	}
	if d := statuses["Draft"] + statuses["Archived"]; d < 100 || d > 300 {
		t.Errorf("statuses %v, want about 10%% not published", statuses)
	}
	if parents == 0 || mediaRefs == 0 || contentRefs == 0 || nonASCII < 200 || missingOptional == 0 {
		t.Errorf("parents %d, media refs %d, content refs %d, non-ASCII names %d, missing optional %d",
			parents, mediaRefs, contentRefs, nonASCII, missingOptional)
	}
	for _, s := range []string{"&amp;", "&nbsp;", "&eacute;", "<strong>", "<em>", "<a href=", "<ul><li>", "<h2>", "\"price\":", "true", "false"} {
		if !bytes.Contains(out, []byte(s)) {
			t.Errorf("output has no %s", s)
		}
	}
	if bodyBytes/1000 < 1500 { // bodies average well over a KB
		t.Errorf("bodies too small: %d bytes in total", bodyBytes)
	}
}

// TestBuildsWithoutProblems: generated items are valid builder input (API.md D2),
// and a published-only build (D3) has no dangling references.
func TestBuildsWithoutProblems(t *testing.T) {
	p := filepath.Join(t.TempDir(), "gen.ndjson")
	if err := os.WriteFile(p, generate(t, Options{Items: 1200, Seed: 3, Environment: "load"}), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, preview := range []bool{false, true} {
		snap, warnings, err := ingest.BuildFiles(ingest.Options{Environment: "load", Preview: preview}, p)
		if err != nil {
			t.Fatalf("preview=%v: %v", preview, err)
		}
		if len(warnings) != 0 {
			t.Errorf("preview=%v: %d warnings, first %s", preview, len(warnings), warnings[0])
		}
		if len(snap) == 0 {
			t.Errorf("empty snapshot")
		}
	}
}

func BenchmarkGenerate(b *testing.B) {
	g := New(Options{Items: 1, Seed: 1})
	var buf []byte
	k := 0
	for b.Loop() {
		buf = g.AppendItem(buf[:0], k)
		k++
	}
	b.SetBytes(int64(len(buf)))
}

// BenchmarkGenerate100k is the load-test size: 100k items, streamed (about 2 s on two
// idle cores).
func BenchmarkGenerate100k(b *testing.B) {
	for b.Loop() {
		if err := Generate(io.Discard, Options{Items: 100_000, Seed: 1}); err != nil {
			b.Fatal(err)
		}
	}
}

// TestShortBodies: ShortBodies gives items of about 2 KB, as deterministic as the
// default ones, with the same items (ids, templates, statuses) as the default run.
func TestShortBodies(t *testing.T) {
	const n = 2000
	long := generate(t, Options{Items: n, Seed: 1})
	short := generate(t, Options{Items: n, Seed: 1, ShortBodies: true})
	if !bytes.Equal(short, generate(t, Options{Items: n, Seed: 1, ShortBodies: true})) {
		t.Fatal("same seed, different output")
	}
	if avg := len(short) / n; avg < 1500 || avg > 2500 {
		t.Errorf("short items average %d bytes, want about 2 KB", avg)
	}
	if avg := len(long) / n; avg < 4000 {
		t.Errorf("default items average %d bytes, want about 5 KB", avg)
	}
	type head struct{ ContentID, TemplateID, Status string }
	heads := func(out []byte) []head {
		var hs []head
		for _, line := range bytes.Split(bytes.TrimSpace(out), []byte("\n")) {
			var h head
			if err := json.Unmarshal(line, &h); err != nil {
				t.Fatal(err)
			}
			hs = append(hs, h)
		}
		return hs
	}
	l, s := heads(long), heads(short)
	for i := range l {
		if l[i] != s[i] {
			t.Fatalf("item %d: %+v with short bodies, %+v without", i, s[i], l[i])
		}
	}
}
