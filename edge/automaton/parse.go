package automaton

import (
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// rng is the characters lo to hi.
type rng struct{ lo, hi rune }

// prescan finds the errors that have always been reported ahead of any other, wherever
// they are in the pattern: an operator the engine refuses or an unterminated quote.
// It skips what cannot hold them: escapes, quoted strings and classes (where these
// characters are members).
func prescan(s string) *Error {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '\\':
			i++
		case '[':
			i = classEnd(s, i)
		case '"':
			end := strings.IndexByte(s[i+1:], '"')
			if end < 0 {
				return &Error{Kind: ErrUnterminatedQuote, Offset: i, Msg: "unterminated quoted string at offset " + strconv.Itoa(i)}
			}
			i += end + 1
		case '&', '~', '<', '#':
			return &Error{Kind: ErrUnsupported, Offset: i, Operator: string(rune(c)),
				Msg: "the operator " + string(rune(c)) + " at offset " + strconv.Itoa(i) + " is not supported"}
		}
	}
	return nil
}

// classEnd is the offset of the ] closing the class opened at open, or the last byte
// when there is none (the parser reports that).
func classEnd(s string, open int) int {
	i := open + 1
	if i < len(s) && s[i] == '^' {
		i++
	}
	if i < len(s) && s[i] == ']' {
		i++
	}
	for ; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case ']':
			return i
		}
	}
	return len(s) - 1
}

func checkUTF8(s string) *Error {
	for i := 0; i < len(s); {
		if s[i] < utf8.RuneSelf {
			i++
			continue
		}
		r, w := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && w == 1 {
			return syntaxError(i, "invalid UTF-8")
		}
		i += w
	}
	return nil
}

// parser builds the automaton as it reads the pattern, without a syntax tree, and
// without recursion: groups are frames on a stack in the heap, because a TinyGo frame
// of a recursive parser or compiler takes about a kilobyte of the module's 64 KB stack.
type parser struct {
	src     string
	pos     int
	prog    []inst
	classes []charClass
	full    bool // prog reached MaxStates: the pattern is too complex
}

// frag is a piece of automaton: its first state, its exits not yet connected (pc<<1
// for a state's out, pc<<1|1 for a split's arg) and lo, where its states begin. A
// piece's states are contiguous, and the last piece built ends the program, which is
// what lets a repetition copy it. need is the largest product of the counts of the
// counted repetitions nested in it, for Go's rule that it be at most MaxRepeat.
type frag struct {
	start, lo int32
	exits     []int32
	need      int
}

// frame is a group being parsed: the alternatives so far and the items of the current
// one. fold is the case-folding flag in force, which (?i) and (?-i) change up to the
// end of the group; lastRepeat says the previous token was a repetition, which cannot
// itself be repeated.
type frame struct {
	open        int   // offset of the group's (; -1 for the whole pattern
	lo          int32 // the group's first state
	fold        bool
	lastRepeat  bool
	alts, items []frag
}

// parse reads the whole pattern and returns its automaton, not yet joined to the
// accepting state. It handles the pattern's structure itself, alternatives and groups
// (the stack of open groups lives here), and leaves every other token to piece.
func (p *parser) parse(fold bool) (frag, *Error) {
	var stack []frame
	f := frame{open: -1, fold: fold}
	for p.pos < len(p.src) {
		start := p.pos
		repeated := false
		switch p.src[start] {
		case '|':
			f.alts = append(f.alts, p.concat(f.items))
			f.items = f.items[:0]
			p.pos++
		case ')':
			if len(stack) == 0 {
				return frag{}, syntaxError(start, "unmatched )")
			}
			p.pos++
			sub := p.alternate(&f)
			f = stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			f.items = append(f.items, sub)
		case '(':
			subFold, opens, err := p.groupOpening(f.fold)
			if err != nil {
				return frag{}, err
			}
			if !opens {
				f.fold = subFold // (?flags) changes the rest of the current group
				break
			}
			if len(stack) >= MaxDepth {
				return frag{}, syntaxError(start, "groups nest deeper than "+strconv.Itoa(MaxDepth)+" levels")
			}
			stack = append(stack, f)
			f = frame{open: start, lo: int32(len(p.prog)), fold: subFold}
		default:
			var err *Error
			if repeated, err = p.piece(&f); err != nil {
				return frag{}, err
			}
		}
		if p.full {
			return frag{}, &Error{Kind: ErrTooComplex, Offset: start, Msg: "the automaton would need more than " + strconv.Itoa(MaxStates) + " states"}
		}
		f.lastRepeat = repeated
	}
	if len(stack) > 0 {
		return frag{}, syntaxError(f.open, "missing ) for the ( opened")
	}
	root := p.alternate(&f)
	if p.full {
		return frag{}, &Error{Kind: ErrTooComplex, Msg: "the automaton would need more than " + strconv.Itoa(MaxStates) + " states"}
	}
	return root, nil
}

// groupOpening reads the ( at p.pos and, for (?flags) or (?flags:, its flags. It
// returns the folding flag in force after it and whether a group opens: (?flags)
// opens none, its flags apply to the rest of the enclosing group.
func (p *parser) groupOpening(fold bool) (bool, bool, *Error) {
	if p.pos+1 < len(p.src) && p.src[p.pos+1] == '?' {
		return p.flags(fold)
	}
	p.pos++
	return fold, true, nil
}

// piece parses the token at p.pos that is neither | nor a parenthesis: a character,
// an escape, a class, a quoted string, or a repetition operator, which applies to the
// last item of f's current alternative. repeated reports that the token leaves a
// repetition as the last token, which the next one may not repeat again.
func (p *parser) piece(f *frame) (repeated bool, err *Error) {
	start := p.pos
	switch c := p.src[start]; c {
	case '*', '+', '?':
		p.pos++
		min, max := 0, -1
		if c == '+' {
			min = 1
		} else if c == '?' {
			max = 1
		}
		if err := p.repeat(f.items, f.lastRepeat, start, min, max, false); err != nil {
			return false, err
		}
		return true, nil
	case '{':
		return p.brace(f)
	case '"':
		return p.quoted(f), nil
	case '\\':
		return false, p.escape(f)
	case '[':
		x, err := p.bracket(f.fold)
		if err != nil {
			return false, err
		}
		f.items = append(f.items, x)
	case '.':
		f.items = append(f.items, p.class(anyChar()))
		p.pos++
	case '@':
		x := p.repetition(p.class(anyChar()), 0, -1)
		x.need = 1
		f.items = append(f.items, x)
		p.pos++
	default:
		r, w := utf8.DecodeRuneInString(p.src[start:])
		f.items = append(f.items, p.literal(r, f.fold))
		p.pos += w
	}
	return false, nil
}

// brace parses the { at p.pos: a count {n}, {n,} or {n,m} repeating the last item of
// f's current alternative (repeated is then true), or else a literal {.
func (p *parser) brace(f *frame) (repeated bool, err *Error) {
	start := p.pos
	min, max, end, ok := parseCount(p.src, start)
	if !ok {
		// Not a count: { is a literal, as in Go's regexp.
		f.items = append(f.items, p.literal('{', f.fold))
		p.pos++
		return false, nil
	}
	if min < 0 || min > MaxRepeat || max > MaxRepeat {
		return false, syntaxError(start, "repetition count "+p.src[start:end]+" exceeds "+strconv.Itoa(MaxRepeat))
	}
	if max >= 0 && min > max {
		return false, syntaxError(start, "repetition count "+p.src[start:end]+" has its minimum above its maximum")
	}
	p.pos = end
	if err := p.repeat(f.items, f.lastRepeat, start, min, max, true); err != nil {
		return false, err
	}
	return true, nil
}

// quoted parses the quoted string at p.pos into one literal item per character. It
// reports whether a repetition stays the last token: "" is nothing at all, so one
// right before it still is.
func (p *parser) quoted(f *frame) (repeated bool) {
	start := p.pos
	end := start + 1 + strings.IndexByte(p.src[start+1:], '"') // prescan found it
	for i := start + 1; i < end && !p.full; {
		r, w := utf8.DecodeRuneInString(p.src[i:])
		f.items = append(f.items, p.literal(r, f.fold))
		i += w
	}
	p.pos = end + 1
	return end == start+1 && f.lastRepeat
}

// escape parses the escape at p.pos: a Perl class (\d \s \w and their negations) or
// else the escaped character itself, as a literal.
func (p *parser) escape(f *frame) *Error {
	start := p.pos
	if start+1 == len(p.src) {
		return syntaxError(start, "trailing \\ escapes nothing")
	}
	if set, ok := perlClass(p.src[start+1], f.fold); ok {
		f.items = append(f.items, p.class(set))
		p.pos += 2
		return nil
	}
	r, w := utf8.DecodeRuneInString(p.src[start+1:])
	f.items = append(f.items, p.literal(r, f.fold))
	p.pos += 1 + w
	return nil
}

// flags parses (?flags) or (?flags: at p.pos with Go's syntax: it returns the folding
// flag afterwards and whether a group opens.
func (p *parser) flags(fold bool) (bool, bool, *Error) {
	start := p.pos
	neg, saw := false, false
	for i := start + 2; i < len(p.src); {
		r, w := utf8.DecodeRuneInString(p.src[i:])
		i += w
		switch r {
		case 'i':
			fold = !neg
			saw = true
		case 'm', 's', 'U':
			// Go's multi-line, dot-matches-newline and ungreedy flags change nothing
			// here: ^ and $ are ordinary, . always matches a newline, and laziness
			// does not change whether a whole term matches.
			saw = true
		case '-':
			if neg {
				return fold, false, badFlags(p.src, start, i)
			}
			neg, saw = true, false
		case ':', ')':
			if neg && !saw {
				return fold, false, badFlags(p.src, start, i)
			}
			p.pos = i
			return fold, r == ':', nil
		default:
			return fold, false, badFlags(p.src, start, i)
		}
	}
	return fold, false, badFlags(p.src, start, len(p.src))
}

func badFlags(s string, start, end int) *Error {
	return syntaxError(start, "invalid group "+strconv.Quote(s[start:end])+
		" (only (?flags) and (?flags:...) with the flags i, m, s and U are supported)")
}

// parseCount parses a count {n}, {n,} or {n,m} at s[i] as Go's regexp does: no signs,
// spaces or leading zeros. min is -1 when a number is too large.
func parseCount(s string, i int) (min, max, end int, ok bool) {
	i++
	min, i, ok = parseInt(s, i)
	if !ok || i == len(s) {
		return 0, 0, 0, false
	}
	max = min
	if s[i] == ',' {
		i++
		if i == len(s) {
			return 0, 0, 0, false
		}
		if s[i] == '}' {
			max = -1
		} else if max, i, ok = parseInt(s, i); !ok {
			return 0, 0, 0, false
		} else if max < 0 {
			min = -1
		}
	}
	if i == len(s) || s[i] != '}' {
		return 0, 0, 0, false
	}
	return min, max, i + 1, true
}

func parseInt(s string, i int) (n, end int, ok bool) {
	if i == len(s) || s[i] < '0' || s[i] > '9' {
		return 0, i, false
	}
	if s[i] == '0' && i+1 < len(s) && s[i+1] >= '0' && s[i+1] <= '9' {
		return 0, i, false
	}
	for ; i < len(s) && s[i] >= '0' && s[i] <= '9'; i++ {
		if n >= 1e8 {
			n = -1 // too large; keep consuming digits
		} else if n >= 0 {
			n = n*10 + int(s[i]-'0')
		}
	}
	return n, i, true
}

// repeat makes the last item the repetition written at start; p.pos is after its
// operator.
func (p *parser) repeat(items []frag, lastRepeat bool, start, min, max int, counted bool) *Error {
	// A ? after the operator asks for laziness, which changes no match. An empty
	// quoted string between them is nothing, so "a*""?" is lazy too, as it was.
	j := p.pos
	for j+1 < len(p.src) && p.src[j] == '"' && p.src[j+1] == '"' {
		j += 2
	}
	if j < len(p.src) && p.src[j] == '?' {
		p.pos = j + 1
	}
	op := p.src[start:p.pos]
	if lastRepeat {
		return syntaxError(start, "repetition "+op+" directly follows another repetition (group the first, as in (a*)"+op+")")
	}
	if len(items) == 0 {
		return syntaxError(start, "nothing to repeat before "+op)
	}
	x := &items[len(items)-1]
	need := x.need
	if counted {
		// Go's regexp counts x{n,} as n copies and lets x{0} hold anything.
		m := max
		if m < 0 {
			m = min
		}
		if max == 0 {
			need = 1
		} else if m > 0 {
			need = m * need // need <= MaxRepeat+1 and m <= MaxRepeat: no overflow
		}
		if (min >= 2 || max >= 2) && need > MaxRepeat {
			return syntaxError(start, "nested repetition counts multiply to more than "+strconv.Itoa(MaxRepeat)+" with "+op)
		}
		if need > MaxRepeat {
			need = MaxRepeat + 1 // keeps the products of enclosing counts from overflowing
		}
	}
	*x = p.repetition(*x, min, max)
	x.need = need
	return nil
}

func (p *parser) emit(op uint8, out, arg int32) int32 {
	if len(p.prog) >= MaxStates {
		p.full = true
		return 0
	}
	p.prog = append(p.prog, inst{op: op, out: out, arg: arg})
	return int32(len(p.prog) - 1)
}

func (p *parser) patch(exits []int32, to int32) {
	for _, e := range exits {
		if e&1 == 0 {
			p.prog[e>>1].out = to
		} else {
			p.prog[e>>1].arg = to
		}
	}
}

func (p *parser) nop() frag {
	pc := p.emit(iNop, 0, 0)
	return frag{start: pc, lo: pc, exits: []int32{pc << 1}, need: 1}
}

// concat joins the items of an alternative.
func (p *parser) concat(items []frag) frag {
	if len(items) == 0 {
		return p.nop()
	}
	x := items[0]
	for _, y := range items[1:] {
		p.patch(x.exits, y.start)
		x.exits = y.exits
		x.need = max(x.need, y.need)
	}
	return x
}

// alternate ends the group f.
func (p *parser) alternate(f *frame) frag {
	alts := append(f.alts, p.concat(f.items))
	x := alts[len(alts)-1]
	for i := len(alts) - 2; i >= 0; i-- {
		y := alts[i]
		pc := p.emit(iSplit, y.start, x.start)
		x = frag{start: pc, exits: append(y.exits, x.exits...), need: max(x.need, y.need)}
	}
	x.lo = f.lo
	return x
}

// repetition makes x, the last piece built, x{min,max}: min copies, then a loop
// (max < 0) or max-min nested optional copies, x{2,4} as xx(x(x)?)?. All the copies
// are made before any is connected, while x is still self-contained.
func (p *parser) repetition(x frag, min, max int) frag {
	if max == 0 {
		p.prog = p.prog[:x.lo]
		return p.nop()
	}
	k := max
	if max < 0 {
		k = 1
		if min > 1 {
			k = min
		}
	}
	size := len(p.prog) - int(x.lo)
	if len(p.prog)+(k-1)*size+k > MaxStates {
		p.full = true
		return x
	}
	xs := make([]frag, k)
	xs[0] = x
	for i := 1; i < k; i++ {
		xs[i] = p.copyFrag(x, size)
	}
	var tail frag // what follows the min mandatory copies
	if max < 0 {
		last := xs[k-1]
		pc := p.emit(iSplit, last.start, 0)
		p.patch(last.exits, pc)
		if min == 0 {
			return frag{start: pc, lo: x.lo, exits: []int32{pc<<1 | 1}}
		}
		xs[k-1] = frag{start: last.start, exits: []int32{pc<<1 | 1}}
		min = k
	} else if max > min {
		tail = p.optional(xs[max-1])
		for i := max - 2; i >= min; i-- {
			p.patch(xs[i].exits, tail.start)
			tail = p.optional(frag{start: xs[i].start, exits: tail.exits})
		}
		if min == 0 {
			tail.lo = x.lo
			return tail
		}
	}
	for i := 0; i < min-1; i++ {
		p.patch(xs[i].exits, xs[i+1].start)
	}
	exits := xs[min-1].exits
	if max > min {
		p.patch(exits, tail.start)
		exits = tail.exits
	}
	return frag{start: x.start, lo: x.lo, exits: exits}
}

func (p *parser) optional(x frag) frag {
	pc := p.emit(iSplit, x.start, 0)
	return frag{start: pc, exits: append(x.exits, pc<<1|1)}
}

// copyFrag appends a copy of x's size states, moved to the end of the program.
func (p *parser) copyFrag(x frag, size int) frag {
	d := int32(len(p.prog)) - x.lo
	for pc := x.lo; pc < x.lo+int32(size); pc++ {
		in := p.prog[pc]
		switch in.op {
		case iSplit:
			in.out += d
			in.arg += d
		case iNop, iClass:
			in.out += d
		}
		p.prog = append(p.prog, in)
	}
	exits := make([]int32, len(x.exits))
	for i, e := range x.exits {
		exits[i] = e + d<<1
	}
	return frag{start: x.start + d, lo: x.lo + d, exits: exits}
}

func (p *parser) class(set []rng) frag {
	pc := p.emit(iClass, 0, int32(len(p.classes)))
	p.classes = append(p.classes, newCharClass(set))
	return frag{start: pc, lo: pc, exits: []int32{pc << 1}, need: 1}
}

func (p *parser) literal(r rune, fold bool) frag {
	set := []rng{{r, r}}
	if fold {
		set = normalize(addFolded(set[:0], r, r))
	}
	return p.class(set)
}

func anyChar() []rng { return []rng{{0, unicode.MaxRune}} }

// bracket parses the class [...] at p.pos.
func (p *parser) bracket(fold bool) (frag, *Error) {
	open := p.pos
	i := open + 1
	neg := i < len(p.src) && p.src[i] == '^'
	if neg {
		i++
	}
	var set []rng
	for first := true; ; first = false {
		if i == len(p.src) {
			return frag{}, syntaxError(open, "missing ] for the [ opened")
		}
		if p.src[i] == ']' && !first {
			i++
			break
		}
		if p.src[i] == '\\' && i+1 < len(p.src) {
			if perl, ok := perlClass(p.src[i+1], fold); ok {
				set = append(set, perl...)
				i += 2
				continue
			}
		}
		itemStart := i
		lo, next, err := p.classChar(i, open)
		if err != nil {
			return frag{}, err
		}
		i = next
		hi := lo
		// A - before ] or at the end is a member; between two characters, a range.
		if i+1 < len(p.src) && p.src[i] == '-' && p.src[i+1] != ']' {
			if p.src[i+1] == '\\' && i+2 < len(p.src) {
				if _, ok := perlClass(p.src[i+2], false); ok {
					return frag{}, syntaxError(i+1, "class escape "+p.src[i+1:i+3]+" cannot end a range")
				}
			}
			if hi, i, err = p.classChar(i+1, open); err != nil {
				return frag{}, err
			}
			if hi < lo {
				return frag{}, syntaxError(itemStart, "range "+p.src[itemStart:i]+" in a class runs backwards")
			}
		}
		if fold {
			set = addFolded(set, lo, hi)
		} else {
			set = append(set, rng{lo, hi})
		}
	}
	p.pos = i
	set = normalize(set)
	if neg {
		set = negate(set)
	}
	return p.class(set), nil
}

// classChar reads one character of a class at s[i], escaped or not.
func (p *parser) classChar(i, open int) (rune, int, *Error) {
	if p.src[i] == '\\' {
		i++
		if i == len(p.src) {
			return 0, 0, syntaxError(open, "missing ] for the [ opened")
		}
	}
	r, w := utf8.DecodeRuneInString(p.src[i:])
	return r, i + w, nil
}

// perlClass is the class \c stands for, Go's ASCII \d \s \w and their negations;
// with fold it is folded before it is negated, as in Go's regexp.
func perlClass(c byte, fold bool) ([]rng, bool) {
	var set []rng
	switch c | 0x20 {
	case 'd':
		set = []rng{{'0', '9'}}
	case 's':
		set = []rng{{'\t', '\n'}, {'\f', '\r'}, {' ', ' '}}
	case 'w':
		set = []rng{{'0', '9'}, {'A', 'Z'}, {'_', '_'}, {'a', 'z'}}
	default:
		return nil, false
	}
	if fold {
		var folded []rng
		for _, r := range set {
			folded = addFolded(folded, r.lo, r.hi)
		}
		set = normalize(folded)
	}
	if c >= 'A' && c <= 'Z' {
		set = negate(set)
	}
	return set, true
}

// foldOutsideCaseRanges are the characters with other cases under simple folding that
// unicode.CaseRanges leaves out (ß has no simple upper case, but folds with ẞ);
// TestFoldOutsideCaseRanges keeps the list complete.
var foldOutsideCaseRanges = [...]rune{0xDF}

// addFolded appends lo-hi and every character simple case folding makes equivalent to
// one in it. Only characters in unicode.CaseRanges (and foldOutsideCaseRanges) have
// other cases, so it visits those rather than the whole range, which for a wide range
// would be a hundred thousand lookups.
func addFolded(set []rng, lo, hi rune) []rng {
	set = append(set, rng{lo, hi})
	for _, c := range foldOutsideCaseRanges[:] {
		if lo <= c && c <= hi {
			set = addOrbit(set, c)
		}
	}
	cr := unicode.CaseRanges
	j, _ := slices.BinarySearchFunc(cr, lo, func(c unicode.CaseRange, r rune) int {
		if rune(c.Hi) < r {
			return -1
		}
		if rune(c.Lo) > r {
			return 1
		}
		return 0
	})
	for ; j < len(cr) && rune(cr[j].Lo) <= hi; j++ {
		for c := max(lo, rune(cr[j].Lo)); c <= min(hi, rune(cr[j].Hi)); c++ {
			set = addOrbit(set, c)
		}
	}
	return set
}

// addOrbit appends the characters other than c that simple case folding makes
// equivalent to c.
func addOrbit(set []rng, c rune) []rng {
	for f := unicode.SimpleFold(c); f != c; f = unicode.SimpleFold(f) {
		set = append(set, rng{f, f})
	}
	return set
}

// normalize sorts set and merges overlapping and adjacent ranges, in place.
func normalize(set []rng) []rng {
	// Shell sort: a folded class can hold thousands of ranges, too many for insertion
	// sort, and slices.SortFunc would add 3 KB of code to the module for this one use.
	h := 1
	for h < len(set)/3 {
		h = 3*h + 1
	}
	for ; h > 0; h /= 3 {
		for i := h; i < len(set); i++ {
			r := set[i]
			j := i
			for ; j >= h && set[j-h].lo > r.lo; j -= h {
				set[j] = set[j-h]
			}
			set[j] = r
		}
	}
	out := set[:0]
	for _, r := range set {
		if n := len(out); n > 0 && r.lo <= out[n-1].hi+1 {
			out[n-1].hi = max(out[n-1].hi, r.hi)
			continue
		}
		out = append(out, r)
	}
	return out
}

// negate is the complement of a normalized set.
func negate(set []rng) []rng {
	var out []rng
	next := rune(0)
	for _, r := range set {
		if r.lo > next {
			out = append(out, rng{next, r.lo - 1})
		}
		next = r.hi + 1
	}
	if next <= unicode.MaxRune {
		out = append(out, rng{next, unicode.MaxRune})
	}
	return out
}
