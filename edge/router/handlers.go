package router

import (
	"strings"

	"github.com/cdaedge/cdaedge/edge"
	"github.com/cdaedge/cdaedge/edge/dsl"
	"github.com/cdaedge/cdaedge/edge/graphql"
	"github.com/cdaedge/cdaedge/edge/jsonw"
	"github.com/cdaedge/cdaedge/edge/query"
	"github.com/cdaedge/cdaedge/edge/rest"
)

// restList answers GET /cda/rest/v1/<env>/contents (API.md, "REST: list content items").
func restList(dst []byte, env *environment, req *edge.Request) ([]byte, error) {
	s, err := rest.ParseList(req.RawQuery, env.fields)
	if err != nil {
		return nil, err
	}
	res, err := env.eval.Search(s)
	if err != nil {
		return nil, err
	}
	dst = append(dst, `{"status":200,"data":[`...)
	for i, doc := range res.Docs {
		if i > 0 {
			dst = append(dst, ',')
		}
		item := env.snap.Item(doc)
		dst = append(dst, item...)
		if err := env.eval.CheckAnswer(len(dst), len(item)); err != nil {
			return nil, err
		}
	}
	dst = append(dst, `],"totalItems":`...)
	dst = jsonw.Int(dst, int64(res.Total))
	return append(dst, '}'), nil
}

// restItem answers GET /cda/rest/v1/<env>/contents/<id> (API.md, "REST: get one item").
func restItem(dst []byte, env *environment, req *edge.Request) ([]byte, error) {
	_, id, _ := strings.Cut(strings.TrimPrefix(req.Path, "/cda/rest/v1/"), "/contents/")
	id, _ = edge.Unescape(id, false)
	doc, ok := env.snap.Lookup(id)
	if !ok {
		return nil, edge.Errorf(edge.CodeContentNotFound, "content item %q not found", edge.Clip(id))
	}
	dst = append(dst, `{"status":200,"data":`...)
	dst = append(dst, env.snap.Item(doc)...)
	return append(dst, '}'), nil
}

// graphQL answers POST/GET /cda/graphql/v1/<env> (API.md D9), in the envelope or the
// standard mode.
func graphQL(dst []byte, env *environment, req *edge.Request) ([]byte, error) {
	return graphql.Execute(dst, env.gql, env.eval, req)
}

// graphQLSchema answers GET /cda/graphql/v1/<env>/schema.graphql with the SDL of the
// request's mode (D9).
func graphQLSchema(dst []byte, env *environment, req *edge.Request) ([]byte, error) {
	f, err := graphql.Negotiate(req)
	if err != nil {
		return nil, err
	}
	return graphql.AppendSDL(dst, env.gql, f.Standard), nil
}

// search answers POST/GET /cda/es/v1/<env> (API.md "Search: query content", D7, D10, D11, D12): the
// body (or GET ?source=, or ?q=) is decoded by package dsl, evaluated by the engine,
// and answered as {"status":200,"data":[...],"totalItems":N[,"aggregations":{...}]}.
func search(dst []byte, env *environment, req *edge.Request) ([]byte, error) {
	body, params, err := searchInput(req)
	if err != nil {
		return nil, err
	}
	schema := env.fields
	dreq, derr := dsl.Decode(body, dsl.Options{Schema: schema, Params: params})
	if derr != nil {
		return nil, derr
	}
	res, err := env.eval.Search(dreq.Search())
	if err != nil {
		return nil, err
	}
	dst = append(dst, `{"status":200,"data":[`...)
	for i, doc := range res.Docs {
		if i > 0 {
			dst = append(dst, ',')
		}
		start := len(dst)
		dst = dreq.Source.Append(dst, env.snap.Item(doc), env.snap.DataEnd(doc))
		if err := env.eval.CheckAnswer(len(dst), len(dst)-start); err != nil {
			return nil, err
		}
	}
	dst = append(dst, `],"totalItems":`...)
	dst = jsonw.Int(dst, int64(res.Total))
	if len(dreq.Aggs) > 0 {
		// Aggregations cover every match of the query, not only the page (D10), and,
		// as in Elasticsearch, ignore post_filter. (res.Docs is not used past here:
		// the engine reuses it.)
		matched := res.Matched
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
		dst = dsl.AppendAggregations(dst, dreq.Aggs, aggs)
	}
	return append(dst, '}'), nil
}

// validateQuery answers /cda/es/v1/<env>/_validate/query (API.md D10): with
// ?explain=true, the query printed in Lucene's Query.toString() notation with every
// field named; a query that does not compile answers valid:false with the error. A body
// that is not JSON is still a 400 invalid_json (D8).
func validateQuery(dst []byte, env *environment, req *edge.Request) ([]byte, error) {
	body, params, err := searchInput(req)
	if err != nil {
		return nil, err
	}
	explain := false
	for _, p := range params {
		if p.Name == "explain" {
			explain = p.Value == "" || strings.EqualFold(p.Value, "true")
		}
	}
	q, derr := dsl.DecodeQuery(body, dsl.Options{Schema: env.fields, Params: params})
	if derr != nil {
		e := edge.AsError(derr)
		if e.Code == edge.CodeInvalidJSON {
			return nil, derr
		}
		dst = append(dst, `{"status":200,"valid":false`...)
		if explain {
			dst = append(dst, `,"error":`...)
			dst = jsonw.String(dst, e.Message)
		}
		return append(dst, '}'), nil
	}
	dst = append(dst, `{"status":200,"valid":true`...)
	if explain {
		dst = append(dst, `,"explanation":`...)
		dst = jsonw.String(dst, q.String())
	}
	return append(dst, '}'), nil
}

// searchInput returns the search body and the URL parameters (D11): a GET (or HEAD)
// takes its body from ?source= when given, as Elasticsearch does; a POST takes the
// request body, and ?source= only when the body is blank.
func searchInput(req *edge.Request) (string, []dsl.Param, error) {
	raw, err := edge.ParseParams(req.RawQuery)
	if err != nil {
		return "", nil, err
	}
	body := string(req.Body)
	params := make([]dsl.Param, 0, len(raw))
	sourceSeen := false
	for _, p := range raw {
		switch p.Name {
		case "source":
			if sourceSeen {
				return "", nil, edge.Errorf(edge.CodeInvalidArgument, "query parameter \"source\" is given more than once")
			}
			sourceSeen = true
			if strings.TrimSpace(body) != "" {
				return "", nil, edge.Errorf(edge.CodeInvalidArgument, "give the search either as the request body or as ?source=, not both")
			}
			body = p.Value
		case "source_content_type":
			if !strings.HasPrefix(p.Value, "application/json") {
				return "", nil, edge.Errorf(edge.CodeInvalidArgument, "source_content_type must be application/json, not %q", edge.Clip(p.Value))
			}
		default:
			params = append(params, dsl.Param{Name: p.Name, Value: p.Value})
		}
	}
	return body, params, nil
}
