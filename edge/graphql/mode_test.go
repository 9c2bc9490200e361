package graphql

import (
	"testing"

	"github.com/cdaedge/cdaedge/edge"
)

// TestNegotiate checks how a request chooses its mode and media type (D9): Accept as
// the clients send it, ?mode=, and the specification's defaults.
func TestNegotiate(t *testing.T) {
	const gqlr, json = true, false
	for _, tc := range []struct {
		name, accept, query string
		standard, media     bool
	}{
		{"no Accept: envelope", "", "", false, json},
		{"curl's */*: envelope", "*/*", "", false, json},
		{"application/json: envelope", "application/json", "", false, json},
		{"Apollo Client", "application/graphql-response+json,application/json;q=0.9", "", true, gqlr},
		{"urql", "application/graphql-response+json, application/graphql+json, application/json, text/event-stream, multipart/mixed", "", true, gqlr},
		{"graphql-request", "application/graphql-response+json, application/json", "", true, gqlr},
		{"prefers application/json", "application/json, application/graphql-response+json;q=0.5", "", true, json},
		{"refuses graphql-response+json", "application/graphql-response+json;q=0, application/json", "", false, json},
		{"case and spaces", " Application/GraphQL-Response+JSON ; Q=1 ", "", true, gqlr},
		{"?mode=standard without Accept", "", "mode=standard", true, gqlr},
		{"?mode=standard with */*", "*/*", "mode=standard", true, json},
		{"?mode=standard with application/*;q=0.5 and the type", "application/*;q=0.5, application/graphql-response+json", "query=x&mode=standard", true, gqlr},
		{"?mode=standard accepting neither", "text/html", "mode=standard", true, gqlr},
		{"?mode=envelope wins over Accept", "application/graphql-response+json", "mode=envelope", false, json},
		{"a parameter named like it is not it", "", "model=standard", false, json},
	} {
		req := &edge.Request{Method: "POST", RawQuery: tc.query}
		if tc.accept != "" {
			req.Headers = []edge.Header{{Name: "accept", Value: tc.accept}}
		}
		f, err := Negotiate(req)
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		if f.Standard != tc.standard || f.Standard && f.GraphQLResponse != tc.media {
			t.Errorf("%s: %+v, want standard %v, graphql-response %v", tc.name, f, tc.standard, tc.media)
		}
		if !f.Standard && (f.Variant() != "" || f.ContentType() != edge.ContentTypeJSON) {
			t.Errorf("%s: the envelope mode has variant %q, type %q", tc.name, f.Variant(), f.ContentType())
		}
	}
	for _, q := range []string{"mode=graphql", "mode=standard&mode=standard", "mode=%zz"} {
		if _, err := Negotiate(&edge.Request{RawQuery: q}); err == nil {
			t.Errorf("%s: no error", q)
		}
	}
}

// TestStandardErrorStatus checks the statuses of GraphQL over HTTP for each media type.
func TestStandardErrorStatus(t *testing.T) {
	gqlr := &edge.Request{Headers: []edge.Header{{Name: "Accept", Value: "application/graphql-response+json"}}}
	json := &edge.Request{RawQuery: "mode=standard", Headers: []edge.Header{{Name: "Accept", Value: "application/json"}}}
	envelope := &edge.Request{}
	query := edge.Errorf(edge.CodeInvalidQuery, "bad")
	bad := markMalformed(edge.Errorf(edge.CodeInvalidJSON, "not JSON"))
	for _, tc := range []struct {
		name   string
		req    *edge.Request
		e      *edge.Error
		status int // 0: no standard answer (the envelope)
	}{
		{"graphql-response: a GraphQL error", gqlr, query, 400},
		{"graphql-response: malformed", gqlr, bad, 400},
		{"graphql-response: not found", gqlr, edge.Errorf(edge.CodeEnvironmentNotFound, "x"), 404},
		{"graphql-response: internal", gqlr, edge.Errorf(edge.CodeInternal, "x"), 500},
		{"json: a GraphQL error answers 200", json, query, 200},
		{"json: too complex answers 200", json, edge.Errorf(edge.CodeTooComplex, "x"), 200},
		{"json: malformed keeps the envelope", json, bad, 0},
		{"json: unauthorized keeps the envelope", json, edge.Errorf(edge.CodeUnauthorized, "x"), 0},
		{"envelope mode", envelope, query, 0},
	} {
		resp := StandardError(tc.req, tc.e)
		switch {
		case resp == nil && tc.status != 0:
			t.Errorf("%s: no standard answer, want %d", tc.name, tc.status)
		case resp != nil && resp.Status != tc.status:
			t.Errorf("%s: %d %s, want %d", tc.name, resp.Status, resp.Body, tc.status)
		}
	}
}
