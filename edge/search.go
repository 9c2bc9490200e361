package edge

// search answers POST/GET /cda/es/v1/<env> (spec §4, decisions D10).
func (r *Router) search(dst []byte, env *environment, req *Request) ([]byte, error) {
	return nil, Errorf(CodeNotFound, "the search endpoint is not available yet")
}

// validateQuery answers /cda/es/v1/<env>/_validate/query (decisions D10).
func (r *Router) validateQuery(dst []byte, env *environment, req *Request) ([]byte, error) {
	return nil, Errorf(CodeNotFound, "the validate endpoint is not available yet")
}
