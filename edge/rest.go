package edge

import (
	"github.com/cdaedge/cdaedge/edge/query"
	"strconv"
	"strings"

	"github.com/cdaedge/cdaedge/edge/analysis"
)

// Schema tells a front-end which members an environment's items have, so that it can
// reject a sort on an unknown member (decisions D6) without evaluating anything.
type Schema interface {
	// TopLevel returns the canonical spelling of a top-level member, matched
	// case-insensitively, and whether the environment knows it.
	TopLevel(name string) (string, bool)
}

// Paging defaults and limits of decisions D7.
const (
	DefaultPageSize = 10
	MaxPageSize     = 1000
	maxPage         = 1<<31 - 1
)

// restFilters maps the list endpoint's filter parameters to the members they filter
// (spec §1; decisions D4).
var restFilters = [...]struct{ param, field string }{
	{"searchByName", "Name"},
	{"searchByTemplateName", "TemplateName"},
	{"status", "Status"},
	{"searchByCreatedBy", "CreatedBy"},
}

// restListParams are every parameter of the list endpoint, in the spec's spelling.
var restListParams = [...]string{
	"searchByName", "searchByTemplateName", "status", "searchByCreatedBy",
	"page", "pageSize", "sort", "sortAsc",
}

// ParseRESTList compiles the list endpoint's query string (spec §1) into a Search.
// Unknown parameters are ignored (clients add cache-busters), but a known name in
// another case or a repeated known parameter is an error (decisions D12).
func ParseRESTList(rawQuery string, schema Schema) (*query.Search, error) {
	params, err := ParseParams(rawQuery)
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
			return nil, Errorf(CodeInvalidArgument, "unknown query parameter %q: did you mean %q?", clip(p.Name), known)
		}
		if _, dup := values[known]; dup {
			return nil, Errorf(CodeInvalidArgument, "query parameter %q is given more than once", known)
		}
		values[known] = p.Value
	}

	var filters []query.Clause
	for _, f := range restFilters[:] {
		v, ok := values[f.param]
		if !ok {
			continue
		}
		q, err := fieldFilter(f.param, f.field, v)
		if err != nil {
			return nil, err
		}
		if q != nil {
			filters = append(filters, query.Clause{Occur: query.Filter, Query: q})
		}
	}
	s := &query.Search{Query: query.MatchAll{}, Size: DefaultPageSize}
	if len(filters) > 0 {
		s.Query = query.Bool{Clauses: filters}
	}
	page, err := pageNumber("page", values["page"])
	if err != nil {
		return nil, err
	}
	if s.Size, err = pageSize("pageSize", values["pageSize"]); err != nil {
		return nil, err
	}
	s.From = pageOffset(page, s.Size)
	asc, err := sortAscending("sortAsc", values["sortAsc"])
	if err != nil {
		return nil, err
	}
	field, err := sortField("sort", values["sort"], schema)
	if err != nil {
		return nil, err
	}
	s.Sort = []query.SortField{{Field: field, Desc: !asc}}
	return s, nil
}

// fieldFilter compiles a string filter on a member (decisions D4): an item matches when
// every token of the analysed value occurs in the analysed member. An empty value is no
// filter (nil); a value with no tokens is an error.
func fieldFilter(param, field, value string) (query.Query, error) {
	if value == "" {
		return nil, nil
	}
	tokens := analysis.Standard(nil, value)
	if len(tokens) == 0 {
		return nil, Errorf(CodeInvalidArgument, "%s %q has no words to search for", param, clip(value))
	}
	if len(tokens) == 1 {
		return query.Term{Field: field, Text: tokens[0].Term}, nil
	}
	clauses := make([]query.Clause, len(tokens))
	for i, t := range tokens {
		clauses[i] = query.Clause{Occur: query.Filter, Query: query.Term{Field: field, Text: t.Term}}
	}
	return query.Bool{Clauses: clauses}, nil
}

// pageNumber parses a 1-based page number (decisions D7, D12); empty means 1.
func pageNumber(param, value string) (int, error) {
	if value == "" {
		return 1, nil
	}
	n, err := parseDigits(value)
	if err != nil || n < 1 || n > maxPage {
		return 0, Errorf(CodeInvalidArgument, "%s must be a whole number from 1 to %d, not %q", param, maxPage, clip(value))
	}
	return int(n), nil
}

// pageSize parses a page size (decisions D7); empty means the default.
func pageSize(param, value string) (int, error) {
	if value == "" {
		return DefaultPageSize, nil
	}
	n, err := parseDigits(value)
	if err != nil || n < 1 || n > MaxPageSize {
		return 0, Errorf(CodeInvalidArgument, "%s must be a whole number from 1 to %d, not %q", param, MaxPageSize, clip(value))
	}
	return int(n), nil
}

// parseDigits reads a non-negative decimal integer written with digits only (no sign,
// no spaces), as paging parameters are.
func parseDigits(s string) (int64, error) {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, strconv.ErrSyntax
		}
	}
	return strconv.ParseInt(s, 10, 64)
}

// sortAscending parses sortAsc: true/false in any case, 1/0; absent means descending
// (decisions D6, D12).
func sortAscending(param, value string) (bool, error) {
	switch {
	case value == "":
		return false, nil
	case strings.EqualFold(value, "true") || value == "1":
		return true, nil
	case strings.EqualFold(value, "false") || value == "0":
		return false, nil
	}
	return false, Errorf(CodeInvalidArgument, "%s must be true or false, not %q", param, clip(value))
}

// sortField resolves a sort name (decisions D6): a top-level member matched
// case-insensitively, or Data.<path>. Empty means the default, CreatedAt.
func sortField(param, name string, schema Schema) (string, error) {
	if name == "" {
		return "CreatedAt", nil
	}
	if len(name) > 5 && strings.EqualFold(name[:5], "Data.") {
		return "Data." + name[5:], nil
	}
	canonical, ok := schema.TopLevel(name)
	if !ok {
		return "", Errorf(CodeInvalidArgument, "%s: unknown field %q; name a content item member such as CreatedAt or Name, or Data.<element>", param, clip(name))
	}
	if canonical == "Data" {
		return "", Errorf(CodeInvalidArgument, "%s: Data is an object; name one of its elements as Data.<element>", param)
	}
	return canonical, nil
}

// maxOffset caps a page's offset: past the end of any environment, and small enough that
// offset+size cannot overflow an int, which has 32 bits under TinyGo's wasm.
const maxOffset = 1 << 30

// pageOffset is (page-1)*size, capped at maxOffset (the same answer, an empty page,
// with 32- and 64-bit ints).
func pageOffset(page, size int) int {
	if size > 0 && page-1 > maxOffset/size {
		return maxOffset
	}
	return (page - 1) * size
}
