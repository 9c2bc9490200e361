// Package clients runs real GraphQL clients against the host (API.md D9): graphql-request,
// Apollo Client (with its cache) and urql in clients.mjs, then GraphQL Code Generator
// types the documents of documents/ from the host's schema and tsc compiles
// typed-client.ts against those types, which then runs against the host too. The clients
// are the exact versions of package-lock.json (go tool task tools:npm:clients installs
// them; this test runs npm ci when they are missing), each with its own fetch.
//
// Inputs, set by `go tool task test`:
//
//	CDA_HOST               the host binary to run (build/host, the module embedded);
//	                       else the test builds the host and runs its native engine
//	CDA_PARITY_REQUIRED=1  a missing node fails instead of skipping
package clients

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/cdaedge/cdaedge/edge/edgetest"
)

func TestGraphQLClients(t *testing.T) {
	node, dir := edgetest.NodePackage(t, "web/clients")
	endpoint := "http://" + edgetest.StartHost(t) + "/cda/graphql/v1/" + edgetest.DemoEnvironment

	out := edgetest.RunIn(t, dir, nil, node, "clients.mjs", endpoint)
	t.Logf("clients.mjs:\n%s", out)

	// GraphQL Code Generator reads the schema from the host, tsc compiles the typed
	// client against what it generated, and the compiled client runs.
	if err := os.RemoveAll(filepath.Join(dir, ".gen")); err != nil {
		t.Fatal(err)
	}
	edgetest.RunIn(t, dir, []string{"CDA_GRAPHQL_URL=" + endpoint}, node, filepath.Join("node_modules", "@graphql-codegen", "cli", "esm", "bin.js"), "--config", "codegen.ts")
	edgetest.RunIn(t, dir, nil, node, filepath.Join("node_modules", "typescript", "bin", "tsc"), "-p", "tsconfig.json")
	t.Logf("%s", edgetest.RunIn(t, dir, nil, node, filepath.Join(".gen", "out", "typed-client.js"), endpoint))
}
