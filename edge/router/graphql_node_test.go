package router_test

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cdaedge/cdaedge/edge"
	"github.com/cdaedge/cdaedge/edge/edgetest"
)

// documentedStandard are the documented queries of spec §3 written in standard GraphQL
// syntax (no empty `()` or `{ }`), which graphql-js must validate against our schema.
var documentedStandard = []string{
	`query { content { Status CreatedBy CreatedAt Data PublishedBy UpdatedAt Name PublishedAt UpdatedBy TemplateName TemplateID ContentID } }`,
	`query { content { Name, ContentID } }`,
	`query { content(pageSize: 3, page: 1, sortAsc: true) { Name } }`,
	`query { content(pageSize: 3, page: 1, sortAsc: true, PublishedBy: "Erian Suwandi") { Name, ContentID, PublishedBy } }`,
	`query { content(contentId: "Content_9b77044f-f2d4-46d9-a5c6-f68df62306e4") { Name } }`,
	`query { content(templateName: "Page", data: {urlPath: "/home"}) { Name } }`,
	`query { content(CreatedAt_gte: "2021-04-23T00:00:00", UpdatedAt_lt: "2022-01-01T00:00:00") { Name } }`,
	`query { content(contentId: "Content_f6a2bcc3-d3fd-4878-bf91-e377d19594ce", retrieveChild: true, depth: 1) { Name } }`,
	`query Items($n: Int, $d: JSON, $id: ID) { content(pageSize: $n, data: $d, contentID: $id) { ...F } } fragment F on Content { __typename ContentID ParentID }`,
}

// TestGraphQLSchemaWithGraphQLJS checks D9's promise that GraphiQL and code generators
// work: graphql-js (pinned in web/graphql-check) builds a client schema from our answer
// to its own introspection query, builds a schema from schema.graphql, finds the two
// equal, and validates the documented queries against both.
func TestGraphQLSchemaWithGraphQLJS(t *testing.T) {
	if testing.Short() {
		t.Skip("runs node")
	}
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed")
	}
	dir := filepath.Join(edgetest.RepoRoot(t), "web", "graphql-check")
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "graphql", "package.json")); err != nil {
		cmd := exec.Command("npm", "ci", "--no-audit", "--no-fund")
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("npm ci in %s: %v\n%s", dir, err, out)
		}
	}
	run := func(input []byte, args ...string) []byte {
		cmd := exec.Command(node, append([]string{"check.mjs"}, args...)...)
		cmd.Dir = dir
		cmd.Stdin = bytes.NewReader(input)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("node check.mjs %s: %v\n%s", strings.Join(args, " "), err, stderr.Bytes())
		}
		return out
	}

	h := edgetest.NativeHandler(t)
	introQuery := run(nil, "introspection-query")
	intro, _ := h.Serve(&edge.Request{Method: "POST", Path: "/cda/graphql/v1/demo", Body: introQuery,
		Headers: []edge.Header{{Name: "Content-Type", Value: "application/json"}}})
	if intro.Status != 200 {
		t.Fatalf("introspection: %d %s", intro.Status, intro.Body)
	}
	sdl, _ := h.Serve(&edge.Request{Method: "GET", Path: "/cda/graphql/v1/demo/schema.graphql"})
	if sdl.Status != 200 {
		t.Fatalf("schema.graphql: %d %s", sdl.Status, sdl.Body)
	}
	input, _ := json.Marshal(map[string]any{
		"introspection": json.RawMessage(intro.Body),
		"sdl":           string(sdl.Body),
		"queries":       documentedStandard,
		"invalid": []string{
			`{ content { Nope } }`,
			`{ content(nope: 1) { Name } }`,
			`{ content(pageSize: "3") { Name } }`,
		},
	})
	var verdict struct {
		OK       bool     `json:"ok"`
		Problems []string `json:"problems"`
	}
	out := run(input, "check")
	if err := json.Unmarshal(out, &verdict); err != nil {
		t.Fatalf("check.mjs answered %q: %v", out, err)
	}
	for _, p := range verdict.Problems {
		t.Error(p)
	}
	if !verdict.OK && len(verdict.Problems) == 0 {
		t.Error("graphql-js check failed without a reason")
	}
}
