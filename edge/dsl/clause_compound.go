package dsl

import (
	"github.com/cdaedge/cdaedge/edge"
	"github.com/cdaedge/cdaedge/edge/jsonr"
	"github.com/cdaedge/cdaedge/edge/query"
)

func (d *decoder) clauseList(v jsonr.Result, path string, depth int) ([]query.Query, error) {
	if v.IsArray() {
		var out []query.Query
		var err error
		i := 0
		v.ForEach(func(_, c jsonr.Result) bool {
			var q query.Query
			q, err = d.query(c, index(path, i), depth+1)
			i++
			if err != nil {
				return false
			}
			out = append(out, q)
			return true
		})
		return out, err
	}
	q, err := d.query(v, path, depth+1)
	if err != nil {
		return nil, err
	}
	return []query.Query{q}, nil
}

func (d *decoder) boolClause(body jsonr.Result, path string, depth int) (query.Query, error) {
	var must, filter, should, mustNot []query.Query
	b := 1.0
	msm := ""
	err := d.members(body, path, func(key string, val jsonr.Result) error {
		if ok, err := isCommon(key, val, path, &b); ok {
			return err
		}
		p := join(path, key)
		var err error
		var qs []query.Query
		switch key {
		case "must", "filter", "should", "must_not":
			qs, err = d.clauseList(val, p, depth)
		case "minimum_should_match":
			if msm, err = str(val, p); err == nil {
				if _, ok := minShouldMatch(1<<20, msm); !ok {
					err = errorf(edge.CodeInvalidArgument, p, "bad minimum_should_match \""+edge.Clip(msm)+"\"")
				}
			}
		case "adjust_pure_negative":
			_, err = boolean(val, p)
		default:
			return unsupported(path, "bool", key)
		}
		switch key {
		case "must":
			must = append(must, qs...)
		case "filter":
			filter = append(filter, qs...)
		case "should":
			should = append(should, qs...)
		case "must_not":
			mustNot = append(mustNot, qs...)
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	var q query.Bool
	add := func(occur query.Occur, qs []query.Query) {
		for _, x := range qs {
			q.Clauses = append(q.Clauses, query.Clause{Occur: occur, Query: x})
		}
	}
	// Lucene's order of clauses as Elasticsearch adds them: must, must_not, should, filter.
	add(query.Must, must)
	add(query.MustNot, mustNot)
	add(query.Should, should)
	add(query.Filter, filter)
	if err := d.count(len(q.Clauses), path); err != nil {
		return nil, err
	}
	if len(q.Clauses) == 0 {
		return boosted(query.MatchAll{}, b), nil
	}
	if msm != "" {
		if m, _ := minShouldMatch(len(should), msm); m > 0 {
			q.MinimumShouldMatch = m
		}
	}
	if len(mustNot) == len(q.Clauses) {
		// A pure negative query matches everything else (Elasticsearch's
		// fixNegativeQueryIfNeeded adds *:* as a filter).
		q.Clauses = append(q.Clauses, query.Clause{Occur: query.Filter, Query: query.MatchAll{}})
	}
	return boosted(q, b), nil
}

func (d *decoder) constantScore(body jsonr.Result, path string, depth int) (query.Query, error) {
	var inner query.Query
	b := 1.0
	err := d.members(body, path, func(key string, val jsonr.Result) error {
		if ok, err := isCommon(key, val, path, &b); ok {
			return err
		}
		if key != "filter" {
			return unsupported(path, "constant_score", key)
		}
		var err error
		inner, err = d.query(val, join(path, key), depth+1)
		return err
	})
	if err != nil {
		return nil, err
	}
	if inner == nil {
		return nil, errorf(edge.CodeInvalidQuery, path, "[constant_score] requires a 'filter' element")
	}
	return boosted(query.ConstantScore{Query: inner}, b), nil
}

func (d *decoder) disMax(body jsonr.Result, path string, depth int) (query.Query, error) {
	var qs []query.Query
	b, tie := 1.0, 0.0
	err := d.members(body, path, func(key string, val jsonr.Result) error {
		if ok, err := isCommon(key, val, path, &b); ok {
			return err
		}
		p := join(path, key)
		var err error
		switch key {
		case "queries":
			qs, err = d.clauseList(val, p, depth)
		case "tie_breaker":
			tie, err = number(val, p)
		default:
			return unsupported(path, "dis_max", key)
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	if len(qs) == 0 {
		return nil, errorf(edge.CodeInvalidQuery, path, "[dis_max] requires 'queries' field with at least one clause")
	}
	return boosted(query.DisMax{Queries: qs, TieBreaker: tie}, b), d.count(len(qs), path)
}
