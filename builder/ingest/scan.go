package ingest

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/cdaedge/cdaedge/snapshot"
)

// This file holds a small hand-written JSON scanner. It validates one value in a single
// pass without building a tree, remembers byte offsets (for line and column in problem
// reports) and extracts only what the builder needs: the documented top-level members of
// an item (API.md D2) and the content references inside Data. It is several times
// faster than encoding/json and never rounds numbers (it never converts them).

// maxDepth bounds nesting so that hostile input cannot exhaust the stack.
const maxDepth = 10000

// syntaxError is invalid JSON at byte offset off of the scanned data.
type syntaxError struct {
	off int
	msg string
}

func (e *syntaxError) Error() string { return e.msg }

// kind is the type of a JSON value, as named in problem messages.
type kind uint8

const (
	kindNull kind = iota
	kindBool
	kindNumber
	kindString
	kindArray
	kindObject
)

func (k kind) String() string {
	return [...]string{"null", "boolean", "number", "string", "array", "object"}[k]
}

// segment is one step of a JSON pointer: an object key (a byte range of the scanned data,
// decoded only when a pointer is rendered) or an array index.
type segment struct {
	a, b  int // key bytes data[a:b], without quotes
	esc   bool
	index int // -1 for a key
}

// issue is a problem found inside one item, located by offset and pointer.
type issue struct {
	off int
	ptr string
	msg string
}

// contentRef is one id of a content reference element found inside Data (API.md D2).
type contentRef struct {
	off int
	ptr string
	id  string
}

// itemInfo is what scanning one item yields.
type itemInfo struct {
	object    bool
	contentID string
	hasID     bool // ContentID present and a non-empty string
	status    string
	hasStatus bool
	issues    []issue
	refs      []contentRef
}

// memberType is the documented type of a top-level member (spec "Content item").
var memberType = map[string]kind{
	"Status": kindString, "CreatedBy": kindString, "CreatedAt": kindString,
	"UpdatedBy": kindString, "UpdatedAt": kindString, "PublishedBy": kindString,
	"PublishedAt": kindString, "Name": kindString, "TemplateName": kindString,
	"TemplateID": kindString, "ContentID": kindString, "Data": kindObject,
}

// scanner reads JSON from data starting at pos.
type scanner struct {
	data  []byte
	pos   int
	depth int
	// itemDepth is depth outside the item being scanned (its own object is one level
	// deeper), for the item's nesting limit (snapshot.MaxItemDepth).
	itemDepth int
	prefix    string    // pointer of the item itself ("" for NDJSON, "/3" in a JSON array)
	path      []segment // current path below the item (top-level member first)
	inData    bool      // scanning inside the item's Data: content references count
	info      *itemInfo
	check     func(string) error // date check (API.md D5)
}

// container is what a separator closes: an object or an array.
type container struct {
	closing byte
	name    string // for messages: what it is, and what stands inside it
	element string
}

var (
	closeObject = container{'}', "object", "object member"}
	closeArray  = container{']', "array", "array element"}
)

// separator consumes what follows a member or element: a comma (done is false) or the
// container's closing bracket (done is true).
func (s *scanner) separator(c container) (done bool, err error) {
	s.skipWS()
	if s.pos >= len(s.data) {
		return false, s.fail(s.pos, "unexpected end of input in %s (expecting ',' or '%c')", c.name, c.closing)
	}
	switch s.data[s.pos] {
	case c.closing:
		s.pos++
		return true, nil
	case ',':
		s.pos++
		return false, nil
	}
	return false, s.fail(s.pos, "invalid %s after %s (expecting ',' or '%c')", s.describe(s.pos), c.element, c.closing)
}

func (s *scanner) fail(off int, format string, args ...any) error {
	return &syntaxError{off: off, msg: fmt.Sprintf(format, args...)}
}

// describe names the byte at off for a syntax error message.
func (s *scanner) describe(off int) string {
	if off >= len(s.data) {
		return "end of input"
	}
	c := s.data[off]
	if c >= utf8.RuneSelf {
		r, n := utf8.DecodeRune(s.data[off:])
		if r == utf8.RuneError && n <= 1 {
			return fmt.Sprintf("byte 0x%02x", c)
		}
		return fmt.Sprintf("character %q", r)
	}
	return fmt.Sprintf("character %q", rune(c))
}

func (s *scanner) skipWS() {
	for s.pos < len(s.data) {
		switch s.data[s.pos] {
		case ' ', '\t', '\n', '\r':
			s.pos++
		default:
			return
		}
	}
}

// item scans one item: a value that must be an object whose documented members have
// their documented types (API.md D2).
func (s *scanner) item(info *itemInfo) error {
	s.info = info
	s.skipWS()
	if s.pos >= len(s.data) || s.data[s.pos] != '{' {
		return s.nonObjectItem()
	}
	info.object = true
	start := s.pos
	s.pos++
	s.itemDepth = s.depth
	s.depth++
	var members itemMembers
	for first := true; ; first = false {
		s.skipWS()
		if first && s.pos < len(s.data) && s.data[s.pos] == '}' {
			s.pos++
			break
		}
		if err := s.itemMember(&members); err != nil {
			return err
		}
		if done, err := s.separator(closeObject); err != nil || done {
			if err != nil {
				return err
			}
			break
		}
	}
	s.depth--
	if !members.hasContentID {
		info.issues = append(info.issues, issue{off: start, ptr: s.prefix + "/ContentID",
			msg: "required member is missing"})
	}
	return nil
}

// nonObjectItem scans an item that does not start with '{': the value must still be
// valid JSON (a syntax error is returned as such), and then the item gets one issue
// naming what it is instead of an object.
func (s *scanner) nonObjectItem() error {
	start := s.pos
	k, err := s.value(false)
	if err != nil {
		return err
	}
	s.info.issues = append(s.info.issues, issue{off: start, ptr: s.prefix,
		msg: "item must be a JSON object, got " + article(k)})
	return nil
}

// itemMembers is what item remembers about the top-level members it has scanned.
type itemMembers struct {
	seen  [16]string      // documented members seen, in order; there are only 12, so this never fills
	nseen int             // used length of seen
	extra map[string]bool // undocumented members seen; allocated only when an item has one
	// hasContentID is set once a ContentID member was seen, even an invalid one: it
	// then gets its own issue instead of "required member is missing".
	hasContentID bool
}

// add records a top-level member name and reports whether the item already had it.
// Duplicates are ambiguous, so the caller reports them.
func (m *itemMembers) add(name string) (dup bool) {
	if _, documented := memberType[name]; documented {
		for _, n := range m.seen[:m.nseen] {
			dup = dup || n == name
		}
		if !dup && m.nseen < len(m.seen) {
			m.seen[m.nseen] = name
			m.nseen++
		}
		return dup
	}
	if m.extra == nil {
		m.extra = map[string]bool{}
	}
	dup = m.extra[name]
	m.extra[name] = true
	return dup
}

// itemMember scans one top-level member of an item, key and value, and records the
// issues it has: a duplicate name, or a documented member of the wrong type. It
// leaves pos after the value, before the separator.
func (s *scanner) itemMember(m *itemMembers) error {
	koff := s.pos
	a, b, esc, err := s.key()
	if err != nil {
		return err
	}
	name := s.decode(a, b, esc)
	ptr := s.prefix + "/" + escapePointer(name)
	dup := m.add(name)
	if dup {
		s.info.issues = append(s.info.issues, issue{off: koff, ptr: ptr, msg: "duplicate member"})
	}
	voff := s.pos
	want, documented := memberType[name]
	switch {
	case name == "Data":
		return s.dataMember(segment{a: a, b: b, esc: esc, index: -1}, voff, ptr)
	case documented && want == kindString:
		return s.stringMember(name, voff, ptr, dup, m)
	}
	// Any other member is kept verbatim: only its syntax and the duplicate member
	// names inside it are checked (tracking the path locates them).
	s.path = append(s.path[:0], segment{a: a, b: b, esc: esc, index: -1})
	_, err = s.value(true)
	return err
}

// dataMember scans the value of the item's Data member (key is its path segment,
// voff and ptr locate the value), collecting the content references inside it. Data
// must be an object; null counts as absent.
func (s *scanner) dataMember(key segment, voff int, ptr string) error {
	s.path = append(s.path[:0], key)
	s.inData = true
	k, err := s.value(true)
	s.inData = false
	if err != nil {
		return err
	}
	// null counts as absent (API.md D2 constrains values that are present;
	// Elasticsearch, too, indexes nothing for null). The item keeps it verbatim.
	if k == kindObject || k == kindNull {
		return nil
	}
	s.info.issues = append(s.info.issues, issue{off: voff, ptr: ptr,
		msg: "must be an object, got " + article(k)})
	return nil
}

// stringMember scans the value of a documented top-level member whose type is string
// (voff and ptr locate the value; dup is set when the name was seen before). It
// checks the type, takes ContentID and Status into the item's info (the first
// occurrence only) and checks the dates (API.md D5).
func (s *scanner) stringMember(name string, voff int, ptr string, dup bool, m *itemMembers) error {
	info := s.info
	if s.pos >= len(s.data) || s.data[s.pos] != '"' {
		k, err := s.value(false)
		if err != nil {
			return err
		}
		if k == kindNull && name != "ContentID" {
			return nil // null counts as absent, as for Data
		}
		info.issues = append(info.issues, issue{off: voff, ptr: ptr,
			msg: "must be a string, got " + article(k)})
		if name == "ContentID" {
			m.hasContentID = true
		}
		return nil
	}
	a, b, esc, err := s.str()
	if err != nil {
		return err
	}
	v := s.decode(a, b, esc)
	switch name {
	case "ContentID":
		m.hasContentID = true
		if v == "" {
			info.issues = append(info.issues, issue{off: voff, ptr: ptr,
				msg: "must be a non-empty string"})
		} else if !dup {
			info.contentID, info.hasID = v, true
		}
	case "Status":
		if !dup {
			info.status, info.hasStatus = v, true
		}
	case "CreatedAt", "UpdatedAt", "PublishedAt":
		if err := s.check(v); err != nil {
			info.issues = append(info.issues, issue{off: voff, ptr: ptr,
				msg: "must be an ISO 8601 date-time (API.md D5): " + err.Error()})
		}
	}
	return nil
}

// article returns "an object", "a string", ... for messages.
func article(k kind) string {
	switch k {
	case kindArray, kindObject:
		return "an " + k.String()
	case kindNull:
		return "null"
	}
	return "a " + k.String()
}

// key reads an object key and the colon after it.
func (s *scanner) key() (a, b int, esc bool, err error) {
	if s.pos >= len(s.data) {
		return 0, 0, false, s.fail(s.pos, "unexpected end of input in object (expecting a key)")
	}
	if s.data[s.pos] != '"' {
		return 0, 0, false, s.fail(s.pos, "invalid %s looking for beginning of object key string", s.describe(s.pos))
	}
	a, b, esc, err = s.str()
	if err != nil {
		return
	}
	s.skipWS()
	if s.pos >= len(s.data) {
		return 0, 0, false, s.fail(s.pos, "unexpected end of input after object key (expecting ':')")
	}
	if s.data[s.pos] != ':' {
		return 0, 0, false, s.fail(s.pos, "invalid %s after object key (expecting ':')", s.describe(s.pos))
	}
	s.pos++
	s.skipWS()
	return
}

// value scans any value at pos. Inside Data (track), it maintains the path and records
// content references.
func (s *scanner) value(track bool) (kind, error) {
	if s.pos >= len(s.data) {
		return 0, s.fail(s.pos, "unexpected end of input (expecting a value)")
	}
	switch c := s.data[s.pos]; {
	case c == '{':
		return kindObject, s.object(track)
	case c == '[':
		return kindArray, s.array(track, nil)
	case c == '"':
		_, _, _, err := s.str()
		return kindString, err
	case c == '-' || (c >= '0' && c <= '9'):
		return kindNumber, s.number()
	case c == 't':
		return kindBool, s.literal("true")
	case c == 'f':
		return kindBool, s.literal("false")
	case c == 'n':
		return kindNull, s.literal("null")
	}
	return 0, s.fail(s.pos, "invalid %s looking for beginning of value", s.describe(s.pos))
}

func (s *scanner) literal(lit string) error {
	for i := 0; i < len(lit); i++ {
		if s.pos+i >= len(s.data) || s.data[s.pos+i] != lit[i] {
			return s.fail(s.pos+i, "invalid %s in literal %s", s.describe(s.pos+i), lit)
		}
	}
	s.pos += len(lit)
	return nil
}

func (s *scanner) number() error {
	d, p := s.data, s.pos
	if p < len(d) && d[p] == '-' {
		p++
	}
	digits := func() int {
		n := 0
		for p < len(d) && d[p] >= '0' && d[p] <= '9' {
			p++
			n++
		}
		return n
	}
	switch {
	case p < len(d) && d[p] == '0':
		p++
	case digits() == 0:
		return s.fail(p, "invalid %s in number (expecting a digit)", s.describe(p))
	}
	if p < len(d) && d[p] == '.' {
		p++
		if digits() == 0 {
			return s.fail(p, "invalid %s after decimal point in number", s.describe(p))
		}
	}
	if p < len(d) && (d[p] == 'e' || d[p] == 'E') {
		p++
		if p < len(d) && (d[p] == '+' || d[p] == '-') {
			p++
		}
		if digits() == 0 {
			return s.fail(p, "invalid %s in exponent of number", s.describe(p))
		}
	}
	s.pos = p
	return nil
}

// str scans a string at pos, validating escapes and UTF-8; a and b bound its contents.
func (s *scanner) str() (a, b int, esc bool, err error) {
	d := s.data
	p := s.pos + 1
	a = p
	for {
		if p >= len(d) {
			return 0, 0, false, s.fail(p, "unexpected end of input in string literal")
		}
		c := d[p]
		switch {
		case c == '"':
			s.pos = p + 1
			return a, p, esc, nil
		case c == '\\':
			esc = true
			if p+1 >= len(d) {
				return 0, 0, false, s.fail(p+1, "unexpected end of input in string escape")
			}
			switch d[p+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				p += 2
			case 'u':
				for i := 2; i < 6; i++ {
					if p+i >= len(d) || !isHex(d[p+i]) {
						return 0, 0, false, s.fail(p+i, "invalid %s in \\u escape", s.describe(p+i))
					}
				}
				p += 6
			default:
				return 0, 0, false, s.fail(p+1, "invalid escape \\%s in string literal", string(rune(d[p+1])))
			}
		case c < 0x20:
			return 0, 0, false, s.fail(p, "invalid control character 0x%02x in string literal (must be escaped)", c)
		case c < utf8.RuneSelf:
			p++
		default:
			r, n := utf8.DecodeRune(d[p:])
			if r == utf8.RuneError && n <= 1 {
				return 0, 0, false, s.fail(p, "invalid UTF-8 byte 0x%02x in string literal", c)
			}
			p += n
		}
	}
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// decode returns the value of the string data[a:b] (already validated).
func (s *scanner) decode(a, b int, esc bool) string {
	if !esc {
		return string(s.data[a:b])
	}
	return unescape(s.data[a:b])
}

// unescape decodes the contents of a validated JSON string literal. Lone surrogates
// become U+FFFD, as encoding/json decodes them.
func unescape(raw []byte) string {
	var sb strings.Builder
	sb.Grow(len(raw))
	for i := 0; i < len(raw); {
		c := raw[i]
		if c != '\\' {
			sb.WriteByte(c)
			i++
			continue
		}
		switch raw[i+1] {
		case 'b':
			sb.WriteByte('\b')
		case 'f':
			sb.WriteByte('\f')
		case 'n':
			sb.WriteByte('\n')
		case 'r':
			sb.WriteByte('\r')
		case 't':
			sb.WriteByte('\t')
		case 'u':
			r := rune(hex4(raw[i+2:]))
			i += 6
			if r >= 0xD800 && r < 0xDC00 {
				if i+6 <= len(raw) && raw[i] == '\\' && raw[i+1] == 'u' {
					r2 := rune(hex4(raw[i+2:]))
					if r2 >= 0xDC00 && r2 < 0xE000 {
						sb.WriteRune((r-0xD800)<<10 + (r2 - 0xDC00) + 0x10000)
						i += 6
						continue
					}
				}
				r = utf8.RuneError
			} else if r >= 0xDC00 && r < 0xE000 {
				r = utf8.RuneError
			}
			sb.WriteRune(r)
			continue
		default: // '"', '\\', '/'
			sb.WriteByte(raw[i+1])
		}
		i += 2
	}
	return sb.String()
}

func hex4(b []byte) int {
	v := 0
	for _, c := range b[:4] {
		switch {
		case c >= '0' && c <= '9':
			v = v<<4 | int(c-'0')
		case c >= 'a' && c <= 'f':
			v = v<<4 | int(c-'a'+10)
		default:
			v = v<<4 | int(c-'A'+10)
		}
	}
	return v
}

func (s *scanner) enter() error {
	s.depth++
	if s.depth > maxDepth {
		return s.fail(s.pos, "nesting deeper than %d levels", maxDepth)
	}
	if s.info != nil && s.depth-s.itemDepth == snapshot.MaxItemDepth+1 {
		s.info.issues = append(s.info.issues, issue{off: s.pos, ptr: s.pointer(),
			msg: fmt.Sprintf("nests objects and arrays more than %d levels deep (the most an item may)", snapshot.MaxItemDepth)})
	}
	return nil
}

// object scans an object. Inside Data it recognises a content reference element
// {"Type":"Reference","ReferenceType":"Content","ContentIDs":[...]} (API.md D2).
func (s *scanner) object(track bool) error {
	if err := s.enter(); err != nil {
		return err
	}
	s.pos++ // '{'
	var typ, refType string
	var ids []contentRef
	idsOK := false
	var keys keySet
	for first := true; ; first = false {
		s.skipWS()
		if first && s.pos < len(s.data) && s.data[s.pos] == '}' {
			s.pos++
			break
		}
		a, b, esc, err := s.key()
		if err != nil {
			return err
		}
		if keys.add(s, a, b, esc) && track {
			// The snapshot writer refuses duplicate member names anywhere: they are
			// ambiguous (API.md D2, "nothing is lost").
			s.path = append(s.path, segment{a: a, b: b, esc: esc, index: -1})
			s.info.issues = append(s.info.issues, issue{off: a - 1, ptr: s.pointer(), msg: "duplicate member"})
			s.path = s.path[:len(s.path)-1]
		}
		if track {
			s.path = append(s.path, segment{a: a, b: b, esc: esc, index: -1})
			name := s.data[a:b]
			switch {
			case esc:
				_, err = s.value(true)
			case string(name) == "Type" || string(name) == "ReferenceType":
				if s.pos < len(s.data) && s.data[s.pos] == '"' {
					var va, vb int
					var vesc bool
					va, vb, vesc, err = s.str()
					if err == nil {
						if string(name) == "Type" {
							typ = s.decode(va, vb, vesc)
						} else {
							refType = s.decode(va, vb, vesc)
						}
					}
				} else {
					_, err = s.value(true)
				}
			case string(name) == "ContentIDs" && s.pos < len(s.data) && s.data[s.pos] == '[':
				ids = ids[:0]
				idsOK = true
				err = s.array(true, &ids)
			default:
				_, err = s.value(true)
			}
			s.path = s.path[:len(s.path)-1]
		} else {
			_, err = s.value(false)
		}
		if err != nil {
			return err
		}
		if done, err := s.separator(closeObject); err != nil || done {
			if err != nil {
				return err
			}
			break
		}
	}
	if track && s.inData && idsOK && typ == "Reference" && refType == "Content" {
		s.info.refs = append(s.info.refs, ids...)
	}
	s.depth--
	return nil
}

// array scans an array. With ids non-nil (the ContentIDs of a possible content
// reference), it collects the string elements with their pointers.
func (s *scanner) array(track bool, ids *[]contentRef) error {
	if err := s.enter(); err != nil {
		return err
	}
	s.pos++ // '['
	for i := 0; ; i++ {
		s.skipWS()
		if i == 0 && s.pos < len(s.data) && s.data[s.pos] == ']' {
			s.pos++
			break
		}
		if track {
			s.path = append(s.path, segment{index: i})
		}
		var err error
		if ids != nil && s.pos < len(s.data) && s.data[s.pos] == '"' {
			off := s.pos
			var a, b int
			var esc bool
			a, b, esc, err = s.str()
			if err == nil {
				*ids = append(*ids, contentRef{off: off, ptr: s.pointer(), id: s.decode(a, b, esc)})
			}
		} else {
			_, err = s.value(track)
		}
		if track {
			s.path = s.path[:len(s.path)-1]
		}
		if err != nil {
			return err
		}
		if done, err := s.separator(closeArray); err != nil || done {
			if err != nil {
				return err
			}
			break
		}
	}
	s.depth--
	return nil
}

// pointer renders the current path inside Data as a JSON pointer (RFC 6901).
func (s *scanner) pointer() string {
	var sb strings.Builder
	sb.WriteString(s.prefix)
	for _, seg := range s.path {
		sb.WriteByte('/')
		if seg.index >= 0 {
			sb.WriteString(strconv.Itoa(seg.index))
		} else {
			sb.WriteString(escapePointer(s.decode(seg.a, seg.b, seg.esc)))
		}
	}
	return sb.String()
}

// escapePointer escapes one reference token of a JSON pointer (RFC 6901).
func escapePointer(tok string) string {
	if !strings.ContainsAny(tok, "~/") {
		return tok
	}
	return strings.NewReplacer("~", "~0", "/", "~1").Replace(tok)
}

// keySet detects duplicate keys of one object: a linear scan over byte ranges for small
// objects (the usual case, no allocation), a map beyond that.
type keySet struct {
	small [8][2]int
	n     int
	big   map[string]struct{}
	esc   bool
}

// add records the key data[a:b] and reports whether the object already had it.
func (k *keySet) add(s *scanner, a, b int, esc bool) bool {
	if esc || k.esc || k.n == len(k.small) {
		if k.big == nil {
			k.big = make(map[string]struct{}, 2*len(k.small))
			for _, r := range k.small[:k.n] {
				k.big[unescape(s.data[r[0]:r[1]])] = struct{}{}
			}
			k.esc = true
		}
		name := s.decode(a, b, esc)
		_, dup := k.big[name]
		k.big[name] = struct{}{}
		return dup
	}
	key := s.data[a:b]
	for _, r := range k.small[:k.n] {
		if string(s.data[r[0]:r[1]]) == string(key) {
			return true
		}
	}
	k.small[k.n] = [2]int{a, b}
	k.n++
	return false
}
