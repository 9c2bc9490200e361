// Package wordbreak finds UAX #29 word boundaries
// (https://unicode.org/reports/tr29/#Word_Boundaries, Unicode 17) exactly
// where github.com/clipperhouse/uax29/v2/words finds them, invalid UTF-8
// included, from a range table of a few KB instead of the library's 100 KB
// trie: the TinyGo query module has a size budget.
//
// The rules are a port of the library's words/splitfunc.go and words/seek.go
// (v2.7.0), MIT License, Copyright (c) 2020 Matt Sherman: see LICENSE in
// this directory. The tables are generated from the library's own trie by
// tables_test.go, which also fails when they fall out of date; the
// differential tests and FuzzSegmentDifferential compare every boundary with
// the library's.
package wordbreak

import "unicode/utf8"

//go:generate go test -run TestTablesUpToDate -update

// property is the set of UAX #29 word-break classes of one code point, plus
// Extended_Pictographic. A code point may be in more than one (Ⓜ is ALetter
// and Extended_Pictographic), so the rules test membership with is.
type property uint32

const (
	aLetter property = 1 << iota
	cr
	doubleQuote
	extend
	extendNumLet
	extendedPictographic
	format
	hebrewLetter
	katakana
	lf
	midLetter
	midNum
	midNumLet
	newline
	numeric
	regionalIndicator
	singleQuote
	wSegSpace
	zwj
)

const (
	ahLetter   = aLetter | hebrewLetter
	midNumLetQ = midNumLet | singleQuote
	ignored    = extend | format | zwj // WB4: invisible to the rules after it
)

// paletteBits is the width of the palette index in a ranges entry; the
// palette has 1<<paletteBits entries so that masked indexes need no bounds
// checks.
const (
	paletteBits = 5
	paletteMask = 1<<paletteBits - 1
)

// blockBits and indexedBlocks shape blockRanges: code points below
// indexedBlocks<<blockBits (U+20000) find their entries through it.
const (
	blockBits     = 8
	indexedBlocks = 0x20000 >> blockBits
)

func (p property) is(set property) bool { return p&set != 0 }

// SegmentLen returns the byte length of the UAX #29 word segment at the start
// of s: 0 when s is empty, otherwise between 1 and len(s). Segmenting s[n:]
// next gives the following segment, as the rules look no further back than
// the segment they are in.
//
// Invalid UTF-8 is segmented as the library does: a byte that cannot start
// a sequence, or a sequence broken off by a byte that cannot continue it,
// counts as a character of no class (like an unassigned code point), and a
// sequence that the end of s cuts short, once the segment reaches it,
// extends the segment to the end of s.
func SegmentLen(s string) int {
	if s == "" {
		return 0
	}
	// A run of ASCII letters and digits followed by a space or the end is a
	// whole segment (WB5, WB8–WB10 join it; nothing joins a space to it).
	// The library takes the same shortcut; here it only saves time.
	if isASCIIAlnum(s[0]) {
		end := 1
		for end < len(s) && isASCIIAlnum(s[end]) {
			end++
		}
		if end == len(s) || s[end] == ' ' {
			return end
		}
	}
	return segmentLen(s)
}

func isASCIIAlnum(b byte) bool {
	return 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z' || '0' <= b && b <= '9'
}

// segmentLen applies the rules in the library's order: each rule is of the
// form last × current, with the WB4 view (lastExIgnored, lastLastExIgnored)
// skipping Extend, Format and ZWJ.
func segmentLen(s string) int {
	current, w := lookup(s)
	if w == 0 {
		return len(s) // WB1 always takes something; a cut-off sequence takes all
	}
	pos := w
	var lastExIgnored, lastLastExIgnored property
	regionalIndicators := 0

	for pos < len(s) { // WB2 at the end
		last := current
		if !last.is(ignored) {
			lastLastExIgnored = lastExIgnored
			lastExIgnored = last
		}
		current, w = lookup(s[pos:])
		if w == 0 {
			return len(s)
		}

		// WB5, WB8, WB9, WB10
		if current.is(numeric|ahLetter) && lastExIgnored.is(numeric|ahLetter) {
			pos += w
			continue
		}
		// WB3d
		if (current & last).is(wSegSpace) {
			pos += w
			continue
		}
		// WB3
		if current.is(lf) && last.is(cr) {
			pos += w
			continue
		}
		// WB3a, WB3b
		if (last | current).is(newline | cr | lf) {
			break
		}
		// WB3c
		if current.is(extendedPictographic) && last.is(zwj) {
			pos += w
			continue
		}
		// WB4
		if current.is(ignored) {
			pos += w
			continue
		}
		// WB6: the letter found ahead is where the next step resumes, so
		// WB7 then joins it.
		if current.is(midLetter|midNumLetQ) && lastExIgnored.is(ahLetter) {
			if ahead := nextNonIgnored(ahLetter, s[pos+w:]); ahead >= 0 {
				pos += w + ahead
				continue
			}
		}
		// WB7
		if current.is(ahLetter) && lastExIgnored.is(midLetter|midNumLetQ) && lastLastExIgnored.is(ahLetter) {
			pos += w
			continue
		}
		// WB7a
		if current.is(singleQuote) && lastExIgnored.is(hebrewLetter) {
			pos += w
			continue
		}
		// WB7b
		if current.is(doubleQuote) && lastExIgnored.is(hebrewLetter) {
			if ahead := nextNonIgnored(hebrewLetter, s[pos+w:]); ahead >= 0 {
				pos += w + ahead
				continue
			}
		}
		// WB7c
		if current.is(hebrewLetter) && lastExIgnored.is(doubleQuote) && lastLastExIgnored.is(hebrewLetter) {
			pos += w
			continue
		}
		// WB11
		if current.is(numeric) && lastExIgnored.is(midNum|midNumLetQ) && lastLastExIgnored.is(numeric) {
			pos += w
			continue
		}
		// WB12
		if current.is(midNum|midNumLetQ) && lastExIgnored.is(numeric) {
			if ahead := nextNonIgnored(numeric, s[pos+w:]); ahead >= 0 {
				pos += w + ahead
				continue
			}
		}
		// WB13
		if current.is(katakana) && lastExIgnored.is(katakana) {
			pos += w
			continue
		}
		// WB13a
		if current.is(extendNumLet) && lastExIgnored.is(ahLetter|numeric|katakana|extendNumLet) {
			pos += w
			continue
		}
		// WB13b
		if current.is(ahLetter|numeric|katakana) && lastExIgnored.is(extendNumLet) {
			pos += w
			continue
		}
		// WB15, WB16: flags pair up regional indicators, two by two.
		if current.is(regionalIndicator) && lastExIgnored.is(regionalIndicator) {
			regionalIndicators++
			if regionalIndicators%2 == 1 {
				pos += w
				continue
			}
		}
		// WB999
		break
	}
	return pos
}

// nextNonIgnored returns the offset in s of the first code point that is not
// Extend, Format or ZWJ if it is one of want, and -1 otherwise (including
// when s ends first or with a cut-off sequence).
func nextNonIgnored(want property, s string) int {
	for i := 0; i < len(s); {
		p, w := lookup(s[i:])
		switch {
		case w == 0:
			return -1
		case p.is(ignored):
			i += w
		case p.is(want):
			return i
		default:
			return -1
		}
	}
	return -1
}

// lookup returns the property of the UTF-8 sequence at the start of s
// (len(s) > 0) and its width. It is split so that the ASCII case inlines.
func lookup(s string) (property, int) {
	if c := s[0]; c < utf8.RuneSelf {
		return palette[asciiPalette[c]&paletteMask], 1
	}
	return lookupMultibyte(s)
}

// lookupMultibyte reads invalid UTF-8 as the library's trie does: a byte that
// cannot start a sequence is width 1, a sequence broken by a non-continuation
// byte ends before that byte, both with no property; a sequence longer than
// what is left of s is width 0. Overlong forms have no property; surrogates
// and code points past U+10FFFF have what the trie gives them, which the
// range table holds like any other code point.
func lookupMultibyte(s string) (property, int) {
	c0 := s[0]
	var cp uint32
	var n int
	switch {
	case c0 < 0xC2:
		return 0, 1
	case c0 < 0xE0:
		cp, n = uint32(c0&0x1F), 2
	case c0 < 0xF0:
		cp, n = uint32(c0&0x0F), 3
	case c0 < 0xF8:
		cp, n = uint32(c0&0x07), 4
	default:
		return 0, 1
	}
	if len(s) < n {
		return 0, 0
	}
	for i := 1; i < n; i++ {
		c := s[i]
		if c < 0x80 || c >= 0xC0 {
			return 0, i
		}
		cp = cp<<6 | uint32(c&0x3F)
	}
	if n == 3 && cp < 0x800 || n == 4 && cp < 0x10000 {
		return 0, n
	}
	return rangeProperty(cp), n
}

// rangeProperty returns the property of cp, 0x80 <= cp <= 0x1FFFFF.
func rangeProperty(cp uint32) property {
	// The answer is the last entry starting at or before cp. Below U+20000,
	// where nearly all entries are, blockRanges narrows the search to cp's
	// block: a few dozen entries at most and mostly a handful, not 2000.
	first, last := int(blockRanges[indexedBlocks]), len(ranges)-1
	if block := cp >> blockBits; block < indexedBlocks {
		first, last = int(blockRanges[block]), int(blockRanges[block+1])
	}
	// The palette index in the low bits cannot lift an entry that starts
	// after cp above key. Halving a window without an early exit compiles
	// to conditional moves rather than mispredicted branches.
	key := cp<<paletteBits | paletteMask
	i, n := first, last-first+1
	for n > 1 {
		half := n >> 1
		if ranges[i+half] <= key {
			i += half
		}
		n -= half
	}
	return palette[ranges[i]&paletteMask]
}

// IsExtendedPictographic reports whether r has the Unicode 17
// Extended_Pictographic property, by the same data that decides WB3c joins.
func IsExtendedPictographic(r rune) bool {
	switch {
	case r < 0 || r > 0x10FFFF:
		return false
	case r < 0x80:
		return palette[asciiPalette[r]&paletteMask].is(extendedPictographic)
	}
	return rangeProperty(uint32(r)).is(extendedPictographic)
}
