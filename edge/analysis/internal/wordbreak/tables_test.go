package wordbreak

import (
	"bytes"
	"flag"
	"fmt"
	"go/ast"
	gofmt "go/format"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// The generator of tables.go. It reads the library's generated trie
// (words/trie.go in the module cache), re-implements its lookup, reads the
// property of every code point through it and merges equal neighbours into
// ranges. Regenerate after a library upgrade with
//
//	go generate ./edge/analysis/internal/wordbreak
//
// (that is, go test -run TestTablesUpToDate -update in this directory), then
// run the differential tests and the fuzz target.

var update = flag.Bool("update", false, "rewrite tables.go from the uax29 library's trie")

const libraryModule = "github.com/clipperhouse/uax29/v2"

// propertyNames maps the library's property constants to ours. A name the
// library adds in a new version fails generation: its rules need porting.
var propertyNames = map[string]string{
	"_ALetter":              "aLetter",
	"_BleveIdeographic":     "", // only for the library's Bleve helpers
	"_CR":                   "cr",
	"_DoubleQuote":          "doubleQuote",
	"_Extend":               "extend",
	"_ExtendNumLet":         "extendNumLet",
	"_ExtendedPictographic": "extendedPictographic",
	"_Format":               "format",
	"_HebrewLetter":         "hebrewLetter",
	"_Katakana":             "katakana",
	"_LF":                   "lf",
	"_MidLetter":            "midLetter",
	"_MidNum":               "midNum",
	"_MidNumLet":            "midNumLet",
	"_Newline":              "newline",
	"_Numeric":              "numeric",
	"_RegionalIndicator":    "regionalIndicator",
	"_SingleQuote":          "singleQuote",
	"_WSegSpace":            "wSegSpace",
	"_ZWJ":                  "zwj",
}

// libraryTrie is the data of the library's words/trie.go.
type libraryTrie struct {
	names  []string // property constant names, bit i is names[i]
	values []uint32 // wordsValues
	index  []uint32 // wordsIndex
}

// lookup mirrors the library's lookup for a complete, well-formed sequence
// of continuation bytes (which is all the generator feeds it).
func (t *libraryTrie) lookup(s []byte) uint32 {
	c0 := s[0]
	switch {
	case c0 < 0x80:
		return t.values[c0]
	case c0 < 0xC2:
		return 0
	case c0 < 0xE0:
		return t.values[t.index[c0]<<6+uint32(s[1])]
	case c0 < 0xF0:
		i := t.index[t.index[c0]<<6+uint32(s[1])]
		return t.values[i<<6+uint32(s[2])]
	case c0 < 0xF8:
		i := t.index[t.index[c0]<<6+uint32(s[1])]
		i = t.index[i<<6+uint32(s[2])]
		return t.values[i<<6+uint32(s[3])]
	}
	return 0
}

func libraryDir(t *testing.T) (dir, version string) {
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}} {{.Version}}", libraryModule).Output()
	if err != nil {
		t.Skipf("cannot locate %s: %v", libraryModule, err)
	}
	f := strings.Fields(string(out))
	if len(f) != 2 || f[0] == "" {
		t.Skipf("cannot locate %s: go list says %q", libraryModule, out)
	}
	return f[0], f[1]
}

func readLibraryTrie(t *testing.T, path string) *libraryTrie {
	f, err := parser.ParseFile(token.NewFileSet(), path, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	trie := &libraryTrie{}
	for _, decl := range f.Decls {
		gd, ok := decl.(*ast.GenDecl)
		if !ok || gd.Tok != token.CONST && gd.Tok != token.VAR {
			continue
		}
		for _, spec := range gd.Specs {
			vs := spec.(*ast.ValueSpec)
			if gd.Tok == token.CONST && isIdent(vs.Type, "property") && len(vs.Values) == 1 {
				if got := exprString(vs.Values[0]); got != "1 << iota" || trie.names != nil {
					t.Fatalf("%s: property constants are no longer one 1 << iota block (%s)", path, got)
				}
				for _, s := range gd.Specs {
					trie.names = append(trie.names, s.(*ast.ValueSpec).Names[0].Name)
				}
			}
			if gd.Tok != token.VAR || len(vs.Names) != 1 || len(vs.Values) != 1 {
				continue
			}
			switch vs.Names[0].Name {
			case "wordsValues":
				trie.values = arrayLiteral(t, vs.Values[0])
			case "wordsIndex":
				trie.index = arrayLiteral(t, vs.Values[0])
			}
		}
	}
	if trie.names == nil || trie.values == nil || trie.index == nil {
		t.Fatalf("%s: property constants, wordsValues or wordsIndex not found", path)
	}
	for _, n := range trie.names {
		if _, ok := propertyNames[n]; !ok {
			t.Fatalf("%s: new property %s: port its rules and add it to propertyNames", path, n)
		}
	}
	return trie
}

func isIdent(e ast.Expr, name string) bool {
	id, ok := e.(*ast.Ident)
	return ok && id.Name == name
}

func exprString(e ast.Expr) string {
	var b bytes.Buffer
	gofmt.Node(&b, token.NewFileSet(), e)
	return b.String()
}

// arrayLiteral reads a [N]property{key: value, ...} literal.
func arrayLiteral(t *testing.T, e ast.Expr) []uint32 {
	lit, ok := e.(*ast.CompositeLit)
	if !ok {
		t.Fatalf("not a composite literal: %s", exprString(e))
	}
	at, ok := lit.Type.(*ast.ArrayType)
	if !ok || at.Len == nil {
		t.Fatalf("not a sized array: %s", exprString(lit.Type))
	}
	out := make([]uint32, intLiteral(t, at.Len))
	for _, el := range lit.Elts {
		kv, ok := el.(*ast.KeyValueExpr)
		if !ok {
			t.Fatalf("element without key: %s", exprString(el))
		}
		out[intLiteral(t, kv.Key)] = uint32(intLiteral(t, kv.Value))
	}
	return out
}

func intLiteral(t *testing.T, e ast.Expr) int {
	lit, ok := e.(*ast.BasicLit)
	if !ok || lit.Kind != token.INT {
		t.Fatalf("not an integer literal: %s", exprString(e))
	}
	v, err := strconv.ParseUint(lit.Value, 0, 32)
	if err != nil {
		t.Fatal(err)
	}
	return int(v)
}

// encode gives cp's bytes in the form of its bit length, surrogates and code
// points past U+10FFFF included: the forms the library's trie reads.
func encode(cp uint32) []byte {
	switch {
	case cp < 0x80:
		return []byte{byte(cp)}
	case cp < 0x800:
		return []byte{0xC0 | byte(cp>>6), 0x80 | byte(cp&0x3F)}
	case cp < 0x10000:
		return []byte{0xE0 | byte(cp>>12), 0x80 | byte(cp>>6&0x3F), 0x80 | byte(cp&0x3F)}
	}
	return []byte{0xF0 | byte(cp>>18), 0x80 | byte(cp>>12&0x3F), 0x80 | byte(cp>>6&0x3F), 0x80 | byte(cp&0x3F)}
}

// maxSequence is the largest value a 4-byte sequence can carry.
const maxSequence = 0x1FFFFF

// generateTables returns the source of tables.go.
func generateTables(t *testing.T, trie *libraryTrie, version string) []byte {
	var used uint32 // the bits our rules know, in the library's numbering
	for i, n := range trie.names {
		if propertyNames[n] != "" {
			used |= 1 << i
		}
	}
	// Overlong forms are not in the range table (lookup gives them nothing):
	// check that the trie agrees.
	for c1 := uint32(0x80); c1 < 0xC0; c1++ {
		for c2 := uint32(0x80); c2 < 0xC0; c2++ {
			if c1 < 0xA0 && trie.lookup([]byte{0xE0, byte(c1), byte(c2)})&used != 0 {
				t.Fatalf("overlong E0 %X %X has a property", c1, c2)
			}
			if c1 >= 0x90 {
				continue
			}
			for c3 := uint32(0x80); c3 < 0xC0; c3++ {
				if trie.lookup([]byte{0xF0, byte(c1), byte(c2), byte(c3)})&used != 0 {
					t.Fatalf("overlong F0 %X %X %X has a property", c1, c2, c3)
				}
			}
		}
	}

	var palette []uint32
	paletteIndex := map[uint32]int{}
	indexOf := func(v uint32) int {
		i, ok := paletteIndex[v]
		if !ok {
			i = len(palette)
			paletteIndex[v] = i
			palette = append(palette, v)
		}
		return i
	}
	var ascii [0x80]int
	for cp := uint32(0); cp < 0x80; cp++ {
		ascii[cp] = indexOf(trie.lookup(encode(cp)) & used)
	}
	type span struct {
		first uint32
		index int
	}
	var spans []span
	for cp := uint32(0x80); cp <= maxSequence; cp++ {
		i := indexOf(trie.lookup(encode(cp)) & used)
		if len(spans) == 0 || spans[len(spans)-1].index != i {
			spans = append(spans, span{cp, i})
		}
	}
	if len(palette) > 1<<paletteBits {
		t.Fatalf("%d distinct properties do not fit in %d bits", len(palette), paletteBits)
	}

	var b bytes.Buffer
	fmt.Fprintf(&b, "// Code generated by go test -run TestTablesUpToDate -update from %s %s words/trie.go. DO NOT EDIT.\n\n", libraryModule, version)
	b.WriteString("package wordbreak\n\n")
	fmt.Fprintf(&b, "// palette holds the %d distinct properties; the tables below index it.\n", len(palette))
	b.WriteString("var palette = [1 << paletteBits]property{\n")
	for i, v := range palette {
		var parts []string
		for bit, n := range trie.names {
			if v&(1<<bit) != 0 {
				parts = append(parts, propertyNames[n])
			}
		}
		if parts == nil {
			parts = []string{"0"}
		}
		fmt.Fprintf(&b, "\t%d: %s,\n", i, strings.Join(parts, " | "))
	}
	b.WriteString("}\n\n")
	b.WriteString("// asciiPalette is the palette index of each ASCII character.\n")
	b.WriteString("var asciiPalette = [0x80]uint8{")
	for cp, i := range ascii {
		if cp%16 == 0 {
			b.WriteString("\n\t")
		} else {
			b.WriteString(" ")
		}
		fmt.Fprintf(&b, "%d,", i)
	}
	b.WriteString("\n}\n\n")
	fmt.Fprintf(&b, "// ranges holds %d entries first<<paletteBits | palette index, sorted: the\n", len(spans))
	fmt.Fprintf(&b, "// code points from first up to the next entry's first (or U+%X) have\n", maxSequence)
	b.WriteString("// that property. It starts at U+0080; surrogates and code points past\n")
	b.WriteString("// U+10FFFF are there as the library's trie reads their byte forms.\n")
	b.WriteString("var ranges = [...]uint32{")
	for i, s := range spans {
		if i%6 == 0 {
			b.WriteString("\n\t")
		} else {
			b.WriteString(" ")
		}
		fmt.Fprintf(&b, "0x%06X<<paletteBits | %d,", s.first, s.index)
	}
	b.WriteString("\n}\n\n")
	// The entry in force at each block's first code point (the first entry
	// for the block that starts below U+0080).
	b.WriteString("// blockRanges is, for each block of 1<<blockBits code points below\n")
	b.WriteString("// indexedBlocks<<blockBits and for the code point there, the index of the\n")
	b.WriteString("// ranges entry in force at the block's first code point.\n")
	b.WriteString("var blockRanges = [indexedBlocks + 1]uint16{")
	j := 0
	for block := uint32(0); block <= indexedBlocks; block++ {
		for j+1 < len(spans) && spans[j+1].first <= block<<blockBits {
			j++
		}
		if block%16 == 0 {
			b.WriteString("\n\t")
		} else {
			b.WriteString(" ")
		}
		fmt.Fprintf(&b, "%d,", j)
	}
	b.WriteString("\n}\n")
	src, err := gofmt.Source(b.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	return src
}

// TestTablesUpToDate regenerates tables.go in memory and compares it with
// the file; with -update it writes the file instead.
func TestTablesUpToDate(t *testing.T) {
	dir, version := libraryDir(t)
	trie := readLibraryTrie(t, filepath.Join(dir, "words", "trie.go"))
	src := generateTables(t, trie, version)
	if *update {
		if err := os.WriteFile("tables.go", src, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	have, err := os.ReadFile("tables.go")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(have, src) {
		t.Fatal("tables.go is out of date: run go generate ./edge/analysis/internal/wordbreak")
	}
}
