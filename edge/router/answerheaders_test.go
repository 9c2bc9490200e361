package router

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/cdaedge/cdaedge/edge"
)

// TestAnswerHeadersListsEveryHeaderRead: the engine's code reads a request's headers
// only through edge.HeaderValue(req.Headers, "<name>") with a name listed in
// edge.AnswerHeaders (or If-None-Match), so that a cache keyed on those headers never
// serves one request's answer to another that would get a different one.
func TestAnswerHeadersListsEveryHeaderRead(t *testing.T) {
	uses := regexp.MustCompile(`req\.Headers`)
	reads := regexp.MustCompile(`edge\.HeaderValue\(req\.Headers, "([A-Za-z-]+)"\)`)
	allowed := append(edge.AnswerHeaders[:], "If-None-Match")
	found := 0
	err := filepath.WalkDir("..", func(path string, d fs.DirEntry, err error) error {
		// edgetest is the tests' own, wire frames whole requests between runtimes.
		slash := filepath.ToSlash(path)
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") ||
			strings.Contains(slash, "/edgetest/") || strings.Contains(slash, "/wire/") {
			return err
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		text := string(src)
		for _, m := range reads.FindAllStringSubmatch(text, -1) {
			found++
			if !slices.Contains(allowed, m[1]) {
				t.Errorf("%s reads request header %q, which edge.AnswerHeaders does not list", path, m[1])
			}
		}
		if n, m := len(uses.FindAllString(text, -1)), len(reads.FindAllString(text, -1)); n != m {
			t.Errorf("%s uses req.Headers %d times but reads named headers %d times: read them with edge.HeaderValue and a literal name", path, n, m)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if found == 0 {
		t.Fatal("found no header reads: the scan is broken")
	}
}
