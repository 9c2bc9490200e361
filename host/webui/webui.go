// Package webui serves the host's pages: the playground at / and /playground, GraphiQL
// at /graphiql, the API reference at /docs and its OpenAPI document at /openapi.json.
// They are built from web/playground into dist/ (committed, so a fresh checkout serves
// them without Node; a test in web/playground checks dist/ against a fresh build) and
// embedded. For the playground's in-browser mode it also serves the query module the
// host runs (/web/module.wasm) and the published snapshots (/web/snapshots/<env>.snap):
// published content is public through the API anyway, preview snapshots never leave.
package webui

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"embed"
	"encoding/base64"
	"io"
	"io/fs"
	"net/http"
	"path"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/cdaedge/cdaedge/edge"
	"github.com/cdaedge/cdaedge/host/snapdir"
)

//go:embed dist
var dist embed.FS

// pages maps the pages' paths to their files in dist/.
var pages = map[string]string{
	"/":             "index.html",
	"/playground":   "index.html",
	"/graphiql":     "graphiql.html",
	"/docs":         "docs.html",
	"/openapi.json": "openapi.json",
}

// Options configures the handler.
type Options struct {
	// Module is the query module the in-browser mode runs (the host's own); nil
	// answers /web/module.wasm with 404.
	Module []byte
	// Snapshots returns the served snapshots; the published ones are downloadable.
	Snapshots func() []snapdir.File
	// Next answers every other path (the API).
	Next http.Handler
}

// asset is one file served with its entity tag and, when it is worth it, a gzipped copy.
type asset struct {
	body        []byte
	contentType string
	compress    bool
	// file, when set, is read instead of body: a snapshot whose item bodies stay on
	// disk (the host's --bodies=file), size bytes long, tagged by its content hash.
	file io.ReaderAt
	size int64

	// Made on first use, not at startup (the host's time to first answer is budgeted).
	tagOnce sync.Once
	etag    string
	gzOnce  sync.Once
	gz      []byte // nil when not worth it
}

// Handler serves the pages and assets and passes every other path to opts.Next.
func Handler(opts Options) http.Handler {
	h := &handler{opts: opts, assets: map[string]*asset{}}
	_ = fs.WalkDir(dist, "dist", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := dist.ReadFile(p)
		if err != nil {
			return err
		}
		h.assets[strings.TrimPrefix(p, "dist/")] = newAsset(b, contentType(p), true)
		return nil
	})
	if len(opts.Module) > 0 {
		h.module = newAsset(opts.Module, "application/wasm", true)
	}
	return h
}

// IsPath reports whether the handler answers path itself (for route labels).
func IsPath(p string) bool {
	_, ok := pages[p]
	return ok || strings.HasPrefix(p, "/web/")
}

type handler struct {
	opts   Options
	assets map[string]*asset
	module *asset

	mu    sync.Mutex
	snaps map[string]*asset // by snapshot checksum version, so a reload gives new bytes
}

func newAsset(b []byte, ctype string, compress bool) *asset {
	return &asset{body: b, contentType: ctype, compress: compress && len(b) > 1024}
}

// tag returns the body's strong entity tag.
func (a *asset) tag() string {
	a.tagOnce.Do(func() {
		sum := sha256.Sum256(a.body)
		a.etag = `"` + base64.RawURLEncoding.EncodeToString(sum[:12]) + `"`
	})
	return a.etag
}

// gzipped returns the gzipped body, or nil when it is not worth sending.
func (a *asset) gzipped() []byte {
	if !a.compress {
		return nil
	}
	a.gzOnce.Do(func() {
		var buf bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&buf, gzip.DefaultCompression)
		_, _ = zw.Write(a.body)
		_ = zw.Close()
		if buf.Len() < len(a.body)*9/10 {
			a.gz = buf.Bytes()
		}
	})
	return a.gz
}

func contentType(p string) string {
	switch path.Ext(p) {
	case ".html":
		return "text/html; charset=utf-8"
	case ".js":
		return "text/javascript; charset=utf-8"
	case ".css":
		return "text/css; charset=utf-8"
	case ".json":
		return "application/json; charset=utf-8"
	}
	return "application/octet-stream"
}

func (h *handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	p := r.URL.EscapedPath()
	var a *asset
	switch {
	case pages[p] != "":
		a = h.assets[pages[p]]
	case p == "/web/module.wasm":
		if h.module == nil {
			h.notFound(w, r, "this host has no wasm module (it was built without one and runs --engine native), and the in-browser mode needs one")
			return
		}
		a = h.module
	case strings.HasPrefix(p, "/web/snapshots/") && strings.HasSuffix(p, ".snap"):
		env, _ := edge.Unescape(strings.TrimSuffix(strings.TrimPrefix(p, "/web/snapshots/"), ".snap"), false)
		if a = h.snapshot(env); a == nil {
			h.notFound(w, r, "no published environment "+edge.Clip(env)+" is served")
			return
		}
	case strings.HasPrefix(p, "/web/"):
		if a = h.assets[strings.TrimPrefix(p, "/")]; a == nil {
			h.notFound(w, r, "no such file: "+edge.Clip(p))
			return
		}
	default:
		h.opts.Next.ServeHTTP(w, r)
		return
	}
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		e := edge.Errorf(edge.CodeMethodNotAllowed, "method %s not allowed on %s", r.Method, edge.Clip(p))
		writeError(w, r, e)
		return
	}
	hd := w.Header()
	hd.Set("Content-Type", a.contentType)
	hd.Set("Cache-Control", "no-cache")
	hd.Set("ETag", a.tag())
	hd.Set("X-Content-Type-Options", "nosniff")
	if strings.HasPrefix(a.contentType, "text/html") {
		// The pages load scripts, styles and the module from this host only; the module
		// is compiled by the page ('wasm-unsafe-eval').
		hd.Set("Content-Security-Policy", "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; connect-src 'self'; frame-ancestors 'none'")
	}
	body := a.body
	if a.compress {
		hd.Add("Vary", "Accept-Encoding")
		if gz := a.gzipped(); gz != nil && acceptsGzip(r.Header.Get("Accept-Encoding")) {
			body = gz
			hd.Set("Content-Encoding", "gzip")
			hd.Set("ETag", strings.TrimSuffix(a.tag(), `"`)+`-gzip"`)
		}
	}
	if a.file != nil {
		http.ServeContent(w, r, "", time.Time{}, io.NewSectionReader(a.file, 0, a.size))
		return
	}
	http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(body))
}

// snapshot returns the asset of a served published environment's snapshot.
func (h *handler) snapshot(env string) *asset {
	if h.opts.Snapshots == nil {
		return nil
	}
	for _, f := range h.opts.Snapshots() {
		if f.Env != env || f.Preview {
			continue
		}
		h.mu.Lock()
		defer h.mu.Unlock()
		if h.snaps == nil {
			h.snaps = map[string]*asset{}
		}
		key := env + "\x00" + f.Version
		if a := h.snaps[key]; a != nil {
			return a
		}
		var a *asset
		if f.Data != nil {
			a = newAsset(f.Data, "application/octet-stream", false)
		} else {
			// The host does not hold the file: the browser gets it from disk.
			a = &asset{file: f.Reader, size: f.Size, contentType: "application/octet-stream"}
			a.tagOnce.Do(func() { a.etag = `"` + f.Version[:32] + `"` })
		}
		for k := range h.snaps { // keep only the served version of each environment
			if strings.HasPrefix(k, env+"\x00") {
				delete(h.snaps, k)
			}
		}
		h.snaps[key] = a
		return a
	}
	return nil
}

func (h *handler) notFound(w http.ResponseWriter, r *http.Request, msg string) {
	writeError(w, r, edge.Errorf(edge.CodeNotFound, "%s", msg))
}

func writeError(w http.ResponseWriter, r *http.Request, e *edge.Error) {
	w.Header().Set("Content-Type", edge.ContentTypeJSON)
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(e.Status())
	if r.Method != http.MethodHead {
		_, _ = w.Write(edge.AppendErrorEnvelope(nil, e))
	}
}

// acceptsGzip reports whether an Accept-Encoding value lists gzip (or *) with a q-value
// above zero.
func acceptsGzip(v string) bool {
	for _, part := range strings.Split(v, ",") {
		name, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		name = strings.TrimSpace(name)
		if !strings.EqualFold(name, "gzip") && name != "*" {
			continue
		}
		q := 1.0
		if k, val, ok := strings.Cut(strings.TrimSpace(params), "="); ok && strings.EqualFold(strings.TrimSpace(k), "q") {
			if f, err := strconv.ParseFloat(strings.TrimSpace(val), 64); err == nil {
				q = f
			}
		}
		return q > 0
	}
	return false
}
