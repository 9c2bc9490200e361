package analysis

import (
	"strings"
	"testing"
)

// benchHTML is a typical rich-text body of a CMS item: about 4 KB of
// paragraphs, inline markup, links with attributes, entities and a list.
var benchHTML = strings.Repeat(`<h2 class="title">Kyoto&#8217;s Temples &amp; Gardens</h2>
<p>Visit <strong>O'Connor</strong>'s guide at <a href="https://www.example.com/kyoto?ref=cms" target="_blank">example.com</a>.
Entry costs 1,000.50 yen&nbsp;&mdash; about 3.14 dollars. Café culture, 東京 and カタカナ too 👍🏽.</p>
<ul><li>First item</li><li>Second <em>item</em></li></ul><br/>
`, 12)

func BenchmarkStandard(b *testing.B) {
	text := StripHTML(benchHTML)
	dst := make([]Token, 0, 1024)
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		dst = Standard(dst[:0], text)
	}
}

func BenchmarkStripHTML(b *testing.B) {
	b.SetBytes(int64(len(benchHTML)))
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		_ = StripHTML(benchHTML)
	}
}

func BenchmarkStripThenStandard(b *testing.B) {
	dst := make([]Token, 0, 1024)
	b.SetBytes(int64(len(benchHTML)))
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		dst = Standard(dst[:0], StripHTML(benchHTML))
	}
}
