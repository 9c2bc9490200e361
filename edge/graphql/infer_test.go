package graphql

import (
	"strings"
	"testing"

	"github.com/cdaedge/cdaedge/edge/content"
	"github.com/cdaedge/cdaedge/snapshot/snapshottest"
)

// item is a minimal stored item with Data and extra top-level members.
func item(id, template, data, extra string) string {
	s := `{"Status":"Published","CreatedAt":"2024-01-01T00:00:00.000Z","Data":` + data +
		`,"Name":"n","TemplateName":"` + template + `","TemplateID":"Template_1","ContentID":"` + id + `"`
	if extra != "" {
		s += "," + extra
	}
	return s + "}"
}

// fieldTypes returns "Type.field: ref" for every field of the inferred types.
func fieldTypes(s *gqlSchema) map[string]string {
	out := map[string]string{}
	for _, t := range s.types {
		for _, f := range t.fields {
			out[t.name+"."+f.name] = f.typ
		}
	}
	return out
}

// TestInferTypes checks the typed schema of D9: one kind gives its type, mixed kinds
// JSON, lists their element type, references their shared types, nested objects types
// named by path; names that are not GraphQL names are left out.
func TestInferTypes(t *testing.T) {
	snap := snapshottest.Open(t, "t", false, kindsItems...)
	s := NewSchema(snap, content.NewFields(snap))
	got := fieldTypes(s.of(true))
	for path, want := range map[string]string{
		"Content.Data":                "ContentData",
		"Content.DataJSON":            "JSON",
		"Content.ParentID":            "String",
		"Content.Extra":               "Content_Extra",
		"Content_Extra.k":             "Int",
		"ContentData.title":           "String",
		"ContentData.n":               "Float", // 1 and 2.0
		"ContentData.f":               "Float",
		"ContentData.mixed":           "JSON",
		"ContentData.ok":              "Boolean",
		"ContentData.tags":            "[String!]",
		"ContentData.maybe":           "JSON",
		"ContentData.hero":            "MediaReference",
		"ContentData.author":          "ContentReference",
		"ContentData.file":            "ContentData_file",
		"ContentData_file.Name":       "String",
		"ContentData_file.meta":       "ContentData_file_meta",
		"ContentData_file_meta.pages": "Int",
		"ContentData.rows":            "[ContentData_rows!]",
		"ContentData_rows.a":          "Int",
		"ContentData_rows.b":          "String",
		"ContentData.holes":           "[String]",
		"ContentData.num":             "String",
		"ContentData.big":             "Float", // beyond 32 bits
		"ContentData.obj":             "JSON",  // no member with a GraphQL name
		"MediaReference.Id":           "ID",
		"MediaReference.AltText":      "String",
		"MediaReference.Size":         "Int",
		"ContentReference.ContentIDs": "[ID!]",
		"ContentPage.totalItems":      "Int!",
	} {
		if got[path] != want {
			t.Errorf("%s: %q, want %q", path, got[path], want)
		}
	}
	if _, ok := got["ContentData.bad-name"]; ok {
		t.Error("an element whose name is not a GraphQL name is a field")
	}
	env := fieldTypes(s.of(false))
	if env["Content.Data"] != "ContentData" || env["Content.DataJSON"] != "" || env["Query.content"] != "[Content!]" || env["Query.contentPage"] != "" {
		t.Errorf("envelope mode: Data %q, DataJSON %q, content %q, contentPage %q", env["Content.Data"], env["Content.DataJSON"], env["Query.content"], env["Query.contentPage"])
	}
	if got["Query.content"] != "[Content!]!" || got["Query.contentPage"] != "ContentPage!" {
		t.Errorf("standard mode: content %q, contentPage %q", got["Query.content"], got["Query.contentPage"])
	}
	checkReferences(t, s.of(true))
	checkReferences(t, s.of(false))
	sdl := string(AppendSDL(nil, s, true))
	if !strings.Contains(sdl, "In items of the templates Article, Page.") {
		t.Errorf("the SDL does not name the templates of title:\n%s", sdl)
	}
}

// checkReferences: every type reference names a type of the schema, every name is
// unique and a GraphQL name.
func checkReferences(t *testing.T, s *gqlSchema) {
	t.Helper()
	seen := map[string]bool{}
	for _, ty := range s.types {
		if seen[ty.name] {
			t.Errorf("type %s is defined twice", ty.name)
		}
		seen[ty.name] = true
		if !strings.HasPrefix(ty.name, "__") && !isGraphQLName(ty.name) {
			t.Errorf("type name %q", ty.name)
		}
		if ty.kind == "OBJECT" && len(ty.fields) == 0 {
			t.Errorf("object type %s has no fields", ty.name)
		}
		for _, f := range ty.fields {
			if s.typeNamed(namedType(f.typ)) == nil {
				t.Errorf("%s.%s: type %q names no type", ty.name, f.name, f.typ)
			}
		}
	}
}

// TestInferEmpty: an environment with no Data elements types Data as JSON (an object
// type needs a field).
func TestInferEmpty(t *testing.T) {
	for _, items := range [][]string{nil, {item("Content_1", "T", `{}`, "")}, {item("Content_1", "T", `null`, "")}} {
		snap := snapshottest.Open(t, "t", false, items...)
		s := NewSchema(snap, content.NewFields(snap))
		if got := fieldTypes(s.of(true))["Content.Data"]; got != "JSON" {
			t.Errorf("%v: Data is %q, want JSON", items, got)
		}
		checkReferences(t, s.of(true))
	}
}

// TestInferNames: inferred names never take another type's name.
func TestInferNames(t *testing.T) {
	snap := snapshottest.Open(t, "t", false,
		item("Content_1", "T", `{"a_b":{"x":1},"a":{"b":{"y":1}},"Query":{"z":1}}`, ""))
	s := NewSchema(snap, content.NewFields(snap)).of(true)
	checkReferences(t, s)
	got := fieldTypes(s)
	if got["ContentData.a_b"] == got["ContentData_a.b"] {
		t.Errorf("Data.a_b and Data.a.b share the type %s", got["ContentData.a_b"])
	}
}

// TestInferNestedReferences: a reference inside a reference of the same kind has the
// type of its kind, which then refers to itself (building it used to recurse without
// end).
func TestInferNestedReferences(t *testing.T) {
	snap := snapshottest.Open(t, "t", false, item("Content_1", "T",
		`{"r":{"Type":"Reference","ReferenceType":"Content","ContentIDs":["a"],"next":{"Type":"Reference","ReferenceType":"Content","ContentIDs":["b"]}},
		"m":{"Type":"Reference","ReferenceType":"Media","Id":"m","thumb":{"Type":"Reference","ReferenceType":"Media","Id":"t"}}}`, ""))
	s := NewSchema(snap, content.NewFields(snap)).of(true)
	checkReferences(t, s)
	got := fieldTypes(s)
	for path, want := range map[string]string{
		"ContentData.r":               "ContentReference",
		"ContentReference.next":       "ContentReference",
		"ContentData.m":               "MediaReference",
		"MediaReference.thumb":        "MediaReference",
		"ContentReference.ContentIDs": "[ID!]",
	} {
		if got[path] != want {
			t.Errorf("%s: %q, want %q", path, got[path], want)
		}
	}
}

// TestInferBounded: the shapes stop at maxShapeNodes and maxShapeDepth; what is past
// them is JSON.
func TestInferBounded(t *testing.T) {
	var b strings.Builder
	b.WriteString("{")
	for i := 0; i < maxShapeNodes+10; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`"e` + strings.Repeat("x", i%7) + string(rune('a'+i%26)) + itoa(i) + `":1`)
	}
	b.WriteString("}")
	deep := strings.Repeat(`{"d":`, 40) + "1" + strings.Repeat("}", 40)
	snap := snapshottest.Open(t, "t", false,
		item("Content_1", "T", b.String(), ""),
		item("Content_2", "T", `{"deep":`+deep+`}`, ""))
	s := NewSchema(snap, content.NewFields(snap))
	checkReferences(t, s.of(true))
	if s.types == nil || len(s.of(true).types) > maxShapeNodes+64 {
		t.Fatalf("the schema has %d types", len(s.of(true).types))
	}
}

func itoa(i int) string {
	if i == 0 {
		return "0"
	}
	var d []byte
	for ; i > 0; i /= 10 {
		d = append([]byte{byte('0' + i%10)}, d...)
	}
	return string(d)
}

// FuzzInferItem: the pass reads any bytes without panicking (a panic would end the
// wasm instance).
func FuzzInferItem(f *testing.F) {
	f.Add(item("Content_1", "T", `{"a":[1,{"b":"c\"d"}],"r":{"Type":"Reference","ReferenceType":"Media"}}`, `"X":[[]]`))
	f.Add(`{"Data":{"a":`)
	f.Add(`{"Data":[{"Type":"Reference","ReferenceType":"Content","x":{"Type":"Reference","ReferenceType":"Content"}}]}`)
	f.Add(`{"Data":{"\u0041":1,"a\"b":tru}}`)
	f.Fuzz(func(t *testing.T, s string) {
		in := &inferred{}
		in.data, in.top = in.node(), in.node()
		in.refs[refContent], in.refs[refMedia] = in.node(), in.node()
		in.item(s)
		b := &typeBuilder{in: in, used: map[string]bool{}}
		b.object(in.data, "ContentData", "Data", "")
	})
}

// kindsItems hold every kind of value the inference tells apart, references of both
// kinds, and names that are not GraphQL names.
var kindsItems = []string{
	item("Content_1", "Article", `{"title":"a","n":1,"f":1.5,"mixed":"x","ok":true,"tags":["a","b"],"maybe":null,
		"hero":{"Type":"Reference","ReferenceType":"Media","Id":"Media_1","MediaUrl":"u","Size":3},
		"author":{"Type":"Reference","ReferenceType":"Content","ContentIDs":["Content_2"]},
		"file":{"Name":"x","meta":{"pages":3}},"rows":[{"a":1},{"a":2,"b":"x"}],"bad-name":1,"holes":["a",null],
		"num":"10.0","big":12345678901}`, `"ParentID":"Content_2","Extra":{"k":1}`),
	item("Content_2", "Page", `{"title":"b","n":2.0,"mixed":3,"ok":false,"tags":[],"hero":{"Type":"Reference","ReferenceType":"Media","Id":"Media_2","AltText":"t"},
		"file":{"Name":"y"},"rows":[],"obj":{"bad-only":1}}`, `"ParentID":"Content_1"`),
}
