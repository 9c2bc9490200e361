package wire

import (
	"bytes"
	"errors"
	"math"
	"reflect"
	"testing"

	"github.com/cdaedge/cdaedge/edge"
	"github.com/cdaedge/cdaedge/edge/router"
)

var requests = []edge.Request{
	{},
	{Method: "GET", Path: "/"},
	{
		Method:   "POST",
		Path:     "/environments/prod%2Fx/search",
		RawQuery: "q=a%20b&page=2",
		Headers: []edge.Header{
			{Name: "accept", Value: "application/json"},
			{Name: "if-none-match", Value: `"abc"`},
			{Name: "x-empty", Value: ""},
		},
		Body: []byte(`{"query":{"match_all":{}}}` + "\x00\xff"),
	},
}

var responses = []edge.Response{
	{Status: 200},
	{Status: 304, Headers: []edge.Header{{Name: "ETag", Value: `"v1"`}}},
	{
		Status: 404,
		Headers: []edge.Header{
			{Name: "Content-Type", Value: "application/json; charset=utf-8"},
			{Name: "Access-Control-Allow-Origin", Value: "*"},
		},
		Body: []byte(`{"status":404,"error":{"code":"not_found","message":"No such route."}}`),
	},
}

func TestRequestRoundTrip(t *testing.T) {
	for i, want := range requests {
		frame := AppendRequest([]byte("prefix"), &want)
		if !bytes.HasPrefix(frame, []byte("prefix")) {
			t.Fatalf("%d: prefix lost", i)
		}
		got, err := DecodeRequest(frame[len("prefix"):])
		if err != nil {
			t.Fatalf("%d: decode: %v", i, err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%d: got %#v, want %#v", i, got, want)
		}
	}
}

func TestResponseRoundTrip(t *testing.T) {
	for i, want := range responses {
		got, err := DecodeResponse(AppendResponse(nil, &want))
		if err != nil {
			t.Fatalf("%d: decode: %v", i, err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%d: got %#v, want %#v", i, got, want)
		}
	}
}

// A frame's head followed by its body is the whole frame: a caller with room before the
// body frames it in place.
func TestResponseHeadThenBody(t *testing.T) {
	for i, r := range responses {
		head := AppendResponseHead(nil, &r)
		if got, want := append(head, r.Body...), AppendResponse(nil, &r); !bytes.Equal(got, want) {
			t.Errorf("%d: head and body %q, frame %q", i, got, want)
		}
		if len(head) != responseHeadSize(&r) {
			t.Errorf("%d: head of %d bytes, responseHeadSize %d", i, len(head), responseHeadSize(&r))
		}
	}
}

// DecodeResponseInto gives the same answers as DecodeResponse, with each non-empty body
// in the buffer it is handed, and none aliasing the frame.
func TestDecodeResponseIntoUsesTheBuffer(t *testing.T) {
	for i, want := range responses {
		frame := AppendResponse(nil, &want)
		var buf []byte
		got, err := DecodeResponseInto(frame, func(n int) []byte {
			buf = make([]byte, 0, n+7)
			return buf
		})
		if err != nil {
			t.Fatalf("%d: decode: %v", i, err)
		}
		if len(want.Body) > 0 && &got.Body[0] != &buf[:1][0] {
			t.Errorf("%d: the body is not in the buffer handed over", i)
		}
		clear(frame)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%d: got %#v, want %#v", i, got, want)
		}
	}
}

// TestRequestLayout pins the byte layout documented in wasm/README.md.
func TestRequestLayout(t *testing.T) {
	r := edge.Request{Method: "GET", Path: "/a", RawQuery: "", Headers: []edge.Header{{Name: "h", Value: "v"}}, Body: []byte("B")}
	want := []byte("CDRQ\x01\x00\x00\x00" +
		"\x03\x00\x00\x00GET" + "\x02\x00\x00\x00/a" + "\x00\x00\x00\x00" +
		"\x01\x00\x00\x00" + "\x01\x00\x00\x00h" + "\x01\x00\x00\x00v" +
		"\x01\x00\x00\x00B")
	if got := AppendRequest(nil, &r); !bytes.Equal(got, want) {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	resp := edge.Response{Status: 200, Body: []byte("{}")}
	wantResp := []byte("CDRS\x01\x00\x00\x00" + "\xc8\x00\x00\x00" + "\x00\x00\x00\x00" + "\x02\x00\x00\x00{}")
	if got := AppendResponse(nil, &resp); !bytes.Equal(got, wantResp) {
		t.Errorf("got  %q\nwant %q", got, wantResp)
	}
}

// TestDecodeResultDoesNotAlias checks that the decoded values survive reuse of the input.
func TestDecodeResultDoesNotAlias(t *testing.T) {
	frame := AppendRequest(nil, &requests[2])
	got, err := DecodeRequest(frame)
	if err != nil {
		t.Fatal(err)
	}
	for i := range frame {
		frame[i] = 0
	}
	if !reflect.DeepEqual(got, requests[2]) {
		t.Errorf("decoded request changed with its input: %#v", got)
	}
}

func TestDecodeErrors(t *testing.T) {
	good := AppendRequest(nil, &requests[2])
	cases := []struct {
		name string
		data []byte
		want error
	}{
		{"empty", nil, ErrMagic},
		{"short magic", []byte("CD"), ErrMagic},
		{"magic only", []byte("CDRQ"), ErrTruncated},
		{"response magic", AppendResponse(nil, &responses[0]), ErrMagic},
		{"version", append([]byte("CDRQ\x02\x00\x00\x00"), good[8:]...), ErrVersion},
		{"trailing", append(append([]byte{}, good...), 0), ErrTrailing},
		{"huge length", []byte("CDRQ\x01\x00\x00\x00\xff\xff\xff\xff"), ErrTruncated},
		{"huge header count", []byte("CDRQ\x01\x00\x00\x00" + "\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00" + "\xff\xff\xff\x7f"), ErrTruncated},
	}
	for i := 0; i < len(good); i++ {
		cases = append(cases, struct {
			name string
			data []byte
			want error
		}{"cut", good[:i], nil})
	}
	for _, c := range cases {
		_, err := DecodeRequest(c.data)
		if err == nil {
			t.Errorf("%s %d: no error", c.name, len(c.data))
			continue
		}
		if c.want != nil && !errors.Is(err, c.want) {
			t.Errorf("%s: got %v, want %v", c.name, err, c.want)
		}
	}
	for _, status := range []int{0, 99, 1000, -1} {
		if _, err := DecodeResponse(AppendResponse(nil, &edge.Response{Status: status})); !errors.Is(err, ErrStatus) {
			t.Errorf("status %d: got %v", status, err)
		}
	}
}

func TestAppendAllocatesOnce(t *testing.T) {
	buf := make([]byte, 0, 4096)
	allocs := testing.AllocsPerRun(100, func() { buf = AppendRequest(buf[:0], &requests[2]) })
	if allocs != 0 {
		t.Errorf("AppendRequest into a large enough buffer allocated %v times", allocs)
	}
}

func FuzzDecodeRequest(f *testing.F) {
	for _, r := range requests {
		f.Add(AppendRequest(nil, &r))
	}
	f.Add([]byte("CDRQ\x01\x00\x00\x00\xff\xff\xff\xff"))
	f.Fuzz(func(t *testing.T, data []byte) {
		req, err := DecodeRequest(data)
		if err != nil {
			return
		}
		// The framing has no slack: a frame that decodes re-encodes to the same bytes.
		if again := AppendRequest(nil, &req); !bytes.Equal(again, data) {
			t.Fatalf("re-encoded %q, input %q", again, data)
		}
	})
}

func FuzzDecodeResponse(f *testing.F) {
	for _, r := range responses {
		f.Add(AppendResponse(nil, &r))
	}
	f.Add([]byte("CDRS\x01\x00\x00\x00\xc8\x00\x00\x00\xff\xff\xff\xff"))
	f.Fuzz(func(t *testing.T, data []byte) {
		resp, err := DecodeResponse(data)
		if err != nil {
			return
		}
		if again := AppendResponse(nil, &resp); !bytes.Equal(again, data) {
			t.Fatalf("re-encoded %q, input %q", again, data)
		}
		into, err := DecodeResponseInto(data, func(n int) []byte { return make([]byte, 3, n+3) })
		if err != nil || !reflect.DeepEqual(into, resp) {
			t.Fatalf("DecodeResponseInto gave %#v, %v; DecodeResponse %#v", into, err, resp)
		}
	})
}

func BenchmarkRoundTrip(b *testing.B) {
	buf := make([]byte, 0, 4096)
	b.ReportAllocs()
	for b.Loop() {
		buf = AppendRequest(buf[:0], &requests[2])
		if _, err := DecodeRequest(buf); err != nil {
			b.Fatal(err)
		}
	}
}

func TestOptionsRoundTrip(t *testing.T) {
	for _, want := range []router.Options{
		{},
		{CacheControl: "public, max-age=5", MaxBodyBytes: 1 << 20, MaxURLBytes: 8 << 10,
			PreviewTokens: map[string]string{"b": "tb", "a": "ta", "c": ""}},
	} {
		frame := AppendOptions(nil, &want)
		got, err := DecodeOptions(frame)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("got %#v, want %#v", got, want)
		}
		if again := AppendOptions(nil, &got); !bytes.Equal(again, frame) {
			t.Errorf("options frame not canonical")
		}
	}
	dup := []byte("CDOP\x01\x00\x00\x00" + "\x00\x00\x00\x00" + "\x00\x00\x00\x00\x00\x00\x00\x00" +
		"\x02\x00\x00\x00" + "\x01\x00\x00\x00a\x00\x00\x00\x00" + "\x01\x00\x00\x00a\x00\x00\x00\x00")
	if _, err := DecodeOptions(dup); !errors.Is(err, ErrDuplicate) {
		t.Errorf("duplicate environment: got %v", err)
	}
}

func FuzzDecodeOptions(f *testing.F) {
	f.Add(AppendOptions(nil, &router.Options{CacheControl: "x", PreviewTokens: map[string]string{"a": "b"}}))
	f.Fuzz(func(t *testing.T, data []byte) {
		o, err := DecodeOptions(data)
		if err != nil {
			return
		}
		// Tokens are written sorted, so a frame re-encodes to options equal to its own,
		// not always to its bytes: as long, or 4 bytes longer for a frame of the older
		// form, without the response limit at its end (it decodes with the limit unset
		// and re-encodes with it).
		if o.MaxBodyBytes == math.MaxInt || o.MaxURLBytes == math.MaxInt || o.MaxResponseBytes == math.MaxInt {
			return // a limit of 2 GiB or more, with 32-bit ints: clamped, so not the same bytes
		}
		again := AppendOptions(nil, &o)
		if back, err := DecodeOptions(again); err != nil || !reflect.DeepEqual(back, o) {
			t.Fatalf("re-encoded %q decodes to %+v (%v), not %+v", again, back, err, o)
		}
		switch {
		case len(again) == len(data):
		case len(again) == len(data)+4 && o.MaxResponseBytes == 0:
		default:
			t.Fatalf("re-encoded %q, input %q", again, data)
		}
	})
}

// splitHeaders turns fuzz bytes into header fields: lines of name:value.
func splitHeaders(blob []byte) []edge.Header {
	var hs []edge.Header
	for _, line := range bytes.Split(blob, []byte("\n")) {
		if name, value, ok := bytes.Cut(line, []byte(":")); ok {
			hs = append(hs, edge.Header{Name: string(name), Value: string(value)})
		}
	}
	return hs
}

// FuzzRequestRoundTrip frames arbitrary requests the way the host sends them to the
// module: every request decodes back to itself.
func FuzzRequestRoundTrip(f *testing.F) {
	f.Add("GET", "/cda/rest/v1/demo/contents", "pageSize=2", []byte("accept:*/*\nhost:x"), []byte(nil))
	f.Add("POST", "/cda/es/v1/demo", "", []byte("content-type:application/json"), []byte(`{"query":{"match_all":{}}}`))
	f.Add("", "", "", []byte(":\n::"), []byte{0, 0xff})
	f.Fuzz(func(t *testing.T, method, path, query string, headers, body []byte) {
		req := edge.Request{Method: method, Path: path, RawQuery: query, Headers: splitHeaders(headers), Body: body}
		frame := AppendRequest(nil, &req)
		got, err := DecodeRequest(frame)
		if err != nil {
			t.Fatalf("decode own frame: %v", err)
		}
		if got.Method != req.Method || got.Path != req.Path || got.RawQuery != req.RawQuery ||
			!bytes.Equal(got.Body, req.Body) || len(got.Headers) != len(req.Headers) {
			t.Fatalf("round trip: got %#v, want %#v", got, req)
		}
		for i := range got.Headers {
			if got.Headers[i] != req.Headers[i] {
				t.Fatalf("header %d: got %#v, want %#v", i, got.Headers[i], req.Headers[i])
			}
		}
	})
}

// FuzzResponseRoundTrip frames arbitrary responses the way the module answers: every
// response decodes back to itself.
func FuzzResponseRoundTrip(f *testing.F) {
	f.Add(200, []byte("content-type:application/json\netag:\"x\""), []byte(`{"status":200}`))
	f.Add(304, []byte(nil), []byte(nil))
	f.Add(-1, []byte(":"), []byte{0xff})
	f.Fuzz(func(t *testing.T, status int, headers, body []byte) {
		resp := edge.Response{Status: status, Headers: splitHeaders(headers), Body: body}
		frame := AppendResponse(nil, &resp)
		got, err := DecodeResponse(frame)
		if status < 100 || status > 999 {
			if !errors.Is(err, ErrStatus) {
				t.Fatalf("status %d: got %v, want ErrStatus", status, err)
			}
			return
		}
		if err != nil {
			t.Fatalf("decode own frame: %v", err)
		}
		if got.Status != status || !bytes.Equal(got.Body, resp.Body) || len(got.Headers) != len(resp.Headers) {
			t.Fatalf("round trip: got %#v, want %#v", got, resp)
		}
		for i := range got.Headers {
			if got.Headers[i] != resp.Headers[i] {
				t.Fatalf("header %d: got %#v, want %#v", i, got.Headers[i], resp.Headers[i])
			}
		}
	})
}
