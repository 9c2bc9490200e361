package ingest

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/cdaedge/cdaedge/snapshot"
)

// FuzzNDJSON feeds arbitrary bytes to the builder as an NDJSON input. It must never
// panic or hang; a build without problems must give a snapshot that opens; and, since
// the writer trusts the input reader's checks (AddValidated), every line of such a build
// must also pass the writer's own checks (snapshot.Canonicalize), with the canonical
// form the snapshot holds.
func FuzzNDJSON(f *testing.F) {
	for _, name := range []string{"items.ndjson", "invalid.ndjson", "dangling.ndjson"} {
		b, err := os.ReadFile(filepath.Join("..", "testdata", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	for _, s := range []string{
		"\xef\xbb\xbf{\"ContentID\":\"a\"}\r\n\n{\"ContentID\":\"b\",\"Data\":{\"x\":[1,{\"y\":null}]}}",
		`{"ContentID":"a","Data":{"k":1,"k":2}}`,
		`{"ContentID":"a\u00e9\ud83d\ude00","Name":"x\"y","Data":{"a.b":1,"a":{"b":2}}}`,
		`{"ContentID":"a"} {"ContentID":"b"}`,
		`{"ContentID":"a","Data":{"n":1e400,"m":-0,"s":"\ud800"}}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		b, err := NewBuilder(Options{Environment: "fuzz", Preview: true})
		if err != nil {
			t.Fatal(err)
		}
		if err := b.AddNDJSON("in", bytes.NewReader(data), int64(len(data))); err != nil {
			t.Fatal(err)
		}
		out, _, err := b.Finish()
		var verr *ValidationError
		if errors.As(err, &verr) {
			return
		}
		if err != nil {
			t.Fatal(err)
		}
		snap, err := snapshot.Open(out)
		if err != nil {
			t.Fatalf("the snapshot of an accepted input does not open: %v", err)
		}
		held := map[string]string{}
		for i := range snap.Len() {
			held[snap.ContentID(i)] = string(snap.Item(i))
		}
		for i, line := range bytes.Split(bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")), []byte("\n")) {
			line = bytes.TrimSuffix(line, []byte("\r"))
			if len(bytes.TrimSpace(line)) == 0 {
				continue
			}
			canon, id, _, err := snapshot.Canonicalize(line)
			if err != nil {
				t.Fatalf("line %d was accepted by the input reader but the writer refuses it: %v", i+1, err)
			}
			if held[id] != string(canon) {
				t.Fatalf("line %d: the snapshot holds %q, the writer's canonical form is %q", i+1, held[id], canon)
			}
		}
	})
}
