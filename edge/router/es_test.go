package router

import (
	"strings"
	"testing"

	"github.com/cdaedge/cdaedge/edge"
	"github.com/tidwall/gjson"
)

// checkESAnswer fails unless resp is a 200 JSON answer or Elasticsearch's error object
// with a 4xx status, carrying the product header.
func checkESAnswer(t *testing.T, what string, resp *edge.Response) {
	t.Helper()
	if edge.HeaderValue(resp.Headers, "X-Elastic-Product") != "Elasticsearch" {
		t.Fatalf("%s: no product header", what)
	}
	if !gjson.ValidBytes(resp.Body) {
		t.Fatalf("%s: invalid JSON: %s", what, resp.Body)
	}
	switch {
	case resp.Status == 200:
	case resp.Status >= 400 && resp.Status < 500:
		if gjson.GetBytes(resp.Body, "error.type").String() == "" || gjson.GetBytes(resp.Body, "status").Int() != int64(resp.Status) {
			t.Fatalf("%s: %d without Elasticsearch's error object: %s", what, resp.Status, resp.Body)
		}
	default:
		t.Fatalf("%s: status %d: %s", what, resp.Status, resp.Body)
	}
}

// FuzzESRoutes feeds arbitrary bodies to _search (highlight included) and _msearch:
// every answer is a 200 or a 4xx in Elasticsearch's error shape, never a panic or a 5xx.
func FuzzESRoutes(f *testing.F) {
	for _, seed := range []string{
		``, `{}`, `{"query":{"match":{"Name":"home"}},"highlight":{"fields":{"*":{}}}}`,
		`{"query":{"query_string":{"query":"caf* OR müller~1"}},"highlight":{"pre_tags":["[","("],"post_tags":["]",")"],"fields":{"Name":{"number_of_fragments":0}}}}`,
		`{"query":{"regexp":{"Name":"w.*"}},"highlight":{"fields":[{"Name":{"fragment_size":1,"order":"score"}}],"encoder":"html"}}`,
		`{"highlight":{"fields":{"Name":{}},"highlight_query":{"wildcard":{"Name":"*o*"}},"no_match_size":3}}`,
		"{\"index\":\"unit\"}\n{}\n", "\n{\"size\":0}\n{\"index\":[\"unit\"]}\n{\"query\":{\"bogus\":{}}}\n", "{\"index\":\n",
	} {
		f.Add(seed)
	}
	r, framed := unitRouter(f, Options{}, false), framingTwin(f)
	f.Fuzz(func(t *testing.T, body string) {
		for _, path := range []string{"/cda/es/v1/unit/_search", "/cda/es/v1/unit/_msearch", "/cda/es/v1/_msearch", "/cda/es/v1/unit/_count"} {
			checkESAnswer(t, path+" "+body, checkSameFramed(t, r, framed, &edge.Request{Method: "POST", Path: path, Body: []byte(body)}))
		}
	})
}

// TestHighlightSpendsTheBudget: highlighting is work of the request, so a budget too
// small for it stops the request with too_complex.
func TestHighlightSpendsTheBudget(t *testing.T) {
	body := `{"query":{"match_all":{}},"highlight":{"fields":{"Name":{}}}}`
	plain := `{"query":{"match_all":{}}}`
	var stepsPlain, stepsHighlight int64
	for steps := int64(1); steps < 10000 && (stepsPlain == 0 || stepsHighlight == 0); steps++ {
		r := unitRouter(t, Options{MaxSteps: steps}, false)
		if stepsPlain == 0 && r.Serve(&edge.Request{Method: "POST", Path: "/cda/es/v1/unit/_search", Body: []byte(plain)}).Status == 200 {
			stepsPlain = steps
		}
		if stepsHighlight == 0 && r.Serve(&edge.Request{Method: "POST", Path: "/cda/es/v1/unit/_search", Body: []byte(body)}).Status == 200 {
			stepsHighlight = steps
		}
	}
	if stepsPlain == 0 || stepsHighlight <= stepsPlain {
		t.Fatalf("a search needs %d steps, with highlight %d: highlight spends nothing", stepsPlain, stepsHighlight)
	}
	r := unitRouter(t, Options{MaxSteps: stepsPlain}, false)
	resp := r.Serve(&edge.Request{Method: "POST", Path: "/cda/es/v1/unit/_search", Body: []byte(body)})
	if resp.Status != 400 || gjson.GetBytes(resp.Body, "error.type").String() != "too_complex_exception" {
		t.Fatalf("highlight over the budget: %d %s", resp.Status, resp.Body)
	}
}

// TestHighlightUnit checks the highlighter's choices on the unit environment.
func TestHighlightUnit(t *testing.T) {
	r := unitRouter(t, Options{}, false)
	for _, tc := range []struct{ name, body, want string }{
		{"term", `{"query":{"match":{"Name":"home"}},"highlight":{"fields":{"Name":{}}}}`, `{"Name":["Welcome <em>home</em>"]}`},
		{"case folded in the text", `{"query":{"match":{"Name":"café"}},"highlight":{"fields":{"Name":{}}}}`, `{"Name":["<em>Café</em> Müller"]}`},
		{"fuzzy", `{"query":{"fuzzy":{"Name":{"value":"muller","fuzziness":1}}},"highlight":{"fields":{"Name":{}}}}`, `{"Name":["Café <em>Müller</em>"]}`},
		{"wildcard and several tags", `{"query":{"query_string":{"query":"Name:(w*e OR home)"}},"highlight":{"pre_tags":["<a>","<b>"],"post_tags":["</a>","</b>"],"fields":{"Name":{}}}}`, `{"Name":["<a>Welcome</a> <b>home</b>"]}`},
		{"keyword terms mark nothing", `{"query":{"term":{"Name.keyword":"Welcome home"}},"highlight":{"fields":{"Name":{}}}}`, ``},
		{"no_match_size", `{"query":{"term":{"Name.keyword":"Welcome home"}},"highlight":{"fields":{"Name":{"no_match_size":4}}}}`, `{"Name":["Welc"]}`},
	} {
		resp := r.Serve(&edge.Request{Method: "POST", Path: "/cda/es/v1/unit/_search", Body: []byte(tc.body)})
		checkESAnswer(t, tc.name, resp)
		got := gjson.GetBytes(resp.Body, "hits.hits.0.highlight").Raw
		if got != tc.want {
			t.Errorf("%s: highlight %s, want %s", tc.name, got, tc.want)
		}
	}
}

// TestClassifyES: the Elasticsearch-compatible routes in the one route table.
func TestClassifyES(t *testing.T) {
	for path, want := range map[string]string{
		"/cda/es/v1": "es.info", "/cda/es/v1/": "es.info", "/cda/es/v1/demo/_search": "es._search",
		"/cda/es/v1/demo/_count": "es._count", "/cda/es/v1/demo/_msearch": "es._msearch", "/cda/es/v1/_msearch": "es._msearch",
		"/cda/es/v1/demo": "es.search", "/cda/es/v1/demo/_other": "other",
	} {
		if rt, _ := Classify(path); rt.String() != want {
			t.Errorf("Classify(%q) = %s, want %s", path, rt, want)
		}
	}
	if !strings.Contains(RouteESMsearch.Allowed(), "POST") {
		t.Error("_msearch does not take POST")
	}
}
