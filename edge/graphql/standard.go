package graphql

import (
	"github.com/cdaedge/cdaedge/edge"
	"github.com/cdaedge/cdaedge/edge/jsonw"
)

// The standard mode (API.md D9, "Modes"): GraphQL over HTTP. The answer is one
// {"data":{...}} holding every root field under its response key, in selection order:
// content (a list of items, always), contentPage ({items, totalItems, page, pageSize}),
// __typename, __schema and __type, any number of each under different aliases. Items
// answer every selected field, null when the item lacks it, and selections are checked
// against the typed schema (types.go) as GraphQL validation checks them; the dialect's
// whole selections (`{ }`, or none) are still accepted. A JSON array body is a batch: a
// list of answers, one per request, each with its own errors.

// executeStandard answers a request in the standard mode.
func executeStandard(dst []byte, s *Schema, engine Searcher, req *edge.Request) ([]byte, error) {
	reqs, batch, err := decodeGraphQLRequest(req, true)
	if err != nil {
		return nil, err
	}
	if !batch {
		return executeOne(dst, s, engine, reqs[0])
	}
	dst = append(dst, '[')
	for i, gr := range reqs {
		if i > 0 {
			dst = append(dst, ',')
		}
		mark := len(dst)
		var err error
		if gr.err != nil {
			err = gr.err
		} else {
			var out []byte
			if out, err = executeOne(dst, s, engine, gr); err == nil {
				dst = out
			}
		}
		if err != nil {
			// One request of a batch failing is its own answer, as a lone request's
			// errors would be; the others still answer.
			dst = AppendErrorResult(dst[:mark], edge.AsError(err))
		}
	}
	return append(dst, ']'), nil
}

// executeOne answers one request of the standard mode.
func executeOne(dst []byte, s *Schema, engine Searcher, gr gqlRequest) ([]byte, error) {
	x, err := newExec(s, engine, gr, true)
	if err != nil {
		return nil, err
	}
	return x.runStandard(dst, gr.operationName)
}

// runStandard executes the operation and answers {"data":{...}}.
func (x *gqlExec) runStandard(dst []byte, operationName string) ([]byte, error) {
	x.sch = x.schema.of(true)
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
	// Every field is checked before any is answered: a request error answers no data.
	for i := range groups {
		switch g := &groups[i]; g.name() {
		case "content", "contentPage", "__typename", "__schema", "__type":
		default:
			return nil, x.errAt(g.sels[0].Pos, edge.CodeInvalidQuery, "unknown field %q on Query; the root fields are content and contentPage (and __schema, __type for introspection)", edge.Clip(g.name()))
		}
	}
	dst = appendDataObject(dst)
	for i := range groups {
		g := &groups[i]
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = appendKey(dst, g.key)
		var err error
		switch g.name() {
		case "content":
			dst, err = x.contentList(dst, g)
		case "contentPage":
			dst, err = x.contentPage(dst, g)
		default:
			var ierr *edge.Error
			if dst, ierr = x.rootIntrospection(dst, g); ierr != nil {
				err = ierr
			}
		}
		if err != nil {
			return nil, err
		}
	}
	return append(dst, "}}"...), nil
}

// contentList answers content in the standard mode: always a list, [Content!]!, the
// first page of 10 items when there are no arguments.
func (x *gqlExec) contentList(dst []byte, g *gqlGroup) ([]byte, error) {
	search, _, err := x.contentArgs(g, true)
	if err != nil {
		return nil, err
	}
	whole, plan, err := x.itemPlan(g)
	if err != nil {
		return nil, err
	}
	res, serr := x.engine.Search(search)
	if serr != nil {
		return nil, serr
	}
	return x.appendItems(dst, res.Docs, whole, plan)
}

// Fields of ContentPage.
const (
	pageItems = iota + 1
	pageTotal
	pageNumber
	pageSize
	pageTypename
)

// pageField is one selected field of a ContentPage.
type pageField struct {
	key   string
	kind  int
	whole bool
	plan  []projField
}

// contentPage answers contentPage: {"items":[...],"totalItems":N,...} in selection
// order; with no selection or `{ }` (the dialect's whole selection), every field.
func (x *gqlExec) contentPage(dst []byte, g *gqlGroup) ([]byte, error) {
	search, _, err := x.contentArgs(g, true)
	if err != nil {
		return nil, err
	}
	fields, err := x.pagePlan(g)
	if err != nil {
		return nil, err
	}
	res, serr := x.engine.Search(search)
	if serr != nil {
		return nil, serr
	}
	dst = append(dst, '{')
	for i, f := range fields {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = appendKey(dst, f.key)
		switch f.kind {
		case pageItems:
			if dst, serr = x.appendItems(dst, res.Docs, f.whole, f.plan); serr != nil {
				return nil, serr
			}
		case pageTotal:
			dst = jsonw.Int(dst, int64(res.Total))
		case pageNumber:
			dst = jsonw.Int(dst, int64(search.From/max(search.Size, 1)+1))
		case pageSize:
			dst = jsonw.Int(dst, int64(search.Size))
		case pageTypename:
			dst = jsonw.String(dst, "ContentPage")
		}
	}
	return append(dst, '}'), nil
}

// pagePlan compiles the selection of a contentPage field.
func (x *gqlExec) pagePlan(g *gqlGroup) ([]pageField, *edge.Error) {
	if wholeSelection(g) {
		return []pageField{{key: "items", kind: pageItems, whole: true}, {key: "totalItems", kind: pageTotal},
			{key: "page", kind: pageNumber}, {key: "pageSize", kind: pageSize}}, nil
	}
	groups, err := x.subGroups(g, "ContentPage", false)
	if err != nil {
		return nil, err
	}
	fields := make([]pageField, 0, len(groups))
	for i := range groups {
		fg := &groups[i]
		if err := x.noArguments(fg); err != nil {
			return nil, err
		}
		f := pageField{key: fg.key}
		switch fg.name() {
		case "items":
			f.kind = pageItems
			if f.whole, f.plan, err = x.itemPlan(fg); err != nil {
				return nil, err
			}
		case "totalItems":
			f.kind = pageTotal
		case "page":
			f.kind = pageNumber
		case "pageSize":
			f.kind = pageSize
		case "__typename":
			f.kind = pageTypename
		default:
			return nil, x.errAt(fg.sels[0].Pos, edge.CodeInvalidQuery, "unknown field %q on ContentPage; the fields are items, totalItems, page, pageSize", edge.Clip(fg.name()))
		}
		if f.kind != pageItems && !wholeSelection(fg) {
			return nil, x.errAt(fg.sels[0].Pos, edge.CodeInvalidQuery, "field %q of ContentPage is an Int and has no fields to select", fg.name())
		}
		fields = append(fields, f)
	}
	return fields, nil
}
