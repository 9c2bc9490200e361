package query

// Traversal of a query tree, after go/ast's Walk and Inspect (and Prometheus's
// promql/parser): code that looks at every node (counting clauses, collecting fields)
// calls these instead of listing the nodes that hold other nodes, so a new compound node
// is taught to one place.

// A Visitor's Visit is called by Walk for each node. When it returns a non-nil Visitor w,
// Walk visits each of the node's children with w, then calls w.Visit(nil).
type Visitor interface {
	Visit(q Query) (w Visitor)
}

// Walk traverses q depth-first, in order: v.Visit(q), then, if that returns a non-nil w,
// each child with w (Bool clauses in order, the query in Boost and ConstantScore, DisMax
// queries in order), then w.Visit(nil). Nil queries are not visited. A FieldTerms is
// one node: its Terms exist only in its Expand.
func Walk(v Visitor, q Query) {
	if q == nil {
		return
	}
	if v = v.Visit(q); v == nil {
		return
	}
	switch q := q.(type) {
	case Bool:
		for _, c := range q.Clauses {
			Walk(v, c.Query)
		}
	case Boost:
		Walk(v, q.Query)
	case ConstantScore:
		Walk(v, q.Query)
	case DisMax:
		for _, s := range q.Queries {
			Walk(v, s)
		}
	}
	v.Visit(nil)
}

// Inspect traverses q depth-first, in Walk's order: f(q), then, if that returns true,
// q's children, then f(nil). Nil queries are not visited. It calls f directly rather than
// through a Visitor, so that a closure passed to it need not be allocated.
func Inspect(q Query, f func(Query) bool) {
	if q == nil || !f(q) {
		return
	}
	switch q := q.(type) {
	case Bool:
		for _, c := range q.Clauses {
			Inspect(c.Query, f)
		}
	case Boost:
		Inspect(q.Query, f)
	case ConstantScore:
		Inspect(q.Query, f)
	case DisMax:
		for _, s := range q.Queries {
			Inspect(s, f)
		}
	}
	f(nil)
}
