// Package automaton compiles regular expressions in Lucene's syntax, as Elasticsearch's
// regexp query and query_string's /re/ use it, to a Thompson automaton that decides
// whether a whole term matches in time linear in the term's length times the pattern's
// size. It is named after Lucene's org.apache.lucene.util.automaton and replaces Go's
// regexp in the query module: Go's parser, its program compiler and the Unicode tables
// \p{..} pulls in cost the wasm module far more than this engine does.
//
// The syntax is the language the engine accepted when it translated patterns to Go's
// regexp, so that no query changes meaning:
//
//   - a pattern matches a whole term; ^ and $ are ordinary characters;
//   - . is any character (newline included), @ any string, "..." a literal string
//     (a repetition after it repeats its last character, as before);
//   - \d \D \s \S \w \W are Go's ASCII classes and any other \x is a literal x;
//   - [...] is a class of characters and ranges, negated by a leading ^, taking the
//     escapes above; a ] first in the class is a member;
//   - | is union and (...) grouping; * + ? {n} {n,} {n,m} repeat (counts up to
//     MaxRepeat, also when nested counts multiply), each optionally followed by a ?
//     that asks for laziness, which cannot change whether a term matches; a repetition
//     cannot directly follow another; { that does not start a count is a literal;
//   - (?flags) and (?flags:...) take Go's flags i, m, s and U: only i (simple case
//     folding) can change a match, since . already matches newlines and ^ $ are
//     ordinary;
//   - Lucene's intersection &, complement ~, interval <n-m> and empty language # are
//     refused rather than misread.
package automaton

import "strconv"

// Limits of Compile. They bound the work and memory a hostile pattern can ask for.
const (
	// MaxStates is the largest automaton Compile builds, in states; a pattern that
	// needs more is ErrTooComplex. It echoes Elasticsearch's default
	// max_determinized_states.
	MaxStates = 10000
	// MaxRepeat is the largest count {n,m} accepts, also as the product of nested
	// counts, as Go's regexp.
	MaxRepeat = 1000
	// MaxDepth is the deepest nesting of groups Compile accepts, about where Go's
	// regexp stops. Nothing recurses per level (the module's stack is 64 KB), so
	// this only bounds the parser's stack of open groups.
	MaxDepth = 1000
)

// ErrorKind classifies a refused pattern.
type ErrorKind uint8

// The kinds of Error.
const (
	// ErrSyntax is a malformed pattern.
	ErrSyntax ErrorKind = iota
	// ErrUnsupported is a pattern using one of Lucene's operators & ~ < # that the
	// engine does not implement; Error.Operator names it.
	ErrUnsupported
	// ErrUnterminatedQuote is a " without its closing ".
	ErrUnterminatedQuote
	// ErrTooComplex is a pattern whose automaton would exceed MaxStates.
	ErrTooComplex
)

// Error is a pattern Compile refused. Offset is the byte offset in the pattern where
// the problem was found; Msg says what was wrong and where, in lower case.
type Error struct {
	Kind     ErrorKind
	Offset   int
	Operator string // the refused operator, for ErrUnsupported
	Msg      string
}

// Error returns Msg.
func (e *Error) Error() string { return e.Msg }

func syntaxError(off int, what string) *Error {
	return &Error{Kind: ErrSyntax, Offset: off, Msg: what + " at offset " + strconv.Itoa(off)}
}

// Matcher decides whether whole strings match a compiled pattern. Match reuses buffers
// held in the Matcher, so a Matcher must not be used by two goroutines at once.
type Matcher struct {
	prefix string

	// The small engine, for automata of at most 63 character states: a state set is a
	// word with a bit per state, and bit 63 means the pattern has matched.
	small   bool
	start   uint64
	follow  []uint64    // per state: the states reached after it consumes a character
	byASCII [128]uint64 // the states whose class holds each ASCII character
	classes []charClass // per state in the small engine; per class index otherwise

	// The general engine: a Pike VM over the program without captures.
	prog      []inst
	startPC   int32
	cur, next sparseSet
	stack     []int32
}

// Compile parses pattern and builds its automaton. foldCase matches as if the whole
// pattern were inside (?i). A refused pattern's error is an *Error.
func Compile(pattern string, foldCase bool) (*Matcher, error) {
	m, err := compile(pattern, foldCase, false)
	if err != nil {
		return nil, err
	}
	return m, nil
}

func compile(pattern string, foldCase, general bool) (*Matcher, *Error) {
	if err := prescan(pattern); err != nil {
		return nil, err
	}
	if err := checkUTF8(pattern); err != nil {
		return nil, err
	}
	p := parser{src: pattern}
	root, err := p.parse(foldCase)
	if err != nil {
		return nil, err
	}
	m := p.emit(iMatch, 0, 0)
	if p.full {
		return nil, &Error{Kind: ErrTooComplex, Msg: "the automaton would need more than " + strconv.Itoa(MaxStates) + " states"}
	}
	p.patch(root.exits, m)
	return newMatcher(&p, root.start, general), nil
}

// LiteralPrefix is a string every matching string starts with (empty when there is
// none), so that a caller scanning a sorted dictionary can skip to it.
func (m *Matcher) LiteralPrefix() string { return m.prefix }

// Match reports whether the whole of s matches. Invalid UTF-8 in s reads as U+FFFD a
// byte at a time, as in Go's regexp. It does not allocate.
func (m *Matcher) Match(s string) bool {
	if m.small {
		return m.matchSmall(s)
	}
	return m.matchGeneral(s)
}
