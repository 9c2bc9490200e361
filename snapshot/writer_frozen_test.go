package snapshot

import (
	"fmt"
	"math"
	"reflect"
	"testing"
)

// TestSpilledColumnsAndDicts: a value column and a frozen dictionary read back from
// the spool equal what was spilled, whatever the values' kinds and bits; bytes read
// wrong give an empty column or dictionary, not a panic.
func TestSpilledColumnsAndDicts(t *testing.T) {
	sp, err := newSpool(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer sp.close()
	if err := sp.seal(); err != nil {
		t.Fatal(err)
	}
	vals := []buildValue{
		{kind: KindString, str: ""}, {kind: KindString, str: "Ünïcode \x00 text"},
		{kind: KindNumber, bits: math.Float64bits(math.Copysign(0, -1))},
		{kind: KindNumber, bits: math.Float64bits(math.NaN())}, {kind: KindNumber, bits: math.Float64bits(-1e300)},
		{kind: KindDate, bits: uint64(0xFFFF_FFFF_FFFF_0000), str: "1969-12-31T23:59:59Z"},
		{kind: KindBool, bits: 1}, {kind: KindBool},
	}
	col := valueColumn{vals: vals, ends: []uint32{0, 2, 2, 5, 8}}
	want := col
	col.spill(sp)
	if col.vals != nil || col.spilledSize == 0 {
		t.Fatalf("not spilled: %+v", col)
	}
	at := col.spilledAt
	col.load(sp)
	if !reflect.DeepEqual(col.vals, want.vals) || !reflect.DeepEqual(col.ends, want.ends) {
		t.Errorf("column read back %+v, want %+v", col, want)
	}

	table := newTermTable()
	for _, tb := range []struct {
		term string
		pb   postingBuf
	}{{"b", postingBuf{buf: []byte{1, 2}, df: 1}}, {"a", postingBuf{buf: []byte{3}, df: 1}}, {"c", postingBuf{buf: []byte{4, 5, 6}, df: 2}}} {
		pb, _ := table.get(tb.term)
		pb.buf, pb.df = tb.pb.buf, tb.pb.df
	}
	dict := freezeDict(table)
	wantDict := dict
	dict.spill(sp)
	got := dict.load(sp)
	if !reflect.DeepEqual(got.terms, wantDict.terms) || !reflect.DeepEqual(got.ends, wantDict.ends) ||
		!reflect.DeepEqual(got.dfs, wantDict.dfs) {
		t.Errorf("dictionary read back %+v, want %+v", got, wantDict)
	}
	for i := range wantDict.count {
		if l, want := got.list(i), wantDict.list(i); !reflect.DeepEqual(l, want) {
			t.Errorf("list %d read back %v, want %v", i, l, want)
		}
	}

	// The same places, over bytes that are not what was spilled.
	garbage := make([]byte, 64)
	for i := range garbage {
		garbage[i] = 0xFF
	}
	bad := sp.store(garbage)
	for _, c := range []valueColumn{{spilledAt: bad, spilledSize: 64, spilledEnds: 5}, {spilledAt: at, spilledSize: 3, spilledEnds: 5}} {
		c.load(sp)
		if c.vals != nil || c.ends != nil {
			t.Errorf("a column read from wrong bytes has values: %+v", c)
		}
	}
	for _, d := range []frozenDict{{count: 3, spilledAt: bad, spilledSize: 64, spilledHead: 32}, {count: 3, spilledAt: dict.spilledAt, spilledSize: 20, spilledHead: 5}} {
		if got := d.load(sp); got.count != 0 || got.terms != nil {
			t.Errorf("a dictionary read from wrong bytes has terms: %+v", got)
		}
	}
}

// TestTermTable checks that a term table gives each term one place, the same each time
// it is asked for, across its growths, and keeps a copy of each term.
func TestTermTable(t *testing.T) {
	table := newTermTable()
	buf := []byte("term-00000")
	for round := range 2 {
		for i := range 5000 {
			copy(buf[5:], fmt.Sprintf("%05d", i))
			pb, id := table.get(string(buf))
			if int(id) != i || pb != &table.bufs[i] {
				t.Fatalf("round %d: term %d has place %d", round, i, id)
			}
			if pb.term != string(buf) {
				t.Fatalf("term %d kept as %q", i, pb.term)
			}
		}
	}
	if len(table.bufs) != 5000 || len(table.slots) < 2*len(table.bufs) {
		t.Fatalf("%d terms in %d slots", len(table.bufs), len(table.slots))
	}
	if pb, _ := table.get(""); pb.term != "" || len(table.bufs) != 5001 {
		t.Fatalf("the empty term: %+v", pb)
	}
}
