package config

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func env(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

func TestFlagsAndEnvironment(t *testing.T) {
	tokens := filepath.Join(t.TempDir(), "tokens")
	if err := os.WriteFile(tokens, []byte("# preview tokens\nstaging = s3cret\n\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	c, err := Parse([]string{"--addr", ":9", "--preview-token", "a=1", "--write-timeout", "3s"}, env(map[string]string{
		"CDA_SNAPSHOTS":           "/snaps",
		"CDA_ADDR":                ":8",
		"CDA_PREVIEW_TOKEN":       "b=2, c=3",
		"CDA_PREVIEW_TOKENS_FILE": tokens,
		"CDA_COMPRESS":            "false",
		"CDA_MAX_BODY_BYTES":      "100",
	}), &out)
	if err != nil {
		t.Fatal(err, out.String())
	}
	if c.Snapshots != "/snaps" || c.Addr != ":9" || c.Compress || c.Router.MaxBodyBytes != 100 || c.WriteTimeout != 3*time.Second {
		t.Errorf("got %+v", c)
	}
	want := map[string]string{"a": "1", "b": "2", "c": "3", "staging": "s3cret"}
	if len(c.Router.PreviewTokens) != len(want) {
		t.Errorf("tokens %v", c.Router.PreviewTokens)
	}
	for k, v := range want {
		if c.Router.PreviewTokens[k] != v {
			t.Errorf("token %s", k)
		}
	}
	if c.Router.CacheControl != "public, max-age=60" || c.ReadHeaderTimeout != 5*time.Second || !c.Watch {
		t.Errorf("defaults: %+v", c)
	}
}

func TestHelpListsEveryVariableAndNoSecret(t *testing.T) {
	var out bytes.Buffer
	_, err := Parse([]string{"--help"}, env(map[string]string{"CDA_PREVIEW_TOKEN": "env=topsecret"}), &out)
	if !errors.Is(err, ErrHelp) {
		t.Fatalf("got %v", err)
	}
	for _, name := range []string{"CDA_SNAPSHOTS", "CDA_PREVIEW_TOKEN", "CDA_PREVIEW_TOKENS_FILE", "CDA_CACHE_CONTROL",
		"CDA_READ_HEADER_TIMEOUT", "CDA_READ_TIMEOUT", "CDA_WRITE_TIMEOUT", "CDA_IDLE_TIMEOUT", "CDA_MAX_HEADER_BYTES",
		"CDA_SHUTDOWN_TIMEOUT", "CDA_MAX_BODY_BYTES", "CDA_MAX_URL_BYTES"} {
		if !strings.Contains(out.String(), name) {
			t.Errorf("--help lacks %s", name)
		}
	}
	if strings.Contains(out.String(), "topsecret") {
		t.Errorf("--help shows a token")
	}
}

func TestErrors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		env  map[string]string
		want string
	}{
		{nil, nil, "--snapshots"},
		{[]string{"--snapshots", "x", "--preview-token", "nope"}, nil, "ENV=TOKEN"},
		{[]string{"--snapshots", "x"}, map[string]string{"CDA_INSTANCES": "many"}, "CDA_INSTANCES"},
		{[]string{"--snapshots", "x", "extra"}, nil, "unexpected"},
	} {
		var out bytes.Buffer
		if _, err := Parse(tc.args, env(tc.env), &out); err == nil || !strings.Contains(err.Error()+out.String(), tc.want) {
			t.Errorf("%v %v: got %v", tc.args, tc.env, err)
		}
	}
	bad := filepath.Join(t.TempDir(), "tokens")
	if err := os.WriteFile(bad, []byte("just-a-secret-value\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := Parse([]string{"--snapshots", "x", "--preview-tokens-file", bad}, env(nil), &bytes.Buffer{})
	if err == nil || strings.Contains(err.Error(), "just-a-secret-value") || !strings.Contains(err.Error(), "line 1") {
		t.Errorf("tokens file error: %v", err)
	}
}
