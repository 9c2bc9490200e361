package eval

import (
	"math"

	"github.com/cdaedge/cdaedge/snapshot"
)

// BM25 parameters of API.md D6 (Lucene's and Elasticsearch's defaults).
const (
	bm25K1 float32 = 1.2
	bm25B  float32 = 0.75
)

// lengthTable is Lucene's BM25Similarity.LENGTH_TABLE: the field length each norm byte
// stands for.
var lengthTable = func() (t [256]float32) {
	for i := range t {
		t[i] = float32(snapshot.DecodeLength(byte(i)))
	}
	return t
}()

// bm25Scorer is Lucene's BM25Scorer for one term (or phrase) on one field, computed in
// float32 with Lucene's operation order so that scores match Lucene's (API.md D6).
type bm25Scorer struct {
	weight float32
	cache  *[256]float32 // 1 / (k1 * ((1 - b) + b * dl / avgdl)) per norm byte
}

// idf is Lucene's BM25 idf: log(1 + (docCount - docFreq + 0.5) / (docFreq + 0.5)).
func idf(docFreq, docCount int64) float32 {
	return float32(ln(1 + (float64(docCount)-float64(docFreq)+0.5)/(float64(docFreq)+0.5)))
}

// ln is the natural logarithm of x > 0 (finite), computed in Go the same way in every
// build: math.Log is assembly on amd64 and s390x and musl's log under TinyGo, which may
// differ in the last bit, and scores must be the same bytes in every runtime. This is
// the FreeBSD algorithm that math.Log's pure-Go version uses; the explicit conversions
// keep compilers from fusing multiply-adds, which would round differently.
func ln(x float64) float64 {
	const (
		ln2Hi = 6.93147180369123816490e-01 // 3fe62e42 fee00000
		ln2Lo = 1.90821492927058770002e-10 // 3dea39ef 35793c76
		l1    = 6.666666666666735130e-01   // 3FE55555 55555593
		l2    = 3.999999999940941908e-01   // 3FD99999 9997FA04
		l3    = 2.857142874366239149e-01   // 3FD24924 94229359
		l4    = 2.222219843214978396e-01   // 3FCC71C5 1D8E78AF
		l5    = 1.818357216161805012e-01   // 3FC74664 96CB03DE
		l6    = 1.531383769920937332e-01   // 3FC39A09 D078C69F
		l7    = 1.479819860511658591e-01   // 3FC2F112 DF3E5244
	)
	switch { // never from idf, but ln is total
	case x != x || x > math.MaxFloat64:
		return x // NaN, +Inf
	case x < 0:
		return math.NaN()
	case x == 0:
		return math.Inf(-1)
	}
	f1, ki := math.Frexp(x)
	if f1 < math.Sqrt2/2 {
		f1 *= 2
		ki--
	}
	f := f1 - 1
	k := float64(ki)
	s := f / (2 + f)
	s2 := float64(s * s)
	s4 := float64(s2 * s2)
	t1 := float64(s2 * float64(l1+float64(s4*float64(l3+float64(s4*float64(l5+float64(s4*l7)))))))
	t2 := float64(s4 * float64(l2+float64(s4*float64(l4+float64(s4*l6)))))
	r := t1 + t2
	hfsq := float64(float64(0.5*f) * f)
	return float64(k*ln2Hi) - ((hfsq - (float64(s*(hfsq+r)) + float64(k*ln2Lo))) - f)
}

func (e *Evaluator) newBM25(boost, idf float32, st fieldStats) bm25Scorer {
	return bm25Scorer{weight: float32(boost * idf), cache: e.normTable(st)}
}

// normTable returns the norm factors of a field with statistics st. They depend only on
// the field, not the term, so they are computed once per field rather than per term.
func (e *Evaluator) normTable(st fieldStats) *[256]float32 {
	if t, ok := e.norms[st]; ok {
		return t
	}
	t := new([256]float32)
	avgdl := float32(float64(st.sumTotalTermFreq) / float64(st.docCount))
	for i := range t {
		// Explicit float32 conversions round each step as Java does and keep the
		// compiler from fusing operations.
		dlRatio := float32(float32(bm25B*lengthTable[i]) / avgdl)
		t[i] = 1 / float32(bm25K1*float32((1-bm25B)+dlRatio))
	}
	if e.norms == nil {
		e.norms = map[fieldStats]*[256]float32{}
	}
	e.norms[st] = t
	return t
}

// score is Lucene's doScore: weight - weight / (1 + freq * normInverse).
func (s *bm25Scorer) score(freq float32, norm byte) float32 {
	return s.weight - s.weight/float32(1+float32(freq*s.cache[norm]))
}

// tf and scoreOf split score in two, with its operations: score(f, n) is
// scoreOf(tf(f, n)), the same bits (TestScoreInTwo). Every operation is monotone, so
// the largest of several tf gives the largest of their scores. (score keeps its own
// one expression: through these two, the TinyGo module's long matches took 1.07x the
// time.)
func (s *bm25Scorer) tf(freq float32, norm byte) float32 { return float32(freq * s.cache[norm]) }

// scoreOf is score's value for a tf of x.
func (s *bm25Scorer) scoreOf(x float32) float32 { return s.weight - s.weight/float32(1+x) }

// fieldStats are the collection statistics BM25 needs for one field's dictionary.
type fieldStats struct {
	docCount         int64
	sumTotalTermFreq int64
}

// stats returns the statistics of f's text dictionary or, for keyword, of its exact
// values: there Lucene indexes no frequencies or norms, so the total term frequency is
// the sum of document frequencies and every item counts as length 1.
func (e *Evaluator) stats(f *snapshot.Field, keyword bool) fieldStats {
	if !keyword {
		return fieldStats{docCount: int64(f.TextDocCount()), sumTotalTermFreq: f.SumTotalTermFreq()}
	}
	if st, ok := e.keywordStats[f.Name()]; ok {
		return st
	}
	dict := f.Keyword()
	misses := e.snap.PageMisses()
	set := newDocSet(e.n)
	var sum int64
	// An iterator of its own, not termsFrom's: stats runs once per field and evaluator,
	// from wherever a term is first scored.
	for it := dict.Iter(0); it.Next(); {
		p := it.Postings()
		sum += int64(p.DocFreq)
		for doc := p.Next(); doc >= 0; doc = p.Next() {
			set.add(doc)
		}
	}
	st := fieldStats{docCount: int64(set.count()), sumTotalTermFreq: sum}
	if e.snap.PageMisses() != misses {
		// Lists read as empty while their index pages were missing: the request runs
		// again once they are provided, and these statistics must not outlive this run.
		return st
	}
	if e.keywordStats == nil {
		e.keywordStats = map[string]fieldStats{}
	}
	e.keywordStats[f.Name()] = st
	return st
}

// scoreTerm matches term i of dict and scores it with BM25. docFreq overrides the term's
// own document frequency when positive (blended fuzzy terms).
func (e *Evaluator) scoreTerm(f *snapshot.Field, dict snapshot.TermDict, i int, keyword, scoring bool, boost float32, docFreq int) (scored, error) {
	out := scored{set: newDocSet(e.n)}
	p := dict.Postings(i)
	if err := e.spend(p.DocFreq); err != nil {
		return scored{}, err
	}
	var sc bm25Scorer
	if scoring {
		st := e.stats(f, keyword)
		df := int64(p.DocFreq)
		if docFreq > 0 {
			df = int64(docFreq)
		}
		sc = e.newBM25(boost, idf(df, st.docCount), st)
		out.scores = e.scoreBuffer()
	}
	within := e.within
	if b, ok := dict.Bitmap(i); ok && !scoring && b.Words() == len(out.set) {
		// A common term's filter: the file's bitmap of its items.
		b.CopyTo(out.set)
		if within != nil {
			out.set.and(within)
		}
		return out, nil
	}
	for doc := p.Next(); doc >= 0; doc = p.Next() {
		if within != nil && !within.has(doc) {
			continue
		}
		out.set.add(doc)
		if scoring {
			if keyword {
				out.scores[doc] = sc.score(1, 1)
			} else {
				out.scores[doc] = sc.score(float32(p.Freq()), f.Length(doc))
			}
		}
	}
	return out, nil
}
