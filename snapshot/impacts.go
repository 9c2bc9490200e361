// Score bounds of the common terms, per window of items.
//
// # Section impacts (format 2.1)
//
// A search for the best k items skips the windows of items whose best possible score
// cannot reach the k-th best found so far (block-max WAND and MaxScore, as Lucene does
// with the impacts of its skip data). A skip entry bounds a block's frequencies, but
// not its items' lengths; for the lists that have a bitmap (docsets.go), this section
// bounds both, per window of ImpactWindow items: two (frequency, length byte) pairs
// that together dominate every item of the window that has the term, so that the
// term's score there is at most the larger of the two pairs' scores, whatever the
// field's statistics (a score grows with the frequency and falls with the length).
// A window's pairs are its items' Pareto frontier, merged down to two.
//
//	listTable (docsets.go), per = ⌈n/ImpactWindow⌉ windows, of 4 bytes each:
//	  u8 freq, u8 norm, u8 freq, u8 norm
//
// A frequency of 0 is no pair (a window without the term has two); 255 stands for 255
// or more. Text lists only: a keyword term's score is the same in every item.

package snapshot

// ImpactWindow is the number of items of a window of section impacts.
const ImpactWindow = 512

// secImpacts names the section of the common terms' score bounds.
const secImpacts = "impacts"

// impactSize is the bytes of a window's record.
const impactSize = 4

// ImpactSaturated is the stored frequency that stands for itself or more.
const ImpactSaturated = 255

// impactWindows is the number of windows of n items.
func impactWindows(n int) int { return (n + ImpactWindow - 1) / ImpactWindow }

// Impacts are a text term's score bounds per window, as section impacts stores them.
// Like Postings it holds the file by its start and an offset.
type Impacts struct {
	base        string
	off, window int
}

// Windows is the number of windows: ⌈n/ImpactWindow⌉ for n items.
func (m Impacts) Windows() int { return m.window }

// Window returns window k's two pairs of a frequency (0: no pair; ImpactSaturated:
// that many or more) and a length byte; every item of the window that has the term has
// a frequency at most, and a length byte at least, one of them has.
func (m Impacts) Window(k int) (freq1, norm1, freq2, norm2 byte) {
	if uint(k) >= uint(m.window) {
		return 0, 0, 0, 0
	}
	at := m.off + impactSize*k
	r := m.base[at : at+impactSize]
	return r[0], r[1], r[2], r[3]
}

// Impacts returns term i's score bounds per window, when the file stores them (it
// does for the text terms that have a bitmap, from format 2.1 on).
func (t TermDict) Impacts(i int) (Impacts, bool) {
	_, _, m, ok := t.Dense(i)
	return m, ok
}
