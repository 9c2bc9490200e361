package edgetest

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Need returns the path of a program the test requires, skipping the test when it is
// missing, or failing it under CDA_PARITY_REQUIRED=1 (as go tool task test sets).
func Need(t testing.TB, name string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		if os.Getenv("CDA_PARITY_REQUIRED") == "1" {
			t.Fatalf("%s is not installed", name)
		}
		t.Skipf("%s is not installed", name)
	}
	return p
}

// RunIn runs a command in dir with env added to the test's environment and returns its
// output; when the command fails, it fails the test with the output.
func RunIn(t testing.TB, dir string, env []string, name string, args ...string) []byte {
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

// NodePackage returns node and the repository folder at path (slash-separated), with
// its npm packages installed from its lockfile (npm ci, which never rewrites it). It
// skips the test under -short, and as Need does when node is missing.
func NodePackage(t testing.TB, path string) (node, dir string) {
	t.Helper()
	if testing.Short() {
		t.Skip("runs node")
	}
	node = Need(t, "node")
	dir = filepath.Join(RepoRoot(t), filepath.FromSlash(path))
	if _, err := os.Stat(filepath.Join(dir, "node_modules", ".package-lock.json")); err != nil {
		RunIn(t, dir, nil, "npm", "ci", "--no-audit", "--no-fund", "--loglevel=error")
	}
	return node, dir
}
