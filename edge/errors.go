package edge

import (
	"errors"
	"strconv"

	"github.com/cdaedge/cdaedge/edge/jsonw"
)

// Code is an error code of the API's one error vocabulary (API.md D8).
type Code string

// The error codes of API.md D8. Status maps each to its HTTP status; nothing else in the
// engine chooses a status for an error.
const (
	CodeInvalidArgument     Code = "invalid_argument"
	CodeInvalidJSON         Code = "invalid_json"
	CodeInvalidQuery        Code = "invalid_query"
	CodeUnauthorized        Code = "unauthorized"
	CodeEnvironmentNotFound Code = "environment_not_found"
	CodeContentNotFound     Code = "content_not_found"
	CodeNotFound            Code = "not_found"
	CodeMethodNotAllowed    Code = "method_not_allowed"
	CodePayloadTooLarge     Code = "payload_too_large"
	CodeURITooLong          Code = "uri_too_long"
	CodeTooComplex          Code = "too_complex"
	CodeInternal            Code = "internal"
	// CodeRequestTimeout and CodeUnavailable come from a runtime's HTTP layer, never from
	// the router: a request body that did not arrive within the read timeout, and a
	// server at its connection or in-flight request limit (answered with Retry-After).
	CodeRequestTimeout Code = "request_timeout"
	CodeUnavailable    Code = "unavailable"
)

// Status is the HTTP status of the code: the one place that maps the error vocabulary
// to HTTP statuses (API.md D8). An unknown code is a 500.
func (c Code) Status() int {
	switch c {
	case CodeInvalidArgument, CodeInvalidJSON, CodeInvalidQuery, CodeTooComplex:
		return 400
	case CodeUnauthorized:
		return 401
	case CodeEnvironmentNotFound, CodeContentNotFound, CodeNotFound:
		return 404
	case CodeMethodNotAllowed:
		return 405
	case CodePayloadTooLarge:
		return 413
	case CodeURITooLong:
		return 414
	case CodeRequestTimeout:
		return 408
	case CodeUnavailable:
		return 503
	default:
		return 500
	}
}

// Error is the engine's one error type: a code from the vocabulary and one clear
// sentence, optionally placed in the request's query text and wrapping its cause.
// Every package of the engine returns an *Error or wraps one with %w; the router finds it
// with errors.As (AsError), so a wrapped error keeps its code and position.
type Error struct {
	Code    Code
	Message string
	// Line and Column are the 1-based position in a GraphQL document the error refers
	// to (0 when not positional); the GraphQL form of the error carries them.
	Line, Column int
	// Offset is the 0-based byte offset in the search body (invalid JSON) or in a
	// query_string (syntax errors) the error refers to; -1 when it is not positional.
	// Errorf and Wrap set it to -1.
	Offset int
	// Err is the underlying cause, when a lower layer failed (nil otherwise).
	Err error
}

// Error returns the message.
func (e *Error) Error() string { return e.Message }

// Unwrap returns the cause, so errors.Is and errors.As see through an *Error.
func (e *Error) Unwrap() error { return e.Err }

// Status is the HTTP status of the error's code.
func (e *Error) Status() int { return e.Code.Status() }

// AsError returns the *Error in err's chain, or an internal error when there is none:
// a failure that is not one of ours is never shown to a client as it is.
func AsError(err error) *Error {
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	return &Error{Code: CodeInternal, Message: "internal error", Offset: -1, Err: err}
}

// Wrap returns an *Error with code whose message is format with its verbs replaced by
// args (as Errorf), wrapping cause.
func Wrap(cause error, code Code, format string, args ...any) *Error {
	e := Errorf(code, format, args...)
	e.Err = cause
	return e
}

// Errorf returns an *Error whose message is format with its verbs replaced by args.
// It understands the verbs the engine's messages use, with fmt's meaning: %s, %v and %d
// (strings, integers, floats, booleans, errors and Stringers), %q (strings, quoted with
// Go escapes) and %%. The engine formats without fmt, which would cost the wasm module
// about 30 KB; TestErrorfVerbs keeps every call site to these verbs.
func Errorf(code Code, format string, args ...any) *Error {
	return &Error{Code: code, Message: formatMessage(format, args), Offset: -1}
}

// formatMessage is Errorf's formatter. A verb it does not know, or one with no argument
// left, is written as fmt would flag it ("%!x(...)") rather than dropped.
func formatMessage(format string, args []any) string {
	b := make([]byte, 0, len(format)+16*len(args))
	next := 0
	for i := 0; i < len(format); i++ {
		c := format[i]
		if c != '%' || i+1 == len(format) {
			b = append(b, c)
			continue
		}
		i++
		verb := format[i]
		if verb == '%' {
			b = append(b, '%')
			continue
		}
		if next >= len(args) {
			b = append(b, "%!"...)
			b = append(b, verb)
			b = append(b, "(MISSING)"...)
			continue
		}
		b = appendArg(b, verb, args[next])
		next++
	}
	return string(b)
}

// appendArg appends arg formatted for verb (s, v, d or q).
func appendArg(b []byte, verb byte, arg any) []byte {
	if verb == 'q' {
		if s, ok := arg.(string); ok {
			return strconv.AppendQuote(b, s)
		}
	} else if verb == 's' || verb == 'v' || verb == 'd' {
		switch a := arg.(type) {
		case string:
			return append(b, a...)
		case int:
			return strconv.AppendInt(b, int64(a), 10)
		case int64:
			return strconv.AppendInt(b, a, 10)
		case int32:
			return strconv.AppendInt(b, int64(a), 10)
		case uint32:
			return strconv.AppendUint(b, uint64(a), 10)
		case uint64:
			return strconv.AppendUint(b, a, 10)
		case float32:
			return strconv.AppendFloat(b, float64(a), 'g', -1, 32)
		case float64:
			return strconv.AppendFloat(b, a, 'g', -1, 64)
		case bool:
			return strconv.AppendBool(b, a)
		case error:
			return append(b, a.Error()...)
		case interface{ String() string }:
			return append(b, a.String()...)
		}
	}
	b = append(b, "%!"...)
	b = append(b, verb)
	return append(b, "(unsupported)"...)
}

// AppendErrorEnvelope appends {"status":N,"error":{"code":...,"message":...}} (API.md D8).
func AppendErrorEnvelope(dst []byte, e *Error) []byte {
	dst = append(dst, `{"status":`...)
	dst = jsonw.Int(dst, int64(e.Status()))
	dst = append(dst, `,"error":{"code":`...)
	dst = jsonw.String(dst, string(e.Code))
	dst = append(dst, `,"message":`...)
	dst = jsonw.String(dst, e.Message)
	return append(dst, "}}"...)
}

// ErrorResponse builds the API.md D8 error envelope response for code, for runtimes that
// must answer before the router sees a request (a body over the limit, a trapped
// instance). It allows any origin to read it, so browser clients see the error (D11).
func ErrorResponse(code Code, message string) *Response {
	resp := NewErrorResponse(&Error{Code: code, Message: message})
	resp.Headers = append(resp.Headers, Header{"Access-Control-Allow-Origin", "*"})
	return resp
}

// NewErrorResponse is the response carrying e's envelope, with the headers every error
// answer has.
func NewErrorResponse(e *Error) *Response {
	return &Response{
		Status:  e.Status(),
		Headers: []Header{{"Content-Type", ContentTypeJSON}, {"X-Content-Type-Options", "nosniff"}},
		Body:    AppendErrorEnvelope(nil, e),
	}
}

// ContentTypeJSON is the Content-Type of every JSON answer (API.md D8).
const ContentTypeJSON = "application/json; charset=utf-8"
