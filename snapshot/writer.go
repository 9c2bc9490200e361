//go:build !wasm

// The writer is left out of WebAssembly builds: the module only reads snapshots, and
// crypto/sha256's package initialisation (FIPS self-test code) would add ~40 KB to it.

package snapshot

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"runtime"
	"slices"
	"strings"
	"sync"
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
	ranges  int // how many ranges to index at once; 0: indexRanges (tests set it)
	derived []derivedSection
	// once is set while EncodeOnce encodes: the items' JSON is let go of as soon as
	// it has been compressed and indexed. spent is set then: the writer has no items
	// left to add to or encode.
	once, spent bool
	spool       *spool // where the items wait, when SpoolTo was called (writer_spool.go)
}

// derivedSection is a section that Encode computes from the canonical items.
type derivedSection struct {
	name  string
	build func(n int, item func(i int) []byte) []byte
}

type pendingItem struct {
	id   string
	json []byte // nil when the item is in the spool
	raw  bool   // json is the item as added (AddValidated), not yet in canonical form
	// at and length place the item's canonical JSON in the spool.
	at     int64
	length int
}

// NewWriter returns a writer for environment env (API.md D1); preview marks a
// snapshot that may hold items of every status (API.md D3).
func NewWriter(env string, preview bool) (*Writer, error) {
	if !ValidEnvironmentID(env) {
		return nil, fmt.Errorf("environment id %q: must match [A-Za-z0-9][A-Za-z0-9_.-]{0,127}", env)
	}
	return &Writer{env: env, preview: preview, ids: map[string]struct{}{}}, nil
}

// Derive asks Encode to store one more section, name, computed by build from the
// items: build is called once, with the item count and a function that returns item i's
// canonical JSON (items in ContentID order, as the snapshot numbers them), and must be
// deterministic; it may run while Encode does other work on the items, reading them
// only. A reader finds the section with Snapshot.Section; a reader that does
// not know it ignores it. This is how the engine keeps facts about the whole content
// (such as the shapes its GraphQL schema is typed from) in the resident index, so that
// no runtime has to read every item body to learn them.
func (w *Writer) Derive(name string, build func(n int, item func(i int) []byte) []byte) {
	w.derived = append(w.derived, derivedSection{name: name, build: build})
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
	return w.add(pendingItem{id: id, json: canon}, status)
}

// AddValidated is Add for an item the caller has already checked to be one valid JSON
// object with no member name twice in any object (as the builder's input reader does).
// It skips those checks and leaves canonicalisation to Encode, which does it on every
// core. item is copied.
func (w *Writer) AddValidated(item []byte) error {
	root := gjson.Parse(bytesView(item))
	idv := root.Get("ContentID")
	if idv.Type != gjson.String || idv.Str == "" {
		return fmt.Errorf("/ContentID: required, a non-empty string")
	}
	status := root.Get("Status").Str
	it := pendingItem{id: strings.Clone(idv.Str), json: slices.Clone(item), raw: true}
	return w.add(it, strings.Clone(status))
}

// add adds an item whose Status is status, unless its ContentID was added before or
// its status does not belong in the snapshot.
func (w *Writer) add(it pendingItem, status string) error {
	if w.spent {
		return errors.New("snapshot writer: already encoded with EncodeOnce")
	}
	if !w.preview && status != PublishedStatus {
		return fmt.Errorf("item %q: status %q in a published-only snapshot", it.id, status)
	}
	if _, dup := w.ids[it.id]; dup {
		return fmt.Errorf("item %q: duplicate ContentID", it.id)
	}
	w.ids[it.id] = struct{}{}
	if w.spool != nil {
		it.canonicalize()
		it.at, it.length = w.spool.appendItem(it.json), len(it.json)
		it.json = nil
	}
	w.items = append(w.items, it)
	return nil
}

// bytesView reads b as a string without copying; b must not change while it is used.
func bytesView(b []byte) string { return unsafe.String(unsafe.SliceData(b), len(b)) }

// fieldBuilder collects one field's index structures. Items are processed in ContentID
// order, so every list it appends to is sorted by item number.
type fieldBuilder struct {
	name     string
	topLevel bool
	multi    bool
	docCount int

	terms    termTable
	textDocs int
	sumTTF   int64
	norms    []byte

	keywords termTable

	// frozenText and frozenKeywords are terms and keywords once the range is indexed
	// (freeze): the maps are let go of then.
	frozenText, frozenKeywords frozenDict

	values    valueColumn
	hasValues bool

	// base is the first item of the range this builder indexed and span the number of
	// items in it: norms and values hold one entry per item of the range.
	base, span int
}

// postingBuf is one term's postings in one range of items, as the indexing pass
// records them, and as appendPostingList reads them back: per item, the uvarint delta
// from the item before (the first from item 0, so that ranges need no base); for text,
// then the uvarint frequency and that many uvarint positions, the first as it is and
// the next ones as deltas. Varints keep the builder's memory small; the lists are
// packed when the dictionaries are prepared, across ranges. There is one per term per
// field per range, most of them for terms of one item: the counters are 32 bits (item
// numbers are), which makes it 56 bytes instead of 72.
type postingBuf struct {
	buf []byte
	// term is the term (the table's copy of it): a keyword's values refer to it.
	term    string
	df      uint32
	lastDoc uint32
	// group is the term's place among the current item's terms while the item's
	// tokens are grouped by term, valid when groupDoc is the item's number plus one.
	group    int32
	groupDoc uint32
}

// addDoc records item doc, after the items recorded so far; a text item's positions
// follow with addPositions.
func (p *postingBuf) addDoc(doc int) {
	p.buf = binary.AppendUvarint(p.buf, uint64(doc-int(p.lastDoc)))
	p.lastDoc = uint32(doc)
	p.df++
}

// docScratch gathers one item's scalar values per field before they are indexed.
type docScratch struct {
	order    []int // the slots of the current item's paths, in first-seen order
	slots    []pathSlot
	children map[childKey]int
	byPath   map[string]int
	item     int // the current item's count, from 1
	tokens   []analysis.Token
	groups   []termGroup // the item's distinct terms, in first-seen order
	tokGroup []int32     // per token, its term's group
	grouped  []int       // the tokens' positions, group after group
	// dataEnd is where the item's top-level Data object or array ends in its JSON (0:
	// none), for section bodies.dataends.
	dataEnd int
}

// termGroup is one distinct term of an item: its postings (its place in the field's
// termTable), how many times the item has it, and where its positions start in
// docScratch.grouped.
type termGroup struct {
	id           int32
	count, start int
}

// Bytes builds the snapshot file in one buffer.
func (w *Writer) Bytes() ([]byte, error) {
	e, err := w.Encode()
	if err != nil {
		return nil, err
	}
	out := e.Bytes()
	if err := e.Close(); err != nil {
		return nil, err
	}
	return out, nil
}

// EncodeOnce is Encode for the last use of the writer: it lets go of each item's JSON
// as soon as it is compressed and indexed, so that the index is built in the memory
// the items leave, which lowers a large build's peak memory by about the size of the
// items. The writer is spent afterwards: another Encode or Bytes returns an error.
func (w *Writer) EncodeOnce() (*Encoded, error) {
	w.once = true
	defer func() { w.once = false }()
	return w.Encode()
}

// Encode builds the snapshot file, ready to be written with its WriteTo. Indexing and
// encoding use every core.
func (w *Writer) Encode() (_ *Encoded, err error) {
	if w.spent {
		return nil, errors.New("snapshot writer: already encoded with EncodeOnce")
	}
	sp := w.spool
	if sp != nil {
		// The spool goes with the Encoded, or is closed if there is none.
		w.spool, w.spent = nil, true
		defer func() {
			if err != nil {
				_ = sp.close()
			}
		}()
		if err := sp.seal(); err != nil {
			return nil, fmt.Errorf("snapshot writer: spool: %w", err)
		}
	}
	// Items are numbered in ContentID order, whatever the order they were added in:
	// that is what makes the output deterministic.
	canonicalizeAll(w.items)
	items := slices.Clone(w.items)
	slices.SortFunc(items, func(a, b pendingItem) int { return strings.Compare(a.id, b.id) })
	n := len(items)
	if uint64(n) > math.MaxUint32-1 {
		return nil, fmt.Errorf("too many items: %d", n)
	}
	ids, idOffs := idSections(items)
	if uint64(len(ids)) > math.MaxUint32 {
		return nil, fmt.Errorf("the ContentIDs exceed 4 GiB, the limit of snapshot format %d", MajorVersion)
	}
	for _, d := range w.derived {
		if !validDerivedName(d.name) {
			return nil, fmt.Errorf("derived section name %q: must be 1 to %d bytes and not a name of the format's own", d.name, sectionNameSize)
		}
	}
	src := itemSource{items: items, spool: sp}
	p := w.compressAndIndex(src)
	if sp != nil {
		if err := sp.failed(); err != nil {
			return nil, fmt.Errorf("snapshot writer: spool: %w", err)
		}
	}
	bodies, fields := p.bodies, p.fields

	b := fileBuilder{sp: sp}
	b.section(secMeta, metaSection(w.env, w.preview, p.statuses))
	b.section(secBodyOffsets, p.bodyOffs)
	b.section(secBodyBlocks, p.blocks)
	b.section(secBodyDict, p.dict)
	b.section(secIDs, ids)
	b.section(secIDOffsets, idOffs)
	if ends, ok := dataEndsSection(p.dataEnds); ok {
		b.section(secDataEnds, ends)
	}
	fs := buildFieldSections(fields, itemIDs(items), sp)
	for _, s := range []struct {
		name string
		size int
	}{{secTerms, fs.terms.size}, {secPostings, fs.postings.size}, {secDocValues, fs.docvalues.size}} {
		if uint64(s.size) > math.MaxUint32 {
			return nil, fmt.Errorf("the %s section exceeds 4 GiB, the limit of snapshot format %d", s.name, MajorVersion)
		}
	}
	b.section(secFields, fs.dir)
	b.section(secTermHeads, fs.heads.bytes())
	b.pagedSection(secTerms, fs.terms)
	b.pagedSection(secPostings, fs.postings)
	b.sectionOf(secNorms, fs.norms)
	b.sectionOf(secDocValues, fs.docvalues)
	b.sectionOf(secPermsPacked, fs.perms)
	if sets := &fs.dense.docSets; sets.count > 0 {
		b.section(secDocSets, sets.head((n+63)/64))
		b.pagedSection(secDocSetBitmaps, sets.records)
	}
	if impacts, ok := fs.dense.impacts.pieces(impactWindows(n)); ok {
		b.sectionOf(secImpacts, impacts)
	}
	for i, d := range w.derived {
		b.section(d.name, p.derived[i])
	}
	e := b.finish(w.preview, n, bodies)
	if sp != nil {
		if err := sp.failed(); err != nil { // reading the spooled bytes back to hash them
			return nil, fmt.Errorf("snapshot writer: spool: %w", err)
		}
	}
	return e, nil
}

// itemParts is what Encode makes of the items before it encodes the field sections.
type itemParts struct {
	bodies                 sectionPieces // the stored body blocks
	bodyOffs, blocks, dict []byte        // the bodies' sections
	derived                [][]byte      // the Derive sections' bytes, in w.derived's order
	dataEnds               []uint32      // per item, where its Data member's value ends (0: none)
	fields                 map[string]fieldParts
	statuses               map[string]struct{}
}

// compressAndIndex compresses the items' bodies, computes the derived sections, which
// are mostly serial work, on the side, and then indexes the items. For EncodeOnce the
// index is built last so that it can let go of each item's JSON as soon as it has
// indexed the item (the index keeps copies of the strings it needs): the index then
// grows into the memory the items leave, instead of beside them.
func (w *Writer) compressAndIndex(src itemSource) itemParts {
	items := src.items
	n := len(items)
	p := itemParts{derived: make([][]byte, len(w.derived))}
	var side sync.WaitGroup
	side.Go(func() {
		for i, d := range w.derived {
			// Memory of its own for each spooled item: a build may keep views of it.
			p.derived[i] = d.build(n, func(i int) []byte { return src.json(i, nil) })
		}
	})
	p.bodies, p.bodyOffs, p.blocks, p.dict = bodySections(src)
	side.Wait()
	release := w.once || src.spool != nil
	if release {
		w.spent = true
		clear(w.items) // items, sorted, is the only reference left
		w.items, w.ids = nil, nil
	}
	ranges := w.ranges
	if ranges == 0 {
		ranges = indexRanges(n)
	}
	p.dataEnds = make([]uint32, n)
	p.fields, p.statuses = indexItems(src, ranges, release, p.dataEnds)
	if release {
		// Collected now, the items' memory is what the field sections are encoded
		// into; left to the collector's pacing, which set its goal while they were
		// live, the process would grow by the sections' size first.
		runtime.GC()
	}
	return p
}

// gather empties s and collects the scalar values of the item root into it, by
// dotted path, in first-seen order. s is reused from item to item: a path's slot, its
// name and its value list are made the first time the path is seen, then reused.
func (s *docScratch) gather(root gjson.Result) {
	s.order = s.order[:0]
	s.item++
	s.dataEnd = 0
	root.ForEach(func(k, v gjson.Result) bool {
		if k.Str == "Data" && (v.IsObject() || v.IsArray()) && s.dataEnd == 0 {
			s.dataEnd = v.Index - root.Index + len(v.Raw)
		}
		s.collect(-1, k.Str, v)
		return true
	})
}

// pathSlot is one dotted path seen by a docScratch: its name, the field builder of the
// range being indexed, and the current item's values (valid when item is the current
// item's count).
type pathSlot struct {
	path   string
	fb     *fieldBuilder
	item   int
	values []gjson.Result
}

// childKey names a path by its parent's slot (-1 at the top) and its last member name.
type childKey struct {
	parent int
	name   string
}

// slotOf returns the slot of the path named name under the slot parent.
func (s *docScratch) slotOf(parent int, name string) int {
	if i, ok := s.children[childKey{parent, name}]; ok {
		return i
	}
	name = strings.Clone(name) // a view of the item's bytes
	path := name
	if parent >= 0 {
		path = s.slots[parent].path + "." + name
	}
	if s.children == nil {
		s.children, s.byPath = map[childKey]int{}, map[string]int{}
	}
	// A member named "a.b" and a member b of a member a are the same field.
	i, ok := s.byPath[path]
	if !ok {
		i = len(s.slots)
		s.slots = append(s.slots, pathSlot{path: path})
		s.byPath[path] = i
	}
	s.children[childKey{parent, name}] = i
	return i
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

// validDerivedName reports whether a Derive section's name fits the section table and
// is not one of the format's own.
func validDerivedName(name string) bool {
	if name == "" || len(name) > sectionNameSize || strings.IndexByte(name, 0) >= 0 {
		return false
	}
	switch name {
	case secMeta, secBodyOffsets, secBodyBlocks, secBodyDict, secDataEnds, secIDs, secIDOffsets, secFields,
		secTerms, secPostings, secNorms, secDocValues, secPerms, secPermsPacked, secPages, secTermHeads,
		secDocSets, secDocSetBitmaps, secImpacts:
		return false
	}
	return true
}

// idSections returns the ids section, the ContentIDs of the items one after another,
// and its offsets section, u32[n+1] byte offsets into it.
func idSections(items []pendingItem) (blob, offs []byte) {
	offs = make([]byte, 0, 4*(len(items)+1))
	offs = binary.LittleEndian.AppendUint32(offs, 0)
	for _, it := range items {
		blob = append(blob, it.id...)
		offs = binary.LittleEndian.AppendUint32(offs, uint32(len(blob)))
	}
	return blob, offs
}

// collect records the scalar values below v, the member name of the slot parent,
// under their dotted paths, in first-seen order.
func (s *docScratch) collect(parent int, name string, v gjson.Result) {
	if v.Type == gjson.Null {
		return // Elasticsearch indexes nothing for null: the field does not exist for this item.
	}
	i := s.slotOf(parent, name)
	s.collectAt(i, v)
}

// collectAt records the scalar values below v under the path of slot i.
func (s *docScratch) collectAt(i int, v gjson.Result) {
	switch {
	case v.IsObject():
		v.ForEach(func(k, child gjson.Result) bool {
			s.collect(i, k.Str, child)
			return true
		})
	case v.IsArray():
		v.ForEach(func(_, child gjson.Result) bool {
			if child.Type != gjson.Null {
				s.collectAt(i, child)
			}
			return true
		})
	case v.Type == gjson.Null:
	default:
		sl := &s.slots[i]
		if sl.item != s.item {
			sl.item, sl.values = s.item, sl.values[:0]
			s.order = append(s.order, i)
		}
		sl.values = append(sl.values, v)
	}
}

// addDoc indexes one item's values of this field; doc is in the builder's range.
func (fb *fieldBuilder) addDoc(doc int, vals []gjson.Result, s *docScratch) {
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
		fb.addTokens(doc, s)
		if fb.norms == nil {
			fb.norms = make([]byte, fb.span)
		}
		fb.norms[doc-fb.base] = EncodeLength(len(s.tokens))
		fb.textDocs++
		fb.sumTTF += int64(len(s.tokens))
	}

	// Exact values and typed values.
	fb.values.pad(doc - fb.base)
	fb.values.reserve(len(vals), doc-fb.base, fb.span)
	start := len(fb.values.vals)
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
					bv = buildValue{kind: KindDate, bits: uint64(inst.Millis), str: v.Str}
				}
			}
			kb, _ := fb.keywords.get(v.Str)
			bv.str = kb.term // the table's copy
			if kb.df == 0 || int(kb.lastDoc) != doc {
				kb.addDoc(doc)
			}
		case gjson.Number:
			bv = buildValue{kind: KindNumber, bits: math.Float64bits(v.Num)}
		case gjson.True, gjson.False:
			bv = buildValue{kind: KindBool, bits: uint64(boolInt(v.Type == gjson.True))}
		default:
			continue
		}
		fb.values.vals = append(fb.values.vals, bv)
	}
	if len(fb.values.vals) > start {
		fb.values.ends = append(fb.values.ends, uint32(len(fb.values.vals)))
		fb.hasValues = true
	}
}

// addTokens appends the item's tokens (s.tokens, in position order) to the postings of
// their terms. Tokens are grouped by term with a counting sort, which keeps each term's
// positions ascending; the order of the groups does not matter, each term having a list
// of its own.
func (fb *fieldBuilder) addTokens(doc int, s *docScratch) {
	s.groups, s.tokGroup = s.groups[:0], s.tokGroup[:0]
	for _, t := range s.tokens {
		pb, id := fb.terms.get(t.Term)
		if int(pb.groupDoc) != doc+1 {
			pb.groupDoc, pb.group = uint32(doc+1), int32(len(s.groups))
			s.groups = append(s.groups, termGroup{id: id})
		}
		s.groups[pb.group].count++
		s.tokGroup = append(s.tokGroup, pb.group)
	}
	next := 0
	for i := range s.groups {
		s.groups[i].start = next
		next += s.groups[i].count
	}
	s.grouped = slices.Grow(s.grouped[:0], len(s.tokens))[:len(s.tokens)]
	for i, t := range s.tokens {
		g := &s.groups[s.tokGroup[i]]
		s.grouped[g.start] = t.Position
		g.start++
	}
	end := 0
	for _, g := range s.groups {
		start := end
		end += g.count
		pb := &fb.terms.bufs[g.id]
		if k := binary.MaxVarintLen32 * (g.count + 2); len(pb.buf)+k > cap(pb.buf) {
			pb.buf = growFor(pb.buf, k, doc-fb.base, fb.span)
		}
		pb.addDoc(doc)
		pb.addPositions(s.grouped[start:end])
	}
}

// addPositions records the positions (ascending) of the text item last added.
func (p *postingBuf) addPositions(positions []int) {
	p.buf = binary.AppendUvarint(p.buf, uint64(len(positions)))
	last := 0
	for _, pos := range positions {
		p.buf = binary.AppendUvarint(p.buf, uint64(pos-last))
		last = pos
	}
}
