package dsl

import (
	"testing"

	"github.com/cdaedge/cdaedge/edge"
	"github.com/cdaedge/cdaedge/edge/content"
)

// FuzzDecode: the decoder never panics, and every failure is an *edge.Error with a D8 code
// (D8: "never a panic, never a trap").
func FuzzDecode(f *testing.F) {
	seeds := []string{
		``, `{}`, `{"query":{"match_all":{}}}`,
		`{"query":{"bool":{"must":[{"match":{"Name":{"query":"a b","operator":"and","minimum_should_match":"2<-25% 9<-3"}}}],"filter":[{"range":{"CreatedAt":{"gte":"2020-01-01","lt":"2021-01-01T00:00:00Z"}}}],"should":{"multi_match":{"query":"x","fields":["Name^2","Data.*"],"type":"cross_fields"}},"must_not":{"terms":{"Name.keyword":["a",1,true]}}}},"sort":["_score",{"Name":{"order":"desc"}}],"_source":{"includes":["Data.*"],"excludes":["Data.b*"]},"from":1,"size":2}`,
		`{"query":{"wildcard":{"Name":{"value":"C*f?","case_insensitive":true}}}}`,
		`{"query":{"regexp":{"Name":{"value":"[a-z]+\\d","case_insensitive":true}}}}`,
		`{"query":{"fuzzy":{"Name":{"value":"cafe","fuzziness":"AUTO:2,4"}}}}`,
		`{"query":{"query_string":{"query":"a AND (b OR c)","default_field":"Name"}}}`,
		`{"aggs":{"t":{"terms":{"field":"Name.keyword","order":[{"_count":"asc"},{"p":"desc"}]},"aggs":{"p":{"max":{"field":"Data.price"}}}},"h":{"date_histogram":{"field":"CreatedAt","fixed_interval":"30d","format":"yyyy-MM-dd","time_zone":"+02:00","extended_bounds":{"min":"2019-01-01","max":"2020-01-01"}}},"r":{"date_range":{"field":"CreatedAt","ranges":[{"to":"2020-01-01"}]}}}}`,
		`{"Page":"2","PageSize":"3","Sort":"Name","SortAsc":"1","Data":{"tags":["a","b"],"x":{"y":1}},"CreatedAt":"2019"}`,
		`{"query":{"match":{"Name":"\u00e9\ud83c\udf89"}}}`,
		`{"query":{"ids":{"values":["a"]}},"post_filter":{"exists":{"field":"Data"}}}`,
	}
	for _, s := range seeds {
		f.Add(s, "Page=1&sort=Name:desc")
	}
	item := `{"Status":"Published","Data":{"title":"T","tags":["a",{"b":[1,{"c":2}]}]},"Name":"N","ContentID":"C"}`
	f.Fuzz(func(t *testing.T, body, rawParams string) {
		var params []Param
		for i, p := range splitList(rawParams) {
			if i > 8 {
				break
			}
			name, value, _ := cut(p, '=')
			params = append(params, Param{name, value})
		}
		for _, schema := range []content.Schema{nil, testSchema{}} {
			r, err := Decode(body, Options{Schema: schema, Params: params})
			if err != nil {
				e, ok := err.(*edge.Error)
				if !ok {
					t.Fatalf("error %T %v is not an *edge.Error", err, err)
				}
				switch e.Code {
				case edge.CodeInvalidArgument, edge.CodeInvalidJSON, edge.CodeInvalidQuery, edge.CodeTooComplex:
				default:
					t.Fatalf("bad code %q", e.Code)
				}
				if e.Message == "" {
					t.Fatal("empty message")
				}
				continue
			}
			_ = r.Query.String()
			_ = r.Search()
			_ = r.Source.Append(nil, item, 0)
			if r.From < 0 || r.Size < 0 || r.From+r.Size > DefaultMaxResultWindow {
				t.Fatalf("paging out of bounds: %d %d", r.From, r.Size)
			}
		}
		if q, err := DecodeQuery(body, Options{}); err == nil {
			_ = q.String()
		}
	})
}

func cut(s string, c byte) (string, string, bool) {
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			return s[:i], s[i+1:], true
		}
	}
	return s, "", false
}
