package ingest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/cdaedge/cdaedge/snapshot"
)

const testdata = "../testdata"

// writeInput writes content to dir/name and returns the path.
func writeInput(t *testing.T, dir, name, content string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// problems returns the rendered problems of a failed build.
func problems(t *testing.T, err error) []string {
	t.Helper()
	var verr *ValidationError
	if !errors.As(err, &verr) {
		t.Fatalf("err = %v, want a *ValidationError", err)
	}
	var out []string
	for _, p := range verr.Problems {
		out = append(out, p.String())
	}
	return out
}

// TestValidationProblems has one case per kind of problem (API.md D2) with the
// exact location string the builder reports.
func TestValidationProblems(t *testing.T) {
	tests := []struct {
		name, file, content string
		want                string
	}{
		{"invalid JSON names line and column", "in.ndjson",
			"{\"ContentID\":\"a\",\"Status\":\"Published\"}\n{\"ContentID\":\"b\",}\n",
			`in.ndjson:2:18: invalid JSON: invalid character '}' looking for beginning of object key string`},
		{"truncated item", "in.ndjson", `{"ContentID":"a","Data":{"x":[1,2}}`,
			`in.ndjson:1:34: invalid JSON: invalid character '}' after array element (expecting ',' or ']')`},
		{"bad number", "in.ndjson", `{"ContentID":"a","Data":{"x":01}}`,
			`in.ndjson:1:31: invalid JSON: invalid character '1' after object member (expecting ',' or '}')`},
		{"two values on one line", "in.ndjson", `{"ContentID":"a"} {"ContentID":"b"}`,
			`in.ndjson:1:19: invalid JSON: invalid character '{' after the item (one item per line)`},
		{"invalid UTF-8", "in.ndjson", "{\"ContentID\":\"a\",\"Name\":\"caf\xe9\"}",
			`in.ndjson:1:29: invalid JSON: invalid UTF-8 byte 0xe9 in string literal`},
		{"raw control character", "in.ndjson", "{\"ContentID\":\"a\",\"Name\":\"a\tb\"}",
			`in.ndjson:1:27: invalid JSON: invalid control character 0x09 in string literal (must be escaped)`},
		{"not an object", "in.ndjson", `["Content_1"]`,
			`in.ndjson:1: item must be a JSON object, got an array`},
		{"ContentID missing", "in.ndjson", `{"Status":"Published"}`,
			`in.ndjson:1: /ContentID: required member is missing`},
		{"ContentID empty", "in.ndjson", `{"ContentID":""}`,
			`in.ndjson:1: /ContentID: must be a non-empty string`},
		{"ContentID not a string", "in.ndjson", `{"ContentID":17}`,
			`in.ndjson:1: /ContentID: must be a string, got a number`},
		{"Data not an object", "in.ndjson", "\n\n\n\n\n\n\n\n\n\n\n" + `{"ContentID":"a","Data":"text"}`,
			`in.ndjson:12: /Data: must be an object, got a string`},
		{"Name not a string", "in.ndjson", `{"ContentID":"a","Name":42}`,
			`in.ndjson:1: /Name: must be a string, got a number`},
		{"Status not a string", "in.ndjson", `{"ContentID":"a","Status":true}`,
			`in.ndjson:1: /Status: must be a string, got a boolean`},
		{"ContentID null", "in.ndjson", `{"ContentID":null,"Status":"Published"}`,
			`in.ndjson:1: /ContentID: must be a string, got null`},
		{"TemplateID object", "in.ndjson", `{"ContentID":"a","TemplateID":{}}`,
			`in.ndjson:1: /TemplateID: must be a string, got an object`},
		{"CreatedAt not a date", "in.ndjson", `{"ContentID":"a","CreatedAt":"yesterday"}`,
			`in.ndjson:1: /CreatedAt: must be an ISO 8601 date-time (API.md D5): date "yesterday": expected YYYY-MM-DD`},
		{"UpdatedAt impossible day", "in.ndjson", `{"ContentID":"a","UpdatedAt":"2021-02-30T00:00:00.000Z"}`,
			`in.ndjson:1: /UpdatedAt: must be an ISO 8601 date-time (API.md D5): date "2021-02-30T00:00:00.000Z": day out of range`},
		{"duplicate top-level member", "in.ndjson", `{"ContentID":"a","Name":"x","Name":"y"}`,
			`in.ndjson:1: /Name: duplicate member`},
		{"duplicate member inside Data", "in.ndjson", `{"ContentID":"a","Data":{"list":[{"k":1,"k":2}]}}`,
			`in.ndjson:1: /Data/list/0/k: duplicate member`},
		{"pointer escapes", "in.ndjson", `{"ContentID":"a","Data":{"a/b":{"c~d":1,"c~d":2}}}`,
			`in.ndjson:1: /Data/a~1b/c~0d: duplicate member`},
		{"duplicate ContentID in one file", "in.ndjson", "{\"ContentID\":\"a\"}\n{\"ContentID\":\"a\"}\n",
			`in.ndjson:2: /ContentID: duplicate ContentID "a", first seen at in.ndjson:1: /ContentID`},
		{"array element not an object", "in.json", "[\n {\"ContentID\":\"a\"},\n \"b\"\n]",
			`in.json:3: /1: item must be a JSON object, got a string`},
		{"array member pointer", "in.json", "[{\"ContentID\":\"a\"},\n{\"ContentID\":\"b\",\n \"CreatedAt\": 20210101}]",
			`in.json:3: /1/CreatedAt: must be a string, got a number`},
		{"array Data pointer", "in.json", `[{"ContentID":"a"},{"ContentID":"b"},{"ContentID":"c"},{"ContentID":"d","Data":{"x":1,"x":2}}]`,
			`in.json:1: /3/Data/x: duplicate member`},
		{"array duplicate ContentID", "in.json", "[{\"ContentID\":\"a\"},\n{\"ContentID\":\"a\"}]",
			`in.json:2: /1/ContentID: duplicate ContentID "a", first seen at in.json:1: /0/ContentID`},
		{"array syntax error", "in.json", "[\n  {\"ContentID\":\"a\"}\n  {\"ContentID\":\"b\"}\n]",
			`in.json:3:3: invalid JSON: invalid character '{' after array element (expecting ',' or ']')`},
		{"array trailing comma", "in.json", `[{"ContentID":"a"},]`,
			`in.json:1:20: invalid JSON: invalid character ']' looking for beginning of value`},
		{"json file not an array", "in.json", `{"ContentID":"a"}`,
			`in.json:1:1: invalid JSON: invalid character '{': a .json input must hold a JSON array of items (use .ndjson for one item per line)`},
		{"json file truncated", "in.json", `[{"ContentID":"a"}`,
			`in.json:1:19: invalid JSON: unexpected end of input in array (expecting ',' or ']')`},
		{"empty json file", "in.json", "",
			`in.json:1:1: invalid JSON: empty file (expecting a JSON array of items)`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			p := writeInput(t, dir, tt.file, tt.content)
			snap, _, err := BuildFiles(Options{Environment: "test"}, p)
			if snap != nil {
				t.Errorf("got a snapshot despite problems")
			}
			got := problems(t, err)
			want := strings.Replace(tt.want, tt.file, p, 1)
			want = strings.Replace(want, "first seen at "+tt.file, "first seen at "+p, 1)
			if len(got) != 1 || got[0] != want {
				t.Errorf("problems:\n%s\nwant:\n%s", strings.Join(got, "\n"), want)
			}
		})
	}
}

// TestAllProblemsReported: every problem of every input is listed, not just the first,
// and no snapshot is produced (API.md D2).
func TestAllProblemsReported(t *testing.T) {
	a := filepath.Join(testdata, "invalid.ndjson")
	b := filepath.Join(testdata, "invalid.json")
	snap, _, err := BuildFiles(Options{Environment: "test"}, a, b)
	if snap != nil {
		t.Fatal("got a snapshot despite problems")
	}
	got := problems(t, err)
	want := []string{
		a + `:1: /Data: must be an object, got an array`,
		a + `:2: /CreatedAt: must be an ISO 8601 date-time (API.md D5): date "yesterday": expected YYYY-MM-DD`,
		a + `:2: /Name: must be a string, got a number`,
		a + `:3: /ContentID: required member is missing`,
		a + `:4:48: invalid JSON: invalid character '}' looking for beginning of object key string`,
		a + `:5: /ContentID: duplicate ContentID "Content_i1", first seen at ` + a + `:1: /ContentID`,
		b + `:5: /1/PublishedAt: must be an ISO 8601 date-time (API.md D5): date "2021-02-30T00:00:00Z": day out of range`,
		b + `:6: /2: item must be a JSON object, got a string`,
		b + `:7: /3/ContentID: must be a non-empty string`,
	}
	if !slices.Equal(got, want) {
		t.Errorf("problems:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if msg := err.Error(); !strings.HasPrefix(msg, "invalid input: 9 problems\n") || !strings.Contains(msg, want[8]) {
		t.Errorf("Error() = %q", msg)
	}
}

func TestProblemString(t *testing.T) {
	tests := []struct {
		p    Problem
		want string
	}{
		{Problem{File: "x.ndjson", Line: 12, Pointer: "/Data", Message: "must be an object"}, "x.ndjson:12: /Data: must be an object"},
		{Problem{File: "x.ndjson", Line: 3, Column: 7, Message: "invalid JSON: boom"}, "x.ndjson:3:7: invalid JSON: boom"},
		{Problem{File: "x.json", Pointer: "/3/CreatedAt", Message: "bad"}, "x.json: /3/CreatedAt: bad"},
		{Problem{File: "x.ndjson", Line: 1, Message: "m"}, "x.ndjson:1: m"},
	}
	for _, tt := range tests {
		if got := tt.p.String(); got != tt.want {
			t.Errorf("String() = %q, want %q", got, tt.want)
		}
	}
}

func TestEnvironmentValidated(t *testing.T) {
	for _, env := range []string{"", "-x", "a b", "ä", strings.Repeat("a", 129)} {
		if _, _, err := BuildFiles(Options{Environment: env}, filepath.Join(testdata, "items.ndjson")); err == nil {
			t.Errorf("environment %q accepted, want an error (API.md D1)", env)
		}
	}
	for _, env := range []string{"a", "demo", "Prod_1.eu-west", strings.Repeat("a", 128)} {
		if !ValidEnvironment(env) {
			t.Errorf("ValidEnvironment(%q) = false", env)
		}
	}
}

func TestFormatOf(t *testing.T) {
	tests := []struct {
		path string
		want Format
		ok   bool
	}{
		{"a.ndjson", NDJSON, true}, {"a.JSONL", NDJSON, true}, {"-", NDJSON, true},
		{"dir/a.json", JSONArray, true}, {"a.txt", 0, false}, {"a", 0, false},
	}
	for _, tt := range tests {
		got, err := FormatOf(tt.path)
		if got != tt.want || (err == nil) != tt.ok {
			t.Errorf("FormatOf(%q) = %v, %v", tt.path, got, err)
		}
	}
}

// TestDanglingReferences: a content reference to an id that is not in the snapshot is
// a warning with its location, not an error (API.md D2); a reference to a draft is
// dangling in a published-only snapshot (D3).
func TestDanglingReferences(t *testing.T) {
	p := filepath.Join(testdata, "dangling.ndjson")
	snap, warnings, err := BuildFiles(Options{Environment: "test"}, p)
	if err != nil || snap == nil {
		t.Fatalf("BuildFiles: %v", err)
	}
	var got []string
	for _, w := range warnings {
		got = append(got, w.String())
	}
	want := []string{
		p + `:1: /Data/rel/ContentIDs/0: dangling content reference "Content_d2": that item is not in the snapshot (Status "Draft", API.md D3)`,
		p + `:1: /Data/rel/ContentIDs/1: dangling content reference "Content_missing": no such item`,
	}
	if !slices.Equal(got, want) {
		t.Errorf("warnings:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// In a preview snapshot, the draft is there: only the missing ids dangle, including
	// the one referenced by the draft.
	_, warnings, err = BuildFiles(Options{Environment: "test", Preview: true}, p)
	if err != nil {
		t.Fatal(err)
	}
	got = got[:0]
	for _, w := range warnings {
		got = append(got, w.String())
	}
	want = []string{
		p + `:1: /Data/rel/ContentIDs/1: dangling content reference "Content_missing": no such item`,
		p + `:3: /Data/rel/ContentIDs/0: dangling content reference "Content_nowhere": no such item`,
	}
	if !slices.Equal(got, want) {
		t.Errorf("preview warnings:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestNoWarningsForResolvedReferences(t *testing.T) {
	_, warnings, err := BuildFiles(Options{Environment: "test"},
		filepath.Join(testdata, "items.ndjson"), filepath.Join(testdata, "items.json"))
	if err != nil {
		t.Fatal(err)
	}
	if len(warnings) != 0 {
		t.Errorf("warnings: %v", warnings)
	}
}

func TestStatsAndProgress(t *testing.T) {
	var events []Progress
	b, err := NewBuilder(Options{Environment: "test", Progress: func(p Progress) { events = append(events, p) }})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{filepath.Join(testdata, "items.ndjson"), filepath.Join(testdata, "items.json")} {
		if err := b.AddFile(p, nil); err != nil {
			t.Fatal(err)
		}
	}
	if _, _, err := b.Finish(); err != nil {
		t.Fatal(err)
	}
	st := b.Stats()
	if st.Read != 8 || st.Included != 5 || st.SkippedTotal() != 3 {
		t.Errorf("stats = %+v", st)
	}
	if s := st.SkippedSummary(); s != "2 Draft, 1 Archived" {
		t.Errorf("SkippedSummary = %q", s)
	}
	if len(events) != 2 || !events[0].Done || events[0].Items != 5 || events[1].Items != 3 || events[0].Total <= 0 {
		t.Errorf("progress events = %+v", events)
	}
}

func TestStdinAndLongLines(t *testing.T) {
	b, err := NewBuilder(Options{Environment: "test", Preview: true})
	if err != nil {
		t.Fatal(err)
	}
	long := `{"ContentID":"big","Data":{"s":"` + strings.Repeat("lorem ipsum ", 200_000) + `"}}` // 2.4 MB: over the 1 MiB read buffer
	in := "\xef\xbb\xbf" + `{"ContentID":"a"}` + "\n\n" + long + "\n" + `{"ContentID":"b"}`      // BOM, blank line, no final newline
	if err := b.AddFile("-", strings.NewReader(in)); err != nil {
		t.Fatal(err)
	}
	snap, _, err := b.Finish()
	if err != nil {
		t.Fatal(err)
	}
	if st := b.Stats(); st.Read != 3 || st.Files[0].Name != "-" {
		t.Errorf("stats = %+v", st)
	}
	s := open(t, snap)
	if s.Len() != 3 {
		t.Errorf("Len = %d, want 3", s.Len())
	}
}

func TestLineTooLong(t *testing.T) {
	if testing.Short() {
		t.Skip("allocates 64 MiB")
	}
	b, _ := NewBuilder(Options{Environment: "test"})
	in := `{"ContentID":"a","Status":"Published"}` + "\n" + strings.Repeat(" ", MaxLine+10) + "\n" + `{"ContentID":"b","Status":"Published"}` + "\n"
	if err := b.AddNDJSON("big.ndjson", strings.NewReader(in), -1); err != nil {
		t.Fatal(err)
	}
	_, _, err := b.Finish()
	got := problems(t, err)
	if want := "big.ndjson:2: line longer than 64 MiB"; len(got) != 1 || got[0] != want {
		t.Errorf("problems = %q, want %q", got, want)
	}
	if b.Stats().Read != 2 {
		t.Errorf("read %d items, want 2 (reading goes on after the long line)", b.Stats().Read)
	}
}

// TestWriteFileAtomic: the output appears whole or not at all; a failed write leaves no
// temporary file and an existing output untouched.
func TestWriteFileAtomic(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "demo.snap")
	if err := WriteFile(out, []byte("first")); err != nil {
		t.Fatal(err)
	}
	failing := func(w io.Writer) error {
		w.Write([]byte("half"))
		return errors.New("disk on fire")
	}
	if err := WriteFileFunc(out, failing); err == nil || !strings.Contains(err.Error(), "disk on fire") {
		t.Fatalf("err = %v", err)
	}
	// Rename onto a directory fails after the data is written and synced.
	sub := filepath.Join(dir, "sub")
	if err := os.MkdirAll(filepath.Join(sub, "x"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(sub, []byte("data")); err == nil {
		t.Fatal("WriteFile onto a non-empty directory succeeded")
	}
	if err := WriteFile(filepath.Join(dir, "missing", "a.snap"), []byte("x")); err == nil {
		t.Fatal("WriteFile into a missing directory succeeded")
	}
	data, err := os.ReadFile(out)
	if err != nil || string(data) != "first" {
		t.Errorf("existing output = %q, %v; want untouched", data, err)
	}
	entries, _ := os.ReadDir(dir)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if !slices.Equal(names, []string{"demo.snap", "sub"}) {
		t.Errorf("directory holds %v, want no temporary files", names)
	}
	if fi, _ := os.Stat(out); fi.Mode().Perm() != 0o644 {
		t.Errorf("mode = %v, want 0644", fi.Mode().Perm())
	}
}

func open(t *testing.T, snap []byte) *snapshot.Snapshot {
	t.Helper()
	s, err := snapshot.Open(snap)
	if err != nil {
		t.Fatalf("snapshot.Open: %v", err)
	}
	return s
}

// TestDeterminism: the same items give byte-identical snapshots, whatever the order of
// inputs and of items within them.
func TestDeterminism(t *testing.T) {
	paths := []string{filepath.Join(testdata, "items.ndjson"), filepath.Join(testdata, "items.json")}
	for _, preview := range []bool{false, true} {
		opts := Options{Environment: "test", Preview: preview}
		a, _, err := BuildFiles(opts, paths...)
		if err != nil {
			t.Fatal(err)
		}
		b, _, err := BuildFiles(opts, paths...)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(a, b) {
			t.Errorf("preview=%v: two builds differ", preview)
		}
		// Reverse the file order and shuffle the NDJSON lines.
		dir := t.TempDir()
		data, _ := os.ReadFile(paths[0])
		lines := strings.Split(strings.TrimSpace(string(data)), "\n")
		r := rand.New(rand.NewPCG(1, 2))
		r.Shuffle(len(lines), func(i, j int) { lines[i], lines[j] = lines[j], lines[i] })
		shuffled := writeInput(t, dir, "shuffled.ndjson", strings.Join(lines, "\n"))
		c, _, err := BuildFiles(opts, paths[1], shuffled)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(a, c) {
			t.Errorf("preview=%v: shuffled input gives a different snapshot", preview)
		}
		if len(a) == 0 {
			t.Errorf("empty snapshot")
		}
	}
}

// member is one member of a JSON object, in source order.
type member struct {
	Key string
	Val any
}

// decodeOrdered decodes one JSON value keeping object member order and the exact text
// of numbers (json.Number), so that comparisons see what API.md D2 promises.
func decodeOrdered(dec *json.Decoder) (any, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch tok {
	case json.Delim('{'):
		var obj []member
		for dec.More() {
			k, err := dec.Token()
			if err != nil {
				return nil, err
			}
			v, err := decodeOrdered(dec)
			if err != nil {
				return nil, err
			}
			obj = append(obj, member{k.(string), v})
		}
		_, err := dec.Token()
		return obj, err
	case json.Delim('['):
		arr := []any{}
		for dec.More() {
			v, err := decodeOrdered(dec)
			if err != nil {
				return nil, err
			}
			arr = append(arr, v)
		}
		_, err := dec.Token()
		return arr, err
	}
	return tok, nil
}

func parseOrdered(t *testing.T, data string) []member {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(data))
	dec.UseNumber()
	v, err := decodeOrdered(dec)
	if err != nil {
		t.Fatalf("parse %q: %v", data, err)
	}
	obj, ok := v.([]member)
	if !ok {
		t.Fatalf("not an object: %s", data)
	}
	return obj
}

// sourceItems reads every item of the test inputs, ordered members.
func sourceItems(t *testing.T, paths ...string) [][]member {
	t.Helper()
	var items [][]member
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if strings.HasSuffix(p, ".json") {
			var raw []json.RawMessage
			if err := json.Unmarshal(data, &raw); err != nil {
				t.Fatal(err)
			}
			for _, r := range raw {
				items = append(items, parseOrdered(t, string(r)))
			}
			continue
		}
		for _, line := range strings.Split(string(data), "\n") {
			if strings.TrimSpace(line) != "" {
				items = append(items, parseOrdered(t, line))
			}
		}
	}
	return items
}

func get(obj []member, key string) (any, bool) {
	for _, m := range obj {
		if m.Key == key {
			return m.Val, true
		}
	}
	return nil, false
}

// d2Order is the documented member order of API.md D2.
var d2Order = []string{"Status", "CreatedBy", "CreatedAt", "Data", "PublishedBy", "UpdatedAt", "Name",
	"PublishedAt", "UpdatedBy", "TemplateName", "TemplateID", "ContentID"}

// checkRoundTrip compares the snapshot's items with the source items that should be in
// it, member by member: same members, values equal with Data member order kept and
// numbers as their exact source text, top-level order as API.md D2 says.
func checkRoundTrip(t *testing.T, s *snapshot.Snapshot, src [][]member, include func([]member) bool) {
	t.Helper()
	want := map[string][]member{}
	for _, it := range src {
		if include(it) {
			id, _ := get(it, "ContentID")
			want[id.(string)] = it
		}
	}
	if s.Len() != len(want) {
		t.Errorf("snapshot has %d items, want %d", s.Len(), len(want))
	}
	prev := ""
	for i := 0; i < s.Len(); i++ {
		stored := s.Item(i)
		got := parseOrdered(t, stored)
		idv, _ := get(got, "ContentID")
		id, _ := idv.(string)
		if id != s.ContentID(i) {
			t.Errorf("item %d: ContentID %q, index says %q", i, id, s.ContentID(i))
		}
		if i > 0 && id <= prev {
			t.Errorf("items not sorted by ContentID: %q after %q", id, prev)
		}
		prev = id
		if j, ok := s.Lookup(id); !ok || j != i {
			t.Errorf("Lookup(%q) = %d, %v; want %d", id, j, ok, i)
		}
		w, ok := want[id]
		if !ok {
			t.Errorf("unexpected item %q", id)
			continue
		}
		if len(got) != len(w) {
			t.Errorf("%s: %d members, want %d", id, len(got), len(w))
		}
		for _, m := range w {
			g, ok := get(got, m.Key)
			if !ok {
				t.Errorf("%s: member %s lost", id, m.Key)
			} else if !reflect.DeepEqual(g, m.Val) {
				t.Errorf("%s: member %s = %v, want %v", id, m.Key, g, m.Val)
			}
		}
		// Order: documented members in D2 order, then the others in source order.
		var wantOrder []string
		for _, k := range d2Order {
			if _, ok := get(w, k); ok {
				wantOrder = append(wantOrder, k)
			}
		}
		for _, m := range w {
			if !slices.Contains(d2Order, m.Key) {
				wantOrder = append(wantOrder, m.Key)
			}
		}
		var gotOrder []string
		for _, m := range got {
			gotOrder = append(gotOrder, m.Key)
		}
		if !slices.Equal(gotOrder, wantOrder) {
			t.Errorf("%s: member order %v, want %v (API.md D2)", id, gotOrder, wantOrder)
		}
		if compact := compactJSON(t, stored); compact != stored {
			t.Errorf("%s: stored item is not compact", id)
		}
	}
}

func compactJSON(t *testing.T, s string) string {
	var buf bytes.Buffer
	if err := json.Compact(&buf, []byte(s)); err != nil {
		t.Fatalf("stored item is not valid JSON: %v", err)
	}
	return buf.String()
}

func isPublished(it []member) bool {
	st, _ := get(it, "Status")
	return st == "Published"
}

// TestRoundTrip: the items of a published-only snapshot are the published items of the
// input, nothing lost (API.md D2, D3); a preview snapshot holds every item.
func TestRoundTrip(t *testing.T) {
	paths := []string{filepath.Join(testdata, "items.ndjson"), filepath.Join(testdata, "items.json")}
	src := sourceItems(t, paths...)
	tests := []struct {
		name     string
		preview  bool
		include  func([]member) bool
		statuses []string
	}{
		{"published only", false, isPublished, []string{"Published"}},
		{"preview", true, func([]member) bool { return true }, []string{"Archived", "Draft", "Published"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			snap, _, err := BuildFiles(Options{Environment: "test-env", Preview: tt.preview}, paths...)
			if err != nil {
				t.Fatal(err)
			}
			s := open(t, snap)
			if s.Environment() != "test-env" || s.Preview() != tt.preview {
				t.Errorf("header: environment %q preview %v", s.Environment(), s.Preview())
			}
			if got := slices.Sorted(slices.Values(s.Statuses())); !slices.Equal(got, tt.statuses) {
				t.Errorf("Statuses() = %v, want %v", got, tt.statuses)
			}
			checkRoundTrip(t, s, src, tt.include)
		})
	}
}

// TestExactNumbers spells out the D2 promise on a few tricky numbers.
func TestExactNumbers(t *testing.T) {
	nums := []string{"4.50", "12345678901234567890123", "1e-7", "-0.0", "1E+2", "0.1000000000000000055511151231257827", "19.99"}
	var sb strings.Builder
	for i, n := range nums {
		fmt.Fprintf(&sb, `{"ContentID":"n%d","Status":"Published","Data":{"v":%s,"list":[%s]}}`+"\n", i, n, n)
	}
	p := writeInput(t, t.TempDir(), "n.ndjson", sb.String())
	snap, _, err := BuildFiles(Options{Environment: "test"}, p)
	if err != nil {
		t.Fatal(err)
	}
	s := open(t, snap)
	for i, n := range nums {
		j, ok := s.Lookup(fmt.Sprintf("n%d", i))
		if !ok {
			t.Fatalf("n%d missing", i)
		}
		want := fmt.Sprintf(`"Data":{"v":%s,"list":[%s]}`, n, n)
		if got := s.Item(j); !strings.Contains(got, want) {
			t.Errorf("item %s, want it to contain %s", got, want)
		}
	}
}

func BenchmarkBuild(b *testing.B) {
	dir := b.TempDir()
	p := filepath.Join(dir, "bench.ndjson")
	f, err := os.Create(p)
	if err != nil {
		b.Fatal(err)
	}
	writeBenchItems(f, 2000)
	f.Close()
	fi, _ := os.Stat(p)
	b.SetBytes(fi.Size())
	for b.Loop() {
		if _, _, err := BuildFiles(Options{Environment: "bench"}, p); err != nil {
			b.Fatal(err)
		}
	}
}

// writeBenchItems writes n items with a few-KB Data body each.
func writeBenchItems(w io.Writer, n int) {
	body := strings.Repeat("<p>Lorem ipsum dolor sit amet, &amp; consectetur <strong>adipiscing</strong> elit.</p>", 40)
	for i := 0; i < n; i++ {
		fmt.Fprintf(w, `{"ContentID":"Content_%08d","Status":"Published","CreatedAt":"2021-04-23T10:11:12.345Z","Name":"Item %d","Data":{"body":%q,"price":19.99,"rel":{"Type":"Reference","ReferenceType":"Content","ContentIDs":["Content_%08d"]}}}`+"\n", i, i, body, (i*7)%n)
	}
}

func TestNestingLimit(t *testing.T) {
	deep := strings.Repeat("[", maxDepth+5) + strings.Repeat("]", maxDepth+5)
	p := writeInput(t, t.TempDir(), "deep.ndjson", `{"ContentID":"a","Data":{"x":`+deep+`}}`)
	_, _, err := BuildFiles(Options{Environment: "test"}, p)
	got := problems(t, err)
	if len(got) != 1 || !strings.HasSuffix(got[0], "invalid JSON: nesting deeper than 10000 levels") {
		t.Errorf("problems = %q", got)
	}
	// Within the JSON limit, an item may nest snapshot.MaxItemDepth levels (its own
	// object and Data included), and no more.
	nest := func(levels int) string {
		return strings.Repeat(`{"a":`, levels-1) + "1" + strings.Repeat("}", levels-1) // Data's and below
	}
	p = writeInput(t, t.TempDir(), "levels.ndjson", `{"ContentID":"a","Data":`+nest(snapshot.MaxItemDepth)+`}`+"\n"+
		`{"ContentID":"b","Data":`+nest(snapshot.MaxItemDepth+1)+`}`)
	_, _, err = BuildFiles(Options{Environment: "test"}, p)
	got = problems(t, err)
	want := ":2: /Data" + strings.Repeat("/a", snapshot.MaxItemDepth-1) + ": nests objects and arrays more than 64 levels deep (the most an item may)"
	if len(got) != 1 || !strings.HasSuffix(got[0], want) {
		t.Errorf("problems = %q, want one ending %q", got, want)
	}
}

// BenchmarkValidate measures the reading and validation alone (no snapshot writer).
func BenchmarkValidate(b *testing.B) {
	var buf bytes.Buffer
	writeBenchItems(&buf, 2000)
	lines := bytes.Split(bytes.TrimSpace(buf.Bytes()), []byte("\n"))
	b.SetBytes(int64(buf.Len()))
	for b.Loop() {
		for _, line := range lines {
			s := &scanner{data: line, check: checkDate}
			var info itemInfo
			if err := s.item(&info); err != nil || len(info.issues) > 0 {
				b.Fatal(err, info.issues)
			}
		}
	}
}

// TestNullMembersAreAbsent: a documented member given as null counts as absent (D2 checks
// the type of values that are present), and the item keeps it verbatim.
func TestNullMembersAreAbsent(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in.ndjson")
	line := `{"ContentID":"Content_1","Status":"Published","PublishedAt":null,"Data":null,"Name":null}`
	if err := os.WriteFile(in, []byte(line+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	b, _, err := BuildFiles(Options{Environment: "demo"}, in)
	if err != nil {
		t.Fatal(err)
	}
	snap, err := snapshot.Open(b)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := snap.Item(0), `{"Status":"Published","Data":null,"Name":null,"PublishedAt":null,"ContentID":"Content_1"}`; got != want {
		t.Errorf("item %s, want %s", got, want)
	}
}
