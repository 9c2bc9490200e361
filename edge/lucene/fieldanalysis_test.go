package lucene

import (
	"testing"

	"github.com/cdaedge/cdaedge/edge/analysis"
)

// Each field is analysed with its own analyzer, as Lucene's per-field analyzer (and
// Elasticsearch's mapping) does: an exact (".keyword") field with the keyword analyzer,
// the whole text as one term with its case, also for the prefix, wildcard, regexp,
// fuzzy and range terms, which are not lower-cased there. The queries are those that
// disagreed with Lucene 8.8 before (edge/lucene/difftest).
var fieldAnalysisCases = []esCase{
	{`CreatedBy.keyword:Leon\ Novak`, nil, "CreatedBy.keyword:Leon Novak", false},
	{`CreatedBy.keyword:(Leon Novak)`, nil, "CreatedBy.keyword:Leon Novak", false},
	{`ContentID.keyword:"Content_718bfa18-AB"`, nil, "ContentID.keyword:Content_718bfa18-AB", false},
	{`TemplateName.keyword:"Media Gallery"~2`, nil, "TemplateName.keyword:Media Gallery", false},
	{`Name.keyword:Montrea*`, nil, "Name.keyword:Montrea*", false},
	{`Name.keyword:Mon?re\*al*`, nil, `Name.keyword:Mon?re\*al*`, false},
	{`TemplateName.keyword:Evnt~1`, nil, "TemplateName.keyword:Evnt~1", false},
	{`TemplateName.keyword:Evnt~`, nil, "TemplateName.keyword:Evnt~1", false},
	{`Data.currency.keyword:/E.+/`, nil, "Data.currency.keyword:/E.+/", false},
	{`CreatedBy.keyword:[* TO Ais]`, nil, "CreatedBy.keyword:[* TO Ais]", false},
	{`CreatedBy.keyword:{Ais TO "Zoë L"}`, nil, "CreatedBy.keyword:{Ais TO Zoë L}", false},
	{`CreatedBy.keyword:>=Ais`, nil, "CreatedBy.keyword:[Ais TO *]", false},
	// The text form of the same field is still analysed and lower-cased.
	{`CreatedBy:Leon\ Novak`, nil, "CreatedBy:leon CreatedBy:novak", false},
	{`CreatedBy:[* TO Ais]`, nil, "CreatedBy:[* TO ais]", false},
	{`Name:Montrea*`, nil, "Name:montrea*", false},
	// Bare terms go to the default field with its analysis.
	{`Leon Novak`, func(o *Options) { o.DefaultField = "CreatedBy.keyword" }, "CreatedBy.keyword:Leon Novak", false},
	{`Leon Novak`, fields("CreatedBy", "CreatedBy.keyword"), "((CreatedBy:leon CreatedBy:novak) | CreatedBy.keyword:Leon Novak)", false},
	{`Leo*`, fields("CreatedBy", "CreatedBy.keyword"), "(CreatedBy:leo* | CreatedBy.keyword:Leo*)", false},
	// FieldAnalysis decides per field: a typed field read whole, a forced analyzer on
	// the exact form (as Elasticsearch's analyzer parameter).
	{`price:\-1.00`, func(o *Options) { o.FieldAnalysis = typedPrice }, "price:-1.00", false},
	{`price:\-1.00`, nil, "price:1.00", false},
	{`Name.keyword:Hello`, func(o *Options) { o.FieldAnalysis = forced }, "Name.keyword:hello", false},
	// simple_query_string too.
	{`Leon Novak`, func(o *Options) { o.DefaultField = "CreatedBy.keyword" }, "CreatedBy.keyword:Leon CreatedBy.keyword:Novak", true},
	{`Leo*`, func(o *Options) { o.DefaultField = "CreatedBy.keyword" }, "CreatedBy.keyword:Leo*", true},
}

func typedPrice(field string) (analysis.Analyzer, bool) {
	if field == "price" {
		return analysis.Keyword, false
	}
	return nil, false
}

func forced(string) (analysis.Analyzer, bool) { return analysis.Standard, true }

func TestFieldAnalysis(t *testing.T) {
	for _, c := range fieldAnalysisCases {
		o := DefaultOptions()
		o.DefaultField = "f"
		if c.mod != nil {
			c.mod(&o)
		}
		parse := Parse
		if c.simple {
			parse = ParseSimple
		}
		q, err := parse(c.in, o)
		if err != nil {
			t.Errorf("parse(%q, simple=%v): %v", c.in, c.simple, err)
			continue
		}
		if got := q.String(); got != c.want {
			t.Errorf("parse(%q, simple=%v)\n got %s\nwant %s", c.in, c.simple, got, c.want)
		}
	}
}
