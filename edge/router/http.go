package router

import (
	"crypto/subtle"
	"strings"

	"github.com/cdaedge/cdaedge/edge"
	"github.com/cdaedge/cdaedge/edge/jsonw"
)

// appendGraphQLErrors appends the GraphQL form of an error (D8), so that GraphQL
// clients show it: ,"errors":[{"message":..,"locations":[..],"extensions":{"code":..}}]
func appendGraphQLErrors(dst []byte, e *edge.Error) []byte {
	dst = append(dst, `,"errors":[{"message":`...)
	dst = jsonw.String(dst, e.Message)
	if e.Line > 0 {
		dst = append(dst, `,"locations":[{"line":`...)
		dst = jsonw.Int(dst, int64(e.Line))
		dst = append(dst, `,"column":`...)
		dst = jsonw.Int(dst, int64(e.Column))
		dst = append(dst, "}]"...)
	}
	dst = append(dst, `,"extensions":{"code":`...)
	dst = jsonw.String(dst, string(e.Code))
	return append(dst, "}}]"...)
}

// success wraps a 200 body with the caching headers of D11.
func (r *Router) success(env *environment, req *edge.Request, contentType string, body []byte) *edge.Response {
	etag := etagOf(env.hash, req)
	resp := &edge.Response{Status: 200, Headers: []edge.Header{{Name: "Content-Type", Value: contentType}}}
	if env.snap.Preview() {
		resp.Headers = append(resp.Headers, edge.Header{Name: "Cache-Control", Value: "private, no-store"})
	} else {
		resp.Headers = append(resp.Headers, edge.Header{Name: "Cache-Control", Value: r.opts.CacheControl})
	}
	resp.Headers = append(resp.Headers, edge.Header{Name: "ETag", Value: etag})
	envelopeHeaders(env, resp)
	if env.snap.Preview() {
		resp.Headers = append(resp.Headers, edge.Header{Name: "Vary", Value: "Authorization"})
	}
	if ifNoneMatch(req, etag) {
		resp.Status = 304
		return resp
	}
	if req.Method != "HEAD" {
		resp.Body = append([]byte(nil), body...)
	}
	return resp
}

// envelopeHeaders adds the headers every API answer of an environment carries.
func envelopeHeaders(env *environment, resp *edge.Response) *edge.Response {
	if !env.snap.Preview() {
		resp.Headers = append(resp.Headers, edge.Header{Name: "Access-Control-Allow-Origin", Value: "*"})
	}
	resp.Headers = append(resp.Headers, edge.Header{Name: "X-Content-Type-Options", Value: "nosniff"})
	return dedupeNosniff(resp)
}

func withCORS(resp *edge.Response) *edge.Response {
	resp.Headers = append(resp.Headers, edge.Header{Name: "Access-Control-Allow-Origin", Value: "*"})
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

// preflight answers a CORS preflight request (D11).
func preflight(rt Route) *edge.Response {
	return &edge.Response{Status: 204, Headers: []edge.Header{
		{Name: "Access-Control-Allow-Origin", Value: "*"},
		{Name: "Access-Control-Allow-Methods", Value: rt.Allowed()},
		{Name: "Access-Control-Allow-Headers", Value: "Authorization, Content-Type, If-None-Match"},
		{Name: "Access-Control-Max-Age", Value: "86400"},
		{Name: "Allow", Value: rt.Allowed()},
	}}
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
// (D11): FNV-1a over the snapshot's hash and everything that selects the answer.
func etagOf(hash [32]byte, req *edge.Request) string {
	const prime = 1099511628211
	h := uint64(14695981039346656037)
	mix := func(s string) {
		for i := 0; i < len(s); i++ {
			h ^= uint64(s[i])
			h *= prime
		}
		h ^= 0xff
		h *= prime
	}
	mix(string(hash[:]))
	method := req.Method
	if method == "HEAD" {
		method = "GET"
	}
	mix(method)
	mix(req.Path)
	mix(req.RawQuery)
	mix(string(req.Body))
	const digits = "0123456789abcdef"
	var out [18]byte
	out[0], out[17] = '"', '"'
	for i := 16; i >= 1; i-- {
		out[i] = digits[h&0xF]
		h >>= 4
	}
	return string(out[:])
}

// ifNoneMatch reports whether the request's If-None-Match lists etag (or is "*").
func ifNoneMatch(req *edge.Request, etag string) bool {
	v := edge.HeaderValue(req.Headers, "If-None-Match")
	for v != "" {
		var tag string
		tag, v, _ = strings.Cut(v, ",")
		tag = strings.TrimSpace(tag)
		tag = strings.TrimPrefix(tag, "W/")
		if tag == "*" || tag == etag {
			return true
		}
	}
	return false
}
