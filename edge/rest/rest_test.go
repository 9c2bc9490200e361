package rest

import (
	"fmt"
	"testing"

	"github.com/cdaedge/cdaedge/edge"
	"github.com/cdaedge/cdaedge/edge/content"
	"github.com/cdaedge/cdaedge/edge/query"
	"github.com/cdaedge/cdaedge/snapshot/snapshottest"
)

// items is a small environment: enough members for every parameter to resolve.
var items = []string{
	`{"ContentID":"Content_1","Status":"Published","Name":"Café Müller","TemplateName":"Article","CreatedBy":"Erian Suwandi","CreatedAt":"2021-04-23T10:00:00.000Z","Data":{"title":"Hello","price":10}}`,
	`{"ContentID":"Content_2","Status":"Published","Name":"Home","TemplateName":"Page","CreatedAt":"2022-01-01T00:00:00.000Z","Data":{"title":"Home page"}}`,
}

// TestParseList pins the query model that each query string compiles to, printed as
// "query | from size | sort", or the error's code and message (API.md, "REST: list
// content items", D4, D6, D7, D12).
func TestParseList(t *testing.T) {
	schema := content.NewFields(snapshottest.Open(t, "unit", false, items...))
	for _, tc := range []struct{ raw, want string }{
		{"", "*:* | 0 10 | [-CreatedAt]"},
		{"searchByName=caf%C3%A9+m%C3%BCller", "#(#Name:café #Name:müller) | 0 10 | [-CreatedAt]"},
		{"searchByTemplateName=article&status=Published", "#TemplateName:article #Status:published | 0 10 | [-CreatedAt]"},
		{"searchByName=", "*:* | 0 10 | [-CreatedAt]"},
		{"page=3&pageSize=20&sort=Name&sortAsc=true", "*:* | 40 20 | [Name]"},
		{"sort=Data.price&sortAsc=false", "*:* | 0 10 | [-Data.price]"},
		{"sort=name", "*:* | 0 10 | [-Name]"},
		{"cacheBuster=1", "*:* | 0 10 | [-CreatedAt]"},
		{"searchbyname=x", `invalid_argument: unknown query parameter "searchbyname": did you mean "searchByName"?`},
		{"page=1&page=2", `invalid_argument: query parameter "page" is given more than once`},
		{"pageSize=1001", "invalid_argument"},
		{"page=0", "invalid_argument"},
		{"sortAsc=maybe", "invalid_argument"},
		{"sort=Nope", "invalid_argument"},
		{"searchByName=%E2%80%94", "invalid_argument"},
		{"searchByName=%ZZ", "invalid_argument"},
	} {
		s, err := ParseList(tc.raw, schema)
		var got string
		if err != nil {
			e := edge.AsError(err)
			got = string(e.Code) + ": " + e.Message
			if len(tc.want) < len(got) && tc.want == string(e.Code) {
				got = string(e.Code) // the table names only the code
			}
		} else {
			got = fmt.Sprintf("%s | %d %d | %v", s.Query, s.From, s.Size, sortKeys(s))
		}
		if got != tc.want {
			t.Errorf("ParseList(%q)\n got %s\nwant %s", tc.raw, got, tc.want)
		}
	}
}

// sortKeys prints a search's sort as [field -field ...] (- for descending).
func sortKeys(s *query.Search) []string {
	keys := make([]string, len(s.Sort))
	for i, f := range s.Sort {
		keys[i] = f.Field
		if f.Desc {
			keys[i] = "-" + f.Field
		}
	}
	return keys
}
