package router

import (
	"crypto/subtle"
	"strings"

	"github.com/cdaedge/cdaedge/edge"
	"github.com/cdaedge/cdaedge/edge/graphql"
)

// appendGraphQLErrors appends the GraphQL form of an error (D8), so that GraphQL
// clients show it: ,"errors":[{"message":..,"locations":[..],"extensions":{"code":..}}]
func appendGraphQLErrors(dst []byte, e *edge.Error) []byte {
	dst = append(dst, `,"errors":`...)
	return graphql.AppendErrorList(dst, e)
}

// reject answers a request refused before its handler ran (no such environment, no
// access to a preview one): the D8 envelope, or on the GraphQL route in the standard
// mode GraphQL over HTTP's errors (D9).
func reject(rt Route, req *edge.Request, e *edge.Error) *edge.Response {
	if rt.compat() {
		return esErrorResponse(e)
	}
	if rt == RouteGraphQL {
		if resp := graphql.StandardError(req, e); resp != nil {
			return varyAccept(rt, resp)
		}
	}
	return varyAccept(rt, edge.NewErrorResponse(e))
}

// varyAccept marks the answers of the GraphQL routes as depending on Accept, which
// chooses the mode (D9), for caches between the client and the service.
func varyAccept(rt Route, resp *edge.Response) *edge.Response {
	if rt == RouteGraphQL || rt == RouteGraphQLSchema {
		resp.Headers = append(resp.Headers, edge.Header{Name: "Vary", Value: "Accept"})
	}
	return resp
}

// scope is what an answer's caching headers depend on: the snapshot (or snapshots)
// it comes from, whether any is a preview, and a representation variant.
type scope struct {
	hash    [32]byte
	preview bool
	// variant names a representation other than the default (the GraphQL standard
	// mode's, D9), or the further snapshots of a multi-environment answer.
	variant string
}

// success wraps a 200 body with the caching headers of D11. On the GraphQL routes the
// mode chooses the media type, and a mode's answers have tags of their own.
func (r *Router) success(env *environment, req *edge.Request, rt Route, body []byte) *edge.Response {
	sc := scope{hash: env.hash, preview: env.snap.Preview()}
	if rt == RouteGraphQL || rt == RouteGraphQLSchema {
		f, _ := graphql.Negotiate(req) // the handler has refused a bad mode already
		sc.variant = f.Variant()
	}
	return r.answer(sc, req, rt, body)
}

// answer wraps a 200 body of scope sc with the caching headers of D11.
func (r *Router) answer(sc scope, req *edge.Request, rt Route, body []byte) *edge.Response {
	contentType := rt.contentType()
	if rt == RouteGraphQL {
		f, _ := graphql.Negotiate(req)
		contentType = f.ContentType()
	}
	etag := etagOf(sc.hash, req, sc.variant)
	// Room for every header an answer gets (CORS, caching, nosniff, work steps, the
	// product header of the Elasticsearch routes): the list grows without copies.
	headers := make([]edge.Header, 1, 10)
	headers[0] = edge.Header{Name: "Content-Type", Value: contentType}
	resp := &edge.Response{Status: 200, Headers: headers}
	if sc.preview {
		resp.Headers = append(resp.Headers, edge.Header{Name: "Cache-Control", Value: "private, no-store"})
	} else {
		resp.Headers = append(resp.Headers, edge.Header{Name: "Cache-Control", Value: r.opts.CacheControl})
	}
	resp.Headers = append(resp.Headers, edge.Header{Name: "ETag", Value: etag})
	scopeHeaders(sc.preview, varyAccept(rt, resp))
	if sc.preview {
		resp.Headers = append(resp.Headers, edge.Header{Name: "Vary", Value: "Authorization"})
	}
	if ifNoneMatch(req, etag) {
		resp.Status = 304
		return resp
	}
	switch {
	case req.Method == "HEAD":
	case r.opts.LendBodies:
		resp.Body = body
	default:
		resp.Body = append([]byte(nil), body...)
	}
	return resp
}

// envelopeHeaders adds the headers every API answer of an environment carries.
func envelopeHeaders(env *environment, resp *edge.Response) *edge.Response {
	return scopeHeaders(env.snap.Preview(), resp)
}

// scopeHeaders adds the headers every API answer carries: CORS unless it comes from a
// preview environment, and nosniff.
func scopeHeaders(preview bool, resp *edge.Response) *edge.Response {
	if !preview {
		withCORS(resp)
	}
	resp.Headers = append(resp.Headers, edge.Header{Name: "X-Content-Type-Options", Value: "nosniff"})
	return dedupeNosniff(resp)
}

// exposedHeaders are the answer headers beyond CORS's safelisted ones that browser code
// may read (D11): the validator for If-None-Match, the request id the host echoes, and
// the work a request spent.
const exposedHeaders = "ETag, X-Request-Id, " + workStepsHeader

// withCORS lets any origin read the answer (published environments, D11).
func withCORS(resp *edge.Response) *edge.Response {
	resp.Headers = append(resp.Headers,
		edge.Header{Name: "Access-Control-Allow-Origin", Value: "*"},
		edge.Header{Name: "Access-Control-Expose-Headers", Value: exposedHeaders})
	return resp
}

// dedupeNosniff keeps one X-Content-Type-Options header (error responses carry it already).
func dedupeNosniff(resp *edge.Response) *edge.Response {
	seen := false
	out := resp.Headers[:0]
	for _, h := range resp.Headers {
		if h.Name == "X-Content-Type-Options" {
			if seen {
				continue
			}
			seen = true
		}
		out = append(out, h)
	}
	resp.Headers = out
	return resp
}

// defaultAllowedHeaders are the request headers a preflight allows when it names none
// (D11).
const defaultAllowedHeaders = "Accept, Authorization, Content-Type, If-None-Match, X-Request-Id"

// maxRequestedHeaders bounds the Access-Control-Request-Headers a preflight echoes.
const maxRequestedHeaders = 1024

// preflight answers a CORS preflight request (D11): the route's methods, and the
// headers the request asks for (Access-Control-Request-Headers, when it is a list of
// header names), else defaultAllowedHeaders. Every request header is allowed: the API
// reads only a few, and credentials are never involved (the origin is *).
func preflight(rt Route, req *edge.Request) *edge.Response {
	allow, vary := defaultAllowedHeaders, false
	if asked := strings.TrimSpace(edge.HeaderValue(req.Headers, "Access-Control-Request-Headers")); asked != "" && isHeaderList(asked) {
		allow, vary = asked, true
	}
	resp := &edge.Response{Status: 204, Headers: []edge.Header{
		{Name: "Access-Control-Allow-Origin", Value: "*"},
		{Name: "Access-Control-Allow-Methods", Value: rt.Allowed()},
		{Name: "Access-Control-Allow-Headers", Value: allow},
		{Name: "Access-Control-Max-Age", Value: "86400"},
		{Name: "Allow", Value: rt.Allowed()},
	}}
	if vary {
		resp.Headers = append(resp.Headers, edge.Header{Name: "Vary", Value: "Access-Control-Request-Headers"})
	}
	return resp
}

// isHeaderList reports whether s is a comma-separated list of header names (RFC 9110
// tokens), short enough to echo.
func isHeaderList(s string) bool {
	if len(s) > maxRequestedHeaders {
		return false
	}
	for _, name := range strings.Split(s, ",") {
		name = strings.TrimSpace(name)
		if name == "" {
			return false
		}
		for i := 0; i < len(name); i++ {
			c := name[i]
			if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0) {
				return false
			}
		}
	}
	return true
}

// authorize checks a preview environment's bearer token in constant time (D3).
func (r *Router) authorize(envID string, req *edge.Request) *edge.Error {
	want := r.opts.PreviewTokens[envID]
	if want == "" {
		return edge.Errorf(edge.CodeUnauthorized, "environment %q is a preview environment and no access token is configured for it", envID)
	}
	got := edge.HeaderValue(req.Headers, "Authorization")
	if scheme, token, ok := strings.Cut(got, " "); ok && strings.EqualFold(scheme, "Bearer") {
		got = strings.TrimSpace(token)
	}
	if got == "" || subtle.ConstantTimeCompare([]byte(got), []byte(want)) != 1 {
		return edge.Errorf(edge.CodeUnauthorized, "a valid access token is required for preview environment %q", envID)
	}
	return nil
}

// etagOf is a strong validator that changes with the snapshot and with the request
// (D11): FNV-1a over the snapshot's hash and everything that selects the answer. variant
// names a representation other than the default (the GraphQL standard mode's, D9); ""
// leaves the tags of the default ones as they always were.
func etagOf(hash [32]byte, req *edge.Request, variant string) string {
	// FNV-1a over each part, each part closed by 0xff. The parts are read where they
	// are, through functions without state: in the TinyGo module a closure over the
	// hash and string conversions of the body and the snapshot hash were four heap
	// allocations and a copy of the body on every answer.
	h := uint64(fnvOffset)
	h = mix(h, hash[:])
	method := req.Method
	if method == "HEAD" {
		method = "GET"
	}
	h = mix(h, method)
	h = mix(h, req.Path)
	h = mix(h, req.RawQuery)
	h = mix(h, req.Body)
	if variant != "" {
		h = mix(h, variant)
	}
	const digits = "0123456789abcdef"
	var out [18]byte
	out[0], out[17] = '"', '"'
	for i := 16; i >= 1; i-- {
		out[i] = digits[h&0xF]
		h >>= 4
	}
	return string(out[:])
}

// FNV-1a's 64-bit offset basis and prime.
const (
	fnvOffset = 14695981039346656037
	fnvPrime  = 1099511628211
)

// mix is h after FNV-1a over s (a string or bytes, read in place) and a closing 0xff.
func mix[T string | []byte](h uint64, s T) uint64 {
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= fnvPrime
	}
	h ^= 0xff
	return h * fnvPrime
}

// ifNoneMatch reports whether the request's If-None-Match lists etag (or is "*").
func ifNoneMatch(req *edge.Request, etag string) bool {
	return edge.IfNoneMatch(edge.HeaderValue(req.Headers, "If-None-Match"), etag)
}
