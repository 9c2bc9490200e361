package snapshot

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/cdaedge/cdaedge/builder/gen"
	"github.com/tidwall/gjson"
)

var sampleItems = []string{
	`{"ContentID":"Content_b","Name":"Café Müller","Status":"Published","CreatedAt":"2021-04-23T10:00:00.000Z","Data":{"price":19.90,"tags":["red","blue"],"body":"<p>Hello <strong>wor</strong>ld</p>"},"ParentID":"Content_a"}`,
	`{"Status":"Published","ContentID":"Content_a","Name":"Erian Suwandi","CreatedAt":"2020-01-01T00:00:00.000Z","Data":{"price":10,"tags":"green"}}`,
	`{"ContentID":"Content_c","Status":"Published","Data":{"price":1e3,"flag":true}}`,
}

func build(t testing.TB, preview bool, items ...string) []byte {
	t.Helper()
	w, err := NewWriter("demo", preview)
	if err != nil {
		t.Fatal(err)
	}
	for _, it := range items {
		if err := w.Add([]byte(it)); err != nil {
			t.Fatal(err)
		}
	}
	b, err := w.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestRoundTripAndOrder(t *testing.T) {
	s, err := Open(build(t, false, sampleItems...))
	if err != nil {
		t.Fatal(err)
	}
	if s.Environment() != "demo" || s.Preview() || s.Len() != 3 {
		t.Fatalf("header: env %q preview %v len %d", s.Environment(), s.Preview(), s.Len())
	}
	// D2: documented members in the documented order, others after, in source order;
	// number text kept exactly.
	want := `{"Status":"Published","CreatedAt":"2021-04-23T10:00:00.000Z","Data":{"price":19.90,"tags":["red","blue"],"body":"<p>Hello <strong>wor</strong>ld</p>"},"Name":"Café Müller","ContentID":"Content_b","ParentID":"Content_a"}`
	if got := s.Item(1); got != want {
		t.Errorf("item 1:\n got %s\nwant %s", got, want)
	}
	for i, id := range []string{"Content_a", "Content_b", "Content_c"} {
		if s.ContentID(i) != id {
			t.Errorf("ContentID(%d) = %q, want %q", i, s.ContentID(i), id)
		}
		if doc, ok := s.Lookup(id); !ok || doc != i {
			t.Errorf("Lookup(%q) = %d, %v", id, doc, ok)
		}
	}
	if _, ok := s.Lookup("Content_zz"); ok {
		t.Error("Lookup of a missing id succeeded")
	}
	if !slices.Equal(s.Statuses(), []string{"Published"}) {
		t.Errorf("statuses %v", s.Statuses())
	}
}

func TestDeterministic(t *testing.T) {
	a := build(t, false, sampleItems...)
	rev := slices.Clone(sampleItems)
	slices.Reverse(rev)
	b := build(t, false, rev...)
	if !bytes.Equal(a, b) {
		t.Fatal("same items in another order gave different bytes")
	}
}

func TestFieldIndexes(t *testing.T) {
	s, err := Open(build(t, false, sampleItems...))
	if err != nil {
		t.Fatal(err)
	}
	tags := s.Field("Data.tags")
	if tags == nil || !tags.MultiValued() {
		t.Fatalf("Data.tags: %+v", tags)
	}
	i, ok := tags.Text().Find("blue")
	if !ok {
		t.Fatal("term blue not found")
	}
	p := tags.Text().Postings(i)
	if doc := p.Next(); doc != 1 || p.Freq() != 1 || p.NextPosition() != 1+100 {
		t.Errorf("blue: doc %d freq %d", doc, p.Freq())
	}
	if p.Next() != -1 {
		t.Error("blue: more than one item")
	}
	price := s.Field("Data.price")
	var order []string
	for doc := range s.Len() {
		order = append(order, fmt.Sprint(price.RankAsc(doc)))
	}
	if got := fmt.Sprint(order); got != "[0 1 2]" { // 10 < 19.90 < 1e3
		t.Errorf("price ranks %s", got)
	}
	created := s.Field("CreatedAt")
	if !created.HasSortOrders() {
		t.Fatal("CreatedAt has no sort orders")
	}
	var desc []int
	for i := range s.Len() {
		desc = append(desc, created.SortedDoc(i, true))
	}
	if !slices.Equal(desc, []int{1, 0, 2}) { // newest first, missing last (D6)
		t.Errorf("CreatedAt desc = %v", desc)
	}
	if body := s.Field("Data.body"); body != nil {
		if _, ok := body.Keyword().Find("<p>Hello <strong>wor</strong>ld</p>"); !ok {
			t.Error("keyword form is not the raw value")
		}
	}
}

// TestDuplicateMemberPointer checks that a duplicate member at any depth is refused
// with the JSON pointer of its second occurrence, and that objects of more members than
// the checker scans linearly are checked too; and that an item nesting deeper than
// MaxItemDepth is refused with the pointer of the first value too deep.
func TestDuplicateMemberPointer(t *testing.T) {
	many := `{"ContentID":"x"`
	for i := range 40 {
		many += fmt.Sprintf(`,"m%d":%d`, i, i)
	}
	for _, c := range []struct{ item, want string }{
		{`{"ContentID":"x","Name":"a","Name":"b"}`, "/Name: duplicate member"},
		{`{"ContentID":"x","Data":{"list":[{"k":1},{"j":[1,{"k":1,"k":2}]}]}}`, "/Data/list/1/j/1/k: duplicate member"},
		{many + `,"m3":0}`, "/m3: duplicate member"},
		{many + `}`, ""},
		// MaxItemDepth levels, the item's own object and Data included, and one more.
		{`{"ContentID":"x","Data":` + strings.Repeat(`{"a":`, MaxItemDepth-2) + `[1]` + strings.Repeat("}", MaxItemDepth-2) + `}`, ""},
		{`{"ContentID":"x","Data":` + strings.Repeat(`{"a":`, MaxItemDepth-2) + `[[1]]` + strings.Repeat("}", MaxItemDepth-2) + `}`,
			"/Data" + strings.Repeat("/a", MaxItemDepth-2) + "/0: nests objects and arrays more than 64 levels deep (the most an item may)"},
	} {
		_, _, _, err := Canonicalize([]byte(c.item))
		if got := fmt.Sprint(err); c.want == "" && err != nil || c.want != "" && got != c.want {
			t.Errorf("%.60s: got %v, want %q", c.item, err, c.want)
		}
	}
}

func TestPublishedOnly(t *testing.T) {
	w, _ := NewWriter("demo", false)
	if err := w.Add([]byte(`{"ContentID":"x","Status":"Draft"}`)); err == nil {
		t.Error("a draft went into a published-only snapshot (D3)")
	}
	if err := w.Add([]byte(`{"ContentID":"x","Status":"Published","Name":"a","Name":"b"}`)); err == nil {
		t.Error("duplicate member accepted")
	}
	if _, err := NewWriter("bad/env", false); err == nil {
		t.Error("bad environment id accepted (D1)")
	}
}

func TestOpenRejects(t *testing.T) {
	good := build(t, false, sampleItems...)
	indexLen, err := IndexLen(good)
	if err != nil {
		t.Fatal(err)
	}
	flip := slices.Clone(good)
	flip[indexLen/2] ^= 1
	bodyFlip := slices.Clone(good)
	bodyFlip[len(bodyFlip)-2] ^= 1
	major := slices.Clone(good)
	binary.LittleEndian.PutUint16(major[offMajor:], 9)
	v1 := slices.Clone(good)
	binary.LittleEndian.PutUint16(v1[offMajor:], 1)
	for name, tc := range map[string]struct {
		data []byte
		want error
	}{
		"empty":              {nil, ErrNotSnapshot},
		"magic":              {[]byte("hello world, this is not a snapshot at all, no sir, not one bit of it......"), ErrNotSnapshot},
		"bit flip":           {flip, ErrChecksum},
		"bit flip in a body": {bodyFlip, ErrChecksum},
		"version":            {major, ErrVersion},
		"format 1":           {v1, ErrVersion},
		"truncated":          {good[:len(good)-3], ErrCorrupt},
		"truncated index":    {good[:indexLen-1], ErrCorrupt},
	} {
		if _, err := Open(tc.data); !errors.Is(err, tc.want) {
			t.Errorf("%s: err = %v, want %v", name, err, tc.want)
		}
		if err := Verify(tc.data); !errors.Is(err, tc.want) {
			t.Errorf("Verify %s: err = %v, want %v", name, err, tc.want)
		}
	}
	if err := Verify(good); err != nil {
		t.Errorf("Verify of a good file: %v", err)
	}
	if err := Verify(good[:indexLen]); err != nil {
		t.Errorf("Verify of a good file's index part: %v", err)
	}
	if err := Verify(v1); err == nil || !strings.Contains(err.Error(), "rebuild") {
		t.Errorf("a format 1 file: %v, want a message that says to rebuild it", err)
	}
}

// TestOpenVerified: OpenVerified does no checksum pass (a flipped byte inside an item goes
// through, and the same answers come out as from Open), but still refuses what is not a
// snapshot of its version or whose structure is out of bounds.
func TestOpenVerified(t *testing.T) {
	good := build(t, false, sampleItems...)
	a, err := Open(good)
	if err != nil {
		t.Fatal(err)
	}
	b, err := OpenVerified(good)
	if err != nil {
		t.Fatal(err)
	}
	for i := range a.Len() {
		if a.Item(i) != b.Item(i) || a.ContentID(i) != b.ContentID(i) {
			t.Fatalf("item %d differs", i)
		}
	}
	if !slices.Equal(a.FieldNames(), b.FieldNames()) || a.Version() != b.Version() {
		t.Fatal("fields or version differ")
	}
	flip := slices.Clone(good)
	flip[a.Sections()[1].Offset] ^= 1 // inside a section's bytes, not its bounds
	if _, err := OpenVerified(flip); err != nil {
		t.Errorf("OpenVerified checksummed: %v", err)
	}
	major := slices.Clone(good)
	binary.LittleEndian.PutUint16(major[offMajor:], 9)
	table := slices.Clone(good)
	binary.LittleEndian.PutUint64(table[offTable:], uint64(len(table)+1))
	for name, tc := range map[string]struct {
		data []byte
		want error
	}{
		"magic":   {[]byte("hello world, this is not a snapshot at all, no sir, not one bit of it......"), ErrNotSnapshot},
		"version": {major, ErrVersion},
		"table":   {table, ErrCorrupt},
	} {
		if _, err := OpenVerified(tc.data); !errors.Is(err, tc.want) {
			t.Errorf("%s: err = %v, want %v", name, err, tc.want)
		}
	}
}

func TestLengthEncodingMatchesLucene(t *testing.T) {
	// Values from Lucene's TestSmallFloat: byte4ToInt(intToByte4(i)) <= i, exact below 24.
	for i := 0; i < 24; i++ {
		if DecodeLength(EncodeLength(i)) != i {
			t.Errorf("length %d not exact", i)
		}
	}
	prev := -1
	for i := 0; i < 1<<20; i++ {
		d := DecodeLength(EncodeLength(i))
		if d > i || d < prev {
			t.Fatalf("length %d decodes to %d", i, d)
		}
		prev = d
	}
	if DecodeLength(255) != 2013265944 {
		t.Errorf("byte 255 decodes to %d", DecodeLength(255))
	}
}

// TestIDsMatchItems: every stored ContentID is the ContentID member of its item, and
// Lookup finds every item (run on a few hundred generated-like items).
func TestIDsMatchItems(t *testing.T) {
	var items []string
	for i := 0; i < 300; i++ {
		items = append(items, fmt.Sprintf(`{"ContentID":"Content_%04d","Status":"Published","Name":"item %d","Data":{"body":"<p>text %d</p>","n":%d}}`, (i*7919)%300, i, i, i))
	}
	s, err := Open(build(t, false, items...))
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < s.Len(); i++ {
		want := gjson.Get(s.Item(i), "ContentID").String()
		if got := s.ContentID(i); got != want {
			t.Fatalf("ContentID(%d) = %q, item says %q", i, got, want)
		}
		if doc, ok := s.Lookup(want); !ok || doc != i {
			t.Fatalf("Lookup(%q) = %d, %v", want, doc, ok)
		}
	}
}

// TestAddCopiesItsInput: the writer keeps nothing that aliases the caller's buffer.
func TestAddCopiesItsInput(t *testing.T) {
	w, _ := NewWriter("demo", false)
	buf := []byte(`{"ContentID":"Content_1","Status":"Published"}`)
	if err := w.Add(buf); err != nil {
		t.Fatal(err)
	}
	copy(buf, `{"ContentID":"Content_X","Status":"Published"}`)
	b, _ := w.Bytes()
	s, err := Open(b)
	if err != nil {
		t.Fatal(err)
	}
	if s.ContentID(0) != "Content_1" {
		t.Errorf("ContentID %q: the writer aliased its input", s.ContentID(0))
	}
}

// TestIndexRangesMerge checks that indexing the items in several ranges at once and
// merging them gives the bytes of one pass: fields that some ranges lack, multi-valued
// fields, postings that continue across ranges.
func TestIndexRangesMerge(t *testing.T) {
	var in bytes.Buffer
	if err := gen.Generate(&in, gen.Options{Items: 600, Seed: 7}); err != nil {
		t.Fatal(err)
	}
	build := func(ranges int, validated bool) []byte {
		w, _ := NewWriter("demo", true)
		w.ranges = ranges
		for _, line := range bytes.Split(bytes.TrimSpace(in.Bytes()), []byte("\n")) {
			add := w.Add
			if validated {
				add = w.AddValidated
			}
			if err := add(line); err != nil {
				t.Fatal(err)
			}
		}
		out, err := w.Bytes()
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	want := build(1, false)
	for _, ranges := range []int{2, 3, 7} {
		if got := build(ranges, ranges == 3); !bytes.Equal(got, want) {
			t.Errorf("%d ranges: the snapshot differs from one range's", ranges)
		}
	}
}

// TestDottedMemberNameIsTheNestedField checks that a member named "a.b" and a member b
// of a member a index as one field, as their dotted paths are the same.
func TestDottedMemberNameIsTheNestedField(t *testing.T) {
	w, _ := NewWriter("demo", true)
	for _, item := range []string{
		`{"ContentID":"1","Data":{"a.b":"red","a":{"b":"blue"}}}`,
		`{"ContentID":"2","Data":{"a":{"b":"red"}}}`,
	} {
		if err := w.Add([]byte(item)); err != nil {
			t.Fatal(err)
		}
	}
	b, err := w.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	snap, err := Open(b)
	if err != nil {
		t.Fatal(err)
	}
	f := snap.Field("Data.a.b")
	if f == nil {
		t.Fatal("no field Data.a.b")
	}
	if f.DocCount() != 2 {
		t.Errorf("Data.a.b: %d items, want 2", f.DocCount())
	}
	dict := f.Keyword()
	i, ok := dict.Find("red")
	if !ok {
		t.Fatal("no keyword red")
	}
	if p := dict.Postings(i); p.DocFreq != 2 {
		t.Errorf("red: document frequency %d, want 2", p.DocFreq)
	}
	if !f.MultiValued() {
		t.Error("Data.a.b holds two values in item 1: want multi-valued")
	}
}
