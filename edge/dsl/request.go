package dsl

import (
	"strconv"
	"strings"

	"github.com/cdaedge/cdaedge/edge"
	"github.com/cdaedge/cdaedge/snapshot"

	"github.com/cdaedge/cdaedge/edge/content"
	"github.com/cdaedge/cdaedge/edge/jsonr"
	"github.com/cdaedge/cdaedge/edge/jsonw"
	"github.com/cdaedge/cdaedge/edge/query"
)

// filterMembers are the documented field-filter members of the search endpoint (spec
// §4 parameter table), given in the body or the URL query (D7).
var filterMembers = [...]string{
	"Name", "TemplateName", "Status", "CreatedBy", "CreatedAt", "UpdatedAt", "PublishedAt",
	"Data", "PublishedBy", "UpdatedBy", "ContentID", "TemplateID",
}

func isFilterMember(name string) bool {
	for _, m := range filterMembers[:] {
		if m == name {
			return true
		}
	}
	return false
}

// unsupportedMembers are Elasticsearch search-body members that change the answer in
// ways the envelope cannot carry; they are refused rather than silently ignored.
var unsupportedMembers = [...]string{
	"min_score", "search_after", "collapse", "highlight", "rescore", "suggest", "script_fields",
	"runtime_mappings", "docvalue_fields", "stored_fields", "fields", "indices_boost", "pit",
	"knn", "ext", "terminate_after", "slice", "point_in_time", "retriever", "rank", "sub_searches",
}

// ignoredMembers are accepted and have no effect on the answer.
var ignoredMembers = [...]string{"timeout", "profile", "explain", "version", "seq_no_primary_term", "stats"}

func inList(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// collected holds the members of body and URL before they are combined.
type collected struct {
	query          *jsonr.Result
	postFilter     *jsonr.Result
	from, size     *jsonr.Result
	fromP, sizeP   string // paths for messages
	sort           *jsonr.Result
	source         *jsonr.Result
	aggs           *jsonr.Result
	highlight      *jsonr.Result
	trackScores    bool
	page, pageSize *jsonr.Result
	nimSort        *jsonr.Result
	sortAsc        *jsonr.Result
	filters        []namedValue
	// URL-only
	urlQ      *string
	urlQOpts  map[string]string
	urlSort   *string
	urlSource *SourceFilter
	urlSrcSet bool
}

type namedValue struct {
	name, path string
	v          jsonr.Result
}

func (d *decoder) request(body string) (*Request, error) {
	v, err := d.parseBody(body)
	if err != nil {
		return nil, err
	}
	var c collected
	if v.Exists() {
		if err := d.members(v, "", func(key string, val jsonr.Result) error { return d.bodyMember(&c, key, val) }); err != nil {
			return nil, err
		}
	}
	if err := d.urlParams(&c); err != nil {
		return nil, err
	}
	return d.assemble(&c)
}

func (d *decoder) bodyMember(c *collected, key string, val jsonr.Result) error {
	val2 := val
	switch {
	case key == "query":
		c.query = &val2
	case key == "post_filter":
		c.postFilter = &val2
	case key == "from":
		c.from, c.fromP = &val2, "from"
	case key == "size":
		c.size, c.sizeP = &val2, "size"
	case key == "sort":
		c.sort = &val2
	case key == "_source":
		c.source = &val2
	case key == "aggs" || key == "aggregations":
		if c.aggs != nil {
			return errorf(edge.CodeInvalidQuery, key, "give aggregations once, as \"aggs\" or as \"aggregations\"")
		}
		c.aggs = &val2
	case key == "track_total_hits":
		if val.Type != jsonr.True && val.Type != jsonr.False && val.Type != jsonr.Number {
			return wrongType(key, "true, false or a number", val)
		}
	case key == "track_scores":
		b, err := boolean(val, key)
		c.trackScores = b
		return err
	case key == "Page":
		c.page = &val2
	case key == "PageSize":
		c.pageSize = &val2
	case key == "Sort":
		c.nimSort = &val2
	case key == "SortAsc":
		c.sortAsc = &val2
	case isFilterMember(key):
		c.filters = append(c.filters, namedValue{key, key, val})
	case key == "highlight" && d.opts.Highlight:
		c.highlight = &val2
	case inList(ignoredMembers[:], key):
	case inList(unsupportedMembers[:], key):
		return errorf(edge.CodeInvalidQuery, key, "the search body member \""+key+"\" is not supported")
	default:
		return errorf(edge.CodeInvalidQuery, "", "unknown search body member \""+edge.Clip(key)+"\"")
	}
	return nil
}

// urlParams folds the URL query parameters in (D7, D11): the Nimvio members and
// Elasticsearch's URI search parameters. A member given both in the body and the URL
// is an error; unknown parameters are ignored.
func (d *decoder) urlParams(c *collected) error {
	dup := func(name string) error {
		return errorf(edge.CodeInvalidArgument, "", "\""+name+"\" is given both in the body and in the URL query")
	}
	seen := map[string]bool{}
	for _, p := range d.opts.Params {
		name := p.Name
		known := name == "Page" || name == "PageSize" || name == "Sort" || name == "SortAsc" || isFilterMember(name) ||
			inList([]string{"q", "df", "default_operator", "analyzer", "analyze_wildcard", "lenient", "from", "size", "sort",
				"_source", "_source_includes", "_source_excludes", "track_total_hits", "track_scores"}, name)
		if !known {
			continue
		}
		if seen[name] {
			return errorf(edge.CodeInvalidArgument, "", "query parameter \""+edge.Clip(name)+"\" is given more than once")
		}
		seen[name] = true
		sv := jsonr.Result{Type: jsonr.String, Str: p.Value, Raw: string(jsonw.String(nil, p.Value))}
		switch name {
		case "Page":
			if c.page != nil {
				return dup(name)
			}
			c.page = &sv
		case "PageSize":
			if c.pageSize != nil {
				return dup(name)
			}
			c.pageSize = &sv
		case "Sort":
			if c.nimSort != nil {
				return dup(name)
			}
			c.nimSort = &sv
		case "SortAsc":
			if c.sortAsc != nil {
				return dup(name)
			}
			c.sortAsc = &sv
		case "from":
			if c.from != nil {
				return dup(name)
			}
			c.from, c.fromP = &sv, "from (URL)"
		case "size":
			if c.size != nil {
				return dup(name)
			}
			c.size, c.sizeP = &sv, "size (URL)"
		case "q":
			q := p.Value
			c.urlQ = &q
		case "df", "default_operator", "analyzer", "analyze_wildcard", "lenient":
			if c.urlQOpts == nil {
				c.urlQOpts = map[string]string{}
			}
			c.urlQOpts[name] = p.Value
		case "sort":
			if c.sort != nil {
				return dup(name)
			}
			s := p.Value
			c.urlSort = &s
		case "_source", "_source_includes", "_source_excludes":
			if c.source != nil {
				return dup(name)
			}
			if c.urlSource == nil {
				c.urlSource = &SourceFilter{}
			}
			c.urlSrcSet = true
			switch {
			case name == "_source" && p.Value == "false":
				c.urlSource.None = true
			case name == "_source" && p.Value == "true":
			case name == "_source" || name == "_source_includes":
				c.urlSource.Includes = append(c.urlSource.Includes, splitList(p.Value)...)
			default:
				c.urlSource.Excludes = append(c.urlSource.Excludes, splitList(p.Value)...)
			}
		case "track_scores":
			c.trackScores = p.Value == "true"
		case "track_total_hits":
		default:
			for _, f := range c.filters {
				if f.name == name {
					return dup(name)
				}
			}
			c.filters = append(c.filters, namedValue{name, name + " (URL)", sv})
		}
	}
	return nil
}

func (d *decoder) assemble(c *collected) (*Request, error) {
	req := &Request{Size: DefaultSize, TrackScores: c.trackScores}
	var err error
	// Query: the body's, or ?q= (a query_string), or match_all (D10).
	switch {
	case c.urlQ != nil && c.query != nil:
		return nil, errorf(edge.CodeInvalidArgument, "", "give the query either in the body or as ?q=, not both")
	case c.urlQ != nil:
		req.Query, err = d.uriQuery(*c.urlQ, c.urlQOpts)
	case c.query != nil:
		req.Query, err = d.query(*c.query, "query", 0)
	default:
		req.Query = query.MatchAll{}
	}
	if err != nil {
		return nil, err
	}
	if c.postFilter != nil {
		if req.PostFilter, err = d.query(*c.postFilter, "post_filter", 0); err != nil {
			return nil, err
		}
	}
	if req.Query, err = d.applyFilters(req.Query, c.filters); err != nil {
		return nil, err
	}
	if err := d.paging(c, req); err != nil {
		return nil, err
	}
	if err := d.sorting(c, req); err != nil {
		return nil, err
	}
	switch {
	case c.source != nil:
		if req.Source, err = parseSource(*c.source, "_source"); err != nil {
			return nil, err
		}
	case c.urlSrcSet:
		if !c.urlSource.None && len(c.urlSource.Includes) == 0 && len(c.urlSource.Excludes) == 0 {
			c.urlSource = nil
		}
		req.Source = c.urlSource
	}
	if c.aggs != nil {
		if req.Aggs, err = d.aggs(*c.aggs, "aggs", 0); err != nil {
			return nil, err
		}
	}
	if c.highlight != nil {
		if req.Highlight, err = d.highlight(*c.highlight, "highlight"); err != nil {
			return nil, err
		}
	}
	return req, nil
}

// uriQuery compiles ?q= as Elasticsearch's URI search does: a query_string with df,
// default_operator, analyzer and analyze_wildcard from the URL.
func (d *decoder) uriQuery(q string, opts map[string]string) (query.Query, error) {
	b := jsonw.String([]byte(`{"query":`), q)
	for _, k := range []string{"df", "default_operator", "analyzer", "analyze_wildcard", "lenient"} {
		v, ok := opts[k]
		if !ok {
			continue
		}
		name := k
		if k == "df" {
			name = "default_field"
		}
		b = append(b, `,"`+name+`":`...)
		if k == "analyze_wildcard" || k == "lenient" {
			if v != "true" && v != "false" {
				return nil, errorf(edge.CodeInvalidArgument, k, "must be true or false")
			}
			b = append(b, v...)
		} else {
			b = jsonw.String(b, v)
		}
	}
	b = append(b, '}')
	return d.queryString(jsonr.Parse(string(b)), "q", false)
}

// paging applies from/size or Page/PageSize (D7, D12).
func (d *decoder) paging(c *collected, req *Request) error {
	window := d.lim.MaxResultWindow
	if (c.from != nil || c.size != nil) && (c.page != nil || c.pageSize != nil) {
		return errorf(edge.CodeInvalidArgument, "", "give either from/size or Page/PageSize, not both")
	}
	var err error
	if c.from != nil {
		if req.From, err = integer(*c.from, c.fromP, 0, window); err != nil {
			return err
		}
	}
	if c.size != nil {
		if req.Size, err = integer(*c.size, c.sizeP, 0, window); err != nil {
			return err
		}
	}
	page, size := 1, DefaultSize
	if c.page != nil && !(c.page.Type == jsonr.String && c.page.Str == "") {
		if page, err = integer(*c.page, "Page", 1, 1<<31-1); err != nil {
			return err
		}
	}
	if c.pageSize != nil && !(c.pageSize.Type == jsonr.String && c.pageSize.Str == "") {
		if size, err = integer(*c.pageSize, "PageSize", 1, window); err != nil {
			return err
		}
	}
	if c.page != nil || c.pageSize != nil {
		from := int64(page-1) * int64(size)
		if from+int64(size) > int64(window) {
			return errorf(edge.CodeInvalidArgument, "Page", "(Page-1)*PageSize + PageSize must be at most "+strconv.Itoa(window))
		}
		req.From, req.Size = int(from), size
	}
	if req.From+req.Size > window {
		return errorf(edge.CodeInvalidArgument, "", "from + size must be at most "+strconv.Itoa(window)+", not "+strconv.Itoa(req.From+req.Size)+" (index.max_result_window)")
	}
	return nil
}

// applyFilters folds the Nimvio field filters (D4, D5) into q as non-scoring clauses.
func (d *decoder) applyFilters(q query.Query, filters []namedValue) (query.Query, error) {
	var clauses []query.Clause
	for _, f := range filters {
		fq, err := d.memberFilter(f.name, f.v, f.path, 0)
		if err != nil {
			return nil, err
		}
		if fq != nil {
			clauses = append(clauses, query.Clause{Occur: query.Filter, Query: fq})
		}
	}
	if len(clauses) == 0 {
		return q, nil
	}
	if err := d.count(len(clauses), "filters"); err != nil {
		return nil, err
	}
	if _, all := q.(query.MatchAll); all {
		return query.Bool{Clauses: clauses}, nil
	}
	return query.Bool{Clauses: append([]query.Clause{{Occur: query.Must, Query: q}}, clauses...)}, nil
}

// memberFilter compiles one field filter: D4 for strings (every token of the value
// occurs in the field), D5 for dates (the whole unit), exact for numbers and booleans,
// nested paths for a Data object, any alternative for an array (D12).
func (d *decoder) memberFilter(field string, v jsonr.Result, path string, depth int) (query.Query, error) {
	if depth > d.lim.MaxDepth {
		return nil, errorf(edge.CodeTooComplex, path, "the filter nests deeper than "+strconv.Itoa(d.lim.MaxDepth)+" levels")
	}
	switch {
	case v.IsObject():
		if field != "Data" && !strings.HasPrefix(field, "Data.") {
			return nil, wrongType(path, "a string", v)
		}
		var clauses []query.Clause
		err := d.members(v, path, func(key string, val jsonr.Result) error {
			q, err := d.memberFilter(field+"."+key, val, join(path, key), depth+1)
			if err == nil && q != nil {
				clauses = append(clauses, query.Clause{Occur: query.Filter, Query: q})
			}
			return err
		})
		if err != nil || len(clauses) == 0 {
			return nil, err
		}
		if len(clauses) == 1 {
			return clauses[0].Query, nil
		}
		return query.Bool{Clauses: clauses}, d.count(len(clauses), path)
	case v.IsArray():
		var clauses []query.Clause
		var err error
		i := 0
		v.ForEach(func(_, e jsonr.Result) bool {
			var q query.Query
			q, err = d.memberFilter(field, e, index(path, i), depth+1)
			i++
			if err == nil && q != nil {
				clauses = append(clauses, query.Clause{Occur: query.Should, Query: q})
			}
			return err == nil
		})
		if err != nil || len(clauses) == 0 {
			return nil, err
		}
		return query.Bool{Clauses: clauses}, d.count(len(clauses), path)
	case v.Type == jsonr.Null:
		return nil, wrongType(path, "a string", v)
	}
	if snapshot.IsDateMember(field) {
		if v.Type == jsonr.String && v.Str == "" {
			return nil, nil
		}
		return dateEquality(field, v, path)
	}
	if v.Type == jsonr.Number || v.Type == jsonr.True || v.Type == jsonr.False {
		if d.kindOf(field) == kindText && d.schema != nil && d.schema.FieldType(field)&(content.TypeNumber|content.TypeBool) == 0 {
			// A number given for a text member: its text is the filter value.
			return d.tokenFilter(field, v.Raw, path)
		}
		if v.Type == jsonr.Number {
			s := query.Scalar{Kind: query.ScalarNumber, Number: v.Num, Text: v.Raw}
			return query.Range{Field: field, Lower: &query.Bound{Value: s, Inclusive: true}, Upper: &query.Bound{Value: s, Inclusive: true}}, nil
		}
		s := query.Scalar{Kind: query.ScalarBool, Bool: v.Type == jsonr.True, Text: v.Raw}
		return query.Range{Field: field, Lower: &query.Bound{Value: s, Inclusive: true}, Upper: &query.Bound{Value: s, Inclusive: true}}, nil
	}
	return d.tokenFilter(field, v.Str, path)
}

// tokenFilter is the D4 string filter (content.AllWords): every word of the analysed
// value occurs in the analysed field; for "Data" itself, in any of its text fields taken
// together (D12).
func (d *decoder) tokenFilter(field, value, path string) (query.Query, error) {
	words, err := content.Words("["+path+"]", value)
	if words == nil || err != nil {
		return nil, err
	}
	fields := []string{field}
	if field == "Data" && d.schema != nil {
		fields = content.DataTextFields(d.schema)
	}
	if err := d.count(len(words)*len(fields), path); err != nil {
		return nil, err
	}
	return content.AllWords(fields, words), nil
}

// ---- sorting ----

// sorting applies sort (Elasticsearch forms, D12) or Sort/SortAsc (D6).
func (d *decoder) sorting(c *collected, req *Request) error {
	nim := c.nimSort != nil || c.sortAsc != nil
	if nim && (c.sort != nil || c.urlSort != nil) {
		return errorf(edge.CodeInvalidArgument, "", "give either sort or Sort/SortAsc, not both")
	}
	var err error
	switch {
	case nim:
		field := "CreatedAt"
		if c.nimSort != nil {
			name, err := strictStr(*c.nimSort, "Sort")
			if err != nil {
				return err
			}
			if name != "" {
				if field, err = d.resolveSort(name, "Sort", false); err != nil {
					return err
				}
			}
		}
		asc := false
		if c.sortAsc != nil {
			if asc, err = sortAscValue(*c.sortAsc); err != nil {
				return err
			}
		}
		if field != "" {
			req.Sort = []query.SortField{{Field: field, Desc: !asc}}
		}
	case c.sort != nil:
		req.Sort, err = d.sortValue(*c.sort, "sort")
	case c.urlSort != nil:
		req.Sort, err = d.uriSort(*c.urlSort)
	}
	return err
}

// sortAscValue reads SortAsc: a boolean, or true/false in any case and 1/0 (D12).
func sortAscValue(v jsonr.Result) (bool, error) {
	switch v.Type {
	case jsonr.True:
		return true, nil
	case jsonr.False:
		return false, nil
	case jsonr.String:
		return content.SortAscending("[SortAsc]", v.Str)
	}
	return false, errorf(edge.CodeInvalidArgument, "SortAsc", "must be true or false, not "+edge.Clip(v.Raw))
}

// resolveSort resolves a sort field (D6, D12): the .keyword form sorts by the same raw
// value; a field no item has is an error unless unmapped is set (then it sorts nothing:
// "").
func (d *decoder) resolveSort(name, path string, unmapped bool) (string, error) {
	switch name {
	case "_doc", "_id":
		// Items are stored in ContentID order, so index order is ContentID ascending.
		return "ContentID", nil
	}
	base := strings.TrimSuffix(name, ".keyword")
	if d.schema == nil {
		return base, nil
	}
	f, ok := d.schema.SortField(base)
	if ok {
		return f, nil
	}
	if unmapped {
		return "", nil
	}
	return "", errorf(edge.CodeInvalidArgument, path, "no item has the field ["+edge.Clip(name)+"] to sort on; name a content item member such as CreatedAt or Name, or Data.<element>")
}

func (d *decoder) sortValue(v jsonr.Result, path string) ([]query.SortField, error) {
	var out []query.SortField
	add := func(e jsonr.Result, p string) error {
		keys, err := d.sortElement(e, p)
		out = append(out, keys...)
		if len(out) > d.lim.MaxSortKeys {
			return errorf(edge.CodeTooComplex, path, "more than "+strconv.Itoa(d.lim.MaxSortKeys)+" sort keys")
		}
		return err
	}
	if v.IsArray() {
		var err error
		i := 0
		v.ForEach(func(_, e jsonr.Result) bool {
			err = add(e, index(path, i))
			i++
			return err == nil
		})
		return out, err
	}
	// add appends to out: call it before reading out (the order of evaluation within
	// one return statement is unspecified, and TinyGo reads out first).
	err := add(v, path)
	return out, err
}

func (d *decoder) sortElement(e jsonr.Result, path string) ([]query.SortField, error) {
	switch {
	case e.Type == jsonr.String:
		if e.Str == "_score" {
			return []query.SortField{{Score: true, Desc: true}}, nil
		}
		f, err := d.resolveSort(e.Str, path, false)
		if err != nil || f == "" {
			return nil, err
		}
		return []query.SortField{{Field: f}}, nil
	case e.IsObject():
		var out []query.SortField
		err := d.members(e, path, func(name string, spec jsonr.Result) error {
			p := join(path, name)
			if name == "_geo_distance" || name == "_script" {
				return errorf(edge.CodeInvalidQuery, p, "sorting by "+name+" is not supported")
			}
			key := query.SortField{Score: name == "_score", Desc: name == "_score"}
			unmapped := false
			mode := ""
			switch {
			case spec.Type == jsonr.String:
				desc, err := sortOrder(spec.Str, p)
				if err != nil {
					return err
				}
				key.Desc = desc
			case spec.IsObject():
				err := d.members(spec, p, func(k string, val jsonr.Result) error {
					pp := join(p, k)
					s, err := str(val, pp)
					if err != nil {
						return err
					}
					switch k {
					case "order":
						key.Desc, err = sortOrder(s, pp)
					case "missing":
						if s != "_last" {
							err = errorf(edge.CodeInvalidArgument, pp, "only \"_last\" is supported: items without the field always come last")
						}
					case "unmapped_type":
						unmapped = true
					case "mode":
						mode = s
					case "numeric_type", "format":
					default:
						err = errorf(edge.CodeInvalidQuery, p, "sort option ["+edge.Clip(k)+"] is not supported")
					}
					return err
				})
				if err != nil {
					return err
				}
			default:
				return wrongType(p, "\"asc\", \"desc\" or an object such as {\"order\":\"desc\"}", spec)
			}
			if mode != "" && !(mode == "min" && !key.Desc || mode == "max" && key.Desc) {
				return errorf(edge.CodeInvalidArgument, join(p, "mode"), "only the default mode is supported: min for ascending, max for descending")
			}
			if !key.Score {
				f, err := d.resolveSort(name, p, unmapped)
				if err != nil {
					return err
				}
				if f == "" {
					return nil
				}
				key.Field = f
			}
			out = append(out, key)
			return nil
		})
		return out, err
	}
	return nil, wrongType(path, "a field name or an object such as {\"Name\":\"asc\"}", e)
}

func sortOrder(s, path string) (bool, error) {
	switch strings.ToLower(s) {
	case "asc":
		return false, nil
	case "desc":
		return true, nil
	}
	return false, errorf(edge.CodeInvalidArgument, path, "sort order must be \"asc\" or \"desc\", not \""+edge.Clip(s)+"\"")
}

// uriSort parses the URI search form: field[:asc|desc], comma-separated.
func (d *decoder) uriSort(s string) ([]query.SortField, error) {
	var out []query.SortField
	for _, part := range splitList(s) {
		name, order, hasOrder := strings.Cut(part, ":")
		key := query.SortField{}
		if name == "_score" {
			key.Score, key.Desc = true, true
		}
		if hasOrder {
			desc, err := sortOrder(order, "sort")
			if err != nil {
				return nil, err
			}
			key.Desc = desc
		}
		if !key.Score {
			f, err := d.resolveSort(name, "sort", false)
			if err != nil {
				return nil, err
			}
			key.Field = f
		}
		out = append(out, key)
		if len(out) > d.lim.MaxSortKeys {
			return nil, errorf(edge.CodeTooComplex, "sort", "more than "+strconv.Itoa(d.lim.MaxSortKeys)+" sort keys")
		}
	}
	return out, nil
}
