package graphql

import (
	"bufio"
	"bytes"
	"os"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/cdaedge/cdaedge/builder/gen"
	"github.com/cdaedge/cdaedge/edge/content"
	"github.com/cdaedge/cdaedge/snapshot"
	"github.com/cdaedge/cdaedge/snapshot/snapshottest"
)

// shapeCase is a set of items whose shapes the codec tests encode.
type shapeCase struct {
	name  string
	items []string
}

// shapeCases are item sets that reach every part of a shape and every limit of the
// inference: kinds, references (nested, in lists), templates past maxTemplates, names
// that need escapes, maxShapeNodes, nesting past maxShapeDepth, and the demo content.
func shapeCases(tb testing.TB) []shapeCase {
	tb.Helper()
	var wide strings.Builder
	wide.WriteString("{")
	for i := 0; i < maxShapeNodes+10; i++ {
		if i > 0 {
			wide.WriteByte(',')
		}
		wide.WriteString(`"e` + strconv.Itoa(i) + `":` + [...]string{`1`, `"s"`, `[1.5]`, `{"x":true}`}[i%4])
	}
	wide.WriteString("}")
	var depths, templates []string
	for d := 1; d <= maxShapeDepth+4; d++ { // a list, an object and a reference at every depth
		leaf := `{"l":[1,[true]],"o":{"x":"y"},"r":{"Type":"Reference","ReferenceType":"Content","ContentIDs":["a"]}}`
		data := strings.Repeat(`{"x":`, d) + leaf + strings.Repeat("}", d)
		depths = append(depths, item("Content_"+strconv.Itoa(d), "T", data, ""))
	}
	for i := 0; i < maxTemplates+4; i++ {
		data := `{"title":"t","only` + strconv.Itoa(i%3) + `":1}`
		templates = append(templates, item("Content_"+strconv.Itoa(i), "Template "+strconv.Itoa(i), data, ""))
	}
	return []shapeCase{
		{"no items", nil},
		{"null Data", []string{item("Content_1", "T", `null`, "")}},
		{"empty Data", []string{item("Content_1", "T", `{}`, `"Extra":[]`)}},
		{"kinds", kindsItems},
		{"references", []string{item("Content_1", "T",
			`{"list":[{"Type":"Reference","ReferenceType":"Content","ContentIDs":[]},{"Type":"Reference","ReferenceType":"Media","Id":"m"}],
			"nested":{"Type":"Reference","ReferenceType":"Content","inner":{"Type":"Reference","ReferenceType":"Media","Id":"m2"}},
			"half":[{"Type":"Reference","ReferenceType":"Media"},{"a":1}],"other":{"Type":"Reference","ReferenceType":"Page"},
			"self":{"Type":"Reference","ReferenceType":"Content","next":{"Type":"Reference","ReferenceType":"Content","ContentIDs":["y"]}}}`,
			`"Top":{"Type":"Reference","ReferenceType":"Content","ContentIDs":["x"]}`)}},
		{"names", []string{item("Content_1", `T\"quoted\" \u00e9`, `{"a\"b":1,"\u0041":2,"":3,"ü":[{"\\":4}],"x y":5}`, `"\u00e9":1`)}},
		{"templates", templates},
		{"depths", depths},
		{"deep", []string{
			item("Content_1", "T", `{"o":`+strings.Repeat(`{"d":`, 40)+"1"+strings.Repeat("}", 40)+`}`, ""),
			item("Content_2", "T", `{"l":`+strings.Repeat(`[`, 40)+"1"+strings.Repeat("]", 40)+`}`, ""),
			item("Content_3", "T", `{"m":`+strings.Repeat(`[{"d":`, 20)+"1"+strings.Repeat("}]", 20)+`}`, ""),
		}},
		{"wide", []string{item("Content_1", "T", wide.String(), ""), item("Content_2", "T", `{"late":1}`, `"Late":1`)}},
		{"demo", demoItems(tb)},
	}
}

// demoItems are the items of the demo content, every status.
func demoItems(tb testing.TB) []string {
	tb.Helper()
	data, err := os.ReadFile("../../testdata/demo/content.ndjson")
	if err != nil {
		tb.Fatal(err)
	}
	var items []string
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		if line := strings.TrimSpace(sc.Text()); line != "" {
			items = append(items, line)
		}
	}
	if len(items) == 0 {
		tb.Fatal("no demo items")
	}
	return items
}

// openDerived builds a snapshot of items (every status) the way the builder does, with
// ShapesSection from derive (DeriveShapes; nil: no section), and opens it.
func openDerived(tb testing.TB, derive func(n int, item func(i int) []byte) []byte, items ...string) *snapshot.Snapshot {
	tb.Helper()
	w, err := snapshot.NewWriter("t", true)
	if err != nil {
		tb.Fatal(err)
	}
	for _, it := range items {
		if err := w.Add([]byte(it)); err != nil {
			tb.Fatal(err)
		}
	}
	if derive != nil {
		w.Derive(ShapesSection, derive)
	}
	b, err := w.Bytes()
	if err != nil {
		tb.Fatal(err)
	}
	snap, err := snapshot.Open(b)
	if err != nil {
		tb.Fatal(err)
	}
	return snap
}

func inferStrings(items []string) *inferred {
	return inferItems(len(items), func(i int) string { return items[i] })
}

// TestShapesRoundTrip: decoding an encoding gives the shapes back exactly, and
// DeriveShapes encodes what inference computes.
func TestShapesRoundTrip(t *testing.T) {
	for _, c := range shapeCases(t) {
		t.Run(c.name, func(t *testing.T) {
			in := inferStrings(c.items)
			enc := encodeShapes(in)
			if derived := DeriveShapes(len(c.items), func(i int) []byte { return []byte(c.items[i]) }); !bytes.Equal(derived, enc) {
				t.Fatalf("DeriveShapes gives %d bytes, encodeShapes %d", len(derived), len(enc))
			}
			dec, ok := decodeShapes(string(enc))
			if !ok {
				t.Fatalf("the encoding (%d bytes) does not decode", len(enc))
			}
			if !reflect.DeepEqual(dec, in) {
				t.Fatal("the decoded shapes differ from the encoded ones")
			}
			if again := encodeShapes(dec); !bytes.Equal(again, enc) {
				t.Fatal("re-encoding the decoded shapes gives other bytes")
			}
			t.Logf("%d shapes, %d bytes", in.nodes, len(enc))
		})
	}
}

// TestShapesSection: a schema typed from the section answers its SDL and introspection
// byte for byte as one typed by reading every item, in both modes; NewSchema (which
// uses the section) too.
func TestShapesSection(t *testing.T) {
	for _, c := range shapeCases(t) {
		t.Run(c.name, func(t *testing.T) {
			snap := openDerived(t, DeriveShapes, c.items...)
			compareSchemas(t, snap)
		})
	}
}

// compareSchemas checks that every way of typing the schema of snap answers alike.
func compareSchemas(t *testing.T, snap *snapshot.Snapshot) {
	t.Helper()
	fromSection, ok := SchemaTypedFrom(snap, true)
	if !ok {
		t.Fatal("the snapshot has no shapes section that decodes")
	}
	fromItems, _ := SchemaTypedFrom(snap, false)
	want, err := SchemaAnswers(fromItems)
	if err != nil {
		t.Fatal(err)
	}
	for way, s := range map[string]*Schema{"section": fromSection, "NewSchema": NewSchema(snap, content.NewFields(snap))} {
		got, err := SchemaAnswers(s)
		if err != nil {
			t.Fatal(err)
		}
		for answer, w := range want {
			if g := got[answer]; g != w {
				t.Errorf("%s, %s: differs from the inferred schema's at byte %d of %d", way, answer, firstDifference(g, w), len(w))
			}
		}
	}
}

func firstDifference(a, b string) int {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	return i
}

// TestLoadShapes: the schema uses the section when it decodes, and infers the shapes
// from the items otherwise.
func TestLoadShapes(t *testing.T) {
	items := []string{item("Content_1", "T", `{"fromItems":1}`, "")}
	other := DeriveShapes(1, func(int) []byte { return []byte(item("Content_X", "T", `{"fromSection":1}`, "")) })
	for _, c := range []struct {
		name        string
		section     []byte // nil: none
		fromSection bool
	}{
		{"section", other, true},
		{"no section", nil, false},
		{"empty", []byte{}, false},
		{"unknown version", append([]byte{shapesVersion + 1}, other[1:]...), false},
		{"truncated", other[:len(other)-1], false},
		{"trailing byte", append(append([]byte{}, other...), 0), false},
	} {
		t.Run(c.name, func(t *testing.T) {
			var derive func(int, func(int) []byte) []byte
			if c.section != nil {
				derive = func(int, func(int) []byte) []byte { return c.section }
			}
			snap := openDerived(t, derive, items...)
			sdl := string(AppendSDL(nil, NewSchema(snap, content.NewFields(snap)), true))
			if got := strings.Contains(sdl, "fromSection"); got != c.fromSection || got == strings.Contains(sdl, "fromItems") {
				t.Errorf("typed from the section: %v, want %v:\n%s", got, c.fromSection, sdl)
			}
		})
	}
}

// chain is a shape tree of depth levels below its root (elements of lists).
func chain(levels int) *shape {
	sh := &shape{kinds: shapeString}
	for ; levels > 0; levels-- {
		sh = &shape{kinds: shapeList, elem: sh}
	}
	return sh
}

// withData is a pass result whose Data is data.
func withData(data *shape) *inferred {
	in := &inferred{data: data, top: &shape{}}
	for k := range in.refs {
		in.refs[k] = &shape{}
	}
	return in
}

// TestDecodeShapesMalformed: the decoder refuses what is not the one encoding of a
// shape tree within the inference's limits.
func TestDecodeShapesMalformed(t *testing.T) {
	valid := encodeShapes(withData(&shape{kinds: shapeObject, objects: 1, fields: []shapeField{{name: "a", s: &shape{kinds: shapeInt}}}}))
	wide := func(fields, names int) string { // Data with fields members, named by i%names
		sh := &shape{kinds: shapeObject}
		for i := 0; i < fields; i++ {
			sh.fields = append(sh.fields, shapeField{name: strconv.Itoa(i % names), s: &shape{}})
		}
		return string(encodeShapes(withData(sh)))
	}
	const leaves = "\x00\x00\x00" // top and the references' roots, after a malformed Data
	for _, c := range []struct {
		name string
		in   string
		ok   bool
	}{
		{"valid", string(valid), true},
		{"deepest", string(encodeShapes(withData(chain(maxShapeLevel)))), true},
		{"most shapes", wide(maxShapeNodes-4, maxShapeNodes), true}, // with Data, top and the references' roots
		{"empty", "", false},
		{"version only", "\x01", false},
		{"unknown version", "\x00" + string(valid[1:]), false},
		{"truncated", string(valid[:len(valid)-1]), false},
		{"trailing", string(valid) + "\x00", false},
		{"too deep", string(encodeShapes(withData(chain(maxShapeLevel + 1)))), false},
		{"too many shapes", wide(maxShapeNodes-3, maxShapeNodes), false},
		{"unknown kind", "\x01" + "\x80\x40" + leaves, false},
		{"long varint", "\x01" + "\x80\x00" + leaves, false},
		{"huge varint", "\x01" + "\xff\xff\xff\xff\x7f" + leaves, false},
		{"zero counts", "\x01" + "\x04\x00\x00\x00" + leaves, false},
		{"no templates", "\x01" + "\x08\x00" + leaves, false},
		{"too many templates", "\x01" + "\x08\x09" + strings.Repeat("\x01t", 9) + leaves, false},
		{"no fields", "\x01" + "\x10\x00" + leaves, false},
		{"more fields than bytes", "\x01" + "\x10\x7f\x01a\x00" + leaves, false},
		{"name past the end", "\x01" + "\x10\x01\x7fa", false},
		{"member named twice", "\x01" + "\x10\x02\x01a\x00\x01a\x00" + leaves, false},
		{"member named twice among many", wide(40, 39), false},
		{"members", "\x01" + "\x10\x02\x01a\x00\x01b\x00" + leaves, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			if _, ok := decodeShapes(c.in); ok != c.ok {
				t.Errorf("ok %v, want %v", ok, c.ok)
			}
		})
	}
}

// FuzzDecodeShapes: the decoder never panics, accepts only canonical encodings, and
// what it accepts types a schema without panicking.
func FuzzDecodeShapes(f *testing.F) {
	for _, c := range shapeCases(f) {
		if c.name != "wide" { // too long to mutate usefully
			f.Add(string(encodeShapes(inferStrings(c.items))))
		}
	}
	f.Add("\x01\x00\x00\x00\x00")
	f.Add("\x01\x10\x01\x01a\x00\x00\x00\x00")
	snap := snapshottest.Open(f, "t", false, item("Content_1", "T", `{"a":1}`, `"Extra":1,"More":{"b":[1]}`))
	f.Fuzz(func(t *testing.T, s string) {
		in, ok := decodeShapes(s)
		if !ok {
			return
		}
		if enc := encodeShapes(in); string(enc) != s {
			t.Fatalf("accepted a non-canonical encoding: %q re-encodes as %q", s, enc)
		}
		if in.nodes > maxShapeNodes {
			t.Fatalf("%d shapes", in.nodes)
		}
		sch := NewSchema(snap, content.NewFields(snap))
		sch.types = buildTypes(snap, in)
		AppendSDL(nil, sch, false)
		AppendSDL(nil, sch, true)
	})
}

// BenchmarkShapes10k compares typing the schema of 10,000 generated items from the
// section (decode) with reading every item (infer).
func BenchmarkShapes10k(b *testing.B) {
	var nd bytes.Buffer
	if err := gen.Generate(&nd, gen.Options{Items: 10000, Seed: 1}); err != nil {
		b.Fatal(err)
	}
	items := strings.Split(strings.TrimSpace(nd.String()), "\n")
	snap := openDerived(b, DeriveShapes, items...)
	sec, _ := snap.Section(ShapesSection)
	b.Run("infer", func(b *testing.B) {
		for b.Loop() {
			inferShapes(snap)
		}
	})
	b.Run("decode", func(b *testing.B) {
		b.ReportMetric(float64(len(sec)), "section-bytes")
		for b.Loop() {
			if _, ok := decodeShapes(sec); !ok {
				b.Fatal("the section does not decode")
			}
		}
	})
}
