package content

import (
	"testing"

	"github.com/cdaedge/cdaedge/edge"
	"github.com/cdaedge/cdaedge/edge/query"
	"github.com/cdaedge/cdaedge/snapshot/snapshottest"
)

// schemaItems is a small environment for the Schema tests.
var schemaItems = []string{
	`{"ContentID":"Content_1","Status":"Published","Name":"Café Müller","CreatedAt":"2021-04-23T10:00:00.000Z","ParentID":"Content_2","Data":{"title":"<p>Hello</p>","price":10,"flag":true,"mixed":"x"}}`,
	`{"ContentID":"Content_2","Status":"Published","Name":"Home","Data":{"title":"Home page","mixed":3}}`,
}

func TestWordsAndAllWords(t *testing.T) {
	for _, tc := range []struct {
		value string
		want  string // printed query, or the error code
	}{
		{"", "<nil>"},
		{"Erian", "f:erian"},
		{"Suwandi Erian", "#f:suwandi #f:erian"},
		{"o'connor café", "#f:o'connor #f:café"},
		{"  ", string(edge.CodeInvalidArgument)},
		{"—!", string(edge.CodeInvalidArgument)},
	} {
		words, err := Words("name", tc.value)
		got := "<nil>"
		switch {
		case err != nil:
			got = string(edge.AsError(err).Code)
		case words != nil:
			got = AllWords([]string{"f"}, words).String()
		}
		if got != tc.want {
			t.Errorf("Words(%q): got %s, want %s", tc.value, got, tc.want)
		}
	}
	if got := AllWords(nil, []string{"a"}); got != (query.MatchNone{}) {
		t.Errorf("AllWords with no fields = %v, want MatchNone", got)
	}
	if got, want := AllWords([]string{"a", "b"}, []string{"x", "y"}).String(), "#(a:x b:x) #(a:y b:y)"; got != want {
		t.Errorf("AllWords over two fields = %s, want %s", got, want)
	}
}

func TestPaging(t *testing.T) {
	for _, tc := range []struct {
		page, size string
		wantPage   int
		wantSize   int
		bad        bool
	}{
		{"", "", 1, DefaultPageSize, false},
		{"3", "25", 3, 25, false},
		{"2147483647", "1000", MaxPage, MaxPageSize, false},
		{"0", "", 0, 0, true},
		{"+1", "", 0, 0, true},
		{"1e3", "", 0, 0, true},
		{"", "1001", 0, 0, true},
		{"", "0", 0, 0, true},
		{"", " 5", 0, 0, true},
	} {
		page, perr := Page("page", tc.page)
		size, serr := PageSize("pageSize", tc.size)
		bad := perr != nil || serr != nil
		if bad != tc.bad || !bad && (page != tc.wantPage || size != tc.wantSize) {
			t.Errorf("Page(%q), PageSize(%q) = %d, %d (%v, %v)", tc.page, tc.size, page, size, perr, serr)
		}
	}
	if got := Offset(MaxPage, MaxPageSize); got != maxOffset {
		t.Errorf("Offset of the last page = %d, want the cap %d", got, maxOffset)
	}
	if got := Offset(3, 10); got != 20 {
		t.Errorf("Offset(3, 10) = %d", got)
	}
}

func TestSortRules(t *testing.T) {
	fields := NewFields(snapshottest.Open(t, "unit", false, schemaItems...))
	for _, tc := range []struct {
		value string
		want  bool
		bad   bool
	}{{"", false, false}, {"TRUE", true, false}, {"1", true, false}, {"false", false, false}, {"0", false, false}, {"yes", false, true}} {
		got, err := SortAscending("sortAsc", tc.value)
		if got != tc.want || (err != nil) != tc.bad {
			t.Errorf("SortAscending(%q) = %v, %v", tc.value, got, err)
		}
	}
	for _, tc := range []struct{ name, want string }{
		{"", "CreatedAt"},
		{"name", "Name"},
		{"parentid", "ParentID"},
		{"data.price", "Data.price"},
		{"Data.nobody", "Data.nobody"},
		{"Nope", string(edge.CodeInvalidArgument)},
		{"Data", string(edge.CodeInvalidArgument)},
	} {
		got, err := SortField("sort", tc.name, fields)
		if err != nil {
			got = string(edge.AsError(err).Code)
		}
		if got != tc.want {
			t.Errorf("SortField(%q) = %s, want %s", tc.name, got, tc.want)
		}
	}
}

func TestFields(t *testing.T) {
	fields := NewFields(snapshottest.Open(t, "unit", false, schemaItems...))
	for _, tc := range []struct {
		field string
		want  FieldType
	}{
		{"Name", TypeText},
		{"CreatedAt", TypeDate},
		{"Data.price", TypeNumber},
		{"Data.flag", TypeBool},
		{"Data.mixed", TypeText}, // strings and numbers mixed: taken as text
		{"Data.none", 0},
	} {
		if got := fields.FieldType(tc.field); got != tc.want {
			t.Errorf("FieldType(%s) = %b, want %b", tc.field, got, tc.want)
		}
	}
	if got, ok := fields.SortField("data.price"); !ok || got != "Data.price" {
		t.Errorf("SortField(data.price) = %q, %v", got, ok)
	}
	if _, ok := fields.SortField("Data.none"); ok {
		t.Error("SortField of a field no item has resolved")
	}
	if got := DataTextFields(fields); len(got) != 2 || got[0] != "Data.mixed" || got[1] != "Data.title" {
		t.Errorf("DataTextFields = %v, want [Data.mixed Data.title]", got)
	}
}
