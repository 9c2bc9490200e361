package graphql

import (
	"strconv"
	"strings"

	"github.com/cdaedge/cdaedge/edge/content"
	"github.com/cdaedge/cdaedge/snapshot"
)

// Schema is the GraphQL schema of one snapshot (API.md D9): the static part (Query,
// introspection, scalars) and the types inferred from the snapshot's items (Content's
// members, ContentData, the objects below it, the reference types). The types come
// from the shapes the builder stored in the snapshot (or, without them, from reading
// every item once), so a Schema is built on first use and kept for the snapshot's
// life: the router holds one per environment. Like the router, it is not safe for
// concurrent use.
type Schema struct {
	snap   *snapshot.Snapshot
	fields *content.Fields // the environment's fields, shared by every request
	types  *modeTypes      // nil until first use
	modes  [2]*gqlSchema   // the envelope mode's and the standard mode's schema
}

// modeTypes are the snapshot's own types, as each mode lists them: the standard mode's
// Content has DataJSON too, and it has ContentPage; both share the inferred types.
type modeTypes struct {
	envelope, standard []*gqlType
}

// NewSchema returns the (not yet built) schema of snap, whose fields are described by
// fields (the environment's one content.Fields, so that what it resolves once per
// snapshot is shared with the other front-ends).
func NewSchema(snap *snapshot.Snapshot, fields *content.Fields) *Schema {
	return &Schema{snap: snap, fields: fields}
}

// Snapshot is the snapshot the schema describes.
func (s *Schema) Snapshot() *snapshot.Snapshot { return s.snap }

// of returns the schema a mode answers with. The envelope mode's Query has content
// alone, typed [Content!] since it answers one item without arguments (D9); the
// standard mode's has content, [Content!]!, and contentPage, and its Content has
// DataJSON.
func (s *Schema) of(standard bool) *gqlSchema {
	i := 0
	if standard {
		i = 1
	}
	if s.modes[i] == nil {
		if s.types == nil {
			s.types = inferTypes(s.snap)
		}
		types := s.types.envelope
		if standard {
			types = s.types.standard
		}
		s.modes[i] = assembleSchema(s.snap, types, standard)
	}
	return s.modes[i]
}

// Names the schema gives its own types; inferred object types never take them.
var reservedTypeNames = [...]string{
	"Query", "Content", "ContentPage", "ContentData", "ContentReference", "MediaReference",
	"JSON", "String", "Int", "Float", "Boolean", "ID",
}

const (
	dataTypeDesc = "The elements of Data, typed from the values the items of this environment hold. " +
		"Every element is nullable: items of other templates lack it. " +
		"An element whose values mix kinds (a string in one item, a number in another) is JSON."
	contentRefDesc = "A reference to content items (Type \"Reference\", ReferenceType \"Content\"): ContentIDs lists the referenced items' ContentIDs."
	mediaRefDesc   = "A reference to a media file (Type \"Reference\", ReferenceType \"Media\")."
	pageDesc       = "One page of content items and the number of items that match across all pages."
	dataJSONDesc   = "Data whole, as stored: every element, including those whose names are not GraphQL names. The standard GraphQL spelling of selecting Data without a sub-selection."
)

// typeBuilder turns shapes into GraphQL types.
type typeBuilder struct {
	in    *inferred
	types []*gqlType
	used  map[string]bool
	refs  [refKinds]string // the reference types' names, once built
}

// inferTypes builds the snapshot's own types from its shapes (loadShapes).
func inferTypes(snap *snapshot.Snapshot) *modeTypes {
	return buildTypes(snap, loadShapes(snap))
}

// loadShapes returns the shapes the builder stored in snap (ShapesSection), which
// spares reading every item body; for a snapshot without them (one written by a plain
// snapshot.Writer, as tests do) or with shapes this engine cannot read (another
// encoding version, damage), it infers them from the items, which gives the same
// shapes. A snapshot served by its index part alone has no bodies to infer from: the
// builder always stores the shapes, and without them every element is typed JSON
// rather than asking for every body block of the environment.
func loadShapes(snap *snapshot.Snapshot) *inferred {
	if sec, ok := snap.Section(ShapesSection); ok {
		if in, ok := decodeShapes(sec); ok {
			return in
		}
	}
	if !snap.BodiesResident() {
		return inferItems(0, nil)
	}
	return inferShapes(snap)
}

// buildTypes builds the snapshot's own types: Content (and in the standard mode
// ContentPage), then the object types of the shapes in (ContentData, the objects below
// it and the reference types).
func buildTypes(snap *snapshot.Snapshot, in *inferred) *modeTypes {
	b := &typeBuilder{in: in, used: map[string]bool{}}
	for _, n := range reservedTypeNames[:] {
		b.used[n] = true
	}
	members := contentMembers(snap)
	content := &gqlType{kind: "OBJECT", name: "Content", desc: "A content item. A member that an item lacks is absent from its JSON object (not null)."}
	std := &gqlType{kind: "OBJECT", name: "Content", desc: "A content item. A member that an item lacks answers null."}
	for _, m := range members {
		if !isGraphQLName(m) {
			continue // not selectable; Data whole and the REST endpoints still hold it
		}
		fld := gqlField{name: m, typ: "String", desc: "A top-level member of some items of this environment."}
		for _, d := range memberDocs[:] {
			if d.name == m {
				fld.desc = d.desc
			}
		}
		switch {
		case m == "ContentID":
			fld.typ = "ID!"
		case m == "TemplateID":
			fld.typ = "ID"
		case m == "Data":
			fld.typ = b.object(b.in.data, "ContentData", "Data", dataTypeDesc+b.templateList(b.in.data))
		case !scalarMember(m):
			fld.typ = b.ref(b.in.top.find(m), "Content_"+m, m)
		}
		content.fields = append(content.fields, fld)
		std.fields = append(std.fields, fld)
		if m == "Data" && !contains(members, "DataJSON") {
			std.fields = append(std.fields, gqlField{name: "DataJSON", typ: "JSON", desc: dataJSONDesc})
		}
	}
	page := &gqlType{kind: "OBJECT", name: "ContentPage", desc: pageDesc, fields: []gqlField{
		{name: "items", typ: "[Content!]!", desc: "The items of the page, in the requested order."},
		{name: "totalItems", typ: "Int!", desc: "The number of items that match, across all pages (D7)."},
		{name: "page", typ: "Int!", desc: "The page number (from 1)."},
		{name: "pageSize", typ: "Int!", desc: "The page size asked for (the last page may hold fewer items)."},
	}}
	return &modeTypes{
		envelope: append([]*gqlType{content}, b.types...),
		standard: append([]*gqlType{std, page}, b.types...),
	}
}

// find returns the shape of member name, or nil.
func (sh *shape) find(name string) *shape {
	if sh == nil {
		return nil
	}
	for _, f := range sh.fields {
		if f.name == name {
			return f.s
		}
	}
	return nil
}

// ref is the GraphQL type reference of the values sh describes, found at path (such as
// Data.file); name is the name an object type there gets.
func (b *typeBuilder) ref(sh *shape, name, path string) string {
	if sh == nil || sh.kinds&shapeOpaque != 0 {
		return "JSON"
	}
	switch sh.kinds &^ shapeNull {
	case shapeString:
		return "String"
	case shapeInt:
		return "Int"
	case shapeFloat, shapeInt | shapeFloat:
		return "Float"
	case shapeBool:
		return "Boolean"
	case shapeList:
		elem := b.ref(sh.elem, name, path)
		if sh.elem != nil && sh.elem.kinds&shapeNull == 0 && sh.elem.kinds != 0 {
			elem += "!"
		}
		return "[" + elem + "]"
	case shapeObject:
		for k := 0; k < refKinds; k++ {
			if sh.refs[k] == sh.objects {
				return b.reference(k)
			}
		}
		return b.object(sh, name, path, "")
	}
	return "JSON" // only nulls, or kinds that mix
}

// reference builds (once) the type of one kind of reference from the merged shape of
// every reference of that kind.
func (b *typeBuilder) reference(kind int) string {
	if b.refs[kind] != "" {
		return b.refs[kind]
	}
	name, desc := "ContentReference", contentRefDesc
	if kind == refMedia {
		name, desc = "MediaReference", mediaRefDesc
	}
	// A reference held inside a reference of the same kind (a member of the merged
	// shape) names the type being built, which is this name: object only gives a
	// member a type once it has settled on building the object type, and keeps the
	// reserved name. Without it, building the type would recurse without end.
	b.refs[kind] = name
	b.refs[kind] = b.object(b.in.refs[kind], name, "", desc)
	if t := b.named(b.refs[kind]); t != nil {
		for i := range t.fields {
			f := &t.fields[i]
			switch {
			case f.name == "ContentIDs" && f.typ == "[String!]":
				f.typ = "[ID!]"
			case f.name == "Id" && f.typ == "String":
				f.typ = "ID"
			}
		}
	}
	return b.refs[kind]
}

func (b *typeBuilder) named(name string) *gqlType {
	for _, t := range b.types {
		if t.name == name {
			return t
		}
	}
	return nil
}

// object builds the object type of sh, found at path, under a free name derived from
// name (reserved names are taken as they are by their owners); JSON when no member has
// a GraphQL name.
func (b *typeBuilder) object(sh *shape, name, path, desc string) string {
	if sh == nil || sh.kinds&shapeOpaque != 0 || sh.kinds&^shapeNull&^shapeObject != 0 {
		return "JSON"
	}
	fields := make([]shapeField, 0, len(sh.fields))
	for _, f := range sh.fields {
		if isGraphQLName(f.name) {
			fields = append(fields, f)
		}
	}
	if len(fields) == 0 {
		return "JSON"
	}
	for i := 1; i < len(fields); i++ { // insertion sort: small, and no sort package code
		for j := i; j > 0 && fields[j].name < fields[j-1].name; j-- {
			fields[j], fields[j-1] = fields[j-1], fields[j]
		}
	}
	if !isReserved(name) || b.named(name) != nil {
		name = b.freeName(name)
	}
	b.used[name] = true
	if desc == "" {
		desc = "The values of " + path + "."
	}
	t := &gqlType{kind: "OBJECT", name: name, desc: desc}
	b.types = append(b.types, t)
	for _, f := range fields {
		fd := gqlField{name: f.name, desc: b.templateNote(f.s)}
		child := f.name
		if path != "" {
			child = path + "." + f.name
		}
		fd.typ = b.ref(f.s, name+"_"+f.name, child)
		if fd.typ == "JSON" && f.s.kinds&^shapeNull != 0 && f.s.kinds&shapeOpaque == 0 {
			fd.desc = strings.TrimSpace(fd.desc + " Its values mix kinds, so it is JSON.")
		}
		t.fields = append(t.fields, fd)
	}
	return name
}

func isReserved(name string) bool {
	for _, n := range reservedTypeNames[:] {
		if n == name {
			return true
		}
	}
	return false
}

// freeName is name, or name_2, name_3... when it is taken.
func (b *typeBuilder) freeName(name string) string {
	if !b.used[name] {
		return name
	}
	for i := 2; ; i++ {
		if n := name + "_" + strconv.Itoa(i); !b.used[n] {
			return n
		}
	}
}

// templateNote describes an element of Data by the templates that have it.
func (b *typeBuilder) templateNote(sh *shape) string {
	if len(sh.templates) == 0 {
		return ""
	}
	s := "In items of the templates " + strings.Join(sh.templates, ", ")
	if sh.moreTemplates {
		s += " and others"
	}
	return s + "."
}

// templateList names every template whose items have Data elements.
func (b *typeBuilder) templateList(data *shape) string {
	var names []string
	for _, f := range data.fields {
		for _, t := range f.s.templates {
			if !contains(names, t) {
				names = append(names, t)
			}
		}
	}
	if len(names) == 0 {
		return ""
	}
	for i := 1; i < len(names); i++ {
		for j := i; j > 0 && names[j] < names[j-1]; j-- {
			names[j], names[j-1] = names[j-1], names[j]
		}
	}
	return " Templates: " + strings.Join(names, ", ") + "."
}

// isGraphQLName reports whether s is a GraphQL name that a schema may define (not
// starting with "__", which introspection reserves).
func isGraphQLName(s string) bool {
	if s == "" || strings.HasPrefix(s, "__") {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '_' || 'A' <= c && c <= 'Z' || 'a' <= c && c <= 'z' || i > 0 && '0' <= c && c <= '9' {
			continue
		}
		return false
	}
	return true
}
