package snapshot

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/tidwall/gjson"
)

// valueCase is one item's values of the field under test, as JSON, and what Values
// must give back.
type valueCase struct {
	json string // the member's JSON, "" for an item without it
	want string // Values rendered by renderValues
}

// renderValues prints values as kind:value, numbers with their sign bit.
func renderValues(f *Field, vals []Value) string {
	var parts []string
	for _, v := range vals {
		switch v.Kind {
		case KindNumber:
			parts = append(parts, fmt.Sprintf("n:%v/%v", v.Number, math.Signbit(v.Number)))
		case KindDate:
			parts = append(parts, fmt.Sprintf("d:%d", v.Millis))
		case KindString:
			parts = append(parts, "s:"+f.Keyword().Term(int(v.Ord)))
		case KindBool:
			parts = append(parts, fmt.Sprintf("b:%v", v.Bool))
		}
	}
	return strings.Join(parts, ",")
}

// TestValueColumns builds fields of every shape a value column takes (dense and
// sparse, single- and multi-valued, mixed kinds, -0 beside 0, presence across
// directory blocks) and reads every item's values and ranks back.
func TestValueColumns(t *testing.T) {
	tests := []struct {
		name  string
		items int
		at    func(i int) valueCase
	}{
		{"dense numbers with -0 and 0", 5, func(i int) valueCase {
			return [...]valueCase{{"-0", "n:-0/true"}, {"0", "n:0/false"}, {"1.5", "n:1.5/false"}, {"-2", "n:-2/true"}, {"0", "n:0/false"}}[i]
		}},
		{"sparse strings across directory blocks", 1500, func(i int) valueCase {
			if i%7 != 3 && i != 1499 {
				return valueCase{}
			}
			s := fmt.Sprintf("v%03d", i%97)
			return valueCase{`"` + s + `"`, "s:" + s}
		}},
		{"dense strings", 300, func(i int) valueCase {
			s := fmt.Sprintf("w%02d", i%13)
			return valueCase{`"` + s + `"`, "s:" + s}
		}},
		{"multi-valued mixed kinds with duplicates", 700, func(i int) valueCase {
			switch i % 5 {
			case 0:
				return valueCase{}
			case 1:
				return valueCase{`[3, "x", true, 3]`, "n:3/false,s:x,b:true,n:3/false"}
			case 2:
				return valueCase{`["b", "a"]`, "s:b,s:a"}
			case 3:
				return valueCase{`false`, "b:false"}
			}
			return valueCase{fmt.Sprintf("[%d]", i), fmt.Sprintf("n:%d/false", i)}
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			items := make([]string, tc.items)
			for i := range items {
				member := ""
				if c := tc.at(i); c.json != "" {
					member = `,"Data":{"v":` + c.json + `}`
				}
				items[i] = fmt.Sprintf(`{"ContentID":"Content_%05d","Status":"Published"%s}`, i, member)
			}
			s, err := Open(build(t, false, items...))
			if err != nil {
				t.Fatal(err)
			}
			f := s.Field("Data.v")
			if f == nil {
				t.Fatal("no field Data.v")
			}
			var vals []Value
			for doc := range tc.items {
				c := tc.at(doc)
				vals = f.Values(vals[:0], doc)
				if got := renderValues(f, vals); got != c.want {
					t.Fatalf("item %d: values %q, want %q", doc, got, c.want)
				}
				if asc, desc := f.RankAsc(doc), f.RankDesc(doc); (asc == NoRank) != (c.json == "") || (desc == NoRank) != (c.json == "") || asc > desc {
					t.Fatalf("item %d: ranks %d, %d", doc, asc, desc)
				}
			}
			checkRanksOrder(t, f, tc.items)
			checkEntries(t, f, tc.items)
		})
	}
}

// checkEntries checks AppendValueEntries, AppendEntries and Entry against Values:
// each item's entries hold its values, over all the items and over every third (words
// of the presence bitmap skipped), and past the end none.
func checkEntries(t *testing.T, f *Field, n int) {
	t.Helper()
	for _, step := range []int{1, 3} {
		var docs []int
		for doc := 0; doc < n; doc += step {
			docs = append(docs, doc)
		}
		docs = append(docs, n) // past the end
		entries, owners := f.AppendValueEntries([]uint32{7}, []int32{-1}, docs)
		single := f.AppendEntries([]uint32{7}, docs)
		if len(owners) != len(entries) || entries[0] != 7 || owners[0] != -1 || len(single) != len(docs)+1 || single[0] != 7 {
			t.Fatalf("AppendValueEntries gave %d entries and %d owners, AppendEntries %d entries for %d items", len(entries), len(owners), len(single), len(docs))
		}
		k := 1
		for i, doc := range docs {
			var got []Value
			for ; k < len(entries) && owners[k] == int32(i); k++ {
				got = append(got, f.Entry(entries[k]))
			}
			want := f.Values(nil, doc)
			if !slices.Equal(got, want) {
				t.Fatalf("item %d: entries hold %v, values %v", doc, got, want)
			}
			e := single[i+1]
			switch {
			case !f.SingleValued() || len(want) == 0:
				if e != NoEntry {
					t.Fatalf("item %d (SingleValued %v, values %v): entry %d, want none", doc, f.SingleValued(), want, e)
				}
			case f.Entry(e) != want[0]:
				t.Fatalf("item %d: entry %d holds %v, values %v", doc, e, f.Entry(e), want)
			}
		}
		if k != len(entries) {
			t.Fatalf("%d entries of no item", len(entries)-k)
		}
	}
	if f.Entry(uint32(f.Entries())) != (Value{}) || f.Entry(NoEntry) != (Value{}) {
		t.Fatalf("an entry past the table's end is not the zero Value")
	}
}

// checkRanksOrder checks that the ranks of any two items order them as their smallest
// (ascending) and largest (descending) values compare.
func checkRanksOrder(t *testing.T, f *Field, n int) {
	t.Helper()
	type bound struct {
		v  buildValue
		ok bool
	}
	bounds := func(doc int) (lo, hi bound) {
		for _, v := range f.Values(nil, doc) {
			bv := buildValue{kind: v.Kind}
			switch v.Kind {
			case KindNumber:
				bv.bits = math.Float64bits(v.Number)
			case KindDate:
				bv.bits = uint64(v.Millis)
			case KindBool:
				bv.bits = uint64(boolInt(v.Bool))
			}
			if v.Kind == KindString {
				bv.str = f.Keyword().Term(int(v.Ord))
			}
			if !lo.ok || compareValues(bv, lo.v) < 0 {
				lo = bound{bv, true}
			}
			if !hi.ok || compareValues(bv, hi.v) > 0 {
				hi = bound{bv, true}
			}
		}
		return lo, hi
	}
	sign := func(x int) int { return min(1, max(-1, x)) }
	for a := 0; a < n; a += 3 {
		for b := 0; b < n; b += 5 {
			la, ha := bounds(a)
			lb, hb := bounds(b)
			if la.ok && lb.ok {
				want := sign(compareValues(la.v, lb.v))
				if got := sign(int(int64(f.RankAsc(a)) - int64(f.RankAsc(b)))); got != want {
					t.Fatalf("items %d, %d: ascending ranks compare %d, values %d", a, b, got, want)
				}
				want = sign(compareValues(ha.v, hb.v))
				if got := sign(int(int64(f.RankDesc(a)) - int64(f.RankDesc(b)))); got != want {
					t.Fatalf("items %d, %d: descending ranks compare %d, values %d", a, b, got, want)
				}
			}
		}
	}
}

// TestValueColumnRejects checks that a column whose header promises more than its
// bytes hold is refused at open, not read out of bounds later.
func TestValueColumnRejects(t *testing.T) {
	h := valuesHeader{items: 3, distinct: 3, values: 3, kinds: [4]uint32{3, 0, 0, 0}, ordWidth: 2, flags: valuesDense}
	good := h.append(nil)
	good = append(good, make([]byte, 3*8)...)
	good = appendPacked(good, []uint32{0, 1, 2}, 2)
	if _, err := openValues(string(good), span{0, len(good)}, 3); err != nil {
		t.Fatalf("a well-formed column: %v", err)
	}
	for name, mutate := range map[string]func(h *valuesHeader){
		"truncated":      func(h *valuesHeader) { h.kinds[0], h.distinct = 300, 300 },
		"kinds mismatch": func(h *valuesHeader) { h.kinds[1] = 1 },
		"wide ordinals":  func(h *valuesHeader) { h.ordWidth = 33 },
		"dense but few":  func(h *valuesHeader) { h.items, h.values = 2, 2 },
		"three booleans": func(h *valuesHeader) { h.kinds = [4]uint32{0, 0, 0, 3} },
	} {
		bad := h
		mutate(&bad)
		b := append(bad.append(nil), good[valuesHeaderSize:]...)
		if _, err := openValues(string(b), span{0, len(b)}, 3); err == nil {
			t.Errorf("%s: opened", name)
		}
	}
}

// TestSortOrders checks the precomputed orders of a top-level field over enough items
// that the packed item numbers (10 bits at 600 items) straddle bytes: ascending by
// value, descending, ties by ContentID, items without the field last either way.
func TestSortOrders(t *testing.T) {
	const n = 600
	items := make([]string, n)
	for i := range n {
		name := ""
		if i%7 != 3 { // some items lack the field
			name = fmt.Sprintf(`,"Name":"n%03d"`, (i*37)%50) // many ties
		}
		items[i] = fmt.Sprintf(`{"ContentID":"c%04d","Status":"Published"%s}`, i, name)
	}
	s, err := Open(build(t, false, items...))
	if err != nil {
		t.Fatal(err)
	}
	f := s.Field("Name")
	if !f.HasSortOrders() || f.permWidth != 10 {
		t.Fatalf("Name: sort orders %v, width %d", f.HasSortOrders(), f.permWidth)
	}
	value := func(doc int) (string, bool) {
		v := gjson.Get(s.Item(doc), "Name")
		return v.String(), v.Exists()
	}
	for _, desc := range []bool{false, true} {
		for i := 1; i < n; i++ {
			a, b := f.SortedDoc(i-1, desc), f.SortedDoc(i, desc)
			va, hasA := value(a)
			vb, hasB := value(b)
			ordered := hasA && !hasB || hasA == hasB && (va == vb && a < b || va != vb && (va < vb) != desc)
			if !ordered {
				t.Fatalf("desc %v: item %d (%q) before item %d (%q)", desc, a, va, b, vb)
			}
		}
	}
	if f.SortedDoc(n, false) != -1 || f.SortedDoc(-1, true) != -1 {
		t.Error("SortedDoc out of range is not -1")
	}
}

// TestSortOrdersFormat30 reads orders as format 3.0 stored them (u32 per item, no
// packed flag) and checks that an order naming no item reads as -1 in both layouts.
func TestSortOrdersFormat30(t *testing.T) {
	var u32s, packed []byte
	u32s = appendU32s(u32s, []uint32{2, 0, 1, 7})
	packed = appendPacked(packed, []uint32{2, 0, 3}, 2)
	base := string(u32s) + string(packed)
	s := &Snapshot{str: base, n: 3}
	old := Field{s: s, permAsc: span{0, 12}, permDesc: span{4, 16}}
	if got := []int{old.SortedDoc(0, false), old.SortedDoc(1, false), old.SortedDoc(2, false), old.SortedDoc(2, true)}; fmt.Sprint(got) != "[2 0 1 -1]" {
		t.Errorf("u32 orders read %v", got)
	}
	cur := Field{s: s, permAsc: span{16, len(base)}, permDesc: span{16, len(base)}, permWidth: 2}
	if got := []int{cur.SortedDoc(0, false), cur.SortedDoc(1, true), cur.SortedDoc(2, false), cur.SortedDoc(3, false)}; fmt.Sprint(got) != "[2 0 -1 -1]" {
		t.Errorf("packed orders read %v", got)
	}
}
