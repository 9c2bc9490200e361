package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"text/template"

	"github.com/cdaedge/cdaedge/builder/ingest"
	"github.com/cdaedge/cdaedge/edge"
)

// hostileCase is one entry of testdata/hostile/cases.json (see its README).
type hostileCase struct {
	Name    string            `json:"name"`
	Method  string            `json:"method"`
	Target  string            `json:"target"`
	Headers map[string]string `json:"headers"`
	Body    string            `json:"body"`
	Status  int               `json:"status"`
	Code    string            `json:"code"`
	Plain   bool              `json:"plain"`
}

const previewToken = "preview-secret"

// demoDir builds the demo environment as "demo" (published) and "preview" (preview)
// into a new folder.
func demoDir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for _, b := range []struct {
		env     string
		preview bool
	}{{"demo", false}, {"preview", true}} {
		snap, _, err := ingest.BuildFiles(ingest.Options{Environment: b.env, Preview: b.preview}, "../testdata/demo/content.ndjson")
		if err != nil {
			t.Fatalf("build %s: %v", b.env, err)
		}
		if err := os.WriteFile(filepath.Join(dir, b.env+".snap"), snap, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

var hostileFuncs = template.FuncMap{
	"repeat": strings.Repeat,
	"byte":   func(b int) string { return string([]byte{byte(b)}) },
	"nul":    func() string { return "\x00" },
}

func expand(t *testing.T, name, text string) string {
	t.Helper()
	tmpl, err := template.New(name).Funcs(hostileFuncs).Parse(text)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	var b strings.Builder
	if err := tmpl.Execute(&b, nil); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return b.String()
}

func loadHostile(t *testing.T) []hostileCase {
	t.Helper()
	b, err := os.ReadFile("../testdata/hostile/cases.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []hostileCase
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&cases); err != nil {
		t.Fatalf("cases.json: %v", err)
	}
	return cases
}

func (c hostileCase) request(t *testing.T) edge.Request {
	target := expand(t, c.Name, c.Target)
	path, query, _ := strings.Cut(target, "?")
	req := edge.Request{Method: c.Method, Path: path, RawQuery: query}
	names := make([]string, 0, len(c.Headers))
	for k := range c.Headers {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		req.Headers = append(req.Headers, edge.Header{Name: k, Value: expand(t, c.Name, c.Headers[k])})
	}
	if c.Body != "" {
		req.Body = []byte(expand(t, c.Name, c.Body))
	}
	return req
}

// TestHostileInputs sends every hostile case to the host with each engine: each gets
// its status and error envelope, and the host keeps answering a good request right.
func TestHostileInputs(t *testing.T) {
	dir := demoDir(t)
	cases := loadHostile(t)
	control := edge.Request{Method: "GET", Path: "/cda/rest/v1/demo/contents", RawQuery: "pageSize=1&sort=Name&sortAsc=true"}
	for _, engine := range []string{"native", "wasm"} {
		t.Run(engine, func(t *testing.T) {
			args := []string{"--snapshots", dir, "--engine", engine, "--preview-token", "preview=" + previewToken, "--watch=false"}
			if engine == "wasm" {
				args = append(args, "--module", moduleFile(t), "--instances", "2")
			}
			addr := startHost(t, args...)
			wantStatus, _, wantBody := send(t, addr, control)
			if wantStatus != 200 {
				t.Fatalf("control request: %d %s", wantStatus, wantBody)
			}
			for _, c := range cases {
				status, h, body := send(t, addr, c.request(t))
				var env struct {
					Status int `json:"status"`
					Error  struct {
						Code string `json:"code"`
					} `json:"error"`
				}
				if c.Plain {
					// net/http answers a request line it cannot parse itself, in plain
					// text, before any handler runs.
					if status != c.Status {
						t.Errorf("%s: got %d, want %d: %.200s", c.Name, status, c.Status, body)
					}
				} else if err := json.Unmarshal(body, &env); err != nil {
					t.Errorf("%s: %d, body is not JSON (%v): %.200s", c.Name, status, err, body)
				} else if code := env.Error.Code; status != c.Status || code != c.Code {
					t.Errorf("%s: got %d %q, want %d %q: %.300s", c.Name, status, code, c.Status, c.Code, body)
				} else if env.Status != status {
					t.Errorf("%s: envelope status %d, HTTP status %d", c.Name, env.Status, status)
				} else if h.Get("X-Content-Type-Options") != "nosniff" || !strings.HasPrefix(h.Get("Content-Type"), "application/json") {
					t.Errorf("%s: headers %v", c.Name, h)
				}
				if s, _, b := send(t, addr, control); s != wantStatus || !bytes.Equal(b, wantBody) {
					t.Fatalf("after %s: the control request got %d %.200s", c.Name, s, b)
				}
			}
		})
	}
}
