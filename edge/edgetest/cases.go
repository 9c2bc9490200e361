package edgetest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/cdaedge/cdaedge/edge"
)

// Case is one conformance case: a request and what its response must be. The JSON
// form is documented in testdata/conformance/README.md.
type Case struct {
	// Name says what is tested and cites the decisions (D1…D12) it checks.
	Name string `json:"name"`
	// Note is free text for readers (for example the item names behind Expect.IDs).
	Note    string  `json:"note,omitempty"`
	Request Request `json:"request"`
	Expect  Expect  `json:"expect"`
	// File is the table the case was loaded from (base name).
	File string `json:"-"`
}

// Request is a case's request. Path and Query are sent as written (already escaped).
type Request struct {
	Method string `json:"method"`
	Path   string `json:"path"`
	Query  string `json:"query,omitempty"`
	// Headers are sent in the order of their names.
	Headers map[string]string `json:"headers,omitempty"`
	// Body is a JSON string (sent as its text) or any other JSON value (sent as its
	// compact JSON text, which suits GraphQL and search bodies); absent or null sends
	// no body.
	Body json.RawMessage `json:"body,omitempty"`
}

// Expect is what a case's response must satisfy. Zero values are not checked, except
// Status, which is required.
type Expect struct {
	// Status is the HTTP status, which the body's "status" member must equal too (D8).
	Status int `json:"status"`
	// TotalItems, when present, is the list's "totalItems", and "data" must be an array.
	TotalItems *int `json:"totalItems,omitempty"`
	// IDs, when present (even empty), are the ContentIDs of "data" in order. When
	// TotalItems is absent, "data" must be a single item and IDs has one element.
	IDs *[]string `json:"ids,omitempty"`
	// Code is the error code of an error response (D8); required when Status >= 400.
	Code string `json:"code,omitempty"`
	// Headers must be present with exactly these values (names case-insensitive).
	Headers map[string]string `json:"headers,omitempty"`
	// HeadersContain must be present with a value containing the given text.
	HeadersContain map[string]string `json:"headersContain,omitempty"`
	// BodyContains are texts the body must contain (case-sensitive).
	BodyContains []string `json:"bodyContains,omitempty"`
	// BodyNotContains are texts the body must not contain.
	BodyNotContains []string `json:"bodyNotContains,omitempty"`
	// Body, when present and not null, is the exact body: the response must equal its
	// compact form byte for byte.
	Body json.RawMessage `json:"body,omitempty"`
}

// HTTP returns the case's request as the router takes it.
func (r Request) HTTP() *edge.Request {
	req := &edge.Request{Method: r.Method, Path: r.Path, RawQuery: r.Query}
	names := make([]string, 0, len(r.Headers))
	for name := range r.Headers {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		req.Headers = append(req.Headers, edge.Header{Name: name, Value: r.Headers[name]})
	}
	req.Body = r.bodyBytes()
	return req
}

func (r Request) bodyBytes() []byte {
	raw := bytes.TrimSpace(r.Body)
	switch {
	case len(raw) == 0 || string(raw) == "null":
		return nil
	case raw[0] == '"':
		var s string
		if err := json.Unmarshal(raw, &s); err == nil {
			return []byte(s)
		}
		return nil // LoadCases has rejected it already
	default:
		var buf bytes.Buffer
		if err := json.Compact(&buf, raw); err != nil {
			return nil
		}
		return buf.Bytes()
	}
}

// exactBody returns the compact form of Expect.Body, or nil when it is not checked.
func (e Expect) exactBody() ([]byte, error) {
	raw := bytes.TrimSpace(e.Body)
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	var buf bytes.Buffer
	if err := json.Compact(&buf, raw); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// LoadCases reads the tables in testdata/conformance matching pattern (a
// filepath.Match pattern such as "*.json" or "rest.json"), in file-name order. It fails
// the test on a malformed table: unknown members, duplicate or empty names, a missing
// status, an error status without a code.
func LoadCases(t testing.TB, pattern string) []Case {
	t.Helper()
	return loadTables(t, ConformanceDir, pattern)
}

// BudgetCases reads testdata/hostile/budget.json: request shapes built to be expensive,
// each expected to end within the work budget or the answer size limit, and to report
// the steps it spent (the Cda-Work-Steps header), which every runtime must count alike.
func BudgetCases(t testing.TB) []Case {
	t.Helper()
	return loadTables(t, HostileDir, "budget.json")
}

// loadTables reads the tables in dir (relative to the repository root) matching pattern.
func loadTables(t testing.TB, dir, pattern string) []Case {
	t.Helper()
	dir = filepath.Join(RepoRoot(t), filepath.FromSlash(dir))
	files, err := filepath.Glob(filepath.Join(dir, pattern))
	if err != nil {
		t.Fatalf("edgetest: bad pattern %q: %v", pattern, err)
	}
	sort.Strings(files)
	if len(files) == 0 {
		t.Fatalf("edgetest: no conformance table matches %s", filepath.Join(dir, pattern))
	}
	var all []Case
	seen := map[string]string{}
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatalf("edgetest: %v", err)
		}
		cases, err := ParseCases(data)
		if err != nil {
			t.Fatalf("edgetest: %s: %v", filepath.Base(file), err)
		}
		for i := range cases {
			cases[i].File = filepath.Base(file)
			if prev, dup := seen[cases[i].Name]; dup {
				t.Fatalf("edgetest: %s: case %q is also in %s", cases[i].File, cases[i].Name, prev)
			}
			seen[cases[i].Name] = cases[i].File
		}
		all = append(all, cases...)
	}
	return all
}

// ParseCases decodes one table (a JSON array of cases) and checks its form.
func ParseCases(data []byte) ([]Case, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var cases []Case
	if err := dec.Decode(&cases); err != nil {
		return nil, err
	}
	if dec.More() {
		return nil, fmt.Errorf("data after the array of cases")
	}
	names := map[string]bool{}
	for i, c := range cases {
		where := fmt.Sprintf("case %d (%q)", i, c.Name)
		switch {
		case strings.TrimSpace(c.Name) == "":
			return nil, fmt.Errorf("case %d has no name", i)
		case names[c.Name]:
			return nil, fmt.Errorf("%s: duplicate name", where)
		case c.Request.Method == "" || !strings.HasPrefix(c.Request.Path, "/"):
			return nil, fmt.Errorf("%s: request needs a method and a path starting with /", where)
		case c.Expect.Status < 100 || c.Expect.Status > 599:
			return nil, fmt.Errorf("%s: expect.status missing or invalid", where)
		case c.Expect.Status >= 400 && c.Expect.Code == "":
			return nil, fmt.Errorf("%s: an error case needs expect.code", where)
		case c.Expect.Status < 400 && c.Expect.Code != "":
			return nil, fmt.Errorf("%s: expect.code on a success case", where)
		case c.Expect.TotalItems == nil && c.Expect.IDs != nil && len(*c.Expect.IDs) != 1:
			return nil, fmt.Errorf("%s: a single-item case (no totalItems) needs exactly one id", where)
		}
		names[c.Name] = true
		if raw := bytes.TrimSpace(c.Request.Body); len(raw) > 0 && raw[0] == '"' {
			var s string
			if err := json.Unmarshal(raw, &s); err != nil {
				return nil, fmt.Errorf("%s: request.body: %v", where, err)
			}
		}
		if _, err := c.Expect.exactBody(); err != nil {
			return nil, fmt.Errorf("%s: expect.body: %v", where, err)
		}
	}
	return cases, nil
}
