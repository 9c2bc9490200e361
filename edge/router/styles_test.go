package router_test

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/url"
	"slices"
	"strings"
	"testing"
	"unicode"

	"github.com/cdaedge/cdaedge/edge"
	"github.com/cdaedge/cdaedge/edge/lucene/difftest"
	"github.com/cdaedge/cdaedge/edge/router"
)

// listPage is one page of a list answer: its items' ContentIDs and totalItems.
type listPage struct {
	IDs   []string
	Total int
}

// generatedRouter returns the Lucene harness's environment generated from seed with
// items items, and a function that sends a request (a body as JSON) to a router over
// it without a work budget and returns the answer's body; an answer other than 200
// fails the test.
func generatedRouter(t *testing.T, seed uint64, items int) (*difftest.Env, func(req *edge.Request) []byte) {
	t.Helper()
	env, err := difftest.NewEnv(seed, items)
	if err != nil {
		t.Fatal(err)
	}
	r := router.New(router.Options{MaxSteps: -1})
	r.Load(env.Snap)
	return env, func(req *edge.Request) []byte {
		t.Helper()
		if req.Body != nil {
			req.Headers = []edge.Header{{Name: "Content-Type", Value: "application/json"}}
		}
		resp := r.Serve(req)
		if resp.Status != 200 {
			t.Fatalf("%s %s?%s %s: status %d: %.300s", req.Method, req.Path, req.RawQuery, req.Body, resp.Status, resp.Body)
		}
		return resp.Body
	}
}

// styleLister returns the generated environment the style tests ask, and a function
// that sends a request to a router over it and reads the page it answers (a request
// that does not answer 200 fails the test).
func styleLister(t *testing.T) (*difftest.Env, func(req *edge.Request) listPage) {
	t.Helper()
	env, serve := generatedRouter(t, 5, 1200)
	return env, func(req *edge.Request) listPage {
		t.Helper()
		var body struct {
			Data []struct {
				ContentID string `json:"ContentID"`
			} `json:"data"`
			TotalItems int `json:"totalItems"`
		}
		if out := serve(req); json.Unmarshal(out, &body) != nil {
			t.Fatalf("%s %s?%s %s: not a list: %.300s", req.Method, req.Path, req.RawQuery, req.Body, out)
		}
		p := listPage{Total: body.TotalItems}
		for _, d := range body.Data {
			p.IDs = append(p.IDs, d.ContentID)
		}
		return p
	}
}

// TestTheStylesListTheSame asks REST, GraphQL and the search DSL for the same random
// lists over a generated environment (word filters on top-level members, a sort on a
// top-level member or a Data element, either direction, a page): the three front-ends
// compile to one query model, so the pages and totals must be the same.
func TestTheStylesListTheSame(t *testing.T) {
	env, ask := styleLister(t)
	envID := env.Snap.Environment()
	// Words of the members the filters read, from the items themselves.
	words := map[string][]string{}
	for i := range env.Snap.Len() {
		var item map[string]any
		if err := json.Unmarshal([]byte(env.Snap.Item(i)), &item); err != nil {
			t.Fatal(err)
		}
		for _, m := range []string{"Name", "TemplateName", "CreatedBy"} {
			if s, ok := item[m].(string); ok {
				for _, w := range strings.Fields(s) {
					if strings.IndexFunc(w, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) >= 0 {
						words[m] = append(words[m], w) // a filter with no words is a 400
					}
				}
			}
		}
	}
	filters := []struct{ rest, graphql, member string }{
		{"searchByName", "name", "Name"},
		{"searchByTemplateName", "templateName", "TemplateName"},
		{"searchByCreatedBy", "createdBy", "CreatedBy"},
	}
	sorts := []string{"", "Name", "CreatedAt", "UpdatedAt", "PublishedAt", "TemplateName", "Data.title", "Data.price", "Data.rating"}
	rng := rand.New(rand.NewPCG(5, 6))
	matched := 0
	for i := range 300 {
		q := url.Values{}
		var args []string
		dsl := map[string]any{}
		var must []any
		for _, f := range filters {
			if rng.IntN(3) == 0 {
				ws := words[f.member]
				v := ws[rng.IntN(len(ws))]
				if rng.IntN(3) == 0 {
					v += " " + ws[rng.IntN(len(ws))]
				}
				q.Set(f.rest, v)
				args = append(args, fmt.Sprintf("%s: %q", f.graphql, v))
				must = append(must, map[string]any{"match": map[string]any{f.member: map[string]any{"query": v, "operator": "and"}}})
			}
		}
		if len(must) > 0 {
			dsl["query"] = map[string]any{"bool": map[string]any{"filter": must}}
		}
		asc := rng.IntN(2) == 0
		order := map[bool]string{true: "asc", false: "desc"}[asc]
		if s := sorts[rng.IntN(len(sorts))]; s != "" {
			q.Set("sort", s)
			args = append(args, fmt.Sprintf("sort: %q", s))
			dsl["sort"] = []any{map[string]any{s: order}}
		} else if asc {
			dsl["sort"] = []any{map[string]any{"CreatedAt": order}}
		}
		if asc {
			q.Set("sortAsc", "true")
			args = append(args, "sortAsc: true")
		}
		pg, size := 1+rng.IntN(4), 1+rng.IntN(30)
		q.Set("page", fmt.Sprint(pg))
		q.Set("pageSize", fmt.Sprint(size))
		args = append(args, fmt.Sprintf("page: %d, pageSize: %d", pg, size))
		dsl["from"], dsl["size"], dsl["_source"] = (pg-1)*size, size, []string{"ContentID"}
		rest := ask(&edge.Request{Method: "GET", Path: "/cda/rest/v1/" + envID + "/contents", RawQuery: q.Encode()})
		doc := fmt.Sprintf(`{ content(%s) { ContentID } }`, strings.Join(args, ", "))
		body, _ := json.Marshal(map[string]string{"query": doc})
		gql := ask(&edge.Request{Method: "POST", Path: "/cda/graphql/v1/" + envID, Body: body})
		if rest.Total != gql.Total || !slices.Equal(rest.IDs, gql.IDs) {
			t.Fatalf("case %d: REST ?%s: %d items %v\nGraphQL %s: %d items %v", i, q.Encode(), rest.Total, rest.IDs, doc, gql.Total, gql.IDs)
		}
		body, _ = json.Marshal(dsl)
		search := ask(&edge.Request{Method: "POST", Path: "/cda/es/v1/" + envID, Body: body})
		if rest.Total != search.Total || !slices.Equal(rest.IDs, search.IDs) {
			t.Fatalf("case %d: REST ?%s: %d items %v\nsearch %s: %d items %v", i, q.Encode(), rest.Total, rest.IDs, body, search.Total, search.IDs)
		}
		if rest.Total > 0 {
			matched++
		}
	}
	if matched < 100 {
		t.Errorf("only %d of the lists matched anything", matched)
	}
}

// TestGraphQLFiltersAsTheSearchDSL asks GraphQL and the search DSL for the same random
// lists filtered by dates (a day or an instant, ranges with each bound), Data words,
// numbers, booleans and lists of alternatives: both compile to one query model, so the
// pages and totals must be the same.
func TestGraphQLFiltersAsTheSearchDSL(t *testing.T) {
	env, ask := styleLister(t)
	envID := env.Snap.Environment()
	rng := rand.New(rand.NewPCG(7, 8))
	date := func() string {
		d := fmt.Sprintf("20%02d-%02d-%02d", 19+rng.IntN(7), 1+rng.IntN(12), 1+rng.IntN(28))
		if rng.IntN(2) == 0 {
			d += fmt.Sprintf("T%02d:%02d:%02dZ", rng.IntN(24), rng.IntN(60), rng.IntN(60))
		}
		return d
	}
	words := []string{"coffee", "garden", "mountain", "festival", "zürich", "night", "kyoto's", "recipe", "market", "schön"}
	matched := 0
	for i := range 300 {
		var args []string
		filter := []any{}
		for _, m := range []string{"CreatedAt", "UpdatedAt"} {
			for _, op := range []string{"gte", "gt", "lte", "lt"} {
				if rng.IntN(9) == 0 {
					d := date()
					args = append(args, fmt.Sprintf("%s_%s: %q", m, op, d))
					filter = append(filter, map[string]any{"range": map[string]any{m: map[string]any{op: d}}})
				}
			}
		}
		if rng.IntN(6) == 0 { // a day or an instant
			d := date()
			args = append(args, fmt.Sprintf("publishedAt: %q", d))
			filter = append(filter, map[string]any{"term": map[string]any{"PublishedAt": d}})
		}
		var data []string
		if rng.IntN(2) == 0 {
			w := words[rng.IntN(len(words))]
			data = append(data, fmt.Sprintf("title: %q", w))
			filter = append(filter, map[string]any{"match": map[string]any{"Data.title": map[string]any{"query": w, "operator": "and"}}})
		}
		if rng.IntN(3) == 0 {
			a, b := words[rng.IntN(len(words))], words[rng.IntN(len(words))]
			data = append(data, fmt.Sprintf("tags: [%q, %q]", a, b))
			filter = append(filter, map[string]any{"bool": map[string]any{"should": []any{
				map[string]any{"match": map[string]any{"Data.tags": map[string]any{"query": a, "operator": "and"}}},
				map[string]any{"match": map[string]any{"Data.tags": map[string]any{"query": b, "operator": "and"}}},
			}}})
		}
		if rng.IntN(6) == 0 {
			n := rng.IntN(12)
			data = append(data, fmt.Sprintf("servings: %d", n))
			filter = append(filter, map[string]any{"term": map[string]any{"Data.servings": n}})
		}
		if rng.IntN(4) == 0 {
			b := rng.IntN(2) == 0
			data = append(data, fmt.Sprintf("vegetarian: %v", b))
			filter = append(filter, map[string]any{"term": map[string]any{"Data.vegetarian": b}})
		}
		if len(data) > 0 {
			args = append(args, "data: {"+strings.Join(data, ", ")+"}")
		}
		pg, size := 1+rng.IntN(3), 1+rng.IntN(40)
		args = append(args, fmt.Sprintf("page: %d, pageSize: %d", pg, size))
		doc := fmt.Sprintf(`{ content(%s) { ContentID } }`, strings.Join(args, ", "))
		body, _ := json.Marshal(map[string]string{"query": doc})
		gql := ask(&edge.Request{Method: "POST", Path: "/cda/graphql/v1/" + envID, Body: body})
		body, _ = json.Marshal(map[string]any{"query": map[string]any{"bool": map[string]any{"filter": filter}}, "from": (pg - 1) * size, "size": size, "_source": []string{"ContentID"}})
		search := ask(&edge.Request{Method: "POST", Path: "/cda/es/v1/" + envID, Body: body})
		if gql.Total != search.Total || !slices.Equal(gql.IDs, search.IDs) {
			t.Fatalf("case %d: GraphQL %s: %d items %v\nsearch %s: %d items %v", i, doc, gql.Total, gql.IDs, body, search.Total, search.IDs)
		}
		if gql.Total > 0 {
			matched++
		}
	}
	if matched < 60 {
		t.Errorf("only %d of the lists matched anything", matched)
	}
}
