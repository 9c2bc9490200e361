// Package snapshottest builds small snapshots from inline items for tests.
package snapshottest

import (
	"testing"

	"github.com/cdaedge/cdaedge/snapshot"
)

// Bytes builds a snapshot of items (JSON objects) for environment env and returns the
// file's bytes; any error fails the test.
func Bytes(tb testing.TB, env string, preview bool, items ...string) []byte {
	tb.Helper()
	w, err := snapshot.NewWriter(env, preview)
	if err != nil {
		tb.Fatal(err)
	}
	for _, it := range items {
		if err := w.Add([]byte(it)); err != nil {
			tb.Fatal(err)
		}
	}
	b, err := w.Bytes()
	if err != nil {
		tb.Fatal(err)
	}
	return b
}

// Open builds a snapshot of items for environment env and opens it.
func Open(tb testing.TB, env string, preview bool, items ...string) *snapshot.Snapshot {
	tb.Helper()
	s, err := snapshot.Open(Bytes(tb, env, preview, items...))
	if err != nil {
		tb.Fatal(err)
	}
	return s
}
