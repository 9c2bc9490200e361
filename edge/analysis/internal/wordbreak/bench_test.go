package wordbreak

import (
	"strings"
	"testing"

	"github.com/clipperhouse/uax29/v2/words"
)

// benchTexts are the text of analysis's benchmark body (mostly ASCII, as CMS
// content is) and a mix of scripts where every lookup goes to the table.
var benchTexts = map[string]string{
	"cms": strings.Repeat(`Kyoto’s Temples & Gardens
Visit O'Connor's guide at example.com.
Entry costs 1,000.50 yen — about 3.14 dollars. Café culture, 東京 and カタカナ too 👍🏽.
First item Second item
`, 12),
	"scripts": strings.Repeat(`Ελληνικά: καλημέρα, κόσμε! Русский: «привет, мир». עברית: שָׁלוֹם "עוֹלָם".
العربية: مرحبا بالعالم. हिन्दी: नमस्ते दुनिया। 日本語：こんにちは、世界。한국어: 안녕하세요 세계. 🇯🇵👨‍👩‍👧
`, 12),
}

func BenchmarkSegment(b *testing.B) {
	for _, name := range []string{"cms", "scripts"} {
		text := benchTexts[name]
		b.Run(name+"/wordbreak", func(b *testing.B) {
			b.SetBytes(int64(len(text)))
			for i := 0; i < b.N; i++ {
				for p := 0; p < len(text); {
					p += SegmentLen(text[p:])
				}
			}
		})
		b.Run(name+"/library", func(b *testing.B) {
			b.SetBytes(int64(len(text)))
			it := words.FromString("")
			for i := 0; i < b.N; i++ {
				for p := 0; p < len(text); {
					it.SetText(text[p:])
					it.Next()
					p += it.End()
				}
			}
		})
	}
}
