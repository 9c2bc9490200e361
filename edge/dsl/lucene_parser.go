package dsl

import (
	"strconv"

	"github.com/cdaedge/cdaedge/edge"
	"github.com/cdaedge/cdaedge/edge/lucene"
	"github.com/cdaedge/cdaedge/edge/query"
)

// parseLucene is the one call into the query_string parsers of edge/lucene (D10): the
// Lucene classic syntax, or simple_query_string's. A syntax error becomes invalid_query
// with its position; a limit becomes too_complex (D11).
func parseLucene(simple bool, input string, o luceneOpts) (query.Query, *edge.Error) {
	lo := lucene.Options{
		DefaultField:            o.DefaultField,
		Fields:                  o.Fields,
		DefaultOperator:         lucene.OR,
		Analyzer:                o.Analyzer,
		AnalyzerLowercases:      o.AnalyzerLowercases,
		FieldAnalysis:           o.FieldAnalysis,
		FieldsAnalysedByDefault: o.FieldsAnalysedByDefault,
		AllowLeadingWildcard:    o.AllowLeadingWildcard,
		AnalyzeWildcard:         o.AnalyzeWildcard,
		MaxClauses:              o.MaxClauses,
		FuzzyMaxExpansions:      o.FuzzyMaxExpansions,
		FuzzyPrefixLength:       o.FuzzyPrefixLength,
		FuzzyTranspositions:     o.FuzzyTranspositions,
		PhraseSlop:              o.PhraseSlop,
		TieBreaker:              o.TieBreaker,
		Fuzziness:               o.Fuzziness,
		SimpleOff:               o.SimpleOff,
	}
	if o.And {
		lo.DefaultOperator = lucene.AND
	}
	var q query.Query
	var err error
	if simple {
		q, err = lucene.ParseSimple(input, lo)
	} else {
		q, err = lucene.Parse(input, lo)
	}
	if err == nil {
		return q, nil
	}
	if se, ok := err.(*lucene.SyntaxError); ok {
		if se.TooComplex {
			return nil, &edge.Error{Code: edge.CodeTooComplex, Offset: se.Offset, Message: se.Message, Err: se}
		}
		return nil, &edge.Error{Code: edge.CodeInvalidQuery, Offset: se.Offset, Err: se,
			Message: "syntax error at position " + strconv.Itoa(se.Offset) + " (line " + strconv.Itoa(se.Line) +
				", column " + strconv.Itoa(se.Column) + "): " + se.Message}
	}
	return nil, &edge.Error{Code: edge.CodeInvalidQuery, Offset: -1, Message: err.Error(), Err: err}
}
