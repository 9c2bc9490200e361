package edge

import "strings"

// Header is one HTTP header field. Names are compared case-insensitively.
type Header struct {
	Name  string
	Value string
}

// Request is one HTTP request as the router sees it, independent of any HTTP library so
// that every runtime (native host, wasm module, edge worker) hands over the same thing.
type Request struct {
	Method   string
	Path     string // the escaped path, as sent on the request line (no query)
	RawQuery string // the query string without '?', still escaped
	Headers  []Header
	Body     []byte
}

// Response is the router's answer: status, headers in a fixed order, and the body.
type Response struct {
	Status  int
	Headers []Header
	Body    []byte
}

// HeaderValue returns the value of the first header called name (case-insensitively), or
// "" when there is none.
func HeaderValue(hs []Header, name string) string {
	for _, h := range hs {
		if strings.EqualFold(h.Name, name) {
			return h.Value
		}
	}
	return ""
}

// Request limits of API.md D11 that every runtime enforces before a request reaches the
// engine (413 and 414 answers).
const (
	DefaultMaxBodyBytes = 1 << 20
	DefaultMaxURLBytes  = 8 << 10
)

// DefaultMaxResponseBytes bounds one answer's body (API.md D11): a request whose answer
// would be larger gets 400 too_complex naming the limit, decided while the answer is
// built, so that no request makes the engine hold an answer of unbounded size.
const DefaultMaxResponseBytes = 32 << 20
