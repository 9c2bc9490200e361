// Package content holds the rules every query style shares (API.md D4–D7): which words
// a string filter needs, how paging parameters read, how sort names resolve and what the
// default order is, and the Schema through which a front-end learns an environment's
// fields. REST, GraphQL and the search DSL call these functions; none of them restates
// a rule of its own.
package content

import (
	"strconv"
	"strings"

	"github.com/cdaedge/cdaedge/edge"
	"github.com/cdaedge/cdaedge/edge/analysis"
	"github.com/cdaedge/cdaedge/edge/query"
)

// FieldType says how an environment's field is indexed, so that term-level clauses on
// numbers, dates and booleans compare values as Elasticsearch's dynamic mapping does.
// It is a bit set: a field may hold values of several kinds (there is no mapping).
type FieldType uint8

// Field types.
const (
	TypeText   FieldType = 1 << iota // analysed strings (plus the .keyword exact form)
	TypeNumber                       // JSON numbers
	TypeDate                         // the date members of D5 (CreatedAt, UpdatedAt, PublishedAt)
	TypeBool                         // JSON booleans
)

// Schema describes an environment's fields to a front-end, so that it can compile a
// request (and reject a sort on an unknown member, D6) without evaluating anything.
type Schema interface {
	// TopLevel returns the canonical spelling of a top-level member, matched
	// case-insensitively, and whether the environment knows it.
	TopLevel(name string) (string, bool)
	// FieldType returns the kinds of value the field (a top-level member or a dotted
	// Data path, without ".keyword") holds; 0 when no item has it.
	FieldType(name string) FieldType
	// SortField resolves a search sort key (D6, D12): a top-level member matched
	// case-insensitively or a Data.<path>. ok is false when no item has the field.
	SortField(name string) (field string, ok bool)
	// FieldNames lists every indexed field (top-level members and Data paths), sorted.
	FieldNames() []string
}

// Words analyses a string filter's value (D4). An empty value is no filter (nil, nil);
// a value with no words is an invalid_argument error naming it as name.
func Words(name, value string) ([]string, error) {
	if value == "" {
		return nil, nil
	}
	tokens := analysis.Standard(nil, value)
	if len(tokens) == 0 {
		return nil, edge.Errorf(edge.CodeInvalidArgument, "%s %q has no words to search for", name, edge.Clip(value))
	}
	words := make([]string, len(tokens))
	for i, t := range tokens {
		words[i] = t.Term
	}
	return words, nil
}

// AllWords is the string filter of D4: an item matches when every word occurs in the
// analysed value of one of fields (any field may hold a different word). It does not
// score. With no fields it matches nothing. A word given twice is one condition, and
// many words nest in bools of at most MaxBoolClauses clauses, so that a filter within the
// URL and body limits is answered (within the work budget) rather than refused by the
// evaluator's limit on one bool's clauses (API.md D11).
func AllWords(fields, words []string) query.Query {
	if len(fields) == 0 {
		return query.MatchNone{}
	}
	one := func(w string) query.Query {
		if len(fields) == 1 {
			return query.Term{Field: fields[0], Text: w}
		}
		b := query.Bool{Clauses: make([]query.Clause, len(fields))}
		for i, f := range fields {
			b.Clauses[i] = query.Clause{Occur: query.Should, Query: query.Term{Field: f, Text: w}}
		}
		return b
	}
	words = distinct(words)
	if len(words) == 1 {
		return one(words[0])
	}
	clauses := make([]query.Clause, len(words))
	for i, w := range words {
		clauses[i] = query.Clause{Occur: query.Filter, Query: one(w)}
	}
	return query.Bool{Clauses: query.Group(clauses, query.Filter, MaxBoolClauses)}
}

// MaxBoolClauses is the most clauses of one bool the front-ends build for a list of
// values (a word filter, a terms clause): the evaluator's limit on the clauses of one
// bool (Lucene's max clause count, API.md D11).
const MaxBoolClauses = 1024

// distinct returns words without repeats, in first-seen order (words itself when it
// has none).
func distinct(words []string) []string {
	if len(words) < 2 {
		return words
	}
	seen := make(map[string]bool, len(words))
	out := words[:0:0]
	for _, w := range words {
		if !seen[w] {
			seen[w] = true
			out = append(out, w)
		}
	}
	return out
}

// FieldFilter compiles a string filter on one field (D4), named name in errors; nil when
// the value is empty.
func FieldFilter(name, field, value string) (query.Query, error) {
	words, err := Words(name, value)
	if words == nil || err != nil {
		return nil, err
	}
	return AllWords([]string{field}, words), nil
}

// DataTextFields lists the Data paths that hold text, the fields a filter on Data as a
// whole looks in (D12: `data: "..."` matches when all its words occur in the item's
// Data strings taken together).
func DataTextFields(s Schema) []string {
	var fields []string
	for _, f := range s.FieldNames() {
		if strings.HasPrefix(f, "Data.") && s.FieldType(f)&TypeText != 0 {
			fields = append(fields, f)
		}
	}
	return fields
}

// Paging defaults and limits of D7 (REST and GraphQL).
const (
	DefaultPageSize = 10
	MaxPageSize     = 1000
	MaxPage         = 1<<31 - 1
)

// Page parses a 1-based page number (D7, D12); empty means 1.
func Page(param, value string) (int, error) {
	if value == "" {
		return 1, nil
	}
	n, err := parseDigits(value)
	if err != nil || n < 1 || n > MaxPage {
		return 0, edge.Errorf(edge.CodeInvalidArgument, "%s must be a whole number from 1 to %d, not %q", param, MaxPage, edge.Clip(value))
	}
	return int(n), nil
}

// PageSize parses a page size (D7); empty means the default.
func PageSize(param, value string) (int, error) {
	if value == "" {
		return DefaultPageSize, nil
	}
	n, err := parseDigits(value)
	if err != nil || n < 1 || n > MaxPageSize {
		return 0, edge.Errorf(edge.CodeInvalidArgument, "%s must be a whole number from 1 to %d, not %q", param, MaxPageSize, edge.Clip(value))
	}
	return int(n), nil
}

// parseDigits reads a non-negative decimal integer written with digits only (no sign,
// no spaces), as paging parameters are.
func parseDigits(s string) (int64, error) {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, strconv.ErrSyntax
		}
	}
	return strconv.ParseInt(s, 10, 64)
}

// maxOffset caps a page's offset: past the end of any environment, and small enough that
// offset+size cannot overflow an int, which has 32 bits under TinyGo's wasm.
const maxOffset = 1 << 30

// Offset is the offset of a 1-based page, (page-1)*size, capped so that it is the same
// answer (an empty page) with 32- and 64-bit ints.
func Offset(page, size int) int {
	if size > 0 && page-1 > maxOffset/size {
		return maxOffset
	}
	return (page - 1) * size
}

// SortAscending parses sortAsc: true/false in any case, 1/0; absent means descending
// (D6, D12).
func SortAscending(param, value string) (bool, error) {
	switch {
	case value == "":
		return false, nil
	case strings.EqualFold(value, "true") || value == "1":
		return true, nil
	case strings.EqualFold(value, "false") || value == "0":
		return false, nil
	}
	return false, edge.Errorf(edge.CodeInvalidArgument, "%s must be true or false, not %q", param, edge.Clip(value))
}

// DefaultSortField is the field of the default order (D6).
const DefaultSortField = "CreatedAt"

// DefaultOrder is D6's default order: CreatedAt descending; the engine breaks every tie
// by ContentID ascending (the item number).
var DefaultOrder = []query.SortField{{Field: DefaultSortField, Desc: true}}

// RelevanceOrder sorts best first, ties by the default order (D6).
var RelevanceOrder = []query.SortField{{Score: true, Desc: true}, {Field: DefaultSortField, Desc: true}}

// SortField resolves a REST or GraphQL sort name (D6): a top-level member matched
// case-insensitively, or Data.<path> (which need not exist: D12). Empty means the
// default, CreatedAt.
func SortField(param, name string, schema Schema) (string, error) {
	if name == "" {
		return DefaultSortField, nil
	}
	if field, ok := dataPath(name); ok {
		return field, nil
	}
	canonical, ok := schema.TopLevel(name)
	if !ok {
		return "", edge.Errorf(edge.CodeInvalidArgument, "%s: unknown field %q; name a content item member such as CreatedAt or Name, or Data.<element>", param, edge.Clip(name))
	}
	if canonical == "Data" {
		return "", edge.Errorf(edge.CodeInvalidArgument, "%s: Data is an object; name one of its elements as Data.<element>", param)
	}
	return canonical, nil
}

// dataPath reads "Data.<path>" with the prefix in any case, giving it its canonical
// spelling.
func dataPath(name string) (string, bool) {
	if len(name) > 5 && strings.EqualFold(name[:5], "Data.") {
		return "Data." + name[5:], true
	}
	return "", false
}
