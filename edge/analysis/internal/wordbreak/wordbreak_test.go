package wordbreak

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/clipperhouse/uax29/v2/words"
)

// The library is the specification: every test here compares segment
// boundaries with github.com/clipperhouse/uax29/v2/words, which passes the
// official WordBreakTest.txt cases.

// segmenter collects segment ends, reusing its buffers between strings.
type segmenter struct {
	lib        *words.Iterator[string]
	ours, want []int
}

func newSegmenter() *segmenter { return &segmenter{lib: words.FromString("")} }

// compare returns the two segmentations of s and whether they agree.
func (sg *segmenter) compare(s string) (ours, want []int, same bool) {
	sg.ours = sg.ours[:0]
	for p := 0; p < len(s); {
		n := SegmentLen(s[p:])
		if n <= 0 || n > len(s)-p {
			sg.ours = append(sg.ours, -1) // reported below as a mismatch
			break
		}
		p += n
		sg.ours = append(sg.ours, p)
	}
	sg.want = sg.want[:0]
	sg.lib.SetText(s)
	for sg.lib.Next() {
		sg.want = append(sg.want, sg.lib.End())
	}
	if len(sg.ours) != len(sg.want) {
		return sg.ours, sg.want, false
	}
	for i := range sg.ours {
		if sg.ours[i] != sg.want[i] {
			return sg.ours, sg.want, false
		}
	}
	return sg.ours, sg.want, true
}

func (sg *segmenter) check(t testing.TB, s string) bool {
	t.Helper()
	if ours, want, same := sg.compare(s); !same {
		t.Errorf("%+q: segment ends %v, library %v", s, ours, want)
		return false
	}
	return true
}

// neighbours has a character of each class the rules tell apart, and the
// left contexts of the rules that look two back (a letter or number then a
// MidLetter, MidNum or quote). Each code point is tried after and before
// each of them, which tells every pair of properties apart.
var neighbours = []string{
	"a", "א", "1", "ア", "_", // ALetter, Hebrew_Letter, Numeric, Katakana, ExtendNumLet
	":", ",", ".", "'", "\"", // MidLetter, MidNum, MidNumLet, Single_Quote, Double_Quote
	"\u0301", "\u00AD", "\u200D", // Extend, Format, ZWJ
	"🐶", "\U0001F1E6", // Extended_Pictographic, Regional_Indicator
	"\r", "\n", "\v", " ", "!", // CR, LF, Newline, WSegSpace, Other
	"a'", "a.", "1,", "א\"", "\U0001F1E6\U0001F1E8", // two back
	"\xff", "\xe2\x80", // invalid UTF-8
}

// probe writes cp's encoding alone, in a run and next to every neighbour,
// as one text: a newline separates the probes, as nothing joins across one
// (WB3a, WB3b; a CR before it joins, in both implementations alike).
func probe(b *strings.Builder, cp string) string {
	b.Reset()
	b.WriteString(cp + "\n" + cp + cp + cp + cp + cp + "\n")
	for _, n := range neighbours {
		b.WriteString(n + cp + "\n" + cp + n + "\n")
	}
	// Between two letters or numbers a code point can be the middle of WB6
	// and WB7 (WB11, WB12), also with ignored characters after it.
	for _, n := range []string{"a", "1", "א"} {
		b.WriteString(n + cp + n + "\n" + n + cp + "\u0301\u200D" + n + "\n")
	}
	return b.String()
}

// encodeAny encodes cp, 0 <= cp <= 0x1FFFFF, in the UTF-8 form of its bit
// length even when that is not valid UTF-8 (surrogates, past U+10FFFF).
func encodeAny(cp uint32) string { return string(encode(cp)) }

// TestEveryCodePointInContext probes every code point, surrogates included.
// The byte forms past U+10FFFF, which the library reads like any other, are
// sampled, as are the unassigned planes 4 to 13 with -short.
func TestEveryCodePointInContext(t *testing.T) {
	for plane := uint32(0); plane <= 0x11; plane++ {
		first, last := plane<<16, plane<<16|0xFFFF
		step := uint32(1)
		if plane == 0x11 {
			last, step = maxSequence, 61
		} else if testing.Short() && 4 <= plane && plane <= 13 {
			step = 61
		}
		t.Run(fmt.Sprintf("U+%04X", first), func(t *testing.T) {
			t.Parallel()
			sg := newSegmenter()
			var b strings.Builder
			failures := 0
			for cp := first; cp <= last; cp += step {
				if !sg.check(t, probe(&b, encodeAny(cp))) {
					if failures++; failures > 10 {
						t.Fatal("too many failures")
					}
				}
			}
			sg.check(t, probe(&b, encodeAny(last)))
		})
	}
}

// TestMalformedUTF8 covers every way a sequence can break: each lead byte
// with each second byte, overlong forms, and sequences cut off by the end.
func TestMalformedUTF8(t *testing.T) {
	sg := newSegmenter()
	var b strings.Builder
	for c0 := 0x80; c0 < 0x100; c0++ {
		for c1 := 0; c1 < 0x100; c1++ {
			seq := string([]byte{byte(c0), byte(c1)})
			for _, s := range []string{seq, seq + "\x80", seq + "\x80\x80", seq + "\x80a", "a" + seq + "a"} {
				sg.check(t, s)
				sg.check(t, "a"+s)
				sg.check(t, "1."+s)
			}
		}
		sg.check(t, string([]byte{byte(c0)}))
		sg.check(t, "a"+string([]byte{byte(c0)}))
	}
	for c1 := 0x80; c1 < 0xC0; c1++ { // overlong forms
		for c2 := 0x80; c2 < 0xC0; c2++ {
			sg.check(t, probe(&b, string([]byte{0xE0, byte(c1), byte(c2)})))
			sg.check(t, probe(&b, string([]byte{0xF0, byte(c1 & 0x8F), byte(c2), 0x80 | byte(c1&0x3F)})))
		}
	}
	for _, s := range []string{"a\xf0\x9f\x90", "a \xf0\x9f", "ab\xe2", "1.\xe2\x80", "a\u200d\xf0\x9f\x90", "\xf0\x9f\x90a b c"} {
		sg.check(t, s)
	}
}

// TestExtendedPictographic checks IsExtendedPictographic against WB3c: after
// a ZWJ, the library joins exactly the Extended_Pictographic code points and
// the ones WB4 always joins (which after "!" join too).
func TestExtendedPictographic(t *testing.T) {
	sg := newSegmenter()
	joined := func(s string) bool {
		ends, _, _ := sg.compare(s)
		return len(ends) == 1
	}
	for r := rune(0); r <= utf8.MaxRune; r++ {
		if !utf8.ValidRune(r) {
			if IsExtendedPictographic(r) {
				t.Fatalf("invalid rune %U is Extended_Pictographic", r)
			}
			continue
		}
		want := joined("\u200D"+string(r)) && !joined("!"+string(r))
		if got := IsExtendedPictographic(r); got != want {
			t.Fatalf("IsExtendedPictographic(%U) = %v, WB3c says %v", r, got, want)
		}
	}
	for _, r := range []rune{-1, utf8.MaxRune + 1, 1 << 30} {
		if IsExtendedPictographic(r) {
			t.Fatalf("IsExtendedPictographic(%d) = true", r)
		}
	}
}

func TestSegmentLenEmpty(t *testing.T) {
	if n := SegmentLen(""); n != 0 {
		t.Fatalf("SegmentLen(\"\") = %d", n)
	}
}

// segmentSeeds exercise each rule, its near misses and invalid UTF-8.
var segmentSeeds = []string{
	"", "a", "Hello, world! How are you?", "o'connor kyoto's example.com 3.14 1,000.50",
	"can't won't l'été", "a.b.c 1.2.3 a1.b2 1a'2", "a..b 1,,2 a'.b", "a'", "1.", "a.\u0301b", "a\u00AD.\u00ADb",
	"1\u0301,\u200D2", "\r\n\r\r\n\n\v\u0085\u2028\u2029", "a\r\nb", " \u0301\u0301 ", "  \t  ", "\u3000 \u3000",
	"שָׁלוֹם", "א\"ב", "א'ב", "א\"", "א\"\u0301ב", "_a_ 1_1 ア_ __", "アイウエオ カタカナー", "ひらがな漢字",
	"\u202F10\u202F000", "a\u200d🐶", "👍🏽", "👨\u200d👩\u200d👧", "🏳️\u200d🌈", "\u200d\u200d🐶", "!\u200d🐶",
	"🇺🇸🇬🇧🇫", "🇦🇨🇦", "a🇦🇨🇦b", "🇦\u0301🇨🇦", "#️⃣ *⃣ 1️⃣", "ⓂⓂ Ⓜa", "ข้าวมันไก่ ພາສາລາວ ខ្មែរ",
	"Ελληνικά русский עברית العربية हिन्दी", "한국어 조선말", "\x00\x01\x7f",
	"\xff\xfe\x80", "a\xc3", "a\xc3(b", "\xe2\x80", "\xe2\x80\xaf", "a\xed\xa0\x80b", "a\xf4\x90\x80\x80b",
	"a\xf8\x88\x80\x80\x80b", "a\xc0\xafb", "\xe0\x80\xaf", "a\xf0\x9f\x90", "a\xf0\x9f\x90 b",
	"a" + strings.Repeat("\u0301", 50) + "b", strings.Repeat("🇦", 9), strings.Repeat("a.", 40) + "b",
}

func TestSegmentSeeds(t *testing.T) {
	sg := newSegmenter()
	for _, s := range segmentSeeds {
		sg.check(t, s)
	}
	for _, a := range segmentSeeds {
		for _, b := range segmentSeeds {
			sg.check(t, a+b)
		}
	}
}

// alphabet has a character of each class and then some: random bytes
// rarely spell the sequences the rules care about, so the fuzz target also
// reads each input byte as a pick from it.
var alphabet = append([]string{
	"é", "ש", "٣", "ー", "あ", "中", "\uFE0F", "\U0001F3FB", "\u202F", "\t", "·", ";", "\u2028", "☝",
	"\U0001F1E8", "\u00A0", "\u3000", "🏳", "\xf0\x9f", "\xed\xa0\x80",
}, neighbours...)

// FuzzSegmentDifferential compares full segmentations of arbitrary strings,
// invalid UTF-8 included, with the library's: the input as it is, and the
// input read as picks from alphabet.
func FuzzSegmentDifferential(f *testing.F) {
	for _, s := range segmentSeeds {
		f.Add(s)
	}
	for _, n := range neighbours {
		f.Add(n + "a" + n + "1" + n + "ア" + n + "🐶" + n)
	}
	f.Add("\x00\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0b\x0c\x0d\x0e\x0f")
	sg := newSegmenter()
	var b strings.Builder
	f.Fuzz(func(t *testing.T, s string) {
		sg.check(t, s)
		b.Reset()
		for i := 0; i < len(s); i++ {
			b.WriteString(alphabet[int(s[i])%len(alphabet)])
		}
		sg.check(t, b.String())
	})
}
