package edge

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// forbiddenImports are packages the module must not use: TinyGo lacks or breaks them on
// wasm, or they drag in reflection-heavy code that blows the size budget.
var forbiddenImports = map[string]string{
	"os":                                     "no file system at the edge",
	"os/exec":                                "no processes at the edge",
	"net":                                    "no sockets at the edge",
	"net/http":                               "the router is independent of any HTTP library",
	"encoding/json":                          "reflection-based; use jsonr to read and jsonw to write",
	"text/template":                          "panics at run time under TinyGo",
	"html/template":                          "panics at run time under TinyGo",
	"sync":                                   "the module is single-threaded; no goroutines",
	"fmt":                                    "about 30 KB of the TinyGo module; use strconv",
	"regexp":                                 "about 65 KB of the TinyGo module with the Unicode tables; use edge/automaton",
	"github.com/tidwall/gjson":               "its path and modifier machinery is ~50 KB of the TinyGo module; use edge/jsonr",
	"github.com/clipperhouse/uax29/v2/words": "its trie is 105 KB of the TinyGo module; use analysis/internal/wordbreak",
	"encoding/hex":                           "imports fmt",
	"runtime/debug":                          "imports fmt and os, whose initialisation alone was ~340 KB of the std module",
}

// forbiddenDependencies are the forbidden imports that must not reach the module even
// indirectly, through the standard library: a package's initialisation is linked
// whether or not its functions are called (sync is fine there: strings uses it).
var forbiddenDependencies = []string{
	"os", "fmt", "encoding/json", "regexp", "text/template", "html/template", "net",
	"github.com/tidwall/gjson", "github.com/clipperhouse/uax29/v2/words",
}

// TestModuleDependencies lists every package linked into the std module (./wasm for
// wasip1) and fails on a forbidden one, naming what imports it.
func TestModuleDependencies(t *testing.T) {
	cmd := exec.Command("go", "list", "-deps", "-f", "{{.ImportPath}}{{range .Imports}} {{.}}{{end}}", "./wasm")
	cmd.Dir = ".."
	cmd.Env = append(os.Environ(), "GOOS=wasip1", "GOARCH=wasm")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	importers := map[string][]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		fields := strings.Fields(line)
		for _, imp := range fields[1:] {
			importers[imp] = append(importers[imp], fields[0])
		}
	}
	if len(importers) == 0 {
		t.Fatal("go list printed no dependencies")
	}
	for _, p := range forbiddenDependencies {
		if by, ok := importers[p]; ok {
			t.Errorf("the module links %s (imported by %s): %s", p, strings.Join(by, ", "), forbiddenImports[p])
		}
	}
}

// TestTinyGoCompatible keeps snapshot/ and edge/ (the code compiled into the module)
// free of what TinyGo cannot run: forbidden imports, goroutines and recover-based
// control flow. Test files and test-helper packages (edgetest) may use anything.
func TestTinyGoCompatible(t *testing.T) {
	fset := token.NewFileSet()
	for _, root := range []string{".", "../snapshot"} {
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() {
				if name := d.Name(); name == "testdata" || strings.HasSuffix(name, "test") && path != root {
					return filepath.SkipDir
				}
				return nil
			}
			if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
				return nil
			}
			f, err := parser.ParseFile(fset, path, nil, parser.ParseComments)
			if err != nil {
				return err
			}
			if excludedFromWasm(f) {
				return nil // the snapshot writer: builder-only, never in the module
			}
			for _, imp := range f.Imports {
				p, _ := strconv.Unquote(imp.Path.Value)
				if why, bad := forbiddenImports[p]; bad {
					t.Errorf("%s imports %s: %s", path, p, why)
				}
			}
			ast.Inspect(f, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.GoStmt:
					t.Errorf("%s: go statement: the module is single-threaded", fset.Position(n.Pos()))
				case *ast.CallExpr:
					if id, ok := n.Fun.(*ast.Ident); ok && id.Name == "recover" {
						t.Errorf("%s: recover does not work under TinyGo on wasm (a panic traps)", fset.Position(n.Pos()))
					}
				}
				return true
			})
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
}

// excludedFromWasm reports whether f's build constraint leaves it out of wasm builds.
func excludedFromWasm(f *ast.File) bool {
	for _, g := range f.Comments {
		if g.Pos() > f.Package {
			break
		}
		for _, c := range g.List {
			if strings.HasPrefix(c.Text, "//go:build ") && strings.Contains(c.Text, "!wasm") {
				return true
			}
		}
	}
	return false
}
