package dsl

import (
	"strconv"
	"strings"

	"github.com/cdaedge/cdaedge/edge"
	"github.com/cdaedge/cdaedge/edge/content"
	"github.com/cdaedge/cdaedge/edge/jsonr"
	"github.com/cdaedge/cdaedge/edge/query"
)

func (d *decoder) term(body jsonr.Result, path string) (query.Query, error) {
	field, fv, err := d.single(body, path, "term")
	if err != nil {
		return nil, err
	}
	fp := join(path, field)
	b := 1.0
	ci := false
	value := fv
	if fv.IsObject() {
		value = jsonr.Result{}
		err = d.members(fv, fp, func(key string, val jsonr.Result) error {
			if ok, err := isCommon(key, val, fp, &b); ok {
				return err
			}
			var err error
			switch key {
			case "value":
				value = val
			case "case_insensitive":
				ci, err = boolean(val, join(fp, key))
			default:
				return unsupported(fp, "term", key)
			}
			return err
		})
		if err != nil {
			return nil, err
		}
		if !value.Exists() {
			return nil, errorf(edge.CodeInvalidQuery, fp, "[term] requires value")
		}
	}
	if err := d.count(1, path); err != nil {
		return nil, err
	}
	var q query.Query
	if ci && (d.kindOf(field) == kindText || d.kindOf(field) == kindKeyword) {
		text, err := scalarText(value, join(fp, "value"))
		if err != nil {
			return nil, err
		}
		q = query.Regexp{Field: field, Pattern: caseInsensitiveLiteral(text)}
	} else {
		q, err = d.exactQuery(field, value, join(fp, "value"))
		if err != nil {
			return nil, err
		}
	}
	// D6: term does not score; ConstantScore makes that explicit to the evaluator.
	return boosted(query.ConstantScore{Query: q}, b), nil
}

func (d *decoder) terms(body jsonr.Result, path string) (query.Query, error) {
	if !body.IsObject() {
		return nil, wrongType(path, "an object", body)
	}
	b := 1.0
	var field string
	var values jsonr.Result
	err := d.members(body, path, func(key string, val jsonr.Result) error {
		if ok, err := isCommon(key, val, path, &b); ok {
			return err
		}
		if field != "" {
			return errorf(edge.CodeInvalidQuery, path, "[terms] query does not support multiple fields, found ["+edge.Clip(field)+"] and ["+edge.Clip(key)+"]")
		}
		field, values = key, val
		return nil
	})
	if err != nil {
		return nil, err
	}
	if field == "" {
		return nil, errorf(edge.CodeInvalidQuery, path, "[terms] query requires a field")
	}
	fp := join(path, field)
	if values.IsObject() {
		return nil, errorf(edge.CodeInvalidQuery, fp, "terms lookup (values from another document) is not supported")
	}
	if !values.IsArray() {
		return nil, wrongType(fp, "an array of values", values)
	}
	arr := values.Array()
	if len(arr) > d.lim.MaxTerms {
		return nil, errorf(edge.CodeTooComplex, fp, "more than "+strconv.Itoa(d.lim.MaxTerms)+" terms (limit: max terms count)")
	}
	if err := d.count(1, path); err != nil {
		return nil, err
	}
	if len(arr) == 0 {
		return query.MatchNone{}, nil
	}
	clauses := make([]query.Clause, 0, len(arr))
	for i, v := range arr {
		q, err := d.exactQuery(field, v, index(fp, i))
		if err != nil {
			return nil, err
		}
		clauses = append(clauses, query.Clause{Occur: query.Should, Query: q})
	}
	// Elasticsearch's TermInSetQuery: a constant-score disjunction, nested when it has
	// more values than one bool may hold (the terms limit is far above the clause one).
	clauses = query.Group(clauses, query.Should, content.MaxBoolClauses)
	return boosted(query.ConstantScore{Query: query.Bool{Clauses: clauses}}, b), nil
}

func (d *decoder) exists(body jsonr.Result, path string) (query.Query, error) {
	var field string
	b := 1.0
	err := d.members(body, path, func(key string, val jsonr.Result) error {
		if ok, err := isCommon(key, val, path, &b); ok {
			return err
		}
		if key != "field" {
			return unsupported(path, "exists", key)
		}
		var err error
		field, err = strictStr(val, join(path, key))
		return err
	})
	if err != nil {
		return nil, err
	}
	if field == "" {
		return nil, errorf(edge.CodeInvalidQuery, path, "[exists] requires field")
	}
	if err := d.count(1, path); err != nil {
		return nil, err
	}
	field = strings.TrimSuffix(field, ".keyword")
	// An object (Data, Data.hero) exists when any field below it does.
	if d.schema != nil && d.schema.FieldType(field) == 0 {
		var subs []query.Clause
		for _, f := range d.schema.FieldNames() {
			if strings.HasPrefix(f, field+".") {
				subs = append(subs, query.Clause{Occur: query.Should, Query: query.Exists{Field: f}})
			}
		}
		if len(subs) > 0 {
			if err := d.count(len(subs), path); err != nil {
				return nil, err
			}
			return boosted(query.ConstantScore{Query: query.Bool{Clauses: subs}}, b), nil
		}
	}
	return boosted(query.Exists{Field: field}, b), nil
}

func (d *decoder) ids(body jsonr.Result, path string) (query.Query, error) {
	var ids []string
	b := 1.0
	err := d.members(body, path, func(key string, val jsonr.Result) error {
		if ok, err := isCommon(key, val, path, &b); ok {
			return err
		}
		p := join(path, key)
		switch key {
		case "values":
			if !val.IsArray() {
				return wrongType(p, "an array of ContentIDs", val)
			}
			arr := val.Array()
			if len(arr) > d.lim.MaxTerms {
				return errorf(edge.CodeTooComplex, p, "more than "+strconv.Itoa(d.lim.MaxTerms)+" ids (limit: max terms count)")
			}
			for i, v := range arr {
				s, err := scalarText(v, index(p, i))
				if err != nil {
					return err
				}
				ids = append(ids, s)
			}
		case "type", "types":
			return errorf(edge.CodeInvalidQuery, p, "mapping types were removed in Elasticsearch 8")
		default:
			return unsupported(path, "ids", key)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return boosted(query.IDs{Values: ids}, b), d.count(1, path)
}
