package dsl

import (
	"strconv"
	"strings"

	"github.com/cdaedge/cdaedge/edge"
	"github.com/cdaedge/cdaedge/edge/analysis"
	"github.com/cdaedge/cdaedge/edge/jsonr"
	"github.com/cdaedge/cdaedge/edge/lucene"
	"github.com/cdaedge/cdaedge/edge/query"
)

// luceneOpts mirrors lucene.Options (edge/lucene), so that the decoder reads a clause's
// options without the parser, and one function (parseLucene) is the parser's only caller.
type luceneOpts struct {
	DefaultField       string
	Fields             []string
	And                bool
	Analyzer           analysis.Analyzer
	AnalyzerLowercases bool
	FieldAnalysis      func(field string) (analysis.Analyzer, bool)
	// FieldsAnalysedByDefault: Fields are every analysed text field (fieldAnalysis
	// gives each the default analysis), named as they are.
	FieldsAnalysedByDefault bool
	AllowLeadingWildcard    bool
	AnalyzeWildcard         bool
	MaxClauses              int
	FuzzyMaxExpansions      int
	FuzzyPrefixLength       int
	FuzzyTranspositions     bool
	PhraseSlop              int
	TieBreaker              float64
	Fuzziness               string
	SimpleOff               lucene.SimpleFlag
}

// qsRequest is a query_string or simple_query_string clause as read: the parser's
// options and what the decoder resolves before parsing.
type qsRequest struct {
	name         string // query_string or simple_query_string
	simple       bool
	o            luceneOpts
	text         *string
	fields       []string
	defaultField string
	forced       bool // an analyzer was named: it applies to the exact (.keyword) fields too
	msm          string
	boost        float64
}

// queryString compiles query_string and simple_query_string (D10).
func (d *decoder) queryString(body jsonr.Result, path string, simple bool) (query.Query, error) {
	r := &qsRequest{name: "query_string", simple: simple, boost: 1,
		o: luceneOpts{AllowLeadingWildcard: true, FuzzyMaxExpansions: 50, FuzzyTranspositions: true,
			Analyzer: analysis.Standard, AnalyzerLowercases: true}}
	if simple {
		r.name = "simple_query_string"
	}
	err := d.members(body, path, func(key string, val jsonr.Result) error {
		if ok, err := isCommon(key, val, path, &r.boost); ok {
			return err
		}
		return d.queryStringOption(r, key, val, path)
	})
	if err != nil {
		return nil, err
	}
	if r.text == nil {
		return nil, errorf(edge.CodeInvalidQuery, path, "["+r.name+"] requires query")
	}
	o := r.o
	if err := d.queryStringFields(&o, r, path); err != nil {
		return nil, err
	}
	o.FieldAnalysis = d.fieldAnalysis(o.Analyzer, o.AnalyzerLowercases, r.forced)
	o.MaxClauses = d.lim.MaxClauses - d.clauses
	if o.MaxClauses < 1 {
		return nil, errorf(edge.CodeTooComplex, path, "the query has more than "+strconv.Itoa(d.lim.MaxClauses)+" clauses (limit: max clause count)")
	}
	q, perr := parseLucene(simple, *r.text, o)
	if perr != nil {
		perr.Message = "[" + join(path, "query") + "] " + perr.Message
		return nil, perr
	}
	if err := d.count(countNodes(q), path); err != nil {
		return nil, err
	}
	if r.msm != "" {
		if bq, ok := q.(query.Bool); ok {
			n := 0
			for _, c := range bq.Clauses {
				if c.Occur == query.Should {
					n++
				}
			}
			if m, _ := minShouldMatch(n, r.msm); m > 0 {
				bq.MinimumShouldMatch = m
				q = bq
			}
		}
	}
	return boosted(q, r.boost), nil
}

// queryStringOption reads one member of a query_string or simple_query_string clause.
func (d *decoder) queryStringOption(r *qsRequest, key string, val jsonr.Result, path string) error {
	o, name, simple := &r.o, r.name, r.simple
	p := join(path, key)
	var err error
	switch key {
	case "query":
		var s string
		if s, err = str(val, p); err == nil {
			r.text = &s
		}
	case "default_field":
		if simple {
			return unsupported(path, name, key)
		}
		r.defaultField, err = strictStr(val, p)
	case "fields":
		if val.Type == jsonr.String {
			r.fields = append(r.fields, val.Str)
			return nil
		}
		if !val.IsArray() {
			return wrongType(p, "an array of field names", val)
		}
		for i, f := range val.Array() {
			s, err := strictStr(f, index(p, i))
			if err != nil {
				return err
			}
			r.fields = append(r.fields, s)
		}
	case "default_operator":
		o.And, err = operator(val, p)
	case "analyzer":
		var s string
		if s, err = strictStr(val, p); err == nil {
			a, ok := analysis.ByName(s)
			if !ok {
				return errorf(edge.CodeInvalidArgument, p, "analyzer ["+edge.Clip(s)+"] not found; use standard, simple, whitespace or keyword")
			}
			o.Analyzer = a
			o.AnalyzerLowercases = s == "standard" || s == "simple"
			r.forced = true
		}
	case "allow_leading_wildcard":
		if simple {
			return unsupported(path, name, key)
		}
		o.AllowLeadingWildcard, err = boolean(val, p)
	case "analyze_wildcard":
		o.AnalyzeWildcard, err = boolean(val, p)
	case "fuzzy_max_expansions":
		o.FuzzyMaxExpansions, err = integer(val, p, 1, d.lim.MaxExpansions)
	case "fuzzy_prefix_length":
		o.FuzzyPrefixLength, err = integer(val, p, 0, 1<<20)
	case "fuzzy_transpositions":
		o.FuzzyTranspositions, err = boolean(val, p)
	case "phrase_slop":
		if simple {
			return unsupported(path, name, key)
		}
		o.PhraseSlop, err = integer(val, p, 0, 1<<20)
	case "minimum_should_match":
		if r.msm, err = str(val, p); err == nil {
			if _, ok := minShouldMatch(1<<20, r.msm); !ok {
				err = errorf(edge.CodeInvalidArgument, p, "bad minimum_should_match \""+edge.Clip(r.msm)+"\"")
			}
		}
	case "flags":
		if !simple {
			return unsupported(path, name, key)
		}
		o.SimpleOff, err = simpleFlags(val, p)
	case "lenient", "auto_generate_synonyms_phrase_query", "enable_position_increments", "escape":
		_, err = boolean(val, p)
	case "quote_field_suffix", "rewrite", "fuzzy_rewrite", "type", "quote_analyzer", "time_zone":
		_, err = strictStr(val, p)
	case "fuzziness":
		if _, err = parseFuzziness(val, p); err == nil {
			o.Fuzziness = val.Str
			if val.Type == jsonr.Number {
				o.Fuzziness = val.Raw
			}
		}
	case "tie_breaker":
		o.TieBreaker, err = number(val, p)
	case "max_determinized_states":
		_, err = integer(val, p, 1, 1<<31-1)
	default:
		return unsupported(path, name, key)
	}
	return err
}

// queryStringFields sets the fields of terms written without one: the fields listed
// (patterns expanded), else default_field, else every text field
// (index.query.default_field "*").
func (d *decoder) queryStringFields(o *luceneOpts, r *qsRequest, path string) error {
	switch {
	case len(r.fields) > 0:
		for _, f := range r.fields {
			if !strings.Contains(f, "*") {
				o.Fields = append(o.Fields, f)
				continue
			}
			name, boost, _ := strings.Cut(f, "^")
			for _, e := range d.expandPattern(name) {
				if boost != "" {
					e += "^" + boost
				}
				o.Fields = append(o.Fields, e)
			}
		}
	case r.defaultField != "" && r.defaultField != "*":
		o.DefaultField = r.defaultField
	default:
		// Every text field, listed, under the default field "*": as Elasticsearch's
		// parser over all fields, where ">x" without a field is a range in each and a
		// lone "*" is every item.
		o.DefaultField, o.Fields = "*", d.expandPattern("*")
		// Text fields, by their types, never dates: fieldAnalysis gives each the
		// default analysis (the parser still asks about a name ending in ".keyword"),
		// and the names are the fields' own, as they are.
		o.FieldsAnalysedByDefault = d.schema != nil
	}
	if len(o.Fields) > d.lim.MaxClauses {
		return errorf(edge.CodeTooComplex, path, "the query names more than "+strconv.Itoa(d.lim.MaxClauses)+" fields (limit: max clause count)")
	}
	// A list of fields, even of one, has no default field, as in Elasticsearch: a
	// boost ("Name^2") weighs each clause on its field, and ">x" written without a
	// field is text, not a range.
	return nil
}

// fieldAnalysis is the analysis of each field for query_string and simple_query_string,
// as Elasticsearch takes it from the mapping (D12): text fields use the analyzer a
// (standard unless the request names one); exact (.keyword) fields the keyword
// analyzer, which keeps the whole text and its case, also in wildcard, prefix, regexp,
// fuzzy and range terms, unless the request names an analyzer (forced), which
// Elasticsearch then uses for them too; numbers, dates and booleans are never analysed:
// the text is the value (`Data.price:\-1.5`, `CreatedAt:2021\-04\-23`). For a text
// field it says "the default" (a nil analyzer), which the parser knows to be a: the
// parser then analyses a query's text once for all such fields.
func (d *decoder) fieldAnalysis(a analysis.Analyzer, lowercases, forced bool) func(string) (analysis.Analyzer, bool) {
	return func(field string) (analysis.Analyzer, bool) {
		switch d.kindOf(field) {
		case kindNumber, kindDate, kindBool:
			return analysis.Keyword, false
		case kindKeyword:
			if !forced {
				return analysis.Keyword, false
			}
		}
		if lucene.IsExactField(field) {
			return a, lowercases // forced: not the exact fields' default
		}
		return nil, false // the default: Options.Analyzer, which is a
	}
}

// countNodes counts the nodes of q, for the clause limit of API.md D11. Boost and
// ConstantScore wrap a node without adding a clause, so they do not count. (The Lucene
// parser nests at most lucene.MaxDepth levels, so the walk's recursion is bounded.)
func countNodes(q query.Query) int {
	n := 0
	query.Inspect(q, func(q query.Query) bool {
		switch q := q.(type) {
		case nil, query.Boost, query.ConstantScore:
		case query.FieldTerms:
			n += q.Nodes()
		default:
			n++
		}
		return true
	})
	return n
}

// simpleFlags reads simple_query_string's flags as Elasticsearch does, and returns
// the operators they leave out: a number is Lucene's bits (negative: ALL); a string
// is names joined by "|", any case, where the first ALL or NONE decides alone.
func simpleFlags(val jsonr.Result, p string) (lucene.SimpleFlag, error) {
	if val.Type == jsonr.Number {
		n, err := integer(val, p, -1<<31, 1<<31-1)
		if err != nil || n < 0 {
			return 0, err
		}
		return lucene.SimpleAll &^ lucene.SimpleFlag(n), nil
	}
	flags, err := strictStr(val, p)
	if err != nil {
		return 0, err
	}
	var on lucene.SimpleFlag
	for _, name := range strings.Split(flags, "|") {
		if name == "" {
			continue
		}
		upper := strings.ToUpper(name)
		switch upper {
		case "ALL":
			return 0, nil
		case "NONE":
			return lucene.SimpleAll, nil
		}
		flag, ok := lucene.SimpleFlagNamed(upper)
		if !ok {
			return 0, errorf(edge.CodeInvalidArgument, p, "unknown simple_query_string flag ["+edge.Clip(name)+
				"]; use ALL, NONE, AND, NOT, OR, PREFIX, PHRASE, PRECEDENCE, ESCAPE, WHITESPACE, FUZZY, NEAR or SLOP")
		}
		on |= flag
	}
	return lucene.SimpleAll &^ on, nil
}
