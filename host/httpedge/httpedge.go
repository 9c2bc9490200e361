// Package httpedge adapts net/http to the engine: it turns an *http.Request into an
// edge.Request exactly as the edge workers do, asks an Engine, and writes the
// edge.Response back.
package httpedge

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"sort"
	"strconv"
	"strings"

	"github.com/cdaedge/cdaedge/edge"
	"github.com/cdaedge/cdaedge/host/compress"
)

// Engine answers edge requests: the wasm pool or a pool of native routers. An error
// means no answer; the client gets a 500 `internal` error (D8).
type Engine interface {
	Serve(ctx context.Context, req *edge.Request) (*edge.Response, error)
}

// Options configures the handler. The zero value gives the defaults.
type Options struct {
	// MaxBodyBytes bounds a request body (413 `payload_too_large` above it, D11); zero
	// means edge.DefaultMaxBodyBytes (1 MiB).
	MaxBodyBytes int64
	// Logger receives engine failures; nil discards them.
	Logger *slog.Logger
	// Compressor, when set, compresses answers for clients that ask (Accept-Encoding).
	Compressor *compress.Compressor
}

// NewHandler returns an http.Handler answering every request through e.
func NewHandler(e Engine, opts Options) http.Handler {
	if opts.MaxBodyBytes <= 0 {
		opts.MaxBodyBytes = edge.DefaultMaxBodyBytes
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	return &handler{engine: e, opts: opts}
}

type handler struct {
	engine Engine
	opts   Options
}

// maxDrain is how much of an oversized body is read and dropped before answering 413.
const maxDrain = 16 << 20

// errTooLarge means the request body is over the limit.
var errTooLarge = errors.New("request body too large")

func (h *handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, err := readBody(r, h.opts.MaxBodyBytes)
	if errors.Is(err, errTooLarge) {
		// Read (a bounded part of) the rest first: a server that answers and closes
		// with unread data makes the client's kernel see a reset instead of the 413.
		if r.Body != nil {
			_, _ = io.CopyN(io.Discard, r.Body, maxDrain)
		}
		w.Header().Set("Connection", "close")
		WriteResponse(w, edge.ErrorResponse(edge.CodePayloadTooLarge,
			fmt.Sprintf("The request body is larger than %d bytes.", h.opts.MaxBodyBytes)))
		return
	}
	if err != nil {
		h.opts.Logger.Debug("read request body", "err", err)
		WriteResponse(w, edge.ErrorResponse(edge.CodeInvalidArgument, "The request body could not be read."))
		return
	}
	req := Request(r, body)
	head := req.Method == http.MethodHead
	if head {
		// Answer HEAD as the GET it stands for (every route that allows one allows the
		// other), so that its Content-Length, Content-Encoding and ETag are the GET's.
		req.Method = http.MethodGet
	}
	if h.opts.Compressor != nil {
		for i := range req.Headers {
			if req.Headers[i].Name == "if-none-match" {
				req.Headers[i].Value = compress.StripETagSuffix(req.Headers[i].Value)
			}
		}
	}
	resp, err := h.engine.Serve(r.Context(), &req)
	if err == nil && (resp == nil || resp.Status < 200 || resp.Status > 599) {
		err = fmt.Errorf("engine returned an invalid response")
	}
	if err != nil {
		level := slog.LevelError
		if r.Context().Err() != nil {
			level = slog.LevelDebug // the client left; nobody reads the answer
		}
		h.opts.Logger.Log(r.Context(), level, "engine failed", "method", req.Method, "path", req.Path, "err", err)
		resp = edge.ErrorResponse(edge.CodeInternal, "The server failed to answer the request.")
	}
	if h.opts.Compressor != nil {
		h.opts.Compressor.Apply(resp, compress.Negotiate(r.Header.Get("Accept-Encoding")))
	}
	writeResponse(w, resp, head)
}

// readBody reads at most max bytes of the body; nil when empty.
func readBody(r *http.Request, max int64) ([]byte, error) {
	if r.ContentLength > max {
		return nil, errTooLarge
	}
	if r.Body == nil || r.Body == http.NoBody {
		return nil, nil
	}
	b, err := io.ReadAll(io.LimitReader(r.Body, max+1))
	if err != nil {
		return nil, fmt.Errorf("read body: %w", err)
	}
	if int64(len(b)) > max {
		return nil, errTooLarge
	}
	if len(b) == 0 {
		return nil, nil
	}
	return b, nil
}

// Request converts r (with its body already read) to an edge.Request the way the
// Fetch API presents a request to an edge worker, so that every runtime hands the
// router the same thing:
//
//   - Path and RawQuery are the request target exactly as sent (still escaped), taken
//     from RequestURI; an absolute-form target keeps only its path and query.
//   - Header names are lower-case and sorted; repeated fields are joined with ", ";
//     the Host header is included.
func Request(r *http.Request, body []byte) edge.Request {
	path, query := splitTarget(r)
	names := make([]string, 0, len(r.Header)+1)
	values := make(map[string][]string, len(r.Header)+1)
	add := func(name string, vs ...string) {
		name = strings.ToLower(name)
		if _, ok := values[name]; !ok {
			names = append(names, name)
		}
		values[name] = append(values[name], vs...)
	}
	for name, vs := range r.Header {
		add(name, vs...)
	}
	if r.Host != "" {
		add("host", r.Host)
	}
	sort.Strings(names)
	headers := make([]edge.Header, len(names))
	for i, name := range names {
		headers[i] = edge.Header{Name: name, Value: strings.Join(values[name], ", ")}
	}
	return edge.Request{Method: r.Method, Path: path, RawQuery: query, Headers: headers, Body: body}
}

// splitTarget returns the escaped path and query of the request line.
func splitTarget(r *http.Request) (string, string) {
	target := r.RequestURI
	if target == "" { // not a server request
		target = r.URL.RequestURI()
	}
	if target != "*" && !strings.HasPrefix(target, "/") {
		// absolute-form: scheme://authority/path?query
		if _, rest, ok := strings.Cut(target, "://"); ok {
			if i := strings.IndexAny(rest, "/?"); i >= 0 {
				target = rest[i:]
			} else {
				target = ""
			}
			if !strings.HasPrefix(target, "/") {
				target = "/" + target
			}
		}
	}
	path, query, _ := strings.Cut(target, "?")
	return path, query
}

// WriteResponse writes resp to w: its headers in order, an exact Content-Length, and
// nothing added by content sniffing.
func WriteResponse(w http.ResponseWriter, resp *edge.Response) { writeResponse(w, resp, false) }

// writeResponse writes resp; for a HEAD request (head) it sends the headers of the GET
// answer resp, Content-Length included, and no body.
func writeResponse(w http.ResponseWriter, resp *edge.Response, head bool) {
	h := w.Header()
	for _, f := range resp.Headers {
		h.Add(f.Name, f.Value)
	}
	if _, ok := h["Content-Type"]; !ok {
		h["Content-Type"] = nil // no sniffing: send what the router said
	}
	bodyless := resp.Status == http.StatusNoContent || resp.Status == http.StatusNotModified
	if !bodyless {
		h.Set("Content-Length", strconv.Itoa(len(resp.Body)))
	}
	w.WriteHeader(resp.Status)
	if !bodyless && !head && len(resp.Body) > 0 {
		_, _ = w.Write(resp.Body)
	}
}
