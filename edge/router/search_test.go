package router_test

import (
	"strings"
	"testing"

	"github.com/cdaedge/cdaedge/edge"
	"github.com/cdaedge/cdaedge/edge/edgetest"
)

// TestSearchConformance runs testdata/conformance/search.json against the native router
// (API.md D4–D12 for the search endpoint).
func TestSearchConformance(t *testing.T) {
	edgetest.RunCases(t, edgetest.NativeHandler(t), edgetest.LoadCases(t, "search.json"))
}

// TestValidateInvalidD10 checks the valid:false answers of _validate/query (D10). They
// are not in the conformance table: its D8 envelope check takes any "error" member for
// an error object, while D10 makes it a string here.
func TestValidateInvalidD10(t *testing.T) {
	h := edgetest.NativeHandler(t)
	cases := []struct{ query, body, want string }{
		{"explain=true", `{"query":{"nope":{}}}`, `{"status":200,"valid":false,"error":"[query] unknown query clause type [nope]; supported:`},
		{"explain=true", `{"query":{"match_all":{}},"size":1}`, `{"status":200,"valid":false,"error":"request does not support [size]; _validate/query takes only \"query\""}`},
		{"explain=true", `{"query":{"query_string":{"query":"(a AND b","default_field":"f"}}}`, `{"status":200,"valid":false,"error":"[query.query_string.query] syntax error at position`},
		{"", `{"query":{"nope":{}}}`, `{"status":200,"valid":false}`},
	}
	for _, c := range cases {
		resp, err := h.Serve(&edge.Request{Method: "POST", Path: "/cda/es/v1/demo/_validate/query", RawQuery: c.query, Body: []byte(c.body)})
		if err != nil {
			t.Fatal(err)
		}
		if resp.Status != 200 || !strings.HasPrefix(string(resp.Body), c.want) {
			t.Errorf("%s\n got: %d %s\nwant prefix: %s", c.body, resp.Status, resp.Body, c.want)
		}
	}
}

// TestSearchResponseShapeD8D12 checks the envelope: status, data, totalItems, and
// aggregations last, and that a HEAD or 304 carries no body.
func TestSearchResponseShapeD8D12(t *testing.T) {
	h := edgetest.NativeHandler(t)
	resp, err := h.Serve(&edge.Request{Method: "POST", Path: "/cda/es/v1/demo",
		Body: []byte(`{"size":1,"_source":["Name"],"aggs":{"n":{"value_count":{"field":"Name.keyword"}}}}`)})
	if err != nil {
		t.Fatal(err)
	}
	want := `{"status":200,"data":[{"Name":"What payment methods do you accept?","ContentID":"Content_b8c3378b-3431-44a1-8e41-3592eba852f7"}],"totalItems":35,"aggregations":{"n":{"value":34}}}`
	if string(resp.Body) != want {
		t.Errorf("body\n got: %s\nwant: %s", resp.Body, want)
	}
}

// TestJavaDouble checks metric values print as Elasticsearch (Java) prints doubles.
func TestJavaDouble(t *testing.T) {
	h := edgetest.NativeHandler(t)
	resp, _ := h.Serve(&edge.Request{Method: "POST", Path: "/cda/es/v1/demo",
		Body: []byte(`{"size":0,"aggs":{"s":{"sum":{"field":"Data.menuOrder"}},"d":{"min":{"field":"UpdatedAt"}}}}`)})
	for _, part := range []string{`"s":{"value":13.0}`, `"d":{"value":1.`, `E12,"value_as_string":"`} {
		if !strings.Contains(string(resp.Body), part) {
			t.Errorf("body %s lacks %s", resp.Body, part)
		}
	}
}
