// Package router answers the API's HTTP requests for a set of environments: it routes a
// request (Classify), checks its method, size and access, runs the front-end of its
// route (rest, graphql or dsl) and the evaluator, and writes the answer with the caching
// and CORS headers of API.md D11. Every failure becomes the error envelope of D8 in one
// place (Serve), through errors.As; no handler chooses a status.
package router

import (
	"strconv"

	"github.com/cdaedge/cdaedge/edge"
	"github.com/cdaedge/cdaedge/edge/content"
	"github.com/cdaedge/cdaedge/edge/eval"
	"github.com/cdaedge/cdaedge/edge/graphql"
	"github.com/cdaedge/cdaedge/edge/jsonw"
	"github.com/cdaedge/cdaedge/snapshot"
)

// Options configures a Router. The zero value gives the defaults of API.md D11.
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
	// MaxResponseBytes bounds the body of one answer (400 too_complex above it, decided
	// while the answer is built); zero means edge.DefaultMaxResponseBytes, below zero
	// means no limit.
	MaxResponseBytes int
	// MaxSteps is the evaluation budget of one request (too_complex above it); zero
	// means eval.DefaultMaxSteps, below zero means no limit.
	MaxSteps int64
	// LendBodies makes a successful response's Body the router's own buffer, valid
	// until its next Serve, instead of a copy: for a caller that copies each answer out
	// before it asks for the next (the wasm module does), it saves an allocation of the
	// answer's size per request, and with it, in TinyGo, a collection every few
	// requests.
	LendBodies bool
	// BodyHeadroom, with LendBodies, is how many bytes the router's buffer keeps free
	// before a lent body: a caller that frames each answer (the wasm module) writes the
	// frame's head there (Headroom) instead of copying the body after a head of its own.
	// A search answer of ten items is ~60 KB, and that copy took 2-3 % of the TinyGo
	// module's time for the search.
	BodyHeadroom int
}

// Router answers HTTP requests for the environments it holds. It keeps per-environment
// scratch state, so it is not safe for concurrent use: each runtime instance (a wasm
// instance, a native worker) owns one. The snapshots it reads may be shared.
type Router struct {
	opts Options
	envs map[string]*environment
	buf  []byte
}

// environment is one served snapshot with its evaluator and its GraphQL schema (typed
// from the snapshot's items on first use, then kept).
type environment struct {
	snap *snapshot.Snapshot
	eval *eval.Evaluator
	hash [32]byte
	gql  *graphql.Schema
	// fields is the snapshot's content.Schema, kept with it so that what the front-ends
	// learn of its fields (types, the text fields "*" means) is resolved once.
	fields *content.Fields
	// esIndex is the environment's name as a JSON string, the _index of every hit of
	// the Elasticsearch-style answers.
	esIndex []byte
}

// New returns a router with no environments.
func New(opts Options) *Router {
	if opts.CacheControl == "" {
		opts.CacheControl = "public, max-age=60"
	}
	if opts.MaxBodyBytes <= 0 {
		opts.MaxBodyBytes = edge.DefaultMaxBodyBytes
	}
	if opts.MaxURLBytes <= 0 {
		opts.MaxURLBytes = edge.DefaultMaxURLBytes
	}
	if opts.MaxSteps == 0 {
		opts.MaxSteps = eval.DefaultMaxSteps
	}
	if opts.MaxResponseBytes == 0 {
		opts.MaxResponseBytes = edge.DefaultMaxResponseBytes
	}
	if !opts.LendBodies || opts.BodyHeadroom < 0 {
		opts.BodyHeadroom = 0
	}
	return &Router{opts: opts, envs: map[string]*environment{}, buf: make([]byte, opts.BodyHeadroom)}
}

// body returns the router's buffer emptied for the next answer: its headroom, and no body
// yet.
func (r *Router) body() []byte { return r.buf[:r.opts.BodyHeadroom] }

// Headroom returns the bytes the router's buffer keeps before body (Options.BodyHeadroom)
// followed by body itself, when body is the answer it lent last; else nil. Writing a
// head at the end of the headroom makes head and body one slice, without a copy of the
// body. It is valid, as the lent body is, until the next Serve.
func (r *Router) Headroom(body []byte) []byte {
	h := r.opts.BodyHeadroom
	if h == 0 || len(body) == 0 || len(r.buf) != h+len(body) || &r.buf[h] != &body[0] {
		return nil
	}
	return r.buf
}

// Load serves snap under its environment id, replacing any snapshot of that id.
func (r *Router) Load(snap *snapshot.Snapshot) {
	e := eval.NewEvaluator(snap)
	e.SetMaxSteps(max(r.opts.MaxSteps, 0))
	e.SetMaxAnswerBytes(r.opts.MaxResponseBytes)
	e.SetAnswerStart(r.opts.BodyHeadroom)
	r.envs[snap.Environment()] = newEnvironment(snap, e)
}

// handler answers one route: it appends a 200 body to dst or returns an error, which
// Serve turns into the envelope.
type handler func(dst []byte, env *environment, req *edge.Request) ([]byte, error)

// handlers are the routes' handlers (handlers.go).
var handlers = [...]handler{
	RouteRESTList:      restList,
	RouteRESTItem:      restItem,
	RouteGraphQL:       graphQL,
	RouteGraphQLSchema: graphQLSchema,
	RouteSearch:        search,
	RouteValidate:      validateQuery,
	RouteESSearch:      esSearch,
	RouteESCount:       esCount,
	// RouteESInfo and RouteESMsearch need no environment of their own: Serve answers them.
}

// Serve answers one request. It never panics: every failure is a D8 envelope, or on the
// Elasticsearch-compatible routes Elasticsearch's error object, whose every answer also
// carries the product header the official clients check.
func (r *Router) Serve(req *edge.Request) *edge.Response {
	rt, envID, perr := parsePath(req.Path)
	resp := r.serve(req, rt, envID, perr)
	if rt.compat() {
		markProduct(resp)
	}
	return resp
}

// early is the answer to a request refused before its route ran: the D8 envelope, or
// Elasticsearch's error object on its routes.
func early(rt Route, e *edge.Error) *edge.Response {
	if rt.compat() {
		return esErrorResponse(e)
	}
	return edge.NewErrorResponse(e)
}

func (r *Router) serve(req *edge.Request, rt Route, envID string, perr *edge.Error) *edge.Response {
	if len(req.Path)+len(req.RawQuery) > r.opts.MaxURLBytes {
		return early(rt, edge.Errorf(edge.CodeURITooLong, "the request URL is longer than %d bytes", r.opts.MaxURLBytes))
	}
	if len(req.Body) > r.opts.MaxBodyBytes {
		return early(rt, edge.Errorf(edge.CodePayloadTooLarge, "the request body is larger than %d bytes", r.opts.MaxBodyBytes))
	}
	if perr != nil {
		return edge.NewErrorResponse(perr)
	}
	method := req.Method
	if !rt.Allows(method) {
		resp := early(rt, edge.Errorf(edge.CodeMethodNotAllowed, "method %s is not allowed here; use %s", edge.Clip(method), rt.Allowed()))
		resp.Headers = append(resp.Headers, edge.Header{Name: "Allow", Value: rt.Allowed()})
		return resp
	}
	if method == "OPTIONS" {
		return preflight(rt, req)
	}
	switch {
	case rt == RouteESInfo:
		return r.esInfoAnswer(req)
	case rt == RouteESMsearch:
		return r.msearch(req, envID)
	case rt.compat() && envID == "":
		return esErrorResponse(edge.Errorf(edge.CodeInvalidArgument, "name the environment as the index: /cda/es/v1/<environment>/%s", rt.action()))
	}
	env := r.envs[envID]
	if env == nil {
		return withCORS(reject(rt, req, edge.Errorf(edge.CodeEnvironmentNotFound, "environment %q not found", edge.Clip(envID))))
	}
	if env.snap.Preview() {
		if e := r.authorize(envID, req); e != nil {
			resp := reject(rt, req, e)
			resp.Headers = append(resp.Headers, edge.Header{Name: "WWW-Authenticate", Value: `Bearer realm="preview"`})
			return resp
		}
	}
	env.eval.BeginRequest()
	buf, err := handlers[rt](r.body(), env, req)
	if err == nil {
		err = env.eval.CheckAnswer(len(buf), 0)
	}
	if err != nil {
		return withSteps(r.failure(env, rt, req, edge.AsError(err)), env.eval.Steps())
	}
	r.buf = buf
	return withSteps(r.success(env, req, rt, buf[r.opts.BodyHeadroom:]), env.eval.Steps())
}

// workStepsHeader names the answer header that tells how much of the work budget the
// request spent (API.md D11), so that a client can see how close a query comes to
// too_complex before it gets there.
const workStepsHeader = "Cda-Work-Steps"

// withSteps adds the work steps header to an answer the engine worked on.
func withSteps(resp *edge.Response, steps int64) *edge.Response {
	resp.Headers = append(resp.Headers, edge.Header{Name: workStepsHeader, Value: strconv.FormatInt(steps, 10)})
	return resp
}

// failure is the envelope of e, in the GraphQL form too on the GraphQL route (D8), or
// GraphQL over HTTP's answer in the standard mode (D9).
func (r *Router) failure(env *environment, rt Route, req *edge.Request, e *edge.Error) *edge.Response {
	if rt.compat() {
		return envelopeHeaders(env, esErrorResponse(e))
	}
	if rt == RouteGraphQL {
		if resp := graphql.StandardError(req, e); resp != nil {
			return envelopeHeaders(env, varyAccept(rt, resp))
		}
	}
	resp := edge.NewErrorResponse(e)
	if rt == RouteGraphQL {
		resp.Body = appendGraphQLErrors(resp.Body[:len(resp.Body)-1], e)
		resp.Body = append(resp.Body, '}')
	}
	return envelopeHeaders(env, varyAccept(rt, resp))
}

// newEnvironment returns what the router keeps of one loaded snapshot: its evaluator,
// and the fields every front-end resolves names with, one instance shared by all.
func newEnvironment(snap *snapshot.Snapshot, e *eval.Evaluator) *environment {
	fields := content.NewFields(snap)
	return &environment{snap: snap, eval: e, hash: snap.Hash(), gql: graphql.NewSchema(snap, fields), fields: fields,
		esIndex: jsonw.String(nil, snap.Environment())}
}
