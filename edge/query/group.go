package query

// Group nests clauses into bools of at most max clauses each, themselves clauses of
// occur, until at most max clauses remain. It is how a front-end states a filter or a
// disjunction of more members than one bool may hold (the evaluator's clause limit):
// an AND of ANDs (occur Filter) or an OR of ORs (occur Should over Should clauses)
// matches what the flat bool would.
func Group(clauses []Clause, occur Occur, max int) []Clause {
	if max < 2 {
		return clauses
	}
	for len(clauses) > max {
		nested := make([]Clause, 0, (len(clauses)+max-1)/max)
		for i := 0; i < len(clauses); i += max {
			part := clauses[i:min(i+max, len(clauses))]
			nested = append(nested, Clause{Occur: occur, Query: Bool{Clauses: part}})
		}
		clauses = nested
	}
	return clauses
}
