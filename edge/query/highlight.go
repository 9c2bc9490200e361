package query

// Highlight asks for the passages of each hit's stored text where the terms of a query
// occur, marked up (Elasticsearch's plain highlighter). The evaluator reads the terms
// from Query (the search's own query unless the request gave another), so it knows no
// more of where a highlight came from than of where a query came from.
type Highlight struct {
	// Query supplies the terms to mark; nil means the search's query.
	Query Query
	// Fields are the fields to highlight, concrete (patterns already resolved), in the
	// order of the answer.
	Fields []HighlightField
}

// HighlightField is one field to highlight and how.
type HighlightField struct {
	// Field is a top-level member or a dotted Data path holding text.
	Field string
	// PreTags and PostTags wrap each marked term; the i-th term of a fragment takes
	// tag i modulo their count (one pair is usual).
	PreTags, PostTags []string
	// FragmentSize is the approximate length of a fragment in characters.
	FragmentSize int
	// NumberOfFragments is the most fragments returned; 0 marks each whole value.
	NumberOfFragments int
	// ByScore orders fragments best first; otherwise they keep the text's order.
	ByScore bool
	// AnyField marks the query's terms whatever field they target
	// (require_field_match false); otherwise only the terms on this field.
	AnyField bool
	// HTMLEncode escapes the text around the tags for HTML (encoder "html").
	HTMLEncode bool
	// NoMatchSize, when above 0, returns that many leading characters of the first
	// value when nothing in the field matched.
	NoMatchSize int
}

// HighlightResult is the highlighted fragments of one field of one hit.
type HighlightResult struct {
	Field     string
	Fragments []string
}
