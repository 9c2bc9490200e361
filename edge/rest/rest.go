// Package rest compiles the REST list endpoint's query string (API.md, "REST: list
// content items") into the one query model. It is a pure function of the query string
// and the environment's Schema; the router evaluates and renders the result.
package rest

import (
	"strings"

	"github.com/cdaedge/cdaedge/edge"
	"github.com/cdaedge/cdaedge/edge/content"
	"github.com/cdaedge/cdaedge/edge/query"
)

// restFilters maps the list endpoint's filter parameters to the members they filter
// (API.md D4).
var restFilters = [...]struct{ param, field string }{
	{"searchByName", "Name"},
	{"searchByTemplateName", "TemplateName"},
	{"status", "Status"},
	{"searchByCreatedBy", "CreatedBy"},
}

// restListParams are every parameter of the list endpoint, in the documented spelling.
var restListParams = [...]string{
	"searchByName", "searchByTemplateName", "status", "searchByCreatedBy",
	"page", "pageSize", "sort", "sortAsc",
}

// ParseList compiles the list endpoint's query string into a Search.
// Unknown parameters are ignored (clients add cache-busters), but a known name in
// another case or a repeated known parameter is an error (API.md D12).
func ParseList(rawQuery string, schema content.Schema) (*query.Search, error) {
	params, err := edge.ParseParams(rawQuery)
	if err != nil {
		return nil, err
	}
	values := map[string]string{}
	for _, p := range params {
		known := ""
		for _, name := range restListParams[:] {
			if strings.EqualFold(name, p.Name) {
				known = name
				break
			}
		}
		switch {
		case known == "":
			continue
		case known != p.Name:
			return nil, edge.Errorf(edge.CodeInvalidArgument, "unknown query parameter %q: did you mean %q?", edge.Clip(p.Name), known)
		}
		if _, dup := values[known]; dup {
			return nil, edge.Errorf(edge.CodeInvalidArgument, "query parameter %q is given more than once", known)
		}
		values[known] = p.Value
	}

	var filters []query.Clause
	for _, f := range restFilters[:] {
		v, ok := values[f.param]
		if !ok {
			continue
		}
		q, err := content.FieldFilter(f.param, f.field, v)
		if err != nil {
			return nil, err
		}
		if q != nil {
			filters = append(filters, query.Clause{Occur: query.Filter, Query: q})
		}
	}
	s := &query.Search{Query: query.MatchAll{}, Size: content.DefaultPageSize}
	if len(filters) > 0 {
		s.Query = query.Bool{Clauses: filters}
	}
	page, err := content.Page("page", values["page"])
	if err != nil {
		return nil, err
	}
	if s.Size, err = content.PageSize("pageSize", values["pageSize"]); err != nil {
		return nil, err
	}
	s.From = content.Offset(page, s.Size)
	asc, err := content.SortAscending("sortAsc", values["sortAsc"])
	if err != nil {
		return nil, err
	}
	field, err := content.SortField("sort", values["sort"], schema)
	if err != nil {
		return nil, err
	}
	s.Sort = []query.SortField{{Field: field, Desc: !asc}}
	return s, nil
}
