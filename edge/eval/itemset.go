package eval

// keyTable maps aggregation keys to small numbers (a bucket's place, or 1 for a set's
// member), by open addressing with linear probing. Aggregations use it instead of Go
// maps keyed by aggKey: TinyGo's maps hash such keys slowly, and a terms aggregation
// over 90k distinct dates (or a cardinality over 90k strings) spent most of its time in
// them (842 ms and 328 ms in the module).
type keyTable struct {
	keys []aggKey
	vals []int32 // 0: an empty slot
	n    int     // the keys held
}

// get returns k's value, or 0 when k is not in the table.
func (t *keyTable) get(k aggKey) int32 {
	if t.n == 0 {
		return 0
	}
	mask := uint64(len(t.keys) - 1)
	for i := k.hash() & mask; ; i = (i + 1) & mask {
		switch {
		case t.vals[i] == 0:
			return 0
		case t.keys[i] == k:
			return t.vals[i]
		}
	}
}

// add puts k with value v (not 0) in the table unless k is there already, and reports
// whether it was added.
func (t *keyTable) add(k aggKey, v int32) bool {
	if 2*(t.n+1) > len(t.keys) {
		t.grow()
	}
	mask := uint64(len(t.keys) - 1)
	for i := k.hash() & mask; ; i = (i + 1) & mask {
		switch {
		case t.vals[i] == 0:
			t.keys[i], t.vals[i] = k, v
			t.n++
			return true
		case t.keys[i] == k:
			return false
		}
	}
}

// grow doubles the table (at least 64 slots) and puts every key back in it.
func (t *keyTable) grow() {
	keys, vals := t.keys, t.vals
	size := max(64, 2*len(keys))
	t.keys, t.vals, t.n = make([]aggKey, size), make([]int32, size), 0
	for i, v := range vals {
		if v != 0 {
			t.add(keys[i], v)
		}
	}
}

// reset empties the table, keeping its slots.
func (t *keyTable) reset() {
	if t.n > 0 {
		clear(t.vals)
		t.n = 0
	}
}

// hash mixes k's fields into a well spread 64-bit number (splitmix64's finalizer).
func (k aggKey) hash() uint64 {
	h := k.bits ^ uint64(k.ord)<<8 ^ uint64(k.kind)
	h ^= h >> 30
	h *= 0xbf58476d1ce4e5b9
	h ^= h >> 27
	h *= 0x94d049bb133111eb
	return h ^ h>>31
}

// itemSet is what one item's values have counted so far in an aggregation: its
// distinct values, or the keys of the histogram buckets they fell in, each as an
// aggKey. (Buckets counted by entry take a stamp instead: tally.item.) Nearly every
// item has a few values, for which a search of a short list in order is the fastest;
// an item may also hold an array of 100,000 numbers, for which that search took an
// aggregation 5e9 comparisons: past scannedMembers members, the set is a keyTable.
type itemSet struct {
	list  []aggKey
	table keyTable // the members, once there are more than scannedMembers
}

// scannedMembers is how many members an itemSet searches in order.
const scannedMembers = 32

// reset empties the set for the next item. The table is emptied only when it was
// used, so an item of a few values costs no clearing of a large one.
func (s *itemSet) reset() {
	if len(s.list) > scannedMembers {
		s.table.reset()
	}
	s.list = s.list[:0]
}

// counted reports whether k is in the set, adding it when it is not.
func (s *itemSet) counted(k aggKey) bool {
	if len(s.list) > scannedMembers {
		return !s.table.add(k, 1)
	}
	for _, m := range s.list {
		if m == k {
			return true
		}
	}
	s.list = append(s.list, k)
	if len(s.list) > scannedMembers {
		for _, m := range s.list {
			s.table.add(m, 1)
		}
	}
	return false
}
