package parser

import "unicode/utf8"

// Print appends doc to dst in a canonical one-line form that Parse reads back into the
// same tree (positions aside): the dialect's empty `()` and `{ }` are kept, strings are
// printed as ordinary quoted strings (block strings by their value), commas are never
// written. It is used by tests and for logging queries in a normal form.
func Print(dst []byte, doc *Document) []byte {
	for i := range doc.Definitions {
		if i > 0 {
			dst = append(dst, ' ')
		}
		dst = printDefinition(dst, &doc.Definitions[i])
	}
	return dst
}

func printDefinition(dst []byte, d *Definition) []byte {
	switch d.Kind {
	case FragmentDefinition:
		dst = append(dst, "fragment "...)
		dst = append(dst, d.Name...)
		dst = append(dst, " on "...)
		dst = append(dst, d.TypeCondition...)
	default:
		if d.Operation != "" {
			dst = append(dst, d.Operation...)
			if d.Name != "" {
				dst = append(dst, ' ')
				dst = append(dst, d.Name...)
			}
			if len(d.Variables) > 0 {
				dst = append(dst, '(')
				for i := range d.Variables {
					if i > 0 {
						dst = append(dst, ' ')
					}
					v := &d.Variables[i]
					dst = append(dst, '$')
					dst = append(dst, v.Name...)
					dst = append(dst, ": "...)
					dst = printType(dst, &v.Type)
					if v.Default != nil {
						dst = append(dst, " = "...)
						dst = printValue(dst, v.Default)
					}
					dst = printDirectives(dst, v.Directives)
				}
				dst = append(dst, ')')
			}
		}
	}
	dst = printDirectives(dst, d.Directives)
	if d.Operation != "" || d.Kind == FragmentDefinition {
		dst = append(dst, ' ')
	}
	return printSelections(dst, d.Selections)
}

func printType(dst []byte, t *Type) []byte {
	switch t.Kind {
	case ListType:
		dst = append(dst, '[')
		if t.Elem != nil {
			dst = printType(dst, t.Elem)
		}
		return append(dst, ']')
	case NonNullType:
		if t.Elem != nil {
			dst = printType(dst, t.Elem)
		}
		return append(dst, '!')
	}
	return append(dst, t.Name...)
}

func printDirectives(dst []byte, ds []Directive) []byte {
	for i := range ds {
		dst = append(dst, " @"...)
		dst = append(dst, ds[i].Name...)
		if len(ds[i].Arguments) > 0 {
			dst = printArguments(dst, ds[i].Arguments)
		}
	}
	return dst
}

func printArguments(dst []byte, args []Argument) []byte {
	dst = append(dst, '(')
	for i := range args {
		if i > 0 {
			dst = append(dst, ' ')
		}
		dst = append(dst, args[i].Name...)
		dst = append(dst, ": "...)
		dst = printValue(dst, &args[i].Value)
	}
	return append(dst, ')')
}

func printSelections(dst []byte, sels []Selection) []byte {
	if len(sels) == 0 {
		return append(dst, "{ }"...)
	}
	dst = append(dst, "{ "...)
	for i := range sels {
		s := &sels[i]
		switch s.Kind {
		case FragmentSpread:
			dst = append(dst, "..."...)
			dst = append(dst, s.Name...)
			dst = printDirectives(dst, s.Directives)
		case InlineFragment:
			dst = append(dst, "..."...)
			if s.TypeCondition != "" {
				dst = append(dst, " on "...)
				dst = append(dst, s.TypeCondition...)
			}
			dst = printDirectives(dst, s.Directives)
			dst = append(dst, ' ')
			dst = printSelections(dst, s.Selections)
		default:
			if s.Alias != "" {
				dst = append(dst, s.Alias...)
				dst = append(dst, ": "...)
			}
			dst = append(dst, s.Name...)
			if s.HasArguments {
				dst = printArguments(dst, s.Arguments)
			}
			dst = printDirectives(dst, s.Directives)
			if s.HasSelections {
				dst = append(dst, ' ')
				dst = printSelections(dst, s.Selections)
			}
		}
		dst = append(dst, ' ')
	}
	return append(dst, '}')
}

func printValue(dst []byte, v *Value) []byte {
	switch v.Kind {
	case VariableValue:
		dst = append(dst, '$')
		return append(dst, v.Text...)
	case StringValue:
		return AppendString(dst, v.Text)
	case ListValue:
		dst = append(dst, '[')
		for i := range v.List {
			if i > 0 {
				dst = append(dst, ' ')
			}
			dst = printValue(dst, &v.List[i])
		}
		return append(dst, ']')
	case ObjectValue:
		dst = append(dst, '{')
		for i := range v.Fields {
			if i > 0 {
				dst = append(dst, ' ')
			}
			dst = append(dst, v.Fields[i].Name...)
			dst = append(dst, ": "...)
			dst = printValue(dst, &v.Fields[i].Value)
		}
		return append(dst, '}')
	case NullValue:
		return append(dst, "null"...)
	}
	return append(dst, v.Text...)
}

// AppendString appends s as a GraphQL string literal. Control characters are escaped;
// everything else is written as is (GraphQL source is Unicode).
func AppendString(dst []byte, s string) []byte {
	const hex = "0123456789ABCDEF"
	dst = append(dst, '"')
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '"' || c == '\\':
			dst = append(dst, '\\', c)
		case c == '\n':
			dst = append(dst, '\\', 'n')
		case c == '\r':
			dst = append(dst, '\\', 'r')
		case c == '\t':
			dst = append(dst, '\\', 't')
		case c < 0x20 || c == 0x7f:
			dst = append(dst, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xF])
		case c >= utf8.RuneSelf:
			r, n := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && n == 1 {
				dst = append(dst, `\uFFFD`...)
			} else {
				dst = append(dst, s[i:i+n]...)
			}
			i += n
			continue
		default:
			dst = append(dst, c)
		}
		i++
	}
	return append(dst, '"')
}
