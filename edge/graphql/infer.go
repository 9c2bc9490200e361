package graphql

import (
	"math/bits"
	"strconv"

	"github.com/cdaedge/cdaedge/edge/jsonr"
	"github.com/cdaedge/cdaedge/snapshot"
)

// Type inference (API.md D9, "The typed schema"): the schema types every element of
// Data, and every undocumented top-level member, from the values the environment's
// items hold. One pass over the stored items builds a shape per path: which kinds of
// value occur there (strings, integers, other numbers, booleans, null, objects, lists)
// and, for objects, the shapes of their members. Shapes then become GraphQL types
// (types.go): one kind gives its type, a kind that mixes gives JSON.
//
// The pass reads each item's bytes once, without decoding strings (it only finds their
// ends), and never panics on any input. It is bounded by the snapshot's size and holds
// at most maxShapeNodes shapes: a member past that, or nested deeper than
// maxShapeDepth, makes its parent JSON. The builder runs it once per snapshot and
// stores the result in the snapshot (DeriveShapes, shapes_codec.go), so that the engine
// need not read every item body; the engine runs it itself, once per snapshot (the
// router keeps the result with the environment), only for a snapshot without that
// section.

// Shape kinds: the kinds of value seen at one path.
const (
	shapeString uint16 = 1 << iota
	shapeInt           // a number written as an integer that fits 32 bits
	shapeFloat         // any other number
	shapeBool
	shapeNull
	shapeObject
	shapeList
	shapeOpaque // too deep or too wide to type: JSON
)

const (
	// maxShapeNodes bounds the shapes of one environment (and so its schema's size).
	maxShapeNodes = 4096
	// maxShapeDepth bounds the nesting that gets types, as documents are bounded (D11).
	maxShapeDepth = 12
	// maxTemplates is how many template names an element's description lists.
	maxTemplates = 8
)

// Reference kinds (the CMS's reference objects, {"Type":"Reference",...}).
const (
	refContent = iota // "ReferenceType":"Content", "ContentIDs":[...]
	refMedia          // "ReferenceType":"Media", "Id", "MediaUrl", ...
	refKinds
)

// shape is what the values at one path look like across the environment's items.
type shape struct {
	kinds uint16
	// elem is the shape of list elements.
	elem *shape
	// fields are an object's members, in first-seen order.
	fields []shapeField
	// objects counts object values; refs counts those that are references, per kind.
	objects int
	refs    [refKinds]int
	// templates name the templates whose items have this element (top-level Data
	// elements only), up to maxTemplates; moreTemplates is set past that.
	templates     []string
	moreTemplates bool
}

type shapeField struct {
	name string
	s    *shape
}

// inferred is the result of the pass: the shape of Data, the shapes of undocumented
// top-level members, and the merged shape of each kind of reference.
type inferred struct {
	data  *shape
	top   *shape
	refs  [refKinds]*shape
	nodes int
	// seen is scratch: the root Data fields one item touched, for template tracking.
	seen []int
}

// inferShapes reads every item of snap: the engine's way to the shapes when the
// snapshot does not hold them (ShapesSection).
func inferShapes(snap *snapshot.Snapshot) *inferred {
	return inferItems(snap.Len(), snap.Item)
}

// inferItems is the pass over n stored items, item(i) giving item i's JSON. It is the
// one loop behind both the engine's inferShapes and the builder's DeriveShapes, so that
// the shapes stored in a snapshot are exactly those the engine would infer.
func inferItems(n int, item func(i int) string) *inferred {
	in := &inferred{}
	in.data, in.top = in.node(), in.node()
	in.refs[refContent], in.refs[refMedia] = in.node(), in.node()
	for i := 0; i < n; i++ {
		in.item(item(i))
	}
	in.seen = nil // scratch of the pass, not part of its result
	return in
}

// node allocates a shape, or returns nil past maxShapeNodes.
func (in *inferred) node() *shape {
	if in.nodes >= maxShapeNodes {
		return nil
	}
	in.nodes++
	return &shape{}
}

// item reads one stored item: Data and the undocumented top-level members.
func (in *inferred) item(s string) {
	i := skipSpace(s, 0)
	if i >= len(s) || s[i] != '{' {
		return
	}
	in.seen = in.seen[:0]
	template := ""
	i++
	for {
		i = skipSpace(s, i)
		if i >= len(s) || s[i] != '"' {
			break
		}
		keyEnd, escaped := stringEnd(s, i+1)
		if keyEnd < 0 {
			break
		}
		key := memberName(s[i+1:keyEnd-1], escaped)
		i = skipSpace(s, keyEnd)
		if i >= len(s) || s[i] != ':' {
			break
		}
		i = skipSpace(s, i+1)
		var end int
		switch {
		case key == "Data":
			end = in.value(s, i, in.data, 0, true)
		case key == "TemplateName":
			end = in.value(s, i, nil, 0, false)
			if end > i && s[i] == '"' {
				template = jsonr.Parse(s[i:end]).Str
			}
		case isDocumented(key):
			end = in.value(s, i, nil, 0, false)
		default:
			end = in.value(s, i, in.member(in.top, key), 1, false)
		}
		if end <= i {
			break
		}
		i = skipSpace(s, end)
		if i < len(s) && s[i] == ',' {
			i++
		}
	}
	if template != "" {
		for _, f := range in.seen {
			in.data.fields[f].s.addTemplate(template)
		}
	}
}

func isDocumented(name string) bool {
	for _, m := range snapshot.DocumentedMembers[:] {
		if m == name {
			return true
		}
	}
	return false
}

func (sh *shape) addTemplate(t string) {
	for _, have := range sh.templates {
		if have == t {
			return
		}
	}
	if len(sh.templates) == maxTemplates {
		sh.moreTemplates = true
		return
	}
	sh.templates = append(sh.templates, t)
}

// member returns the shape of object member name of sh, creating it; nil when the
// shapes are exhausted (sh becomes opaque).
func (in *inferred) member(sh *shape, name string) *shape {
	if j := in.memberIndex(sh, name); j >= 0 {
		return sh.fields[j].s
	}
	return nil
}

// memberIndex is member's index in sh.fields, or -1.
func (in *inferred) memberIndex(sh *shape, name string) int {
	if sh == nil {
		return -1
	}
	for j := range sh.fields {
		if sh.fields[j].name == name {
			return j
		}
	}
	n := in.node()
	if n == nil {
		sh.kinds |= shapeOpaque
		return -1
	}
	sh.fields = append(sh.fields, shapeField{name: name, s: n})
	return len(sh.fields) - 1
}

// value reads the JSON value starting at s[i] into sh (nil: skip it) and returns the
// index after it, or -1 when the input is malformed there. root marks Data itself,
// whose members are tracked for templates.
func (in *inferred) value(s string, i int, sh *shape, depth int, root bool) int {
	if i >= len(s) {
		return -1
	}
	switch c := s[i]; {
	case c == '"':
		end, _ := stringEnd(s, i+1)
		sh.add(shapeString)
		return end
	case c == '{':
		return in.object(s, i, sh, depth, root)
	case c == '[':
		var elem *shape
		if sh != nil {
			sh.kinds |= shapeList
			if sh.elem == nil {
				sh.elem = in.node()
				if sh.elem == nil {
					sh.kinds |= shapeOpaque
				}
			}
			elem = sh.elem
		}
		return in.array(s, i, elem, depth)
	case c == 't' || c == 'f' || c == 'n':
		end := i + 1
		for end < len(s) && s[end] >= 'a' && s[end] <= 'z' {
			end++
		}
		if c == 'n' {
			sh.add(shapeNull)
		} else {
			sh.add(shapeBool)
		}
		return end
	case c == '-' || c >= '0' && c <= '9':
		end := i + 1
		for end < len(s) && s[end] != ',' && s[end] != '}' && s[end] != ']' && s[end] > ' ' {
			end++
		}
		if isInt32Literal(s[i:end]) {
			sh.add(shapeInt)
		} else {
			sh.add(shapeFloat)
		}
		return end
	}
	return -1
}

func (sh *shape) add(kind uint16) {
	if sh != nil {
		sh.kinds |= kind
	}
}

// object reads an object into sh; a reference object is also merged into the shape of
// its kind of reference.
func (in *inferred) object(s string, start int, sh *shape, depth int, root bool) int {
	if sh != nil {
		sh.kinds |= shapeObject
		sh.objects++
		if depth >= maxShapeDepth {
			sh.kinds |= shapeOpaque
			sh = nil
		}
	}
	var typ, refType string
	i := start + 1
	for {
		i = skipSpace(s, i)
		if i >= len(s) {
			return -1
		}
		if s[i] == '}' {
			i++
			break
		}
		if s[i] != '"' {
			return -1
		}
		keyEnd, escaped := stringEnd(s, i+1)
		if keyEnd < 0 {
			return -1
		}
		key := memberName(s[i+1:keyEnd-1], escaped)
		i = skipSpace(s, keyEnd)
		if i >= len(s) || s[i] != ':' {
			return -1
		}
		i = skipSpace(s, i+1)
		var child *shape
		if j := in.memberIndex(sh, key); j >= 0 {
			child = sh.fields[j].s
			if root {
				in.seen = append(in.seen, j)
			}
		}
		end := in.value(s, i, child, depth+1, false)
		if end < 0 {
			return -1
		}
		switch key {
		case "Type":
			typ = s[i:end]
		case "ReferenceType":
			refType = s[i:end]
		}
		i = skipSpace(s, end)
		if i < len(s) && s[i] == ',' {
			i++
		}
	}
	if sh != nil && typ == `"Reference"` {
		kind := -1
		switch refType {
		case `"Content"`:
			kind = refContent
		case `"Media"`:
			kind = refMedia
		}
		if kind >= 0 && sh != in.refs[kind] {
			sh.refs[kind]++
			in.object(s, start, in.refs[kind], 1, false)
		}
	}
	return i
}

// array reads an array whose elements merge into elem (nil: skip them).
func (in *inferred) array(s string, i int, elem *shape, depth int) int {
	if elem != nil && depth >= maxShapeDepth {
		elem.kinds |= shapeOpaque
		elem = nil
	}
	i++
	for {
		i = skipSpace(s, i)
		if i >= len(s) {
			return -1
		}
		if s[i] == ']' {
			return i + 1
		}
		end := in.value(s, i, elem, depth+1, false)
		if end < 0 {
			return -1
		}
		i = skipSpace(s, end)
		if i < len(s) && s[i] == ',' {
			i++
		}
	}
}

func skipSpace(s string, i int) int {
	for i < len(s) && s[i] <= ' ' {
		i++
	}
	return i
}

// memberName is a member name's text: raw as stored unless it holds escapes.
func memberName(raw string, escaped bool) string {
	if !escaped {
		return raw
	}
	return jsonr.Parse(`"` + raw + `"`).Str
}

// stringEnd returns the index after the closing quote of the string whose contents
// start at s[i], and whether it holds escapes; -1 when it is not closed. Strings are
// most of an item's bytes, so it steps over eight bytes at a time while none is a quote
// or a backslash (as jsonr does).
func stringEnd(s string, i int) (int, bool) {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	escaped := false
	for i < len(s) {
		if i+8 <= len(s) {
			b := s[i : i+8]
			x := uint64(b[0]) | uint64(b[1])<<8 | uint64(b[2])<<16 | uint64(b[3])<<24 |
				uint64(b[4])<<32 | uint64(b[5])<<40 | uint64(b[6])<<48 | uint64(b[7])<<56
			q, bs := x^(ones*'"'), x^(ones*'\\')
			found := ((q-ones)&^q | (bs-ones)&^bs) & highs
			if found == 0 {
				i += 8
				continue
			}
			i += bits.TrailingZeros64(found) / 8
		}
		switch s[i] {
		case '"':
			return i + 1, escaped
		case '\\':
			escaped = true
			i += 2
		default:
			i++
		}
	}
	return -1, escaped
}

// isInt32Literal: a number written as an integer (no fraction, no exponent) within
// GraphQL's Int, 32 bits; any other number is a Float.
func isInt32Literal(s string) bool {
	if s == "" {
		return false
	}
	for j := 0; j < len(s); j++ {
		if c := s[j]; (c < '0' || c > '9') && !(j == 0 && c == '-') {
			return false
		}
	}
	n, err := strconv.ParseInt(s, 10, 64)
	return err == nil && n >= -1<<31 && n <= 1<<31-1
}
