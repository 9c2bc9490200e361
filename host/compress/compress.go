// Package compress negotiates and applies response compression (zstd and gzip, from
// github.com/klauspost/compress) to the engine's answers.
//
// A compressed answer is a different representation, so its strong ETag gets a suffix
// inside the quotes ("…-zstd", "…-gzip"), and every answer that could have been
// compressed carries Vary: Accept-Encoding. StripETagSuffix undoes the suffix on a
// request's If-None-Match so that the router's 304 logic recognises its own tags.
package compress

import (
	"bytes"
	"strings"
	"sync"

	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"

	"github.com/cdaedge/cdaedge/edge"
)

// Encoding is a content coding the host can produce.
type Encoding uint8

// The content codings. At equal quality gzip is preferred to zstd (Negotiate).
const (
	Identity Encoding = iota
	Zstd
	Gzip
)

// String is the coding's HTTP token ("" for identity).
func (e Encoding) String() string {
	switch e {
	case Zstd:
		return "zstd"
	case Gzip:
		return "gzip"
	}
	return ""
}

// Negotiate picks the coding for an Accept-Encoding header value: the acceptable
// coding (zstd or gzip, or one allowed by "*") of highest quality; q=0 refuses a coding.
// On a tie (a client that states no preference, "gzip, deflate, br, zstd") it picks
// gzip: every client that lists zstd also decodes gzip, while some list zstd without
// being able to decode it (Node 20's fetch in @whatwg-node offers what its zlib lacks).
// Identity when none is acceptable or the header is absent.
func Negotiate(accept string) Encoding {
	qz, qg, qstar := -1.0, -1.0, -1.0
	edge.EachQuality(accept, func(name string, q float64) {
		switch name {
		case "zstd":
			qz = q
		case "gzip", "x-gzip":
			qg = q
		case "*":
			qstar = q
		}
	})
	if qz < 0 {
		qz = qstar
	}
	if qg < 0 {
		qg = qstar
	}
	switch {
	case qg > 0 && qg >= qz:
		return Gzip
	case qz > 0:
		return Zstd
	}
	return Identity
}

// Compressor compresses response bodies. It is safe for concurrent use.
type Compressor struct {
	minBytes int
	zstd     *zstd.Encoder
	gzip     sync.Pool
}

// New returns a compressor that leaves bodies shorter than minBytes alone (0 means
// 1024 bytes, below which compression seldom pays).
func New(minBytes int) *Compressor {
	if minBytes <= 0 {
		minBytes = 1024
	}
	enc, err := zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedDefault),
		zstd.WithEncoderConcurrency(1), zstd.WithLowerEncoderMem(true), zstd.WithWindowSize(1<<20))
	if err != nil {
		panic("compress: zstd options: " + err.Error()) // fixed, valid options
	}
	c := &Compressor{minBytes: minBytes, zstd: enc}
	c.gzip.New = func() any {
		w, _ := gzip.NewWriterLevel(nil, 5) // level 5 is valid
		return w
	}
	return c
}

// compressible reports whether a content type is worth compressing.
func compressible(contentType string) bool {
	return strings.HasPrefix(contentType, "application/json") ||
		strings.HasPrefix(contentType, "application/graphql") ||
		strings.HasPrefix(contentType, "text/")
}

// Apply compresses resp's body with enc when that is worth it, in place: it sets
// Content-Encoding, suffixes the ETag, and adds Vary: Accept-Encoding to every answer
// whose representation depends on the coding (successes, 304s and compressed errors).
// bodyless answers (HEAD) are treated like the GET they stand for when body is given.
func (c *Compressor) Apply(resp *edge.Response, enc Encoding) {
	ct := header(resp, "Content-Type")
	if !compressible(ct) {
		return
	}
	success := resp.Status == 200 || resp.Status == 304
	if success {
		resp.Headers = append(resp.Headers, edge.Header{Name: "Vary", Value: "Accept-Encoding"})
	}
	if enc == Identity {
		return
	}
	if resp.Status == 304 {
		suffixETag(resp, enc) // the tag of the representation the client would get
		return
	}
	if len(resp.Body) < c.minBytes {
		return
	}
	var out []byte
	switch enc {
	case Zstd:
		out = c.zstd.EncodeAll(resp.Body, make([]byte, 0, len(resp.Body)/4+64))
	case Gzip:
		var b bytes.Buffer
		b.Grow(len(resp.Body)/4 + 64)
		w := c.gzip.Get().(*gzip.Writer)
		w.Reset(&b)
		_, _ = w.Write(resp.Body) // a bytes.Buffer never fails
		_ = w.Close()
		c.gzip.Put(w)
		out = b.Bytes()
	}
	if len(out) >= len(resp.Body) {
		return
	}
	resp.Body = out
	resp.Headers = append(resp.Headers, edge.Header{Name: "Content-Encoding", Value: enc.String()})
	if !success {
		resp.Headers = append(resp.Headers, edge.Header{Name: "Vary", Value: "Accept-Encoding"})
	}
	suffixETag(resp, enc)
}

func header(resp *edge.Response, name string) string {
	for _, h := range resp.Headers {
		if strings.EqualFold(h.Name, name) {
			return h.Value
		}
	}
	return ""
}

// suffixETag turns "tag" into "tag-<coding>".
func suffixETag(resp *edge.Response, enc Encoding) {
	for i, h := range resp.Headers {
		if strings.EqualFold(h.Name, "ETag") && strings.HasSuffix(h.Value, `"`) && len(h.Value) >= 2 {
			resp.Headers[i].Value = h.Value[:len(h.Value)-1] + "-" + enc.String() + `"`
		}
	}
}

// StripETagSuffix removes the coding suffixes Apply adds from the entity tags of an
// If-None-Match value, so that a tag of any representation matches its resource.
func StripETagSuffix(v string) string {
	if !strings.Contains(v, `-zstd"`) && !strings.Contains(v, `-gzip"`) {
		return v
	}
	v = strings.ReplaceAll(v, `-zstd"`, `"`)
	return strings.ReplaceAll(v, `-gzip"`, `"`)
}
