package eval

import (
	"strings"

	"github.com/cdaedge/cdaedge/edge/query"
	"github.com/cdaedge/cdaedge/snapshot"
)

// textRange evaluates a Range on a text field as Lucene's TermRangeQuery does there (and
// so Elasticsearch's range and query_string ranges): the items having an analysed term
// between the bounds, terms compared in byte order. `Name:[product TO product]` is the
// items whose name has the word "product", `Name:[0 TO 9]` those with a word from "0" to
// "9" (such as "2021"). Bounds are compared as given: query_string lower-cases them for
// a lower-casing analyzer, the range clause does not (as Elasticsearch). A bound that is
// not a string (a number given for a text field) compares as written.
//
// ok is false when q is not on a text field: the exact (.keyword) form, whose whole
// values compare, or a field of numbers, dates or booleans, which compare as such; the
// caller then compares typed values.
func (e *Evaluator) textRange(q query.Range) (set docSet, ok bool, err error) {
	if strings.HasSuffix(q.Field, ".keyword") {
		return nil, false, nil
	}
	f := e.snap.Field(q.Field)
	if f == nil {
		return nil, false, nil
	}
	if kind := e.fieldKind(f); kind != snapshot.KindString && (kind != 0 || f.Text().Len() == 0) {
		return nil, false, nil
	}
	dict := f.Text()
	set = newDocSet(e.n)
	i := 0
	if q.Lower != nil {
		lo := termBound(q.Lower)
		var found bool
		i, found = dict.Find(lo)
		if found && !q.Lower.Inclusive {
			i++
		}
	}
	hi, incHi := "", false
	if q.Upper != nil {
		hi, incHi = termBound(q.Upper), q.Upper.Inclusive
	}
	for it := e.termsFrom(dict, i); it.Next(); {
		t := it.Term()
		if q.Upper != nil {
			if c := strings.Compare(t, hi); c > 0 || c == 0 && !incHi {
				break
			}
		}
		p := it.Postings()
		if err := e.spend(1 + p.DocFreq); err != nil {
			return nil, true, err
		}
		for doc := p.Next(); doc >= 0; doc = p.Next() {
			set.add(doc)
		}
	}
	return set, true, nil
}

// termBound is the term a range bound compares with: a string's (normalised) Str, any
// other value as written.
func termBound(b *query.Bound) string {
	if b.Value.Kind == query.ScalarString {
		return b.Value.Str
	}
	return b.Value.Text
}
