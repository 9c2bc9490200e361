package parser

import (
	"strconv"
	"unicode/utf8"
)

// Parse parses an executable document: operations and fragments, in the standard
// syntax plus the dialect's empty `()` and `{ }` (D9). Type system definitions are
// rejected. Every error is an *Error with a position; a document over limits gives a
// LimitError.
func Parse(src string, limits Limits) (*Document, error) {
	limits = limits.withDefaults()
	if len(src) > limits.MaxBytes {
		return nil, &Error{Kind: LimitError, Line: 1, Column: 1,
			Message: "the document is larger than " + strconv.Itoa(limits.MaxBytes) + " bytes"}
	}
	if !utf8.ValidString(src) {
		at := 0
		for at < len(src) {
			r, n := utf8.DecodeRuneInString(src[at:])
			if r == utf8.RuneError && n == 1 {
				break
			}
			at += n
		}
		line, col := LineColumn(src, Pos(at))
		return nil, &Error{Kind: SyntaxError, Pos: Pos(at), Line: line, Column: col,
			Message: "syntax error: the document is not valid UTF-8"}
	}
	p := &parser{lex: lexer{src: src, limits: limits}}
	p.advance()
	doc := &Document{Source: src}
	if p.tok.kind == tokEOF && p.lex.err == nil {
		p.failAt(p.tok.start, "syntax error: the document is empty; send a query such as query { content { Name } }")
	}
	for p.tok.kind != tokEOF && p.lex.err == nil {
		doc.Definitions = append(doc.Definitions, p.definition())
	}
	if p.lex.err != nil {
		return nil, p.lex.err
	}
	return doc, nil
}

type parser struct {
	lex   lexer
	tok   token
	depth int
}

func (p *parser) advance() { p.tok = p.lex.next() }

func (p *parser) failAt(at int, msg string) { p.lex.fail(SyntaxError, at, msg) }

func (p *parser) unexpected(want string) {
	p.failAt(p.tok.start, "syntax error: expected "+want+", found "+describe(p.tok))
}

func (p *parser) ok() bool { return p.lex.err == nil }

// enter counts one level of nesting; false means the depth limit was hit (and reported).
func (p *parser) enter() bool {
	p.depth++
	if p.depth > p.lex.limits.MaxDepth {
		p.lex.fail(LimitError, p.tok.start, "the document is nested deeper than "+strconv.Itoa(p.lex.limits.MaxDepth)+" levels")
		return false
	}
	return true
}

func (p *parser) leave() { p.depth-- }

func (p *parser) isPunct(c byte) bool { return p.tok.kind == tokPunct && p.tok.punct == c }

// punct consumes the punctuator c or reports an error.
func (p *parser) punct(c byte) bool {
	if !p.isPunct(c) {
		p.unexpected(strconv.Quote(string(c)))
		return false
	}
	p.advance()
	return true
}

func (p *parser) name(what string) (string, Pos) {
	if p.tok.kind != tokName {
		p.unexpected(what)
		return "", Pos(p.tok.start)
	}
	n, at := p.tok.val, Pos(p.tok.start)
	p.advance()
	return n, at
}

func (p *parser) definition() Definition {
	d := Definition{Pos: Pos(p.tok.start)}
	switch {
	case p.isPunct('{'):
		d.Kind = OperationDefinition
		d.Selections = p.selectionSet()
	case p.tok.kind == tokName && (p.tok.val == "query" || p.tok.val == "mutation" || p.tok.val == "subscription"):
		d.Kind = OperationDefinition
		d.Operation = p.tok.val
		p.advance()
		if p.tok.kind == tokName {
			d.Name, _ = p.name("a name")
		}
		if p.isPunct('(') {
			d.Variables = p.variableDefinitions()
		}
		d.Directives = p.directives(false)
		d.Selections = p.selectionSet()
	case p.tok.kind == tokName && p.tok.val == "fragment":
		d.Kind = FragmentDefinition
		p.advance()
		if p.tok.kind == tokName && p.tok.val == "on" {
			p.unexpected("a fragment name (not \"on\")")
			return d
		}
		d.Name, _ = p.name("a fragment name")
		d.TypeCondition = p.typeCondition()
		d.Directives = p.directives(false)
		d.Selections = p.selectionSet()
	case p.tok.kind == tokName:
		switch p.tok.val {
		case "schema", "scalar", "type", "interface", "union", "enum", "input", "directive", "extend":
			p.failAt(p.tok.start, "syntax error: type system definitions are not accepted here; send a query")
			return d
		}
		p.unexpected(`"query", "fragment" or "{"`)
	default:
		p.unexpected(`"query", "fragment" or "{"`)
	}
	return d
}

func (p *parser) typeCondition() string {
	if p.tok.kind != tokName || p.tok.val != "on" {
		p.unexpected(`"on"`)
		return ""
	}
	p.advance()
	n, _ := p.name("a type name")
	return n
}

func (p *parser) variableDefinitions() []VariableDefinition {
	p.advance() // (
	var defs []VariableDefinition
	for p.ok() && !p.isPunct(')') {
		v := VariableDefinition{Pos: Pos(p.tok.start)}
		if !p.punct('$') {
			break
		}
		v.Name, _ = p.name("a variable name")
		if !p.punct(':') {
			break
		}
		v.Type = p.typeRef()
		if p.isPunct('=') {
			p.advance()
			def := p.value(true)
			v.Default = &def
		}
		v.Directives = p.directives(true)
		defs = append(defs, v)
	}
	if p.ok() && len(defs) == 0 {
		p.failAt(p.tok.start, "syntax error: an empty variable list \"()\"; leave the parentheses out")
	}
	p.punct(')')
	return defs
}

func (p *parser) typeRef() Type {
	t := Type{Pos: Pos(p.tok.start)}
	switch {
	case p.isPunct('['):
		if !p.enter() {
			return t
		}
		p.advance()
		elem := p.typeRef()
		p.leave()
		p.punct(']')
		t.Kind, t.Elem = ListType, &elem
	default:
		t.Kind = NamedType
		t.Name, _ = p.name("a type")
	}
	if p.isPunct('!') {
		p.advance()
		inner := t
		t = Type{Kind: NonNullType, Pos: inner.Pos, Elem: &inner}
	}
	return t
}

func (p *parser) directives(isConst bool) []Directive {
	var ds []Directive
	for p.ok() && p.isPunct('@') {
		d := Directive{Pos: Pos(p.tok.start)}
		p.advance()
		d.Name, _ = p.name("a directive name")
		if p.isPunct('(') {
			d.Arguments, _ = p.arguments(isConst)
		}
		ds = append(ds, d)
	}
	return ds
}

// arguments parses "(" Argument* ")"; empty parentheses are the dialect's `content()`.
func (p *parser) arguments(isConst bool) ([]Argument, bool) {
	p.advance() // (
	var args []Argument
	for p.ok() && !p.isPunct(')') {
		a := Argument{Pos: Pos(p.tok.start)}
		a.Name, _ = p.name("an argument name or \")\"")
		if !p.punct(':') {
			break
		}
		a.Value = p.value(isConst)
		args = append(args, a)
	}
	p.punct(')')
	return args, true
}

// selectionSet parses "{" Selection* "}"; an empty set is the dialect's `{ }`.
func (p *parser) selectionSet() []Selection {
	if !p.isPunct('{') {
		p.unexpected(`"{"`)
		return nil
	}
	if !p.enter() {
		return nil
	}
	defer p.leave()
	p.advance()
	sels := []Selection{}
	for p.ok() && !p.isPunct('}') {
		if p.tok.kind == tokEOF {
			p.unexpected(`a field or "}"`)
			break
		}
		sels = append(sels, p.selection())
	}
	p.punct('}')
	return sels
}

func (p *parser) selection() Selection {
	s := Selection{Pos: Pos(p.tok.start)}
	if p.tok.kind == tokSpread {
		p.advance()
		if p.tok.kind == tokName && p.tok.val != "on" {
			s.Kind = FragmentSpread
			s.Name, _ = p.name("a fragment name")
			s.Directives = p.directives(false)
			return s
		}
		s.Kind = InlineFragment
		if p.tok.kind == tokName {
			s.TypeCondition = p.typeCondition()
		}
		s.Directives = p.directives(false)
		s.Selections = p.selectionSet()
		s.HasSelections = true
		return s
	}
	s.Kind = FieldSelection
	s.Name, _ = p.name("a field name")
	if p.isPunct(':') {
		p.advance()
		s.Alias = s.Name
		s.Name, _ = p.name("a field name after the alias")
	}
	if p.isPunct('(') {
		s.Arguments, s.HasArguments = p.arguments(false)
	}
	s.Directives = p.directives(false)
	if p.isPunct('{') {
		s.Selections = p.selectionSet()
		s.HasSelections = true
	}
	return s
}

func (p *parser) value(isConst bool) Value {
	v := Value{Pos: Pos(p.tok.start)}
	t := p.tok
	switch t.kind {
	case tokInt:
		v.Kind, v.Text = IntValue, t.val
		p.advance()
	case tokFloat:
		v.Kind, v.Text = FloatValue, t.val
		p.advance()
	case tokString, tokBlockString:
		v.Kind, v.Text = StringValue, t.val
		p.advance()
	case tokName:
		switch t.val {
		case "true", "false":
			v.Kind = BooleanValue
		case "null":
			v.Kind = NullValue
		default:
			v.Kind = EnumValue
		}
		v.Text = t.val
		p.advance()
	case tokPunct:
		switch t.punct {
		case '$':
			if isConst {
				p.failAt(t.start, "syntax error: a variable is not allowed in a default value")
				return v
			}
			p.advance()
			v.Kind = VariableValue
			v.Text, _ = p.name("a variable name")
		case '[':
			if !p.enter() {
				return v
			}
			p.advance()
			v.Kind = ListValue
			v.List = []Value{}
			for p.ok() && !p.isPunct(']') {
				if p.tok.kind == tokEOF {
					p.unexpected(`a value or "]"`)
					break
				}
				v.List = append(v.List, p.value(isConst))
			}
			p.punct(']')
			p.leave()
		case '{':
			if !p.enter() {
				return v
			}
			p.advance()
			v.Kind = ObjectValue
			v.Fields = []ObjectField{}
			for p.ok() && !p.isPunct('}') {
				f := ObjectField{Pos: Pos(p.tok.start)}
				f.Name, _ = p.name(`a field name or "}"`)
				if !p.punct(':') {
					break
				}
				f.Value = p.value(isConst)
				v.Fields = append(v.Fields, f)
			}
			p.punct('}')
			p.leave()
		default:
			p.unexpected("a value")
		}
	default:
		p.unexpected("a value")
	}
	return v
}
