package dsl

import (
	"github.com/cdaedge/cdaedge/edge/jsonr"
	"github.com/cdaedge/cdaedge/edge/query"
)

func (d *decoder) matchAll(body jsonr.Result, path string) (query.Query, error) {
	b := 1.0
	err := d.members(body, path, func(key string, val jsonr.Result) error {
		if ok, err := isCommon(key, val, path, &b); ok {
			return err
		}
		return unsupported(path, "match_all", key)
	})
	if err != nil {
		return nil, err
	}
	return boosted(query.MatchAll{}, b), d.count(1, path)
}

func (d *decoder) matchNone(body jsonr.Result, path string) (query.Query, error) {
	b := 1.0
	err := d.members(body, path, func(key string, val jsonr.Result) error {
		if ok, err := isCommon(key, val, path, &b); ok {
			return err
		}
		return unsupported(path, "match_none", key)
	})
	if err != nil {
		return nil, err
	}
	return query.MatchNone{}, d.count(1, path)
}
