package difftest

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// TopN is how many of the first hits are compared in order.
const TopN = 10

// Tolerance is the relative difference under which two scores count as a tie.
const Tolerance = 1e-3

// Scored is a hit by ContentID with Lucene's score; it is written as [id, score].
type Scored struct {
	ID    string
	Score float32
}

// MarshalJSON writes [id, score].
func (s Scored) MarshalJSON() ([]byte, error) {
	return json.Marshal([]any{s.ID, s.Score})
}

// UnmarshalJSON reads [id, score].
func (s *Scored) UnmarshalJSON(b []byte) error {
	var v []json.RawMessage
	if err := json.Unmarshal(b, &v); err != nil || len(v) != 2 {
		return fmt.Errorf("want [id, score], got %s", b)
	}
	if err := json.Unmarshal(v[0], &s.ID); err != nil {
		return err
	}
	var f float64
	if err := json.Unmarshal(v[1], &f); err != nil {
		return err
	}
	s.Score = float32(f)
	return nil
}

// Case is one query with Lucene's answer, in the form the comparison needs and the
// stored cases keep.
type Case struct {
	Kind   string          `json:"kind"`
	Query  json.RawMessage `json:"query"`            // the search DSL query object
	Lucene string          `json:"lucene,omitempty"` // Lucene's Query.toString(), for readers
	Total  int             `json:"total"`
	Hits   string          `json:"hits"` // SHA-256 of the sorted ContentIDs of the hits, one per line
	// Top holds Lucene's hits best first: the first TopN and every hit tied with the
	// TopN-th; or, when RestTied is set, only those scoring above the TopN-th, every
	// other hit tying with it at score Tie.
	Top      []Scored `json:"top"`
	RestTied bool     `json:"restTied,omitempty"`
	Tie      float32  `json:"tie,omitempty"`
}

// Tied reports whether two scores are equal within Tolerance (relative).
func Tied(a, b float32) bool {
	d := math.Abs(float64(a) - float64(b))
	return d <= Tolerance*math.Max(math.Abs(float64(a)), math.Abs(float64(b)))
}

// HitsHash is the SHA-256 of the sorted ids, one per line.
func HitsHash(ids []string) string {
	s := slices.Clone(ids)
	slices.Sort(s)
	h := sha256.Sum256([]byte(strings.Join(s, "\n")))
	return hex.EncodeToString(h[:])
}

// NewCase turns Lucene's answer into a Case; ids maps document numbers to ContentIDs.
// maxTop bounds len(Top) (0: no bound); ok is false when Lucene's ranking cannot be
// kept within it (a large tie at the TopN-th hit that is not the whole rest).
func NewCase(kind string, query json.RawMessage, la LuceneAnswer, ids func(int) string, maxTop int) (c Case, ok bool) {
	c = Case{Kind: kind, Query: query, Lucene: la.Query, Total: len(la.Hits)}
	all := make([]string, len(la.Hits))
	for i, h := range la.Hits {
		all[i] = ids(h.Doc)
	}
	c.Hits = HitsHash(all)
	n := min(TopN, len(la.Hits))
	end := n
	if n > 0 {
		tie := la.Hits[n-1].Score
		for end < len(la.Hits) && Tied(la.Hits[end].Score, tie) {
			end++
		}
		if maxTop > 0 && end > maxTop {
			head := n - 1
			for head > 0 && Tied(la.Hits[head-1].Score, tie) {
				head--
			}
			if end != len(la.Hits) || head > maxTop {
				return c, false
			}
			c.RestTied, c.Tie, end = true, tie, head
		}
	}
	c.Top = make([]Scored, end)
	for i := 0; i < end; i++ {
		c.Top[i] = Scored{ID: all[i], Score: la.Hits[i].Score}
	}
	return c, true
}

// Check compares the engine's answer with the case: the same error-free hit set, and
// the first TopN hits in Lucene's order, where hits whose scores tie may come in any
// order. It returns what differs (nil when they agree).
func (c *Case) Check(a Answer) []string {
	if a.Err != "" {
		return []string{"engine: " + a.Err}
	}
	var problems []string
	if a.Total != c.Total {
		problems = append(problems, "total: engine "+strconv.Itoa(a.Total)+", Lucene "+strconv.Itoa(c.Total))
	}
	if HitsHash(a.IDs) != c.Hits {
		problems = append(problems, "the hit sets differ")
		return problems
	}
	score := make(map[string]float32, len(c.Top))
	for _, s := range c.Top {
		score[s.ID] = s.Score
	}
	for i := 0; i < min(TopN, len(a.IDs)); i++ {
		want := c.Tie
		if i < len(c.Top) {
			want = c.Top[i].Score
		}
		got, ok := score[a.IDs[i]]
		if !ok && c.RestTied {
			got, ok = c.Tie, true
		}
		if !ok || !Tied(got, want) {
			have := "below the ranking kept"
			if ok {
				have = strconv.FormatFloat(float64(got), 'g', 7, 32)
			}
			problems = append(problems, fmt.Sprintf("rank %d: engine has %s (Lucene score %s), Lucene's rank %d scores %.7g",
				i+1, a.IDs[i], have, i+1, want))
			break
		}
	}
	return problems
}

// SetDiff lists up to max ids that only one side has, for reports.
func SetDiff(engine []string, lucene []string, max int) (onlyEngine, onlyLucene []string) {
	in := map[string]int{}
	for _, id := range engine {
		in[id] |= 1
	}
	for _, id := range lucene {
		in[id] |= 2
	}
	for _, id := range engine {
		if in[id] == 1 && len(onlyEngine) < max {
			onlyEngine = append(onlyEngine, id)
		}
	}
	for _, id := range lucene {
		if in[id] == 2 && len(onlyLucene) < max {
			onlyLucene = append(onlyLucene, id)
		}
	}
	return onlyEngine, onlyLucene
}
