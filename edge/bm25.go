package edge

import (
	"math"

	"github.com/cdaedge/cdaedge/snapshot"
)

// BM25 parameters of decisions D6 (Lucene's and Elasticsearch's defaults).
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
// float32 with Lucene's operation order so that scores match Lucene's (decisions D6).
type bm25Scorer struct {
	weight float32
	cache  [256]float32 // 1 / (k1 * ((1 - b) + b * dl / avgdl)) per norm byte
}

// idf is Lucene's BM25 idf: log(1 + (docCount - docFreq + 0.5) / (docFreq + 0.5)).
func idf(docFreq, docCount int64) float32 {
	return float32(math.Log(1 + (float64(docCount)-float64(docFreq)+0.5)/(float64(docFreq)+0.5)))
}

func newBM25(boost, idf float32, sumTotalTermFreq, docCount int64) *bm25Scorer {
	s := &bm25Scorer{weight: float32(boost * idf)}
	avgdl := float32(float64(sumTotalTermFreq) / float64(docCount))
	for i := range s.cache {
		// Explicit float32 conversions round each step as Java does and keep the
		// compiler from fusing operations.
		dlRatio := float32(float32(bm25B*lengthTable[i]) / avgdl)
		s.cache[i] = 1 / float32(bm25K1*float32((1-bm25B)+dlRatio))
	}
	return s
}

// score is Lucene's doScore: weight - weight / (1 + freq * normInverse).
func (s *bm25Scorer) score(freq float32, norm byte) float32 {
	return s.weight - s.weight/float32(1+float32(freq*s.cache[norm]))
}

// fieldStats are the collection statistics BM25 needs for one field's dictionary.
type fieldStats struct {
	docCount         int64
	sumTotalTermFreq int64
}

// stats returns the statistics of f's text dictionary or, for keyword, of its exact
// values: there Lucene indexes no frequencies or norms, so the total term frequency is
// the sum of document frequencies and every item counts as length 1.
func (e *Engine) stats(f *snapshot.Field, keyword bool) fieldStats {
	if !keyword {
		return fieldStats{docCount: int64(f.TextDocCount()), sumTotalTermFreq: f.SumTotalTermFreq()}
	}
	if st, ok := e.keywordStats[f.Name()]; ok {
		return st
	}
	dict := f.Keyword()
	set := newDocSet(e.n)
	var sum int64
	for i := 0; i < dict.Len(); i++ {
		p := dict.Postings(i)
		sum += int64(p.DocFreq)
		for doc := p.Next(); doc >= 0; doc = p.Next() {
			set.add(doc)
		}
	}
	st := fieldStats{docCount: int64(set.count()), sumTotalTermFreq: sum}
	if e.keywordStats == nil {
		e.keywordStats = map[string]fieldStats{}
	}
	e.keywordStats[f.Name()] = st
	return st
}

// scoreTerm matches term i of dict and scores it with BM25. docFreq overrides the term's
// own document frequency when positive (blended fuzzy terms).
func (e *Engine) scoreTerm(f *snapshot.Field, dict snapshot.TermDict, i int, keyword, scoring bool, boost float32, docFreq int) (scored, error) {
	out := scored{set: newDocSet(e.n)}
	p := dict.Postings(i)
	if err := e.spend(p.DocFreq); err != nil {
		return scored{}, err
	}
	var sc *bm25Scorer
	if scoring {
		st := e.stats(f, keyword)
		df := int64(p.DocFreq)
		if docFreq > 0 {
			df = int64(docFreq)
		}
		sc = newBM25(boost, idf(df, st.docCount), st.sumTotalTermFreq, st.docCount)
		out.scores = e.scoreBuffer()
	}
	for doc := p.Next(); doc >= 0; doc = p.Next() {
		out.set.add(doc)
		if sc != nil {
			if keyword {
				out.scores[doc] = sc.score(1, 1)
			} else {
				out.scores[doc] = sc.score(float32(p.Freq()), f.Length(doc))
			}
		}
	}
	return out, nil
}
