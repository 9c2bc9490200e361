// Command lucenediff compares the engine's search answers with Lucene's on random
// queries over a generated environment (go tool task lucene): query_string queries
// in the whole classic syntax and the search DSL clauses whose Lucene equivalent is
// plain. Hit sets must be equal and the first ten hits in Lucene's order (scores
// within 1e-3 relative count as ties). It exits with status 1 on any disagreement.
//
//	lucenediff --classpath JARS:build/lucene [--seed 1] [--queries 5000] [--items 2000]
//	           [--write-cases testdata/lucene/cases.json --cases 300]
package main

import (
	"flag"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/cdaedge/cdaedge/edge/lucene/difftest"
)

func main() {
	seed := flag.Uint64("seed", 1, "seed of the environment and of the queries")
	queries := flag.Int("queries", 5000, "number of queries to generate")
	items := flag.Int("items", 2000, "number of items to generate (the snapshot holds the published ones)")
	java := flag.String("java", "java", "the java command")
	classpath := flag.String("classpath", "", "class path of the Lucene jars and LuceneOracle.class (required)")
	work := flag.String("work", "build/lucene", "folder for the oracle's input")
	examples := flag.Int("examples", 10, "disagreements to print")
	writeCases := flag.String("write-cases", "", "write agreeing cases with Lucene's answers to this file (testdata/lucene/cases.json)")
	keep := flag.Int("cases", 300, "number of cases --write-cases keeps")
	flag.Parse()
	if *classpath == "" {
		fmt.Fprintln(os.Stderr, "lucenediff: --classpath is required (go tool task lucene sets it)")
		os.Exit(2)
	}
	rep, err := difftest.Run(difftest.Options{Seed: *seed, Items: *items, Queries: *queries,
		Java: *java, Classpath: *classpath, WorkDir: *work, KeepCases: *keep}, os.Stdout)
	if err != nil {
		fmt.Fprintln(os.Stderr, "lucenediff:", err)
		os.Exit(2)
	}
	summary(rep, *seed, *examples)
	if *writeCases != "" {
		if len(rep.Disagreements) > 0 {
			fmt.Fprintln(os.Stderr, "lucenediff: not writing cases while queries disagree")
			os.Exit(1)
		}
		cf := difftest.CaseFile{Seed: *seed, Items: *items, Queries: *queries, Cases: rep.Cases,
			Regenerate: fmt.Sprintf("go tool task lucene -- --seed %d --items %d --queries %d --cases %d --write-cases %s",
				*seed, *items, *queries, *keep, *writeCases)}
		f, err := os.Create(*writeCases)
		if err == nil {
			err = cf.Write(f)
			if cerr := f.Close(); err == nil {
				err = cerr
			}
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "lucenediff:", err)
			os.Exit(2)
		}
		fmt.Printf("wrote %d cases to %s\n", len(rep.Cases), *writeCases)
	}
	if len(rep.Disagreements) > 0 {
		os.Exit(1)
	}
}

func summary(rep *difftest.Report, seed uint64, examples int) {
	fmt.Printf("seed %d: %d queries, %d agree (%d refused by both), %d disagree\n",
		seed, rep.Queries, rep.Agree, rep.BothRefused, len(rep.Disagreements))
	kinds := make([]string, 0, len(rep.Kinds))
	for k := range rep.Kinds {
		kinds = append(kinds, k)
	}
	slices.Sort(kinds)
	for _, k := range kinds {
		fmt.Printf("  %-14s %5d queries, %5d agree\n", k, rep.Kinds[k][0], rep.Kinds[k][1])
	}
	for i, d := range rep.Disagreements {
		if i == examples {
			fmt.Printf("... and %d more disagreements\n", len(rep.Disagreements)-examples)
			break
		}
		fmt.Printf("\n--- disagreement %d: %s\n", i+1, d.Query.Query)
		for _, p := range d.Problems {
			fmt.Println("  ", p)
		}
		fmt.Println("   Lucene:", clip(d.Lucene, 600))
		fmt.Println("   engine:", clip(d.Engine, 600))
		if len(d.OnlyEngine)+len(d.OnlyLucene) > 0 {
			fmt.Println("   only the engine:", strings.Join(d.OnlyEngine, " "))
			fmt.Println("   only Lucene:   ", strings.Join(d.OnlyLucene, " "))
		}
		for _, e := range d.Explain {
			fmt.Println("   Lucene's explanation:", clip(strings.ReplaceAll(strings.TrimSpace(e), "\n", "\n      "), 3000))
		}
	}
}

func clip(s string, n int) string {
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}
