package eval

import (
	"strings"
	"testing"
)

// sloppyPhraseFreq is the sloppy frequency of a phrase whose slots hold distinct terms
// (TestSloppyPhraseFreq).
func sloppyPhraseFreq(lists [][]int, slop int) float32 {
	slots := make([]phraseSlot, len(lists))
	for i := range slots {
		slots[i] = phraseSlot{terms: []string{string(rune('a' + i))}, offset: i}
	}
	return newSloppyPhrase(slots, slop).freq(lists)
}

// sloppyCase is a document, a phrase (space-separated slots; "a|b" is a slot of two
// alternatives, as a MultiPhraseQuery position) and a slop, with the phrase frequency
// Lucene 8.8 computes for them (its explanation's phraseFreq; 0 when it does not match).
type sloppyCase struct {
	doc, phrase string
	slop        int
	want        float32
}

// Measured with Lucene 8.8.1 (PhraseQuery / MultiPhraseQuery over a whitespace-analysed
// field, IndexSearcher.explain).
var sloppyCases = []sloppyCase{
	{"a b", "a b", 1, 1},
	{"a b", "b a", 1, 0},
	{"a b", "b a", 2, 1.0 / 3},
	{"x a b a y", "a b", 2, 1 + 1.0/3},
	// A repeated term needs a position of its own for each slot.
	{"how now brown cow", "how how", 2, 0},
	{"case study case", "case case study", 1, 0},
	{"case study case", "case case study", 3, 1.0 / 3},
	{"case case study", "case case study", 1, 1},
	{"x case y case study", "case case study", 2, 0.5},
	{"a b a b", "a b a", 2, 1},
	{"a b c a b c a", "a a", 3, 2.0 / 3},
	{"a a a", "a a", 1, 2},
	{"a a a", "a a", 2, 2},
	{"b a x a b", "a b a", 4, 2.0 / 3},
	{"a b x a b a", "a b a b", 3, 0.75},
	{"c a b c a b", "a b c a", 4, 1},
	// Slots of several terms (MultiPhraseQuery) sharing a repeated term.
	{"a c b a", "a|b c a", 3, 0.8333334},
	{"b c a b c", "a|b c b|d", 2, 1.1666667},
	{"a b a b", "a|b a|b", 1, 3},
	{"a b a b", "a|b a|b", 2, 3},
	{"b x a b d a", "a|b c|d d|e a", 6, 0},
	{"x b a c b d", "a|c b|c c", 4, 1.0 / 3},
	{"a b a b a", "a|x b a|y", 2, 2},
}

// sloppyLists builds the per-slot position lists of phrase in doc, shifted by each
// slot's offset, as phrase() does; nil when a slot's terms do not occur.
func sloppyLists(doc, phrase string) ([]phraseSlot, [][]int) {
	words := strings.Fields(doc)
	var slots []phraseSlot
	var lists [][]int
	for i, s := range strings.Fields(phrase) {
		alts := strings.Split(s, "|")
		slots = append(slots, phraseSlot{terms: alts, offset: i})
		var l []int
		for p, w := range words {
			for _, a := range alts {
				if w == a {
					l = append(l, p-i)
				}
			}
		}
		if l == nil {
			return slots, nil
		}
		lists = append(lists, l)
	}
	return slots, lists
}

func TestSloppyPhraseRepeats(t *testing.T) {
	for _, tc := range sloppyCases {
		slots, lists := sloppyLists(tc.doc, tc.phrase)
		var got float32
		if lists != nil {
			got = newSloppyPhrase(slots, tc.slop).freq(lists)
		}
		if d := got - tc.want; d > 1e-6 || d < -1e-6 {
			t.Errorf("%q in %q, slop %d: freq %v, Lucene %v", tc.phrase, tc.doc, tc.slop, got, tc.want)
		}
	}
}

// TestSloppyPhraseGroups: the repeat groups Lucene forms, in offset order.
func TestSloppyPhraseGroups(t *testing.T) {
	for _, tc := range []struct {
		phrase string
		want   string
	}{
		{"a b c", "[]"},
		{"a b a", "[[0 2]]"},
		{"a b a b", "[[0 2] [1 3]]"},
		{"a|b c b|d", "[[0 2]]"},
		{"a|b c|d d|e a", "[[0 3] [1 2]]"},
		{"a|b c b|c", "[[0 1 2]]"},
	} {
		var slots []phraseSlot
		for i, s := range strings.Fields(tc.phrase) {
			slots = append(slots, phraseSlot{terms: strings.Split(s, "|"), offset: i})
		}
		m := newSloppyPhrase(slots, 1)
		if got := sprintGroups(m.groups); got != tc.want {
			t.Errorf("%q: groups %s, want %s", tc.phrase, got, tc.want)
		}
	}
}

func sprintGroups(groups [][]int) string {
	var b strings.Builder
	b.WriteByte('[')
	for i, g := range groups {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteByte('[')
		for j, s := range g {
			if j > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(string(rune('0' + s)))
		}
		b.WriteByte(']')
	}
	b.WriteByte(']')
	return b.String()
}
