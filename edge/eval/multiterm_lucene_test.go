package eval

import (
	"testing"

	"github.com/cdaedge/cdaedge/edge/query"
	"github.com/cdaedge/cdaedge/snapshot/snapshottest"
)

// Two differences from Lucene 8.8 that edge/lucene/difftest found in multi-term queries.

// TestFuzzyBoostClamped: a fuzzy expansion's boost, 1 - edits/min(length), is 0 or
// below for very short terms ("r"~2 against "red": 1 - 2/1); Lucene's TopTermsRewrite
// clamps it at 0, so the term still matches but adds nothing, rather than lowering the
// scores of items that also have better terms.
func TestFuzzyBoostClamped(t *testing.T) {
	e := evalEngine(t)
	res, err := e.Search(&query.Search{Query: query.Fuzzy{Field: "Data.tags", Term: "r", MaxEdits: 2, MaxExpansions: 50, Transpositions: true}, Size: 10})
	if err != nil {
		t.Fatal(err)
	}
	if res.Total != 2 {
		t.Fatalf("total %d, want 2 (red in items 0 and 2)", res.Total)
	}
	for i, s := range res.Scores {
		if s != 0 {
			t.Errorf("hit %d (item %d) scores %v, want 0", i, res.Docs[i], s)
		}
	}
}

// TestWildcardEmptyValue: a wildcard pattern with a * before other characters, on a
// field with an empty exact value, matches (or not) like any other value; the matcher's
// work limit, proportional to the value's length, used to refuse it as too complex.
func TestWildcardEmptyValue(t *testing.T) {
	e := NewEvaluator(snapshottest.Open(t, "wild", false,
		`{"ContentID":"Content_0","Status":"Published","Data":{"alt":""}}`,
		`{"ContentID":"Content_1","Status":"Published","Data":{"alt":"富士山"}}`))
	for pattern, want := range map[string]string{"*富士?": "[1]", "*a*b": "[]", "?": "[]", "**": "[0 1]"} {
		if got := docsOf(t, e, query.Wildcard{Field: "Data.alt.keyword", Pattern: pattern}); got != want {
			t.Errorf("%s: got %s, want %s", pattern, got, want)
		}
	}
}
