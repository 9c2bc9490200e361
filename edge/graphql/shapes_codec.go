package graphql

import "unsafe"

// The shapes section: the builder runs the inference pass (infer.go) over the items it
// writes and stores the result in the snapshot, so that the engine types its schema
// from the snapshot's resident index without reading any item body.
//
// Encoding (all integers unsigned LEB128 varints, minimal, below 2^31; strings are a
// varint length and the bytes):
//
//	section = version(1 byte) shape(data) shape(top) shape(refs[0]) ... shape(refs[refKinds-1])
//	shape   = header [objects refs[0] ... refs[refKinds-1]] [count template...] [count (name shape)...] [shape(elem)]
//	header  = kinds<<5 | fields<<4 | templates<<3 | counts<<2 | elem<<1 | moreTemplates
//
// A shape is written depth first; a header bit says which optional parts follow, in
// the order above, so that a leaf (most shapes) is one byte. A present list is never
// empty and present counts are never all zero: every shape tree has exactly one
// encoding, and a decoder that accepts only that encoding re-encodes what it read to
// the same bytes.

// ShapesSection is the name of the snapshot section that holds the shapes the GraphQL
// schema is typed from, as DeriveShapes writes them. A schema reads them from there
// instead of reading every item body; a snapshot without the section still gets the
// same schema, by inference at first use, when its bodies are in memory (loadShapes).
const ShapesSection = "graphql.shapes"

// shapesVersion is the section's first byte. Bump it whenever the encoding changes, and
// also whenever the inference pass changes what it computes (its limits, its kinds):
// an engine then ignores sections written by another builder and infers the shapes
// itself, so that its schema never depends on which builder wrote the snapshot.
const shapesVersion = 1

// Header bits below the kinds.
const (
	hdrMoreTemplates = 1 << iota
	hdrElem
	hdrCounts
	hdrTemplates
	hdrFields
	hdrKindShift = iota
)

const (
	// allKinds holds every kind bit the inference sets; a header with others is
	// malformed.
	allKinds = int(shapeOpaque)<<1 - 1
	// maxShapeLevel is the deepest a shape lies below its root: a list at the
	// deepest typed value still gets an (opaque) element shape, one level further.
	maxShapeLevel = maxShapeDepth + 1
	// maxVarint bounds every integer of the encoding, so that each fits an int on
	// 32-bit targets (wasm) too.
	maxVarint = 1<<31 - 1
)

// DeriveShapes computes the section ShapesSection of a snapshot from its n items,
// item(i) giving item i's canonical JSON: the shapes the engine would infer from the
// same items, encoded. Its signature is that of snapshot.Writer.Derive's build
// function; the builder registers it there. It is deterministic.
func DeriveShapes(n int, item func(i int) []byte) []byte {
	in := inferItems(n, func(i int) string {
		// No copy: the pass keeps substrings (member and template names) of the
		// items only until encodeShapes has copied them out, below, and the writer
		// does not change its items while it encodes.
		b := item(i)
		return unsafe.String(unsafe.SliceData(b), len(b))
	})
	return encodeShapes(in)
}

// encodeShapes encodes the shapes of a pass (whose roots are never nil).
func encodeShapes(in *inferred) []byte {
	e := appendShape([]byte{shapesVersion}, in.data)
	e = appendShape(e, in.top)
	for _, r := range in.refs {
		e = appendShape(e, r)
	}
	return e
}

func appendShape(e []byte, sh *shape) []byte {
	h := uint64(sh.kinds) << hdrKindShift
	if sh.moreTemplates {
		h |= hdrMoreTemplates
	}
	if sh.elem != nil {
		h |= hdrElem
	}
	counts := sh.objects != 0
	for _, r := range sh.refs {
		counts = counts || r != 0
	}
	if counts {
		h |= hdrCounts
	}
	if len(sh.templates) > 0 {
		h |= hdrTemplates
	}
	if len(sh.fields) > 0 {
		h |= hdrFields
	}
	e = appendVarint(e, h)
	if counts {
		e = appendVarint(e, uint64(sh.objects))
		for _, r := range sh.refs {
			e = appendVarint(e, uint64(r))
		}
	}
	if len(sh.templates) > 0 {
		e = appendVarint(e, uint64(len(sh.templates)))
		for _, t := range sh.templates {
			e = appendVarint(e, uint64(len(t)))
			e = append(e, t...)
		}
	}
	if len(sh.fields) > 0 {
		e = appendVarint(e, uint64(len(sh.fields)))
		for _, f := range sh.fields {
			e = appendVarint(e, uint64(len(f.name)))
			e = append(e, f.name...)
			e = appendShape(e, f.s)
		}
	}
	if sh.elem != nil {
		e = appendShape(e, sh.elem)
	}
	return e
}

func appendVarint(e []byte, v uint64) []byte {
	for v >= 0x80 {
		e = append(e, byte(v)|0x80)
		v >>= 7
	}
	return append(e, byte(v))
}

// decodeShapes decodes a ShapesSection; ok is false for anything but the one encoding
// of a shape tree within the inference's limits (another version, truncation, trailing
// bytes, unknown kinds, more than maxShapeNodes shapes, deeper than maxShapeLevel, more
// than maxTemplates templates, an object member named twice). It never panics; it
// reads s once, allocates at most one shape per byte of s and never more than
// maxShapeNodes, recurses at most maxShapeLevel deep, and keeps names as substrings
// of s.
func decodeShapes(s string) (*inferred, bool) {
	if len(s) == 0 || s[0] != shapesVersion {
		return nil, false
	}
	d := shapeDecoder{s: s, i: 1}
	in := &inferred{data: d.shape(0), top: d.shape(0)}
	ok := in.data != nil && in.top != nil
	for k := range in.refs {
		in.refs[k] = d.shape(0)
		ok = ok && in.refs[k] != nil
	}
	if !ok || d.i != len(s) {
		return nil, false
	}
	in.nodes = d.nodes
	return in, true
}

// shapeDecoder reads an encoding from s[i:]; nodes counts the shapes read so far.
type shapeDecoder struct {
	s     string
	i     int
	nodes int
}

// shape reads one shape found level levels below its root; nil when the input is
// malformed there (then decoding fails as a whole).
func (d *shapeDecoder) shape(level int) *shape {
	if level > maxShapeLevel || d.nodes >= maxShapeNodes {
		return nil
	}
	h, ok := d.varint()
	if !ok || h>>hdrKindShift&^allKinds != 0 {
		return nil
	}
	d.nodes++
	sh := &shape{kinds: uint16(h >> hdrKindShift), moreTemplates: h&hdrMoreTemplates != 0}
	if h&hdrCounts != 0 && !d.counts(sh) {
		return nil
	}
	if h&hdrTemplates != 0 {
		n, ok := d.varint()
		if !ok || n == 0 || n > maxTemplates {
			return nil
		}
		sh.templates = make([]string, n)
		for j := range sh.templates {
			if sh.templates[j], ok = d.str(); !ok {
				return nil
			}
		}
	}
	if h&hdrFields != 0 && !d.fields(sh, level) {
		return nil
	}
	if h&hdrElem != 0 {
		if sh.elem = d.shape(level + 1); sh.elem == nil {
			return nil
		}
	}
	return sh
}

// fields reads the members of sh, found level levels below its root; false when
// malformed, or when a name repeats: the inference never repeats one, and refusing
// repeats keeps the types built from decoded shapes to those it could give.
func (d *shapeDecoder) fields(sh *shape, level int) bool {
	// Each field takes at least two bytes (a name length and a header) and one
	// shape: that bounds the slice before it is made.
	n, ok := d.varint()
	if !ok || n == 0 || n > (len(d.s)-d.i)/2 || n > maxShapeNodes-d.nodes {
		return false
	}
	// Names are compared in a map past a few, so that the check stays linear in
	// the input, as the rest of decoding is.
	var seen map[string]bool
	if n > 16 {
		seen = make(map[string]bool, n)
	}
	sh.fields = make([]shapeField, n)
	for j := range sh.fields {
		f := &sh.fields[j]
		if f.name, ok = d.str(); !ok {
			return false
		}
		if seen != nil {
			ok = !seen[f.name]
			seen[f.name] = true
		} else {
			for _, g := range sh.fields[:j] {
				ok = ok && g.name != f.name
			}
		}
		if !ok {
			return false
		}
		if f.s = d.shape(level + 1); f.s == nil {
			return false
		}
	}
	return true
}

// counts reads objects and refs into sh; false when malformed or all zero (the
// encoder leaves zero counts out).
func (d *shapeDecoder) counts(sh *shape) bool {
	v, ok := d.varint()
	if !ok {
		return false
	}
	sh.objects = v
	nonzero := v != 0
	for k := range sh.refs {
		if v, ok = d.varint(); !ok {
			return false
		}
		sh.refs[k] = v
		nonzero = nonzero || v != 0
	}
	return nonzero
}

// str reads a length and that many bytes.
func (d *shapeDecoder) str() (string, bool) {
	n, ok := d.varint()
	if !ok || n > len(d.s)-d.i {
		return "", false
	}
	d.i += n
	return d.s[d.i-n : d.i], true
}

// varint reads a minimal varint of at most maxVarint.
func (d *shapeDecoder) varint() (int, bool) {
	v, shift := uint64(0), uint(0)
	for d.i < len(d.s) && shift < 35 {
		c := d.s[d.i]
		d.i++
		v |= uint64(c&0x7f) << shift
		if c < 0x80 {
			// A last byte of zero after others is a longer spelling of a
			// shorter encoding.
			if (c == 0 && shift > 0) || v > maxVarint {
				return 0, false
			}
			return int(v), true
		}
		shift += 7
	}
	return 0, false
}
