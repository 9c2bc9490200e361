package graphql

import (
	"errors"
	"strconv"
	"strings"

	"github.com/cdaedge/cdaedge/edge"
	"github.com/cdaedge/cdaedge/edge/content"
	"github.com/cdaedge/cdaedge/edge/eval"
	"github.com/cdaedge/cdaedge/edge/graphql/parser"
	"github.com/cdaedge/cdaedge/edge/jsonr"
	"github.com/cdaedge/cdaedge/edge/jsonw"
	"github.com/cdaedge/cdaedge/edge/query"
	"github.com/cdaedge/cdaedge/snapshot"
)

// GraphQL endpoint (API.md "GraphQL: query content", D8, D9, D11, D12).
//
// How a document is answered in the envelope mode (the default; mode.go tells the
// modes apart):
//
//   - The root selection set, after fragments and @include/@skip, may hold `content`
//     (under any alias, at most once), `__typename`, `__schema` and `__type`.
//   - With `content`, the answer is the API envelope of D8/D9:
//     {"status":200,"data":...,"totalItems":N}. The alias does not change the envelope
//     (D12). A root `__typename` beside `content` is dropped: its value would be
//     "Query" and the envelope has no root object to hold it.
//   - Without `content`, the answer is standard GraphQL, {"data":{...}}: introspection
//     (`__schema`, `__type`) and a root `__typename` ("Query"), so GraphiQL and code
//     generators work against the endpoint (D9).
//   - `content` together with `__schema` or `__type` is a 400 (invalid_query): the two
//     answer in different shapes, and one response cannot hold both.
//   - Inside items, `__typename` answers "Content" (D12), in selection order.
//
// The standard mode (standard.go) answers every root field in one {"data":{...}}.

// graphQLLimits are the document limits of API.md D11.
var graphQLLimits = parser.Limits{
	MaxBytes:  parser.DefaultMaxBytes,
	MaxDepth:  parser.DefaultMaxDepth,
	MaxTokens: parser.DefaultMaxTokens,
}

// Searcher evaluates the searches a document asks for and keeps the request's budget:
// the executor also spends it on the items it projects, and checks the answer's size
// against the response limit as it grows.
type Searcher interface {
	Search(s *query.Search) (eval.Result, error)
	Spend(n int) error
	CheckAnswer(size, copied int) error
}

// Execute answers a GraphQL request (POST or GET /cda/graphql/v1/<env>, API.md D9)
// against the snapshot of schema s, appending the 200 body to dst: in the envelope mode
// the API envelope for content, or {"data":{...}} for introspection; in the standard
// mode (Negotiate) GraphQL over HTTP's {"data":{...}}, or a list of those for a batch.
// Every failure is an *edge.Error, positioned in the document where it has a place
// there; StandardError gives its standard form.
func Execute(dst []byte, s *Schema, engine Searcher, req *edge.Request) ([]byte, error) {
	f, ferr := Negotiate(req)
	if ferr != nil {
		return nil, ferr
	}
	if f.Standard {
		return executeStandard(dst, s, engine, req)
	}
	reqs, _, err := decodeGraphQLRequest(req, false)
	if err != nil {
		return nil, err
	}
	x, err := newExec(s, engine, reqs[0], false)
	if err != nil {
		return nil, err
	}
	return x.run(dst, reqs[0].operationName)
}

// newExec parses one request's document.
func newExec(s *Schema, engine Searcher, gr gqlRequest, standard bool) (*gqlExec, *edge.Error) {
	doc, perr := parser.Parse(gr.query, graphQLLimits)
	if perr != nil {
		return nil, parseError(perr)
	}
	snap := s.Snapshot()
	return &gqlExec{schema: s, snap: snap, engine: engine, fields: s.fields, doc: doc, vars: gr.variables, standard: standard}, nil
}

// parseError maps the parser's errors to the error vocabulary (D12): syntax errors are
// invalid_query, limits too_complex; both keep their position (D8).
func parseError(err error) *edge.Error {
	var e *parser.Error
	if !errors.As(err, &e) {
		return edge.Wrap(err, edge.CodeInvalidQuery, "%s", err.Error())
	}
	code := edge.CodeInvalidQuery
	if e.Kind == parser.LimitError {
		code = edge.CodeTooComplex
	}
	return positioned(&edge.Error{Code: code, Message: e.Message, Offset: -1, Err: e}, e.Line, e.Column)
}

// positioned places e in the document: the GraphQL form carries the location (D8) and
// the envelope's one-sentence message says where too, for clients that read only it.
func positioned(e *edge.Error, line, column int) *edge.Error {
	e.Line, e.Column = line, column
	e.Message += " (line " + strconv.Itoa(line) + ", column " + strconv.Itoa(column) + ")"
	return e
}

// gqlRequest is what a GraphQL request carries, whatever its transport (D9).
type gqlRequest struct {
	query         string
	variables     jsonr.Result // an object, or zero when none were sent
	operationName string
	err           *edge.Error // a batch element that is not a request
}

// maxBatch bounds the operations of one batched request (standard mode).
const maxBatch = 32

// decodeGraphQLRequest reads the document, variables and operation name from the body
// (JSON envelope or raw document, by content type, D9) or from the URL (GET, HEAD, and a
// POST without a body). With batch (the standard mode), a JSON array body is a batch of
// requests, one per element. Its errors are those of a request that is not well-formed.
func decodeGraphQLRequest(req *edge.Request, batch bool) (reqs []gqlRequest, isBatch bool, err *edge.Error) {
	// The document is kept as sent (not trimmed): the size limit (D11) and error
	// positions refer to the body as the client wrote it.
	body := string(req.Body)
	trimmed := strings.TrimSpace(body)
	if req.Method == "GET" || req.Method == "HEAD" || trimmed == "" {
		gr, err := decodeGraphQLURL(req.RawQuery)
		return []gqlRequest{gr}, false, markMalformed(err)
	}
	ct := edge.HeaderValue(req.Headers, "Content-Type")
	if i := strings.IndexByte(ct, ';'); i >= 0 {
		ct = ct[:i]
	}
	ct = strings.ToLower(strings.TrimSpace(ct))
	var v jsonr.Result
	switch {
	case ct == "application/graphql":
		return []gqlRequest{{query: body}}, false, nil
	case ct == "application/json" || strings.HasSuffix(ct, "+json"):
		if !jsonr.Valid(body) {
			return nil, false, markMalformed(edge.Errorf(edge.CodeInvalidJSON, "the request body is not valid JSON; send {\"query\": \"...\", \"variables\": {...}}"))
		}
		v = jsonr.Parse(body)
	case (trimmed[0] == '{' || batch && trimmed[0] == '[') && jsonr.Valid(body):
		// Any other type: the JSON form if the body is a JSON object, else a raw document
		// (curl's default form type, text/plain from fetch without headers).
		v = jsonr.Parse(body)
	default:
		return []gqlRequest{{query: body}}, false, nil
	}
	if !batch || !v.IsArray() {
		gr, err := decodeGraphQLEnvelope(v)
		return []gqlRequest{gr}, false, markMalformed(err)
	}
	elems := v.Array()
	if len(elems) == 0 || len(elems) > maxBatch {
		return nil, true, markMalformed(edge.Errorf(edge.CodeInvalidJSON, "a batch holds 1 to %d requests, not %d", maxBatch, len(elems)))
	}
	for _, e := range elems {
		gr, err := decodeGraphQLEnvelope(e)
		gr.err = err
		reqs = append(reqs, gr)
	}
	return reqs, true, nil
}

func decodeGraphQLEnvelope(v jsonr.Result) (gqlRequest, *edge.Error) {
	if !v.IsObject() {
		if v.IsArray() {
			return gqlRequest{}, edge.Errorf(edge.CodeInvalidJSON, "batched GraphQL requests (a JSON array) are not supported; send one {\"query\": ...} object")
		}
		return gqlRequest{}, edge.Errorf(edge.CodeInvalidJSON, "the request body must be a JSON object {\"query\": \"...\"}")
	}
	var gr gqlRequest
	q := v.Get("query")
	if q.Type != jsonr.String {
		return gr, edge.Errorf(edge.CodeInvalidJSON, "the JSON body needs a \"query\" member holding the GraphQL document as a string")
	}
	gr.query = q.String()
	switch vars := v.Get("variables"); {
	case !vars.Exists() || vars.Type == jsonr.Null:
	case vars.IsObject():
		gr.variables = vars
	default:
		return gr, edge.Errorf(edge.CodeInvalidJSON, "\"variables\" must be a JSON object")
	}
	switch name := v.Get("operationName"); name.Type {
	case jsonr.Null:
	case jsonr.String:
		gr.operationName = name.Str
	default:
		return gr, edge.Errorf(edge.CodeInvalidJSON, "\"operationName\" must be a string")
	}
	return gr, nil
}

func decodeGraphQLURL(rawQuery string) (gqlRequest, *edge.Error) {
	params, err := edge.ParseParams(rawQuery)
	if err != nil {
		return gqlRequest{}, edge.AsError(err)
	}
	var gr gqlRequest
	var seen [3]bool
	for _, p := range params {
		i := -1
		switch p.Name {
		case "query":
			i, gr.query = 0, p.Value
		case "variables":
			i = 1
			if v := strings.TrimSpace(p.Value); v != "" && v != "null" {
				if !jsonr.Valid(v) || !jsonr.Parse(v).IsObject() {
					return gr, edge.Errorf(edge.CodeInvalidJSON, "the variables parameter must be a JSON object")
				}
				gr.variables = jsonr.Parse(v)
			}
		case "operationName":
			i, gr.operationName = 2, p.Value
		case "mode":
			continue // read by Negotiate
		default:
			continue // cache-busters, as in REST (D12)
		}
		if seen[i] {
			return gr, edge.Errorf(edge.CodeInvalidArgument, "query parameter %q is given more than once", p.Name)
		}
		seen[i] = true
	}
	if strings.TrimSpace(gr.query) == "" {
		return gr, edge.Errorf(edge.CodeInvalidQuery, "no GraphQL document: send it in the body (POST) or as ?query= (GET)")
	}
	return gr, nil
}

// gqlExec executes one document against one environment.
type gqlExec struct {
	schema *Schema
	// standard is the standard mode (standard.go); sch is its schema there, and the
	// envelope mode's schema only while introspection runs.
	standard bool
	sch      *gqlSchema
	snap     *snapshot.Snapshot
	engine   Searcher
	fields   *content.Fields
	doc      *parser.Document
	op       *parser.Definition
	vars     jsonr.Result
	// values are the operation's coerced variables, in definition order.
	values []gqlVariable
	// spreads is the stack of fragments being expanded, to reject cycles.
	spreads []string
	// visited are the fragments already expanded by the current field collection:
	// GraphQL's CollectFields expands each fragment once per collection, which keeps a
	// document of fragments that spread others many times linear instead of exponential.
	visited []string
	// work counts collection and introspection steps against maxGraphQLWork.
	work int
	// slots is scratch space for projection: one raw member value per selected field.
	slots []string
}

// maxGraphQLWork bounds the steps of one request (fields collected, introspection fields
// resolved). Introspection nests (types { fields { type { fields ... } } }), so a short
// document could otherwise ask for an exponential answer. GraphiQL's full introspection
// query takes a few thousand steps.
const maxGraphQLWork = 200000

// step counts one unit of work; false (with the error) when the budget is spent (D11).
func (x *gqlExec) step(p parser.Pos) *edge.Error {
	x.work++
	if x.work > maxGraphQLWork {
		return x.errAt(p, edge.CodeTooComplex, "the query needs more than %d steps to answer; select less", maxGraphQLWork)
	}
	return nil
}

// gqlVariable is one coerced variable; set is false when neither the request nor a
// default gives it a value (then an argument using it counts as absent).
type gqlVariable struct {
	name  string
	value parser.Value
	set   bool
}

// errAt returns an error positioned at p in the document (D8: GraphQL locations).
func (x *gqlExec) errAt(p parser.Pos, code edge.Code, format string, args ...any) *edge.Error {
	line, column := x.doc.LineColumn(p)
	return positioned(edge.Errorf(code, format, args...), line, column)
}

// at gives an error from a shared helper (fieldFilter, pageSize, ...) a position.
func (x *gqlExec) at(p parser.Pos, err error) *edge.Error {
	e := edge.AsError(err)
	if e.Line == 0 {
		line, column := x.doc.LineColumn(p)
		e = positioned(e, line, column)
	}
	return e
}

func (x *gqlExec) run(dst []byte, operationName string) ([]byte, error) {
	if err := x.selectOperation(operationName); err != nil {
		return nil, err
	}
	if err := x.coerceVariables(); err != nil {
		return nil, err
	}
	if err := x.directivesAllowed(x.op.Directives); err != nil {
		return nil, err
	}
	x.visited = x.visited[:0]
	groups, err := x.collect(nil, x.op.Selections, "Query", false)
	if err != nil {
		return nil, err
	}
	var content, intro *gqlGroup
	for i := range groups {
		g := &groups[i]
		switch g.name() {
		case "content":
			if content != nil {
				return nil, x.errAt(g.sels[0].Pos, edge.CodeInvalidQuery, "content is selected twice (as %q and %q); send one content field per request", content.key, g.key)
			}
			content = g
		case "__schema", "__type":
			if intro == nil {
				intro = g
			}
		case "__typename":
		default:
			return nil, x.errAt(g.sels[0].Pos, edge.CodeInvalidQuery, "unknown field %q on Query; the root field is content (or __schema, __type for introspection)", g.name())
		}
	}
	switch {
	case content != nil && intro != nil:
		return nil, x.errAt(intro.sels[0].Pos, edge.CodeInvalidQuery, "%s cannot be combined with content in one request: introspection answers {\"data\":{...}} and content answers the API envelope; send two requests", intro.name())
	case content != nil:
		return x.content(dst, content)
	case len(groups) == 0:
		return nil, x.errAt(x.op.Pos, edge.CodeInvalidQuery, "nothing is selected; select the content field, for example query { content { Name } }")
	}
	return x.introspect(dst, groups)
}

func (x *gqlExec) selectOperation(name string) *edge.Error {
	var first *parser.Definition
	count := 0
	for i := range x.doc.Definitions {
		d := &x.doc.Definitions[i]
		switch d.Kind {
		case parser.OperationDefinition:
			count++
			if first == nil {
				first = d
			}
			if name != "" && d.Name == name {
				if x.op != nil {
					return x.errAt(d.Pos, edge.CodeInvalidQuery, "there are two operations named %q", name)
				}
				x.op = d
			}
		case parser.FragmentDefinition:
			for j := 0; j < i; j++ {
				if o := &x.doc.Definitions[j]; o.Kind == parser.FragmentDefinition && o.Name == d.Name {
					return x.errAt(d.Pos, edge.CodeInvalidQuery, "there are two fragments named %q", d.Name)
				}
			}
		}
	}
	switch {
	case name != "" && x.op == nil:
		return edge.Errorf(edge.CodeInvalidQuery, "operationName %q names no operation of the document", edge.Clip(name))
	case name == "" && count == 0:
		return x.errAt(0, edge.CodeInvalidQuery, "the document has fragments but no operation")
	case name == "" && count > 1:
		return x.errAt(0, edge.CodeInvalidQuery, "the document has %d operations; say which one to run with operationName", count)
	case name == "":
		x.op = first
	}
	if x.op.Operation != "" && x.op.Operation != "query" {
		return x.errAt(x.op.Pos, edge.CodeInvalidQuery, "%s operations are not supported: the delivery API only reads; use query", x.op.Operation)
	}
	return nil
}

func (x *gqlExec) fragment(name string) *parser.Definition {
	for i := range x.doc.Definitions {
		if d := &x.doc.Definitions[i]; d.Kind == parser.FragmentDefinition && d.Name == name {
			return d
		}
	}
	return nil
}

// gqlGroup is the fields of one selection set that answer under one response key:
// GraphQL merges them (CollectFields), so `Name ...F` with Name in F answers once.
type gqlGroup struct {
	key  string
	sels []*parser.Selection
}

func (g *gqlGroup) name() string { return g.sels[0].Name }

// collect appends the fields of sels to groups, expanding fragments whose type condition
// is typeName and applying @include/@skip, in the order of GraphQL's CollectFields.
// Inside Data (dataOnly), only fields are allowed: Data is a JSON scalar with no type
// to put a fragment on.
func (x *gqlExec) collect(groups []gqlGroup, sels []parser.Selection, typeName string, dataOnly bool) ([]gqlGroup, *edge.Error) {
	for i := range sels {
		s := &sels[i]
		if err := x.step(s.Pos); err != nil {
			return nil, err
		}
		include, err := x.included(s.Directives)
		if err != nil {
			return nil, err
		}
		if !include {
			continue
		}
		switch s.Kind {
		case parser.FieldSelection:
			key := s.ResponseKey()
			found := false
			for j := range groups {
				if groups[j].key == key {
					if groups[j].name() != s.Name {
						return nil, x.errAt(s.Pos, edge.CodeInvalidQuery, "%q and %q both answer as %q; give one of them another alias", groups[j].name(), s.Name, key)
					}
					groups[j].sels = append(groups[j].sels, s)
					found = true
					break
				}
			}
			if !found {
				groups = append(groups, gqlGroup{key: key, sels: []*parser.Selection{s}})
			}
			continue
		case parser.FragmentSpread, parser.InlineFragment:
			if dataOnly {
				return nil, x.errAt(s.Pos, edge.CodeInvalidQuery, "fragments cannot be used inside Data; select its elements by name")
			}
		}
		cond, body := s.TypeCondition, s.Selections
		if s.Kind == parser.FragmentSpread {
			f := x.fragment(s.Name)
			if f == nil {
				return nil, x.errAt(s.Pos, edge.CodeInvalidQuery, "unknown fragment %q", s.Name)
			}
			for _, active := range x.spreads {
				if active == s.Name {
					return nil, x.errAt(s.Pos, edge.CodeInvalidQuery, "fragment %q spreads itself", s.Name)
				}
			}
			if contains(x.visited, s.Name) {
				continue
			}
			x.visited = append(x.visited, s.Name)
			if len(x.spreads) >= parser.DefaultMaxDepth {
				return nil, x.errAt(s.Pos, edge.CodeTooComplex, "fragments are nested deeper than %d levels", parser.DefaultMaxDepth)
			}
			if err := x.directivesAllowed(f.Directives); err != nil {
				return nil, err
			}
			cond, body = f.TypeCondition, f.Selections
			x.spreads = append(x.spreads, s.Name)
		}
		if cond != "" && cond != typeName {
			if s.Kind == parser.FragmentSpread {
				x.spreads = x.spreads[:len(x.spreads)-1]
			}
			return nil, x.errAt(s.Pos, edge.CodeInvalidQuery, "a fragment on %s cannot apply here: the selection is on %s", cond, typeName)
		}
		groups, err = x.collect(groups, body, typeName, dataOnly)
		if s.Kind == parser.FragmentSpread {
			x.spreads = x.spreads[:len(x.spreads)-1]
		}
		if err != nil {
			return nil, err
		}
	}
	return groups, nil
}

func contains(list []string, s string) bool {
	for _, e := range list {
		if e == s {
			return true
		}
	}
	return false
}

// subGroups collects the merged sub-selections of every field of g: one collection,
// as GraphQL's CollectSubfields.
func (x *gqlExec) subGroups(g *gqlGroup, typeName string, dataOnly bool) ([]gqlGroup, *edge.Error) {
	x.visited = x.visited[:0]
	var groups []gqlGroup
	for _, s := range g.sels {
		var err *edge.Error
		if groups, err = x.collect(groups, s.Selections, typeName, dataOnly); err != nil {
			return nil, err
		}
	}
	return groups, nil
}

// included applies @include(if:) and @skip(if:); any other directive is unknown.
func (x *gqlExec) included(ds []parser.Directive) (bool, *edge.Error) {
	include := true
	for i := range ds {
		d := &ds[i]
		if d.Name != "include" && d.Name != "skip" {
			return false, x.errAt(d.Pos, edge.CodeInvalidQuery, "unknown directive @%s; @include and @skip are supported", d.Name)
		}
		var cond *parser.Value
		for j := range d.Arguments {
			a := &d.Arguments[j]
			if a.Name != "if" {
				return false, x.errAt(a.Pos, edge.CodeInvalidQuery, "unknown argument %q of @%s; it takes if: Boolean!", a.Name, d.Name)
			}
			cond = &a.Value
		}
		if cond == nil {
			return false, x.errAt(d.Pos, edge.CodeInvalidQuery, "@%s needs the argument if: Boolean!", d.Name)
		}
		v, set, err := x.value(cond)
		if err != nil {
			return false, err
		}
		if !set || v.Kind != parser.BooleanValue {
			return false, x.errAt(cond.Pos, edge.CodeInvalidArgument, "@%s(if:) must be a Boolean, not %s", d.Name, kindOf(v, set))
		}
		if (v.Text == "true") != (d.Name == "include") {
			include = false
		}
	}
	return include, nil
}

// directivesAllowed rejects directives where this service honours none (operations,
// fragment definitions): an unknown directive is an error in GraphQL validation too.
func (x *gqlExec) directivesAllowed(ds []parser.Directive) *edge.Error {
	if len(ds) > 0 {
		return x.errAt(ds[0].Pos, edge.CodeInvalidQuery, "directive @%s is not supported here; @include and @skip apply to fields and fragment spreads", ds[0].Name)
	}
	return nil
}

func kindOf(v parser.Value, set bool) string {
	if !set {
		return "an unset variable"
	}
	return v.Kind.String()
}

// appendDataObject opens the standard GraphQL answer {"data":{ (introspection, D9).
func appendDataObject(dst []byte) []byte { return append(dst, `{"data":{`...) }

// appendKey appends "key": for a GraphQL name or alias (which needs no escaping, but
// jsonw keeps that an invariant of the writer rather than of the lexer).
func appendKey(dst []byte, key string) []byte {
	dst = jsonw.String(dst, key)
	return append(dst, ':')
}
