package main

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/klauspost/compress/zstd"
)

func get(t *testing.T, url string, hdr map[string]string) (*http.Response, []byte) {
	t.Helper()
	return do(t, "GET", url, hdr)
}

func do(t *testing.T, method, url string, hdr map[string]string) (*http.Response, []byte) {
	t.Helper()
	req, err := http.NewRequest(method, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	// No transparent decompression: the test reads what the host sent.
	resp, err := (&http.Transport{DisableCompression: true}).RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, b
}

// TestOperations covers the host's own HTTP duties: health, readiness, metrics,
// access logs, compression with its ETags and Vary, HEAD, and preview tokens kept out
// of the logs.
func TestOperations(t *testing.T) {
	dir := demoDir(t)
	addr, _, logs := startHostProc(t, "--snapshots", dir, "--engine", "native", "--preview-token", "preview="+previewToken)
	base := "http://" + addr

	if resp, b := get(t, base+"/healthz", nil); resp.StatusCode != 200 || !bytes.Contains(b, []byte(`"ok"`)) {
		t.Errorf("healthz: %d %s", resp.StatusCode, b)
	}
	resp, b := get(t, base+"/readyz", nil)
	var ready struct {
		Status       string
		Environments []struct {
			ID      string
			Preview bool
			Items   int
		}
	}
	if err := json.Unmarshal(b, &ready); err != nil || resp.StatusCode != 200 || len(ready.Environments) != 2 {
		t.Errorf("readyz: %d %s", resp.StatusCode, b)
	}

	list := base + "/cda/rest/v1/demo/contents"
	plain, plainBody := get(t, list, nil)
	if plain.StatusCode != 200 || plain.Header.Get("Content-Encoding") != "" || plain.Header.Get("Vary") != "Accept-Encoding" {
		t.Fatalf("plain: %d %v", plain.StatusCode, plain.Header)
	}
	etag := plain.Header.Get("ETag")
	z, zb := get(t, list, map[string]string{"Accept-Encoding": "gzip;q=0.8, zstd"})
	if z.Header.Get("Content-Encoding") != "zstd" || z.Header.Get("ETag") == etag || len(zb) >= len(plainBody) {
		t.Fatalf("zstd: %v (%d bytes)", z.Header, len(zb))
	}
	dec, _ := zstd.NewReader(nil)
	defer dec.Close()
	if got, err := dec.DecodeAll(zb, nil); err != nil || !bytes.Equal(got, plainBody) {
		t.Errorf("zstd body differs: %v", err)
	}
	g, _ := get(t, list, map[string]string{"Accept-Encoding": "gzip"})
	if g.Header.Get("Content-Encoding") != "gzip" || !strings.HasSuffix(g.Header.Get("ETag"), `-gzip"`) {
		t.Errorf("gzip: %v", g.Header)
	}
	// Each representation's tag revalidates, with the tag of the representation sent.
	nm, nb := get(t, list, map[string]string{"Accept-Encoding": "zstd", "If-None-Match": z.Header.Get("ETag")})
	if nm.StatusCode != 304 || len(nb) != 0 || nm.Header.Get("ETag") != z.Header.Get("ETag") || nm.Header.Get("Vary") != "Accept-Encoding" {
		t.Errorf("304 zstd: %d %v", nm.StatusCode, nm.Header)
	}
	if nm, _ := get(t, list, map[string]string{"If-None-Match": etag}); nm.StatusCode != 304 {
		t.Errorf("304 identity: %d", nm.StatusCode)
	}
	// HEAD: the GET's headers and length, no body.
	h, hb := do(t, "HEAD", list, map[string]string{"Accept-Encoding": "zstd"})
	if h.StatusCode != 200 || len(hb) != 0 || h.ContentLength != int64(len(zb)) || h.Header.Get("ETag") != z.Header.Get("ETag") {
		t.Errorf("HEAD: %d %d %v", h.StatusCode, h.ContentLength, h.Header)
	}
	// Preview: the right token serves privately; the token never reaches the log.
	p, _ := get(t, base+"/cda/rest/v1/preview/contents", map[string]string{"Authorization": "Bearer " + previewToken})
	if p.StatusCode != 200 || p.Header.Get("Cache-Control") != "private, no-store" {
		t.Errorf("preview: %d %v", p.StatusCode, p.Header)
	}
	// A wrong token answers exactly as a missing one; both are counted and logged
	// without the token.
	wrong, wrongBody := get(t, base+"/cda/rest/v1/preview/contents", map[string]string{"Authorization": "Bearer nope-wrong-token"})
	missing, missingBody := get(t, base+"/cda/rest/v1/preview/contents", nil)
	if wrong.StatusCode != 401 || missing.StatusCode != 401 || !bytes.Equal(wrongBody, missingBody) {
		t.Errorf("preview, wrong token: %d %s; missing token: %d %s", wrong.StatusCode, wrongBody, missing.StatusCode, missingBody)
	}
	// A client's request id is kept.
	if r, _ := get(t, base+"/cda/rest/v1/nope/contents", map[string]string{"X-Request-Id": "abc-123"}); r.Header.Get("X-Request-Id") != "abc-123" || r.StatusCode != 404 {
		t.Errorf("request id: %v", r.Header)
	}

	resp, b = get(t, base+"/metrics", nil)
	for _, want := range []string{
		`cda_http_requests_total{env="demo",route="rest.list",status="200"}`,
		`cda_http_requests_total{env="preview",route="rest.list",status="401"} 2`,
		`cda_preview_auth_failures_total{env="preview"} 2`,
		`cda_http_requests_total{env="",route="rest.list",status="404"}`,
		`cda_http_request_duration_seconds_bucket{route="rest.list"`,
		`cda_snapshot_info{env="demo",preview="false",version="`,
		`cda_snapshot_bytes{env="preview"}`,
		`cda_engine_instances`, `cda_engine_traps_total 0`,
		`cda_snapshot_reloads_total{result="rejected"} 0`,
		`process_resident_memory_bytes`,
	} {
		if !bytes.Contains(b, []byte(want)) {
			t.Errorf("metrics lack %s", want)
		}
	}

	// Access log: one JSON line per request with the documented fields.
	var found bool
	denied := 0
	for _, line := range strings.Split(logs.String(), "\n") {
		if strings.Contains(line, previewToken) || strings.Contains(line, "nope-wrong-token") {
			t.Errorf("the log shows a preview token: %s", line)
		}
		if strings.Contains(line, `"msg":"preview access denied"`) {
			denied++
		}
		var e map[string]any
		if json.Unmarshal([]byte(line), &e) != nil || e["msg"] != "request" || e["id"] != "abc-123" {
			continue
		}
		found = true
		for _, k := range []string{"env", "route", "status", "bytes", "duration_ms", "method"} {
			if _, ok := e[k]; !ok {
				t.Errorf("access log lacks %s: %s", k, line)
			}
		}
	}
	if !found {
		t.Errorf("no access log line for request abc-123:\n%s", logs)
	}
	if denied != 2 {
		t.Errorf("%d preview access denied lines, want 2", denied)
	}
}
