package edgetest

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/cdaedge/cdaedge/edge/lucene/difftest"
)

// LuceneEnvironment is the environment of the stored Lucene cases
// (testdata/lucene/cases.json): items generated from the file's seed, as the
// differential harness generated them when it compared the engine with Lucene.
const LuceneEnvironment = difftest.EnvID

// LuceneCasesFile holds the stored Lucene cases, relative to the repository root.
const LuceneCasesFile = "testdata/lucene/cases.json"

// luceneCases reads the stored Lucene cases.
func luceneCases(t testing.TB) *difftest.CaseFile {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(RepoRoot(t), filepath.FromSlash(LuceneCasesFile)))
	if err != nil {
		t.Fatalf("edgetest: %v", err)
	}
	cf, err := difftest.ReadCaseFile(data)
	if err != nil {
		t.Fatalf("edgetest: %s: %v", LuceneCasesFile, err)
	}
	return cf
}

// LuceneSnapshot returns the snapshot of LuceneEnvironment, generated once per process.
// The returned bytes are shared and must not be modified.
func LuceneSnapshot(t testing.TB) []byte {
	t.Helper()
	built.Lock()
	defer built.Unlock()
	if snap, ok := built.snaps[LuceneEnvironment]; ok {
		return snap
	}
	cf := luceneCases(t)
	env, err := difftest.NewEnv(cf.Seed, cf.Items)
	if err != nil {
		t.Fatalf("edgetest: generating %s: %v", LuceneEnvironment, err)
	}
	if built.snaps == nil {
		built.snaps = map[string][]byte{}
	}
	built.snaps[LuceneEnvironment] = env.Data
	return env.Data
}

// LuceneCases returns the stored Lucene cases as conformance cases: each query as a
// search of LuceneEnvironment listing every hit's ContentID, and as its second page of
// 10 (ranked by the top-k path, which prunes what cannot reach the page). The native
// engine's answers are checked against Lucene's, and its pages against its full
// listings, by edge/lucene/difftest's TestReplayLucene; here every other runtime must
// answer them exactly as the native engine does.
func LuceneCases(t testing.TB) []Case {
	t.Helper()
	cf := luceneCases(t)
	cases := make([]Case, 0, 2*len(cf.Cases))
	for i, c := range cf.Cases {
		total := c.Total
		for _, page := range []struct {
			name     string
			from, sz int
		}{{"", 0, 10000}, {", page 2 of 10", 10, 10}} {
			body, err := json.Marshal(map[string]any{"query": c.Query, "from": page.from, "size": page.sz, "_source": []string{"ContentID"}})
			if err != nil {
				t.Fatalf("edgetest: %s case %d: %v", LuceneCasesFile, i, err)
			}
			cases = append(cases, Case{
				Name: "Lucene case " + strconv.Itoa(i) + " (" + c.Kind + ")" + page.name,
				File: filepath.Base(LuceneCasesFile),
				Request: Request{Method: "POST", Path: "/cda/es/v1/" + LuceneEnvironment,
					Headers: map[string]string{"Content-Type": "application/json"}, Body: body},
				Expect: Expect{Status: 200, TotalItems: &total},
			})
		}
	}
	return cases
}
