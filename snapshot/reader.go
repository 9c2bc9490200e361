package snapshot

import (
	"encoding/binary"
	"errors"
	"strconv"
	"strings"
	"unsafe"

	"github.com/cdaedge/cdaedge/edge/jsonr"
)

// Section describes one section of a snapshot file, for inspection.
type Section struct {
	Name   string
	Offset int64
	Length int64
}

// Snapshot is an opened snapshot file. It reads the file's index in place and keeps the
// body blocks it inflates in a cache (bodies.go). It is safe for concurrent use by any
// number of goroutines.
//
// Its long-lived structures (the Snapshot, its Fields and their TermDicts) hold the
// file's bytes by one pointer to their start plus offsets (spans), never by strings into
// the middle of the file, and every string they keep (names, statuses) is a copy. A
// collector that finds an object's start by walking back from an interior pointer (TinyGo's
// does, one step per 64 bytes) then pays for one pointer, not for thousands; substrings are
// made on demand by the accessors and live only as long as their callers keep them.
type Snapshot struct {
	data  []byte
	str   string // the same bytes viewed as a string, for jsonr and zero-copy substrings
	n     int
	major int
	minor int

	env      string
	preview  bool
	statuses []string
	hash     [32]byte
	sections []Section

	ids, idOffsets span

	// The body part (bodies.go): bodyStart and fileSize are offsets in the file;
	// resident is set when data is the whole file.
	bodyOffsets, bodyBlocks, bodyDict span
	dataEnds                          span  // from format 3.2: packed, after its width byte and padding
	dataEndWidth                      uint8 // 0: no dataends section
	blockCount                        int
	bodyStart, fileSize               uint64
	resident                          bool
	cache                             *bodyCache
	// pages is the paged part (pages.go), nil in a file without one; data holds it
	// when resident is set (the whole file).
	pages *pageCache

	terms, postings, norms, docvalues, perms span
	permsPacked                              span          // from format 3.1: the sort orders bit-packed
	termHeads                                span          // from format 3: the dictionaries' heads (termdict.go)
	dense                                    denseSections // the common terms' bitmaps and impacts

	fields     []Field
	fieldIndex fieldTable
}

// span is a byte range [off, end) of the file, checked against its bounds when the
// snapshot is opened.
type span struct{ off, end int }

func (sp span) len() int { return sp.end - sp.off }

// of returns the span's bytes of the file base.
func (sp span) of(base string) string { return base[sp.off:sp.end] }

// sub returns the span [off, off+n) inside sp, or false when it does not fit.
func (sp span) sub(off, n int) (span, bool) {
	if off < 0 || n < 0 || off > sp.len() || n > sp.len()-off {
		return span{}, false
	}
	return span{sp.off + off, sp.off + off + n}, true
}

// Open verifies data (magic, major version, checksums, section bounds) and returns a
// reader over it: Verify, then OpenVerified. data is the whole file, or its index part
// alone (the first IndexLen bytes), whose items' bodies then come through ProvideBlock.
// It does not parse items: its cost is one pass of the checksums over the bytes plus
// work proportional to the number of sections and fields. data must not change while
// the Snapshot is in use.
func Open(data []byte) (*Snapshot, error) {
	if err := Verify(data); err != nil {
		return nil, err
	}
	return OpenVerified(data)
}

// Verify checks that data is a snapshot of a format version this reader reads whose
// checksums match its contents: the index part's, and when data is the whole file every
// body block's; one pass over every byte. A file is verified once where it enters the
// system (the builder writes it, the host reads it, a deploy step stages it); the
// runtimes that are then handed it open it with OpenVerified, whose cost does not grow
// with the file, and check each body block they are given as they are given it.
func Verify(data []byte) error {
	indexLen, err := IndexLen(data)
	if err != nil {
		return err
	}
	if indexLen > int64(len(data)) {
		return wrapf(ErrCorrupt, "the index part is "+strconv.FormatInt(indexLen, 10)+" bytes, the data "+strconv.Itoa(len(data)))
	}
	if want, got := binary.LittleEndian.Uint32(data[offChecksum:]), checksum(data[:indexLen]); want != got {
		return wrapf(ErrChecksum, "stored "+hex32(want)+", computed "+hex32(got))
	}
	if int64(len(data)) == indexLen {
		return nil
	}
	s, err := OpenVerified(data)
	if err != nil {
		return err
	}
	if s.pages != nil {
		if err := s.pages.verify(data); err != nil {
			return err
		}
	}
	// The padding between the parts is covered by no checksum: it must be zeros, so
	// that no flipped byte of a whole file goes unnoticed.
	gaps := [][2]int64{{indexLen, int64(s.bodyStart)}}
	if s.pages != nil {
		gaps = [][2]int64{{indexLen, int64(s.pages.start)}, {int64(s.pages.end()), int64(s.bodyStart)}}
	}
	for _, gap := range gaps {
		for i := gap[0]; i < gap[1]; i++ {
			if data[i] != 0 {
				return wrapf(ErrCorrupt, "padding byte "+strconv.FormatInt(i, 10)+" is not zero")
			}
		}
	}
	return s.verifyBodies()
}

// OpenVerified is Open without the checksum, for a file that Verify has accepted (or
// that the caller otherwise trusts): it checks the magic, the major version and the
// bounds of every section and structure it reads, in work proportional to the number
// of sections and fields. Every later access is still bounds-checked, so a corrupted
// file opened this way yields errors and empty values, never a panic; but a flipped byte
// inside an item or a postings list goes unnoticed, which is what Verify is for.
func OpenVerified(data []byte) (*Snapshot, error) {
	if err := checkHeader(data); err != nil {
		return nil, err
	}
	s := &Snapshot{data: data, str: unsafe.String(unsafe.SliceData(data), len(data))}
	s.major = int(binary.LittleEndian.Uint16(data[offMajor:]))
	s.minor = int(binary.LittleEndian.Uint16(data[offMinor:]))
	if err := s.readStructure(); err != nil {
		return nil, wrap(ErrCorrupt, err)
	}
	return s, nil
}

// checkHeader checks the magic and the major version.
func checkHeader(data []byte) error {
	if len(data) < headerSize || string(data[:len(Magic)]) != Magic {
		return ErrNotSnapshot
	}
	major := int(binary.LittleEndian.Uint16(data[offMajor:]))
	minor := int(binary.LittleEndian.Uint16(data[offMinor:]))
	if major < 2 {
		return wrapf(ErrVersion, strconv.Itoa(major)+"."+strconv.Itoa(minor)+": rebuild the snapshot with this release's builder (this reader reads format "+strconv.Itoa(MajorVersion)+".x)")
	}
	if major > MajorVersion {
		return wrapf(ErrVersion, strconv.Itoa(major)+"."+strconv.Itoa(minor)+" (this reader reads formats 2.x to "+strconv.Itoa(MajorVersion)+".x)")
	}
	return nil
}

func (s *Snapshot) readStructure() error {
	data := s.data
	s.preview = binary.LittleEndian.Uint32(data[offFlags:])&flagPreview != 0
	n := uint64(binary.LittleEndian.Uint32(data[offItems:]))
	count := uint64(binary.LittleEndian.Uint32(data[offSections:]))
	table := binary.LittleEndian.Uint64(data[offTable:])
	copy(s.hash[:], data[offHash:])
	// Sections and their table lie in the index part.
	size := binary.LittleEndian.Uint64(data[offIndexLen:])
	if size < headerSize || size > uint64(len(data)) {
		return errors.New("index part of " + strconv.FormatUint(size, 10) + " bytes in " + strconv.Itoa(len(data)))
	}
	if table < headerSize || table > size || count > (size-table)/sectionEntry {
		return errors.New("section table out of bounds")
	}
	if n > size {
		return errors.New("item count " + strconv.FormatUint(n, 10) + " larger than the file")
	}
	s.n = int(n)
	type entry struct {
		name        string
		off, length uint64
	}
	entries := make([]entry, 0, count)
	for i := uint64(0); i < count; i++ {
		e := data[table+i*sectionEntry:]
		entries = append(entries, entry{strings.TrimRight(string(e[:sectionNameSize]), "\x00"),
			binary.LittleEndian.Uint64(e[sectionNameSize:]), binary.LittleEndian.Uint64(e[sectionNameSize+8:])})
	}
	inIndex := func(e entry) bool { return e.off >= headerSize && e.off <= table && e.length <= table-e.off }
	// The paged part, when the file has one, is described in the index part; its
	// sections lie in it.
	for _, e := range entries {
		if e.name != secPages {
			continue
		}
		if !inIndex(e) {
			return errors.New("section " + strconv.Quote(e.name) + " out of bounds")
		}
		var err error
		if s.pages, err = readPages(s.str, span{int(e.off), int(e.off + e.length)}, size); err != nil {
			return err
		}
	}
	byName := map[string]span{}
	for _, e := range entries {
		inPaged := s.pages != nil && e.off >= uint64(s.pages.start) && e.off <= uint64(s.pages.end()) && e.length <= uint64(s.pages.end())-e.off
		if !inIndex(e) && (!inPaged || e.name != secPostings && e.name != secTerms && e.name != secDocSetBitmaps) {
			return errors.New("section " + strconv.Quote(e.name) + " out of bounds")
		}
		if _, dup := byName[e.name]; dup {
			return errors.New("section " + strconv.Quote(e.name) + " twice")
		}
		s.sections = append(s.sections, Section{Name: e.name, Offset: int64(e.off), Length: int64(e.length)})
		byName[e.name] = span{int(e.off), int(e.off + e.length)}
	}
	for _, name := range []string{secMeta, secBodyOffsets, secBodyBlocks, secIDs, secIDOffsets} {
		if _, ok := byName[name]; !ok {
			return errors.New("missing section " + strconv.Quote(name))
		}
	}
	s.ids, s.idOffsets = byName[secIDs], byName[secIDOffsets]
	if uint64(s.idOffsets.len()) != 4*(n+1) {
		return errors.New("id offsets do not match " + strconv.FormatUint(n, 10) + " items")
	}
	if err := s.readBodies(byName, size); err != nil {
		return err
	}
	meta := byName[secMeta].of(s.str)
	if !jsonr.Valid(meta) {
		return errors.New("meta section is not JSON")
	}
	metaJSON := jsonr.Parse(meta)
	s.env = strings.Clone(metaJSON.Get("environment").String())
	if !ValidEnvironmentID(s.env) {
		return errors.New("environment id " + strconv.Quote(s.env))
	}
	if metaJSON.Get("preview").Bool() != s.preview {
		return errors.New("preview flag and meta disagree")
	}
	for _, st := range metaJSON.Get("statuses").Array() {
		s.statuses = append(s.statuses, strings.Clone(st.String()))
	}
	s.terms, s.postings, s.norms = byName[secTerms], byName[secPostings], byName[secNorms]
	s.termHeads = byName[secTermHeads]
	s.docvalues, s.perms, s.permsPacked = byName[secDocValues], byName[secPerms], byName[secPermsPacked]
	var err error
	if s.dense.docSets, err = readListTable(s.str, byName[secDocSets], byName[secDocSetBitmaps], (s.n+63)/64, 8); err != nil {
		return errors.New("docsets: " + err.Error())
	}
	if s.dense.impacts, err = readListTable(s.str, byName[secImpacts], span{}, impactWindows(s.n), impactSize); err != nil {
		return errors.New("impacts: " + err.Error())
	}
	return s.readFields(byName[secFields].of(s.str))
}

// Section returns the bytes of the section called name, which a writer stored with
// Writer.Derive (or any other section, for inspection), and whether the file has it.
func (s *Snapshot) Section(name string) (string, bool) {
	for _, sec := range s.sections {
		if sec.Name == name && sec.Offset+sec.Length <= int64(len(s.str)) {
			return s.str[sec.Offset : sec.Offset+sec.Length], true
		}
	}
	return "", false
}

// Environment is the environment id the snapshot was built for (API.md D1).
func (s *Snapshot) Environment() string { return s.env }

// Preview reports whether the snapshot may hold unpublished items (API.md D3).
func (s *Snapshot) Preview() bool { return s.preview }

// Len is the number of items.
func (s *Snapshot) Len() int { return s.n }

// Hash is the SHA-256 of the file after its header: the snapshot's content version.
func (s *Snapshot) Hash() [32]byte { return s.hash }

// Version is Hash in lower-case hex.
func (s *Snapshot) Version() string {
	const digits = "0123456789abcdef"
	var b [2 * len(s.hash)]byte
	for i, c := range s.hash[:] {
		b[2*i], b[2*i+1] = digits[c>>4], digits[c&15]
	}
	return string(b[:])
}

// Statuses lists the distinct item statuses the snapshot holds, sorted.
func (s *Snapshot) Statuses() []string { return s.statuses }

// FormatVersion is the file's format version.
func (s *Snapshot) FormatVersion() (major, minor int) { return s.major, s.minor }

// Sections lists the file's sections in file order.
func (s *Snapshot) Sections() []Section { return s.sections }

// Size is the file's size in bytes, its body part included when only the index part
// was opened.
func (s *Snapshot) Size() int64 { return int64(s.fileSize) }

// IndexSize is the size of the file's index part in bytes: what stays in memory when
// bodies are read by range.
func (s *Snapshot) IndexSize() int64 { return int64(binary.LittleEndian.Uint64(s.data[offIndexLen:])) }

// PagedSize is the length of the paged part (pages.go): 0 in a file of format 2.
func (s *Snapshot) PagedSize() int64 {
	if s.pages == nil {
		return 0
	}
	return int64(s.pages.length)
}

// u32At reads element i of a little-endian u32 array; ok is false when i is out of range.
func u32At(arr string, i int) (uint32, bool) {
	if i < 0 || 4*i+4 > len(arr) {
		return 0, false
	}
	return le32(arr[4*i : 4*i+4]), true
}

// findU32 finds key among n u32 values of arr in increasing order, the k-th at u32
// index first+stride*k, and returns its k.
func findU32(arr string, first, stride, n int, key int) (int, bool) {
	lo, hi := 0, n
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		if v, _ := u32At(arr, first+stride*mid); int64(v) < int64(key) {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	v, ok := u32At(arr, first+stride*lo)
	return lo, ok && lo < n && int64(v) == int64(key)
}

// slice returns entry i of a blob cut by a u32[n+1] offsets array.
func slice(blob, offsets string, i int) string {
	start, ok1 := u32At(offsets, i)
	end, ok2 := u32At(offsets, i+1)
	if !ok1 || !ok2 || start > end || uint64(end) > uint64(len(blob)) {
		return ""
	}
	return blob[start:end]
}

// ContentID returns item i's ContentID without parsing the item.
func (s *Snapshot) ContentID(i int) string {
	return slice(s.ids.of(s.str), s.idOffsets.of(s.str), i)
}

// Lookup finds the item with ContentID id in O(log n).
func (s *Snapshot) Lookup(id string) (int, bool) { return searchSorted(s.n, id, s.ContentID) }

// searchSorted returns the index of key among the n sorted strings at(0..n-1), or the
// index where it would be and false.
func searchSorted(n int, key string, at func(int) string) (int, bool) {
	lo, hi := 0, n
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		if at(mid) < key {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	return lo, lo < n && at(lo) == key
}

// FieldNames lists every indexed field (top-level members and dotted paths below them,
// such as Data.title), sorted.
func (s *Snapshot) FieldNames() []string {
	names := make([]string, len(s.fields))
	for i := range s.fields {
		names[i] = s.fields[i].name
	}
	return names
}

// Field returns the named field's index, or nil when no item has it.
func (s *Snapshot) Field(name string) *Field {
	if i := s.fieldIndex.find(s.fields, name); i >= 0 {
		return &s.fields[i]
	}
	return nil
}

// Index returns the field's position among the snapshot's fields, from 0 to the
// number of fields (FieldNames) less one: a key for what callers keep per field.
func (f *Field) Index() int { return f.index }

// Field is the index of one field: its analysed terms (with positions and lengths), its
// exact values, its typed values per item and its sort ranks.
type Field struct {
	s        *Snapshot
	name     string
	flags    uint64
	docCount int

	text             TermDict
	textDocs         int
	sumTotalTermFreq int64
	norms            span

	keyword TermDict

	values            valueIndex
	permAsc, permDesc span
	permWidth         uint8 // bits per item number of the packed orders; 0: u32 (format 3.0)

	index int // in the snapshot's fields (Index)
}

// decoder reads uvarints from a byte string and remembers the first error.
type decoder struct {
	b   string
	err error
}

func (d *decoder) uvarint() uint64 {
	if d.err != nil {
		return 0
	}
	if len(d.b) > 0 && d.b[0] < 0x80 { // the common one-byte case, kept inlinable
		x := uint64(d.b[0])
		d.b = d.b[1:]
		return x
	}
	var x uint64
	var shift uint
	for i := 0; i < len(d.b) && i < binary.MaxVarintLen64; i++ {
		c := d.b[i]
		x |= uint64(c&0x7f) << shift
		if c < 0x80 {
			d.b = d.b[i+1:]
			return x
		}
		shift += 7
	}
	d.err = errors.New("bad varint")
	return 0
}

// int reads a uvarint that must be at most max.
func (d *decoder) int(max int) int {
	v := d.uvarint()
	if v > uint64(max) {
		if d.err == nil {
			d.err = errors.New("value " + strconv.FormatUint(uint64(v), 10) + " out of range")
		}
		return 0
	}
	return int(v)
}

func (d *decoder) str(length int) string {
	if d.err != nil {
		return ""
	}
	if length > len(d.b) {
		d.err = errors.New("string out of bounds")
		return ""
	}
	v := d.b[:length]
	d.b = d.b[length:]
	return v
}

// sub reads an (offset, length) pair and returns that range of the section sec.
func (d *decoder) sub(sec span) span {
	off := d.int(sec.len())
	length := d.int(sec.len() - off)
	if d.err != nil {
		return span{}
	}
	sp, _ := sec.sub(off, length)
	return sp
}

// array reads the offset of an array of n u32 in sec and returns its span.
func (d *decoder) array(sec span, n int) span {
	off := d.int(sec.len())
	if d.err != nil {
		return span{}
	}
	sp, ok := sec.sub(off, 4*n)
	if !ok {
		d.err = errors.New("array out of bounds")
		return span{}
	}
	return sp
}

func (s *Snapshot) readFields(dir string) error {
	d := &decoder{b: dir}
	count := d.int(len(dir))
	s.fields = make([]Field, 0, count)
	s.fieldIndex.reset(count)
	packed := 0 // fields with packed sort orders so far
	for i := 0; i < count && d.err == nil; i++ {
		f := Field{s: s}
		f.name = strings.Clone(d.str(d.int(len(dir))))
		f.flags = d.uvarint()
		f.docCount = d.int(s.n)
		if f.flags&fieldHasText != 0 {
			f.text = newTermDict(s, d.sub(s.terms), true, d)
			f.textDocs = d.int(s.n)
			f.sumTotalTermFreq = int64(d.uvarint())
			off := d.int(s.norms.len())
			if d.err == nil {
				var ok bool
				if f.norms, ok = s.norms.sub(off, s.n); !ok {
					d.err = errors.New("norms out of bounds")
				}
			}
		}
		if f.flags&fieldHasKeyword != 0 {
			f.keyword = newTermDict(s, d.sub(s.terms), false, d)
		}
		if f.flags&fieldHasValues != 0 {
			dv := d.sub(s.docvalues)
			if d.err == nil {
				f.values, d.err = openValues(s.str, dv, s.n)
			}
		}
		switch {
		case f.flags&fieldHasPackedPerms != 0:
			f.permWidth = uint8(bitsFor(uint64(s.n)))
			size := int(packedLen(uint64(s.n), f.permWidth))
			var ok1, ok2 bool
			f.permAsc, ok1 = s.permsPacked.sub(2*packed*size, size)
			f.permDesc, ok2 = s.permsPacked.sub((2*packed+1)*size, size)
			if !ok1 || !ok2 {
				d.err = errors.New("sort orders out of bounds")
			}
			packed++
		case f.flags&fieldHasPerms != 0:
			f.permAsc = d.array(s.perms, s.n)
			f.permDesc = d.array(s.perms, s.n)
		}
		f.index = len(s.fields)
		s.fields = append(s.fields, f)
		if !s.fieldIndex.add(s.fields, f.index) && d.err == nil {
			d.err = errors.New("field " + strconv.Quote(f.name) + " twice")
		}
	}
	if d.err != nil {
		return wrap(errors.New("field directory"), d.err)
	}
	return nil
}

// Name is the field's path, such as "Name" or "Data.title".
func (f *Field) Name() string { return f.name }

// TopLevel reports whether the field is a top-level member of items.
func (f *Field) TopLevel() bool { return f.flags&fieldTopLevel != 0 }

// MultiValued reports whether some item holds several values in this field.
func (f *Field) MultiValued() bool { return f.flags&fieldMultiValued != 0 }

// DocCount is the number of items that have at least one non-null value in the field.
func (f *Field) DocCount() int { return f.docCount }

// Text is the dictionary of analysed terms; its postings carry frequencies and positions.
func (f *Field) Text() TermDict { return f.text }

// TextDict is Text in place, for callers that keep or pass it around: a TermDict is
// twenty words, and a query over every field copied it hundreds of times. The caller
// must not change it.
func (f *Field) TextDict() *TermDict { return &f.text }

// TextDocCount is the number of items with at least one analysed term in the field.
func (f *Field) TextDocCount() int { return f.textDocs }

// SumTotalTermFreq is the number of analysed terms in the field over all items.
func (f *Field) SumTotalTermFreq() int64 { return f.sumTotalTermFreq }

// Length is the analysed length of item doc's field as Lucene stores it (one byte,
// see EncodeLength); 0 when the item has no terms in the field.
func (f *Field) Length(doc int) byte {
	if doc < 0 || doc >= f.norms.len() {
		return 0
	}
	return f.s.str[f.norms.off+doc]
}

// Lengths returns every item's Length, item doc's at doc, for loops that read many.
func (f *Field) Lengths() string { return f.s.str[f.norms.off:f.norms.end] }

// Keyword is the dictionary of exact string values (the <field>.keyword form); its
// postings carry item numbers only. Ordinals are in byte order of the values.
func (f *Field) Keyword() TermDict { return f.keyword }

// KeywordDict is Keyword in place (see TextDict); the caller must not change it.
func (f *Field) KeywordDict() *TermDict { return &f.keyword }

// HasValues reports whether some item has a typed (string, number, date, bool) value.
func (f *Field) HasValues() bool { return f.flags&fieldHasValues != 0 }

// Value is one typed value of a field.
type Value struct {
	Kind   ValueKind
	Number float64 // KindNumber
	Millis int64   // KindDate: milliseconds since the epoch, UTC
	Ord    uint32  // KindString: ordinal in the field's keyword dictionary
	Bool   bool    // KindBool
}

// Values appends item doc's typed values in source order to dst.
func (f *Field) Values(dst []Value, doc int) []Value {
	c, base := &f.values, f.s.str
	from, to := c.itemOrds(base, doc)
	for j := from; j < to; j++ {
		t, ok := c.ord(base, j)
		if !ok {
			return dst
		}
		dst = append(dst, c.value(base, t))
	}
	return dst
}

// RankAsc is item doc's sort rank for ascending order (its smallest value); NoRank when
// the item lacks the field. Items compare by rank exactly as their values compare
// under API.md D6/D12.
func (f *Field) RankAsc(doc int) uint32 {
	lo, _ := f.values.ranks(f.s.str, doc)
	return lo
}

// RankDesc is item doc's sort rank for descending order (its largest value); NoRank when
// the item lacks the field.
func (f *Field) RankDesc(doc int) uint32 {
	_, hi := f.values.ranks(f.s.str, doc)
	return hi
}

// HasSortOrders reports whether the field has precomputed sort orders (top-level fields).
func (f *Field) HasSortOrders() bool { return f.permAsc.len() > 0 }

// SortedDoc returns the i-th item of the field's precomputed order: ascending by value
// or descending, ties by ContentID ascending, items without the field last (D6); -1
// when i is not below Len() or the file's order is damaged there.
func (f *Field) SortedDoc(i int, desc bool) int {
	var one [1]int32
	if f.SortedDocs(one[:], i, desc) == 0 {
		return -1
	}
	return int(one[0])
}

// SortedDocs fills dst with items i, i+1, … of the field's precomputed order, as
// SortedDoc returns them (-1 where the file's order is damaged), and returns how many
// it filled: fewer than len(dst) at the order's end, none when i is out of range or the
// field has no order. A walk down an order reads it this way, a run at a time: the std
// module in wazero pays dearly for a call per item.
func (f *Field) SortedDocs(dst []int32, i int, desc bool) int {
	arr := f.permAsc
	if desc {
		arr = f.permDesc
	}
	n := f.s.n
	if i < 0 || i >= n || arr.len() == 0 {
		return 0
	}
	dst = dst[:min(len(dst), n-i)]
	s := f.s.str
	switch w := uint(f.permWidth); {
	case w == 0: // u32 (format 3.0); the span holds n of them (checked at open)
		b := s[arr.off+4*i : arr.off+4*(i+len(dst))]
		for k := range dst {
			dst[k] = int32(le32(b[4*k:]))
		}
	case w <= 25: // packed, each item number within 4 bytes
		mask := uint32(1)<<w - 1
		for k := range dst {
			bit := uint(i+k) * w
			dst[k] = int32(le32(s[arr.off+int(bit>>3):]) >> (bit & 7) & mask)
		}
	default:
		for k := range dst {
			dst[k] = int32(packedAt(s, arr.off, uint32(i+k), f.permWidth))
		}
	}
	for k, v := range dst {
		if uint32(v) >= uint32(n) {
			dst[k] = -1 // a damaged order names no item
		}
	}
	return len(dst)
}

// chainError is an error that says what happened in terms of a cause (the role fmt's
// "%w: %w" plays; the reader avoids fmt, which costs the wasm module about 30 KB).
// errors.Is and errors.As see both kind and cause.
type chainError struct {
	kind  error
	cause error
}

func (e *chainError) Error() string   { return e.kind.Error() + ": " + e.cause.Error() }
func (e *chainError) Unwrap() []error { return []error{e.kind, e.cause} }

// wrap returns an error reading "kind: cause" that matches both.
func wrap(kind, cause error) error { return &chainError{kind: kind, cause: cause} }

// wrapf returns an error reading "kind: detail" that matches kind.
func wrapf(kind error, detail string) error {
	return &chainError{kind: kind, cause: errors.New(detail)}
}

// hex32 formats v as eight lower-case hex digits, as %08x does.
func hex32(v uint32) string {
	s := strconv.FormatUint(uint64(v), 16)
	return strings.Repeat("0", 8-len(s)) + s
}
