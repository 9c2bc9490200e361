package graphql_test

import (
	"testing"

	"github.com/cdaedge/cdaedge/builder/ingest"
	"github.com/cdaedge/cdaedge/edge/content"
	"github.com/cdaedge/cdaedge/edge/graphql"
	"github.com/cdaedge/cdaedge/snapshot"
	"github.com/cdaedge/cdaedge/snapshot/snapshottest"
)

// TestShapesSectionBuilt: the builder stores the shapes section, and for the demo
// environments the conformance tables run against (published and preview) and the
// builder's own test content, a schema typed from it answers its SDL and introspection
// byte for byte as one typed by reading every item, in both modes, also in a snapshot
// opened on its index part alone, without reading any item body.
func TestShapesSectionBuilt(t *testing.T) {
	for _, c := range []struct {
		name    string
		preview bool
		path    string
	}{
		{"demo", false, "../../testdata/demo/content.ndjson"},
		{"demo-preview", true, "../../testdata/demo/content.ndjson"},
		{"builder-items", false, "../../builder/testdata/items.ndjson"},
		{"builder-items-json", true, "../../builder/testdata/items.json"},
	} {
		t.Run(c.name, func(t *testing.T) {
			data, _, err := ingest.BuildFiles(ingest.Options{Environment: c.name, Preview: c.preview}, c.path)
			if err != nil {
				t.Fatal(err)
			}
			snap, err := snapshot.Open(data)
			if err != nil {
				t.Fatal(err)
			}
			sec, ok := snap.Section(graphql.ShapesSection)
			if !ok {
				t.Fatalf("the builder wrote no %s section", graphql.ShapesSection)
			}
			fromSection, ok := graphql.SchemaTypedFrom(snap, true)
			if !ok {
				t.Fatalf("the %s section (%d bytes) does not decode", graphql.ShapesSection, len(sec))
			}
			fromItems, _ := graphql.SchemaTypedFrom(snap, false)
			got, err := graphql.SchemaAnswers(fromSection)
			if err != nil {
				t.Fatal(err)
			}
			want, err := graphql.SchemaAnswers(fromItems)
			if err != nil {
				t.Fatal(err)
			}
			for answer, w := range want {
				if got[answer] != w {
					t.Errorf("%s: typed from the section:\n%s\ntyped from the items:\n%s", answer, got[answer], w)
				}
			}
			checkIndexOnly(t, data, want)
			t.Logf("%d items, section %d bytes, SDL %d bytes", snap.Len(), len(sec), len(want["SDL standard"]))
		})
	}
}

// checkIndexOnly opens the index part of the snapshot file data alone, as the
// WebAssembly module does, and checks that its schema answers want without asking for
// any item body.
func checkIndexOnly(t *testing.T, data []byte, want map[string]string) {
	t.Helper()
	snap := snapshottest.OpenIndex(t, data)
	if snap.BodiesResident() {
		t.Fatal("the index part alone holds the item bodies")
	}
	got, err := graphql.SchemaAnswers(graphql.NewSchema(snap, content.NewFields(snap)))
	if err != nil {
		t.Fatal(err)
	}
	if missing := snap.MissingBlocks(nil); len(missing) > 0 {
		t.Errorf("typing the schema read item bodies: %d blocks", len(missing))
	}
	for answer, w := range want {
		if got[answer] != w {
			t.Errorf("%s: the index part's schema differs:\n%s\nwant:\n%s", answer, got[answer], w)
		}
	}
}
