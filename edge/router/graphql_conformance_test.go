package router_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/cdaedge/cdaedge/edge"
	"github.com/cdaedge/cdaedge/edge/edgetest"
	"github.com/cdaedge/cdaedge/host/wasmpool"
	"github.com/cdaedge/cdaedge/wasm/wasmtest"
)

// graphQLCases are the GraphQL conformance table (testdata/conformance/graphql.json:
// every documented GraphQL example of edge/API.md and every rule of D9) plus cases too
// large to write in a table.
func graphQLCases(t *testing.T) []edgetest.Case {
	cases := edgetest.LoadCases(t, "graphql.json")
	big := func(name, doc, code string) edgetest.Case {
		body, _ := json.Marshal(doc)
		return edgetest.Case{
			Name:    name,
			Request: edgetest.Request{Method: "POST", Path: "/cda/graphql/v1/demo", Headers: map[string]string{"Content-Type": "application/graphql"}, Body: body},
			Expect:  edgetest.Expect{Status: 400, Code: code},
		}
	}
	return append(cases,
		big("D11 a document over 64 KiB is too_complex", "{ content { Name } }"+strings.Repeat(" ", 64<<10), "too_complex"),
		big("D11 a document over the token limit is too_complex", "{ content { "+strings.Repeat("Name ", 10001)+"} }", "too_complex"),
	)
}

// TestGraphQLConformanceNative runs the GraphQL table against the native router.
func TestGraphQLConformanceNative(t *testing.T) {
	edgetest.RunCases(t, edgetest.NativeHandler(t), graphQLCases(t))
}

// TestGraphQLConformanceWasm runs the same table through the wasm module in wazero; every
// answer must equal the native router's byte for byte.
func TestGraphQLConformanceWasm(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the wasm module")
	}
	snaps := [][]byte{edgetest.DemoSnapshot(t), edgetest.DemoPreviewSnapshot(t)}
	p, err := wasmpool.New(context.Background(), wasmtest.Module(t), wasmpool.Whole(snaps...),
		wasmpool.Options{Instances: 1, Router: edgetest.NativeOptions(), MemoryOnlyCache: true})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close(context.Background())
	wasm := p.Bind(context.Background())
	edgetest.RunCases(t, wasm, graphQLCases(t))

	// Answers the table cannot hold (the SDL is not JSON; the introspection answer is
	// long): the module must still answer them byte for byte as the native router.
	native := edgetest.NativeHandler(t)
	intro, _ := json.Marshal(map[string]string{"query": introspectionQuery})
	for _, req := range []*edge.Request{
		{Method: "GET", Path: "/cda/graphql/v1/demo/schema.graphql"},
		{Method: "POST", Path: "/cda/graphql/v1/demo", Body: intro, Headers: []edge.Header{{Name: "Content-Type", Value: "application/json"}}},
	} {
		want, _ := native.Serve(req)
		got, err := wasm.Serve(req)
		if err != nil {
			t.Fatalf("%s %s: %v", req.Method, req.Path, err)
		}
		if want.Status != 200 {
			t.Errorf("%s %s: native status %d: %s", req.Method, req.Path, want.Status, want.Body)
		}
		for _, problem := range edgetest.CompareResponses(want, got) {
			t.Errorf("%s %s: differs from the native router: %s", req.Method, req.Path, problem)
		}
	}
}

// introspectionQuery is graphql-js's getIntrospectionQuery() (the query GraphiQL sends),
// with descriptions, specifiedByURL and isRepeatable.
const introspectionQuery = `query IntrospectionQuery {
  __schema {
    description
    queryType { name kind }
    mutationType { name kind }
    subscriptionType { name kind }
    types { ...FullType }
    directives { name description isRepeatable locations args(includeDeprecated: true) { ...InputValue } }
  }
}
fragment FullType on __Type {
  kind name description specifiedByURL isOneOf
  fields(includeDeprecated: true) { name description args(includeDeprecated: true) { ...InputValue } type { ...TypeRef } isDeprecated deprecationReason }
  inputFields(includeDeprecated: true) { ...InputValue }
  interfaces { ...TypeRef }
  enumValues(includeDeprecated: true) { name description isDeprecated deprecationReason }
  possibleTypes { ...TypeRef }
}
fragment InputValue on __InputValue { name description type { ...TypeRef } defaultValue isDeprecated deprecationReason }
fragment TypeRef on __Type { kind name ofType { kind name ofType { kind name ofType { kind name ofType { kind name ofType { kind name ofType { kind name ofType { kind name ofType { kind name } } } } } } } } }`
