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
	"net"
	"net/http"
	"net/textproto"
	"os"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/cdaedge/cdaedge/edge"
	"github.com/cdaedge/cdaedge/host/compress"
)

// Engine answers edge requests: the wasm pool or a pool of native routers. An error
// means no answer; the client gets a 500 `internal` error (D8).
type Engine interface {
	Serve(ctx context.Context, req *edge.Request) (*edge.Response, error)
}

// bodyRecycler is an Engine that reuses its answers' body buffers: the handler hands
// each body back once it has written it (RecycleBody). An engine wrapped by something
// that keeps answers (an answer cache) must not be reached through this: the wrapper
// does not have the method, so the handler recycles nothing.
type bodyRecycler interface {
	RecycleBody(body []byte)
}

// Options configures the handler. The zero value gives the defaults.
type Options struct {
	// MaxBodyBytes bounds a request body (413 `payload_too_large` above it, D11); zero
	// means edge.DefaultMaxBodyBytes (1 MiB).
	MaxBodyBytes int64
	// MaxInFlight bounds the requests inside the engine at once (answering or waiting
	// for an instance); past it a request is answered at once with 503 `unavailable`
	// and Retry-After instead of joining an unbounded queue. Zero means no limit.
	MaxInFlight int
	// RetryAfter is the Retry-After of a 503; zero means one second.
	RetryAfter time.Duration
	// Logger receives engine failures and bodies cut by the read timeout; nil discards
	// them.
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
	if opts.RetryAfter <= 0 {
		opts.RetryAfter = time.Second
	}
	h := &handler{engine: e, opts: opts}
	h.recycler, _ = e.(bodyRecycler)
	if opts.MaxInFlight > 0 {
		h.inflight = make(chan struct{}, opts.MaxInFlight)
	}
	return h
}

type handler struct {
	engine   Engine
	recycler bodyRecycler // e, when it reuses its answers' buffers; nil otherwise
	opts     Options
	inflight chan struct{} // one token per request in the engine; nil: unbounded
}

// maxDrain and maxDrainTime bound what is read and dropped of a body over the limit,
// after its 413 is sent.
const (
	maxDrain     = 16 << 20
	maxDrainTime = 2 * time.Second
)

// errTooLarge means the request body is over the limit.
var errTooLarge = errors.New("request body too large")

func (h *handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, err := readBody(r, h.opts.MaxBodyBytes)
	if errors.Is(err, errTooLarge) {
		// Answer before reading the rest: a client announcing (or sending) more than the
		// limit gets its 413 at once. Then read and drop a bounded part of what it still
		// sends, briefly: a client that writes its whole body before reading would
		// otherwise see the connection reset instead of the answer.
		rc := http.NewResponseController(w)
		_ = rc.EnableFullDuplex()
		w.Header().Set("Connection", "close")
		WriteResponse(w, edge.ErrorResponse(edge.CodePayloadTooLarge,
			fmt.Sprintf("The request body is larger than %d bytes.", h.opts.MaxBodyBytes)))
		_ = rc.Flush()
		if r.Body != nil {
			_ = rc.SetReadDeadline(time.Now().Add(maxDrainTime))
			_, _ = io.CopyN(io.Discard, r.Body, maxDrain)
		}
		return
	}
	if err != nil {
		w.Header().Set("Connection", "close")
		if isTimeout(err) {
			h.opts.Logger.Warn("request body cut by the read timeout", "reason", "read_timeout",
				"method", r.Method, "path", clip(r.URL.EscapedPath(), 256), "remote", r.RemoteAddr, "err", err)
			WriteResponse(w, edge.ErrorResponse(edge.CodeRequestTimeout, "The request body did not arrive within the read timeout."))
			return
		}
		h.opts.Logger.Debug("read request body", "err", err)
		WriteResponse(w, edge.ErrorResponse(edge.CodeInvalidArgument, "The request body could not be read."))
		return
	}
	if h.inflight != nil {
		select {
		case h.inflight <- struct{}{}:
			defer func() { <-h.inflight }()
		default:
			h.unavailable(w, fmt.Sprintf("The server is answering as many requests as it allows (%d); retry later.", cap(h.inflight)))
			return
		}
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
	if e := (*edge.Error)(nil); errors.As(err, &e) && e.Code == edge.CodeUnavailable {
		h.unavailable(w, e.Message)
		return
	}
	var lent []byte // the engine's body, even once compression replaces it
	if err == nil {
		lent = resp.Body
	} else {
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
	if h.recycler != nil && lent != nil {
		h.recycler.RecycleBody(lent) // written: net/http keeps none of it after Write
	}
}

// unavailable answers 503 `unavailable` with Retry-After.
func (h *handler) unavailable(w http.ResponseWriter, message string) {
	w.Header().Set("Retry-After", strconv.Itoa(max(1, int(h.opts.RetryAfter/time.Second))))
	WriteResponse(w, edge.ErrorResponse(edge.CodeUnavailable, message))
}

// isTimeout reports whether err is a read deadline (the server's read timeout) passing.
func isTimeout(err error) bool {
	var ne net.Error
	return errors.Is(err, os.ErrDeadlineExceeded) || errors.As(err, &ne) && ne.Timeout()
}

func clip(s string, n int) string {
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}

// readBody reads at most max bytes of the body; nil when empty. A body announced (by
// Content-Length) or found to be over max is errTooLarge, before any of it is read in
// the first case.
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
	// Every value in one array rather than a slice each (as Header.Add makes them): a
	// dozen allocations fewer per answer.
	vals := make([]string, len(resp.Headers)+1)
	for i, f := range resp.Headers {
		key := textproto.CanonicalMIMEHeaderKey(f.Name)
		if old, ok := h[key]; ok {
			h[key] = append(old, f.Value)
			continue
		}
		vals[i] = f.Value
		h[key] = vals[i : i+1 : i+1]
	}
	if _, ok := h["Content-Type"]; !ok {
		h["Content-Type"] = nil // no sniffing: send what the router said
	}
	bodyless := resp.Status == http.StatusNoContent || resp.Status == http.StatusNotModified
	if !bodyless {
		last := len(vals) - 1
		vals[last] = strconv.Itoa(len(resp.Body))
		h["Content-Length"] = vals[last:]
	}
	w.WriteHeader(resp.Status)
	if !bodyless && !head && len(resp.Body) > 0 {
		_, _ = w.Write(resp.Body)
	}
}
