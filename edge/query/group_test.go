package query

import "testing"

// TestGroup: clauses nest into bools of at most max, as clauses of occur, keeping their
// order; a short list is left alone.
func TestGroup(t *testing.T) {
	leaves := func(n int) []Clause {
		cs := make([]Clause, n)
		for i := range cs {
			cs[i] = Clause{Occur: Filter, Query: Term{Field: "f", Text: string(rune('a' + i%26))}}
		}
		return cs
	}
	for _, tc := range []struct{ n, max, top int }{
		{0, 4, 0}, {3, 4, 3}, {4, 4, 4}, {5, 4, 2}, {16, 4, 4}, {17, 4, 2}, {100, 4, 2}, {5, 1, 5},
	} {
		got := Group(leaves(tc.n), Should, tc.max)
		if len(got) != tc.top {
			t.Errorf("Group(%d, max %d): %d clauses at the top, want %d", tc.n, tc.max, len(got), tc.top)
		}
		var count func(cs []Clause) int
		count = func(cs []Clause) int {
			n := 0
			for _, c := range cs {
				if b, ok := c.Query.(Bool); ok && c.Occur == Should && tc.n > tc.max && tc.max > 1 {
					if len(b.Clauses) > tc.max {
						t.Errorf("a nested bool of %d clauses", len(b.Clauses))
					}
					n += count(b.Clauses)
				} else {
					n++
				}
			}
			return n
		}
		if n := count(got); n != tc.n {
			t.Errorf("Group(%d, max %d) holds %d leaves", tc.n, tc.max, n)
		}
	}
}
