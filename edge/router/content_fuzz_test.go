package router

import (
	"encoding/json"
	"net/url"
	"strings"
	"testing"

	"github.com/cdaedge/cdaedge/edge"
	"github.com/cdaedge/cdaedge/snapshot"
	"github.com/tidwall/gjson"
)

// FuzzContentShapes builds an environment whose items carry members of arbitrary names
// and values, and sends it requests of every style over those members: every answer is
// a 200 or a 4xx D8 envelope, never a panic, a stack overflow or a 5xx. A member named
// with a '*' once sent any query over every field into endless pattern expansion: the
// builder and the engine must take whatever names an item's members have. (Arrays of
// many values are TestAggregationsOverALongArray's.)
func FuzzContentShapes(f *testing.F) {
	for _, seed := range []struct{ a, b, text string }{
		{"title", "tags", "coffee espresso"},
		{"a*b", "x^2", "espresso"},
		{"*", "", "star"},
		{"a.b", "keyword", "dotted value"},
		{"?", "\\", "q"},
		{"[", "n*", "1"},
		{"__typename", "1abc", "<b>bold</b> text"},
		{"Data", "ContentID", "2021-04-23T10:00:00.000Z"},
		{"Ωmega", "é", "ünïcödé 京都"},
	} {
		f.Add(seed.a, seed.b, seed.text)
	}
	f.Fuzz(func(t *testing.T, a, b, text string) {
		if len(a)+len(b)+len(text) > 512 {
			return
		}
		r, ok := fuzzContentRouter(a, b, text)
		if !ok {
			return // the builder refused the items: its own error, not the engine's
		}
		for _, req := range fuzzContentRequests(a, b, text) {
			resp := r.Serve(req)
			if resp.Status >= 500 || (resp.Status >= 400 && gjson.GetBytes(resp.Body, "error.code").String() == "" &&
				gjson.GetBytes(resp.Body, "errors").String() == "") {
				t.Fatalf("%s %s?%s %s: %d %s", req.Method, req.Path, req.RawQuery, req.Body, resp.Status, resp.Body)
			}
		}
	})
}

// fuzzContentRouter serves environment "shapes" of three items built around members
// named a and b holding text (false when the writer refuses them).
func fuzzContentRouter(a, b, text string) (*Router, bool) {
	js := func(v any) string { out, _ := json.Marshal(v); return string(out) }
	var arr []any
	for i := range 40 {
		arr = append(arr, i%7, text)
	}
	items := []string{
		`{"ContentID":"Content_1","Status":"Published","Name":` + js(text) + `,"Data":{` + js(a) + `:` + js(text) + `,` + js(b) + `:` + js(arr) + `}}`,
		`{"ContentID":"Content_2","Status":"Published","Name":"two","Data":{` + js(b) + `:{` + js(a) + `:` + js(text) + `},"n":5}}`,
		`{"ContentID":"Content_3","Status":"Published","Name":"three",` + js(a) + `:` + js(text) + `,"Data":{` + js(a) + `:[1.5,` + js(text) + `,{` + js(b) + `:true}]}}`,
	}
	w, err := snapshot.NewWriter("shapes", false)
	if err != nil {
		return nil, false
	}
	for _, it := range items {
		if err := w.Add([]byte(it)); err != nil {
			return nil, false
		}
	}
	data, err := w.Bytes()
	if err != nil {
		return nil, false
	}
	snap, err := snapshot.Open(data)
	if err != nil {
		return nil, false
	}
	r := New(Options{})
	r.Load(snap)
	return r, true
}

// fuzzContentRequests are the requests FuzzContentShapes sends: the three query styles
// over the fields named a and b (and patterns of them), text as the words sought.
func fuzzContentRequests(a, b, text string) []*edge.Request {
	js := func(v any) string { out, _ := json.Marshal(v); return string(out) }
	fa, fb := "Data."+a, "Data."+b
	word := strings.Fields(text + " x")[0]
	var bodies []string
	for _, f := range []string{fa, fb, fb + "." + a, fa + ".keyword", "Data.*", a} {
		bodies = append(bodies,
			`{"query":{"match":{`+js(f)+`:`+js(text)+`}}}`,
			`{"query":{"term":{`+js(f)+`:`+js(word)+`}}}`,
			`{"query":{"prefix":{`+js(f)+`:`+js(word)+`}}}`,
			`{"query":{"wildcard":{`+js(f)+`:`+js(word+"*")+`}}}`,
			`{"query":{"range":{`+js(f)+`:{"gte":1}}}}`,
			`{"query":{"exists":{"field":`+js(f)+`}}}`,
			`{"query":{"query_string":{"query":`+js(text)+`,"fields":[`+js(f)+`]}}}`,
			`{"query":{"multi_match":{"query":`+js(text)+`,"fields":[`+js(f)+`]}}}`,
			`{"query":{"match_phrase":{`+js(f)+`:`+js(text)+`}}}`,
			`{"size":0,"aggs":{"t":{"terms":{"field":`+js(f)+`},"aggs":{"c":{"cardinality":{"field":`+js(f)+`}}}}}}`,
			`{"size":0,"aggs":{"h":{"histogram":{"field":`+js(f)+`,"interval":2}},"s":{"stats":{"field":`+js(f)+`}}}}`,
			`{"sort":[{`+js(f)+`:"desc"}]}`,
			`{"_source":[`+js(f)+`]}`,
		)
	}
	bodies = append(bodies,
		`{"query":{"query_string":{"query":`+js(text)+`}}}`,
		`{"query":{"simple_query_string":{"query":`+js(text)+`}}}`,
		`{"query":{"multi_match":{"query":`+js(text)+`}}}`,
		`{"query":{"query_string":{"query":`+js(text)+`}},"sort":["_score",{"Name.keyword":"asc"}],"size":2}`,
	)
	var reqs []*edge.Request
	for _, body := range bodies {
		reqs = append(reqs, &edge.Request{Method: "POST", Path: "/cda/es/v1/shapes", Body: []byte(body)})
	}
	rest := "/cda/rest/v1/shapes/contents"
	reqs = append(reqs,
		&edge.Request{Method: "GET", Path: rest, RawQuery: "fields=" + url.QueryEscape(fa) + "&sort=" + url.QueryEscape(fb)},
		&edge.Request{Method: "GET", Path: rest, RawQuery: "searchByName=" + url.QueryEscape(text)},
		&edge.Request{Method: "GET", Path: rest + "/Content_1"},
		&edge.Request{Method: "POST", Path: "/cda/graphql/v1/shapes", Body: []byte(`{"query":"{ content(pageSize: 3) { Name Data ContentID } }"}`)},
		&edge.Request{Method: "GET", Path: "/cda/graphql/v1/shapes/schema.graphql"},
	)
	return reqs
}
