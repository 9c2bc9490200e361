package snapshot

// fieldTable finds a field's index by its name: open addressing over FNV-1a hashes
// of the names. It stands where a map[string]int stood: a query over every field
// looks a field up once per word and field (112 lookups for two words over 56
// fields), and the TinyGo module's generic map (a hash through a function pointer,
// the key and the value copied in and out) spent a tenth of such a query's time there.
type fieldTable struct {
	slots []int32 // a field's index + 1, 0 for an empty slot; a power of two long
}

// fnv1a is the 32-bit FNV-1a hash of s.
func fnv1a(s string) uint32 {
	h := uint32(2166136261)
	for i := 0; i < len(s); i++ {
		h ^= uint32(s[i])
		h *= 16777619
	}
	return h
}

// reset makes the table empty, with room for n fields at most half full.
func (t *fieldTable) reset(n int) {
	size := 8
	for size < 2*n {
		size *= 2
	}
	t.slots = make([]int32, size)
}

// find returns the index in fields of the field named name, or -1.
func (t *fieldTable) find(fields []Field, name string) int {
	if len(t.slots) == 0 {
		return -1
	}
	if j, found := t.probe(fields, name); found {
		return int(t.slots[j] - 1)
	}
	return -1
}

// add enters fields[i] under its name; false when a field of that name is there
// already. The table must have room (reset with at least as many fields).
func (t *fieldTable) add(fields []Field, i int) bool {
	j, found := t.probe(fields, fields[i].name)
	if !found {
		t.slots[j] = int32(i + 1)
	}
	return !found
}

// probe returns the slot of the field named name, or the empty slot where it would go.
func (t *fieldTable) probe(fields []Field, name string) (slot uint32, found bool) {
	mask := uint32(len(t.slots) - 1)
	for j := fnv1a(name) & mask; ; j = (j + 1) & mask {
		k := t.slots[j]
		if k == 0 || fields[k-1].name == name {
			return j, k != 0
		}
	}
}
