package analysis

import (
	"slices"
	"strings"
	"testing"
	"time"
	"unicode"
	"unicode/utf8"
)

func addSeeds(f *testing.F) {
	for _, c := range standardCases {
		f.Add(c.in)
	}
	for _, c := range stripCases {
		f.Add(c.in)
	}
	f.Add(benchHTML)
	f.Add(strings.Repeat("a", 300) + ".b")
	f.Add("\xff\xfe<p\xc3>&#x\xe2\x80\xaf")
}

// FuzzStandard checks D4's invariants on any input: no panic, non-empty
// lower-case terms, positions 0, 1, 2, ..., no term over MaxTokenLength
// UTF-16 units (plus the one a lower-cased letter may gain), and the same
// tokens whether or not dst already holds some.
func FuzzStandard(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, s string) {
		toks := Standard(nil, s)
		for i, tok := range toks {
			if tok.Term == "" {
				t.Fatalf("empty term at %d", i)
			}
			if tok.Position != i {
				t.Fatalf("term %d %q at position %d", i, tok.Term, tok.Position)
			}
			units := 0
			for j, r := range tok.Term {
				if r == utf8.RuneError {
					if _, n := utf8.DecodeRuneInString(tok.Term[j:]); n == 1 {
						continue // invalid input bytes are kept as they are
					}
				}
				if unicode.ToLower(r) != r {
					t.Fatalf("term %q not lower-case", tok.Term)
				}
				units += utf16Len(r)
			}
			if units > MaxTokenLength+1 {
				t.Fatalf("term of %d units", units)
			}
		}
		if slow := standard(nil, s, false); !slices.Equal(toks, slow) {
			t.Fatalf("ASCII fast path %v, segmenter alone %v", toks, slow)
		}
		again := Standard([]Token{{"seed", 9}}, s)
		if len(again) != len(toks)+1 {
			t.Fatalf("dst changes the result")
		}
		for _, a := range []Analyzer{Simple, Whitespace} {
			for i, tok := range a(nil, s) {
				if tok.Term == "" || tok.Position != i {
					t.Fatalf("bad token %v at %d", tok, i)
				}
			}
		}
	})
}

// FuzzStripHTML checks that StripHTML never panics, never grows its input
// (every replacement is no longer than what it replaces), returns text
// without markup characters unchanged, and that its output analyses cleanly.
func FuzzStripHTML(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, s string) {
		out := StripHTML(s)
		if len(out) > len(s) {
			t.Fatalf("StripHTML grew %q to %q", s, out)
		}
		if !strings.ContainsAny(s, "<&") && out != s {
			t.Fatalf("StripHTML changed text without markup: %q -> %q", s, out)
		}
		_ = Standard(nil, out)
	})
}

// pathological returns inputs of about n bytes built to make a naive scanner quadratic:
// the engine analyses content it does not control.
func pathological(n int) map[string]string {
	return map[string]string{
		"unclosed quoted attrs":  strings.Repeat("<a b='x", n/7),
		"escaped quotes":         "<a b=\"" + strings.Repeat("\\\"", n/2),
		"attrs then long text":   strings.Repeat("<a b='", n/12) + "'" + strings.Repeat("x", n/2),
		"processing instr":       strings.Repeat("<?a", n/3) + ">",
		"bangs":                  strings.Repeat("<!a", n/3),
		"comments":               strings.Repeat("<!--#", n/5),
		"lt runs":                strings.Repeat("<", n),
		"entities":               strings.Repeat("&#x", n/3),
		"long word":              strings.Repeat("a", n),
		"long word underscores":  "a" + strings.Repeat("_", n),
		"long number":            strings.Repeat("1.", n/2),
		"narrow nbsp word":       strings.Repeat("a\u202f", n/4),
		"zwj run":                "a" + strings.Repeat("\u200d", n/3),
		"space zwj run":          " " + strings.Repeat("\u200d", n/3),
		"thai":                   strings.Repeat("ก", n/3),
		"emoji zwj chain":        strings.Repeat("👨\u200d", n/7),
		"scripts unclosed":       strings.Repeat("<script>", n/8),
		"long tag name no close": "<" + strings.Repeat("a", n),
	}
}

// TestPathologicalInputs runs every pathological input through the analyzers. It asserts
// no timing (machines are noisy); a quadratic regression shows as a test that crawls, and
// BenchmarkPathologicalScaling measures the growth.
func TestPathologicalInputs(t *testing.T) {
	for name, in := range pathological(256 << 10) {
		toks := Standard(nil, StripHTML(in))
		_ = Simple(nil, in)
		_ = Whitespace(nil, in)
		for _, tok := range toks {
			if tok.Term == "" {
				t.Fatalf("%s: empty term", name)
			}
		}
	}
}

// BenchmarkPathologicalScaling reports, per input, the ratio of the time for 4× the
// input to the time for 1×: about 4 when linear, about 16 when quadratic.
func BenchmarkPathologicalScaling(b *testing.B) {
	run := func(in string) time.Duration {
		start := time.Now()
		_ = Standard(nil, StripHTML(in))
		_ = Simple(nil, in)
		_ = Whitespace(nil, in)
		return time.Since(start)
	}
	small, large := pathological(64<<10), pathological(256<<10)
	for name := range small {
		b.Run(strings.ReplaceAll(name, " ", "_"), func(b *testing.B) {
			var ts, tl time.Duration
			for i := 0; i < b.N; i++ {
				ts += run(small[name])
				tl += run(large[name])
			}
			b.ReportMetric(float64(tl)/float64(ts), "ratio4x")
		})
	}
}
