package eval

import (
	"testing"

	"github.com/cdaedge/cdaedge/edge/query"
	"github.com/cdaedge/cdaedge/snapshot/snapshottest"
)

// TestTextRange: a range on a text field runs over its analysed terms, as Lucene's
// TermRangeQuery on the field (and so Elasticsearch's range and query_string ranges);
// the exact (.keyword) form and typed fields compare whole values.
func TestTextRange(t *testing.T) {
	e := evalEngine(t)
	str := func(s string, incl bool) *query.Bound {
		return &query.Bound{Value: query.Scalar{Kind: query.ScalarString, Str: s, Text: s}, Inclusive: incl}
	}
	num := func(f float64, text string) *query.Bound {
		return &query.Bound{Value: query.Scalar{Kind: query.ScalarNumber, Number: f, Text: text}, Inclusive: true}
	}
	for _, tc := range []struct {
		field  string
		lo, hi *query.Bound
		want   string
	}{
		// Name: "quick brown fox", "brown dog", "Fox News", "Kyoto's café".
		{"Name", str("fox", true), str("fox", true), "[0 2]"},       // a word, not the whole value
		{"Name", str("brown", true), str("c", true), "[0 1]"},       // "café" > "c"
		{"Name", str("brown", false), str("dog", true), "[1 3]"},    // café, dog
		{"Name", str("kyoto's", true), nil, "[0 2 3]"},              // kyoto's, news, quick
		{"Name", nil, str("brown", false), "[]"},                    // nothing below "brown"
		{"Name", nil, nil, "[0 1 2 3]"},                             // every item with a term
		{"Name", str("Fox", true), str("Fox", true), "[]"},          // bounds are not analysed here
		{"Name", str("news", true), str("fox", true), "[]"},         // an empty range
		{"Data.body", str("the", true), str("to", true), "[0 3]"},   // "that" < "the"
		{"Data.tags", str("red", true), str("red", true), "[0 2]"},  // any value of an array
		{"Data.body", num(0, "0"), num(9, "9"), "[]"},               // a number bound compares as written
		{"Name.keyword", str("brown", true), str("c", true), "[1]"}, // the whole value
		{"Name.keyword", str("Fox", true), str("Fox~", true), "[2]"},
		{"Data.price", num(10, "10"), num(10, "10"), "[0 1]"}, // numbers as numbers
		{"Nope", nil, nil, "[]"},
	} {
		q := query.Range{Field: tc.field, Lower: tc.lo, Upper: tc.hi}
		if got := docsOf(t, e, q); got != tc.want {
			t.Errorf("%s: got %s, want %s", q, got, tc.want)
		}
	}
}

// TestTextRangeLongValues: Data strings over 256 characters have no exact form and no
// typed value, but a range still finds their words.
func TestTextRangeLongValues(t *testing.T) {
	long := "alpha "
	for len(long) < 300 {
		long += "omega "
	}
	e := NewEvaluator(snapshottest.Open(t, "long", false,
		`{"ContentID":"Content_0","Status":"Published","Data":{"body":"`+long+`"}}`,
		`{"ContentID":"Content_1","Status":"Published","Data":{"body":"beta"}}`))
	lo := &query.Bound{Value: query.Scalar{Kind: query.ScalarString, Str: "alpha"}, Inclusive: true}
	hi := &query.Bound{Value: query.Scalar{Kind: query.ScalarString, Str: "alpha"}, Inclusive: true}
	if got := docsOf(t, e, query.Range{Field: "Data.body", Lower: lo, Upper: hi}); got != "[0]" {
		t.Errorf("got %s, want [0]", got)
	}
}
