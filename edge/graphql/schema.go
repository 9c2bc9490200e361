package graphql

import (
	"strings"

	"github.com/cdaedge/cdaedge/edge"
	"github.com/cdaedge/cdaedge/snapshot"

	"github.com/cdaedge/cdaedge/edge/graphql/parser"
	"github.com/cdaedge/cdaedge/edge/jsonw"
)

// The schema of the GraphQL endpoint (D9), one model for both the introspection answer
// (__schema, __type) and the SDL of schema.graphql, so the two never disagree.
//
// What GraphQL's type system cannot say, the descriptions say: content answers ONE item
// when it has no arguments and a list otherwise (D9), so its type is the list form,
// [Content!], and its description tells of the single shape. Data is a JSON scalar
// because templates define its elements; sub-selections of Data (`Data { title }`) are
// this service's extension.

// A type reference (a field's, an argument's) is written as in GraphQL, "[Content!]",
// and resolved by name when it is introspected: the whole schema but the Content type is
// static data, built once by the compiler rather than per request, and the type graph,
// which is cyclic (__Type.ofType is a __Type), needs no pointers.

type gqlType struct {
	kind        string // __TypeKind: SCALAR, OBJECT or ENUM (wrappers live in references)
	name        string
	desc        string
	fields      []gqlField
	enumValues  []string // none of them has a description
	specifiedBy string
}

type gqlField struct {
	name string
	desc string
	args []gqlInput
	typ  string // a type reference
}

type gqlInput struct {
	name string
	desc string
	typ  string // a type reference
	def  string // default value as a GraphQL literal, "" for none
}

type gqlDirective struct {
	name       string
	desc       string
	locations  []string
	args       []gqlInput
	repeatable bool
}

type gqlSchema struct {
	desc       string
	types      []*gqlType // Query first
	directives []gqlDirective
}

// gqlScalars are the built-in scalars and JSON, in the order the schema lists them.
var gqlScalars = [...]gqlType{
	{kind: "SCALAR", name: "JSON", desc: "Any JSON value: an object, array, string, number, boolean or null. As an argument it is written as a GraphQL value, for example {urlPath: \"/home\"}.", specifiedBy: "https://www.rfc-editor.org/rfc/rfc8259"},
	{kind: "SCALAR", name: "String", desc: "The `String` scalar type represents textual data, represented as UTF-8 character sequences."},
	{kind: "SCALAR", name: "Int", desc: "The `Int` scalar type represents non-fractional signed whole numeric values between -2^31 and 2^31-1."},
	{kind: "SCALAR", name: "Float", desc: "The `Float` scalar type represents signed double-precision fractional values."},
	{kind: "SCALAR", name: "Boolean", desc: "The `Boolean` scalar type represents `true` or `false`."},
	{kind: "SCALAR", name: "ID", desc: "The `ID` scalar type represents a unique identifier, serialized as a String."},
}

var gqlDirectives = [...]gqlDirective{
	{name: "include", desc: "Directs the executor to include this field or fragment only when the `if` argument is true.",
		locations: []string{"FIELD", "FRAGMENT_SPREAD", "INLINE_FRAGMENT"},
		args:      []gqlInput{{name: "if", desc: "Included when true.", typ: "Boolean!"}}},
	{name: "skip", desc: "Directs the executor to skip this field or fragment when the `if` argument is true.",
		locations: []string{"FIELD", "FRAGMENT_SPREAD", "INLINE_FRAGMENT"},
		args:      []gqlInput{{name: "if", desc: "Skipped when true.", typ: "Boolean!"}}},
}

// includeDeprecated is the argument of the list fields of __Type, __Field and
// __Directive; nothing here is deprecated, so its value changes nothing.
var includeDeprecated = []gqlInput{{name: "includeDeprecated", typ: "Boolean", def: "false"}}

// introspectionTypes are the types of GraphQL's introspection system (GraphQL
// specification, October 2021, plus specifiedByURL and isOneOf of later drafts).
var introspectionTypes = [...]gqlType{
	{kind: "OBJECT", name: "__Schema", desc: "A GraphQL Schema defines the capabilities of a GraphQL server. It exposes all available types and directives on the server, as well as the entry points for query, mutation, and subscription operations.",
		fields: []gqlField{
			{name: "description", typ: "String"},
			{name: "types", typ: "[__Type!]!"},
			{name: "queryType", typ: "__Type!"},
			{name: "mutationType", typ: "__Type"},
			{name: "subscriptionType", typ: "__Type"},
			{name: "directives", typ: "[__Directive!]!"},
		}},
	{kind: "OBJECT", name: "__Type", desc: "The fundamental unit of any GraphQL Schema is the type. There are many kinds of types in GraphQL as represented by the `__TypeKind` enum.",
		fields: []gqlField{
			{name: "kind", typ: "__TypeKind!"},
			{name: "name", typ: "String"},
			{name: "description", typ: "String"},
			{name: "specifiedByURL", typ: "String"},
			{name: "fields", typ: "[__Field!]", args: includeDeprecated},
			{name: "interfaces", typ: "[__Type!]"},
			{name: "possibleTypes", typ: "[__Type!]"},
			{name: "enumValues", typ: "[__EnumValue!]", args: includeDeprecated},
			{name: "inputFields", typ: "[__InputValue!]", args: includeDeprecated},
			{name: "ofType", typ: "__Type"},
			{name: "isOneOf", typ: "Boolean"},
		}},
	{kind: "OBJECT", name: "__Field", desc: "Object and Interface types are described by a list of Fields, each of which has a name, potentially a list of arguments, and a return type.",
		fields: []gqlField{
			{name: "name", typ: "String!"},
			{name: "description", typ: "String"},
			{name: "args", typ: "[__InputValue!]!", args: includeDeprecated},
			{name: "type", typ: "__Type!"},
			{name: "isDeprecated", typ: "Boolean!"},
			{name: "deprecationReason", typ: "String"},
		}},
	{kind: "OBJECT", name: "__InputValue", desc: "Arguments provided to Fields or Directives and the input fields of an InputObject are represented as Input Values which describe their type and optionally a default value.",
		fields: []gqlField{
			{name: "name", typ: "String!"},
			{name: "description", typ: "String"},
			{name: "type", typ: "__Type!"},
			{name: "defaultValue", typ: "String"},
			{name: "isDeprecated", typ: "Boolean!"},
			{name: "deprecationReason", typ: "String"},
		}},
	{kind: "OBJECT", name: "__EnumValue", desc: "One possible value for a given Enum. Enum values are unique values, not a placeholder for a string or numeric value.",
		fields: []gqlField{
			{name: "name", typ: "String!"},
			{name: "description", typ: "String"},
			{name: "isDeprecated", typ: "Boolean!"},
			{name: "deprecationReason", typ: "String"},
		}},
	{kind: "OBJECT", name: "__Directive", desc: "A Directive provides a way to describe alternate runtime execution and type validation behavior in a GraphQL document.",
		fields: []gqlField{
			{name: "name", typ: "String!"},
			{name: "description", typ: "String"},
			{name: "isRepeatable", typ: "Boolean!"},
			{name: "locations", typ: "[__DirectiveLocation!]!"},
			{name: "args", typ: "[__InputValue!]!", args: includeDeprecated},
		}},
	{kind: "ENUM", name: "__TypeKind", desc: "An enum describing what kind of type a given `__Type` is.",
		enumValues: []string{"SCALAR", "OBJECT", "INTERFACE", "UNION", "ENUM", "INPUT_OBJECT", "LIST", "NON_NULL"}},
	{kind: "ENUM", name: "__DirectiveLocation", desc: "A Directive can be adjacent to many parts of the GraphQL language, a __DirectiveLocation describes one such possible adjacencies.",
		enumValues: []string{"QUERY", "MUTATION", "SUBSCRIPTION", "FIELD", "FRAGMENT_DEFINITION", "FRAGMENT_SPREAD", "INLINE_FRAGMENT", "VARIABLE_DEFINITION", "SCHEMA", "SCALAR", "OBJECT", "FIELD_DEFINITION", "ARGUMENT_DEFINITION", "INTERFACE", "UNION", "ENUM", "ENUM_VALUE", "INPUT_OBJECT", "INPUT_FIELD_DEFINITION"}},
}

// memberDocs are the descriptions of the documented members (spec, "Content item").
var memberDocs = [...]struct{ name, desc string }{
	{"Status", "Status of the content item (Published in delivered content)."},
	{"CreatedBy", "Name of the creator."},
	{"CreatedAt", "Creation time: ISO 8601 UTC date-time with milliseconds and a trailing Z."},
	{"Data", "The content's elements and their values; keys are the element names of the template. Select it whole, or select elements by name: Data { title urlPath }."},
	{"PublishedBy", "Name of the publisher."},
	{"UpdatedAt", "Time of last update: ISO 8601 UTC date-time with milliseconds and a trailing Z."},
	{"Name", "Name of the content item."},
	{"PublishedAt", "Publication time: ISO 8601 UTC date-time with milliseconds and a trailing Z."},
	{"UpdatedBy", "Name of the last editor."},
	{"TemplateName", "Name of the content template."},
	{"TemplateID", "Template identifier, Template_<uuid>."},
	{"ContentID", "Content item identifier, Content_<uuid>."},
}

// contentMembers are the selectable members: the documented ones in D2 order, then the
// other top-level members the environment's items have (such as ParentID), sorted.
func contentMembers(snap *snapshot.Snapshot) []string {
	out := append([]string(nil), snapshot.DocumentedMembers[:]...)
	for _, f := range snap.FieldNames() {
		top, _, _ := strings.Cut(f, ".")
		known := false
		for _, m := range out {
			if m == top {
				known = true
				break
			}
		}
		if !known {
			out = append(out, top)
		}
	}
	return out
}

const contentDesc = "Content items of the environment.\n\n" +
	"Shape: with no arguments at all, data is ONE item (the newest by CreatedAt, ties by ContentID) or null, and there is no totalItems; " +
	"with any argument, data is a list of items and totalItems counts every match across pages.\n\n" +
	"String filters match when every word of the value occurs in the field (\"Erian\" matches \"Erian Suwandi\"). " +
	"Argument names match in any case (pageSize = pagesize = PageSize)."

// contentBaseArgs describe the arguments of content (D9): the spellings of the spec's
// table and examples; contentArgs adds the equivalents.
var contentBaseArgs = [...]gqlInput{
	{name: "name", typ: "String", desc: "Filter by Name (every word must occur)."},
	{name: "templateName", typ: "String", desc: "Filter by TemplateName (every word must occur)."},
	{name: "status", typ: "String", desc: "Filter by Status."},
	{name: "createdBy", typ: "String", desc: "Filter by CreatedBy (every word must occur)."},
	{name: "createdAt", typ: "String", desc: "Filter by creation date: YYYY-MM-DD or YYYY-MM-DDThh:mm:ss[.fff][Z|±hh:mm]; matches the whole day or second written."},
	{name: "updatedBy", typ: "String", desc: "Filter by UpdatedBy (every word must occur)."},
	{name: "updatedAt", typ: "String", desc: "Filter by update date, as createdAt."},
	{name: "publishedBy", typ: "String", desc: "Filter by PublishedBy (every word must occur)."},
	{name: "publishedAt", typ: "String", desc: "Filter by publication date, as createdAt."},
	{name: "contentID", typ: "ID", desc: "The item with this ContentID (exact). With retrieveChild: true, the item whose children to return. Same as contentId."},
	{name: "contentId", typ: "ID", desc: "Same as contentID."},
	{name: "templateID", typ: "ID", desc: "Items of the template with this TemplateID (exact). Same as templateId."},
	{name: "templateId", typ: "ID", desc: "Same as templateID."},
	{name: "data", typ: "JSON", desc: "Filter by elements of Data: {urlPath: \"/home\"}; nested objects address nested elements ({file: {Extension: \"pdf\"}}), numbers and booleans compare exactly, a list gives alternatives ({tags: [\"food\", \"travel\"]}). A String instead matches when every word occurs in the item's Data strings together."},
	{name: "page", typ: "Int", desc: "Page number, from 1 (default 1). A numeric String is accepted too."},
	{name: "pageSize", typ: "Int", desc: "Items per page, 1 to 1000 (default 10)."},
	{name: "sort", typ: "String", desc: "Field to sort by: a member (any case) or Data.<element>. Default CreatedAt."},
	{name: "sortAsc", typ: "Boolean", desc: "true sorts ascending; default descending."},
	{name: "retrieveChild", typ: "Boolean", desc: "With contentId: return the items whose ParentID is that item (its children), not the item itself."},
	{name: "depth", typ: "Int", desc: "With retrieveChild: how many levels of descendants to return, 1 to 16 (default 1)."},
}

// contentArgs are contentBaseArgs, then each documented member's name as an argument,
// then the comparisons of the three dates; descriptions name the equivalents.
var contentArgs = func() []gqlInput {
	args := append([]gqlInput(nil), contentBaseArgs[:]...)
	for _, m := range memberDocs[:] {
		if m.name == "Data" {
			continue
		}
		t := "String"
		if strings.HasSuffix(m.name, "ID") {
			t = "ID"
		}
		args = append(args, gqlInput{name: m.name, typ: t, desc: "Same as " + lowerFirst(m.name) + "."})
	}
	for _, date := range []string{"CreatedAt", "UpdatedAt", "PublishedAt"} {
		for _, op := range []struct{ suffix, desc string }{
			{"gte", "at or after"}, {"gt", "after"}, {"lte", "at or before"}, {"lt", "before"},
		} {
			args = append(args, gqlInput{name: date + "_" + op.suffix, typ: "String",
				desc: "Items with " + date + " " + op.desc + " this instant (YYYY-MM-DDThh:mm:ss, or a day, meaning its start)."})
		}
	}
	return args
}()

func lowerFirst(s string) string {
	if s == "" {
		return s
	}
	b := []byte(s)
	if b[0] >= 'A' && b[0] <= 'Z' {
		b[0] += 'a' - 'A'
	}
	return string(b)
}

// buildSchema returns the schema of env: the Content type lists env's members.
func buildSchema(snap *snapshot.Snapshot) *gqlSchema {
	content := &gqlType{kind: "OBJECT", name: "Content", desc: "A content item. A member that an item lacks is absent from its JSON object (not null)."}
	for _, m := range contentMembers(snap) {
		fld := gqlField{name: m, typ: "String", desc: "A top-level member of some items of this environment; its JSON value as stored."}
		for _, d := range memberDocs[:] {
			if d.name == m {
				fld.desc = d.desc
			}
		}
		switch m {
		case "ContentID":
			fld.typ = "ID!"
		case "TemplateID":
			fld.typ = "ID"
		case "Data":
			fld.typ = "JSON"
		default:
			if !scalarMember(m) {
				fld.typ = "JSON"
			}
		}
		content.fields = append(content.fields, fld)
	}
	query := &gqlType{kind: "OBJECT", name: "Query", desc: "The delivery API's one root field is content.",
		fields: []gqlField{{name: "content", desc: contentDesc, args: contentArgs, typ: "[Content!]"}}}
	s := &gqlSchema{
		desc:       "Content Delivery API of environment " + snap.Environment() + " (read-only).",
		types:      make([]*gqlType, 0, 2+len(staticTypes)),
		directives: gqlDirectives[:],
	}
	s.types = append(append(s.types, query, content), staticTypes[:]...)
	return s
}

// staticTypes are the types every schema lists after Query and Content.
var staticTypes = [...]*gqlType{
	&gqlScalars[0], &gqlScalars[1], &gqlScalars[2], &gqlScalars[3], &gqlScalars[4], &gqlScalars[5],
	&introspectionTypes[0], &introspectionTypes[1], &introspectionTypes[2], &introspectionTypes[3],
	&introspectionTypes[4], &introspectionTypes[5], &introspectionTypes[6], &introspectionTypes[7],
}

func (s *gqlSchema) typeNamed(name string) *gqlType {
	for _, t := range s.types {
		if t.name == name {
			return t
		}
	}
	return nil
}

// AppendSDL appends snap's schema in GraphQL's schema definition language (the answer
// of GET /cda/graphql/v1/<env>/schema.graphql).
func AppendSDL(dst []byte, snap *snapshot.Snapshot) []byte {
	return appendSDL(dst, buildSchema(snap))
}

// appendSDL prints the schema in GraphQL's schema definition language, without the
// built-in scalars, directives and introspection types (as graphql-js printSchema).
func appendSDL(dst []byte, s *gqlSchema) []byte {
	dst = appendDescription(dst, s.desc, "")
	dst = append(dst, "schema {\n  query: Query\n}\n"...)
	for _, t := range s.types {
		if strings.HasPrefix(t.name, "__") || t.kind == "SCALAR" && t.name != "JSON" {
			continue
		}
		dst = append(dst, '\n')
		dst = appendDescription(dst, t.desc, "")
		switch t.kind {
		case "SCALAR":
			dst = append(dst, "scalar "...)
			dst = append(dst, t.name...)
			if t.specifiedBy != "" {
				dst = append(dst, " @specifiedBy(url: "...)
				dst = parser.AppendString(dst, t.specifiedBy)
				dst = append(dst, ')')
			}
			dst = append(dst, '\n')
		case "OBJECT":
			dst = append(dst, "type "...)
			dst = append(dst, t.name...)
			dst = append(dst, " {\n"...)
			for i := range t.fields {
				f := &t.fields[i]
				if i > 0 && f.desc != "" {
					dst = append(dst, '\n')
				}
				dst = appendDescription(dst, f.desc, "  ")
				dst = append(dst, "  "...)
				dst = append(dst, f.name...)
				if len(f.args) > 0 {
					dst = append(dst, "(\n"...)
					for _, a := range f.args {
						dst = appendDescription(dst, a.desc, "    ")
						dst = append(dst, "    "...)
						dst = append(dst, a.name...)
						dst = append(dst, ": "...)
						dst = append(dst, a.typ...)
						if a.def != "" {
							dst = append(dst, " = "...)
							dst = append(dst, a.def...)
						}
						dst = append(dst, '\n')
					}
					dst = append(dst, "  )"...)
				}
				dst = append(dst, ": "...)
				dst = append(dst, f.typ...)
				dst = append(dst, '\n')
			}
			dst = append(dst, "}\n"...)
		}
	}
	return dst
}

// appendDescription prints a description as a block string.
func appendDescription(dst []byte, desc, indent string) []byte {
	if desc == "" {
		return dst
	}
	desc = strings.ReplaceAll(desc, `"""`, `\"""`)
	dst = append(dst, indent...)
	dst = append(dst, `"""`+"\n"...)
	for _, line := range strings.Split(desc, "\n") {
		if line != "" {
			dst = append(dst, indent...)
			dst = append(dst, line...)
		}
		dst = append(dst, '\n')
	}
	dst = append(dst, indent...)
	return append(dst, `"""`+"\n"...)
}

// introspect answers a document whose root holds only __schema, __type and
// __typename, in the standard shape {"data":{...}} (D9).
func (x *gqlExec) introspect(dst []byte, groups []gqlGroup) ([]byte, error) {
	s := buildSchema(x.snap)
	dst = appendDataObject(dst)
	for i := range groups {
		g := &groups[i]
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = appendKey(dst, g.key)
		var err *edge.Error
		switch g.name() {
		case "__typename":
			if err = x.noArguments(g); err == nil {
				dst = append(dst, `"Query"`...)
			}
		case "__schema":
			if err = x.noArguments(g); err == nil {
				dst, err = x.introObject(dst, s, introValue{kind: "__Schema"}, g, 1)
			}
		case "__type":
			var name string
			if name, err = x.typeNameArg(g); err == nil {
				if t := s.typeNamed(name); t != nil {
					dst, err = x.introObject(dst, s, introValue{kind: "__Type", ref: name, typ: t}, g, 1)
				} else {
					dst = append(dst, "null"...)
				}
			}
		}
		if err != nil {
			return nil, err
		}
	}
	return append(dst, "}}"...), nil
}

func (x *gqlExec) typeNameArg(g *gqlGroup) (string, *edge.Error) {
	s := g.sels[0]
	for i := range s.Arguments {
		a := &s.Arguments[i]
		if a.Name != "name" {
			return "", x.errAt(a.Pos, edge.CodeInvalidQuery, "unknown argument %q of __type; it takes name: String!", a.Name)
		}
		v, set, err := x.value(&a.Value)
		if err != nil {
			return "", err
		}
		if !set || v.Kind != parser.StringValue {
			return "", x.errAt(a.Value.Pos, edge.CodeInvalidArgument, "__type(name:) must be a String, not %s", kindOf(v, set))
		}
		return v.Text, nil
	}
	return "", x.errAt(s.Pos, edge.CodeInvalidQuery, "__type needs the argument name: String!")
}

// introValue is one object of the introspection system.
type introValue struct {
	kind  string   // __Schema, __Type, __Field, __InputValue, __EnumValue, __Directive
	ref   string   // __Type: its reference, a name or a wrapper such as "[Content!]"
	typ   *gqlType // __Type: the type a name refers to (nil for a wrapper)
	field *gqlField
	input *gqlInput
	enum  string
	dir   *gqlDirective
}

// typeValue is the __Type of a type reference.
func (s *gqlSchema) typeValue(ref string) introValue {
	v := introValue{kind: "__Type", ref: ref}
	if wrapperKind(ref) == "" {
		v.typ = s.typeNamed(ref)
	}
	return v
}

// wrapperKind is NON_NULL or LIST for a reference that wraps another, else "".
func wrapperKind(ref string) string {
	switch {
	case strings.HasSuffix(ref, "!"):
		return "NON_NULL"
	case strings.HasPrefix(ref, "["):
		return "LIST"
	}
	return ""
}

// introObject appends the selection of g's sub-selections on object v.
func (x *gqlExec) introObject(dst []byte, s *gqlSchema, v introValue, g *gqlGroup, depth int) ([]byte, *edge.Error) {
	if depth > parser.DefaultMaxDepth {
		return nil, x.errAt(g.sels[0].Pos, edge.CodeTooComplex, "the selection is nested deeper than %d levels", parser.DefaultMaxDepth)
	}
	if wholeSelection(g) {
		return nil, x.errAt(g.sels[0].Pos, edge.CodeInvalidQuery, "field %q of type %s needs a selection of subfields", g.name(), v.kind)
	}
	groups, err := x.subGroups(g, v.kind, false)
	if err != nil {
		return nil, err
	}
	dst = append(dst, '{')
	for i := range groups {
		fg := &groups[i]
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = appendKey(dst, fg.key)
		if dst, err = x.introField(dst, s, v, fg, depth); err != nil {
			return nil, err
		}
	}
	return append(dst, '}'), nil
}

// introShape is the shape of an introspection field's value.
type introShape uint8

const (
	introUnknown introShape = iota // no such field
	introString                    // a String scalar; "" answers null
	introRaw                       // a scalar written as its JSON text
	introNames                     // a list of strings (enum values, as scalars)
	introNull                      // an object or list field with no value here
	introOne                       // one object
	introList                      // a list of objects
)

// introResult is the value of one field of an introspection object.
type introResult struct {
	shape  introShape
	text   string       // introString, introRaw
	object introValue   // introOne
	list   []introValue // introList
	names  []string     // introNames
}

// introField resolves one field of an introspection object.
func (x *gqlExec) introField(dst []byte, s *gqlSchema, v introValue, g *gqlGroup, depth int) ([]byte, *edge.Error) {
	name := g.name()
	if err := x.step(g.sels[0].Pos); err != nil {
		return nil, err
	}
	// Only the list fields of __Type, __Field and __Directive take includeDeprecated;
	// nothing here is deprecated, so its value changes nothing.
	for _, sel := range g.sels {
		for _, a := range sel.Arguments {
			if a.Name != "includeDeprecated" {
				return nil, x.errAt(a.Pos, edge.CodeInvalidQuery, "unknown argument %q of %s.%s", a.Name, v.kind, name)
			}
		}
	}
	r := s.introResolve(v, name)
	if r.shape == introString || r.shape == introRaw || r.shape == introNames {
		if !wholeSelection(g) {
			return nil, x.errAt(g.sels[0].Pos, edge.CodeInvalidQuery, "field %q is a scalar and has no subfields", name)
		}
	}
	switch r.shape {
	case introString:
		if r.text == "" {
			return append(dst, "null"...), nil
		}
		return jsonw.String(dst, r.text), nil
	case introRaw:
		return append(dst, r.text...), nil
	case introNames:
		dst = append(dst, '[')
		for i, n := range r.names {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = jsonw.String(dst, n)
		}
		return append(dst, ']'), nil
	case introNull:
		// A sub-selection on it is valid GraphQL, so it is not checked as a scalar's is.
		return append(dst, "null"...), nil
	case introOne:
		return x.introObject(dst, s, r.object, g, depth+1)
	case introList:
		dst = append(dst, '[')
		for i, o := range r.list {
			if i > 0 {
				dst = append(dst, ',')
			}
			var err *edge.Error
			if dst, err = x.introObject(dst, s, o, g, depth+1); err != nil {
				return nil, err
			}
		}
		return append(dst, ']'), nil
	}
	return nil, x.errAt(g.sels[0].Pos, edge.CodeInvalidQuery, "unknown field %q on %s", name, v.kind)
}

// introResolve is the value of field name of the introspection object v.
func (s *gqlSchema) introResolve(v introValue, name string) introResult {
	if name == "__typename" {
		return resultString(v.kind)
	}
	switch v.kind {
	case "__Schema":
		return s.resolveSchema(name)
	case "__Type":
		return s.resolveType(v, name)
	case "__Field":
		return s.resolveField(v.field, name)
	case "__InputValue":
		return s.resolveInputValue(v.input, name)
	case "__EnumValue":
		return resolveEnumValue(v.enum, name)
	case "__Directive":
		return resolveDirective(v.dir, name)
	}
	return introResult{}
}

// The shapes of introspection answers (introResult constructors).
func resultString(text string) introResult      { return introResult{shape: introString, text: text} }
func resultRaw(json string) introResult         { return introResult{shape: introRaw, text: json} }
func resultObject(o introValue) introResult     { return introResult{shape: introOne, object: o} }
func resultList(items []introValue) introResult { return introResult{shape: introList, list: items} }

var resultNull = introResult{shape: introNull}

// resolveSchema resolves a field of __Schema.
func (s *gqlSchema) resolveSchema(name string) introResult {
	switch name {
	case "description":
		return resultString(s.desc)
	case "types":
		items := make([]introValue, len(s.types))
		for i, t := range s.types {
			items[i] = introValue{kind: "__Type", ref: t.name, typ: t}
		}
		return resultList(items)
	case "queryType":
		return resultObject(introValue{kind: "__Type", ref: s.types[0].name, typ: s.types[0]})
	case "mutationType", "subscriptionType":
		return resultNull
	case "directives":
		items := make([]introValue, len(s.directives))
		for i := range s.directives {
			items[i] = introValue{kind: "__Directive", dir: &s.directives[i]}
		}
		return resultList(items)
	}
	return introResult{}
}

// resolveType resolves a field of __Type: a named type, or a LIST / NON_NULL wrapper
// (whose ref ends in "]" or "!").
func (s *gqlSchema) resolveType(v introValue, name string) introResult {
	t, wrapper := v.typ, wrapperKind(v.ref)
	kind := wrapper
	if t != nil {
		kind = t.kind
	}
	switch name {
	case "kind":
		return resultString(kind)
	case "ofType":
		switch wrapper {
		case "NON_NULL":
			return resultObject(s.typeValue(v.ref[:len(v.ref)-1]))
		case "LIST":
			return resultObject(s.typeValue(v.ref[1 : len(v.ref)-1]))
		}
		return resultNull
	case "interfaces":
		if kind == "OBJECT" {
			return resultList(nil)
		}
		return resultNull
	case "possibleTypes", "inputFields": // no unions, interfaces or input objects
		return resultNull
	case "isOneOf":
		return resultRaw("null")
	}
	if t == nil { // a wrapper has no name, description, fields or values
		switch name {
		case "name", "description", "specifiedByURL":
			return resultString("")
		case "fields", "enumValues":
			return resultNull
		}
		return introResult{}
	}
	return resolveNamedType(t, name)
}

// resolveNamedType resolves the fields of __Type that only a named type has.
func resolveNamedType(t *gqlType, name string) introResult {
	switch name {
	case "name":
		return resultString(t.name)
	case "description":
		return resultString(t.desc)
	case "specifiedByURL":
		return resultString(t.specifiedBy)
	case "fields":
		if t.kind != "OBJECT" {
			return resultNull
		}
		items := make([]introValue, len(t.fields))
		for i := range t.fields {
			items[i] = introValue{kind: "__Field", field: &t.fields[i]}
		}
		return resultList(items)
	case "enumValues":
		if t.kind != "ENUM" {
			return resultNull
		}
		items := make([]introValue, len(t.enumValues))
		for i, e := range t.enumValues {
			items[i] = introValue{kind: "__EnumValue", enum: e}
		}
		return resultList(items)
	}
	return introResult{}
}

// resolveField resolves a field of __Field.
func (s *gqlSchema) resolveField(f *gqlField, name string) introResult {
	switch name {
	case "name":
		return resultString(f.name)
	case "description":
		return resultString(f.desc)
	case "args":
		return resultList(inputValues(f.args))
	case "type":
		return resultObject(s.typeValue(f.typ))
	}
	return resolveDeprecation(name)
}

// resolveInputValue resolves a field of __InputValue.
func (s *gqlSchema) resolveInputValue(in *gqlInput, name string) introResult {
	switch name {
	case "name":
		return resultString(in.name)
	case "description":
		return resultString(in.desc)
	case "type":
		return resultObject(s.typeValue(in.typ))
	case "defaultValue":
		return resultString(in.def)
	}
	return resolveDeprecation(name)
}

// resolveEnumValue resolves a field of __EnumValue.
func resolveEnumValue(enum, name string) introResult {
	switch name {
	case "name":
		return resultString(enum)
	case "description":
		return resultString("")
	}
	return resolveDeprecation(name)
}

// resolveDeprecation answers the deprecation fields: nothing here is deprecated.
func resolveDeprecation(name string) introResult {
	switch name {
	case "isDeprecated":
		return resultRaw("false")
	case "deprecationReason":
		return resultRaw("null")
	}
	return introResult{}
}

// resolveDirective resolves a field of __Directive.
func resolveDirective(d *gqlDirective, name string) introResult {
	switch name {
	case "name":
		return resultString(d.name)
	case "description":
		return resultString(d.desc)
	case "isRepeatable":
		if d.repeatable {
			return resultRaw("true")
		}
		return resultRaw("false")
	case "locations":
		return introResult{shape: introNames, names: d.locations}
	case "args":
		return resultList(inputValues(d.args))
	}
	return introResult{}
}

func inputValues(ins []gqlInput) []introValue {
	items := make([]introValue, len(ins))
	for i := range ins {
		items[i] = introValue{kind: "__InputValue", input: &ins[i]}
	}
	return items
}
