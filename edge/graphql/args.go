package graphql

import (
	"math"
	"strconv"
	"strings"

	"github.com/cdaedge/cdaedge/edge"
	"github.com/cdaedge/cdaedge/edge/content"
	"github.com/cdaedge/cdaedge/edge/datetime"
	"github.com/cdaedge/cdaedge/edge/graphql/parser"
	"github.com/cdaedge/cdaedge/edge/jsonr"
	"github.com/cdaedge/cdaedge/edge/query"
)

// gqlArgKind says how an argument of content compiles (API.md D9).
type gqlArgKind uint8

const (
	argText    gqlArgKind = iota + 1 // D4 token-subset filter on a member
	argDate                          // D5 date equality: the whole unit written
	argID                            // exact ContentID
	argKeyword                       // exact value (TemplateID)
	argData                          // data: {...} or data: "..."
	argPage
	argPageSize
	argSort
	argSortAsc
	argRetrieveChild
	argDepth
)

// gqlArgs are the arguments of content: the documented table (API.md D9) plus retrieveChild and
// depth (D9). Names match case-insensitively (D12), which also accepts the capitalised
// member names of the examples (PublishedBy, ContentID) and contentId.
var gqlArgs = [...]struct {
	name  string
	kind  gqlArgKind
	field string
}{
	{"name", argText, "Name"},
	{"templateName", argText, "TemplateName"},
	{"status", argText, "Status"},
	{"createdBy", argText, "CreatedBy"},
	{"createdAt", argDate, "CreatedAt"},
	{"updatedBy", argText, "UpdatedBy"},
	{"updatedAt", argDate, "UpdatedAt"},
	{"publishedBy", argText, "PublishedBy"},
	{"publishedAt", argDate, "PublishedAt"},
	{"contentID", argID, "ContentID"},
	{"templateID", argKeyword, "TemplateID"},
	{"data", argData, "Data"},
	{"page", argPage, ""},
	{"pageSize", argPageSize, ""},
	{"sort", argSort, ""},
	{"sortAsc", argSortAsc, ""},
	{"retrieveChild", argRetrieveChild, ""},
	{"depth", argDepth, ""},
}

// gqlRangeOps are the date range suffixes (D5, D12).
var gqlRangeOps = [...]string{"gte", "gt", "lte", "lt"}

// maxChildDepth bounds retrieveChild's depth, as the document depth is bounded (D11).
const maxChildDepth = parser.DefaultMaxDepth

const knownArgs = "name, templateName, status, createdBy, createdAt, updatedBy, updatedAt, " +
	"publishedBy, publishedAt, contentID, templateID, data, page, pageSize, sort, sortAsc, " +
	"retrieveChild, depth, and CreatedAt, UpdatedAt, PublishedAt with _gte, _gt, _lte or _lt " +
	"(names match in any case)"

// lookupArg resolves an argument name (any case, D12) to its table entry, or for a
// range argument to the date entry and the operator.
func lookupArg(name string) (idx int, op string, ok bool) {
	for i, a := range gqlArgs[:] {
		if strings.EqualFold(a.name, name) {
			return i, "", true
		}
	}
	base, suffix, found := cutLast(name, '_')
	if !found {
		return 0, "", false
	}
	for _, o := range gqlRangeOps[:] {
		if strings.EqualFold(o, suffix) {
			for i, a := range gqlArgs[:] {
				if a.kind == argDate && strings.EqualFold(a.name, base) {
					return i, o, true
				}
			}
		}
	}
	return 0, "", false
}

func cutLast(s string, sep byte) (string, string, bool) {
	if i := strings.LastIndexByte(s, sep); i >= 0 {
		return s[:i], s[i+1:], true
	}
	return s, "", false
}

// argValues is what the arguments of one content field say, gathered argument by
// argument before the search is assembled (paging, sort and retrieveChild interact).
type argValues struct {
	filters   []query.Clause
	page      int
	size      int
	asc       bool
	sortName  string
	sortPos   parser.Pos
	contentID string
	children  bool
	childPos  parser.Pos
	depth     int
	depthPos  parser.Pos
	depthSet  bool
}

// filter adds a non-scoring clause; nil is no filter.
func (c *argValues) filter(q query.Query) {
	if q != nil {
		c.filters = append(c.filters, query.Clause{Occur: query.Filter, Query: q})
	}
}

// contentSearch compiles the arguments of the content field to the engine's query model
// (D9). list reports the response shape: any argument written gives an array and
// totalItems; none gives one item (D9). The shape follows the document, not the
// variables, so a client's result type never depends on which variables it sends.
func (x *gqlExec) contentSearch(field *parser.Selection) (s *query.Search, list bool, err *edge.Error) {
	if len(field.Arguments) == 0 {
		return &query.Search{Query: query.MatchAll{}, Size: 1, Sort: content.DefaultOrder}, false, nil
	}
	c := argValues{page: 1, size: content.DefaultPageSize, depth: 1}
	var seen [len(gqlArgs) * (1 + len(gqlRangeOps))]string
	for i := range field.Arguments {
		a := &field.Arguments[i]
		idx, op, ok := lookupArg(a.Name)
		if !ok {
			return nil, true, x.errAt(a.Pos, edge.CodeInvalidQuery, "unknown argument %q of content; the arguments are %s", edge.Clip(a.Name), knownArgs)
		}
		slot := idx * (1 + len(gqlRangeOps))
		for k, o := range gqlRangeOps[:] {
			if o == op {
				slot += 1 + k
			}
		}
		if prev := seen[slot]; prev != "" {
			return nil, true, x.errAt(a.Pos, edge.CodeInvalidQuery, "argument %q is given twice (as %q and %q)", gqlArgs[idx].name, prev, a.Name)
		}
		seen[slot] = a.Name
		v, set, verr := x.value(&a.Value)
		if verr != nil {
			return nil, true, verr
		}
		if !set || v.Kind == parser.NullValue {
			continue // an absent value is no filter (GraphQL nullable arguments)
		}
		if op != "" {
			q, err := x.dateRange(a.Name, gqlArgs[idx].field, op, v)
			if err != nil {
				return nil, true, err
			}
			c.filter(q)
			continue
		}
		if err := x.contentArg(&c, a.Name, idx, v); err != nil {
			return nil, true, err
		}
	}
	s, err = x.assembleSearch(&c)
	return s, true, err
}

// contentArg reads one argument of content (table entry idx, value v) into c.
func (x *gqlExec) contentArg(c *argValues, name string, idx int, v parser.Value) *edge.Error {
	spec := gqlArgs[idx]
	var err *edge.Error
	switch spec.kind {
	case argText:
		var str string
		if str, err = x.stringArg(name, v); err == nil {
			q, ferr := content.FieldFilter(name, spec.field, str)
			if ferr != nil {
				return x.at(v.Pos, ferr)
			}
			c.filter(q)
		}
	case argDate:
		var q query.Query
		if q, err = x.dateEquals(name, spec.field, v); err == nil {
			c.filter(q)
		}
	case argID:
		c.contentID, err = x.stringArg(name, v)
	case argKeyword:
		var str string
		if str, err = x.stringArg(name, v); err == nil && str != "" {
			c.filter(query.Term{Field: spec.field + ".keyword", Text: str})
		}
	case argData:
		var q query.Query
		if q, err = x.dataArg(v); err == nil {
			c.filter(q)
		}
	case argPage:
		// The spec types page as "string or integer".
		if v.Kind != parser.IntValue && v.Kind != parser.StringValue {
			return x.errAt(v.Pos, edge.CodeInvalidArgument, "%s must be an Int (or a numeric String), not %s", name, v.Kind)
		}
		n, perr := content.Page(name, v.Text)
		if perr != nil {
			return x.at(v.Pos, perr)
		}
		c.page = n
	case argPageSize:
		if v.Kind != parser.IntValue {
			return x.errAt(v.Pos, edge.CodeInvalidArgument, "%s must be an Int, not %s", name, v.Kind)
		}
		n, perr := content.PageSize(name, v.Text)
		if perr != nil {
			return x.at(v.Pos, perr)
		}
		c.size = n
	case argSort:
		c.sortName, err = x.stringArg(name, v)
		c.sortPos = v.Pos
	case argSortAsc:
		c.asc, err = x.boolArg(name, v)
	case argRetrieveChild:
		c.children, err = x.boolArg(name, v)
		c.childPos = v.Pos
	case argDepth:
		if v.Kind != parser.IntValue {
			return x.errAt(v.Pos, edge.CodeInvalidArgument, "%s must be an Int, not %s", name, v.Kind)
		}
		n, perr := strconv.Atoi(v.Text)
		if perr != nil || n < 1 || n > maxChildDepth {
			return x.errAt(v.Pos, edge.CodeInvalidArgument, "%s must be a whole number from 1 to %d, not %s", name, maxChildDepth, edge.Clip(v.Text))
		}
		c.depth, c.depthPos, c.depthSet = n, v.Pos, true
	}
	return err
}

// assembleSearch turns the gathered arguments into the search: retrieveChild and
// contentId become id filters, sort and paging the order and window.
func (x *gqlExec) assembleSearch(c *argValues) (*query.Search, *edge.Error) {
	switch {
	case c.children && c.contentID == "":
		return nil, x.errAt(c.childPos, edge.CodeInvalidArgument, "retrieveChild needs contentId: the item whose children to return")
	case c.depthSet && !c.children:
		return nil, x.errAt(c.depthPos, edge.CodeInvalidArgument, "depth applies only with retrieveChild: true")
	case c.children:
		// D9, D12: the children (down to depth levels) of contentId, not the item itself.
		q, err := x.descendants(c.contentID, c.depth)
		if err != nil {
			return nil, x.at(c.childPos, err)
		}
		c.filter(q)
	case c.contentID != "":
		c.filter(query.IDs{Values: []string{c.contentID}})
	}
	field, serr := content.SortField("sort", c.sortName, x.fields)
	if serr != nil {
		return nil, x.at(c.sortPos, serr)
	}
	s := &query.Search{Query: query.MatchAll{}, Size: c.size, From: content.Offset(c.page, c.size)}
	s.Sort = []query.SortField{{Field: field, Desc: !c.asc}}
	switch len(c.filters) {
	case 0:
	case 1:
		s.Query = c.filters[0].Query
	default:
		s.Query = query.Bool{Clauses: c.filters}
	}
	return s, nil
}

// descendants returns a query for the items below id down to depth levels, following
// the top-level ParentID member (D9). Each level is one engine search for the items
// whose exact ParentID is in the previous level; the ids found become an IDs node. The
// searches spend the request's budget: a too_complex there ends the request.
func (x *gqlExec) descendants(id string, depth int) (query.Query, error) {
	snap := x.snap
	var all []string
	frontier := []string{id}
	for level := 0; level < depth && len(frontier) > 0; level++ {
		clauses := make([]query.Clause, len(frontier))
		for i, p := range frontier {
			clauses[i] = query.Clause{Occur: query.Should, Query: query.Term{Field: "ParentID.keyword", Text: p}}
		}
		res, err := x.engine.Search(&query.Search{Query: query.Bool{Clauses: clauses}})
		if err != nil {
			return nil, err
		}
		next := frontier[:0:0]
		res.Matched.ForEach(func(doc int) {
			cid := snap.ContentID(doc)
			for _, seen := range all {
				if seen == cid {
					return // a cycle in the data: each item once
				}
			}
			if cid != id {
				all = append(all, cid)
				next = append(next, cid)
			}
		})
		frontier = next
	}
	if len(all) == 0 {
		return query.MatchNone{}, nil
	}
	return query.IDs{Values: all}, nil
}

func (x *gqlExec) stringArg(name string, v parser.Value) (string, *edge.Error) {
	if v.Kind != parser.StringValue {
		return "", x.errAt(v.Pos, edge.CodeInvalidArgument, "%s must be a String, not %s", name, v.Kind)
	}
	return v.Text, nil
}

func (x *gqlExec) boolArg(name string, v parser.Value) (bool, *edge.Error) {
	if v.Kind != parser.BooleanValue {
		return false, x.errAt(v.Pos, edge.CodeInvalidArgument, "%s must be a Boolean (true or false), not %s", name, v.Kind)
	}
	return v.Text == "true", nil
}

func (x *gqlExec) date(name string, v parser.Value) (datetime.Instant, *edge.Error) {
	str, err := x.stringArg(name, v)
	if err != nil {
		return datetime.Instant{}, err
	}
	inst, perr := datetime.Parse(str)
	if perr != nil {
		return inst, x.errAt(v.Pos, edge.CodeInvalidArgument, "%s: %s; use YYYY-MM-DD or YYYY-MM-DDThh:mm:ss", name, perr.Error())
	}
	return inst, nil
}

// dateEquals matches every instant inside the precision written: a whole day, a whole
// second (D5).
func (x *gqlExec) dateEquals(name, field string, v parser.Value) (query.Query, *edge.Error) {
	inst, err := x.date(name, v)
	if err != nil {
		return nil, err
	}
	return query.Range{Field: field,
		Lower: &query.Bound{Value: query.Scalar{Kind: query.ScalarDate, Millis: inst.Millis, Text: v.Text}, Inclusive: true},
		Upper: &query.Bound{Value: query.Scalar{Kind: query.ScalarDate, Millis: inst.End(), Text: v.Text}},
	}, nil
}

// dateRange compiles a range suffix; a bound is the start of the unit written (D12).
func (x *gqlExec) dateRange(name, field, op string, v parser.Value) (query.Query, *edge.Error) {
	inst, err := x.date(name, v)
	if err != nil {
		return nil, err
	}
	b := &query.Bound{Value: query.Scalar{Kind: query.ScalarDate, Millis: inst.Millis, Text: v.Text}, Inclusive: op == "gte" || op == "lte"}
	if op == "gte" || op == "gt" {
		return query.Range{Field: field, Lower: b}, nil
	}
	return query.Range{Field: field, Upper: b}, nil
}

// dataArg compiles data: an object of element filters, or a string whose every token
// must occur somewhere in the item's Data strings (D4, D12).
func (x *gqlExec) dataArg(v parser.Value) (query.Query, *edge.Error) {
	switch v.Kind {
	case parser.StringValue:
		return x.dataText(v)
	case parser.ObjectValue:
		var clauses []query.Clause
		var err *edge.Error
		if clauses, err = x.dataObject(clauses, "Data", v, 0); err != nil {
			return nil, err
		}
		return allOf(clauses), nil
	}
	return nil, x.errAt(v.Pos, edge.CodeInvalidArgument, "data must be an object such as {urlPath: \"/home\"} or a String, not %s", v.Kind)
}

func allOf(clauses []query.Clause) query.Query {
	switch len(clauses) {
	case 0:
		return nil
	case 1:
		return clauses[0].Query
	}
	return query.Bool{Clauses: clauses}
}

// dataObject appends a filter clause per element of an object value; nested objects
// address nested paths (D4).
func (x *gqlExec) dataObject(clauses []query.Clause, path string, v parser.Value, depth int) ([]query.Clause, *edge.Error) {
	for i := range v.Fields {
		f := &v.Fields[i]
		fv, set, err := x.value(&f.Value)
		if err != nil {
			return nil, err
		}
		if !set {
			continue
		}
		q, err := x.dataValue(path+"."+f.Name, fv, depth+1)
		if err != nil {
			return nil, err
		}
		if q != nil {
			clauses = append(clauses, query.Clause{Occur: query.Filter, Query: q})
		}
	}
	return clauses, nil
}

// dataValue compiles one element filter at path (D4, D12): a string matches by tokens,
// numbers and booleans exactly, an object by its members, a list by any alternative.
func (x *gqlExec) dataValue(path string, v parser.Value, depth int) (query.Query, *edge.Error) {
	if depth > parser.DefaultMaxDepth {
		return nil, x.errAt(v.Pos, edge.CodeTooComplex, "the data filter is nested deeper than %d levels", parser.DefaultMaxDepth)
	}
	param := "data" + path[len("Data"):]
	switch v.Kind {
	case parser.StringValue:
		q, err := content.FieldFilter(param, path, v.Text)
		if err != nil {
			return nil, x.at(v.Pos, err)
		}
		return q, nil
	case parser.IntValue, parser.FloatValue:
		n, err := strconv.ParseFloat(v.Text, 64)
		if err != nil || math.IsInf(n, 0) {
			return nil, x.errAt(v.Pos, edge.CodeInvalidArgument, "%s: %s is not a number this service can compare", param, edge.Clip(v.Text))
		}
		b := &query.Bound{Value: query.Scalar{Kind: query.ScalarNumber, Number: n, Text: v.Text}, Inclusive: true}
		return query.Range{Field: path, Lower: b, Upper: b}, nil
	case parser.BooleanValue:
		b := &query.Bound{Value: query.Scalar{Kind: query.ScalarBool, Bool: v.Text == "true", Text: v.Text}, Inclusive: true}
		return query.Range{Field: path, Lower: b, Upper: b}, nil
	case parser.ObjectValue:
		clauses, err := x.dataObject(nil, path, v, depth)
		if err != nil {
			return nil, err
		}
		return allOf(clauses), nil
	case parser.ListValue:
		// D12: a list is alternatives; an empty list has none, so it matches nothing.
		clauses := make([]query.Clause, 0, len(v.List))
		for i := range v.List {
			ev, set, err := x.value(&v.List[i])
			if err != nil {
				return nil, err
			}
			if !set || ev.Kind == parser.NullValue {
				return nil, x.errAt(v.List[i].Pos, edge.CodeInvalidArgument, "%s: null is not a filter value", param)
			}
			q, err := x.dataValue(path, ev, depth+1)
			if err != nil {
				return nil, err
			}
			if q == nil {
				q = query.MatchAll{} // an empty string alternative filters nothing (D4)
			}
			clauses = append(clauses, query.Clause{Occur: query.Should, Query: q})
		}
		if len(clauses) == 0 {
			return query.MatchNone{}, nil
		}
		if len(clauses) == 1 {
			return clauses[0].Query, nil
		}
		return query.Bool{Clauses: clauses}, nil
	}
	return nil, x.errAt(v.Pos, edge.CodeInvalidArgument, "%s must be a String, number, Boolean, object or list, not %s", param, v.Kind)
}

// dataText compiles data: "..." (D12): every word must occur in some string of the
// item's Data (content.AllWords over content.DataTextFields).
func (x *gqlExec) dataText(v parser.Value) (query.Query, *edge.Error) {
	words, err := content.Words("data", v.Text)
	if err != nil {
		return nil, x.at(v.Pos, err)
	}
	if words == nil {
		return nil, nil
	}
	return content.AllWords(content.DataTextFields(x.fields), words), nil
}

// value resolves a variable reference; set is false for a variable with no value.
// Literals are returned as they are (their nested variables are resolved by the
// consumer, element by element).
func (x *gqlExec) value(v *parser.Value) (parser.Value, bool, *edge.Error) {
	if v.Kind != parser.VariableValue {
		return *v, true, nil
	}
	for i := range x.values {
		if x.values[i].name == v.Text {
			val := x.values[i].value
			val.Pos = v.Pos
			return val, x.values[i].set, nil
		}
	}
	return parser.Value{}, false, x.errAt(v.Pos, edge.CodeInvalidQuery, "variable $%s is not defined by the operation", v.Text)
}

// coerceVariables checks the request's variables against the operation's definitions,
// as GraphQL's CoerceVariableValues does, and converts them to values.
func (x *gqlExec) coerceVariables() *edge.Error {
	for i := range x.op.Variables {
		def := &x.op.Variables[i]
		if err := x.checkType(&def.Type); err != nil {
			return err
		}
		if len(def.Directives) > 0 {
			return x.errAt(def.Directives[0].Pos, edge.CodeInvalidQuery, "directive @%s is not supported on variables", def.Directives[0].Name)
		}
		gv := gqlVariable{name: def.Name}
		j := jsonr.Result{}
		if x.vars.IsObject() {
			j = x.vars.Get(def.Name)
		}
		switch {
		case j.Exists():
			val, err := x.coerceJSON(def, &def.Type, j, 0)
			if err != nil {
				return err
			}
			gv.value, gv.set = val, true
		case def.Default != nil:
			gv.value, gv.set = *def.Default, true
		case def.Type.Kind == parser.NonNullType:
			return x.errAt(def.Pos, edge.CodeInvalidArgument, "variable $%s of type %s needs a value", def.Name, typeString(&def.Type))
		}
		for _, prev := range x.values {
			if prev.name == def.Name {
				return x.errAt(def.Pos, edge.CodeInvalidQuery, "variable $%s is defined twice", def.Name)
			}
		}
		x.values = append(x.values, gv)
	}
	return nil
}

// gqlInputTypes are the input types a variable may declare: GraphQL's scalars and JSON.
var gqlInputTypes = [...]string{"String", "Int", "Float", "Boolean", "ID", "JSON"}

func (x *gqlExec) checkType(t *parser.Type) *edge.Error {
	for t.Kind != parser.NamedType {
		if t.Elem == nil {
			return x.errAt(t.Pos, edge.CodeInvalidQuery, "malformed type")
		}
		t = t.Elem
	}
	for _, n := range gqlInputTypes[:] {
		if n == t.Name {
			return nil
		}
	}
	return x.errAt(t.Pos, edge.CodeInvalidQuery, "unknown input type %q; variables may be String, Int, Float, Boolean, ID or JSON", edge.Clip(t.Name))
}

func typeString(t *parser.Type) string {
	switch t.Kind {
	case parser.ListType:
		if t.Elem != nil {
			return "[" + typeString(t.Elem) + "]"
		}
	case parser.NonNullType:
		if t.Elem != nil {
			return typeString(t.Elem) + "!"
		}
	}
	return t.Name
}

// coerceJSON converts a JSON variable value to a GraphQL value of type t. Every value
// made from JSON is positioned at the variable's definition, so that an error about a
// nested part of it still points at something in the document (D8).
func (x *gqlExec) coerceJSON(def *parser.VariableDefinition, t *parser.Type, j jsonr.Result, depth int) (parser.Value, *edge.Error) {
	bad := func(want string) (parser.Value, *edge.Error) {
		return parser.Value{}, x.errAt(def.Pos, edge.CodeInvalidArgument, "variable $%s must be %s, not %s", def.Name, want, edge.Clip(j.Raw))
	}
	if depth > parser.DefaultMaxDepth {
		return parser.Value{}, x.errAt(def.Pos, edge.CodeTooComplex, "variable $%s is nested deeper than %d levels", def.Name, parser.DefaultMaxDepth)
	}
	if t.Kind == parser.NonNullType {
		if j.Type == jsonr.Null {
			return bad("a non-null " + typeString(t.Elem))
		}
		return x.coerceJSON(def, t.Elem, j, depth)
	}
	if j.Type == jsonr.Null {
		return parser.Value{Pos: def.Pos, Kind: parser.NullValue, Text: "null"}, nil
	}
	if t.Kind == parser.ListType {
		if !j.IsArray() {
			// GraphQL input coercion: a single value is a list of one.
			v, err := x.coerceJSON(def, t.Elem, j, depth+1)
			return parser.Value{Pos: def.Pos, Kind: parser.ListValue, List: []parser.Value{v}}, err
		}
		out := parser.Value{Pos: def.Pos, Kind: parser.ListValue, List: []parser.Value{}}
		for _, e := range j.Array() {
			v, err := x.coerceJSON(def, t.Elem, e, depth+1)
			if err != nil {
				return v, err
			}
			out.List = append(out.List, v)
		}
		return out, nil
	}
	switch t.Name {
	case "String":
		if j.Type == jsonr.String {
			return parser.Value{Pos: def.Pos, Kind: parser.StringValue, Text: j.String()}, nil
		}
		return bad("a String")
	case "ID":
		if j.Type == jsonr.String {
			return parser.Value{Pos: def.Pos, Kind: parser.StringValue, Text: j.String()}, nil
		}
		if j.Type == jsonr.Number && isIntLiteral(j.Raw) {
			return parser.Value{Pos: def.Pos, Kind: parser.StringValue, Text: j.Raw}, nil
		}
		return bad("an ID")
	case "Int":
		if j.Type == jsonr.Number && j.Num == math.Trunc(j.Num) && j.Num >= math.MinInt32 && j.Num <= math.MaxInt32 {
			return parser.Value{Pos: def.Pos, Kind: parser.IntValue, Text: strconv.FormatInt(int64(j.Num), 10)}, nil
		}
		return bad("an Int (a whole number of 32 bits)")
	case "Float":
		if j.Type == jsonr.Number {
			return parser.Value{Pos: def.Pos, Kind: parser.FloatValue, Text: j.Raw}, nil
		}
		return bad("a Float")
	case "Boolean":
		if j.Type == jsonr.True || j.Type == jsonr.False {
			return parser.Value{Pos: def.Pos, Kind: parser.BooleanValue, Text: j.Raw}, nil
		}
		return bad("a Boolean")
	}
	return x.jsonValue(def, j, depth)
}

// jsonValue converts any JSON value (a JSON scalar variable) to a GraphQL value.
func (x *gqlExec) jsonValue(def *parser.VariableDefinition, j jsonr.Result, depth int) (parser.Value, *edge.Error) {
	if depth > parser.DefaultMaxDepth {
		return parser.Value{}, x.errAt(def.Pos, edge.CodeTooComplex, "variable $%s is nested deeper than %d levels", def.Name, parser.DefaultMaxDepth)
	}
	switch {
	case j.Type == jsonr.String:
		return parser.Value{Pos: def.Pos, Kind: parser.StringValue, Text: j.String()}, nil
	case j.Type == jsonr.Number:
		if isIntLiteral(j.Raw) {
			return parser.Value{Pos: def.Pos, Kind: parser.IntValue, Text: j.Raw}, nil
		}
		return parser.Value{Pos: def.Pos, Kind: parser.FloatValue, Text: j.Raw}, nil
	case j.Type == jsonr.True || j.Type == jsonr.False:
		return parser.Value{Pos: def.Pos, Kind: parser.BooleanValue, Text: j.Raw}, nil
	case j.IsArray():
		out := parser.Value{Pos: def.Pos, Kind: parser.ListValue, List: []parser.Value{}}
		for _, e := range j.Array() {
			v, err := x.jsonValue(def, e, depth+1)
			if err != nil {
				return v, err
			}
			out.List = append(out.List, v)
		}
		return out, nil
	case j.IsObject():
		out := parser.Value{Pos: def.Pos, Kind: parser.ObjectValue, Fields: []parser.ObjectField{}}
		var err *edge.Error
		j.ForEach(func(k, e jsonr.Result) bool {
			var v parser.Value
			v, err = x.jsonValue(def, e, depth+1)
			out.Fields = append(out.Fields, parser.ObjectField{Name: k.String(), Value: v})
			return err == nil
		})
		return out, err
	}
	return parser.Value{Pos: def.Pos, Kind: parser.NullValue, Text: "null"}, nil
}

func isIntLiteral(s string) bool {
	return s != "" && !strings.ContainsAny(s, ".eE")
}
