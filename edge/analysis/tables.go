package analysis

// Character classes that UAX #29 word boundaries alone do not give, but which
// decide whether Lucene's StandardTokenizer keeps a segment (D4).

// Extended_Pictographic comes with the word-break data
// (wordbreak.IsExtendedPictographic), so that the emoji the segmenter joins
// (WB3c) are exactly the ones classified as emoji here.

// complexContext approximates Line_Break=Complex_Context (SA): the South-East
// Asian scripts whose runs Lucene keeps as one <SOUTHEAST_ASIAN> token because
// UAX #29 cannot find their word boundaries. Only letters and marks in these
// blocks count (isComplexContext); digits and punctuation there are not SA.
var complexContext = [...][2]uint32{
	{0x0E00, 0x0E7F},   // Thai
	{0x0E80, 0x0EFF},   // Lao
	{0x1000, 0x109F},   // Myanmar
	{0x1780, 0x17FF},   // Khmer
	{0x1950, 0x19DF},   // Tai Le, New Tai Lue
	{0x1A20, 0x1AAF},   // Tai Tham
	{0xA9E0, 0xA9FF},   // Myanmar Extended-B
	{0xAA60, 0xAADF},   // Myanmar Extended-A, Tai Viet
	{0x11700, 0x1174F}, // Ahom
}

func inRanges(r rune, table [][2]uint32) bool {
	c := uint32(r)
	lo, hi := 0, len(table)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		switch {
		case c < table[m][0]:
			hi = m
		case c > table[m][1]:
			lo = m + 1
		default:
			return true
		}
	}
	return false
}
