package difftest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// casesFile holds queries with Lucene 8.8's answers, written by the harness
// (go tool task lucene -- --write-cases ...; the file says how).
var casesFile = filepath.Join("..", "..", "..", "testdata", "lucene", "cases.json")

// TestReplayLucene replays the stored queries against the engine, without Java: the
// environment is generated again from the file's seed (the generator is deterministic),
// and each answer must have Lucene's hit set and its first hits in Lucene's order,
// scores within Tolerance counting as ties, and its first two pages of 10 the same
// hits as its full listing, exactly as the harness compares.
func TestReplayLucene(t *testing.T) {
	data, err := os.ReadFile(casesFile)
	if err != nil {
		t.Fatal(err)
	}
	cf, err := ReadCaseFile(data)
	if err != nil {
		t.Fatal(err)
	}
	if len(cf.Cases) < 100 {
		t.Fatalf("%s holds %d cases; regenerate it: %s", casesFile, len(cf.Cases), cf.Regenerate)
	}
	env, err := NewEnv(cf.Seed, cf.Items)
	if err != nil {
		t.Fatal(err)
	}
	eng := NewEngine(env)
	failed := 0
	for i, c := range cf.Cases {
		a := eng.Search(c.Query)
		problems := c.Check(a)
		if len(problems) == 0 {
			if problem := checkPages(eng, c.Query, a); problem != "" {
				problems = append(problems, problem)
			}
		}
		if len(problems) > 0 {
			failed++
			if failed <= 10 {
				t.Errorf("case %d (%s): %s\n  %s\n  Lucene: %s", i, c.Kind, c.Query, strings.Join(problems, "; "), c.Lucene)
			}
		}
	}
	if failed > 0 {
		t.Errorf("%d of %d cases disagree with Lucene; if the environment generator changed on purpose, regenerate: %s",
			failed, len(cf.Cases), cf.Regenerate)
	}
}

// TestCheck covers the comparison itself: sets, ranks, ties, and a tied rest.
func TestCheck(t *testing.T) {
	ids := func(d int) string { return string(rune('a' + d)) }
	la := LuceneAnswer{Hits: []Hit{{0, 3}, {1, 2}, {2, 2}, {3, 1}}}
	c, ok := NewCase("k", nil, la, ids, 0)
	if !ok || c.Total != 4 || len(c.Top) != 4 {
		t.Fatalf("case %+v", c)
	}
	for _, tc := range []struct {
		order []string
		ok    bool
	}{
		{[]string{"a", "b", "c", "d"}, true},
		{[]string{"a", "c", "b", "d"}, true}, // b and c tie
		{[]string{"b", "a", "c", "d"}, false},
		{[]string{"a", "b", "c"}, false},
		{[]string{"a", "b", "c", "e"}, false},
	} {
		if got := len(c.Check(Answer{Total: len(tc.order), IDs: tc.order})) == 0; got != tc.ok {
			t.Errorf("%v: agree %v, want %v", tc.order, got, tc.ok)
		}
	}
	// Twelve hits tied after the first: kept as the head and a tied rest.
	la = LuceneAnswer{Hits: []Hit{{0, 5}}}
	for d := 1; d <= 12; d++ {
		la.Hits = append(la.Hits, Hit{d, 1})
	}
	c, ok = NewCase("k", nil, la, ids, 4)
	if !ok || !c.RestTied || len(c.Top) != 1 {
		t.Fatalf("tied case %+v", c)
	}
	order := []string{"a", "m", "l", "k", "j", "i", "h", "g", "f", "e", "d", "c", "b"}
	if p := c.Check(Answer{Total: 13, IDs: order}); len(p) > 0 {
		t.Errorf("tied rest: %v", p)
	}
	order[0], order[1] = order[1], order[0]
	if p := c.Check(Answer{Total: 13, IDs: order}); len(p) == 0 {
		t.Error("the best hit out of place was not noticed")
	}
}
