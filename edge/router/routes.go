package router

import (
	"strings"

	"github.com/cdaedge/cdaedge/edge"
)

// Route is what a request path names: one endpoint of the API (API.md, "Endpoints").
type Route uint8

// The routes of the API. RouteNone is any other path.
const (
	RouteNone Route = iota
	RouteRESTList
	RouteRESTItem
	RouteGraphQL
	RouteGraphQLSchema
	RouteSearch
	RouteValidate
	// The Elasticsearch-compatible routes (es.go): the info document at the search base
	// path, and _search, _count and _msearch (also at the base path, env "").
	RouteESInfo
	RouteESSearch
	RouteESCount
	RouteESMsearch
)

// routeNames are the routes' names in logs and metric labels.
var routeNames = [...]string{
	RouteNone:          "other",
	RouteRESTList:      "rest.list",
	RouteRESTItem:      "rest.item",
	RouteGraphQL:       "graphql",
	RouteGraphQLSchema: "graphql.schema",
	RouteSearch:        "es.search",
	RouteValidate:      "es.validate",
	RouteESInfo:        "es.info",
	RouteESSearch:      "es._search",
	RouteESCount:       "es._count",
	RouteESMsearch:     "es._msearch",
}

// String is the route's name for logs and metric labels ("rest.list", "graphql", ...;
// "other" for RouteNone).
func (rt Route) String() string { return routeNames[rt] }

// Allowed lists the route's methods, for 405 answers and CORS preflight (D11).
func (rt Route) Allowed() string {
	switch rt {
	case RouteRESTList, RouteRESTItem, RouteGraphQLSchema, RouteESInfo:
		return "GET, HEAD, OPTIONS"
	case RouteGraphQL, RouteSearch, RouteValidate, RouteESSearch, RouteESCount, RouteESMsearch:
		return "GET, HEAD, POST, OPTIONS"
	}
	return ""
}

// Allows reports whether the route answers method.
func (rt Route) Allows(method string) bool {
	for rest := rt.Allowed(); rest != ""; {
		var m string
		m, rest, _ = strings.Cut(rest, ", ")
		if m == method {
			return true
		}
	}
	return false
}

// action is the last path segment of an Elasticsearch-compatible route.
func (rt Route) action() string {
	name := rt.String()
	return name[strings.LastIndexByte(name, '.')+1:]
}

// contentType is the media type of the route's successful answers.
func (rt Route) contentType() string {
	if rt == RouteGraphQLSchema {
		return "application/graphql; charset=utf-8"
	}
	return edge.ContentTypeJSON
}

// Classify maps an escaped request path to its route and the environment id it names
// (unescaped). It is the one route table: the router dispatches on it and the host
// labels its logs and metrics with it. Any other path is RouteNone with no environment.
func Classify(path string) (Route, string) {
	rt, env, _ := parsePath(path)
	return rt, env
}

// parsePath maps an escaped request path to a route and environment id. Segments are
// unescaped one by one after splitting, so an escaped slash (%2F) never crosses a
// segment boundary.
func parsePath(path string) (Route, string, *edge.Error) {
	if !strings.HasPrefix(path, "/cda/") {
		return RouteNone, "", routeNotFound(path)
	}
	var segs [8]string
	n := 0
	for rest := path[1:]; ; {
		seg, tail, more := strings.Cut(rest, "/")
		if n == len(segs) {
			return RouteNone, "", routeNotFound(path)
		}
		u, ok := edge.Unescape(seg, false)
		if !ok {
			return RouteNone, "", edge.Errorf(edge.CodeNotFound, "no such route: malformed escape in %s", edge.Clip(path))
		}
		segs[n] = u
		n++
		if !more {
			break
		}
		rest = tail
	}
	s := segs[:n]
	if len(s) >= 3 && s[1] == "es" && s[2] == "v1" && (len(s) == 3 || len(s) == 4 && s[3] == "") {
		return RouteESInfo, "", nil
	}
	if len(s) < 4 || s[2] != "v1" || s[3] == "" {
		return RouteNone, "", routeNotFound(path)
	}
	env := s[3]
	switch s[1] {
	case "rest":
		switch {
		case len(s) == 5 && s[4] == "contents":
			return RouteRESTList, env, nil
		case len(s) == 6 && s[4] == "contents" && s[5] != "":
			return RouteRESTItem, env, nil
		}
	case "graphql":
		switch {
		case len(s) == 4:
			return RouteGraphQL, env, nil
		case len(s) == 5 && s[4] == "schema.graphql":
			return RouteGraphQLSchema, env, nil
		}
	case "es":
		switch {
		case len(s) == 4 && s[3] == "_msearch":
			// Environment ids never start with "_" (D1): this is the base path's
			// _msearch, whose searches name their environments.
			return RouteESMsearch, "", nil
		case len(s) == 4 && s[3] == "_search":
			return RouteESSearch, "", nil
		case len(s) == 4 && s[3] == "_count":
			return RouteESCount, "", nil
		case len(s) == 5 && s[4] == "_search":
			return RouteESSearch, env, nil
		case len(s) == 5 && s[4] == "_count":
			return RouteESCount, env, nil
		case len(s) == 5 && s[4] == "_msearch":
			return RouteESMsearch, env, nil
		case len(s) == 4:
			return RouteSearch, env, nil
		case len(s) == 6 && s[4] == "_validate" && s[5] == "query":
			return RouteValidate, env, nil
		}
	}
	return RouteNone, "", routeNotFound(path)
}

// routeNotFound is parsePath's error for a path that names no route, made only when
// one does not (formatting it for every request cost every request two allocations).
func routeNotFound(path string) *edge.Error {
	return edge.Errorf(edge.CodeNotFound, "no such route: %s", edge.Clip(path))
}
