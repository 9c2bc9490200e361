package edge

import (
	"crypto/subtle"
	"strings"

	"github.com/cdaedge/cdaedge/edge/jsonw"
	"github.com/cdaedge/cdaedge/snapshot"
)

// Limits of decisions D11 that the router enforces itself.
const (
	DefaultMaxBodyBytes = 1 << 20
	DefaultMaxURLBytes  = 8 << 10
)

// Options configures a Router. The zero value gives the defaults of decisions D11.
type Options struct {
	// CacheControl is sent with published environments' successful responses; empty
	// means "public, max-age=60" (D11). Preview environments always get
	// "private, no-store".
	CacheControl string
	// PreviewTokens maps a preview environment's id to its access token (D3). A preview
	// snapshot without a token answers 401 to every request.
	PreviewTokens map[string]string
	// MaxBodyBytes and MaxURLBytes bound a request (413, 414); zero means the default.
	MaxBodyBytes int
	MaxURLBytes  int
	// MaxSteps is the evaluation budget of one request (too_complex above it); zero
	// means DefaultMaxSteps, below zero means no limit.
	MaxSteps int64
}

// Router answers HTTP requests for the environments it holds. It keeps per-environment
// scratch state, so it is not safe for concurrent use: each runtime instance (a wasm
// instance, a native worker) owns one. The snapshots it reads may be shared.
type Router struct {
	opts Options
	envs map[string]*environment
	buf  []byte
}

type environment struct {
	snap   *snapshot.Snapshot
	engine *Engine
	hash   [32]byte
}

// NewRouter returns a router with no environments.
func NewRouter(opts Options) *Router {
	if opts.CacheControl == "" {
		opts.CacheControl = "public, max-age=60"
	}
	if opts.MaxBodyBytes <= 0 {
		opts.MaxBodyBytes = DefaultMaxBodyBytes
	}
	if opts.MaxURLBytes <= 0 {
		opts.MaxURLBytes = DefaultMaxURLBytes
	}
	if opts.MaxSteps == 0 {
		opts.MaxSteps = DefaultMaxSteps
	}
	return &Router{opts: opts, envs: map[string]*environment{}}
}

// Load serves snap under its environment id, replacing any snapshot of that id.
func (r *Router) Load(snap *snapshot.Snapshot) {
	e := NewEngine(snap)
	e.SetMaxSteps(max(r.opts.MaxSteps, 0))
	r.envs[snap.Environment()] = &environment{snap: snap, engine: e, hash: snap.Hash()}
}

// Unload stops serving environment env.
func (r *Router) Unload(env string) { delete(r.envs, env) }

// route is what a request path names.
type route uint8

const (
	routeNone route = iota
	routeRESTList
	routeRESTItem
	routeGraphQL
	routeGraphQLSchema
	routeSearch
	routeValidate
)

// allowed lists each route's methods, for 405 answers and CORS preflight (D11).
func (rt route) allowed() string {
	switch rt {
	case routeRESTList, routeRESTItem, routeGraphQLSchema:
		return "GET, HEAD, OPTIONS"
	case routeGraphQL, routeSearch, routeValidate:
		return "GET, HEAD, POST, OPTIONS"
	}
	return ""
}

// handler answers one route: it appends a 200 body to dst or returns an error.
type handler func(r *Router, dst []byte, env *environment, req *Request) ([]byte, error)

func (rt route) handler() handler {
	switch rt {
	case routeRESTList:
		return (*Router).restList
	case routeRESTItem:
		return (*Router).restItem
	case routeGraphQL:
		return (*Router).graphQL
	case routeGraphQLSchema:
		return (*Router).graphQLSchema
	case routeSearch:
		return (*Router).search
	case routeValidate:
		return (*Router).validateQuery
	}
	return nil
}

// contentType is the media type of the route's successful answers.
func (rt route) contentType() string {
	if rt == routeGraphQLSchema {
		return "application/graphql; charset=utf-8"
	}
	return contentTypeJSON
}

func (rt route) allows(method string) bool {
	for rest := rt.allowed(); rest != ""; {
		var m string
		m, rest, _ = strings.Cut(rest, ", ")
		if m == method {
			return true
		}
	}
	return false
}

// Serve answers one request. It never panics: every failure is a D8 envelope.
func (r *Router) Serve(req *Request) *Response {
	if len(req.Path)+len(req.RawQuery) > r.opts.MaxURLBytes {
		return errorResponse(Errorf(CodeURITooLong, "the request URL is longer than %d bytes", r.opts.MaxURLBytes))
	}
	if len(req.Body) > r.opts.MaxBodyBytes {
		return errorResponse(Errorf(CodePayloadTooLarge, "the request body is larger than %d bytes", r.opts.MaxBodyBytes))
	}
	rt, envID, perr := parsePath(req)
	if perr != nil {
		return errorResponse(perr)
	}
	method := req.Method
	if !rt.allows(method) {
		resp := errorResponse(Errorf(CodeMethodNotAllowed, "method %s is not allowed here; use %s", clip(method), rt.allowed()))
		resp.Headers = append(resp.Headers, Header{"Allow", rt.allowed()})
		return resp
	}
	if method == "OPTIONS" {
		return r.preflight(rt)
	}
	env := r.envs[envID]
	if env == nil {
		return r.withCORS(errorResponse(Errorf(CodeEnvironmentNotFound, "environment %q not found", clip(envID))))
	}
	if env.snap.Preview() {
		if e := r.authorize(envID, req); e != nil {
			resp := errorResponse(e)
			resp.Headers = append(resp.Headers, Header{"WWW-Authenticate", `Bearer realm="preview"`})
			return resp
		}
	}
	buf, err := rt.handler()(r, r.buf[:0], env, req)
	if err != nil {
		e, ok := err.(*Error)
		if !ok {
			e = Errorf(CodeInternal, "internal error")
		}
		resp := errorResponse(e)
		if rt == routeGraphQL {
			resp.Body = appendGraphQLErrors(resp.Body[:len(resp.Body)-1], e)
			resp.Body = append(resp.Body, '}')
		}
		return r.envelopeHeaders(env, resp)
	}
	r.buf = buf
	return r.success(env, req, rt.contentType(), buf)
}

// appendGraphQLErrors appends the GraphQL form of an error (D8), so that GraphQL
// clients show it: ,"errors":[{"message":..,"locations":[..],"extensions":{"code":..}}]
func appendGraphQLErrors(dst []byte, e *Error) []byte {
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
func (r *Router) success(env *environment, req *Request, contentType string, body []byte) *Response {
	etag := etagOf(env.hash, req)
	resp := &Response{Status: 200, Headers: []Header{{"Content-Type", contentType}}}
	if env.snap.Preview() {
		resp.Headers = append(resp.Headers, Header{"Cache-Control", "private, no-store"})
	} else {
		resp.Headers = append(resp.Headers, Header{"Cache-Control", r.opts.CacheControl})
	}
	resp.Headers = append(resp.Headers, Header{"ETag", etag})
	r.envelopeHeaders(env, resp)
	if env.snap.Preview() {
		resp.Headers = append(resp.Headers, Header{"Vary", "Authorization"})
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
func (r *Router) envelopeHeaders(env *environment, resp *Response) *Response {
	if !env.snap.Preview() {
		resp.Headers = append(resp.Headers, Header{"Access-Control-Allow-Origin", "*"})
	}
	resp.Headers = append(resp.Headers, Header{"X-Content-Type-Options", "nosniff"})
	return dedupeNosniff(resp)
}

func (r *Router) withCORS(resp *Response) *Response {
	resp.Headers = append(resp.Headers, Header{"Access-Control-Allow-Origin", "*"})
	return resp
}

// dedupeNosniff keeps one X-Content-Type-Options header (error responses carry it already).
func dedupeNosniff(resp *Response) *Response {
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
func (r *Router) preflight(rt route) *Response {
	return &Response{Status: 204, Headers: []Header{
		{"Access-Control-Allow-Origin", "*"},
		{"Access-Control-Allow-Methods", rt.allowed()},
		{"Access-Control-Allow-Headers", "Authorization, Content-Type, If-None-Match"},
		{"Access-Control-Max-Age", "86400"},
		{"Allow", rt.allowed()},
	}}
}

// authorize checks a preview environment's bearer token in constant time (D3).
func (r *Router) authorize(envID string, req *Request) *Error {
	want := r.opts.PreviewTokens[envID]
	if want == "" {
		return Errorf(CodeUnauthorized, "environment %q is a preview environment and no access token is configured for it", envID)
	}
	got := headerValue(req.Headers, "Authorization")
	if scheme, token, ok := strings.Cut(got, " "); ok && strings.EqualFold(scheme, "Bearer") {
		got = strings.TrimSpace(token)
	}
	if got == "" || subtle.ConstantTimeCompare([]byte(got), []byte(want)) != 1 {
		return Errorf(CodeUnauthorized, "a valid access token is required for preview environment %q", envID)
	}
	return nil
}

func (r *Router) restList(dst []byte, env *environment, req *Request) ([]byte, error) {
	s, err := ParseRESTList(req.RawQuery, env.engine)
	if err != nil {
		return nil, err
	}
	res, err := env.engine.Search(s)
	if err != nil {
		return nil, err
	}
	dst = append(dst, `{"status":200,"data":[`...)
	for i, doc := range res.Docs {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, env.snap.Item(doc)...)
	}
	dst = append(dst, `],"totalItems":`...)
	dst = jsonw.Int(dst, int64(res.Total))
	return append(dst, '}'), nil
}

func (r *Router) restItem(dst []byte, env *environment, req *Request) ([]byte, error) {
	_, id, _ := strings.Cut(strings.TrimPrefix(req.Path, "/cda/rest/v1/"), "/contents/")
	id, _ = unescape(id, false)
	doc, ok := env.snap.Lookup(id)
	if !ok {
		return nil, Errorf(CodeContentNotFound, "content item %q not found", clip(id))
	}
	dst = append(dst, `{"status":200,"data":`...)
	dst = append(dst, env.snap.Item(doc)...)
	return append(dst, '}'), nil
}

// parsePath maps an escaped request path to a route and environment id. Segments are
// unescaped one by one after splitting, so an escaped slash (%2F) never crosses a
// segment boundary.
func parsePath(req *Request) (route, string, *Error) {
	path := req.Path
	notFound := Errorf(CodeNotFound, "no such route: %s", clip(path))
	if !strings.HasPrefix(path, "/cda/") {
		return routeNone, "", notFound
	}
	var segs [8]string
	n := 0
	for rest := path[1:]; ; {
		seg, tail, more := strings.Cut(rest, "/")
		if n == len(segs) {
			return routeNone, "", notFound
		}
		u, ok := unescape(seg, false)
		if !ok {
			return routeNone, "", Errorf(CodeNotFound, "no such route: malformed escape in %s", clip(path))
		}
		segs[n] = u
		n++
		if !more {
			break
		}
		rest = tail
	}
	s := segs[:n]
	if len(s) < 4 || s[2] != "v1" || s[3] == "" {
		return routeNone, "", notFound
	}
	env := s[3]
	switch s[1] {
	case "rest":
		switch {
		case len(s) == 5 && s[4] == "contents":
			return routeRESTList, env, nil
		case len(s) == 6 && s[4] == "contents" && s[5] != "":
			return routeRESTItem, env, nil
		}
	case "graphql":
		switch {
		case len(s) == 4:
			return routeGraphQL, env, nil
		case len(s) == 5 && s[4] == "schema.graphql":
			return routeGraphQLSchema, env, nil
		}
	case "es":
		switch {
		case len(s) == 4:
			return routeSearch, env, nil
		case len(s) == 6 && s[4] == "_validate" && s[5] == "query":
			return routeValidate, env, nil
		}
	}
	return routeNone, "", notFound
}

func headerValue(hs []Header, name string) string {
	for _, h := range hs {
		if strings.EqualFold(h.Name, name) {
			return h.Value
		}
	}
	return ""
}

// etagOf is a strong validator that changes with the snapshot and with the request
// (D11): FNV-1a over the snapshot's hash and everything that selects the answer.
func etagOf(hash [32]byte, req *Request) string {
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
func ifNoneMatch(req *Request, etag string) bool {
	v := headerValue(req.Headers, "If-None-Match")
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
