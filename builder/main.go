// Command builder compiles one environment's content items into a snapshot file
// (package snapshot), and inspects, exports and generates content.
//
//	builder build   --env ID --out FILE [--preview] INPUT...
//	builder inspect [--json] FILE.snap
//	builder export  [--out FILE] FILE.snap
//	builder gen     --items N [--seed N] [--env ID] [--out FILE]
//	builder version
//
// This file holds the dispatch: the command table, the top-level usage, --version and
// the exit statuses. Each command lives in its own file (build.go, inspect.go,
// export.go, gen.go, version.go) with its flags, help text and run function; cli.go
// holds what they share.
//
// Exit status: 0 on success, 1 when the input has problems or I/O fails, 2 for usage
// errors.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/cdaedge/cdaedge/builder/version"
)

// command is one subcommand: its name, the one-line summary the top-level usage
// shows, the parts of its --help text and its run function.
type command struct {
	name     string
	summary  string // one line in the top-level usage
	synopsis string // "builder NAME ...", after "usage: "
	about    string // what the command does, one paragraph (printHelp wraps it)
	example  string // one command line
	// run defines its flags on fs, parses args with parseFlags and does the work.
	// It returns flag.ErrHelp for -h, an errUsage for usage errors and errReported
	// when it has printed the problems itself.
	run func(fs *flag.FlagSet, args []string, std stdio) error
}

// commands is the command table, in the order the top-level usage lists them.
var commands = []*command{&buildCommand, &inspectCommand, &exportCommand, &genCommand, &versionCommand}

// stdio is the standard streams a command reads and writes.
type stdio struct {
	stdin          io.Reader
	stdout, stderr io.Writer
}

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// run is the whole command line program; tests call it without a subprocess. It
// returns the exit status.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage())
		return 2
	}
	switch args[0] {
	case "help", "-h", "-help", "--help":
		fmt.Fprint(stdout, usage())
		return 0
	case "-version", "--version":
		fmt.Fprintf(stdout, "builder %s\n", version.String())
		return 0
	}
	c := lookup(args[0])
	if c == nil {
		fmt.Fprintf(stderr, "builder: unknown command %q\n\n%s", args[0], usage())
		return 2
	}
	fs := newFlags(c.name)
	err := c.run(fs, args[1:], stdio{stdin, stdout, stderr})
	var ue errUsage
	switch {
	case err == nil:
		return 0
	case errors.Is(err, flag.ErrHelp):
		printHelp(stderr, c, fs)
		return 0
	case errors.As(err, &ue):
		fmt.Fprintf(stderr, "builder %s: %s\nusage: %s\nRun 'builder %s --help' for its flags.\n",
			c.name, ue.msg, c.synopsis, c.name)
		return 2
	case errors.Is(err, errReported):
		return 1
	default:
		fmt.Fprintf(stderr, "builder %s: %v\n", c.name, err)
		return 1
	}
}

// lookup returns the command called name, or nil.
func lookup(name string) *command {
	for _, c := range commands {
		if c.name == name {
			return c
		}
	}
	return nil
}

// usage returns the top-level usage: the command list, one line each.
func usage() string {
	var b strings.Builder
	b.WriteString(`usage: builder <command> [flags] [arguments]

Compiles headless-CMS content items into snapshot files, the files the edge host
serves, and inspects, exports and generates content.

commands:
`)
	for _, c := range commands {
		fmt.Fprintf(&b, "  %-8s %s\n", c.name, c.summary)
	}
	b.WriteString(`
Run 'builder <command> --help' for a command's flags and an example. Flags take
one or two dashes (-env or --env) and may come before or after the arguments; --
ends the flags. 'builder --version' prints the version.

Exit status: 0 success, 1 problems in the input or I/O failure, 2 usage error.
`)
	return b.String()
}
