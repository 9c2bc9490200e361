package graphql

import (
	"strings"

	"github.com/cdaedge/cdaedge/snapshot"

	"github.com/cdaedge/cdaedge/edge/graphql/parser"
)

// The schema of the GraphQL endpoint (D9), one model for both the introspection answer
// (__schema, __type) and the SDL of schema.graphql, so the two never disagree.
//
// What GraphQL's type system cannot say, the descriptions say: in the envelope mode
// content answers ONE item when it has no arguments and a list otherwise (D9), so its
// type there is the list form, [Content!], and its description tells of the single
// shape; the standard mode always answers a list, [Content!]!. Data is typed from the
// environment's items (types.go): ContentData holds every element any template has, all
// nullable.

// A type reference (a field's, an argument's) is written as in GraphQL, "[Content!]",
// and resolved by name when it is introspected: the static part of the schema is data
// built once by the compiler, the inferred part is built once per snapshot, and the type
// graph, which is cyclic (__Type.ofType is a __Type), needs no pointers.

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
	byName     map[string]*gqlType
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

const contentStandardDesc = "Content items of the environment: one page (page 1 of 10 items without arguments). " +
	"contentPage answers the same page with totalItems.\n\n" +
	"String filters match when every word of the value occurs in the field (\"Erian\" matches \"Erian Suwandi\"). " +
	"Argument names match in any case (pageSize = pagesize = PageSize)."

const contentPageDesc = "The same page as content with the same arguments, and totalItems: the number of matches across all pages."

// contentBaseArgs describe the arguments of content (D9): the documented spellings of the
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

// assembleSchema puts a mode's schema together: Query, the snapshot's types (Content
// first), then the static ones. The modes differ in content's type: the envelope mode
// answers one item when content has no arguments, so its type is the nullable list
// [Content!] and its description tells of the single shape; the standard mode always
// answers a list, [Content!]! (D9).
func assembleSchema(snap *snapshot.Snapshot, types []*gqlType, standard bool) *gqlSchema {
	query := &gqlType{kind: "OBJECT", name: "Query", desc: "The delivery API's one root field is content.",
		fields: []gqlField{{name: "content", desc: contentDesc, args: contentArgs, typ: "[Content!]"}}}
	desc := "Content Delivery API of environment " + snap.Environment() + " (read-only)."
	if standard {
		query = &gqlType{kind: "OBJECT", name: "Query", desc: "The delivery API's root fields: content (a page of items) and contentPage (the page with totalItems).",
			fields: []gqlField{{name: "content", desc: contentStandardDesc, args: contentArgs, typ: "[Content!]!"},
				{name: "contentPage", desc: contentPageDesc, args: contentArgs, typ: "ContentPage!"}}}
		desc = "Content Delivery API of environment " + snap.Environment() + " (read-only), standard GraphQL over HTTP."
	}
	s := &gqlSchema{desc: desc, types: make([]*gqlType, 0, 1+len(types)+len(staticTypes)), directives: gqlDirectives[:]}
	s.types = append(append(append(s.types, query), types...), staticTypes[:]...)
	s.byName = make(map[string]*gqlType, len(s.types))
	for _, t := range s.types {
		s.byName[t.name] = t
	}
	return s
}

// staticTypes are the types every schema lists after Query and Content.
var staticTypes = [...]*gqlType{
	&gqlScalars[0], &gqlScalars[1], &gqlScalars[2], &gqlScalars[3], &gqlScalars[4], &gqlScalars[5],
	&introspectionTypes[0], &introspectionTypes[1], &introspectionTypes[2], &introspectionTypes[3],
	&introspectionTypes[4], &introspectionTypes[5], &introspectionTypes[6], &introspectionTypes[7],
}

func (s *gqlSchema) typeNamed(name string) *gqlType { return s.byName[name] }

// field returns the field of t called name, or nil.
func (t *gqlType) field(name string) *gqlField {
	for i := range t.fields {
		if t.fields[i].name == name {
			return &t.fields[i]
		}
	}
	return nil
}

// AppendSDL appends the schema in GraphQL's schema definition language (the answer of
// GET /cda/graphql/v1/<env>/schema.graphql): the envelope mode's, or with standard the
// standard mode's (?mode=standard, D9).
func AppendSDL(dst []byte, s *Schema, standard bool) []byte {
	return appendSDL(dst, s.of(standard))
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
