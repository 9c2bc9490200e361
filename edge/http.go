package edge

import (
	"strconv"
	"strings"
)

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

// AnswerHeaders are the request headers an answer depends on, besides If-None-Match
// (which only turns a 200 into a 304, see IfNoneMatch): the router reads no other. With
// the method, path, query string and body they identify an answer, so a cache of
// answers keys on them. A test of the router checks that it reads no header missing here.
var AnswerHeaders = [...]string{"Accept", "Access-Control-Request-Headers", "Authorization", "Content-Type"}

// IfNoneMatch reports whether an If-None-Match value lists etag, or is "*": the
// comparison is weak (a W/ prefix is ignored), as RFC 9110 has it for If-None-Match.
func IfNoneMatch(value, etag string) bool {
	for value != "" {
		var tag string
		tag, value, _ = strings.Cut(value, ",")
		tag = strings.TrimSpace(tag)
		tag = strings.TrimPrefix(tag, "W/")
		if tag == "*" || tag == etag {
			return true
		}
	}
	return false
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

// EachQuality calls fn for every element of an HTTP quality list (Accept,
// Accept-Encoding: "a;q=0.5, b") with its lower-cased, trimmed name and its quality:
// 1 when the element states none, 0 when its q is not a number from 0 to 1 (RFC 9110
// §12.4.2: a malformed weight refuses rather than prefers).
func EachQuality(header string, fn func(name string, q float64)) {
	for header != "" {
		var item string
		item, header, _ = strings.Cut(header, ",")
		name, params, _ := strings.Cut(item, ";")
		q := 1.0
		for params != "" {
			var p string
			p, params, _ = strings.Cut(params, ";")
			k, v, _ := strings.Cut(strings.TrimSpace(p), "=")
			if strings.EqualFold(strings.TrimSpace(k), "q") {
				f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
				if err != nil || f < 0 || f > 1 {
					f = 0
				}
				q = f
			}
		}
		fn(strings.ToLower(strings.TrimSpace(name)), q)
	}
}
