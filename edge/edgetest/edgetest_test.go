package edgetest

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/cdaedge/cdaedge/edge"
)

// TestNativeConformance runs every table against the native router. Until the engine
// lands (the router answers 501), it is skipped.
func TestNativeConformance(t *testing.T) {
	h := NativeHandler(t)
	resp, err := h.Serve(&edge.Request{Method: "GET", Path: "/cda/rest/v1/demo/contents"})
	if err != nil || resp == nil || resp.Status == 501 {
		t.Skip("the router is not implemented yet (501)")
	}
	RunConformance(t, h)
}

// TestTablesWellFormed loads every table (LoadCases checks the form) and checks that
// each case name cites the decisions it tests.
func TestTablesWellFormed(t *testing.T) {
	cite := regexp.MustCompile(`\bD(1[0-2]|[1-9])\b`)
	for _, c := range LoadCases(t, "*.json") {
		if !cite.MatchString(c.Name) {
			t.Errorf("%s: case %q cites no decision (D1…D12)", c.File, c.Name)
		}
	}
}

var (
	contentIDPattern  = regexp.MustCompile(`^Content_[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)
	templateIDPattern = regexp.MustCompile(`^Template_[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$`)
	mediaIDPattern    = regexp.MustCompile(`^Media_[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)
	datePattern       = regexp.MustCompile(`^20(19|2[0-5])-[01]\d-[0-3]\dT[0-2]\d:[0-5]\d:[0-5]\d\.\d{3}Z$`)
)

// TestDemoData checks the demo file on its own, without the builder: one object per
// line, the documented member types (D2), unique well-formed ids, one TemplateID per
// TemplateName, and content references that point at published demo items.
func TestDemoData(t *testing.T) {
	f, err := os.Open(filepath.Join(RepoRoot(t), DemoData))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	type ref struct {
		line int
		id   string
	}
	var refs []ref
	status := map[string]string{}
	templates := map[string]string{}
	media := map[string]bool{}
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	line := 0
	for sc.Scan() {
		line++
		var item map[string]any
		dec := json.NewDecoder(bytes.NewReader(sc.Bytes()))
		dec.UseNumber()
		if err := dec.Decode(&item); err != nil {
			t.Fatalf("line %d: %v", line, err)
		}
		id, _ := item["ContentID"].(string)
		if !contentIDPattern.MatchString(id) {
			t.Errorf("line %d: ContentID %q", line, id)
		}
		if _, dup := status[id]; dup {
			t.Errorf("line %d: duplicate ContentID %s", line, id)
		}
		status[id], _ = item["Status"].(string)
		for _, name := range []string{"Status", "CreatedBy", "UpdatedBy", "PublishedBy", "Name", "TemplateName", "TemplateID"} {
			if v, ok := item[name]; ok {
				if _, isString := v.(string); !isString {
					t.Errorf("line %d: %s is not a string", line, name)
				}
			}
		}
		for _, name := range []string{"CreatedAt", "UpdatedAt", "PublishedAt"} {
			if v, ok := item[name]; ok && !datePattern.MatchString(v.(string)) {
				t.Errorf("line %d: %s %q is not a 2019–2025 UTC date-time with milliseconds", line, name, v)
			}
		}
		tid, _ := item["TemplateID"].(string)
		tname, _ := item["TemplateName"].(string)
		if !templateIDPattern.MatchString(tid) {
			t.Errorf("line %d: TemplateID %q", line, tid)
		}
		if prev, ok := templates[tname]; ok && prev != tid {
			t.Errorf("line %d: template %q has two ids", line, tname)
		}
		templates[tname] = tid
		if _, ok := item["Data"].(map[string]any); !ok {
			t.Errorf("line %d: Data is not an object", line)
		}
		walk(item["Data"], func(obj map[string]any) {
			if obj["Type"] != "Reference" {
				return
			}
			switch obj["ReferenceType"] {
			case "Content":
				ids, _ := obj["ContentIDs"].([]any)
				for _, id := range ids {
					s, _ := id.(string)
					refs = append(refs, ref{line, s})
				}
			case "Media":
				mid, _ := obj["Id"].(string)
				if !mediaIDPattern.MatchString(mid) || media[mid] {
					t.Errorf("line %d: media id %q malformed or reused", line, mid)
				}
				media[mid] = true
				if u, _ := obj["MediaUrl"].(string); !strings.HasPrefix(u, "https://cdn.example.com/") {
					t.Errorf("line %d: MediaUrl %q", line, u)
				}
			default:
				t.Errorf("line %d: ReferenceType %v", line, obj["ReferenceType"])
			}
		})
		if p, ok := item["ParentID"].(string); ok {
			refs = append(refs, ref{line, p})
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if line != 40 {
		t.Errorf("%d items, the tables assume 40", line)
	}
	for _, r := range refs {
		if s, ok := status[r.id]; !ok || s != "Published" {
			t.Errorf("line %d: reference to %s, which is not a published demo item", r.line, r.id)
		}
	}
}

// walk calls fn on every object inside v.
func walk(v any, fn func(map[string]any)) {
	switch v := v.(type) {
	case map[string]any:
		fn(v)
		for _, x := range v {
			walk(x, fn)
		}
	case []any:
		for _, x := range v {
			walk(x, fn)
		}
	}
}

// TestCheckerAcceptsOracleAnswers feeds CheckResponse the oracle's answer to every REST
// case (a response built from it) and expects no problem; then it breaks the answer in
// several ways and expects the checker to notice. This tests the checker before the
// engine exists.
func TestCheckerAcceptsOracleAnswers(t *testing.T) {
	envs := loadOracle(t)
	for _, c := range LoadCases(t, "rest.json") {
		resp := oracleResponse(t, envs, c)
		if problems := CheckResponse(c, resp); len(problems) > 0 {
			t.Errorf("%s: the checker rejects the oracle's answer: %v", c.Name, problems)
			continue
		}
		breakages := map[string]func(r *edge.Response){
			"status":       func(r *edge.Response) { r.Status++ },
			"content type": func(r *edge.Response) { r.Headers = nil },
			"body":         func(r *edge.Response) { r.Body = append([]byte(" "), r.Body...) },
		}
		if c.Expect.Status == 200 && bytes.Contains(resp.Body, []byte(`"ContentID"`)) {
			breakages["ids"] = func(r *edge.Response) {
				r.Body = bytes.Replace(r.Body, []byte(`"ContentID":"Content_`), []byte(`"ContentID":"Content_x`), 1)
			}
		}
		if c.Expect.Status == 200 {
			breakages["envelope order"] = func(r *edge.Response) {
				r.Body = []byte(strings.Replace(string(r.Body), `{"status":200,`, `{`, 1))
				r.Body = append(r.Body[:len(r.Body)-1], []byte(`,"status":200}`)...)
			}
		}
		for what, breakIt := range breakages {
			bad := &edge.Response{Status: resp.Status, Headers: resp.Headers, Body: bytes.Clone(resp.Body)}
			breakIt(bad)
			if len(CheckResponse(c, bad)) == 0 {
				t.Errorf("%s: the checker accepts a broken %s", c.Name, what)
			}
		}
	}
}

// oracleResponse builds the response the oracle expects for c.
func oracleResponse(t *testing.T, envs map[string]*oracleEnv, c Case) *edge.Response {
	resp := &edge.Response{
		Status:  c.Expect.Status,
		Headers: []edge.Header{{Name: "Content-Type", Value: ContentType}},
	}
	if c.Expect.Status == 405 {
		resp.Headers = append(resp.Headers, edge.Header{Name: "Allow", Value: "GET"})
	}
	if c.Expect.Status != 200 {
		msg, _ := json.Marshal("bad request: " + strings.Join(c.Expect.BodyContains, ", "))
		code, _ := json.Marshal(c.Expect.Code)
		resp.Body = []byte(`{"status":` + itoa(c.Expect.Status) + `,"error":{"code":` + string(code) + `,"message":` + string(msg) + `}}`)
		return resp
	}
	seg := strings.Split(strings.TrimPrefix(c.Request.Path, "/"), "/")
	ans := envs[seg[3]].answer(c.Request.Method, seg[5:], c.Request.Query, c.Request.Headers["Authorization"])
	resp.Body = ans.body
	return resp
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

func TestCompareResponses(t *testing.T) {
	native := &edge.Response{Status: 200, Body: []byte(`{"status":200}`), Headers: []edge.Header{
		{Name: "Content-Type", Value: ContentType}, {Name: "ETag", Value: `"abc"`}, {Name: "Vary", Value: "Origin"}}}
	same := &edge.Response{Status: 200, Body: []byte(`{"status":200}`), Headers: []edge.Header{
		{Name: "etag", Value: `"abc"`}, {Name: "content-type", Value: ContentType}, {Name: "Vary", Value: "Origin"},
		{Name: "Date", Value: "Mon, 01 Jan 2024 00:00:00 GMT"}, {Name: "Content-Length", Value: "14"}}}
	if p := CompareResponses(native, same); len(p) > 0 {
		t.Errorf("equal responses differ: %v", p)
	}
	for what, got := range map[string]*edge.Response{
		"status":         {Status: 201, Body: same.Body, Headers: same.Headers},
		"body":           {Status: 200, Body: []byte(`{"status": 200}`), Headers: same.Headers},
		"missing header": {Status: 200, Body: same.Body, Headers: same.Headers[1:]},
		"extra header":   {Status: 200, Body: same.Body, Headers: append(slicesClone(same.Headers), edge.Header{Name: "X-Runtime", Value: "node"})},
		"content length": {Status: 200, Body: same.Body, Headers: append(slicesClone(same.Headers[:3]), edge.Header{Name: "Content-Length", Value: "99"})},
	} {
		if len(CompareResponses(native, got)) == 0 {
			t.Errorf("a different %s goes unnoticed", what)
		}
	}
}

func slicesClone(h []edge.Header) []edge.Header { return append([]edge.Header(nil), h...) }

func TestParseCasesRejects(t *testing.T) {
	for what, table := range map[string]string{
		"unknown member":         `[{"name":"D1 a","request":{"method":"GET","path":"/"},"expect":{"status":200,"idz":[]}}]`,
		"no status":              `[{"name":"D1 a","request":{"method":"GET","path":"/"},"expect":{}}]`,
		"error without code":     `[{"name":"D1 a","request":{"method":"GET","path":"/"},"expect":{"status":404}}]`,
		"duplicate name":         `[{"name":"D1 a","request":{"method":"GET","path":"/"},"expect":{"status":200}},{"name":"D1 a","request":{"method":"GET","path":"/"},"expect":{"status":200}}]`,
		"relative path":          `[{"name":"D1 a","request":{"method":"GET","path":"x"},"expect":{"status":200}}]`,
		"single item, two ids":   `[{"name":"D1 a","request":{"method":"GET","path":"/"},"expect":{"status":200,"ids":["a","b"]}}]`,
		"bad exact body":         `[{"name":"D1 a","request":{"method":"GET","path":"/"},"expect":{"status":200,"body":{"a":}}}]`,
		"trailing data":          `[] []`,
		"code on a success case": `[{"name":"D1 a","request":{"method":"GET","path":"/"},"expect":{"status":200,"code":"x"}}]`,
	} {
		if _, err := ParseCases([]byte(table)); err == nil {
			t.Errorf("ParseCases accepts a table with %s", what)
		}
	}
}

func TestRequestBody(t *testing.T) {
	for raw, want := range map[string]string{
		``:                     "",
		`null`:                 "",
		`"a \"b\""`:            `a "b"`,
		`{"query": { "x": 1}}`: `{"query":{"x":1}}`,
	} {
		r := Request{Method: "POST", Path: "/", Body: json.RawMessage(raw), Headers: map[string]string{"b": "2", "a": "1"}}
		req := r.HTTP()
		if string(req.Body) != want {
			t.Errorf("body %s sends %q, want %q", raw, req.Body, want)
		}
		if len(req.Headers) != 2 || req.Headers[0].Name != "a" {
			t.Errorf("headers %v, want sorted by name", req.Headers)
		}
	}
}

// TestPagedHandler runs the conformance tables against snapshots opened on their index
// parts, whose postings lists and bodies come by range, with caches large and tiny.
func TestPagedHandler(t *testing.T) {
	for _, cache := range []int{16 << 20, 0} {
		RunConformance(t, PagedHandler(t, cache))
	}
}
