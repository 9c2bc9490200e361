package graphql

import (
	"errors"
	"strings"

	"github.com/cdaedge/cdaedge/edge"
	"github.com/cdaedge/cdaedge/edge/jsonw"
)

// The two modes of the GraphQL endpoint (API.md D9, "Modes"):
//
//   - The envelope mode, the default: the API envelope of D8, {"status":200,"data":...,
//     "totalItems":N}, with data the value of the root field; errors carry the envelope
//     and GraphQL's errors. Existing callers (plain fetch reading data[0]) rely on it.
//   - The standard mode, GraphQL over HTTP: {"data":{"content":[...]}} keyed by the
//     response key (the alias), every selected field present (null when absent), and
//     {"errors":[...]} with the status codes the GraphQL-over-HTTP specification gives
//     for the media type of the answer.
//
// A request is in the standard mode when its Accept header lists
// application/graphql-response+json (what Apollo Client, urql, graphql-request and
// GraphQL Code Generator send), or when its URL says ?mode=standard (for clients that do
// not); ?mode=envelope keeps the envelope mode whatever Accept says. In the standard
// mode the answer is application/graphql-response+json unless Accept prefers
// application/json (or */*), as the specification asks.

// ContentTypeGraphQLResponse is the media type of the standard mode's answers when the
// client accepts it.
const ContentTypeGraphQLResponse = "application/graphql-response+json; charset=utf-8"

// Format is how one GraphQL request is answered.
type Format struct {
	// Standard is the standard mode; false is the envelope mode.
	Standard bool
	// GraphQLResponse: the standard mode's answer is application/graphql-response+json
	// (false: application/json, whose errors answer 200).
	GraphQLResponse bool
}

// ContentType is the Content-Type of a successful answer in this format.
func (f Format) ContentType() string {
	if f.Standard && f.GraphQLResponse {
		return ContentTypeGraphQLResponse
	}
	return edge.ContentTypeJSON
}

// Variant names the representation for the ETag: "" in the envelope mode, whose tags
// stay what they were before the standard mode existed.
func (f Format) Variant() string {
	switch {
	case !f.Standard:
		return ""
	case f.GraphQLResponse:
		return "standard+graphql-response"
	}
	return "standard+json"
}

// Negotiate reads the format of a request to a GraphQL route: ?mode= first, then
// Accept. A mode parameter other than standard or envelope, or given twice, is a 400.
func Negotiate(req *edge.Request) (Format, *edge.Error) {
	var f Format
	mode, err := modeParam(req.RawQuery)
	if err != nil {
		return f, err
	}
	qGQL, qJSON, present := acceptQualities(edge.HeaderValue(req.Headers, "Accept"))
	switch mode {
	case "standard":
		f.Standard = true
	case "envelope":
		return f, nil
	default:
		f.Standard = qGQL > 0
	}
	// The answer is application/graphql-response+json unless the client prefers
	// application/json (or accepts only it); with no Accept at all, the specification's
	// default since 2025 is application/graphql-response+json.
	f.GraphQLResponse = !present || qGQL > 0 && qGQL >= qJSON || qJSON <= 0
	return f, nil
}

// modeParam returns the value of ?mode= ("" when absent).
func modeParam(rawQuery string) (string, *edge.Error) {
	if !strings.Contains(rawQuery, "mode") {
		return "", nil
	}
	params, err := edge.ParseParams(rawQuery)
	if err != nil {
		return "", edge.AsError(err)
	}
	mode, seen := "", false
	for _, p := range params {
		if p.Name != "mode" {
			continue
		}
		if seen {
			return "", edge.Errorf(edge.CodeInvalidArgument, "query parameter \"mode\" is given more than once")
		}
		seen, mode = true, p.Value
		if mode != "standard" && mode != "envelope" {
			return "", edge.Errorf(edge.CodeInvalidArgument, "mode must be standard (GraphQL over HTTP) or envelope (the API envelope), not %q", edge.Clip(mode))
		}
	}
	return mode, nil
}

// acceptQualities reads an Accept header: the quality of
// application/graphql-response+json (named explicitly; -1 when not named) and of
// application/json (or the most specific wildcard that covers it; -1 when none does).
func acceptQualities(accept string) (qGQL, qJSON float64, present bool) {
	qGQL, qJSON = -1, -1
	qApp, qAny := -1.0, -1.0
	present = strings.TrimSpace(accept) != ""
	edge.EachQuality(accept, func(name string, q float64) {
		switch name {
		case "application/graphql-response+json":
			qGQL = max(qGQL, q)
		case "application/json":
			qJSON = max(qJSON, q)
		case "application/*":
			qApp = max(qApp, q)
		case "*/*":
			qAny = max(qAny, q)
		}
	})
	if qJSON < 0 {
		qJSON = qApp
	}
	if qJSON < 0 {
		qJSON = qAny
	}
	return qGQL, qJSON, present
}

// malformed marks the errors of a request that is not a well-formed GraphQL-over-HTTP
// request (a body that is not JSON, no document, variables that are not an object): in
// the standard mode's application/json form they answer 400, where GraphQL's own errors
// answer 200.
type malformed struct{ cause error }

func (m *malformed) Error() string { return "not a well-formed GraphQL-over-HTTP request" }
func (m *malformed) Unwrap() error { return m.cause }

// markMalformed marks e (see malformed) and returns it.
func markMalformed(e *edge.Error) *edge.Error {
	if e != nil {
		e.Err = &malformed{cause: e.Err}
	}
	return e
}

// StandardError is the standard mode's answer to a GraphQL request that failed with e:
// {"errors":[...]} with e's status as application/graphql-response+json, or with 200 as
// application/json. It is nil when req is in the envelope mode, and for the
// application/json form of an error that is not GraphQL's own (a malformed request, a
// missing environment, an internal failure): those keep the envelope, whose status is
// not 200 and whose body, the specification says, clients must not rely on.
func StandardError(req *edge.Request, e *edge.Error) *edge.Response {
	f, err := Negotiate(req)
	if err != nil || !f.Standard {
		return nil
	}
	status := e.Status()
	if !f.GraphQLResponse {
		var m *malformed
		switch {
		case errors.As(e, &m):
			return nil
		case e.Code == edge.CodeInvalidQuery || e.Code == edge.CodeInvalidArgument || e.Code == edge.CodeTooComplex:
			status = 200
		default:
			return nil
		}
	}
	return &edge.Response{
		Status:  status,
		Headers: []edge.Header{{Name: "Content-Type", Value: f.ContentType()}, {Name: "X-Content-Type-Options", Value: "nosniff"}},
		Body:    AppendErrorResult(nil, e),
	}
}

// AppendErrorResult appends the GraphQL response of a request that failed:
// {"errors":[{"message":...,"locations":[...],"extensions":{"code":...}}]}.
func AppendErrorResult(dst []byte, e *edge.Error) []byte {
	dst = append(dst, `{"errors":`...)
	dst = AppendErrorList(dst, e)
	return append(dst, '}')
}

// AppendErrorList appends GraphQL's form of an error (D8), a list of one:
// [{"message":..,"locations":[{"line":L,"column":C}],"extensions":{"code":..}}];
// locations only when the error has a place in the document.
func AppendErrorList(dst []byte, e *edge.Error) []byte {
	dst = append(dst, `[{"message":`...)
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
