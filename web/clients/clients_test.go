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
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cdaedge/cdaedge/edge/edgetest"
)

func TestGraphQLClients(t *testing.T) {
	if testing.Short() {
		t.Skip("runs node and the host")
	}
	node, err := exec.LookPath("node")
	if err != nil {
		if os.Getenv("CDA_PARITY_REQUIRED") == "1" {
			t.Fatal("node is not installed")
		}
		t.Skip("node is not installed")
	}
	dir := filepath.Join(edgetest.RepoRoot(t), "web", "clients")
	if _, err := os.Stat(filepath.Join(dir, "node_modules", ".package-lock.json")); err != nil {
		runIn(t, dir, nil, "npm", "ci", "--no-audit", "--no-fund", "--loglevel=error")
	}
	endpoint := "http://" + edgetest.StartHost(t) + "/cda/graphql/v1/" + edgetest.DemoEnvironment

	out := runIn(t, dir, nil, node, "clients.mjs", endpoint)
	t.Logf("clients.mjs:\n%s", out)

	// GraphQL Code Generator reads the schema from the host, tsc compiles the typed
	// client against what it generated, and the compiled client runs.
	if err := os.RemoveAll(filepath.Join(dir, ".gen")); err != nil {
		t.Fatal(err)
	}
	runIn(t, dir, []string{"CDA_GRAPHQL_URL=" + endpoint}, node, filepath.Join("node_modules", "@graphql-codegen", "cli", "esm", "bin.js"), "--config", "codegen.ts")
	runIn(t, dir, nil, node, filepath.Join("node_modules", "typescript", "bin", "tsc"), "-p", "tsconfig.json")
	t.Logf("%s", runIn(t, dir, nil, node, filepath.Join(".gen", "out", "typed-client.js"), endpoint))
}

// runIn runs a command in dir and returns its output; failing, it fails the test with
// the output.
func runIn(t *testing.T, dir string, env []string, name string, args ...string) []byte {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", filepath.Base(name), strings.Join(args, " "), err, out)
	}
	return out
}
