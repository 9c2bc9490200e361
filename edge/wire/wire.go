// Package wire is the binary framing of edge requests and responses between a host
// (the Go host, a JavaScript edge worker) and the WebAssembly module.
//
// A frame is a 4-byte magic, a little-endian u32 version, then fields in a fixed order.
// Every variable-length field is a little-endian u32 byte length followed by the bytes;
// there is no padding, and a frame ends exactly after its last field.
//
//	request  = "CDRQ" version:u32 method:str path:str rawQuery:str
//	           headerCount:u32 { name:str value:str } body:str
//	response = "CDRS" version:u32 status:u32
//	           headerCount:u32 { name:str value:str } body:str
//	options  = "CDOP" version:u32 cacheControl:str maxBodyBytes:u32 maxURLBytes:u32
//	           tokenCount:u32 { environment:str token:str }
//	str      = length:u32 bytes[length]
//
// wasm/README.md documents the same layout byte by byte for other implementations.
//
// The package is TinyGo-compatible: no reflection, no os, no goroutines. Decoders check
// every length against the bytes that remain, so a malformed frame yields an error, never
// a panic, and a decoder never allocates more than a small multiple of its input.
package wire

import (
	"errors"
	"math"
	"sort"

	"github.com/cdaedge/cdaedge/edge"
	"github.com/cdaedge/cdaedge/edge/router"
)

// Version is the framing version written after the magic of every frame.
const Version = 1

// RequestMagic and ResponseMagic are the first four bytes of a request and a response frame.
const (
	RequestMagic  = "CDRQ"
	ResponseMagic = "CDRS"
)

// OptionsMagic is the first four bytes of a router options frame.
const OptionsMagic = "CDOP"

// headerSize is the magic and the version.
const headerSize = 8

// Errors returned by the decoders; the returned error wraps one of them.
var (
	// ErrMagic means the frame does not start with the expected magic.
	ErrMagic = errors.New("wire: bad magic")
	// ErrVersion means the frame has a version this package does not know.
	ErrVersion = errors.New("wire: unsupported version")
	// ErrTruncated means a length points past the end of the frame.
	ErrTruncated = errors.New("wire: truncated frame")
	// ErrTrailing means bytes follow the last field of the frame.
	ErrTrailing = errors.New("wire: trailing bytes after frame")
	// ErrStatus means a response status is outside 100..999.
	ErrStatus = errors.New("wire: status out of range")
	// ErrDuplicate means an options frame names an environment twice.
	ErrDuplicate = errors.New("wire: repeated environment in options")
)

// AppendRequest appends the request frame of r to dst and returns the extended slice.
// Fields longer than 4 GiB - 1 bytes cannot be framed; the caller keeps them smaller.
func AppendRequest(dst []byte, r *edge.Request) []byte {
	n := headerSize + 4*5 + len(r.Method) + len(r.Path) + len(r.RawQuery) + len(r.Body)
	for _, h := range r.Headers {
		n += 8 + len(h.Name) + len(h.Value)
	}
	dst = grow(dst, n)
	dst = append(dst, RequestMagic...)
	dst = appendU32(dst, Version)
	dst = appendStr(dst, r.Method)
	dst = appendStr(dst, r.Path)
	dst = appendStr(dst, r.RawQuery)
	dst = appendHeaders(dst, r.Headers)
	dst = appendU32(dst, uint32(len(r.Body)))
	return append(dst, r.Body...)
}

// AppendResponse appends the response frame of r to dst and returns the extended slice.
func AppendResponse(dst []byte, r *edge.Response) []byte {
	dst = grow(dst, responseHeadSize(r)+len(r.Body))
	return append(appendResponseHead(dst, r), r.Body...)
}

// AppendResponseHead appends the head of r's response frame to dst: all of the frame
// but the body, which follows it. A caller that has room before the body writes the
// head there and has the frame without copying the body.
func AppendResponseHead(dst []byte, r *edge.Response) []byte {
	return appendResponseHead(grow(dst, responseHeadSize(r)), r)
}

// appendResponseHead is AppendResponseHead into a dst with room for the head.
func appendResponseHead(dst []byte, r *edge.Response) []byte {
	dst = append(dst, ResponseMagic...)
	dst = appendU32(dst, Version)
	dst = appendU32(dst, uint32(r.Status))
	dst = appendHeaders(dst, r.Headers)
	return appendU32(dst, uint32(len(r.Body)))
}

// responseHeadSize is the length of r's response frame without its body.
func responseHeadSize(r *edge.Response) int {
	n := headerSize + 4*3
	for _, h := range r.Headers {
		n += 8 + len(h.Name) + len(h.Value)
	}
	return n
}

// DecodeRequest parses one request frame that fills data exactly. The result does not
// alias data. Headers and Body are nil when empty.
func DecodeRequest(data []byte) (edge.Request, error) {
	var req edge.Request
	d := decoder{data: data}
	if err := d.header(RequestMagic); err != nil {
		return req, err
	}
	m, p, q := d.str(), d.str(), d.str()
	hs := d.headers()
	body := d.str()
	if err := d.finish(); err != nil {
		return req, err
	}
	text := string(data[:body.off-4]) // one copy holds every string field
	req.Method, req.Path, req.RawQuery = m.in(text), p.in(text), q.in(text)
	req.Headers = hs.decode(data, text)
	req.Body = body.bytes(data)
	return req, nil
}

// DecodeResponse parses one response frame that fills data exactly. The result does not
// alias data. Headers and Body are nil when empty.
func DecodeResponse(data []byte) (edge.Response, error) {
	return DecodeResponseInto(data, nil)
}

// DecodeResponseInto is DecodeResponse with the body copied into a buffer of
// bodyBuffer(n) for a body of n bytes (a freshly allocated one when bodyBuffer is nil),
// so that a host can reuse answers' buffers: the result does not alias data either.
// bodyBuffer returns an empty slice with at least n bytes of capacity.
func DecodeResponseInto(data []byte, bodyBuffer func(n int) []byte) (edge.Response, error) {
	var resp edge.Response
	d := decoder{data: data}
	if err := d.header(ResponseMagic); err != nil {
		return resp, err
	}
	status := d.u32()
	hs := d.headers()
	body := d.str()
	if err := d.finish(); err != nil {
		return resp, err
	}
	if status < 100 || status > 999 {
		return resp, ErrStatus
	}
	text := string(data[:body.off-4])
	resp.Status = int(status)
	resp.Headers = hs.decode(data, text)
	if bodyBuffer == nil || body.n == 0 {
		resp.Body = body.bytes(data)
	} else {
		resp.Body = append(bodyBuffer(body.n)[:0], data[body.off:body.off+body.n]...)
	}
	return resp, nil
}

// AppendOptions appends the options frame of o (router options, for the module's
// configure export) to dst. Preview tokens are written sorted by environment, so equal
// options give equal frames. Limits above 4 GiB - 1 are written as that; an unlimited
// (negative) response limit as 0, the default.
func AppendOptions(dst []byte, o *router.Options) []byte {
	envs := make([]string, 0, len(o.PreviewTokens))
	for env := range o.PreviewTokens {
		envs = append(envs, env)
	}
	sort.Strings(envs)
	dst = append(dst, OptionsMagic...)
	dst = appendU32(dst, Version)
	dst = appendStr(dst, o.CacheControl)
	dst = appendU32(dst, clampU32(o.MaxBodyBytes))
	dst = appendU32(dst, clampU32(o.MaxURLBytes))
	dst = appendU32(dst, uint32(len(envs)))
	for _, env := range envs {
		dst = appendStr(dst, env)
		dst = appendStr(dst, o.PreviewTokens[env])
	}
	return appendU32(dst, clampU32(o.MaxResponseBytes))
}

// DecodeOptions parses one options frame that fills data exactly. PreviewTokens is nil
// when there are none; a repeated environment is an error.
func DecodeOptions(data []byte) (router.Options, error) {
	var o router.Options
	d := decoder{data: data}
	if err := d.header(OptionsMagic); err != nil {
		return o, err
	}
	cc := d.str()
	maxBody, maxURL := d.u32(), d.u32()
	tokens := d.headers()
	// The response limit came later: a frame without it takes the default.
	var maxResponse uint32
	if d.err == nil && d.off < len(d.data) {
		maxResponse = d.u32()
	}
	if err := d.finish(); err != nil {
		return o, err
	}
	o.MaxResponseBytes = intOf(maxResponse)
	text := string(data)
	o.CacheControl = cc.in(text)
	o.MaxBodyBytes, o.MaxURLBytes = intOf(maxBody), intOf(maxURL)
	if tokens.count > 0 {
		o.PreviewTokens = make(map[string]string, tokens.count)
		for _, h := range tokens.decode(data, text) {
			if _, dup := o.PreviewTokens[h.Name]; dup {
				return router.Options{}, ErrDuplicate
			}
			o.PreviewTokens[h.Name] = h.Value
		}
	}
	return o, nil
}

// intOf is v as an int, at most the largest int: a limit of 2 GiB or more stays a
// large positive limit in the TinyGo module, whose int is 32 bits.
func intOf(v uint32) int { return int(min(uint64(v), math.MaxInt)) }

func clampU32(n int) uint32 {
	switch {
	case n < 0:
		return 0
	case uint64(n) > 1<<32-1:
		return 1<<32 - 1
	}
	return uint32(n)
}

func grow(dst []byte, n int) []byte {
	if cap(dst)-len(dst) >= n {
		return dst
	}
	out := make([]byte, len(dst), len(dst)+n)
	copy(out, dst)
	return out
}

func appendU32(dst []byte, v uint32) []byte {
	return append(dst, byte(v), byte(v>>8), byte(v>>16), byte(v>>24))
}

func appendStr(dst []byte, s string) []byte {
	return append(appendU32(dst, uint32(len(s))), s...)
}

func appendHeaders(dst []byte, hs []edge.Header) []byte {
	dst = appendU32(dst, uint32(len(hs)))
	for _, h := range hs {
		dst = appendStr(dst, h.Name)
		dst = appendStr(dst, h.Value)
	}
	return dst
}

// span is a validated field: its bytes are data[off:off+n].
type span struct{ off, n int }

func (s span) in(text string) string { return text[s.off : s.off+s.n] }

func (s span) bytes(data []byte) []byte {
	if s.n == 0 {
		return nil
	}
	// Appended rather than made and copied into: append leaves the bytes it copies
	// unzeroed, where make zeroes them first (1.3 % of the host's CPU for one item).
	return append([]byte(nil), data[s.off:s.off+s.n]...)
}

// headerList is the validated position of a header list: count pairs from off.
type headerList struct{ off, count int }

// decode builds the headers; the list was validated, so every length is in bounds.
func (l headerList) decode(data []byte, text string) []edge.Header {
	if l.count == 0 {
		return nil
	}
	hs := make([]edge.Header, l.count)
	d := decoder{data: data, off: l.off}
	for i := range hs {
		hs[i].Name = d.str().in(text)
		hs[i].Value = d.str().in(text)
	}
	return hs
}

// decoder reads fields; after the first error every read returns zero values.
type decoder struct {
	data []byte
	off  int
	err  error
}

func (d *decoder) header(magic string) error {
	if len(d.data) < headerSize {
		if !hasMagic(d.data, magic) {
			return ErrMagic
		}
		return ErrTruncated
	}
	if !hasMagic(d.data, magic) {
		return ErrMagic
	}
	d.off = 4
	if d.u32() != Version {
		return ErrVersion
	}
	return nil
}

func (d *decoder) u32() uint32 {
	if d.err != nil {
		return 0
	}
	if len(d.data)-d.off < 4 {
		d.err = ErrTruncated
		return 0
	}
	b := d.data[d.off : d.off+4]
	d.off += 4
	return uint32(b[0]) | uint32(b[1])<<8 | uint32(b[2])<<16 | uint32(b[3])<<24
}

// hasMagic reports whether data starts with the four bytes of magic. (Comparing
// string(data[:4]) copied the bytes in the TinyGo module, on every frame.)
func hasMagic(data []byte, magic string) bool {
	return len(data) >= 4 && data[0] == magic[0] && data[1] == magic[1] && data[2] == magic[2] && data[3] == magic[3]
}

func (d *decoder) str() span {
	n := d.u32()
	if d.err != nil {
		return span{off: d.off}
	}
	// Compare in uint64 so that a huge length cannot overflow int on 32-bit targets.
	if uint64(n) > uint64(len(d.data)-d.off) {
		d.err = ErrTruncated
		return span{off: d.off}
	}
	s := span{off: d.off, n: int(n)}
	d.off += int(n)
	return s
}

// headers validates a header list and returns its position; the count is bounded by
// the remaining bytes (each header takes at least 8), so decoding allocates no more
// than the input implies.
func (d *decoder) headers() headerList {
	count := d.u32()
	if d.err != nil {
		return headerList{}
	}
	if uint64(count) > uint64(len(d.data)-d.off)/8 {
		d.err = ErrTruncated
		return headerList{}
	}
	l := headerList{off: d.off, count: int(count)}
	for i := 0; i < l.count && d.err == nil; i++ {
		d.str()
		d.str()
	}
	return l
}

func (d *decoder) finish() error {
	if d.err != nil {
		return d.err
	}
	if d.off != len(d.data) {
		return ErrTrailing
	}
	return nil
}
