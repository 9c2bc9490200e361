package edge

import (
	"github.com/cdaedge/cdaedge/snapshot"
	"strings"

	"github.com/cdaedge/cdaedge/edge/graphql"
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

type gqlType struct {
	kind        string // __TypeKind
	name        string
	desc        string
	fields      []*gqlField
	inputFields []*gqlInput
	enumValues  []gqlEnumValue
	ofType      *gqlType
	specifiedBy string
}

type gqlField struct {
	name string
	desc string
	args []*gqlInput
	typ  *gqlType
}

type gqlInput struct {
	name string
	desc string
	typ  *gqlType
	def  string // default value as a GraphQL literal, "" for none
}

type gqlEnumValue struct{ name, desc string }

type gqlDirective struct {
	name       string
	desc       string
	locations  []string
	args       []*gqlInput
	repeatable bool
}

type gqlSchema struct {
	desc       string
	query      *gqlType
	types      []*gqlType
	directives []*gqlDirective
}

func nonNull(t *gqlType) *gqlType { return &gqlType{kind: "NON_NULL", ofType: t} }
func listOf(t *gqlType) *gqlType  { return &gqlType{kind: "LIST", ofType: t} }

// The built-in scalars and the JSON scalar.
var (
	gqlString  = &gqlType{kind: "SCALAR", name: "String", desc: "The `String` scalar type represents textual data, represented as UTF-8 character sequences."}
	gqlInt     = &gqlType{kind: "SCALAR", name: "Int", desc: "The `Int` scalar type represents non-fractional signed whole numeric values between -2^31 and 2^31-1."}
	gqlFloat   = &gqlType{kind: "SCALAR", name: "Float", desc: "The `Float` scalar type represents signed double-precision fractional values."}
	gqlBoolean = &gqlType{kind: "SCALAR", name: "Boolean", desc: "The `Boolean` scalar type represents `true` or `false`."}
	gqlID      = &gqlType{kind: "SCALAR", name: "ID", desc: "The `ID` scalar type represents a unique identifier, serialized as a String."}
	gqlJSON    = &gqlType{kind: "SCALAR", name: "JSON", desc: "Any JSON value: an object, array, string, number, boolean or null. As an argument it is written as a GraphQL value, for example {urlPath: \"/home\"}.", specifiedBy: "https://www.rfc-editor.org/rfc/rfc8259"}
)

// introspectionTypes are the types of GraphQL's introspection system (GraphQL
// specification, October 2021, plus specifiedByURL and isOneOf of later drafts).
var introspectionTypes = buildIntrospectionTypes()

var gqlDirectives = []*gqlDirective{
	{name: "include", desc: "Directs the executor to include this field or fragment only when the `if` argument is true.",
		locations: []string{"FIELD", "FRAGMENT_SPREAD", "INLINE_FRAGMENT"},
		args:      []*gqlInput{{name: "if", desc: "Included when true.", typ: nonNull(gqlBoolean)}}},
	{name: "skip", desc: "Directs the executor to skip this field or fragment when the `if` argument is true.",
		locations: []string{"FIELD", "FRAGMENT_SPREAD", "INLINE_FRAGMENT"},
		args:      []*gqlInput{{name: "if", desc: "Skipped when true.", typ: nonNull(gqlBoolean)}}},
}

func buildIntrospectionTypes() []*gqlType {
	schema := &gqlType{kind: "OBJECT", name: "__Schema", desc: "A GraphQL Schema defines the capabilities of a GraphQL server. It exposes all available types and directives on the server, as well as the entry points for query, mutation, and subscription operations."}
	typ := &gqlType{kind: "OBJECT", name: "__Type", desc: "The fundamental unit of any GraphQL Schema is the type. There are many kinds of types in GraphQL as represented by the `__TypeKind` enum."}
	field := &gqlType{kind: "OBJECT", name: "__Field", desc: "Object and Interface types are described by a list of Fields, each of which has a name, potentially a list of arguments, and a return type."}
	input := &gqlType{kind: "OBJECT", name: "__InputValue", desc: "Arguments provided to Fields or Directives and the input fields of an InputObject are represented as Input Values which describe their type and optionally a default value."}
	enumValue := &gqlType{kind: "OBJECT", name: "__EnumValue", desc: "One possible value for a given Enum. Enum values are unique values, not a placeholder for a string or numeric value."}
	directive := &gqlType{kind: "OBJECT", name: "__Directive", desc: "A Directive provides a way to describe alternate runtime execution and type validation behavior in a GraphQL document."}
	typeKind := &gqlType{kind: "ENUM", name: "__TypeKind", desc: "An enum describing what kind of type a given `__Type` is."}
	for _, k := range []string{"SCALAR", "OBJECT", "INTERFACE", "UNION", "ENUM", "INPUT_OBJECT", "LIST", "NON_NULL"} {
		typeKind.enumValues = append(typeKind.enumValues, gqlEnumValue{name: k})
	}
	location := &gqlType{kind: "ENUM", name: "__DirectiveLocation", desc: "A Directive can be adjacent to many parts of the GraphQL language, a __DirectiveLocation describes one such possible adjacencies."}
	for _, l := range []string{"QUERY", "MUTATION", "SUBSCRIPTION", "FIELD", "FRAGMENT_DEFINITION", "FRAGMENT_SPREAD", "INLINE_FRAGMENT", "VARIABLE_DEFINITION", "SCHEMA", "SCALAR", "OBJECT", "FIELD_DEFINITION", "ARGUMENT_DEFINITION", "INTERFACE", "UNION", "ENUM", "ENUM_VALUE", "INPUT_OBJECT", "INPUT_FIELD_DEFINITION"} {
		location.enumValues = append(location.enumValues, gqlEnumValue{name: l})
	}
	deprecated := func() []*gqlInput {
		return []*gqlInput{{name: "includeDeprecated", typ: gqlBoolean, def: "false"}}
	}
	f := func(name string, t *gqlType, args ...*gqlInput) *gqlField {
		return &gqlField{name: name, typ: t, args: args}
	}
	schema.fields = []*gqlField{
		f("description", gqlString),
		f("types", nonNull(listOf(nonNull(typ)))),
		f("queryType", nonNull(typ)),
		f("mutationType", typ),
		f("subscriptionType", typ),
		f("directives", nonNull(listOf(nonNull(directive)))),
	}
	typ.fields = []*gqlField{
		f("kind", nonNull(typeKind)),
		f("name", gqlString),
		f("description", gqlString),
		f("specifiedByURL", gqlString),
		f("fields", listOf(nonNull(field)), deprecated()...),
		f("interfaces", listOf(nonNull(typ))),
		f("possibleTypes", listOf(nonNull(typ))),
		f("enumValues", listOf(nonNull(enumValue)), deprecated()...),
		f("inputFields", listOf(nonNull(input)), deprecated()...),
		f("ofType", typ),
		f("isOneOf", gqlBoolean),
	}
	field.fields = []*gqlField{
		f("name", nonNull(gqlString)),
		f("description", gqlString),
		f("args", nonNull(listOf(nonNull(input))), deprecated()...),
		f("type", nonNull(typ)),
		f("isDeprecated", nonNull(gqlBoolean)),
		f("deprecationReason", gqlString),
	}
	input.fields = []*gqlField{
		f("name", nonNull(gqlString)),
		f("description", gqlString),
		f("type", nonNull(typ)),
		f("defaultValue", gqlString),
		f("isDeprecated", nonNull(gqlBoolean)),
		f("deprecationReason", gqlString),
	}
	enumValue.fields = []*gqlField{
		f("name", nonNull(gqlString)),
		f("description", gqlString),
		f("isDeprecated", nonNull(gqlBoolean)),
		f("deprecationReason", gqlString),
	}
	directive.fields = []*gqlField{
		f("name", nonNull(gqlString)),
		f("description", gqlString),
		f("isRepeatable", nonNull(gqlBoolean)),
		f("locations", nonNull(listOf(nonNull(location)))),
		f("args", nonNull(listOf(nonNull(input))), deprecated()...),
	}
	return []*gqlType{schema, typ, field, input, enumValue, directive, typeKind, location}
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
func contentMembers(env *environment) []string {
	out := append([]string(nil), snapshot.DocumentedMembers[:]...)
	for _, f := range env.snap.FieldNames() {
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

// contentArgs describe the arguments of content (D9); the spellings of the spec's
// table and examples are listed, and descriptions name the equivalents.
func contentArgs() []*gqlInput {
	in := func(name string, t *gqlType, desc string) *gqlInput { return &gqlInput{name: name, typ: t, desc: desc} }
	args := []*gqlInput{
		in("name", gqlString, "Filter by Name (every word must occur)."),
		in("templateName", gqlString, "Filter by TemplateName (every word must occur)."),
		in("status", gqlString, "Filter by Status."),
		in("createdBy", gqlString, "Filter by CreatedBy (every word must occur)."),
		in("createdAt", gqlString, "Filter by creation date: YYYY-MM-DD or YYYY-MM-DDThh:mm:ss[.fff][Z|±hh:mm]; matches the whole day or second written."),
		in("updatedBy", gqlString, "Filter by UpdatedBy (every word must occur)."),
		in("updatedAt", gqlString, "Filter by update date, as createdAt."),
		in("publishedBy", gqlString, "Filter by PublishedBy (every word must occur)."),
		in("publishedAt", gqlString, "Filter by publication date, as createdAt."),
		in("contentID", gqlID, "The item with this ContentID (exact). With retrieveChild: true, the item whose children to return. Same as contentId."),
		in("contentId", gqlID, "Same as contentID."),
		in("templateID", gqlID, "Items of the template with this TemplateID (exact). Same as templateId."),
		in("templateId", gqlID, "Same as templateID."),
		in("data", gqlJSON, "Filter by elements of Data: {urlPath: \"/home\"}; nested objects address nested elements ({file: {Extension: \"pdf\"}}), numbers and booleans compare exactly, a list gives alternatives ({tags: [\"food\", \"travel\"]}). A String instead matches when every word occurs in the item's Data strings together."),
		in("page", gqlInt, "Page number, from 1 (default 1). A numeric String is accepted too."),
		in("pageSize", gqlInt, "Items per page, 1 to 1000 (default 10)."),
		in("sort", gqlString, "Field to sort by: a member (any case) or Data.<element>. Default CreatedAt."),
		in("sortAsc", gqlBoolean, "true sorts ascending; default descending."),
		in("retrieveChild", gqlBoolean, "With contentId: return the items whose ParentID is that item (its children), not the item itself."),
		in("depth", gqlInt, "With retrieveChild: how many levels of descendants to return, 1 to 16 (default 1)."),
	}
	for _, m := range memberDocs {
		if m.name == "Data" {
			continue
		}
		t := gqlString
		if strings.HasSuffix(m.name, "ID") {
			t = gqlID
		}
		args = append(args, in(m.name, t, "Same as "+lowerFirst(m.name)+"."))
	}
	for _, date := range []string{"CreatedAt", "UpdatedAt", "PublishedAt"} {
		for _, op := range []struct{ suffix, desc string }{
			{"gte", "at or after"}, {"gt", "after"}, {"lte", "at or before"}, {"lt", "before"},
		} {
			args = append(args, in(date+"_"+op.suffix, gqlString,
				"Items with "+date+" "+op.desc+" this instant (YYYY-MM-DDThh:mm:ss, or a day, meaning its start)."))
		}
	}
	return args
}

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
func buildSchema(env *environment) *gqlSchema {
	content := &gqlType{kind: "OBJECT", name: "Content", desc: "A content item. A member that an item lacks is absent from its JSON object (not null)."}
	for _, m := range contentMembers(env) {
		fld := &gqlField{name: m, typ: gqlString, desc: "A top-level member of some items of this environment; its JSON value as stored."}
		for _, d := range memberDocs {
			if d.name == m {
				fld.desc = d.desc
			}
		}
		switch m {
		case "ContentID":
			fld.typ = nonNull(gqlID)
		case "TemplateID":
			fld.typ = gqlID
		case "Data":
			fld.typ = gqlJSON
		default:
			if !scalarMember(m) {
				fld.typ = gqlJSON
			}
		}
		content.fields = append(content.fields, fld)
	}
	queryType := &gqlType{kind: "OBJECT", name: "Query", desc: "The delivery API's one root field is content.",
		fields: []*gqlField{{name: "content", desc: contentDesc, args: contentArgs(), typ: listOf(nonNull(content))}}}
	s := &gqlSchema{
		desc:       "Content Delivery API of environment " + env.snap.Environment() + " (read-only).",
		query:      queryType,
		directives: gqlDirectives,
	}
	s.types = append(s.types, queryType, content, gqlJSON, gqlString, gqlInt, gqlFloat, gqlBoolean, gqlID)
	s.types = append(s.types, introspectionTypes...)
	return s
}

func (s *gqlSchema) typeNamed(name string) *gqlType {
	for _, t := range s.types {
		if t.name == name {
			return t
		}
	}
	return nil
}

// graphQLSchema answers GET /cda/graphql/v1/<env>/schema.graphql with the SDL.
func (r *Router) graphQLSchema(dst []byte, env *environment, req *Request) ([]byte, error) {
	return appendSDL(dst, buildSchema(env)), nil
}

// appendSDL prints the schema in GraphQL's schema definition language, without the
// built-in scalars, directives and introspection types (as graphql-js printSchema).
func appendSDL(dst []byte, s *gqlSchema) []byte {
	dst = appendDescription(dst, s.desc, "")
	dst = append(dst, "schema {\n  query: Query\n}\n"...)
	for _, t := range s.types {
		if strings.HasPrefix(t.name, "__") || t.kind == "SCALAR" && t != gqlJSON {
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
				dst = graphql.AppendString(dst, t.specifiedBy)
				dst = append(dst, ')')
			}
			dst = append(dst, '\n')
		case "OBJECT":
			dst = append(dst, "type "...)
			dst = append(dst, t.name...)
			dst = append(dst, " {\n"...)
			for i, f := range t.fields {
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
						dst = appendTypeRef(dst, a.typ)
						if a.def != "" {
							dst = append(dst, " = "...)
							dst = append(dst, a.def...)
						}
						dst = append(dst, '\n')
					}
					dst = append(dst, "  )"...)
				}
				dst = append(dst, ": "...)
				dst = appendTypeRef(dst, f.typ)
				dst = append(dst, '\n')
			}
			dst = append(dst, "}\n"...)
		}
	}
	return dst
}

func appendTypeRef(dst []byte, t *gqlType) []byte {
	switch t.kind {
	case "NON_NULL":
		return append(appendTypeRef(dst, t.ofType), '!')
	case "LIST":
		dst = append(dst, '[')
		return append(appendTypeRef(dst, t.ofType), ']')
	}
	return append(dst, t.name...)
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
	s := buildSchema(x.env)
	dst = appendDataObject(dst)
	for i := range groups {
		g := &groups[i]
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = appendKey(dst, g.key)
		var err *Error
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
					dst, err = x.introObject(dst, s, introValue{kind: "__Type", typ: t}, g, 1)
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

func (x *gqlExec) typeNameArg(g *gqlGroup) (string, *Error) {
	s := g.sels[0]
	for i := range s.Arguments {
		a := &s.Arguments[i]
		if a.Name != "name" {
			return "", x.errAt(a.Pos, CodeInvalidQuery, "unknown argument %q of __type; it takes name: String!", a.Name)
		}
		v, set, err := x.value(&a.Value)
		if err != nil {
			return "", err
		}
		if !set || v.Kind != graphql.StringValue {
			return "", x.errAt(a.Value.Pos, CodeInvalidArgument, "__type(name:) must be a String, not %s", kindOf(v, set))
		}
		return v.Text, nil
	}
	return "", x.errAt(s.Pos, CodeInvalidQuery, "__type needs the argument name: String!")
}

// introValue is one object of the introspection system.
type introValue struct {
	kind  string // __Schema, __Type, __Field, __InputValue, __EnumValue, __Directive
	typ   *gqlType
	field *gqlField
	input *gqlInput
	enum  *gqlEnumValue
	dir   *gqlDirective
}

// introObject appends the selection of g's sub-selections on object v.
func (x *gqlExec) introObject(dst []byte, s *gqlSchema, v introValue, g *gqlGroup, depth int) ([]byte, *Error) {
	if depth > graphql.DefaultMaxDepth {
		return nil, x.errAt(g.sels[0].Pos, CodeTooComplex, "the selection is nested deeper than %d levels", graphql.DefaultMaxDepth)
	}
	if wholeSelection(g) {
		return nil, x.errAt(g.sels[0].Pos, CodeInvalidQuery, "field %q of type %s needs a selection of subfields", g.name(), v.kind)
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

// introField resolves one field of an introspection object.
func (x *gqlExec) introField(dst []byte, s *gqlSchema, v introValue, g *gqlGroup, depth int) ([]byte, *Error) {
	name := g.name()
	if err := x.step(g.sels[0].Pos); err != nil {
		return nil, err
	}
	// Only the list fields of __Type, __Field and __Directive take includeDeprecated;
	// nothing here is deprecated, so its value changes nothing.
	for _, sel := range g.sels {
		for _, a := range sel.Arguments {
			if a.Name != "includeDeprecated" {
				return nil, x.errAt(a.Pos, CodeInvalidQuery, "unknown argument %q of %s.%s", a.Name, v.kind, name)
			}
		}
	}
	str := func(s string) []byte {
		if s == "" {
			return append(dst, "null"...)
		}
		return jsonw.String(dst, s)
	}
	obj := func(o introValue) ([]byte, *Error) { return x.introObject(dst, s, o, g, depth+1) }
	list := func(items []introValue) ([]byte, *Error) {
		d := append(dst, '[')
		for i, o := range items {
			if i > 0 {
				d = append(d, ',')
			}
			var err *Error
			if d, err = x.introObject(d, s, o, g, depth+1); err != nil {
				return nil, err
			}
		}
		return append(d, ']'), nil
	}
	scalar := func(b []byte) ([]byte, *Error) {
		if !wholeSelection(g) {
			return nil, x.errAt(g.sels[0].Pos, CodeInvalidQuery, "field %q is a scalar and has no subfields", name)
		}
		return b, nil
	}
	// null answers an object or list field that has no value here (a sub-selection on
	// it is valid GraphQL, so it is not checked as a scalar's would be).
	null := func() ([]byte, *Error) { return append(dst, "null"...), nil }
	unknown := func() ([]byte, *Error) {
		return nil, x.errAt(g.sels[0].Pos, CodeInvalidQuery, "unknown field %q on %s", name, v.kind)
	}
	if name == "__typename" {
		return scalar(jsonw.String(dst, v.kind))
	}
	switch v.kind {
	case "__Schema":
		switch name {
		case "description":
			return scalar(str(s.desc))
		case "types":
			items := make([]introValue, len(s.types))
			for i, t := range s.types {
				items[i] = introValue{kind: "__Type", typ: t}
			}
			return list(items)
		case "queryType":
			return obj(introValue{kind: "__Type", typ: s.query})
		case "mutationType", "subscriptionType":
			return null()
		case "directives":
			items := make([]introValue, len(s.directives))
			for i, d := range s.directives {
				items[i] = introValue{kind: "__Directive", dir: d}
			}
			return list(items)
		}
	case "__Type":
		t := v.typ
		named := t.kind != "LIST" && t.kind != "NON_NULL"
		switch name {
		case "kind":
			return scalar(jsonw.String(dst, t.kind))
		case "name":
			return scalar(str(t.name))
		case "description":
			return scalar(str(t.desc))
		case "specifiedByURL":
			return scalar(str(t.specifiedBy))
		case "fields":
			if t.kind != "OBJECT" {
				return null()
			}
			items := make([]introValue, len(t.fields))
			for i, f := range t.fields {
				items[i] = introValue{kind: "__Field", field: f}
			}
			return list(items)
		case "interfaces":
			if t.kind != "OBJECT" {
				return null()
			}
			return list(nil)
		case "possibleTypes":
			return null()
		case "enumValues":
			if t.kind != "ENUM" {
				return null()
			}
			items := make([]introValue, len(t.enumValues))
			for i := range t.enumValues {
				items[i] = introValue{kind: "__EnumValue", enum: &t.enumValues[i]}
			}
			return list(items)
		case "inputFields":
			if t.kind != "INPUT_OBJECT" {
				return null()
			}
			return list(nil)
		case "ofType":
			if named || t.ofType == nil {
				return null()
			}
			return obj(introValue{kind: "__Type", typ: t.ofType})
		case "isOneOf":
			if t.kind != "INPUT_OBJECT" {
				return scalar(append(dst, "null"...))
			}
			return scalar(append(dst, "false"...))
		}
	case "__Field":
		f := v.field
		switch name {
		case "name":
			return scalar(jsonw.String(dst, f.name))
		case "description":
			return scalar(str(f.desc))
		case "args":
			return list(inputValues(f.args))
		case "type":
			return obj(introValue{kind: "__Type", typ: f.typ})
		case "isDeprecated":
			return scalar(append(dst, "false"...))
		case "deprecationReason":
			return scalar(append(dst, "null"...))
		}
	case "__InputValue":
		in := v.input
		switch name {
		case "name":
			return scalar(jsonw.String(dst, in.name))
		case "description":
			return scalar(str(in.desc))
		case "type":
			return obj(introValue{kind: "__Type", typ: in.typ})
		case "defaultValue":
			return scalar(str(in.def))
		case "isDeprecated":
			return scalar(append(dst, "false"...))
		case "deprecationReason":
			return scalar(append(dst, "null"...))
		}
	case "__EnumValue":
		switch name {
		case "name":
			return scalar(jsonw.String(dst, v.enum.name))
		case "description":
			return scalar(str(v.enum.desc))
		case "isDeprecated":
			return scalar(append(dst, "false"...))
		case "deprecationReason":
			return scalar(append(dst, "null"...))
		}
	case "__Directive":
		d := v.dir
		switch name {
		case "name":
			return scalar(jsonw.String(dst, d.name))
		case "description":
			return scalar(str(d.desc))
		case "isRepeatable":
			return scalar(jsonw.Bool(dst, d.repeatable))
		case "locations":
			b := append(dst, '[')
			for i, l := range d.locations {
				if i > 0 {
					b = append(b, ',')
				}
				b = jsonw.String(b, l)
			}
			return scalar(append(b, ']'))
		case "args":
			return list(inputValues(d.args))
		}
	}
	return unknown()
}

func inputValues(ins []*gqlInput) []introValue {
	items := make([]introValue, len(ins))
	for i, in := range ins {
		items[i] = introValue{kind: "__InputValue", input: in}
	}
	return items
}
