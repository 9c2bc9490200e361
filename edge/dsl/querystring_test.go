package dsl

import "testing"

// TestQueryStringFieldAnalysis: query_string analyses each field as the mapping does
// (D12), so that it agrees with Lucene (edge/lucene/difftest): the exact (.keyword) form
// with the keyword analyzer, also for its multi-term and range terms; numbers, dates and
// booleans not at all; text with the standard analyzer, or the one the request names,
// which then applies to the exact form too.
func TestQueryStringFieldAnalysis(t *testing.T) {
	cases := []struct{ qs, want string }{
		{`"query":"Name.keyword:Leon\\ Novak"`, `Name.keyword:Leon Novak`},
		{`"query":"Name.keyword:\"Media Gallery\""`, `Name.keyword:Media Gallery`},
		{`"query":"Name.keyword:Caf*"`, `Name.keyword:Caf*`},
		{`"query":"Name.keyword:Caf?"`, `Name.keyword:Caf?`},
		{`"query":"Name.keyword:/E.+/"`, `Name.keyword:/E.+/`},
		{`"query":"Name.keyword:Evnt~1"`, `Name.keyword:Evnt~1`},
		{`"query":"Name.keyword:[* TO Ais]"`, `Name.keyword:[* TO Ais]`},
		{`"query":"Name:[* TO Ais]"`, `Name:[* TO ais]`},
		{`"query":"Name:Leon\\ Novak"`, `Name:leon Name:novak`},
		{`"query":"Café Müller","default_field":"Name.keyword"`, `Name.keyword:Café Müller`},
		{`"query":"Café Müller","fields":["Name","Name.keyword"]`, `((Name:café Name:müller) | Name.keyword:Café Müller)`},
		{`"query":"Data.price:\\-1.5"`, `Data.price:-1.5`},
		{`"query":"Data.price:(1.5 2)"`, `Data.price:1.5 2`},
		{`"query":"Data.price:>=10"`, `Data.price:[10 TO *]`},
		{`"query":"CreatedAt:2021\\-04\\-23"`, `CreatedAt:2021-04-23`},
		{`"query":"Data.inStock:true"`, `Data.inStock:true`},
		{`"query":"Name.keyword:Hello","analyzer":"standard"`, `Name.keyword:hello`},
		{`"query":"Name.keyword:Hello","analyzer":"whitespace"`, `Name.keyword:Hello`},
		{`"query":"Data.price:\\-1.5","analyzer":"standard"`, `Data.price:-1.5`},
	}
	for _, c := range cases {
		body := `{"query":{"query_string":{` + c.qs + `}}}`
		if got := decode(t, body).Query.String(); got != c.want {
			t.Errorf("%s\n got: %s\nwant: %s", body, got, c.want)
		}
	}
}
