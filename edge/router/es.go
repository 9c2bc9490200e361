package router

import (
	"strings"

	"github.com/cdaedge/cdaedge/edge"
	"github.com/cdaedge/cdaedge/edge/dsl"
	"github.com/cdaedge/cdaedge/edge/eval"
	"github.com/cdaedge/cdaedge/edge/jsonr"
	"github.com/cdaedge/cdaedge/edge/jsonw"
	"github.com/cdaedge/cdaedge/edge/query"
)

// The Elasticsearch-compatible routes (API.md, "Search: Elasticsearch-compatible
// routes"): the same search DSL and engine as /cda/es/v1/<env>, answered in
// Elasticsearch's shapes so that the official clients work unchanged. Every answer of
// these routes carries X-Elastic-Product: Elasticsearch, which the official clients
// require of a successful answer; every error is Elasticsearch's error object, mapped
// from the *edge.Error in one place (esErrorResponse).

// esProductHeader is the header Elasticsearch's official clients check on every
// successful answer (their product check).
var esProductHeader = edge.Header{Name: esProductName, Value: "Elasticsearch"}

// esProductName names esProductHeader; exposedHeadersES is exposedHeaders with it, the
// value markProduct gives every answer's list (a constant rather than a concatenation
// per answer: a heap allocation in the TinyGo module).
const (
	esProductName    = "X-Elastic-Product"
	exposedHeadersES = exposedHeaders + ", " + esProductName
)

// esShards is the _shards member of every search answer: one shard, which answered.
const esShards = `"_shards":{"total":1,"successful":1,"skipped":0,"failed":0}`

// esInfo is the document of GET /cda/es/v1/ (Elasticsearch's root "info" API): the
// version line of the API these routes follow, and the members clients read to tell
// an Elasticsearch (version.number, version.build_flavor, tagline). It is fixed, so
// the module answers the same bytes everywhere.
const esInfo = `{"name":"cdaedge","cluster_name":"cdaedge","cluster_uuid":"cdaedge",` +
	`"version":{"number":"8.19.0","build_flavor":"default","build_type":"cdaedge","build_snapshot":false,` +
	`"minimum_wire_compatibility_version":"7.17.0","minimum_index_compatibility_version":"7.0.0"},` +
	`"tagline":"You Know, for Search"}`

// markProduct adds the product header to an answer, and lets browser code read it.
func markProduct(resp *edge.Response) {
	for i, h := range resp.Headers {
		switch {
		case h.Name != "Access-Control-Expose-Headers":
		case h.Value == exposedHeaders:
			resp.Headers[i].Value = exposedHeadersES
		default:
			resp.Headers[i].Value += ", " + esProductName
		}
	}
	resp.Headers = append(resp.Headers, esProductHeader)
}

// compat reports whether the route is one of the Elasticsearch-compatible routes.
func (rt Route) compat() bool {
	return rt == RouteESInfo || rt == RouteESSearch || rt == RouteESCount || rt == RouteESMsearch
}

// esErrorType is Elasticsearch's error type for an error code: the exception
// Elasticsearch raises for the same failure where there is one, else "<code>_exception".
func esErrorType(c edge.Code) string {
	switch c {
	case edge.CodeInvalidArgument:
		return "illegal_argument_exception"
	case edge.CodeInvalidJSON:
		return "x_content_parse_exception"
	case edge.CodeInvalidQuery:
		return "parsing_exception"
	case edge.CodeUnauthorized:
		return "security_exception"
	case edge.CodeEnvironmentNotFound:
		return "index_not_found_exception"
	case edge.CodeContentNotFound, edge.CodeNotFound:
		return "resource_not_found_exception"
	}
	return string(c) + "_exception"
}

// appendESError appends Elasticsearch's error answer for e:
// {"error":{"root_cause":[{"type":T,"reason":R}],"type":T,"reason":R},"status":N}.
func appendESError(dst []byte, e *edge.Error) []byte {
	typ := esErrorType(e.Code)
	cause := func(dst []byte) []byte {
		dst = append(dst, `"type":`...)
		dst = jsonw.String(dst, typ)
		dst = append(dst, `,"reason":`...)
		return jsonw.String(dst, e.Message)
	}
	dst = append(dst, `{"error":{"root_cause":[{`...)
	dst = cause(dst)
	dst = append(dst, `}],`...)
	dst = cause(dst)
	dst = append(dst, `},"status":`...)
	dst = jsonw.Int(dst, int64(e.Status()))
	return append(dst, '}')
}

// esErrorResponse is the answer of the Elasticsearch-compatible routes for an error:
// the one place their errors are shaped.
func esErrorResponse(e *edge.Error) *edge.Response {
	return &edge.Response{
		Status:  e.Status(),
		Headers: []edge.Header{{Name: "Content-Type", Value: edge.ContentTypeJSON}, {Name: "X-Content-Type-Options", Value: "nosniff"}},
		Body:    appendESError(nil, e),
	}
}

// esParams reads the URL parameters these routes add to the search endpoint's:
// rest_total_hits_as_int prints hits.total as a number.
func esTotalAsInt(params []dsl.Param) bool {
	for _, p := range params {
		if p.Name == "rest_total_hits_as_int" {
			return p.Value == "" || p.Value == "true"
		}
	}
	return false
}

// esSearch answers /cda/es/v1/<env>/_search: the input of the search endpoint
// (searchInput), highlight allowed, answered in Elasticsearch's shape.
func esSearch(dst []byte, env *environment, req *edge.Request) ([]byte, error) {
	body, params, err := searchInput(req)
	if err != nil {
		return nil, err
	}
	dreq, err := dsl.Decode(body, dsl.Options{Schema: env.fields, Params: params, Highlight: true})
	if err != nil {
		return nil, err
	}
	return appendESSearch(dst, env, dreq, esTotalAsInt(params))
}

// esCount answers /cda/es/v1/<env>/_count: {"count":N,"_shards":{...}}.
func esCount(dst []byte, env *environment, req *edge.Request) ([]byte, error) {
	body, params, err := searchInput(req)
	if err != nil {
		return nil, err
	}
	q, err := dsl.DecodeCount(body, dsl.Options{Schema: env.fields, Params: params})
	if err != nil {
		return nil, err
	}
	res, err := env.eval.Search(&query.Search{Query: q})
	if err != nil {
		return nil, err
	}
	dst = append(dst, `{"count":`...)
	dst = jsonw.Int(dst, int64(res.Total))
	return append(dst, ","+esShards+"}"...), nil
}

// appendESSearch evaluates a decoded search and appends Elasticsearch's answer: took
// (always 0, so that answers stay byte-identical in every runtime), timed_out,
// _shards, hits (total, max_score, and per hit _index, _id = ContentID, _score,
// _source as filtered, highlight) and aggregations.
func appendESSearch(dst []byte, env *environment, dreq *dsl.Request, totalAsInt bool) ([]byte, error) {
	res, err := env.eval.Search(dreq.Search())
	if err != nil {
		return nil, err
	}
	var hl *eval.Highlighter
	if dreq.Highlight != nil && len(res.Docs) > 0 {
		if hl, err = env.eval.NewHighlighter(dreq.Query, dreq.Highlight); err != nil {
			return nil, err
		}
	}
	dst = append(dst, `{"took":0,"timed_out":false,`+esShards+`,"hits":{"total":`...)
	if totalAsInt {
		dst = jsonw.Int(dst, int64(res.Total))
	} else {
		dst = append(dst, `{"value":`...)
		dst = jsonw.Int(dst, int64(res.Total))
		dst = append(dst, `,"relation":"eq"}`...)
	}
	dst = append(dst, `,"max_score":`...)
	if len(res.Scores) > 0 {
		best := res.Scores[0]
		for _, s := range res.Scores[1:] {
			best = max(best, s)
		}
		dst = dsl.AppendScore(dst, best)
	} else {
		dst = append(dst, "null"...)
	}
	dst = append(dst, `,"hits":[`...)
	omitSource := dreq.Source != nil && dreq.Source.None && len(dreq.Source.Includes) == 0
	var frags []query.HighlightResult
	for i, doc := range res.Docs {
		start := len(dst)
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, `{"_index":`...)
		dst = append(dst, env.esIndex...)
		dst = append(dst, `,"_id":`...)
		dst = jsonw.String(dst, env.snap.ContentID(doc))
		dst = append(dst, `,"_score":`...)
		if res.Scores != nil {
			dst = dsl.AppendScore(dst, res.Scores[i])
		} else {
			dst = append(dst, "null"...)
		}
		if !omitSource {
			dst = append(dst, `,"_source":`...)
			dst = dreq.Source.Append(dst, env.snap.Item(doc), env.snap.DataEnd(doc))
		}
		if hl != nil {
			if frags, err = hl.Highlight(frags[:0], doc); err != nil {
				return nil, err
			}
			if len(frags) > 0 {
				dst = append(dst, `,"highlight":`...)
				dst = dsl.AppendHighlight(dst, frags)
			}
		}
		dst = append(dst, '}')
		if err := env.eval.CheckAnswer(len(dst), len(dst)-start); err != nil {
			return nil, err
		}
	}
	dst = append(dst, "]}"...)
	if len(dreq.Aggs) > 0 {
		if dst, err = appendAggregations(dst, env, dreq, res.Matched); err != nil {
			return nil, err
		}
	}
	return append(dst, '}'), nil
}

// appendAggregations appends ,"aggregations":{...}: over every match of the query, not
// only the page (D10), and, as in Elasticsearch, ignoring post_filter. matched is the
// search's matches (the engine reuses its result slices: the hits are written by now).
func appendAggregations(dst []byte, env *environment, dreq *dsl.Request, matched eval.DocSet) ([]byte, error) {
	if dreq.PostFilter != nil {
		all, err := env.eval.Search(&query.Search{Query: dreq.Query})
		if err != nil {
			return nil, err
		}
		matched = all.Matched
	}
	aggs, err := env.eval.Aggregate(dreq.Aggs, matched)
	if err != nil {
		return nil, err
	}
	dst = append(dst, `,"aggregations":`...)
	return dsl.AppendAggregations(dst, dreq.Aggs, aggs), nil
}

// esInfoAnswer answers GET /cda/es/v1/ with the info document.
func (r *Router) esInfoAnswer(req *edge.Request) *edge.Response {
	resp := &edge.Response{Status: 200, Headers: []edge.Header{
		{Name: "Content-Type", Value: edge.ContentTypeJSON},
		{Name: "Cache-Control", Value: r.opts.CacheControl},
	}}
	withCORS(resp)
	resp.Headers = append(resp.Headers, edge.Header{Name: "X-Content-Type-Options", Value: "nosniff"})
	if req.Method != "HEAD" {
		resp.Body = []byte(esInfo)
	}
	return resp
}

// msearchHeaderIgnored are the members of an _msearch header line that are accepted
// and change nothing.
var msearchHeaderIgnored = [...]string{
	"preference", "routing", "search_type", "request_cache", "ignore_unavailable", "allow_no_indices",
	"expand_wildcards", "ccs_minimize_roundtrips", "allow_partial_search_results", "ignore_throttled",
	"max_concurrent_shard_requests", "pre_filter_shard_size",
}

// msearch answers _msearch, at /cda/es/v1/<env>/_msearch (pathEnv, the default index)
// and at /cda/es/v1/_msearch (pathEnv ""): NDJSON pairs of a header line (naming the
// index, i.e. the environment) and a search body line. Each search answers on its own,
// an error as Elasticsearch's error object, inside
// {"took":0,"responses":[...]}; a malformed body fails the whole request.
func (r *Router) msearch(req *edge.Request, pathEnv string) *edge.Response {
	raw, perr := edge.ParseParams(req.RawQuery)
	if perr != nil {
		return esErrorResponse(edge.AsError(perr))
	}
	var params []dsl.Param
	for _, p := range raw {
		params = append(params, dsl.Param{Name: p.Name, Value: p.Value})
	}
	asInt := esTotalAsInt(params)
	dst := append(r.body(), `{"took":0,"responses":[`...)
	var used []*environment
	preview := false
	body := string(req.Body)
	line := 0
	next := func() (string, bool) {
		if body == "" {
			return "", false
		}
		l, rest, _ := strings.Cut(body, "\n")
		body = rest
		line++
		return strings.TrimSuffix(l, "\r"), true
	}
	for n := 0; ; n++ {
		header, ok := next()
		if !ok {
			break
		}
		envID, herr := msearchIndex(header, line, pathEnv)
		if herr != nil {
			return esErrorResponse(herr)
		}
		search, ok := next()
		if !ok {
			return esErrorResponse(edge.Errorf(edge.CodeInvalidArgument, "the header on line %d has no search body line after it", line))
		}
		if n > 0 {
			dst = append(dst, ',')
		}
		start := len(dst)
		env, err := r.msearchEnv(envID, req)
		if env != nil && err == nil {
			if !containsEnv(used, env) {
				env.eval.BeginRequest()
				used = append(used, env)
				preview = preview || env.snap.Preview()
			}
			var dreq *dsl.Request
			if dreq, err = dsl.Decode(search, dsl.Options{Schema: env.fields, Highlight: true}); err == nil {
				var out []byte
				if out, err = appendESSearch(dst, env, dreq, asInt); err == nil {
					dst = out
				}
			}
		}
		if err != nil {
			dst = appendESError(dst[:start], edge.AsError(err))
		} else {
			dst = append(dst[:len(dst)-1], `,"status":200}`...)
		}
	}
	dst = append(dst, "]}"...)
	if max := r.opts.MaxResponseBytes; max > 0 && len(dst)-r.opts.BodyHeadroom > max {
		return esErrorResponse(edge.Errorf(edge.CodeTooComplex, "the answer would be larger than %d bytes (the response size limit); ask for fewer items, a smaller page or fewer fields", max))
	}
	r.buf = dst
	var sc scope
	for i, env := range used {
		if i == 0 {
			sc.hash = env.hash
		} else {
			sc.variant += string(env.hash[:])
		}
	}
	sc.preview = preview
	var steps int64
	for _, env := range used {
		steps += env.eval.Steps()
	}
	return withSteps(r.answer(sc, req, RouteESMsearch, dst[r.opts.BodyHeadroom:]), steps)
}

// msearchIndex reads an _msearch header line (blank is {}): the environment its index
// names, or pathEnv.
func msearchIndex(header string, line int, pathEnv string) (string, *edge.Error) {
	if strings.TrimSpace(header) == "" {
		return pathEnv, nil
	}
	if !jsonr.Valid(header) {
		return "", edge.Errorf(edge.CodeInvalidJSON, "the header on line %d is not valid JSON", line)
	}
	v := jsonr.Parse(header)
	if !v.IsObject() {
		return "", edge.Errorf(edge.CodeInvalidArgument, "the header on line %d must be a JSON object", line)
	}
	envID := pathEnv
	var err *edge.Error
	v.ForEach(func(k, val jsonr.Result) bool {
		switch {
		case k.Str == "index":
			if val.IsArray() && len(val.Array()) == 1 {
				val = val.Array()[0]
			}
			if val.Type != jsonr.String || strings.ContainsAny(val.Str, ",*") {
				err = edge.Errorf(edge.CodeInvalidArgument, "the header on line %d must name one environment as its index", line)
				return false
			}
			envID = val.Str
		case inList(msearchHeaderIgnored[:], k.Str):
		default:
			err = edge.Errorf(edge.CodeInvalidArgument, "key [%s] is not supported in the metadata section (line %d)", edge.Clip(k.Str), line)
			return false
		}
		return true
	})
	if err == nil && envID == "" {
		err = edge.Errorf(edge.CodeInvalidArgument, "the header on line %d names no index: give {\"index\":\"<environment>\"}", line)
	}
	return envID, err
}

// msearchEnv is the environment one search of an _msearch names, with the access a
// preview environment requires (D3).
func (r *Router) msearchEnv(envID string, req *edge.Request) (*environment, error) {
	env := r.envs[envID]
	if env == nil {
		return nil, edge.Errorf(edge.CodeEnvironmentNotFound, "environment %q not found", edge.Clip(envID))
	}
	if env.snap.Preview() {
		if e := r.authorize(envID, req); e != nil {
			return nil, e
		}
	}
	return env, nil
}

func containsEnv(list []*environment, env *environment) bool {
	for _, e := range list {
		if e == env {
			return true
		}
	}
	return false
}

func inList(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
