package eval

// itemSet is what one item's values have counted so far in an aggregation: its
// distinct values, or the keys of the histogram buckets they fell in, each as an
// aggKey. (Buckets counted by entry take a stamp instead: tally.item.) Nearly every
// item has a few values, for which a search of a short list in order is the fastest;
// an item may also hold an array of 100,000 numbers, for which that search took an
// aggregation 5e9 comparisons. Past scannedMembers members the set also keeps a hash
// table of them, its own rather than a Go map: TinyGo hashes a key with a float in it
// through reflection, slowly, and that code added 6 KB to the module.
type itemSet struct {
	list []aggKey
	// table holds the members once there are more than scannedMembers, by open
	// addressing; used says which of its slots hold one.
	table []aggKey
	used  []bool
}

// scannedMembers is how many members an itemSet searches in order.
const scannedMembers = 32

// reset empties the set for the next item. The table is left as it is: the set uses
// it only past scannedMembers, after grow has cleared it (clearing it here would cost
// every item after one of many values the size of that item's table).
func (s *itemSet) reset() { s.list = s.list[:0] }

// counted reports whether k is in the set, adding it when it is not.
func (s *itemSet) counted(k aggKey) bool {
	if len(s.list) <= scannedMembers {
		for _, m := range s.list {
			if m == k {
				return true
			}
		}
		s.list = append(s.list, k)
		if len(s.list) > scannedMembers {
			s.grow()
		}
		return false
	}
	if !s.insert(k) {
		return true
	}
	s.list = append(s.list, k)
	if 2*len(s.list) > len(s.table) {
		s.grow()
	}
	return false
}

// grow makes the table four times the members' count (a power of two) and puts
// every member in it.
func (s *itemSet) grow() {
	size := 64
	for size < 4*len(s.list) {
		size *= 2
	}
	if cap(s.table) >= size {
		s.table, s.used = s.table[:size], s.used[:size]
		clear(s.used)
	} else {
		s.table, s.used = make([]aggKey, size), make([]bool, size)
	}
	for _, m := range s.list {
		s.insert(m)
	}
}

// insert adds k to the table (linear probing) and reports whether it was not there.
func (s *itemSet) insert(k aggKey) bool {
	mask := uint64(len(s.table) - 1)
	for i := k.hash() & mask; ; i = (i + 1) & mask {
		if !s.used[i] {
			s.table[i], s.used[i] = k, true
			return true
		}
		if s.table[i] == k {
			return false
		}
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
