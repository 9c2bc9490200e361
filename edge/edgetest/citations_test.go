package edgetest

import (
	"bufio"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// outsideCitation matches what a reader of a clone cannot follow: documents outside
// the repository, issue numbers, and the names the API reference had before it moved
// into the repository. The API reference is edge/API.md, cited as "API.md D4".
var outsideCitation = regexp.MustCompile(`\.\./shared|decisions\.md|cda-spec|\bISSUE ?#?[0-9]|\b[Ii]ssue #[0-9]|DIFFERENCES\.md|\bspec §|\bdecisions D[0-9]`)

// TestRepoCitesOnlyItself: code, comments, help texts, messages and documents cite
// only what a clone holds.
func TestRepoCitesOnlyItself(t *testing.T) {
	root := RepoRoot(t)
	self, _ := filepath.Abs("citations_test.go")
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if path != root && (strings.HasPrefix(name, ".") || name == "node_modules" || name == "build") {
				return filepath.SkipDir
			}
			return nil
		}
		switch filepath.Ext(name) {
		case ".go", ".md", ".toml", ".mjs", ".cjs", ".js", ".jsx", ".ts", ".yml", ".yaml", ".sh", ".java", ".capnp", ".html", ".css":
		default:
			return nil
		}
		if path == self || strings.HasSuffix(name, ".min.js") {
			return nil
		}
		f, err := os.Open(path)
		if err != nil {
			return err
		}
		defer f.Close()
		sc := bufio.NewScanner(f)
		sc.Buffer(nil, 1<<20)
		for line := 1; sc.Scan(); line++ {
			if m := outsideCitation.FindString(sc.Text()); m != "" {
				rel, _ := filepath.Rel(root, path)
				t.Errorf("%s:%d cites %q, outside the repository (cite edge/API.md instead)", rel, line, m)
			}
		}
		return sc.Err()
	})
	if err != nil {
		t.Fatal(err)
	}
}
