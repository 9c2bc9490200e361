package dsl

import (
	"strconv"

	"github.com/cdaedge/cdaedge/edge"
	"github.com/cdaedge/cdaedge/edge/jsonr"
	"github.com/cdaedge/cdaedge/edge/query"
)

// query compiles one clause object ({"<type>": {...}}) at path (API.md D10).
// This switch is the table of clause types; each family's decoders live in a file
// of their own (clause_fulltext.go, clause_term.go, clause_range.go, ...).
func (d *decoder) query(v jsonr.Result, path string, depth int) (query.Query, error) {
	if depth > d.lim.MaxDepth {
		return nil, errorf(edge.CodeTooComplex, path, "clauses nest deeper than "+strconv.Itoa(d.lim.MaxDepth)+" levels (limit: nesting depth)")
	}
	if !v.IsObject() {
		return nil, errorf(edge.CodeInvalidArgument, path, "a query clause must be an object such as {\"match_all\":{}}, not "+typeName(v))
	}
	kind, body, second, n := onlyMember(v)
	switch n {
	case 0:
		return nil, errorf(edge.CodeInvalidQuery, path, "query malformed, empty clause found")
	case 2:
		return nil, errorf(edge.CodeInvalidQuery, path, "a query clause has exactly one key, its type; found ["+edge.Clip(kind)+"] and ["+edge.Clip(second)+"]")
	}
	p := join(path, kind)
	switch kind {
	case "match_all":
		return d.matchAll(body, p)
	case "match_none":
		return d.matchNone(body, p)
	case "match":
		return d.match(body, p, matchBool)
	case "match_phrase":
		return d.match(body, p, matchPhrase)
	case "match_phrase_prefix":
		return d.match(body, p, matchPhrasePrefix)
	case "match_bool_prefix":
		return d.match(body, p, matchBoolPrefix)
	case "multi_match":
		return d.multiMatch(body, p)
	case "term":
		return d.term(body, p)
	case "terms":
		return d.terms(body, p)
	case "range":
		return d.rangeClause(body, p)
	case "prefix", "wildcard", "regexp":
		return d.pattern(kind, body, p)
	case "fuzzy":
		return d.fuzzy(body, p)
	case "exists":
		return d.exists(body, p)
	case "ids":
		return d.ids(body, p)
	case "bool":
		return d.boolClause(body, p, depth)
	case "constant_score":
		return d.constantScore(body, p, depth)
	case "dis_max":
		return d.disMax(body, p, depth)
	case "query_string":
		return d.queryString(body, p, false)
	case "simple_query_string":
		return d.queryString(body, p, true)
	}
	return nil, errorf(edge.CodeInvalidQuery, path, "unknown query clause type ["+edge.Clip(kind)+"]; supported: match_all, match_none, match, match_phrase, match_phrase_prefix, match_bool_prefix, multi_match, query_string, simple_query_string, term, terms, range, prefix, wildcard, regexp, fuzzy, exists, ids, bool, constant_score, dis_max")
}

func unsupported(path, clause, key string) error {
	return errorf(edge.CodeInvalidQuery, path, "["+clause+"] query does not support ["+edge.Clip(key)+"]")
}

// boosted wraps q in a Boost unless b is 1.
func boosted(q query.Query, b float64) query.Query {
	if b == 1 {
		return q
	}
	return query.Boost{Query: q, Boost: b}
}

// isCommon handles the members every clause takes: boost and _name (ignored, there
// are no per-hit matched_queries in the envelope).
func isCommon(key string, val jsonr.Result, path string, b *float64) (bool, error) {
	switch key {
	case "boost":
		f, err := boost(val, join(path, key))
		*b = f
		return true, err
	case "_name":
		_, err := strictStr(val, join(path, key))
		return true, err
	}
	return false, nil
}
