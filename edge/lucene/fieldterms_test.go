package lucene

import (
	"reflect"
	"strings"
	"testing"

	"github.com/cdaedge/cdaedge/edge/analysis"
	"github.com/cdaedge/cdaedge/edge/query"
)

// Words over a list of fields that all analyse text by default are one FieldTerms (the
// DisMax it prints as), in both parsers; a list with a field of its own analysis, or of
// one field, keeps the per-field queries. The clause limit counts a FieldTerms as the
// Terms it stands for.
func TestWordsOverEveryFieldAreFieldTerms(t *testing.T) {
	every := []string{"Name", "Data.body", "Data.title"}
	opts := Options{DefaultField: "*", Fields: every}
	q, err := Parse("Coffee espresso", opts)
	if err != nil {
		t.Fatal(err)
	}
	want := query.FieldTerms{Fields: every, Texts: []string{"coffee", "espresso"}, Occur: query.Should}
	if !reflect.DeepEqual(q, want) {
		t.Fatalf("got %#v", q)
	}
	if &q.(query.FieldTerms).Fields[0] != &every[0] {
		t.Error("the list of every field was copied")
	}

	q, err = ParseSimple("coffee", Options{Fields: []string{"Name^2", "Data.body"}})
	if err != nil {
		t.Fatal(err)
	}
	if ft, ok := q.(query.FieldTerms); !ok || !reflect.DeepEqual(ft.Fields, []string{"Name", "Data.body"}) ||
		!reflect.DeepEqual(ft.Boosts, []float64{2, 1}) || ft.TieBreaker != 1 || ft.String() != "((Name:coffee)^2.0 | Data.body:coffee)~1.0" {
		t.Fatalf("simple_query_string over boosted fields: %#v", q)
	}

	for _, tc := range []struct {
		in     string
		fields []string
	}{
		{"coffee", []string{"Name", "Name.keyword"}}, // an exact form: the keyword analyzer
		{"coffee", []string{"Name"}},                 // one field: its Term
		{"coffee", []string{"Name", "Data.*"}},       // a pattern, which the evaluator expands
	} {
		q, err := Parse(tc.in, Options{Fields: tc.fields})
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(reflect.TypeOf(q).String(), "FieldTerms") {
			t.Errorf("%q over %v: %#v", tc.in, tc.fields, q)
		}
	}

	// An empty name in the list is left out of the FieldTerms too.
	if q, _ := Parse("coffee", Options{Fields: []string{"Name", "", "Data.body"}}); !reflect.DeepEqual(q, query.FieldTerms{Fields: []string{"Name", "Data.body"}, Texts: []string{"coffee"}, Occur: query.Should}) {
		t.Errorf("a list with an empty name: %#v", q)
	}

	// Fields said to analyse by default are not asked about, but for the name of an
	// exact form.
	asked := 0
	count := func(string) (analysis.Analyzer, bool) { asked++; return nil, false }
	if q, _ := Parse("coffee", Options{Fields: every, FieldAnalysis: count, FieldsAnalysedByDefault: true}); asked != 0 || reflect.TypeOf(q) != reflect.TypeOf(query.FieldTerms{}) {
		t.Errorf("fields analysed by default: asked %d times, %#v", asked, q)
	}
	if q, _ := Parse("coffee", Options{Fields: []string{"Name", "Data.x.keyword"}, FieldsAnalysedByDefault: true}); reflect.TypeOf(q) == reflect.TypeOf(query.FieldTerms{}) {
		t.Errorf("an exact form among fields analysed by default: %#v", q)
	}
	// Such a list names the environment's fields as they are: a member named "x^2" is
	// that field, not x boosted, and the list is not copied.
	odd := []string{"Name", "Data.x^2"}
	q, _ = Parse("coffee", Options{DefaultField: "*", Fields: odd, FieldsAnalysedByDefault: true})
	if ft, ok := q.(query.FieldTerms); !ok || &ft.Fields[0] != &odd[0] || ft.Boosts != nil {
		t.Errorf("fields analysed by default, one with a '^': %#v", q)
	}

	_, err = Parse("coffee espresso", Options{DefaultField: "*", Fields: every, MaxClauses: 5})
	if err == nil || !strings.Contains(err.Error(), "too many clauses") {
		t.Fatalf("6 terms under a limit of 5: %v", err)
	}
}
