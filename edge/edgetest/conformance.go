package edgetest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/cdaedge/cdaedge/edge"
)

// ContentType is the Content-Type of every JSON response (API.md D8).
const ContentType = "application/json; charset=utf-8"

// GraphQLResponseType is the Content-Type of the GraphQL standard mode's answers in
// GraphQL over HTTP's own media type (D9): {"data":...} and {"errors":[...]}, with no
// envelope.
const GraphQLResponseType = "application/graphql-response+json; charset=utf-8"

// TransportHeaders are headers that an HTTP server in front of the router (Node,
// workerd, a test server) may add or rewrite. They are ignored when a runtime's headers
// are compared with the native router's; Content-Length, when present, must still equal
// the body's length. Names are in canonical form.
var TransportHeaders = []string{
	"Alt-Svc", "Cf-Cache-Status", "Cf-Ray", "Connection", "Content-Length", "Date",
	"Keep-Alive", "Nel", "Report-To", "Server", "Transfer-Encoding",
}

// RunConformance runs every case of every table in testdata/conformance, the expensive
// shapes of testdata/hostile/budget.json (BudgetCases) and the stored Lucene cases
// (LuceneCases), against h, one
// subtest per case (named after the case). Each case checks the case's expectations
// and the envelope rules of API.md D8, and, unless h is the native router itself,
// that h answers exactly as NativeHandler does: the same status, the same body bytes
// and the same headers (apart from TransportHeaders).
func RunConformance(t *testing.T, h Handler) {
	t.Helper()
	cases := append(LoadCases(t, "*.json"), BudgetCases(t)...)
	RunCases(t, h, append(cases, LuceneCases(t)...))
}

// RunCases is RunConformance over the given cases, for a runtime that runs a subset.
// Cases run one after another: handlers need not be safe for concurrent use.
func RunCases(t *testing.T, h Handler, cases []Case) {
	t.Helper()
	var native Handler
	if _, isNative := h.(*nativeHandler); !isNative {
		native = NativeHandler(t)
	}
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			got, err := h.Serve(c.Request.HTTP())
			if err != nil {
				t.Fatalf("%s: the runtime failed: %v", describe(c.Request), err)
			}
			if got == nil {
				t.Fatalf("%s: the runtime returned no response", describe(c.Request))
			}
			for _, problem := range CheckResponse(c, got) {
				t.Errorf("%s: %s", describe(c.Request), problem)
			}
			if native != nil {
				want, err := native.Serve(c.Request.HTTP())
				if err != nil || want == nil {
					t.Fatalf("%s: the native router failed: %v", describe(c.Request), err)
				}
				for _, problem := range CompareResponses(want, got) {
					t.Errorf("%s: differs from the native router: %s", describe(c.Request), problem)
				}
			}
			if t.Failed() {
				t.Logf("response: %d %s\n%s", got.Status, formatHeaders(got.Headers), clip(got.Body))
			}
		})
	}
}

// CheckResponse returns every way in which resp fails case c: its expectations and the
// envelope rules of D8. An empty result means the response is right.
func CheckResponse(c Case, resp *edge.Response) []string {
	var problems []string
	fail := func(format string, args ...any) { problems = append(problems, fmt.Sprintf(format, args...)) }
	e := c.Expect

	if resp.Status != e.Status {
		fail("status %d, want %d", resp.Status, e.Status)
	}
	esAnswer := isESAnswer(resp)
	if esAnswer {
		problems = append(problems, checkESResponse(c, resp)...)
	} else {
		problems = append(problems, checkEnvelope(resp)...)
	}

	for name, want := range e.Headers {
		if got, ok := header(resp.Headers, name); !ok {
			fail("header %s missing, want %q", name, want)
		} else if got != want {
			fail("header %s = %q, want %q", name, got, want)
		}
	}
	for name, part := range e.HeadersContain {
		if got, ok := header(resp.Headers, name); !ok {
			fail("header %s missing, want it to contain %q", name, part)
		} else if !strings.Contains(got, part) {
			fail("header %s = %q, want it to contain %q", name, got, part)
		}
	}
	for _, part := range e.BodyContains {
		if !bytes.Contains(resp.Body, []byte(part)) {
			fail("body does not contain %q", part)
		}
	}
	for _, part := range e.BodyNotContains {
		if bytes.Contains(resp.Body, []byte(part)) {
			fail("body contains %q", part)
		}
	}
	if want, _ := e.exactBody(); want != nil && !bytes.Equal(resp.Body, want) {
		fail("body differs from the expected body:\n got: %s\nwant: %s", clip(resp.Body), clip(want))
	}

	if esAnswer || e.TotalItems == nil && e.IDs == nil && e.Code == "" {
		return problems
	}
	var env struct {
		Data       json.RawMessage `json:"data"`
		TotalItems *int            `json:"totalItems"`
		Error      *struct {
			Code string `json:"code"`
		} `json:"error"`
		// Errors is GraphQL's form (D8, and the standard mode's only form, D9).
		Errors []struct {
			Extensions struct {
				Code string `json:"code"`
			} `json:"extensions"`
		} `json:"errors"`
	}
	if err := json.Unmarshal(resp.Body, &env); err != nil {
		return append(problems, fmt.Sprintf("body is not a JSON object: %v", err))
	}
	if e.Code != "" {
		switch {
		case env.Error == nil && len(env.Errors) > 0:
			if got := env.Errors[0].Extensions.Code; got != e.Code {
				fail("errors[0].extensions.code %q, want %q", got, e.Code)
			}
		case env.Error == nil:
			fail("no error member, want code %q", e.Code)
		case env.Error.Code != e.Code:
			fail("error code %q, want %q", env.Error.Code, e.Code)
		}
	}
	if e.TotalItems != nil {
		switch {
		case env.TotalItems == nil:
			fail("no totalItems, want %d", *e.TotalItems)
		case *env.TotalItems != *e.TotalItems:
			fail("totalItems %d, want %d", *env.TotalItems, *e.TotalItems)
		}
	}
	if e.IDs != nil {
		ids, isList, err := dataIDs(env.Data)
		switch {
		case err != nil:
			fail("data: %v", err)
		case e.TotalItems != nil && !isList:
			fail("data is not an array")
		case e.TotalItems == nil && isList:
			fail("data is an array, want a single item")
		case !slices.Equal(ids, *e.IDs):
			fail("ids differ\n got: %s\nwant: %s", strings.Join(ids, " "), strings.Join(*e.IDs, " "))
		}
	}
	return problems
}

// dataIDs returns the ContentIDs of data: an array of items, or one item.
func dataIDs(data json.RawMessage) (ids []string, isList bool, err error) {
	type item struct {
		ContentID *string `json:"ContentID"`
	}
	data = bytes.TrimSpace(data)
	if len(data) > 0 && data[0] == '[' {
		var items []item
		if err := json.Unmarshal(data, &items); err != nil {
			return nil, true, err
		}
		ids = []string{}
		for i, it := range items {
			if it.ContentID == nil {
				return nil, true, fmt.Errorf("item %d has no ContentID", i)
			}
			ids = append(ids, *it.ContentID)
		}
		return ids, true, nil
	}
	var it item
	if err := json.Unmarshal(data, &it); err != nil {
		return nil, false, fmt.Errorf("not an item or an array of items: %v", err)
	}
	if it.ContentID == nil {
		return nil, false, fmt.Errorf("the item has no ContentID")
	}
	return []string{*it.ContentID}, false, nil
}

// checkEnvelope checks the rules of D8 that hold for every response: the content type,
// compact JSON (D2), the "status" member first and equal to the HTTP status, the member order of success
// envelopes, the error envelope of every error, and the Allow header of a 405.
func checkEnvelope(resp *edge.Response) []string {
	var problems []string
	fail := func(format string, args ...any) { problems = append(problems, fmt.Sprintf(format, args...)) }
	if resp.Status == 204 || resp.Status == 304 {
		if len(resp.Body) != 0 {
			fail("a %d has a body", resp.Status)
		}
		return problems
	}
	ct, _ := header(resp.Headers, "Content-Type")
	if ct == GraphQLResponseType {
		return append(problems, checkGraphQLResponse(resp)...)
	}
	if resp.Status == 200 && ct != "" && !strings.HasPrefix(ct, "application/json") {
		// A non-JSON document (the GraphQL SDL at schema.graphql): no envelope to
		// check; the byte-for-byte comparison with the native router still applies.
		return problems
	}
	if ct != ContentType {
		fail("Content-Type %q, want %q (D8)", ct, ContentType)
	}
	if resp.Status == 405 {
		if allow, ok := header(resp.Headers, "Allow"); !ok || allow == "" {
			fail("a 405 without an Allow header (D8)")
		}
	}
	members, err := topLevelMembers(resp.Body)
	if err != nil {
		return append(problems, fmt.Sprintf("body is not a JSON object (D8): %v", err))
	}
	var compact bytes.Buffer
	if json.Compact(&compact, resp.Body) == nil && !bytes.Equal(compact.Bytes(), resp.Body) {
		fail("body is not compact JSON (D2)")
	}
	if resp.Status >= 400 {
		if len(members) < 2 || members[0].name != "status" || members[1].name != "error" {
			fail("error body members %v, want status, error first (D8)", names(members))
		}
	} else if len(members) > 0 && members[0].name != "status" && slices.ContainsFunc(members, isNamed("status")) {
		fail("body members %v, want status first (D8)", names(members))
	}
	for _, m := range members {
		switch m.name {
		case "status":
			if string(m.value) != fmt.Sprint(resp.Status) {
				fail("body status %s, HTTP status %d (D8)", m.value, resp.Status)
			}
		case "error":
			if resp.Status < 400 {
				// _validate/query answers an invalid query with a 200 whose error is
				// a plain message (D10); only error responses carry the D8 object.
				continue
			}
			var e struct {
				Code    *string `json:"code"`
				Message *string `json:"message"`
			}
			if err := json.Unmarshal(m.value, &e); err != nil || e.Code == nil || e.Message == nil || *e.Message == "" {
				fail("error member %s, want {\"code\":…,\"message\":…} (D8)", clip(m.value))
			}
		}
	}
	// Success envelope order: status, data, totalItems, aggregations (D8, D12).
	order := []string{"status", "data", "totalItems", "aggregations"}
	last := -1
	for _, m := range members {
		if i := slices.Index(order, m.name); i >= 0 {
			if i < last {
				fail("body members %v, want the order %v (D8, D12)", names(members), order)
				break
			}
			last = i
		}
	}
	return problems
}

// checkGraphQLResponse checks an answer of the GraphQL standard mode (D9): compact JSON,
// a GraphQL response (data, errors, extensions; errors a list of objects with a
// message) or a list of them (a batch); an answer without data is an error status,
// one with data is 200.
func checkGraphQLResponse(resp *edge.Response) []string {
	var problems []string
	fail := func(format string, args ...any) { problems = append(problems, fmt.Sprintf(format, args...)) }
	var compact bytes.Buffer
	if err := json.Compact(&compact, resp.Body); err != nil || !bytes.Equal(compact.Bytes(), resp.Body) {
		fail("body is not compact JSON (D2)")
	}
	var results []json.RawMessage
	if body := bytes.TrimSpace(resp.Body); len(body) > 0 && body[0] == '[' {
		if err := json.Unmarshal(body, &results); err != nil || len(results) == 0 {
			return append(problems, fmt.Sprintf("a batch answer is not a non-empty list: %v", err))
		}
		if resp.Status != 200 {
			fail("a batch answers %d, want 200", resp.Status)
		}
	} else {
		results = []json.RawMessage{resp.Body}
	}
	for i, r := range results {
		members, err := topLevelMembers(r)
		if err != nil {
			fail("result %d is not a JSON object: %v", i, err)
			continue
		}
		hasData := false
		for _, m := range members {
			switch m.name {
			case "data":
				hasData = true
			case "errors":
				var errs []struct {
					Message *string `json:"message"`
				}
				if err := json.Unmarshal(m.value, &errs); err != nil || len(errs) == 0 || errs[0].Message == nil {
					fail("result %d: errors %s, want a list of {\"message\":…}", i, clip(m.value))
				}
			case "extensions":
			default:
				fail("result %d has a member %q; a GraphQL response has data, errors and extensions", i, m.name)
			}
		}
		if len(results) == 1 && hasData != (resp.Status == 200) {
			fail("status %d with data %v: a GraphQL response without data is an error status (D9)", resp.Status, hasData)
		}
	}
	return problems
}

type member struct {
	name  string
	value json.RawMessage
}

func isNamed(name string) func(member) bool { return func(m member) bool { return m.name == name } }

func names(ms []member) []string {
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = m.name
	}
	return out
}

// topLevelMembers returns the members of the JSON object body, in order.
func topLevelMembers(body []byte) ([]member, error) {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	if tok != json.Delim('{') {
		return nil, fmt.Errorf("starts with %v", tok)
	}
	var out []member
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		var value json.RawMessage
		if err := dec.Decode(&value); err != nil {
			return nil, err
		}
		out = append(out, member{name: tok.(string), value: value})
	}
	if _, err := dec.Token(); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err == nil {
		return nil, fmt.Errorf("data after the object")
	}
	return out, nil
}

// CompareResponses returns every difference between a runtime's response got and the
// native router's want: status, body bytes, and headers other than TransportHeaders
// (same values in the same order per name; got may not add headers of its own).
func CompareResponses(want, got *edge.Response) []string {
	var problems []string
	if got.Status != want.Status {
		problems = append(problems, fmt.Sprintf("status %d, native %d", got.Status, want.Status))
	}
	if !bytes.Equal(got.Body, want.Body) {
		problems = append(problems, fmt.Sprintf("body differs\n   got: %s\nnative: %s", clip(got.Body), clip(want.Body)))
	}
	if cl, ok := header(got.Headers, "Content-Length"); ok && cl != fmt.Sprint(len(got.Body)) {
		problems = append(problems, fmt.Sprintf("Content-Length %s, body has %d bytes", cl, len(got.Body)))
	}
	wantH, gotH := headerMap(want.Headers), headerMap(got.Headers)
	for name, wv := range wantH {
		if slices.Contains(TransportHeaders, name) {
			continue
		}
		if gv := gotH[name]; !slices.Equal(gv, wv) {
			problems = append(problems, fmt.Sprintf("header %s = %q, native %q", name, gv, wv))
		}
	}
	for name, gv := range gotH {
		if _, ok := wantH[name]; !ok && !slices.Contains(TransportHeaders, name) {
			problems = append(problems, fmt.Sprintf("extra header %s = %q", name, gv))
		}
	}
	return problems
}

// headerMap groups headers by canonical name, keeping the order of values.
func headerMap(hs []edge.Header) map[string][]string {
	m := map[string][]string{}
	for _, h := range hs {
		name := canonical(h.Name)
		m[name] = append(m[name], h.Value)
	}
	return m
}

// header returns the first value of the header name (case-insensitive).
func header(hs []edge.Header, name string) (string, bool) {
	for _, h := range hs {
		if strings.EqualFold(h.Name, name) {
			return h.Value, true
		}
	}
	return "", false
}

// canonical is the canonical form of a header name: "content-type" → "Content-Type".
func canonical(name string) string {
	b := []byte(strings.ToLower(name))
	upper := true
	for i, c := range b {
		if upper && 'a' <= c && c <= 'z' {
			b[i] = c - 'a' + 'A'
		}
		upper = c == '-'
	}
	return string(b)
}

func describe(r Request) string {
	s := r.Method + " " + r.Path
	if r.Query != "" {
		s += "?" + r.Query
	}
	return s
}

func formatHeaders(hs []edge.Header) string {
	parts := make([]string, len(hs))
	for i, h := range hs {
		parts[i] = h.Name + ": " + h.Value
	}
	return "[" + strings.Join(parts, "; ") + "]"
}

// clip shortens a body for a failure message.
func clip(b []byte) string {
	const max = 2000
	if len(b) <= max {
		return string(b)
	}
	return string(b[:max]) + fmt.Sprintf("… (%d bytes)", len(b))
}
