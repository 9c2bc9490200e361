package dsl

import (
	"strings"
	"testing"

	"github.com/cdaedge/cdaedge/edge"
	"github.com/cdaedge/cdaedge/edge/content"
	"github.com/cdaedge/cdaedge/edge/query"
	"github.com/cdaedge/cdaedge/snapshot"
)

// testSchema is a small fixed environment: text members, a number, a bool, the dates.
type testSchema struct{}

func (testSchema) FieldType(name string) content.FieldType {
	switch name {
	case "Name", "TemplateName", "Data.title", "Data.body", "Status":
		return content.TypeText
	case "Data.price":
		return content.TypeNumber
	case "Data.inStock":
		return content.TypeBool
	case "CreatedAt", "UpdatedAt":
		return content.TypeDate
	}
	return 0
}

func (testSchema) SortField(name string) (string, bool) {
	switch strings.ToLower(name) {
	case "name":
		return "Name", true
	case "createdat":
		return "CreatedAt", true
	}
	if name == "Data.price" {
		return name, true
	}
	return "", false
}

func (testSchema) TopLevel(name string) (string, bool) {
	for _, m := range snapshot.DocumentedMembers[:] {
		if strings.EqualFold(m, name) {
			return m, true
		}
	}
	return "", false
}

func (testSchema) FieldNames() []string {
	return []string{"CreatedAt", "Data.body", "Data.inStock", "Data.price", "Data.title", "Name", "Status", "TemplateName", "UpdatedAt"}
}

func decode(t *testing.T, body string, params ...Param) *Request {
	t.Helper()
	r, err := Decode(body, Options{Schema: testSchema{}, Params: params})
	if err != nil {
		t.Fatalf("Decode(%s): %v", body, err)
	}
	return r
}

// TestExplainD10 checks the compiled query, printed in Lucene's Query.toString()
// notation with every field named (D10), against Elasticsearch's rewrites.
func TestExplainD10(t *testing.T) {
	cases := []struct{ body, want string }{
		{``, `*:*`},
		{`{"query":{"match_all":{}}}`, `*:*`},
		{`{"query":{"match_all":{"boost":2}}}`, `(*:*)^2.0`},
		{`{"query":{"match_none":{}}}`, `MatchNoDocsQuery("")`},
		{`{"query":{"match":{"Name":"Café Müller"}}}`, `Name:café Name:müller`},
		{`{"query":{"match":{"Name":{"query":"a b","operator":"AND"}}}}`, `+Name:a +Name:b`},
		{`{"query":{"match":{"Name":{"query":"a b c","minimum_should_match":"2"}}}}`, `(Name:a Name:b Name:c)~2`},
		{`{"query":{"match":{"Name":{"query":"a b c d","minimum_should_match":"-25%"}}}}`, `(Name:a Name:b Name:c Name:d)~3`},
		{`{"query":{"match":{"Name":{"query":"a b c d e","minimum_should_match":"75%"}}}}`, `(Name:a Name:b Name:c Name:d Name:e)~3`},
		{`{"query":{"match":{"Name":{"query":"a b c","minimum_should_match":"3<90%"}}}}`, `(Name:a Name:b Name:c)~3`},
		{`{"query":{"match":{"Name":{"query":"ab espresso coffees","fuzziness":"AUTO"}}}}`, `Name:ab~0 Name:espresso~2 Name:coffees~2`},
		{`{"query":{"match":{"Name":{"query":"cafe","fuzziness":1}}}}`, `Name:cafe~1`},
		{`{"query":{"match":{"Name":"!!"}}}`, `MatchNoDocsQuery("")`},
		{`{"query":{"match":{"Name":{"query":"!!","zero_terms_query":"all"}}}}`, `*:*`},
		{`{"query":{"match":{"Name.keyword":"Café Müller"}}}`, `Name.keyword:Café Müller`},
		{`{"query":{"match":{"Data.price":"10"}}}`, `Data.price:[10 TO 10]`},
		{`{"query":{"match_phrase":{"Name":{"query":"quiet temples","slop":2}}}}`, `Name:"quiet temples"~2`},
		{`{"query":{"match_phrase":{"Name":"temples"}}}`, `Name:temples`},
		{`{"query":{"match_phrase_prefix":{"Name":"quiet tem"}}}`, `Name:"quiet tem*"`},
		{`{"query":{"match_phrase_prefix":{"Name":"tem"}}}`, `Name:"tem*"`}, // as Elasticsearch prints MultiPhrasePrefixQuery
		{`{"query":{"match_bool_prefix":{"Name":"quick brown f"}}}`, `Name:quick Name:brown Name:f*`},
		{`{"query":{"multi_match":{"query":"café","fields":["Name^2","Data.title"]}}}`, `((Name:café)^2.0 | Data.title:café)`},
		{`{"query":{"multi_match":{"query":"café","fields":["Name","Data.title"],"type":"most_fields"}}}`, `(Name:café | Data.title:café)~1.0`},
		{`{"query":{"multi_match":{"query":"café","fields":["Data.*"],"tie_breaker":0.3}}}`, `(Data.body:café | Data.title:café)~0.3`},
		{`{"query":{"multi_match":{"query":"a b","fields":["Name","Data.title"],"type":"phrase"}}}`, `(Name:"a b" | Data.title:"a b")`},
		{`{"query":{"term":{"Name.keyword":"Home"}}}`, `ConstantScore(Name.keyword:Home)`},
		{`{"query":{"term":{"Name":{"value":"Home","boost":2}}}}`, `(ConstantScore(Name:Home))^2.0`},
		{`{"query":{"term":{"Name.keyword":{"value":"home","case_insensitive":true}}}}`, `ConstantScore(Name.keyword:/[hH][oO][mM][eE]/)`},
		{`{"query":{"term":{"Data.price":10}}}`, `ConstantScore(Data.price:[10 TO 10])`},
		{`{"query":{"term":{"Data.inStock":true}}}`, `ConstantScore(Data.inStock:[true TO true])`},
		{`{"query":{"term":{"CreatedAt":"2019-01-14"}}}`, `ConstantScore(CreatedAt:[1547424000000 TO 1547510399999])`},
		{`{"query":{"terms":{"Name.keyword":["Home","About Us"]}}}`, `ConstantScore(Name.keyword:Home Name.keyword:About Us)`},
		{`{"query":{"terms":{"Name.keyword":[]}}}`, `MatchNoDocsQuery("")`},
		{`{"query":{"range":{"Data.price":{"gte":10,"lt":100}}}}`, `Data.price:[10 TO 100}`},
		{`{"query":{"range":{"CreatedAt":{"gte":"2020-01-01","lt":"2021-01-01"}}}}`, `CreatedAt:[1577836800000 TO 1609459199999]`},
		{`{"query":{"range":{"CreatedAt":{"gt":"2020-01-01T00:00:00+01:00"}}}}`, `CreatedAt:[1577833200001 TO *}`},
		{`{"query":{"range":{"CreatedAt":{"gte":"2020-01-01","time_zone":"+01:00"}}}}`, `CreatedAt:[1577833200000 TO *}`},
		{`{"query":{"range":{"Name":{"gte":"M"}}}}`, `Name:[M TO *}`},
		{`{"query":{"range":{"Data.price":{"from":1,"to":5,"include_upper":false}}}}`, `Data.price:[1 TO 5}`},
		{`{"query":{"range":{"Data.price":{}}}}`, `FieldExistsQuery [field=Data.price]`},
		{`{"query":{"prefix":{"Name":"Caf"}}}`, `Name:Caf*`},
		{`{"query":{"prefix":{"Name":{"value":"caf","case_insensitive":true}}}}`, `Name:/[cC][aA][fF].*/`},
		{`{"query":{"wildcard":{"Name":"Ca?e*"}}}`, `Name:Ca?e*`},
		{`{"query":{"wildcard":{"Name":{"wildcard":"c*","case_insensitive":true}}}}`, `Name:/[cC].*/`},
		{`{"query":{"regexp":{"Name":{"value":"ca[f-h]e.*","flags":"ALL"}}}}`, `Name:/ca[f-h]e.*/`},
		{`{"query":{"regexp":{"Name":{"value":"ca[f-h]e","case_insensitive":true}}}}`, `Name:/[cC][aA][f-hF-H][eE]/`},
		{`{"query":{"fuzzy":{"Name":"cafe"}}}`, `Name:cafe~1`},
		{`{"query":{"fuzzy":{"Name":{"value":"espresso","fuzziness":"AUTO:3,9"}}}}`, `Name:espresso~1`},
		{`{"query":{"exists":{"field":"Data.price"}}}`, `FieldExistsQuery [field=Data.price]`},
		{`{"query":{"exists":{"field":"Data"}}}`, `ConstantScore(FieldExistsQuery [field=Data.body] FieldExistsQuery [field=Data.inStock] FieldExistsQuery [field=Data.price] FieldExistsQuery [field=Data.title])`},
		{`{"query":{"ids":{"values":["Content_a","Content_b"]}}}`, `ContentID:(Content_a Content_b)`},
		{`{"query":{"bool":{"filter":[{"term":{"Status":"x"}}],"must":{"match":{"Name":"a"}},"should":[{"match":{"Name":"b"}}],"must_not":[{"match":{"Name":"c"}}]}}}`, `+Name:a -Name:c Name:b #ConstantScore(Status:x)`},
		{`{"query":{"bool":{"should":[{"match":{"Name":"a"}},{"match":{"Name":"b"}}],"minimum_should_match":1}}}`, `(Name:a Name:b)~1`},
		{`{"query":{"bool":{"must_not":{"match":{"Name":"a"}}}}}`, `-Name:a #*:*`},
		{`{"query":{"bool":{}}}`, `*:*`},
		{`{"query":{"bool":{"filter":[]}}}`, `*:*`},
		{`{"query":{"constant_score":{"filter":{"match":{"Name":"a"}},"boost":1.5}}}`, `(ConstantScore(Name:a))^1.5`},
		{`{"query":{"dis_max":{"queries":[{"match":{"Name":"a"}},{"match":{"Data.title":"a"}}],"tie_breaker":0.7}}}`, `(Name:a | Data.title:a)~0.7`},
	}
	for _, c := range cases {
		r := decode(t, c.body)
		if got := r.Query.String(); got != c.want {
			t.Errorf("%s\n got: %s\nwant: %s", c.body, got, c.want)
		}
	}
}

// TestErrorsD8D12 checks every malformed body gets the right code and a message that
// says where.
func TestErrorsD8D12(t *testing.T) {
	cases := []struct {
		body     string
		code     edge.Code
		contains string
		params   []Param
	}{
		{`{"query":`, edge.CodeInvalidJSON, "byte offset 9", nil},
		{`{"query":{"match_all":{}},}`, edge.CodeInvalidJSON, "byte offset 26", nil},
		{`{"size":01}`, edge.CodeInvalidJSON, "byte offset 9", nil},
		{"{\"a\":\"\x01\"}", edge.CodeInvalidJSON, "control character", nil},
		{`[1,2]`, edge.CodeInvalidArgument, "must be a JSON object", nil},
		{`{"query":{"foo":{}}}`, edge.CodeInvalidQuery, "unknown query clause type [foo]", nil},
		{`{"query":{"bool":{"must":[{"match_all":{}},{"nope":{}}]}}}`, edge.CodeInvalidQuery, "[query.bool.must[1]] unknown query clause type [nope]", nil},
		{`{"query":{}}`, edge.CodeInvalidQuery, "empty clause", nil},
		{`{"query":{"match_all":{},"match_none":{}}}`, edge.CodeInvalidQuery, "exactly one key", nil},
		{`{"query":{"match":{"Name":{"query":"a","opertor":"and"}}}}`, edge.CodeInvalidQuery, "does not support [opertor]", nil},
		{`{"query":{"match":{"Name":"a","Data.title":"b"}}}`, edge.CodeInvalidQuery, "multiple fields", nil},
		{`{"query":{"match":{"Name":{"query":"a","operator":5}}}}`, edge.CodeInvalidArgument, "[query.match.Name.operator] must be a string", nil},
		{`{"query":{"match":{"Name":{"query":"a","fuzziness":"lots"}}}}`, edge.CodeInvalidArgument, "fuzziness", nil},
		{`{"query":{"match":{"Name":{"query":"a","analyzer":"french"}}}}`, edge.CodeInvalidArgument, "analyzer [french] not found", nil},
		{`{"query":{"bool":{"must":"x"}}}`, edge.CodeInvalidArgument, "must be an object", nil},
		{`{"query":{"term":{"Data.price":"ten"}}}`, edge.CodeInvalidArgument, "must be a number", nil},
		{`{"query":{"range":{"CreatedAt":{"gte":"now-1d"}}}}`, edge.CodeInvalidArgument, "date math", nil},
		{`{"query":{"range":{"CreatedAt":{"gte":"2021-04-23Z"}}}}`, edge.CodeInvalidArgument, "2021-04-23Z", nil},
		{`{"query":{"terms":{"Name":"a"}}}`, edge.CodeInvalidArgument, "array", nil},
		{`{"from":-1}`, edge.CodeInvalidArgument, "[from] must be from 0", nil},
		{`{"size":10001}`, edge.CodeInvalidArgument, "[size]", nil},
		{`{"from":9995,"size":10}`, edge.CodeInvalidArgument, "from + size", nil},
		{`{"size":"ten"}`, edge.CodeInvalidArgument, "whole number", nil},
		{`{"from":1.5}`, edge.CodeInvalidArgument, "whole number", nil},
		{`{"from":0,"Page":2}`, edge.CodeInvalidArgument, "not both", nil},
		{`{"Page":0}`, edge.CodeInvalidArgument, "[Page]", nil},
		{`{"PageSize":10001}`, edge.CodeInvalidArgument, "[PageSize]", nil},
		{`{"Page":1001,"PageSize":10}`, edge.CodeInvalidArgument, "at most 10000", nil},
		{`{"sort":["Nope"]}`, edge.CodeInvalidArgument, "no item has the field [Nope]", nil},
		{`{"sort":[{"Name":"up"}]}`, edge.CodeInvalidArgument, "asc", nil},
		{`{"sort":"Name","Sort":"Name"}`, edge.CodeInvalidArgument, "not both", nil},
		{`{"SortAsc":"maybe"}`, edge.CodeInvalidArgument, "SortAsc", nil},
		{`{"highlight":{}}`, edge.CodeInvalidQuery, "not supported", nil},
		{`{"querry":{}}`, edge.CodeInvalidQuery, "unknown search body member \"querry\"", nil},
		{`{"_source":5}`, edge.CodeInvalidArgument, "_source", nil},
		{`{"aggs":{"a":{"terms":{"field":"Name"},"avg":{"field":"x"}}}}`, edge.CodeInvalidQuery, "two aggregation types", nil},
		{`{"aggs":{"a":{"histo":{"field":"x"}}}}`, edge.CodeInvalidQuery, "unknown aggregation type [histo]", nil},
		{`{"aggs":{"a":{"avg":{"field":"x"},"aggs":{"b":{"max":{"field":"y"}}}}}}`, edge.CodeInvalidQuery, "cannot accept sub-aggregations", nil},
		{`{"aggs":{"a":{"date_histogram":{"field":"CreatedAt","calendar_interval":"2d"}}}}`, edge.CodeInvalidArgument, "calendar interval", nil},
		{`{"aggs":{"a":{"date_histogram":{"field":"CreatedAt","interval":"day"}}}}`, edge.CodeInvalidArgument, "removed", nil},
		{`{"aggs":{"a":{"terms":{"field":"Name.keyword","order":{"nope":"desc"}}}}}`, edge.CodeInvalidArgument, "order path", nil},
		{`{"query":{"match_all":{}},"query":{"match_none":{}}}`, edge.CodeInvalidJSON, "duplicate member", nil},
		{`{"from":1}`, edge.CodeInvalidArgument, "both in the body and in the URL", []Param{{"from", "2"}}},
		{``, edge.CodeInvalidArgument, "[PageSize]", []Param{{"PageSize", "x"}}},
		{strings.Repeat("[", 100) + strings.Repeat("]", 100), edge.CodeTooComplex, "nesting depth", nil},
		{`{"query":{"terms":{"Name":[` + strings.Repeat(`"a",`, 70000) + `"a"]}}}`, edge.CodeTooComplex, "max terms count", nil},
	}
	for _, c := range cases {
		_, err := Decode(c.body, Options{Schema: testSchema{}, Params: c.params})
		e, ok := err.(*edge.Error)
		if !ok {
			t.Errorf("%.80s: error %v, want code %s", c.body, err, c.code)
			continue
		}
		if e.Code != c.code || !strings.Contains(e.Message, c.contains) {
			t.Errorf("%.80s:\n got %s %q\nwant %s containing %q", c.body, e.Code, e.Message, c.code, c.contains)
		}
	}
}

// TestClauseLimitD11 checks the 1024-clause limit (D11).
func TestClauseLimitD11(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"query":{"bool":{"should":[`)
	for i := 0; i < 1100; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`{"term":{"Name":"a"}}`)
	}
	b.WriteString(`]}}}`)
	_, err := Decode(b.String(), Options{})
	if e, ok := err.(*edge.Error); !ok || e.Code != edge.CodeTooComplex {
		t.Fatalf("got %v, want too_complex", err)
	}
	words := strings.Repeat("w ", 1100)
	_, err = Decode(`{"query":{"match":{"Name":"`+words+`"}}}`, Options{})
	if e, ok := err.(*edge.Error); !ok || e.Code != edge.CodeTooComplex {
		t.Fatalf("match of 1100 words: got %v, want too_complex", err)
	}
}

// TestPagingSortD6D7D12 checks paging members and every Elasticsearch sort form.
func TestPagingSortD6D7D12(t *testing.T) {
	r := decode(t, `{"from":5,"size":7}`)
	if r.From != 5 || r.Size != 7 {
		t.Errorf("from/size: %d %d", r.From, r.Size)
	}
	r = decode(t, `{"Page":"3","PageSize":4}`)
	if r.From != 8 || r.Size != 4 {
		t.Errorf("Page/PageSize: %d %d", r.From, r.Size)
	}
	r = decode(t, ``, Param{"Page", "2"}, Param{"PageSize", "5"}, Param{"cachebuster", "1"})
	if r.From != 5 || r.Size != 5 {
		t.Errorf("URL Page/PageSize: %d %d", r.From, r.Size)
	}
	r = decode(t, ``)
	if r.From != 0 || r.Size != 10 || len(r.Sort) != 0 {
		t.Errorf("defaults: %+v", r)
	}
	sorts := []struct {
		body string
		want []query.SortField
	}{
		{`{"sort":"name"}`, []query.SortField{{Field: "Name"}}},
		{`{"sort":[{"Name":"desc"}]}`, []query.SortField{{Field: "Name", Desc: true}}},
		{`{"sort":[{"CreatedAt":{"order":"desc","missing":"_last","mode":"max"}},"_score",{"Name.keyword":"asc"}]}`,
			[]query.SortField{{Field: "CreatedAt", Desc: true}, {Score: true, Desc: true}, {Field: "Name"}}},
		{`{"sort":[{"_score":{"order":"asc"}}]}`, []query.SortField{{Score: true}}},
		{`{"sort":["_doc"]}`, []query.SortField{{Field: "ContentID"}}},
		{`{"sort":[{"Nope":{"order":"asc","unmapped_type":"keyword"}},"Name"]}`, []query.SortField{{Field: "Name"}}},
		{`{"Sort":"name"}`, []query.SortField{{Field: "Name", Desc: true}}},
		{`{"Sort":"Data.price","SortAsc":true}`, []query.SortField{{Field: "Data.price"}}},
		{`{"SortAsc":"TRUE"}`, []query.SortField{{Field: "CreatedAt"}}},
	}
	for _, s := range sorts {
		r := decode(t, s.body)
		if len(r.Sort) != len(s.want) {
			t.Errorf("%s: sort %+v, want %+v", s.body, r.Sort, s.want)
			continue
		}
		for i := range s.want {
			if r.Sort[i] != s.want[i] {
				t.Errorf("%s: sort %+v, want %+v", s.body, r.Sort, s.want)
			}
		}
	}
	r = decode(t, ``, Param{"sort", "Name:desc,_score"})
	if len(r.Sort) != 2 || r.Sort[0] != (query.SortField{Field: "Name", Desc: true}) || !r.Sort[1].Score {
		t.Errorf("URI sort: %+v", r.Sort)
	}
}

// TestNimvioFiltersD4D5 checks the field-filter members (API.md "Search: query content", body members).
func TestNimvioFiltersD4D5(t *testing.T) {
	cases := []struct {
		body   string
		params []Param
		want   string
	}{
		{`{"Name":"Erian"}`, nil, `#Name:erian`},
		{`{"Name":"Erian Suwandi","query":{"match":{"Data.title":"x"}}}`, nil, `+Data.title:x #(#Name:erian #Name:suwandi)`},
		{`{"CreatedAt":"2019-01-14"}`, nil, `#CreatedAt:[1547424000000 TO 1547510399999]`},
		{`{"Data":{"price":10,"title":"hello"}}`, nil, `#(#Data.price:[10 TO 10] #Data.title:hello)`},
		{`{"Data":"hello"}`, nil, `#(Data.body:hello Data.title:hello)`},
		{``, []Param{{"TemplateName", "Author Profile"}}, `#(#TemplateName:author #TemplateName:profile)`},
		{`{"Name":""}`, nil, `*:*`},
	}
	for _, c := range cases {
		r := decode(t, c.body, c.params...)
		if got := r.Query.String(); got != c.want {
			t.Errorf("%s %v\n got: %s\nwant: %s", c.body, c.params, got, c.want)
		}
	}
}

// TestSourceFilter checks _source filtering on stored bytes (ContentID always kept),
// with and without the end of Data known.
func TestSourceFilter(t *testing.T) {
	item := `{"Status":"Published","Data":{"title":"T","tags":["a","b"],"hero":{"Id":"M","Url":"u"},"list":[{"x":1,"y":2},{"y":3}]},"Name":"N","ContentID":"C"}`
	dataEnd := strings.Index(item, `,"Name"`)
	cases := []struct{ source, want string }{
		{`true`, item},
		{`false`, `{"ContentID":"C"}`},
		{`"Name"`, `{"Name":"N","ContentID":"C"}`},
		{`["Data.title","Data.hero.Id"]`, `{"Data":{"title":"T","hero":{"Id":"M"}},"ContentID":"C"}`},
		{`["Data.t*"]`, `{"Data":{"title":"T","tags":["a","b"]},"ContentID":"C"}`},
		{`{"includes":["Data"],"excludes":["Data.hero","Data.list.y"]}`, `{"Data":{"title":"T","tags":["a","b"],"list":[{"x":1}]},"ContentID":"C"}`},
		{`{"excludes":["Data"]}`, `{"Status":"Published","Name":"N","ContentID":"C"}`},
		{`["Data.list.y"]`, `{"Data":{"list":[{"y":2},{"y":3}]},"ContentID":"C"}`},
		{`["*"]`, item},
		{`["Nope"]`, `{"ContentID":"C"}`},
	}
	for _, c := range cases {
		r := decode(t, `{"_source":`+c.source+`}`)
		for _, end := range []int{0, dataEnd} {
			if got := string(r.Source.Append(nil, item, end)); got != c.want {
				t.Errorf("_source %s, Data's end %d\n got: %s\nwant: %s", c.source, end, got, c.want)
			}
		}
	}
	r := decode(t, ``, Param{"_source_includes", "Name,Data.title"}, Param{"_source_excludes", "Data.title"})
	if got := string(r.Source.Append(nil, item, dataEnd)); got != `{"Name":"N","ContentID":"C"}` {
		t.Errorf("URL _source: %s", got)
	}
}

func TestMinShouldMatch(t *testing.T) {
	cases := []struct {
		n    int
		spec string
		want int
	}{
		{4, "2", 2}, {4, "-1", 3}, {4, "75%", 3}, {4, "-25%", 3}, {5, "75%", 3}, {5, "-25%", 4},
		{3, "3<90%", 3}, {4, "3<90%", 3}, {2, "2<-25% 9<-3", 2}, {5, "2<-25% 9<-3", 4}, {12, "2<-25% 9<-3", 9},
		{3, "10", 10}, {3, "-10", 0},
	}
	for _, c := range cases {
		if got, ok := minShouldMatch(c.n, c.spec); !ok || got != c.want {
			t.Errorf("minShouldMatch(%d, %q) = %d, %v; want %d", c.n, c.spec, got, ok, c.want)
		}
	}
	for _, bad := range []string{"", "x", "<5", "50%%"} {
		if _, ok := minShouldMatch(3, bad); ok {
			t.Errorf("minShouldMatch(%q) accepted", bad)
		}
	}
}

// TestFormatMillis covers Elasticsearch's format names and "||" lists; the patterns
// themselves are datetime.AppendPattern's (TestAppendPattern there).
func TestFormatMillis(t *testing.T) {
	const ms = 1547457123120 // 2019-01-14T09:12:03.120Z
	cases := map[string]string{
		"":                               "2019-01-14T09:12:03.120Z",
		"strict_date_optional_time":      "2019-01-14T09:12:03.120Z",
		"yyyy-MM-dd":                     "2019-01-14",
		"date":                           "2019-01-14",
		"strict_date_hour_minute_second": "2019-01-14T09:12:03",
		"epoch_millis":                   "1547457123120",
		"epoch_second":                   "1547457123",
		"yyyy-MM-dd'T'HH||epoch_millis":  "2019-01-14T09",
		"epoch_second||yyyy":             "1547457123",
	}
	for f, want := range cases {
		got, ok := FormatMillis(nil, ms, f)
		if !ok || string(got) != want {
			t.Errorf("FormatMillis(%q) = %q, %v; want %q", f, got, ok, want)
		}
	}
	if _, ok := FormatMillis(nil, ms, "EEE"); ok {
		t.Error("EEE accepted")
	}
}

func TestAggSpecs(t *testing.T) {
	r := decode(t, `{"aggs":{"t":{"terms":{"field":"Name.keyword","size":3,"order":{"_key":"asc"}},"aggs":{"p":{"avg":{"field":"Data.price"}}},"meta":{"x":1}},"r":{"range":{"field":"Data.price","ranges":[{"from":100},{"to":10},{"from":10,"to":100}]}}}}`)
	if len(r.Aggs) != 2 {
		t.Fatalf("aggs: %+v", r.Aggs)
	}
	a := r.Aggs[0]
	if a.Kind != query.AggTerms || a.Size != 3 || a.Meta != `{"x":1}` || len(a.Subs) != 1 || a.Order[0] != (query.BucketOrder{By: query.ByKey}) {
		t.Errorf("terms: %+v", a)
	}
	rs := r.Aggs[1].Ranges
	if len(rs) != 3 || rs[0].To != 10 || rs[1].From != 10 || rs[2].From != 100 {
		t.Errorf("ranges not sorted as Elasticsearch sorts them: %+v", rs)
	}
}

// TestAggKeyScalars checks that an include or exclude value stands for each typed key
// that prints as exactly that text, and for no other.
func TestAggKeyScalars(t *testing.T) {
	cases := []struct {
		in   string
		want []query.Scalar
	}{
		{"Article", []query.Scalar{{Kind: query.ScalarString, Str: "Article", Text: "Article"}}},
		{"5", []query.Scalar{{Kind: query.ScalarString, Str: "5", Text: "5"}, {Kind: query.ScalarNumber, Number: 5, Text: "5"}}},
		{"5.0", []query.Scalar{{Kind: query.ScalarString, Str: "5.0", Text: "5.0"}}}, // 5 prints as "5"
		{"4.5", []query.Scalar{{Kind: query.ScalarString, Str: "4.5", Text: "4.5"}, {Kind: query.ScalarNumber, Number: 4.5, Text: "4.5"}}},
		{"1.2345678901234567E19", []query.Scalar{{Kind: query.ScalarString, Str: "1.2345678901234567E19", Text: "1.2345678901234567E19"}, {Kind: query.ScalarNumber, Number: 1.2345678901234567e19, Text: "1.2345678901234567E19"}}},
		{"1e3", []query.Scalar{{Kind: query.ScalarString, Str: "1e3", Text: "1e3"}}},
		{"true", []query.Scalar{{Kind: query.ScalarString, Str: "true", Text: "true"}, {Kind: query.ScalarBool, Bool: true, Text: "true"}}},
		{"2019-01-14T09:12:03.120Z", []query.Scalar{{Kind: query.ScalarString, Str: "2019-01-14T09:12:03.120Z", Text: "2019-01-14T09:12:03.120Z"}, {Kind: query.ScalarDate, Millis: 1547457123120, Text: "2019-01-14T09:12:03.120Z"}}},
		{"2019-01-14", []query.Scalar{{Kind: query.ScalarString, Str: "2019-01-14", Text: "2019-01-14"}}}, // dates print with the time
	}
	for _, c := range cases {
		got := keyScalars([]string{c.in})
		if len(got) != len(c.want) {
			t.Errorf("%q: got %+v, want %+v", c.in, got, c.want)
			continue
		}
		for i := range got {
			if got[i] != c.want[i] {
				t.Errorf("%q: got %+v, want %+v", c.in, got[i], c.want[i])
			}
		}
	}
}

// TestSourceGlobSet checks the _source pattern automaton against globMatch, pattern
// by pattern, on every name built from a small alphabet: a set accepts a name when
// one of its patterns matches it, and stepping over a name byte by byte or at once
// agrees.
func TestSourceGlobSet(t *testing.T) {
	patterns := globSet{"a*", "*b", "a.*c", "**", "a*b*a", "ab", "*.*", "b"}
	var names []string
	var grow func(prefix string)
	grow = func(prefix string) {
		names = append(names, prefix)
		if len(prefix) < 5 {
			for _, c := range "ab.c" {
				grow(prefix + string(c))
			}
		}
	}
	grow("")
	for n := 1; n <= len(patterns); n++ {
		g := patterns[:n]
		for _, name := range names {
			want := false
			for _, p := range g {
				want = want || globMatch(p, name)
			}
			var scratch [2][]gstate
			at := g.stepString(g.start(), name, &scratch)
			st := g.start()
			for i := 0; i < len(name); i++ {
				st = g.step(st, name[i])
			}
			if got := g.accepts(at); got != want || g.accepts(st) != want {
				t.Errorf("patterns %q, name %q: accepted %v (by bytes %v), want %v", g, name, got, g.accepts(st), want)
			}
		}
	}
}
