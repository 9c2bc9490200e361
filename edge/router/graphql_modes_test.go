package router

import (
	"testing"

	"github.com/cdaedge/cdaedge/edge"
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
