package dsl

import (
	"strconv"
	"strings"

	"github.com/cdaedge/cdaedge/edge"
	"github.com/cdaedge/cdaedge/edge/analysis"
	"github.com/cdaedge/cdaedge/edge/jsonr"
	"github.com/cdaedge/cdaedge/edge/query"
)

// luceneOpts mirrors lucene.Options (edge/lucene), so that the one function that calls
// the parser (parseLucene) is the only code that depends on that package.
type luceneOpts struct {
	DefaultField         string
	Fields               []string
	And                  bool
	Analyzer             analysis.Analyzer
	AnalyzerLowercases   bool
	AllowLeadingWildcard bool
	AnalyzeWildcard      bool
	MaxClauses           int
	FuzzyMaxExpansions   int
	FuzzyPrefixLength    int
	FuzzyTranspositions  bool
	PhraseSlop           int
	TieBreaker           float64
	Fuzziness            string
}

// queryString compiles query_string and simple_query_string (D10).
func (d *decoder) queryString(body jsonr.Result, path string, simple bool) (query.Query, error) {
	name := "query_string"
	if simple {
		name = "simple_query_string"
	}
	o := luceneOpts{AllowLeadingWildcard: true, FuzzyMaxExpansions: 50, FuzzyTranspositions: true,
		Analyzer: analysis.Standard, AnalyzerLowercases: true}
	var text *string
	var fields []string
	defaultField := ""
	msm := ""
	b := 1.0
	err := d.members(body, path, func(key string, val jsonr.Result) error {
		if ok, err := isCommon(key, val, path, &b); ok {
			return err
		}
		p := join(path, key)
		var err error
		switch key {
		case "query":
			var s string
			if s, err = str(val, p); err == nil {
				text = &s
			}
		case "default_field":
			if simple {
				return unsupported(path, name, key)
			}
			defaultField, err = strictStr(val, p)
		case "fields":
			if val.Type == jsonr.String {
				fields = append(fields, val.Str)
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
				fields = append(fields, s)
			}
		case "default_operator":
			o.And, err = operator(val, p)
		case "analyzer":
			var s string
			if s, err = strictStr(val, p); err == nil {
				a, ok := analysis.ByName(s)
				if !ok {
					return errorf(edge.CodeInvalidArgument, p, "analyzer ["+clip(s)+"] not found; use standard, simple, whitespace or keyword")
				}
				o.Analyzer = a
				o.AnalyzerLowercases = s == "standard" || s == "simple"
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
			if msm, err = str(val, p); err == nil {
				if _, ok := minShouldMatch(1<<20, msm); !ok {
					err = errorf(edge.CodeInvalidArgument, p, "bad minimum_should_match \""+clip(msm)+"\"")
				}
			}
		case "flags":
			if !simple {
				return unsupported(path, name, key)
			}
			_, err = str(val, p)
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
	})
	if err != nil {
		return nil, err
	}
	if text == nil {
		return nil, errorf(edge.CodeInvalidQuery, path, "["+name+"] requires query")
	}
	switch {
	case len(fields) > 0:
		for _, f := range fields {
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
	case defaultField != "" && defaultField != "*":
		o.DefaultField = defaultField
	default:
		// index.query.default_field "*": every text field.
		o.Fields = d.expandPattern("*")
	}
	if len(o.Fields) > d.lim.MaxClauses {
		return nil, errorf(edge.CodeTooComplex, path, "the query names more than "+strconv.Itoa(d.lim.MaxClauses)+" fields (limit: max clause count)")
	}
	if len(o.Fields) == 1 && o.DefaultField == "" {
		o.DefaultField, o.Fields = o.Fields[0], nil
	}
	o.MaxClauses = d.lim.MaxClauses - d.clauses
	if o.MaxClauses < 1 {
		return nil, errorf(edge.CodeTooComplex, path, "the query has more than "+strconv.Itoa(d.lim.MaxClauses)+" clauses (limit: max clause count)")
	}
	q, perr := parseLucene(simple, *text, o)
	if perr != nil {
		perr.Message = "[" + join(path, "query") + "] " + perr.Message
		return nil, perr
	}
	if err := d.count(countNodes(q), path); err != nil {
		return nil, err
	}
	if msm != "" {
		if bq, ok := q.(query.Bool); ok {
			n := 0
			for _, c := range bq.Clauses {
				if c.Occur == query.Should {
					n++
				}
			}
			if m, _ := minShouldMatch(n, msm); m > 0 {
				bq.MinimumShouldMatch = m
				q = bq
			}
		}
	}
	return boosted(q, b), nil
}

// countNodes counts the nodes of q, for the clause limit of API.md D11. Boost and
// ConstantScore wrap a node without adding a clause, so they do not count. (The Lucene
// parser nests at most lucene.MaxDepth levels, so the walk's recursion is bounded.)
func countNodes(q query.Query) int {
	n := 0
	query.Inspect(q, func(q query.Query) bool {
		switch q.(type) {
		case nil, query.Boost, query.ConstantScore:
		default:
			n++
		}
		return true
	})
	return n
}
