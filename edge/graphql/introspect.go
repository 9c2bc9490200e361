package graphql

import (
	"strings"

	"github.com/cdaedge/cdaedge/edge"
	"github.com/cdaedge/cdaedge/edge/graphql/parser"
	"github.com/cdaedge/cdaedge/edge/jsonw"
)

// Introspection (__schema, __type): resolvers over the schema model of schema.go.

// introspect answers a document whose root holds only __schema, __type and
// __typename, in the standard shape {"data":{...}} (D9).
func (x *gqlExec) introspect(dst []byte, groups []gqlGroup) ([]byte, error) {
	dst = appendDataObject(dst)
	for i := range groups {
		g := &groups[i]
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = appendKey(dst, g.key)
		var err *edge.Error
		if dst, err = x.rootIntrospection(dst, g); err != nil {
			return nil, err
		}
	}
	return append(dst, "}}"...), nil
}

// rootIntrospection appends the value of a root __typename, __schema or __type field,
// against the schema of the request's mode.
func (x *gqlExec) rootIntrospection(dst []byte, g *gqlGroup) ([]byte, *edge.Error) {
	var err *edge.Error
	switch g.name() {
	case "__typename":
		if err = x.noArguments(g); err == nil {
			dst = append(dst, `"Query"`...)
		}
	case "__schema":
		if err = x.noArguments(g); err == nil {
			dst, err = x.introObject(dst, x.modeSchema(), introValue{kind: "__Schema"}, g, 1)
		}
	case "__type":
		var name string
		if name, err = x.typeNameArg(g); err == nil {
			s := x.modeSchema()
			if t := s.typeNamed(name); t != nil {
				dst, err = x.introObject(dst, s, introValue{kind: "__Type", ref: name, typ: t}, g, 1)
			} else {
				dst = append(dst, "null"...)
			}
		}
	}
	return dst, err
}

// modeSchema is the schema of the request's mode, built (and kept with the snapshot) on
// first use.
func (x *gqlExec) modeSchema() *gqlSchema {
	if x.sch == nil {
		x.sch = x.schema.of(x.standard)
	}
	return x.sch
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
