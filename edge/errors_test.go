package edge

import (
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

type stringer struct{}

func (stringer) String() string { return "Term(x)" }

// TestFormatMessage checks that Errorf's formatter agrees with fmt for every verb and
// argument type it claims to understand.
func TestFormatMessage(t *testing.T) {
	cases := []struct {
		format string
		args   []any
	}{
		{"plain", nil},
		{"100%% sure", nil},
		{"%s and %q", []any{"a b", "quo\"te\n"}},
		{"%q", []any{"ünï\x00code"}},
		{"%d items, %d, %d, %d, %d", []any{3, int64(-4), int32(5), uint32(6), uint64(7)}},
		{"%v %v %v", []any{float32(0.1), 1.5e300, true}},
		{"%v / %s", []any{errors.New("boom"), stringer{}}},
		{"%s", []any{stringer{}}},
		{"trailing %", nil},
	}
	for _, c := range cases {
		got := formatMessage(c.format, c.args)
		want := fmt.Sprintf(c.format, c.args...)
		if c.format == "trailing %" {
			want = "trailing %" // fmt writes %!(NOVERB); a lone % is kept as text
		}
		if got != want {
			t.Errorf("formatMessage(%q) = %q, fmt gives %q", c.format, got, want)
		}
	}
	if got := formatMessage("%d and %d", []any{1}); got != "1 and %!d(MISSING)" {
		t.Errorf("missing argument: %q", got)
	}
	if got := formatMessage("%x", []any{1}); !strings.Contains(got, "%!x") {
		t.Errorf("unknown verb: %q", got)
	}
}

// TestErrorfVerbs keeps every call of Errorf, and of the helpers that forward to it (a
// function whose parameters end in "format string, args ...any"), to the verbs
// formatMessage understands, with as many arguments as verbs: vet's printf check no
// longer covers them once Errorf stops forwarding to fmt.
func TestErrorfVerbs(t *testing.T) {
	fset := token.NewFileSet()
	var files []*ast.File
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if d.Name() == "testdata" || d.Name() == "edgetest" { // edgetest formats with fmt, for tests
				return filepath.SkipDir
			}
			return nil // every package of the engine formats its errors through Errorf
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		files = append(files, f)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	formatAt := map[string]int{} // formatter name -> index of its format argument
	for _, f := range files {
		for _, decl := range f.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok {
				continue
			}
			if len(fn.Type.Params.List) == 0 {
				continue
			}
			var names []string
			for _, field := range fn.Type.Params.List {
				for _, n := range field.Names {
					names = append(names, n.Name)
				}
			}
			params := fn.Type.Params.List
			_, variadic := params[len(params)-1].Type.(*ast.Ellipsis)
			if k := len(names); variadic && k >= 2 && names[k-2] == "format" && names[k-1] == "args" {
				formatAt[fn.Name.Name] = k - 2
			}
		}
	}
	if _, ok := formatAt["Errorf"]; !ok || len(formatAt) < 2 {
		t.Fatalf("formatters found: %v; is the walk looking in the right place?", formatAt)
	}
	calls := 0
	for _, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok || call.Ellipsis != token.NoPos {
				return true // a forwarding call is checked where its caller is called
			}
			name := ""
			switch fn := call.Fun.(type) {
			case *ast.Ident:
				name = fn.Name
			case *ast.SelectorExpr:
				if x, ok := fn.X.(*ast.Ident); ok && x.Name == "fmt" {
					return true // harnesses outside the module format with fmt
				}
				name = fn.Sel.Name
			}
			at, ok := formatAt[name]
			if !ok || len(call.Args) <= at {
				return true
			}
			lit, ok := call.Args[at].(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				t.Errorf("%s: %s's format is not a string literal", fset.Position(call.Pos()), name)
				return true
			}
			format, _ := strconv.Unquote(lit.Value)
			calls++
			verbs := 0
			for i := 0; i+1 < len(format); i++ {
				if format[i] != '%' {
					continue
				}
				i++
				switch format[i] {
				case '%':
				case 's', 'v', 'd', 'q':
					verbs++
				default:
					t.Errorf("%s: verb %%%c is not one formatMessage understands", fset.Position(call.Pos()), format[i])
				}
			}
			if verbs != len(call.Args)-at-1 {
				t.Errorf("%s: %d verbs but %d arguments", fset.Position(call.Pos()), verbs, len(call.Args)-at-1)
			}
			return true
		})
	}
	if calls < 20 {
		t.Fatalf("found only %d formatted calls", calls)
	}
	t.Logf("checked %d calls of %d formatters", calls, len(formatAt))
}

// TestAsError checks that an *Error keeps its code, message and position through
// wrapping with %w, and that any other error becomes internal without showing its text.
func TestAsError(t *testing.T) {
	positioned := &Error{Code: CodeInvalidQuery, Message: "syntax error", Line: 2, Column: 5, Offset: -1}
	cause := errors.New("disk on fire")
	for _, tc := range []struct {
		name      string
		err       error
		code      Code
		status    int
		message   string
		line, col int
		unwrapsTo error
	}{
		{"bare", Errorf(CodeTooComplex, "limit %d", 3), CodeTooComplex, 400, "limit 3", 0, 0, nil},
		{"wrapped once", fmt.Errorf("decoding: %w", positioned), CodeInvalidQuery, 400, "syntax error", 2, 5, nil},
		{"wrapped twice", fmt.Errorf("a: %w", fmt.Errorf("b: %w", positioned)), CodeInvalidQuery, 400, "syntax error", 2, 5, nil},
		{"cause kept", Wrap(cause, CodeInvalidArgument, "bad %s", "value"), CodeInvalidArgument, 400, "bad value", 0, 0, cause},
		{"foreign", cause, CodeInternal, 500, "internal error", 0, 0, cause},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := AsError(tc.err)
			if e.Code != tc.code || e.Status() != tc.status || e.Message != tc.message || e.Line != tc.line || e.Column != tc.col {
				t.Errorf("AsError = %+v, want code %s status %d message %q at %d:%d", e, tc.code, tc.status, tc.message, tc.line, tc.col)
			}
			if tc.unwrapsTo != nil && !errors.Is(e, tc.unwrapsTo) {
				t.Errorf("errors.Is(%v, cause) = false", e)
			}
		})
	}
}

// TestCodeStatus checks the one mapping of codes to HTTP statuses (API.md D8).
func TestCodeStatus(t *testing.T) {
	want := map[Code]int{
		CodeInvalidArgument: 400, CodeInvalidJSON: 400, CodeInvalidQuery: 400, CodeTooComplex: 400,
		CodeUnauthorized: 401, CodeEnvironmentNotFound: 404, CodeContentNotFound: 404, CodeNotFound: 404,
		CodeMethodNotAllowed: 405, CodePayloadTooLarge: 413, CodeURITooLong: 414, CodeInternal: 500,
		CodeRequestTimeout: 408, CodeUnavailable: 503,
		Code("no_such_code"): 500,
	}
	for code, status := range want {
		if got := code.Status(); got != status {
			t.Errorf("%s.Status() = %d, want %d", code, got, status)
		}
	}
}
