package graphql

import (
	"strings"
	"testing"
)

// TestGraphQLSchemaReferences checks that every type reference of the static schema
// names a type the schema has: references are strings, resolved only when introspected.
func TestGraphQLSchemaReferences(t *testing.T) {
	named := map[string]bool{"Query": true, "Content": true}
	for _, ty := range gqlScalars {
		named[ty.name] = true
	}
	for _, ty := range introspectionTypes {
		named[ty.name] = true
	}
	check := func(where, ref string) {
		t.Helper()
		name := strings.Trim(ref, "[]!")
		if !named[name] || strings.Count(ref, "[") != strings.Count(ref, "]") {
			t.Errorf("%s: type reference %q names no type of the schema", where, ref)
		}
	}
	for _, ty := range introspectionTypes {
		for _, f := range ty.fields {
			check(ty.name+"."+f.name, f.typ)
			for _, a := range f.args {
				check(ty.name+"."+f.name+"("+a.name+")", a.typ)
			}
		}
	}
	for _, a := range contentArgs {
		check("content("+a.name+")", a.typ)
	}
	for _, d := range gqlDirectives {
		for _, a := range d.args {
			check("@"+d.name+"("+a.name+")", a.typ)
		}
	}
}

// TestGraphQLStaticTypes checks that staticTypes lists every static type once.
func TestGraphQLStaticTypes(t *testing.T) {
	if want := len(gqlScalars) + len(introspectionTypes); len(staticTypes) != want {
		t.Fatalf("staticTypes lists %d types, the static tables hold %d", len(staticTypes), want)
	}
	seen := map[*gqlType]bool{}
	for _, ty := range staticTypes {
		if seen[ty] {
			t.Errorf("staticTypes lists %s twice", ty.name)
		}
		seen[ty] = true
	}
}
