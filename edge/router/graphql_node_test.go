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

// documentedStandard are the documented queries of API.md ("GraphQL: query content") written in standard GraphQL
// syntax (no empty `()` or `{ }`), which graphql-js must validate against our schema in
// the envelope mode. Data is typed (ContentData), so standard GraphQL selects elements
// of it; selecting Data whole is the dialect's (D9), which graphql-js rightly refuses.
var documentedStandard = []string{
	`query { content { Status CreatedBy CreatedAt Data { title } PublishedBy UpdatedAt Name PublishedAt UpdatedBy TemplateName TemplateID ContentID } }`,
	`query { content { Name, ContentID } }`,
	`query { content(pageSize: 3, page: 1, sortAsc: true) { Name } }`,
	`query { content(pageSize: 3, page: 1, sortAsc: true, PublishedBy: "Erian Suwandi") { Name, ContentID, PublishedBy } }`,
	`query { content(contentId: "Content_9b77044f-f2d4-46d9-a5c6-f68df62306e4") { Name } }`,
	`query { content(templateName: "Page", data: {urlPath: "/home"}) { Name } }`,
	`query { content(CreatedAt_gte: "2021-04-23T00:00:00", UpdatedAt_lt: "2022-01-01T00:00:00") { Name } }`,
	`query { content(contentId: "Content_f6a2bcc3-d3fd-4878-bf91-e377d19594ce", retrieveChild: true, depth: 1) { Name } }`,
	`query Items($n: Int, $d: JSON, $id: ID) { content(pageSize: $n, data: $d, contentID: $id) { ...F } } fragment F on Content { __typename ContentID ParentID }`,
	`query($n: String) { content(name: $n, pageSize: 5) { Name Data { title slug } } }`,
	`query { content(pageSize: 2) { Data { title hero { MediaUrl AltText } featured { ContentIDs } file { Extension Size } tags } } }`,
}

// standardQueries are queries as typed clients (Apollo, urql, graphql-request, GraphQL
// Code Generator) send them in the standard mode: variables, fragments (on Content and
// on the inferred types), aliases, contentPage with totalItems, DataJSON.
var standardQueries = append([]string{
	`query Page($page: Int!, $size: Int!) { contentPage(page: $page, pageSize: $size, sort: "Name", sortAsc: true) { totalItems page pageSize items { __typename ContentID Name } } }`,
	`query Two { newest: content(pageSize: 1) { ...Card } oldest: content(pageSize: 1, sortAsc: true) { ...Card } } fragment Card on Content { ContentID Name Data { ...Media } } fragment Media on ContentData { hero { ...Hero } } fragment Hero on MediaReference { MediaUrl AltText Size }`,
	`query { content(contentId: "Content_9b77044f-f2d4-46d9-a5c6-f68df62306e4") { DataJSON Data { __typename price tags showInMenu menuOrder weight { unit value } } } }`,
}, documentedStandard...)

// TestGraphQLSchemaWithGraphQLJS checks D9's promise that GraphiQL and code generators
// work: graphql-js (pinned in web/graphql-check) builds a client schema from our answer
// to its own introspection query, builds a schema from schema.graphql, finds the two
// equal, validates the documented queries against both, and finds the types inferred
// from the demo's items, in each mode.
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
	introQuery := run(nil, "introspection-query")
	// Types every mode must give (the demo's items decide them, D9).
	types := map[string]string{
		"Content.Data": "ContentData", "Content.ContentID": "ID!", "Content.ParentID": "String",
		"Content.SortOrder": "Float", "ContentData.title": "String", "ContentData.price": "Float",
		"ContentData.helpful": "Int", "ContentData.showInMenu": "Boolean", "ContentData.tags": "[String!]",
		"ContentData.hero": "MediaReference", "ContentData.featured": "ContentReference",
		"ContentData.file": "ContentData_file", "ContentData_file.Size": "Int",
		"ContentReference.ContentIDs": "[ID!]", "MediaReference.MediaUrl": "String",
	}
	for _, mode := range []struct {
		name    string
		headers []edge.Header
		query   string
		queries []string
		invalid []string
		types   map[string]string
	}{
		{"envelope", nil, "", documentedStandard,
			[]string{`{ content { Nope } }`, `{ content(nope: 1) { Name } }`, `{ content(pageSize: "3") { Name } }`,
				`{ content { Data { nope } } }`, `{ content { Data { title { x } } } }`, `{ contentPage { totalItems } }`, `{ content { DataJSON } }`},
			map[string]string{"Query.content": "[Content!]"}},
		{"standard", []edge.Header{{Name: "Accept", Value: "application/graphql-response+json, application/json"}}, "mode=standard", standardQueries,
			[]string{`{ content { Nope } }`, `{ content { Data { nope } } }`, `{ contentPage { nope } }`, `{ content { DataJSON { x } } }`,
				`query($n: String) { contentPage(pageSize: $n) { totalItems } }`},
			map[string]string{"Query.content": "[Content!]!", "Query.contentPage": "ContentPage!", "ContentPage.totalItems": "Int!",
				"ContentPage.items": "[Content!]!", "Content.DataJSON": "JSON"}},
	} {
		t.Run(mode.name, func(t *testing.T) {
			h := edgetest.NativeHandler(t)
			intro, _ := h.Serve(&edge.Request{Method: "POST", Path: "/cda/graphql/v1/demo", Body: introQuery,
				Headers: append([]edge.Header{{Name: "Content-Type", Value: "application/json"}}, mode.headers...)})
			if intro.Status != 200 {
				t.Fatalf("introspection: %d %s", intro.Status, intro.Body)
			}
			sdl, _ := h.Serve(&edge.Request{Method: "GET", Path: "/cda/graphql/v1/demo/schema.graphql", RawQuery: mode.query})
			if sdl.Status != 200 {
				t.Fatalf("schema.graphql: %d %s", sdl.Status, sdl.Body)
			}
			want := map[string]string{}
			for k, v := range types {
				want[k] = v
			}
			for k, v := range mode.types {
				want[k] = v
			}
			input, _ := json.Marshal(map[string]any{
				"introspection": json.RawMessage(intro.Body),
				"sdl":           string(sdl.Body),
				"queries":       mode.queries,
				"invalid":       mode.invalid,
				"types":         want,
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
		})
	}
}
