package main

import (
	"flag"
	"fmt"
	"runtime/debug"
	"strings"
)

var versionCommand = command{
	name:     "version",
	summary:  "print the builder's version",
	synopsis: "builder version",
	about: `
Prints the builder's version: the module version, "(devel)" for a build from a
checkout of the repository, followed, when the Go toolchain recorded it, by the
commit the binary was built from and "+dirty" if the checkout had uncommitted
changes. 'builder --version' does the same.`,
	example: "builder version",
	run:     runVersion,
}

// runVersion is the version command.
func runVersion(fs *flag.FlagSet, args []string, std stdio) error {
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return errUsage{fmt.Sprintf("unexpected argument %q", pos[0])}
	}
	fmt.Fprintf(std.stdout, "builder %s\n", version())
	return nil
}

// version returns the program's version from the build information the Go toolchain
// embeds: the main module's version ("(devel)" when built inside its own module),
// then, if version control information was recorded, the first 12 hex digits of the
// commit and "+dirty" if the work tree had uncommitted changes, e.g.
// "(devel) 1a2b3c4d5e6f+dirty".
func version() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "(unknown)"
	}
	return versionOf(info)
}

// versionOf formats info for version.
func versionOf(info *debug.BuildInfo) string {
	v := info.Main.Version
	if v == "" {
		v = "(devel)"
	}
	rev, dirty := "", false
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if rev == "" {
		return v
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	if strings.Contains(v, rev) {
		return v // a pseudo-version already names the commit (and +dirty)
	}
	if dirty {
		rev += "+dirty"
	}
	return v + " " + rev
}
