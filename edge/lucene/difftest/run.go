package difftest

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
)

// Options configure a differential run.
type Options struct {
	Seed    uint64 // seeds the environment and the queries
	Items   int    // items to generate
	Queries int    // queries to generate
	// Java and Classpath run the oracle: the java command, and a class path holding
	// lucene-core, lucene-analyzers-common, lucene-queryparser and LuceneOracle.class.
	Java      string
	Classpath string
	WorkDir   string // where the oracle's input is written
	KeepCases int    // agreeing cases to keep for storage (testdata/lucene)
}

// Disagreement is one query on which the engine and Lucene differ.
type Disagreement struct {
	Query      Query
	Problems   []string
	Lucene     string // Lucene's Query.toString(), or its error
	Engine     string // the engine's _validate/query explanation
	OnlyEngine []string
	OnlyLucene []string
	// Explain is Lucene's explanation of two documents in question (hits only one side
	// has, else the engine's first two), for the first disagreements of a run.
	Explain []string
	docs    []int
}

// Report is the outcome of a run.
type Report struct {
	Queries       int
	Agree         int
	BothRefused   int               // queries both sides refused (counted as agreeing)
	Kinds         map[string][2]int // per query kind: queries run and agreeing
	Disagreements []Disagreement
	Cases         []Case // agreeing cases kept for storage
}

// Run generates the environment and the queries, asks the engine and Lucene, and
// compares their answers.
func Run(opts Options, log io.Writer) (*Report, error) {
	env, err := NewEnv(opts.Seed, opts.Items)
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(log, "environment: %d items generated (seed %d), %d published in the snapshot\n", opts.Items, opts.Seed, env.Snap.Len())
	if env.Snap.Len() > maxHits {
		return nil, fmt.Errorf("the snapshot holds %d items; the engine lists at most %d hits (index.max_result_window), so use fewer --items", env.Snap.Len(), maxHits)
	}
	if err := os.MkdirAll(opts.WorkDir, 0o755); err != nil {
		return nil, err
	}
	items := filepath.Join(opts.WorkDir, fmt.Sprintf("items-%d-%d.ndjson", opts.Seed, opts.Items))
	f, err := os.Create(items)
	if err != nil {
		return nil, err
	}
	err = env.WriteItems(f)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return nil, err
	}
	oracle, err := StartOracle(opts.Java, opts.Classpath, items)
	if err != nil {
		return nil, err
	}
	defer oracle.Close()

	g := NewGen(NewVocab(env), opts.Seed)
	queries := make([]Query, opts.Queries)
	reqs := make([]json.RawMessage, opts.Queries)
	for i := range queries {
		queries[i] = g.Next()
		reqs[i] = queries[i].Oracle
	}
	answers, err := oracle.Run(reqs)
	if err != nil {
		return nil, err
	}
	eng := NewEngine(env)
	rep := &Report{Queries: len(queries), Kinds: map[string][2]int{}}
	zeroKept := 0
	for i, q := range queries {
		ok, c := compareOne(env, eng, q, answers[i], rep)
		k := rep.Kinds[q.Kind]
		k[0]++
		if ok {
			k[1]++
			rep.Agree++
			if c != nil && len(rep.Cases) < opts.KeepCases && (c.Total > 0 || zeroKept*5 < opts.KeepCases) {
				if c.Total == 0 {
					zeroKept++
				}
				rep.Cases = append(rep.Cases, *c)
			}
		}
		rep.Kinds[q.Kind] = k
	}
	if err := explain(oracle, rep.Disagreements, explained); err != nil {
		return nil, err
	}
	return rep, nil
}

// explained is how many disagreements get Lucene's explanations.
const explained = 10

// explain asks Lucene to explain the documents in question of the first n
// disagreements.
func explain(oracle *Oracle, ds []Disagreement, n int) error {
	var reqs []json.RawMessage
	var which []int
	for i := range ds {
		if len(which) == n {
			break
		}
		if len(ds[i].docs) == 0 {
			continue
		}
		var req map[string]any
		if err := json.Unmarshal(ds[i].Query.Oracle, &req); err != nil {
			return err
		}
		req["explain"] = ds[i].docs
		reqs = append(reqs, mustJSON(req))
		which = append(which, i)
	}
	answers, err := oracle.Run(reqs)
	if err != nil {
		return err
	}
	for k, i := range which {
		ds[i].Explain = answers[k].Explain
	}
	return nil
}

// compareOne compares one query's answers; it returns whether they agree and, when
// they do, the case to store (nil when Lucene's ranking is too tied to keep).
func compareOne(env *Env, eng *Engine, q Query, la LuceneAnswer, rep *Report) (bool, *Case) {
	a := eng.Search(q.Query)
	if la.Err != "" || a.Err != "" {
		if la.Err != "" && a.Err != "" {
			rep.BothRefused++
			return true, nil
		}
		d := Disagreement{Query: q, Lucene: la.Query, Engine: eng.Explain(q.Query)}
		if la.Err != "" {
			d.Lucene = "error: " + la.Err
			d.Problems = []string{"Lucene refused the query, the engine answered " + fmt.Sprint(a.Total) + " hits"}
		} else {
			d.Problems = []string{"the engine refused the query (" + a.Err + "), Lucene answered " + fmt.Sprint(la.Total) + " hits"}
		}
		rep.Disagreements = append(rep.Disagreements, d)
		return false, nil
	}
	full, _ := NewCase(q.Kind, q.Query, la, env.Snap.ContentID, 0)
	if problems := full.Check(a); len(problems) > 0 {
		lucene := make([]string, len(la.Hits))
		for i, h := range la.Hits {
			lucene[i] = env.Snap.ContentID(h.Doc)
		}
		onlyE, onlyL := SetDiff(a.IDs, lucene, 5)
		d := Disagreement{Query: q, Problems: problems,
			Lucene: la.Query, Engine: eng.Explain(q.Query), OnlyEngine: onlyE, OnlyLucene: onlyL}
		// The documents to explain: two the engine has alone, else its first two hits.
		for _, id := range slices.Concat(onlyE, onlyL) {
			if doc, ok := env.Snap.Lookup(id); ok && len(d.docs) < 2 {
				d.docs = append(d.docs, doc)
			}
		}
		for i := 0; i < len(a.IDs) && len(d.docs) < 2; i++ {
			doc, _ := env.Snap.Lookup(a.IDs[i])
			d.docs = append(d.docs, doc)
		}
		rep.Disagreements = append(rep.Disagreements, d)
		return false, nil
	}
	if problem := checkPages(eng, q.Query, a); problem != "" {
		rep.Disagreements = append(rep.Disagreements, Disagreement{Query: q, Problems: []string{problem},
			Lucene: la.Query, Engine: eng.Explain(q.Query)})
		return false, nil
	}
	if c, ok := NewCase(q.Kind, q.Query, la, env.Snap.ContentID, maxStoredTop); ok {
		return true, &c
	}
	return true, nil
}

// checkPages asks the engine for the first pages of the query's hits, as a client
// would, and checks them against its listing of every hit (all), which agreed with
// Lucene: a page is ranked by the top-k path, which prunes what cannot reach it, and
// must list the same hits in the same order. It returns what differs ("" when
// nothing does).
func checkPages(eng *Engine, query json.RawMessage, all Answer) string {
	for _, page := range [][2]int{{0, pageSize}, {pageSize, pageSize}} {
		from, size := page[0], page[1]
		if from >= len(all.IDs) {
			break
		}
		want := all.IDs[from:min(from+size, len(all.IDs))]
		got := eng.Page(query, from, size)
		switch {
		case got.Err != "":
			return fmt.Sprintf("the page of %d from %d: the engine refused it (%s)", size, from, got.Err)
		case got.Total != all.Total:
			return fmt.Sprintf("the page of %d from %d: totalItems %d, the full listing %d", size, from, got.Total, all.Total)
		case !slices.Equal(got.IDs, want):
			return fmt.Sprintf("the page of %d from %d lists %v, the full listing %v", size, from, got.IDs, want)
		}
	}
	return ""
}

// pageSize is the size of the pages checkPages asks for.
const pageSize = 10

// maxStoredTop bounds the ranking a stored case keeps (see Case.Top).
const maxStoredTop = 40
