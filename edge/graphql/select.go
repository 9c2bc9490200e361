package graphql

import (
	"strings"

	"github.com/cdaedge/cdaedge/edge"
	"github.com/cdaedge/cdaedge/edge/content"
	"github.com/cdaedge/cdaedge/edge/graphql/parser"
	"github.com/cdaedge/cdaedge/edge/jsonr"
	"github.com/cdaedge/cdaedge/edge/jsonw"
	"github.com/cdaedge/cdaedge/edge/query"
	"github.com/cdaedge/cdaedge/snapshot"
)

// projField is one selected member of an item (or element of Data), compiled once per
// request and applied to every item.
type projField struct {
	// key is the output key: the alias, else the name (D9: aliases rename).
	key string
	// name is the stored member or element name.
	name string
	// typename, when set, is what the field answers: a __typename field ("Content" in
	// items, D12; the object type's name inside Data in the standard mode).
	typename string
	// whole copies the stored value; otherwise children project it.
	whole    bool
	children []projField
}

// content answers the content field in the envelope mode: the D8/D9 envelope with one
// item or a page.
func (x *gqlExec) content(dst []byte, g *gqlGroup) ([]byte, error) {
	search, list, err := x.contentArgs(g, false)
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
	dst = append(dst, `{"status":200,"data":`...)
	if !list {
		if len(res.Docs) == 0 {
			dst = append(dst, "null"...) // D9: an empty environment
		} else {
			dst = x.appendItem(dst, res.Docs[0], whole, plan)
		}
		return append(dst, '}'), nil
	}
	if dst, serr = x.appendItems(dst, res.Docs, whole, plan); serr != nil {
		return nil, serr
	}
	dst = append(dst, `,"totalItems":`...)
	dst = jsonw.Int(dst, int64(res.Total))
	return append(dst, '}'), nil
}

// contentArgs compiles the arguments of a content (or contentPage) field, which every
// merged selection of it must repeat. list forces a page where the envelope mode
// answers one item for no arguments (D9).
func (x *gqlExec) contentArgs(g *gqlGroup, list bool) (*query.Search, bool, *edge.Error) {
	field := g.sels[0]
	for _, s := range g.sels[1:] {
		if !sameArguments(field, s) {
			return nil, false, x.errAt(s.Pos, edge.CodeInvalidQuery, "%s is selected twice with different arguments", field.Name)
		}
	}
	search, isList, err := x.contentSearch(field)
	if err == nil && list && !isList {
		search, err = x.assembleSearch(&argValues{page: 1, size: content.DefaultPageSize, depth: 1})
		isList = true
	}
	return search, isList, err
}

// appendItems appends the items docs as a JSON list, projected by plan.
func (x *gqlExec) appendItems(dst []byte, docs []int, whole bool, plan []projField) ([]byte, error) {
	dst = append(dst, '[')
	for i, doc := range docs {
		if i > 0 {
			dst = append(dst, ',')
		}
		start := len(dst)
		dst = x.appendItem(dst, doc, whole, plan)
		// Projection reads the item and copies what is selected, as often as the
		// selection names it (aliases): charge both, and stop at the size limit.
		if err := x.engine.Spend(len(plan)); err != nil {
			return nil, err
		}
		if err := x.engine.CheckAnswer(len(dst), len(dst)-start); err != nil {
			return nil, err
		}
	}
	return append(dst, ']'), nil
}

// appendItem appends item doc, whole or projected by plan.
func (x *gqlExec) appendItem(dst []byte, doc int, whole bool, plan []projField) []byte {
	item := x.snap.Item(doc)
	if whole {
		return append(dst, item...) // D9: every member, in stored order (D2)
	}
	// Data comes fourth of an item's members (D2) and holds most of its bytes: where
	// it ends, recorded by the builder, lets the members after it be read without
	// scanning it.
	return x.project(dst, item, x.snap.DataEnd(doc), plan)
}

// sameArguments reports whether two selections of content have the same arguments (as
// GraphQL's field merging requires), wherever they were written.
func sameArguments(a, b *parser.Selection) bool {
	return parser.SameArguments(a.Arguments, b.Arguments)
}

// scalarMembers are documented members that hold a string: a sub-selection on them is
// an error, as on any GraphQL scalar. Data and undocumented members (typed JSON in the
// schema) may be sub-selected.
func scalarMember(name string) bool {
	for _, m := range snapshot.DocumentedMembers[:] {
		if m == name {
			return m != "Data"
		}
	}
	return false
}

// itemPlan compiles the selection of content. whole means every member as stored: an
// empty `{ }` or no selection set (D9).
func (x *gqlExec) itemPlan(g *gqlGroup) (whole bool, plan []projField, err *edge.Error) {
	written := false
	for _, s := range g.sels {
		if len(s.Selections) > 0 {
			written = true
		}
	}
	if !written {
		return true, nil, nil
	}
	groups, err := x.subGroups(g, "Content", false)
	if err != nil {
		return false, nil, err
	}
	plan = make([]projField, 0, len(groups))
	for i := range groups {
		fg := &groups[i]
		name := fg.name()
		if err := x.noArguments(fg); err != nil {
			return false, nil, err
		}
		if name == "__typename" {
			plan = append(plan, projField{key: fg.key, typename: "Content"})
			continue
		}
		pf := projField{key: fg.key, name: name}
		if name == "DataJSON" && x.standard && !x.knownMember(name) {
			pf.name = "Data" // Data whole, under its own name in the schema
		} else if !x.knownMember(name) {
			return false, nil, x.errAt(fg.sels[0].Pos, edge.CodeInvalidQuery, "unknown field %q on Content; the fields are %s", edge.Clip(name), x.memberList())
		}
		if pf.whole = wholeSelection(fg); !pf.whole {
			if scalarMember(name) {
				return false, nil, x.errAt(fg.sels[0].Pos, edge.CodeInvalidQuery, "%s is a String and has no fields to select", name)
			}
			t, err := x.objectField(x.contentType(), name, fg)
			if err != nil {
				return false, nil, err
			}
			if pf.children, err = x.elementPlan(fg, 2, t); err != nil {
				return false, nil, err
			}
		}
		plan = append(plan, pf)
	}
	return false, plan, nil
}

// contentType is the Content type of the standard mode's schema; nil in the envelope
// mode, whose selections inside items are not typed (they project what is stored).
func (x *gqlExec) contentType() *gqlType {
	if !x.standard {
		return nil
	}
	return x.sch.typeNamed("Content")
}

// objectField returns the object type of field name of parent (nil when parent is nil:
// untyped), for a sub-selection on it. In the standard mode a field the type lacks, or
// a sub-selection on a scalar or JSON field, is invalid_query, as GraphQL validation
// has it.
func (x *gqlExec) objectField(parent *gqlType, name string, fg *gqlGroup) (*gqlType, *edge.Error) {
	if parent == nil {
		return nil, nil
	}
	f := parent.field(name)
	if f == nil {
		return nil, x.errAt(fg.sels[0].Pos, edge.CodeInvalidQuery, "unknown field %q on %s", edge.Clip(name), parent.name)
	}
	t := x.sch.typeNamed(namedType(f.typ))
	if t == nil || t.kind != "OBJECT" {
		return nil, x.errAt(fg.sels[0].Pos, edge.CodeInvalidQuery, "field %q of %s is a %s and has no fields to select", name, parent.name, f.typ)
	}
	return t, nil
}

// namedType strips the list and non-null wrappers of a type reference.
func namedType(ref string) string {
	return strings.Trim(ref, "[]!")
}

// wholeSelection: a field selects its whole value when any of its merged occurrences
// has no sub-selection or the dialect's empty `{ }` (every member, D9).
func wholeSelection(g *gqlGroup) bool {
	for _, s := range g.sels {
		if len(s.Selections) == 0 {
			return true
		}
	}
	return false
}

// elementPlan compiles a sub-selection of Data (or of an element below it): element
// names, nested to any depth (D9), bounded by the document's depth limit. t is the
// object type selected on in the standard mode (nil in the envelope mode, where any
// element name may be selected and fragments are refused: Data there is schemaless).
func (x *gqlExec) elementPlan(g *gqlGroup, depth int, t *gqlType) ([]projField, *edge.Error) {
	if depth > parser.DefaultMaxDepth {
		return nil, x.errAt(g.sels[0].Pos, edge.CodeTooComplex, "the selection is nested deeper than %d levels", parser.DefaultMaxDepth)
	}
	typeName := ""
	if t != nil {
		typeName = t.name
	}
	groups, err := x.subGroups(g, typeName, t == nil)
	if err != nil {
		return nil, err
	}
	plan := make([]projField, 0, len(groups))
	for i := range groups {
		fg := &groups[i]
		if err := x.noArguments(fg); err != nil {
			return nil, err
		}
		if t != nil && fg.name() == "__typename" {
			plan = append(plan, projField{key: fg.key, typename: t.name})
			continue
		}
		if t != nil && t.field(fg.name()) == nil {
			return nil, x.errAt(fg.sels[0].Pos, edge.CodeInvalidQuery, "unknown field %q on %s", edge.Clip(fg.name()), t.name)
		}
		pf := projField{key: fg.key, name: fg.name()}
		if pf.whole = wholeSelection(fg); !pf.whole {
			ft, err := x.objectField(t, pf.name, fg)
			if err != nil {
				return nil, err
			}
			if pf.children, err = x.elementPlan(fg, depth+1, ft); err != nil {
				return nil, err
			}
		}
		plan = append(plan, pf)
	}
	return plan, nil
}

func (x *gqlExec) noArguments(g *gqlGroup) *edge.Error {
	for _, s := range g.sels {
		if s.HasArguments {
			return x.errAt(s.Pos, edge.CodeInvalidQuery, "field %q takes no arguments; arguments go on content", s.Name)
		}
	}
	return nil
}

// knownMember: a documented member, or a top-level member some item of the environment
// has, spelt exactly (D9; GraphQL names are case-sensitive).
func (x *gqlExec) knownMember(name string) bool {
	for _, m := range snapshot.DocumentedMembers[:] {
		if m == name {
			return true
		}
	}
	canonical, ok := x.fields.TopLevel(name)
	return ok && canonical == name
}

// memberList names the selectable members for an error message.
func (x *gqlExec) memberList() string {
	s := ""
	for _, m := range contentMembers(x.snap) {
		if s != "" {
			s += ", "
		}
		s += m
	}
	if x.standard {
		s += ", DataJSON"
	}
	return s + ", __typename"
}

// project appends the members of the JSON object obj that plan selects, in plan order,
// under their output keys. One pass over obj finds every selected member; values are
// copied as stored bytes (jsonr's Raw), never decoded. A member obj lacks is left out,
// or answers null in the standard mode (GraphQL answers every selected field).
// dataEnd, when not 0, is where obj's member Data ends (Snapshot.DataEnd).
func (x *gqlExec) project(dst []byte, obj string, dataEnd int, plan []projField) []byte {
	base := len(x.slots)
	for range plan {
		x.slots = append(x.slots, "")
	}
	slots := x.slots[base:]
	missing := 0
	for i := range plan {
		if plan[i].typename == "" {
			missing++
		}
	}
	var it jsonr.Members
	for it.ResetKnown(jsonr.Parse(obj), "Data", dataEnd); missing > 0 && it.Next(); {
		for i := range plan {
			if plan[i].typename == "" && slots[i] == "" && plan[i].name == it.Key.Str {
				slots[i] = it.Value.Raw
				missing--
			}
		}
	}
	dst = append(dst, '{')
	first := true
	for i := range plan {
		p := &plan[i]
		raw := slots[i]
		if raw == "" && p.typename == "" {
			if !x.standard {
				continue // absent stays absent (D2, D12)
			}
			raw = "null"
		}
		if !first {
			dst = append(dst, ',')
		}
		first = false
		dst = appendKey(dst, p.key)
		switch {
		case p.typename != "":
			dst = jsonw.String(dst, p.typename)
		case p.whole:
			dst = append(dst, raw...)
		default:
			dst = x.projectValue(dst, raw, p.children)
		}
	}
	x.slots = x.slots[:base]
	return append(dst, '}')
}

// projectValue applies a sub-selection to a stored value: an object is projected, a list
// element by element (GraphQL's list semantics); any other value is schemaless Data, so
// it is returned as stored rather than dropped.
func (x *gqlExec) projectValue(dst []byte, raw string, plan []projField) []byte {
	switch {
	case len(raw) > 0 && raw[0] == '{':
		return x.project(dst, raw, 0, plan)
	case len(raw) > 0 && raw[0] == '[':
		dst = append(dst, '[')
		i := 0
		jsonr.Parse(raw).ForEach(func(_, v jsonr.Result) bool {
			if i > 0 {
				dst = append(dst, ',')
			}
			i++
			dst = x.projectValue(dst, v.Raw, plan)
			return true
		})
		return append(dst, ']')
	}
	return append(dst, raw...)
}
