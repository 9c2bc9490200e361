package router

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/cdaedge/cdaedge/edge"
	"github.com/tidwall/gjson"
)

// TestGraphQLModeCaching: the two modes are two representations of one URL (D9, D11):
// their tags differ, each revalidates, and both say they vary by Accept.
func TestGraphQLModeCaching(t *testing.T) {
	r := unitRouter(t, Options{}, false)
	get := func(accept, ifNoneMatch string) *edge.Response {
		req := &edge.Request{Method: "GET", Path: "/cda/graphql/v1/unit", RawQuery: "query=%7Bcontent(pageSize%3A1)%7BContentID%7D%7D"}
		if accept != "" {
			req.Headers = append(req.Headers, edge.Header{Name: "Accept", Value: accept})
		}
		if ifNoneMatch != "" {
			req.Headers = append(req.Headers, edge.Header{Name: "If-None-Match", Value: ifNoneMatch})
		}
		return r.Serve(req)
	}
	env := get("", "")
	std := get("application/graphql-response+json", "")
	if env.Status != 200 || std.Status != 200 {
		t.Fatalf("statuses %d %d: %s %s", env.Status, std.Status, env.Body, std.Body)
	}
	envTag, stdTag := edge.HeaderValue(env.Headers, "ETag"), edge.HeaderValue(std.Headers, "ETag")
	if envTag == "" || envTag == stdTag {
		t.Errorf("tags %q and %q: each representation needs its own", envTag, stdTag)
	}
	for _, resp := range []*edge.Response{env, std} {
		if v := edge.HeaderValue(resp.Headers, "Vary"); v != "Accept" {
			t.Errorf("Vary %q, want Accept", v)
		}
	}
	if resp := get("application/graphql-response+json", stdTag); resp.Status != 304 {
		t.Errorf("revalidating the standard tag: %d", resp.Status)
	}
	if resp := get("application/graphql-response+json", envTag); resp.Status != 200 {
		t.Errorf("the envelope's tag revalidates the standard answer: %d", resp.Status)
	}
}

// TestPreflightHeaders: a preflight echoes the header names it is asked for, and
// answers the documented list when the request names none or sends something else.
func TestPreflightHeaders(t *testing.T) {
	r := unitRouter(t, Options{}, false)
	for asked, want := range map[string]string{
		"":                                   defaultAllowedHeaders,
		"x-request-id":                       "x-request-id",
		"Content-Type, X-Request-Id, accept": "Content-Type, X-Request-Id, accept",
		"x-a,,x-b":                           defaultAllowedHeaders,
		"x-a, bad header":                    defaultAllowedHeaders,
		"x-\"quoted\"":                       defaultAllowedHeaders,
	} {
		req := &edge.Request{Method: "OPTIONS", Path: "/cda/rest/v1/unit/contents"}
		if asked != "" {
			req.Headers = []edge.Header{{Name: "Access-Control-Request-Headers", Value: asked}}
		}
		resp := r.Serve(req)
		if got := edge.HeaderValue(resp.Headers, "Access-Control-Allow-Headers"); resp.Status != 204 || got != want {
			t.Errorf("%q: %d %q, want %q", asked, resp.Status, got, want)
		}
	}
}

// TestGraphQLWideSchema: the schema of an environment with a thousand distinct Data
// elements, each an object type of its own, answers GraphiQL's full introspection query
// within the request's budget (D11), in both modes.
func TestGraphQLWideSchema(t *testing.T) {
	var items []string
	for i := 0; i < 25; i++ {
		var b strings.Builder
		for j := 0; j < 40; j++ {
			fmt.Fprintf(&b, `,"e%d_%d":{"v":%d,"w":["x"]}`, i, j, j)
		}
		items = append(items, fmt.Sprintf(`{"Status":"Published","Name":"n","ContentID":"Content_%d","Data":{"title":"t"%s}}`, i, b.String()))
	}
	r := New(Options{})
	r.Load(snapshotOf(t, "wide", items))
	body, _ := json.Marshal(map[string]string{"query": fullIntrospection})
	for _, accept := range []string{"", "application/graphql-response+json"} {
		start := time.Now()
		resp := r.Serve(&edge.Request{Method: "POST", Path: "/cda/graphql/v1/wide", Body: body,
			Headers: []edge.Header{{Name: "Content-Type", Value: "application/json"}, {Name: "Accept", Value: accept}}})
		if types := gjson.GetBytes(resp.Body, "data.__schema.types").Array(); resp.Status != 200 || len(types) < 1000 {
			t.Fatalf("Accept %q: %d, %d types: %.300s", accept, resp.Status, len(types), resp.Body)
		}
		t.Logf("Accept %q: %d types, %d bytes in %v", accept, len(gjson.GetBytes(resp.Body, "data.__schema.types").Array()), len(resp.Body), time.Since(start))
	}
}

// fullIntrospection is graphql-js's getIntrospectionQuery() with every option on.
const fullIntrospection = `query IntrospectionQuery { __schema { description queryType { name kind } mutationType { name kind } subscriptionType { name kind } types { ...FullType } directives { name description isRepeatable locations args(includeDeprecated: true) { ...InputValue } } } }
fragment FullType on __Type { kind name description specifiedByURL isOneOf fields(includeDeprecated: true) { name description args(includeDeprecated: true) { ...InputValue } type { ...TypeRef } isDeprecated deprecationReason } inputFields(includeDeprecated: true) { ...InputValue } interfaces { ...TypeRef } enumValues(includeDeprecated: true) { name description isDeprecated deprecationReason } possibleTypes { ...TypeRef } }
fragment InputValue on __InputValue { name description type { ...TypeRef } defaultValue isDeprecated deprecationReason }
fragment TypeRef on __Type { kind name ofType { kind name ofType { kind name ofType { kind name ofType { kind name ofType { kind name ofType { kind name ofType { kind name ofType { kind name } } } } } } } } }`
