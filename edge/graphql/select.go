package graphql

import (
	"github.com/cdaedge/cdaedge/edge"
	"github.com/cdaedge/cdaedge/edge/graphql/parser"
	"github.com/cdaedge/cdaedge/edge/jsonr"
	"github.com/cdaedge/cdaedge/edge/jsonw"
	"github.com/cdaedge/cdaedge/snapshot"
)

// projField is one selected member of an item (or element of Data), compiled once per
// request and applied to every item.
type projField struct {
	// key is the output key: the alias, else the name (D9: aliases rename).
	key string
	// name is the stored member or element name.
	name string
	// typename answers "Content" (D12) instead of reading the item.
	typename bool
	// whole copies the stored value; otherwise children project it.
	whole    bool
	children []projField
}

// content answers the content field: the D8/D9 envelope with one item or a page.
func (x *gqlExec) content(dst []byte, g *gqlGroup) ([]byte, error) {
	field := g.sels[0]
	for _, s := range g.sels[1:] {
		if !sameArguments(field, s) {
			return nil, x.errAt(s.Pos, edge.CodeInvalidQuery, "content is selected twice with different arguments")
		}
	}
	search, list, err := x.contentSearch(field)
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
	snap := x.snap
	dst = append(dst, `{"status":200,"data":`...)
	if !list {
		if len(res.Docs) == 0 {
			dst = append(dst, "null"...) // D9: an empty environment
		} else {
			dst = x.appendItem(dst, snap.Item(res.Docs[0]), whole, plan)
		}
		return append(dst, '}'), nil
	}
	dst = append(dst, '[')
	for i, doc := range res.Docs {
		if i > 0 {
			dst = append(dst, ',')
		}
		start := len(dst)
		dst = x.appendItem(dst, snap.Item(doc), whole, plan)
		// Projection reads the item and copies what is selected, as often as the
		// selection names it (aliases): charge both, and stop at the size limit.
		if err := x.engine.Spend(len(plan)); err != nil {
			return nil, err
		}
		if err := x.engine.CheckAnswer(len(dst), len(dst)-start); err != nil {
			return nil, err
		}
	}
	dst = append(dst, `],"totalItems":`...)
	dst = jsonw.Int(dst, int64(res.Total))
	return append(dst, '}'), nil
}

func (x *gqlExec) appendItem(dst []byte, item string, whole bool, plan []projField) []byte {
	if whole {
		return append(dst, item...) // D9: every member, in stored order (D2)
	}
	return x.project(dst, item, plan)
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
			plan = append(plan, projField{key: fg.key, typename: true})
			continue
		}
		if !x.knownMember(name) {
			return false, nil, x.errAt(fg.sels[0].Pos, edge.CodeInvalidQuery, "unknown field %q on Content; the fields are %s", edge.Clip(name), x.memberList())
		}
		pf := projField{key: fg.key, name: name}
		if pf.whole = wholeSelection(fg); !pf.whole {
			if scalarMember(name) {
				return false, nil, x.errAt(fg.sels[0].Pos, edge.CodeInvalidQuery, "%s is a String and has no fields to select", name)
			}
			if pf.children, err = x.elementPlan(fg, 2); err != nil {
				return false, nil, err
			}
		}
		plan = append(plan, pf)
	}
	return false, plan, nil
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
// names, nested to any depth (D9), bounded by the document's depth limit.
func (x *gqlExec) elementPlan(g *gqlGroup, depth int) ([]projField, *edge.Error) {
	if depth > parser.DefaultMaxDepth {
		return nil, x.errAt(g.sels[0].Pos, edge.CodeTooComplex, "the selection is nested deeper than %d levels", parser.DefaultMaxDepth)
	}
	groups, err := x.subGroups(g, "", true)
	if err != nil {
		return nil, err
	}
	plan := make([]projField, 0, len(groups))
	for i := range groups {
		fg := &groups[i]
		if err := x.noArguments(fg); err != nil {
			return nil, err
		}
		pf := projField{key: fg.key, name: fg.name()}
		if pf.whole = wholeSelection(fg); !pf.whole {
			if pf.children, err = x.elementPlan(fg, depth+1); err != nil {
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
	return s + ", __typename"
}

// project appends the members of the JSON object obj that plan selects, in plan order,
// under their output keys. One pass over obj finds every selected member; values are
// copied as stored bytes (jsonr's Raw), never decoded.
func (x *gqlExec) project(dst []byte, obj string, plan []projField) []byte {
	base := len(x.slots)
	for range plan {
		x.slots = append(x.slots, "")
	}
	slots := x.slots[base:]
	missing := 0
	for i := range plan {
		if !plan[i].typename {
			missing++
		}
	}
	if missing > 0 {
		jsonr.Parse(obj).ForEach(func(k, v jsonr.Result) bool {
			for i := range plan {
				if !plan[i].typename && slots[i] == "" && plan[i].name == k.Str {
					slots[i] = v.Raw
					missing--
				}
			}
			return missing > 0
		})
	}
	dst = append(dst, '{')
	first := true
	for i := range plan {
		p := &plan[i]
		var raw string
		switch {
		case p.typename:
			raw = `"Content"`
		case slots[i] == "":
			continue // absent stays absent (D2, D12)
		default:
			raw = slots[i]
		}
		if !first {
			dst = append(dst, ',')
		}
		first = false
		dst = appendKey(dst, p.key)
		if p.whole || p.typename {
			dst = append(dst, raw...)
		} else {
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
		return x.project(dst, raw, plan)
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
