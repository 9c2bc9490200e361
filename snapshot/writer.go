//go:build !wasm

// The writer is left out of WebAssembly builds: the module only reads snapshots, and
// crypto/sha256's package initialisation (FIPS self-test code) would add ~40 KB to it.

package snapshot

import (
	"encoding/binary"
	"fmt"
	"math"
	"slices"
	"strings"
	"unicode/utf8"
	"unsafe"

	"github.com/cdaedge/cdaedge/edge/analysis"
	"github.com/cdaedge/cdaedge/edge/datetime"
	"github.com/cdaedge/cdaedge/edge/jsonw"
	"github.com/tidwall/gjson"
)

// Writer accumulates content items and writes a snapshot. Writing is deterministic:
// the same set of items, added in any order, gives byte-identical output.
type Writer struct {
	env     string
	preview bool
	items   []pendingItem
	ids     map[string]struct{}
}

type pendingItem struct {
	id   string
	json []byte
}

// NewWriter returns a writer for environment env (API.md D1); preview marks a
// snapshot that may hold items of every status (API.md D3).
func NewWriter(env string, preview bool) (*Writer, error) {
	if !ValidEnvironmentID(env) {
		return nil, fmt.Errorf("environment id %q: must match [A-Za-z0-9][A-Za-z0-9_.-]{0,127}", env)
	}
	return &Writer{env: env, preview: preview, ids: map[string]struct{}{}}, nil
}

// Len reports how many items were added.
func (w *Writer) Len() int { return len(w.items) }

// Add canonicalises one item (a JSON object with a non-empty string ContentID) into
// the member order of API.md D2 and compact form, and adds it. It refuses duplicate
// ContentIDs, duplicate member names, and, in a published-only writer, items whose
// Status is not Published (API.md D3).
func (w *Writer) Add(item []byte) error {
	canon, id, status, err := Canonicalize(item)
	if err != nil {
		return err
	}
	if !w.preview && status != PublishedStatus {
		return fmt.Errorf("item %q: status %q in a published-only snapshot", id, status)
	}
	if _, dup := w.ids[id]; dup {
		return fmt.Errorf("item %q: duplicate ContentID", id)
	}
	w.ids[id] = struct{}{}
	w.items = append(w.items, pendingItem{id: id, json: canon})
	return nil
}

// Canonicalize returns item as compact JSON with its members in the order of API.md
// D2, along with its ContentID and Status. Values keep their exact source text (numbers
// are not re-formatted, strings keep their escapes); only whitespace is dropped.
func Canonicalize(item []byte) (canon []byte, id, status string, err error) {
	if !gjson.ValidBytes(item) {
		return nil, "", "", fmt.Errorf("invalid JSON")
	}
	root := gjson.Parse(bytesView(item))
	if !root.IsObject() {
		return nil, "", "", fmt.Errorf("item must be a JSON object")
	}
	if err := checkDuplicateMembers(root, ""); err != nil {
		return nil, "", "", err
	}
	idv := root.Get("ContentID")
	if idv.Type != gjson.String || idv.Str == "" {
		return nil, "", "", fmt.Errorf("/ContentID: required, a non-empty string")
	}
	type member struct{ key, value string }
	var documented [len(DocumentedMembers)]*member
	var others []member
	root.ForEach(func(k, v gjson.Result) bool {
		m := member{key: k.Raw, value: v.Raw}
		for i, name := range DocumentedMembers[:] {
			if k.Str == name {
				documented[i] = &m
				return true
			}
		}
		others = append(others, m)
		return true
	})
	out := make([]byte, 0, len(item))
	out = append(out, '{')
	emit := func(m member) {
		if len(out) > 1 {
			out = append(out, ',')
		}
		out = append(out, m.key...)
		out = append(out, ':')
		out = appendCompact(out, m.value)
	}
	for _, m := range documented {
		if m != nil {
			emit(*m)
		}
	}
	for _, m := range others {
		emit(m)
	}
	out = append(out, '}')
	// The item is parsed in place, so strings read from it are views of the caller's
	// buffer, which the caller may reuse: clone what outlives this call.
	st := root.Get("Status")
	return out, strings.Clone(idv.Str), strings.Clone(st.Str), nil
}

// bytesView reads b as a string without copying; b must not change while it is used.
func bytesView(b []byte) string { return unsafe.String(unsafe.SliceData(b), len(b)) }

// appendCompact appends JSON text without insignificant whitespace.
func appendCompact(dst []byte, raw string) []byte {
	inString := false
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		if inString {
			dst = append(dst, c)
			if c == '\\' && i+1 < len(raw) {
				i++
				dst = append(dst, raw[i])
			} else if c == '"' {
				inString = false
			}
			continue
		}
		switch c {
		case ' ', '\t', '\n', '\r':
		case '"':
			inString = true
			dst = append(dst, c)
		default:
			dst = append(dst, c)
		}
	}
	return dst
}

func checkDuplicateMembers(v gjson.Result, pointer string) error {
	var err error
	switch {
	case v.IsObject():
		seen := map[string]struct{}{}
		v.ForEach(func(k, child gjson.Result) bool {
			if _, dup := seen[k.Str]; dup {
				err = fmt.Errorf("%s/%s: duplicate member", pointer, k.Str)
				return false
			}
			seen[k.Str] = struct{}{}
			err = checkDuplicateMembers(child, pointer+"/"+k.Str)
			return err == nil
		})
	case v.IsArray():
		i := 0
		v.ForEach(func(_, child gjson.Result) bool {
			err = checkDuplicateMembers(child, fmt.Sprintf("%s/%d", pointer, i))
			i++
			return err == nil
		})
	}
	return err
}

// buildValue is one typed scalar of a field while the snapshot is built.
type buildValue struct {
	kind ValueKind
	num  float64 // KindNumber
	ms   int64   // KindDate
	str  string  // KindString, KindDate (raw text, for the keyword form)
	b    bool    // KindBool
}

// fieldBuilder collects one field's index structures. Items are processed in ContentID
// order, so every list it appends to is sorted by item number.
type fieldBuilder struct {
	name     string
	topLevel bool
	multi    bool
	docCount int

	terms    map[string]*postingBuf
	textDocs int
	sumTTF   int64
	norms    []byte

	keywords map[string]*postingBuf

	values    [][]buildValue
	hasValues bool
}

type postingBuf struct {
	buf     []byte
	df      int
	lastDoc int
}

func (p *postingBuf) addDoc(doc int) {
	p.buf = binary.AppendUvarint(p.buf, uint64(doc-p.lastDoc))
	p.lastDoc = doc
	p.df++
}

// docScratch gathers one item's scalar values per field before they are indexed.
type docScratch struct {
	order     []string
	values    map[string][]gjson.Result
	tokens    []analysis.Token
	positions []byte
}

// Bytes builds the snapshot file.
func (w *Writer) Bytes() ([]byte, error) {
	// Items are numbered in ContentID order, whatever the order they were added in:
	// that is what makes the output deterministic.
	items := slices.Clone(w.items)
	slices.SortFunc(items, func(a, b pendingItem) int { return strings.Compare(a.id, b.id) })
	n := len(items)
	if uint64(n) > math.MaxUint32-1 {
		return nil, fmt.Errorf("too many items: %d", n)
	}
	fields, statuses := indexItems(items)

	var b fileBuilder
	b.start()
	b.section(secMeta, metaSection(w.env, w.preview, statuses))
	blob, offs, err := itemSections(items)
	if err != nil {
		return nil, err
	}
	b.section(secItems, blob)
	b.section(secItemOffsets, offs)
	blob, offs = idSections(items)
	b.section(secIDs, blob)
	b.section(secIDOffsets, offs)
	fs := buildFieldSections(fields, n)
	b.section(secFields, fs.dir)
	b.section(secTerms, fs.terms)
	b.section(secPostings, fs.postings)
	b.section(secNorms, fs.norms)
	b.section(secDocValues, fs.docvalues)
	b.section(secRanks, fs.ranks)
	b.section(secPerms, fs.perms)
	return b.finish(w.preview, n), nil
}

// indexItems is the indexing pass over the sorted items, item number doc being the
// position in items. It returns a builder per field (dotted path of a scalar value)
// holding the field's index structures, and the set of Status values present.
func indexItems(items []pendingItem) (map[string]*fieldBuilder, map[string]struct{}) {
	n := len(items)
	fields := map[string]*fieldBuilder{}
	statuses := map[string]struct{}{}
	scratch := &docScratch{values: map[string][]gjson.Result{}}
	for doc, it := range items {
		root := gjson.Parse(bytesView(it.json))
		if st := root.Get("Status"); st.Exists() {
			statuses[st.String()] = struct{}{}
		}
		scratch.gather(root)
		for _, path := range scratch.order {
			fb := fields[path]
			if fb == nil {
				fb = newFieldBuilder(path)
				fields[path] = fb
			}
			fb.addDoc(doc, n, scratch.values[path], scratch)
		}
	}
	return fields, statuses
}

// newFieldBuilder returns an empty builder for the field at the dotted path.
func newFieldBuilder(path string) *fieldBuilder {
	return &fieldBuilder{name: path, topLevel: !strings.Contains(path, "."), terms: map[string]*postingBuf{}, keywords: map[string]*postingBuf{}}
}

// gather empties s and collects the scalar values of the item root into it, by
// dotted path, in first-seen order. s is reused from item to item to save allocations.
func (s *docScratch) gather(root gjson.Result) {
	s.order = s.order[:0]
	for k := range s.values {
		delete(s.values, k)
	}
	root.ForEach(func(k, v gjson.Result) bool {
		s.collect(k.Str, v)
		return true
	})
}

// metaSection returns the meta section: a JSON object with the environment, the
// preview flag and the sorted Status values of the items.
func metaSection(env string, preview bool, statuses map[string]struct{}) []byte {
	meta := []byte(`{"environment":`)
	meta = jsonw.String(meta, env)
	meta = append(meta, `,"preview":`...)
	meta = jsonw.Bool(meta, preview)
	meta = append(meta, `,"statuses":[`...)
	for i, s := range sortedKeys(statuses) {
		if i > 0 {
			meta = append(meta, ',')
		}
		meta = jsonw.String(meta, s)
	}
	return append(meta, "]}"...)
}

// itemSections returns the items section, the canonical JSON of the items one after
// another, and its offsets section, u32[n+1] byte offsets into it. The offsets are 32
// bits, so the items may total at most 4 GiB.
func itemSections(items []pendingItem) (blob, offs []byte, err error) {
	total := 0
	for _, it := range items {
		total += len(it.json)
	}
	blob = make([]byte, 0, total)
	offs = make([]byte, 0, 4*(len(items)+1))
	offs = binary.LittleEndian.AppendUint32(offs, 0)
	for _, it := range items {
		blob = append(blob, it.json...)
		if uint64(len(blob)) > math.MaxUint32 {
			return nil, nil, fmt.Errorf("items exceed 4 GiB")
		}
		offs = binary.LittleEndian.AppendUint32(offs, uint32(len(blob)))
	}
	return blob, offs, nil
}

// idSections returns the ids section, the ContentIDs of the items one after another,
// and its offsets section, u32[n+1] byte offsets into it. The ids are part of the
// items, so they fit in 32-bit offsets when the items do.
func idSections(items []pendingItem) (blob, offs []byte) {
	offs = make([]byte, 0, 4*(len(items)+1))
	offs = binary.LittleEndian.AppendUint32(offs, 0)
	for _, it := range items {
		blob = append(blob, it.id...)
		offs = binary.LittleEndian.AppendUint32(offs, uint32(len(blob)))
	}
	return blob, offs
}

// fieldSections are the sections that index the fields: the field directory (dir)
// and the sections its entries point into.
type fieldSections struct {
	dir, terms, postings, norms, docvalues, ranks, perms []byte
}

// buildFieldSections writes the directory entry and index structures of every field,
// in name order, for n items.
func buildFieldSections(fields map[string]*fieldBuilder, n int) fieldSections {
	var s fieldSections
	names := sortedKeys(fields)
	s.dir = binary.AppendUvarint(s.dir, uint64(len(names)))
	for _, name := range names {
		s.addField(name, fields[name], n)
	}
	return s
}

// flags returns the field's directory flags: where it is and which index structures
// it has.
func (fb *fieldBuilder) flags() uint64 {
	flags := uint64(0)
	if fb.topLevel {
		flags |= fieldTopLevel
	}
	if len(fb.terms) > 0 {
		flags |= fieldHasText
	}
	if len(fb.keywords) > 0 {
		flags |= fieldHasKeyword
	}
	if fb.hasValues {
		flags |= fieldHasValues
	}
	if fb.multi {
		flags |= fieldMultiValued
	}
	if fb.hasValues && fb.topLevel {
		flags |= fieldHasPerms // sort orders are precomputed for top-level fields only
	}
	return flags
}

// addField appends the field's directory entry, name, flags and item count followed
// by the locations of its text, keyword and value structures, which it appends to
// their sections, in that order.
func (s *fieldSections) addField(name string, fb *fieldBuilder, n int) {
	flags := fb.flags()
	s.dir = binary.AppendUvarint(s.dir, uint64(len(name)))
	s.dir = append(s.dir, name...)
	s.dir = binary.AppendUvarint(s.dir, flags)
	s.dir = binary.AppendUvarint(s.dir, uint64(fb.docCount))
	if flags&fieldHasText != 0 {
		s.addText(fb)
	}
	var kwOrder map[string]uint32
	if flags&fieldHasKeyword != 0 {
		kwOrder = s.addKeywords(fb)
	}
	if flags&fieldHasValues != 0 {
		s.addValues(fb, n, kwOrder, flags&fieldHasPerms != 0)
	}
}

// addText appends the field's analysed-term dictionary and postings, and its norms;
// the directory entry gets their locations and the field's text statistics.
func (s *fieldSections) addText(fb *fieldBuilder) {
	var off, size int
	s.terms, s.postings, off, size = appendTermDict(s.terms, s.postings, fb.terms)
	s.dir = appendUvarints(s.dir, off, size, fb.textDocs, int(fb.sumTTF), len(s.norms))
	s.norms = append(s.norms, fb.norms...)
}

// addKeywords appends the field's exact-value dictionary and postings, and the
// directory entry their location. It returns each keyword's ordinal in the sorted
// dictionary, which the doc values store instead of the string.
func (s *fieldSections) addKeywords(fb *fieldBuilder) map[string]uint32 {
	var off, size int
	s.terms, s.postings, off, size = appendTermDict(s.terms, s.postings, fb.keywords)
	s.dir = appendUvarints(s.dir, off, size)
	kwOrder := make(map[string]uint32, len(fb.keywords))
	for i, k := range sortedKeys(fb.keywords) {
		kwOrder[k] = uint32(i)
	}
	return kwOrder
}

// addValues appends the field's typed values of n items (strings as their keyword
// ordinals in kwOrder), their ranks, the descending ones only for a multi-valued
// field (otherwise they are the ascending ones), and with perms the precomputed sort
// orders; the directory entry gets their locations.
func (s *fieldSections) addValues(fb *fieldBuilder, n int, kwOrder map[string]uint32, perms bool) {
	dvOff := len(s.docvalues)
	s.docvalues = appendDocValues(s.docvalues, fb.values, n, kwOrder)
	asc, desc := fb.ranks(n)
	ascOff := len(s.ranks)
	s.ranks = appendU32s(s.ranks, asc)
	descOff := ascOff
	if fb.multi {
		descOff = len(s.ranks)
		s.ranks = appendU32s(s.ranks, desc)
	}
	s.dir = appendUvarints(s.dir, dvOff, len(s.docvalues)-dvOff, ascOff, descOff)
	if perms {
		pa, pd := sortOrders(asc, desc)
		s.dir = appendUvarints(s.dir, len(s.perms))
		s.perms = appendU32s(s.perms, pa)
		s.dir = appendUvarints(s.dir, len(s.perms))
		s.perms = appendU32s(s.perms, pd)
	}
}

// collect records the scalar values below v under their dotted paths, in first-seen order.
func (s *docScratch) collect(path string, v gjson.Result) {
	switch {
	case v.IsObject():
		v.ForEach(func(k, child gjson.Result) bool {
			s.collect(path+"."+k.Str, child)
			return true
		})
	case v.IsArray():
		v.ForEach(func(_, child gjson.Result) bool {
			s.collect(path, child)
			return true
		})
	case v.Type == gjson.Null:
		// Elasticsearch indexes nothing for null: the field does not exist for this item.
	default:
		if _, seen := s.values[path]; !seen {
			s.order = append(s.order, path)
		}
		s.values[path] = append(s.values[path], v)
	}
}

// addDoc indexes one item's values of this field.
func (fb *fieldBuilder) addDoc(doc, n int, vals []gjson.Result, s *docScratch) {
	fb.docCount++
	if len(vals) > 1 {
		fb.multi = true
	}
	inData := strings.HasPrefix(fb.name, "Data.")
	isDate := fb.topLevel && IsDateMember(fb.name)

	// Analysed text: every string value, markup stripped inside Data (API.md D4),
	// values separated by the position gap so phrases never cross values.
	s.tokens = s.tokens[:0]
	pos := 0
	for i, v := range vals {
		if v.Type != gjson.String || isDate {
			continue
		}
		text := v.Str
		if inData {
			text = analysis.StripHTML(text)
		}
		base := len(s.tokens)
		s.tokens = analysis.Standard(s.tokens, text)
		if i > 0 && base > 0 {
			pos = s.tokens[base-1].Position + analysis.PositionIncrementGap + 1
		}
		for j := base; j < len(s.tokens); j++ {
			s.tokens[j].Position += pos
		}
		if len(s.tokens) > base {
			pos = s.tokens[len(s.tokens)-1].Position + 1
		}
	}
	if len(s.tokens) > 0 {
		// Group the item's tokens by term (positions stay ascending within a term)
		// without a map: terms are appended to their postings in byte order.
		slices.SortFunc(s.tokens, func(a, b analysis.Token) int {
			if c := strings.Compare(a.Term, b.Term); c != 0 {
				return c
			}
			return a.Position - b.Position
		})
		for start := 0; start < len(s.tokens); {
			term := s.tokens[start].Term
			end := start + 1
			for end < len(s.tokens) && s.tokens[end].Term == term {
				end++
			}
			pb := fb.terms[term]
			if pb == nil {
				pb = &postingBuf{}
				fb.terms[strings.Clone(term)] = pb
			}
			// Per item: delta, frequency, the byte length of the positions, then the
			// positions (deltas), so that scoring skips positions without decoding them.
			pb.addDoc(doc)
			pb.buf = binary.AppendUvarint(pb.buf, uint64(end-start))
			s.positions = s.positions[:0]
			last := 0
			for _, t := range s.tokens[start:end] {
				s.positions = binary.AppendUvarint(s.positions, uint64(t.Position-last))
				last = t.Position
			}
			pb.buf = binary.AppendUvarint(pb.buf, uint64(len(s.positions)))
			pb.buf = append(pb.buf, s.positions...)
			start = end
		}
		if fb.norms == nil {
			fb.norms = make([]byte, n)
		}
		fb.norms[doc] = EncodeLength(len(s.tokens))
		fb.textDocs++
		fb.sumTTF += int64(len(s.tokens))
	}

	// Exact values and typed values.
	var typed []buildValue
	for _, v := range vals {
		var bv buildValue
		switch v.Type {
		case gjson.String:
			if inData && len(v.Str) > IgnoreAbove && utf8.RuneCountInString(v.Str) > IgnoreAbove {
				continue
			}
			bv = buildValue{kind: KindString, str: v.Str}
			if isDate {
				if inst, err := datetime.Parse(v.Str); err == nil {
					bv = buildValue{kind: KindDate, ms: inst.Millis, str: v.Str}
				}
			}
			kb := fb.keywords[v.Str]
			if kb == nil {
				kb = &postingBuf{}
				fb.keywords[v.Str] = kb
			}
			if kb.df == 0 || kb.lastDoc != doc {
				kb.addDoc(doc)
			}
		case gjson.Number:
			bv = buildValue{kind: KindNumber, num: v.Num}
		case gjson.True, gjson.False:
			bv = buildValue{kind: KindBool, b: v.Type == gjson.True}
		default:
			continue
		}
		typed = append(typed, bv)
	}
	if len(typed) > 0 {
		if fb.values == nil {
			fb.values = make([][]buildValue, n)
		}
		fb.values[doc] = typed
		fb.hasValues = true
	}
}
