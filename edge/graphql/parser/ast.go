// Package graphql is a hand-written lexer, parser and printer for GraphQL executable
// documents (queries and fragments), with the relaxations of the documented dialect (API.md
// D9): an empty argument list `content()` and an empty selection set `{ }`.
// Off-the-shelf parsers reject both, which is why this package exists.
//
// It is syntax only: it knows nothing of the content schema or the engine. It compiles
// with TinyGo (no reflection, no fmt in the hot path), never panics on any input, and
// bounds every document by Limits (API.md D11), so a hostile document costs at most
// linear time in its size.
package parser

import "unicode/utf8"

// Pos is a byte offset into the document's source. Offsets are cheap to record on every
// node; the line and column that errors show are computed only when needed.
type Pos int

// Document is a parsed executable document.
type Document struct {
	// Source is the text the document was parsed from; positions index into it.
	Source string
	// Definitions are the operations and fragments in source order.
	Definitions []Definition
}

// LineColumn returns the 1-based line and column of p in the document's source.
func (d *Document) LineColumn(p Pos) (line, column int) { return LineColumn(d.Source, p) }

// LineColumn returns the 1-based line and column of byte offset p in src. Lines end at
// \n, \r\n or \r (GraphQL's LineTerminator); columns count Unicode code points, so a
// client shows the same place whatever encoding its editor uses for ASCII text.
func LineColumn(src string, p Pos) (line, column int) {
	off := int(p)
	if off < 0 {
		off = 0
	}
	if off > len(src) {
		off = len(src)
	}
	line, start := 1, 0
	for i := 0; i < off; i++ {
		switch src[i] {
		case '\n':
			line++
			start = i + 1
		case '\r':
			if i+1 < len(src) && src[i+1] == '\n' {
				continue // the \n ends the line
			}
			line++
			start = i + 1
		}
	}
	return line, utf8.RuneCountInString(src[start:off]) + 1
}

// DefinitionKind says what a Definition defines.
type DefinitionKind uint8

// Definition kinds.
const (
	OperationDefinition DefinitionKind = iota + 1
	FragmentDefinition
)

// Definition is an operation or a fragment definition.
type Definition struct {
	Kind DefinitionKind
	Pos  Pos
	// Operation is "query", "mutation" or "subscription" for an operation written with
	// its keyword, and "" for the shorthand `{ ... }` (a query) and for fragments.
	Operation string
	// Name is the operation's name ("" when anonymous) or the fragment's name.
	Name string
	// Variables are an operation's variable definitions.
	Variables []VariableDefinition
	// TypeCondition is a fragment's `on Type`.
	TypeCondition string
	Directives    []Directive
	// Selections is the definition's selection set (always written, maybe empty).
	Selections []Selection
}

// SelectionKind says what a Selection is.
type SelectionKind uint8

// Selection kinds.
const (
	FieldSelection SelectionKind = iota + 1
	FragmentSpread
	InlineFragment
)

// Selection is a field, a fragment spread or an inline fragment. One struct for the
// three keeps selection sets in one contiguous slice, without interface boxing.
type Selection struct {
	Kind SelectionKind
	Pos  Pos
	// Alias is a field's alias ("" when none).
	Alias string
	// Name is a field's name or a spread fragment's name.
	Name string
	// TypeCondition is an inline fragment's `on Type` ("" when absent).
	TypeCondition string
	// Arguments are a field's arguments.
	Arguments []Argument
	// HasArguments is true when parentheses were written, even empty: the dialect's
	// `content()` (D9).
	HasArguments bool
	Directives   []Directive
	// Selections is the field's or inline fragment's selection set.
	Selections []Selection
	// HasSelections is true when braces were written, even empty: the dialect's `{ }`
	// means every member (D9), which differs from no selection set at all only for
	// printing, but the printer must keep the difference for a faithful round trip.
	HasSelections bool
}

// ResponseKey is the key a field answers under: its alias, else its name.
func (s *Selection) ResponseKey() string {
	if s.Alias != "" {
		return s.Alias
	}
	return s.Name
}

// Argument is `name: value` of a field or directive.
type Argument struct {
	Pos   Pos
	Name  string
	Value Value
}

// Directive is `@name(arguments)`.
type Directive struct {
	Pos       Pos
	Name      string
	Arguments []Argument
}

// VariableDefinition is `$name: Type = default @directives`.
type VariableDefinition struct {
	Pos        Pos
	Name       string
	Type       Type
	Default    *Value
	Directives []Directive
}

// TypeKind says what a Type reference is.
type TypeKind uint8

// Type reference kinds.
const (
	NamedType TypeKind = iota + 1
	ListType
	NonNullType
)

// Type is a type reference of a variable definition: a name, [Elem] or Elem!.
type Type struct {
	Kind TypeKind
	Pos  Pos
	Name string
	Elem *Type
}

// ValueKind says what a Value is.
type ValueKind uint8

// Value kinds.
const (
	VariableValue ValueKind = iota + 1
	IntValue
	FloatValue
	StringValue
	BooleanValue
	NullValue
	EnumValue
	ListValue
	ObjectValue
)

// String names the kind as GraphQL's grammar does, for error messages.
func (k ValueKind) String() string {
	switch k {
	case VariableValue:
		return "a variable"
	case IntValue:
		return "an Int"
	case FloatValue:
		return "a Float"
	case StringValue:
		return "a String"
	case BooleanValue:
		return "a Boolean"
	case NullValue:
		return "null"
	case EnumValue:
		return "an enum value"
	case ListValue:
		return "a list"
	case ObjectValue:
		return "an object"
	}
	return "a value"
}

// Value is an input value.
type Value struct {
	Kind ValueKind
	Pos  Pos
	// Text is the literal of an Int or Float as written, the decoded text of a String
	// (block strings already dedented), the name of an enum value or variable, and
	// "true"/"false" for a Boolean.
	Text   string
	List   []Value
	Fields []ObjectField
}

// ObjectField is `name: value` inside an object value.
type ObjectField struct {
	Pos   Pos
	Name  string
	Value Value
}

// SameArguments reports whether two argument lists are the same: the same names with
// equal values, in the same order, wherever they were written. It is what comparing
// their printed forms gives (field merging compares arguments so), without printing.
func SameArguments(a, b []Argument) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Name != b[i].Name || !a[i].Value.Equal(&b[i].Value) {
			return false
		}
	}
	return true
}

// Equal reports whether v and w are the same value, ignoring positions: the same kind
// and text, and equal items or fields in the same order.
func (v *Value) Equal(w *Value) bool {
	if v.Kind != w.Kind || v.Text != w.Text || len(v.List) != len(w.List) || len(v.Fields) != len(w.Fields) {
		return false
	}
	for i := range v.List {
		if !v.List[i].Equal(&w.List[i]) {
			return false
		}
	}
	for i := range v.Fields {
		if v.Fields[i].Name != w.Fields[i].Name || !v.Fields[i].Value.Equal(&w.Fields[i].Value) {
			return false
		}
	}
	return true
}
