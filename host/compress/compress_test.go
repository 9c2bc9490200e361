package compress

import (
	"bytes"
	"io"
	"strings"
	"testing"

	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"

	"github.com/cdaedge/cdaedge/edge"
)

func TestNegotiate(t *testing.T) {
	for accept, want := range map[string]Encoding{
		"":                         Identity,
		"identity":                 Identity,
		"gzip":                     Gzip,
		"x-gzip":                   Gzip,
		"gzip, deflate, br, zstd":  Gzip, // no preference stated: gzip
		"zstd, gzip":               Gzip,
		"gzip;q=0, zstd":           Zstd,
		"gzip;q=0.9, zstd":         Zstd,
		"zstd;q=1.0, gzip;q=0.999": Zstd,
		"gzip;q=0, *":              Zstd,
		"zstd;q=0, *":              Gzip,
		"zstd;q=0.5, gzip":         Gzip,
		"zstd;q=0, gzip;q=0":       Identity,
		"*":                        Gzip,
		"*;q=0.1, zstd;q=0":        Gzip,
		"GZIP ; Q=0.8":             Gzip,
		"br":                       Identity,
		"gzip;q=bogus, zstd;q=0.1": Zstd,
	} {
		if got := Negotiate(accept); got != want {
			t.Errorf("%q: got %v, want %v", accept, got, want)
		}
	}
}

func decode(t testing.TB, enc string, b []byte) []byte {
	t.Helper()
	var r io.Reader
	switch enc {
	case "gzip":
		zr, err := gzip.NewReader(bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		r = zr
	case "zstd":
		zr, err := zstd.NewReader(bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		defer zr.Close()
		r = zr
	default:
		return b
	}
	out, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func headers(resp *edge.Response, name string) []string {
	var vs []string
	for _, h := range resp.Headers {
		if h.Name == name {
			vs = append(vs, h.Value)
		}
	}
	return vs
}

func TestApply(t *testing.T) {
	c := New(64)
	body := []byte(strings.Repeat(`{"Name":"Hello","Data":{"title":"x"}},`, 50))
	for _, enc := range []Encoding{Identity, Gzip, Zstd} {
		resp := &edge.Response{Status: 200, Headers: []edge.Header{{Name: "Content-Type", Value: "application/json; charset=utf-8"}, {Name: "ETag", Value: `"abc"`}}, Body: append([]byte(nil), body...)}
		c.Apply(resp, enc)
		if got := headers(resp, "Vary"); len(got) != 1 || got[0] != "Accept-Encoding" {
			t.Errorf("%v: Vary %q", enc, got)
		}
		wantTag := `"abc"`
		if enc != Identity {
			wantTag = `"abc-` + enc.String() + `"`
			if ce := headers(resp, "Content-Encoding"); len(ce) != 1 || ce[0] != enc.String() {
				t.Errorf("%v: Content-Encoding %q", enc, ce)
			}
			if len(resp.Body) >= len(body) {
				t.Errorf("%v: not smaller", enc)
			}
		}
		if got := headers(resp, "ETag"); got[0] != wantTag {
			t.Errorf("%v: ETag %q", enc, got)
		}
		if StripETagSuffix(headers(resp, "ETag")[0]) != `"abc"` {
			t.Errorf("%v: strip", enc)
		}
		if !bytes.Equal(decode(t, enc.String(), resp.Body), body) {
			t.Errorf("%v: round trip differs", enc)
		}
	}
	// Small bodies, errors and non-text stay as they are.
	small := &edge.Response{Status: 200, Headers: []edge.Header{{Name: "Content-Type", Value: "application/json"}}, Body: []byte(`{}`)}
	c.Apply(small, Gzip)
	if headers(small, "Content-Encoding") != nil || string(small.Body) != `{}` {
		t.Errorf("small body compressed")
	}
	bin := &edge.Response{Status: 200, Headers: []edge.Header{{Name: "Content-Type", Value: "image/png"}}, Body: body}
	c.Apply(bin, Gzip)
	if headers(bin, "Content-Encoding") != nil || headers(bin, "Vary") != nil {
		t.Errorf("image compressed")
	}
	nm := &edge.Response{Status: 304, Headers: []edge.Header{{Name: "Content-Type", Value: "application/json"}, {Name: "ETag", Value: `"t"`}}}
	c.Apply(nm, Zstd)
	if headers(nm, "ETag")[0] != `"t-zstd"` || headers(nm, "Vary") == nil {
		t.Errorf("304: %v", nm.Headers)
	}
}

// FuzzApply compresses arbitrary bodies: decoding gives the body back, always.
func FuzzApply(f *testing.F) {
	f.Add([]byte(strings.Repeat("abc", 500)), "gzip")
	f.Add([]byte{}, "zstd")
	f.Add([]byte("\x00\xff"), "*")
	c := New(1)
	f.Fuzz(func(t *testing.T, body []byte, accept string) {
		enc := Negotiate(accept)
		resp := &edge.Response{Status: 200, Headers: []edge.Header{{Name: "Content-Type", Value: "text/plain"}}, Body: append([]byte(nil), body...)}
		c.Apply(resp, enc)
		got := resp.Body
		if ce := headers(resp, "Content-Encoding"); ce != nil {
			got = decode(t, ce[0], got)
		}
		if !bytes.Equal(got, body) {
			t.Fatalf("round trip differs")
		}
	})
}
