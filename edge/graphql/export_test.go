package graphql

import (
	"encoding/json"

	"github.com/cdaedge/cdaedge/edge"
	"github.com/cdaedge/cdaedge/edge/content"
	"github.com/cdaedge/cdaedge/snapshot"
)

// Hooks for the external tests (package graphql_test), which build snapshots with the
// builder (builder/ingest): a test of package graphql cannot import it, since it
// imports this package.

// SchemaTypedFrom returns the schema of snap with its types built from the snapshot's
// ShapesSection (fromSection) or from reading every item (the fallback); ok is false
// when fromSection is set and snap has no section that decodes.
func SchemaTypedFrom(snap *snapshot.Snapshot, fromSection bool) (s *Schema, ok bool) {
	in := (*inferred)(nil)
	if fromSection {
		sec, _ := snap.Section(ShapesSection) // "" when absent, which does not decode
		if in, ok = decodeShapes(sec); !ok {
			return nil, false
		}
	} else {
		in = inferShapes(snap)
	}
	s = NewSchema(snap, content.NewFields(snap))
	s.types = buildTypes(snap, in)
	return s, true
}

// SchemaAnswers returns what a client can learn of schema s: its SDL and the answer to
// the full introspection query, in the envelope mode and in the standard mode.
func SchemaAnswers(s *Schema) (map[string]string, error) {
	body, err := json.Marshal(map[string]string{"query": fullIntrospection})
	if err != nil {
		return nil, err
	}
	out := map[string]string{
		"SDL envelope": string(AppendSDL(nil, s, false)),
		"SDL standard": string(AppendSDL(nil, s, true)),
	}
	for mode, rawQuery := range map[string]string{"envelope": "", "standard": "mode=standard"} {
		req := &edge.Request{Method: "POST", Path: "/cda/graphql/v1/" + s.Snapshot().Environment(), RawQuery: rawQuery,
			Headers: []edge.Header{{Name: "Content-Type", Value: "application/json"}}, Body: body}
		res, err := Execute(nil, s, nil, req) // introspection never searches
		if err != nil {
			return nil, err
		}
		out["introspection "+mode] = string(res)
	}
	return out, nil
}

// fullIntrospection is graphql-js's getIntrospectionQuery() with every option on.
const fullIntrospection = `query IntrospectionQuery { __schema { description queryType { name kind } mutationType { name kind } subscriptionType { name kind } types { ...FullType } directives { name description isRepeatable locations args(includeDeprecated: true) { ...InputValue } } } }
fragment FullType on __Type { kind name description specifiedByURL isOneOf fields(includeDeprecated: true) { name description args(includeDeprecated: true) { ...InputValue } type { ...TypeRef } isDeprecated deprecationReason } inputFields(includeDeprecated: true) { ...InputValue } interfaces { ...TypeRef } enumValues(includeDeprecated: true) { name description isDeprecated deprecationReason } possibleTypes { ...TypeRef } }
fragment InputValue on __InputValue { name description type { ...TypeRef } defaultValue isDeprecated deprecationReason }
fragment TypeRef on __Type { kind name ofType { kind name ofType { kind name ofType { kind name ofType { kind name ofType { kind name ofType { kind name ofType { kind name ofType { kind name } } } } } } } } }`
