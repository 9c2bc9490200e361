package router

// Routes lists every route of the API (not RouteNone), in declaration order, so that
// documents describing the API (the host's OpenAPI document) can be checked against the
// route table.
func Routes() []Route {
	rs := make([]Route, 0, len(routeNames)-1)
	for rt := Route(1); int(rt) < len(routeNames); rt++ {
		rs = append(rs, rt)
	}
	return rs
}
