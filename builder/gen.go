package main

import (
	"flag"
	"fmt"
	"io"
	"time"

	"github.com/cdaedge/cdaedge/builder/gen"
	"github.com/cdaedge/cdaedge/builder/ingest"
)

var genCommand = command{
	name:     "gen",
	summary:  "generate realistic content items as NDJSON, for tests and benchmarks",
	synopsis: "builder gen --items N [flags]",
	about: `
Generates N realistic content items as NDJSON: several templates, HTML bodies of a
few KB, references between items, non-ASCII names and dates over several years. The
same --seed gives the same output. Writes to standard output unless --out is given.`,
	example: "builder gen --items 10000 --seed 1 --out big.ndjson",
	run:     runGen,
}

// runGen is the gen command.
func runGen(fs *flag.FlagSet, args []string, std stdio) error {
	items := fs.Int("items", 0, "generate `N` items (required)")
	seed := fs.Uint64("seed", 1, "seed `N` of the pseudo-random generator; the same seed gives the same output")
	env := fs.String("env", "demo", "environment `ID` used in generated media URLs")
	out := fs.String("out", "", "write the items to `FILE` instead of standard output")
	short := fs.Bool("short-bodies", false, "give every HTML body one short section: items of about 2 KB instead of about 5")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	switch {
	case len(pos) > 0:
		return errUsage{fmt.Sprintf("unexpected argument %q", pos[0])}
	case !isSet(fs, "items") || *items < 0:
		return errUsage{"--items N is required (N >= 0)"}
	case !ingest.ValidEnvironment(*env):
		return errUsage{fmt.Sprintf("invalid environment id %q: %s", *env, envRule)}
	}
	opts := gen.Options{Items: *items, Seed: *seed, Environment: *env, ShortBodies: *short}
	if *out == "" {
		return gen.Generate(std.stdout, opts)
	}
	start := time.Now()
	if err := ingest.WriteFileFunc(*out, func(w io.Writer) error { return gen.Generate(w, opts) }); err != nil {
		return err
	}
	fmt.Fprintf(std.stderr, "generated %d items to %s in %s\n", *items, *out, since(start))
	return nil
}
