package edgetest

// An independent, deliberately simple model of the REST rules (API.md D1–D8, D12),
// written only to double-check the hand-derived expectations of
// testdata/conformance/rest.json against testdata/demo. It is not the engine and must
// not become one: it knows just enough tokenization for the demo's top-level values.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/big"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode"
	"unicode/utf8"
)

// oracleItem is one demo item: its canonical JSON (D2) and its decoded values.
type oracleItem struct {
	id        string
	status    string
	canonical []byte
	fields    map[string]any // decoded with UseNumber
}

type oracleEnv struct {
	items []*oracleItem
	token string // preview token, "" for published environments
}

type oracleAnswer struct {
	status int
	code   string
	total  int
	ids    []string
	list   bool
	body   []byte // canonical body of a success
}

// d2Order is the member order of API.md D2.
var d2Order = []string{"Status", "CreatedBy", "CreatedAt", "Data", "PublishedBy", "UpdatedAt",
	"Name", "PublishedAt", "UpdatedBy", "TemplateName", "TemplateID", "ContentID"}

func loadOracle(t *testing.T) map[string]*oracleEnv {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(RepoRoot(t), DemoData))
	if err != nil {
		t.Fatal(err)
	}
	all := &oracleEnv{token: DemoPreviewToken}
	published := &oracleEnv{}
	for n, line := range bytes.Split(bytes.TrimSpace(data), []byte("\n")) {
		members, err := topLevelMembers(line)
		if err != nil {
			t.Fatalf("demo line %d: %v", n+1, err)
		}
		it := &oracleItem{fields: map[string]any{}}
		dec := json.NewDecoder(bytes.NewReader(line))
		dec.UseNumber()
		if err := dec.Decode(&it.fields); err != nil {
			t.Fatal(err)
		}
		it.id, _ = it.fields["ContentID"].(string)
		it.status, _ = it.fields["Status"].(string)
		var buf bytes.Buffer
		buf.WriteByte('{')
		emit := func(m member) {
			if buf.Len() > 1 {
				buf.WriteByte(',')
			}
			name, _ := json.Marshal(m.name)
			buf.Write(name)
			buf.WriteByte(':')
			if err := json.Compact(&buf, m.value); err != nil {
				t.Fatal(err)
			}
		}
		for _, name := range d2Order {
			if i := slices.IndexFunc(members, isNamed(name)); i >= 0 {
				emit(members[i])
			}
		}
		for _, m := range members {
			if !slices.Contains(d2Order, m.name) {
				emit(m)
			}
		}
		buf.WriteByte('}')
		it.canonical = buf.Bytes()
		all.items = append(all.items, it)
		if it.status == "Published" {
			published.items = append(published.items, it)
		}
	}
	return map[string]*oracleEnv{DemoEnvironment: published, DemoPreviewEnvironment: all}
}

// answer models the router for one REST request.
func (o *oracleEnv) answer(method string, seg []string, query string, auth string) oracleAnswer {
	fail := func(status int, code string) oracleAnswer { return oracleAnswer{status: status, code: code} }
	if o.token != "" && auth != o.token && auth != "Bearer "+o.token {
		return fail(401, "unauthorized")
	}
	if method != "GET" {
		return fail(405, "method_not_allowed")
	}
	params, ok := parseOracleQuery(query)
	if !ok {
		return fail(400, "invalid_argument")
	}
	known := []string{"searchByName", "searchByTemplateName", "status", "searchByCreatedBy", "page", "pageSize", "sort", "sortAsc"}
	got := map[string]string{}
	for _, p := range params {
		exact := slices.Contains(known, p[0])
		if !exact {
			if slices.ContainsFunc(known, func(k string) bool { return strings.EqualFold(k, p[0]) }) {
				return fail(400, "invalid_argument")
			}
			continue // unknown: ignored (D12)
		}
		if _, dup := got[p[0]]; dup {
			return fail(400, "invalid_argument")
		}
		got[p[0]] = p[1]
	}
	if len(seg) == 1 { // single item: parameters are not used
		for _, it := range o.items {
			if it.id == seg[0] {
				return oracleAnswer{status: 200, ids: []string{it.id},
					body: []byte(`{"status":200,"data":` + string(it.canonical) + `}`)}
			}
		}
		return fail(404, "content_not_found")
	}

	items, ok := o.filterByWords(got)
	if !ok {
		return fail(400, "invalid_argument")
	}
	page, size := 1, 10
	if v := got["page"]; v != "" {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n < 1 || n > 1<<31-1 {
			return fail(400, "invalid_argument")
		}
		page = int(n)
	}
	if v := got["pageSize"]; v != "" {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n < 1 || n > 1000 {
			return fail(400, "invalid_argument")
		}
		size = int(n)
	}
	asc := false
	if v, ok := got["sortAsc"]; ok {
		switch strings.ToLower(v) {
		case "true", "1":
			asc = true
		case "false", "0":
		default:
			return fail(400, "invalid_argument")
		}
	}
	var path []string
	sortField := "CreatedAt"
	if v, ok := got["sort"]; ok {
		sortField = v
	}
	if rest, ok := strings.CutPrefix(sortField, "Data."); ok {
		path = append([]string{"Data"}, strings.Split(rest, ".")...)
	} else if i := slices.IndexFunc(d2Order, func(k string) bool { return strings.EqualFold(k, sortField) }); i >= 0 && d2Order[i] != "Data" {
		path = []string{d2Order[i]}
	} else {
		return fail(400, "invalid_argument")
	}
	sortOracleItems(items, path, asc)
	ans := oracleAnswer{status: 200, list: true, total: len(items), ids: []string{}}
	var body bytes.Buffer
	body.WriteString(`{"status":200,"data":[`)
	// The page's bounds in 64 bits: a page near 2^31 overflows a 32-bit int (the
	// engine packages' tests also run with GOARCH=386, as the TinyGo module's int is).
	for i := int64(page-1) * int64(size); i < int64(len(items)) && i < int64(page)*int64(size); i++ {
		if len(ans.ids) > 0 {
			body.WriteByte(',')
		}
		ans.ids = append(ans.ids, items[i].id)
		body.Write(items[i].canonical)
	}
	fmt.Fprintf(&body, `],"totalItems":%d}`, len(items))
	ans.body = body.Bytes()
	return ans
}

// filterByWords keeps the items whose filtered members hold every word of the
// corresponding parameter (D4); false when a parameter has no word at all.
func (o *oracleEnv) filterByWords(got map[string]string) ([]*oracleItem, bool) {
	items := slices.Clone(o.items)
	for param, field := range map[string]string{"searchByName": "Name", "searchByTemplateName": "TemplateName", "status": "Status", "searchByCreatedBy": "CreatedBy"} {
		v, ok := got[param]
		if !ok || v == "" {
			continue
		}
		want := oracleTokens(v)
		if len(want) == 0 {
			return nil, false
		}
		items = slices.DeleteFunc(items, func(it *oracleItem) bool {
			s, ok := it.fields[field].(string)
			if !ok {
				return true
			}
			have := oracleTokens(s)
			for _, w := range want {
				if !slices.Contains(have, w) {
					return true
				}
			}
			return false
		})
	}
	return items, true
}

// sortOracleItems sorts items by the member at path (D6): items lacking it last,
// ties by ContentID ascending.
func sortOracleItems(items []*oracleItem, path []string, asc bool) {
	slices.SortStableFunc(items, func(a, b *oracleItem) int {
		va, oka := lookup(a.fields, path)
		vb, okb := lookup(b.fields, path)
		switch {
		case oka && !okb:
			return -1
		case !oka && okb:
			return 1
		case oka && okb:
			c := compareValues(va, vb)
			if !asc {
				c = -c
			}
			if c != 0 {
				return c
			}
		}
		return strings.Compare(a.id, b.id)
	})
}

func lookup(fields map[string]any, path []string) (any, bool) {
	var v any = fields
	for _, p := range path {
		m, ok := v.(map[string]any)
		if !ok {
			return nil, false
		}
		if v, ok = m[p]; !ok {
			return nil, false
		}
	}
	return v, true
}

// compareValues orders numbers numerically, date strings by instant, other strings by
// bytes, and across types numbers < strings < booleans (D6, D12).
func compareValues(a, b any) int {
	rank := func(v any) int {
		switch v.(type) {
		case json.Number:
			return 0
		case string:
			return 1
		case bool:
			return 2
		}
		return 3
	}
	if ra, rb := rank(a), rank(b); ra != rb {
		return ra - rb
	}
	switch a := a.(type) {
	case json.Number:
		x, _, err1 := big.ParseFloat(a.String(), 10, 200, big.ToNearestEven)
		y, _, err2 := big.ParseFloat(b.(json.Number).String(), 10, 200, big.ToNearestEven)
		if err1 != nil || err2 != nil {
			panic("bad number")
		}
		return x.Cmp(y)
	case string:
		ta, err1 := time.Parse(time.RFC3339Nano, a)
		tb, err2 := time.Parse(time.RFC3339Nano, b.(string))
		if err1 == nil && err2 == nil {
			return ta.Compare(tb)
		}
		return strings.Compare(a, b.(string))
	case bool:
		switch {
		case a == b.(bool):
			return 0
		case !a:
			return -1
		}
		return 1
	}
	return 0
}

// parseOracleQuery decodes a raw query: '&' separates pairs, '+' is a space, %XX a byte.
func parseOracleQuery(raw string) ([][2]string, bool) {
	var out [][2]string
	for pair := range strings.SplitSeq(raw, "&") {
		if pair == "" {
			continue
		}
		name, value, _ := strings.Cut(pair, "=")
		n, ok1 := oracleUnescape(name)
		v, ok2 := oracleUnescape(value)
		if !ok1 || !ok2 || !utf8.ValidString(n) || !utf8.ValidString(v) {
			return nil, false
		}
		out = append(out, [2]string{n, v})
	}
	return out, true
}

func oracleUnescape(s string) (string, bool) {
	var b []byte
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '+':
			b = append(b, ' ')
		case '%':
			if i+2 >= len(s) {
				return "", false
			}
			x, err := strconv.ParseUint(s[i+1:i+3], 16, 8)
			if err != nil {
				return "", false
			}
			b = append(b, byte(x))
			i += 2
		default:
			b = append(b, s[i])
		}
	}
	return string(b), true
}

// oracleTokens is a small approximation of the standard analyzer (D4) that suffices for
// the demo's top-level values: runs of letters and digits, joined across ' and . when
// both neighbours are letters or digits; each Han ideograph and each emoji alone; a
// katakana run together; then lower case.
func oracleTokens(s string) []string {
	rs := []rune(s)
	var out []string
	word := func(r rune) bool {
		return (unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r)) &&
			!unicode.Is(unicode.Han, r) && !unicode.Is(unicode.Katakana, r)
	}
	for i := 0; i < len(rs); {
		r := rs[i]
		switch {
		case unicode.Is(unicode.Han, r) || unicode.Is(unicode.Hiragana, r) || unicode.Is(unicode.So, r):
			out = append(out, string(r))
			i++
		case unicode.Is(unicode.Katakana, r) || r == 'ー':
			j := i
			for j < len(rs) && (unicode.Is(unicode.Katakana, rs[j]) || rs[j] == 'ー') {
				j++
			}
			out = append(out, string(rs[i:j]))
			i = j
		case word(r):
			j := i + 1
			for j < len(rs) {
				if word(rs[j]) {
					j++
				} else if (rs[j] == '\'' || rs[j] == '.') && j+1 < len(rs) && word(rs[j+1]) {
					j += 2
				} else {
					break
				}
			}
			out = append(out, strings.ToLower(string(rs[i:j])))
			i = j
		default:
			i++
		}
	}
	return out
}

func TestOracleTokens(t *testing.T) {
	for in, want := range map[string]string{
		"Siobhán O'Connor":            "siobhán o'connor",
		"Pi Day: Baking 3.14 Pies":    "pi day baking 3.14 pies",
		"Why We Link to example.com":  "why we link to example.com",
		"東京ガイド":                       "東 京 ガイド",
		"Launch Party 🎉":              "launch party 🎉",
		"/create-content-template":    "create content template",
		"How do I reset my password?": "how do i reset my password",
		"---":                         "",
	} {
		if got := strings.Join(oracleTokens(in), " "); got != want {
			t.Errorf("oracleTokens(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestRESTTableAgreesWithOracle checks every case of rest.json against the oracle: the
// status, the error code, totalItems, the ids, and the exact and partial bodies.
func TestRESTTableAgreesWithOracle(t *testing.T) {
	envs := loadOracle(t)
	for _, c := range LoadCases(t, "rest.json") {
		t.Run(c.Name, func(t *testing.T) {
			seg := strings.Split(strings.TrimPrefix(c.Request.Path, "/"), "/")
			var ans oracleAnswer
			switch {
			case len(seg) < 5 || len(seg) > 6 || seg[0] != "cda" || seg[1] != "rest" || seg[2] != "v1" || seg[4] != "contents":
				ans = oracleAnswer{status: 404, code: "not_found"}
			default:
				env, ok := envs[seg[3]]
				if !ok {
					ans = oracleAnswer{status: 404, code: "environment_not_found"}
					break
				}
				ans = env.answer(c.Request.Method, seg[5:], c.Request.Query, c.Request.Headers["Authorization"])
			}
			e := c.Expect
			if ans.status != e.Status || ans.code != e.Code {
				t.Fatalf("oracle: %d %q, table: %d %q", ans.status, ans.code, e.Status, e.Code)
			}
			if ans.status != 200 {
				return
			}
			if e.TotalItems != nil && (!ans.list || *e.TotalItems != ans.total) {
				t.Errorf("oracle totalItems %d (list %v), table %d", ans.total, ans.list, *e.TotalItems)
			}
			if e.TotalItems == nil && ans.list {
				t.Errorf("oracle answers a list, the table has no totalItems")
			}
			if e.IDs == nil {
				t.Errorf("a 200 case without ids")
			} else if !slices.Equal(*e.IDs, ans.ids) {
				t.Errorf("ids differ\noracle: %v\n table: %v", ans.ids, *e.IDs)
			}
			if want, _ := e.exactBody(); want != nil && !bytes.Equal(want, ans.body) {
				t.Errorf("exact body differs\noracle: %s\n table: %s", ans.body, want)
			}
			for _, part := range e.BodyContains {
				if !bytes.Contains(ans.body, []byte(part)) {
					t.Errorf("oracle body lacks %q", part)
				}
			}
			for _, part := range e.BodyNotContains {
				if bytes.Contains(ans.body, []byte(part)) {
					t.Errorf("oracle body contains %q", part)
				}
			}
		})
	}
}
