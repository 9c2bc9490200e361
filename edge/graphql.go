package edge

// graphQL answers POST/GET /cda/graphql/v1/<env> (spec §3, decisions D9).
func (r *Router) graphQL(dst []byte, env *environment, req *Request) ([]byte, error) {
	return nil, Errorf(CodeNotFound, "the GraphQL endpoint is not available yet")
}

// graphQLSchema answers GET /cda/graphql/v1/<env>/schema.graphql with the SDL.
func (r *Router) graphQLSchema(dst []byte, env *environment, req *Request) ([]byte, error) {
	return nil, Errorf(CodeNotFound, "the GraphQL schema is not available yet")
}
