package query

import (
	"strings"
	"testing"
)

// name is a short name of a node's type, for the visit orders below: each visit of a
// node writes "Name(", each call with nil (after the node's children) writes ")".
func name(q Query) string {
	switch q := q.(type) {
	case nil:
		return ")"
	case Bool:
		return "Bool("
	case Boost:
		return "Boost("
	case ConstantScore:
		return "ConstantScore("
	case DisMax:
		return "DisMax("
	case Term:
		return "Term:" + q.Text + "("
	case Range:
		return "Range("
	case Exists:
		return "Exists("
	}
	return "other("
}

func TestInspect(t *testing.T) {
	tree := Bool{Clauses: []Clause{
		{Occur: Must, Query: Term{Field: "f", Text: "a"}},
		{Occur: Should, Query: DisMax{Queries: []Query{
			Term{Field: "f", Text: "b"},
			Boost{Boost: 2, Query: ConstantScore{Query: Range{Field: "n"}}},
		}}},
		{Occur: MustNot, Query: Exists{Field: "g"}},
		{Occur: Filter, Query: nil},
	}}
	cases := []struct {
		name string
		q    Query
		skip string // a node for which f returns false: no children, no closing nil
		want string
	}{
		{"leaf", Term{Text: "x"}, "", "Term:x()"},
		{"nil", nil, "", ""},
		{"tree", tree, "", "Bool(Term:a()DisMax(Term:b()Boost(ConstantScore(Range())))Exists())"},
		{"prune DisMax", tree, "DisMax(", "Bool(Term:a()DisMax(Exists())"},
		{"prune Boost", tree, "Boost(", "Bool(Term:a()DisMax(Term:b()Boost()Exists())"},
		{"prune root", tree, "Bool(", "Bool("},
		{"empty Bool", Bool{}, "", "Bool()"},
	}
	for _, c := range cases {
		var got []string
		Inspect(c.q, func(q Query) bool {
			got = append(got, name(q))
			return q == nil || name(q) != c.skip
		})
		if s := strings.Join(got, ""); s != c.want {
			t.Errorf("%s Inspect:\n got %s\nwant %s", c.name, s, c.want)
		}
		// Walk visits in the same order with a Visitor.
		got = nil
		Walk(visitFunc(func(q Query) bool {
			got = append(got, name(q))
			return q == nil || name(q) != c.skip
		}), c.q)
		if s := strings.Join(got, ""); s != c.want {
			t.Errorf("%s Walk:\n got %s\nwant %s", c.name, s, c.want)
		}
	}
}

// visitFunc is a Visitor that goes on into children while the function says so.
type visitFunc func(Query) bool

func (f visitFunc) Visit(q Query) Visitor {
	if f(q) {
		return f
	}
	return nil
}

// TestInspectAllocs checks that Inspect with a closure allocates nothing, as countNodes
// in package dsl relies on.
func TestInspectAllocs(t *testing.T) {
	var q Query = Bool{Clauses: []Clause{{Query: Term{}}, {Query: Boost{Query: Term{}}}}}
	n := 0
	allocs := testing.AllocsPerRun(100, func() {
		Inspect(q, func(q Query) bool {
			n++
			return true
		})
	})
	if allocs != 0 {
		t.Errorf("Inspect allocated %v times", allocs)
	}
}
