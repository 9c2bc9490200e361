package main

import (
	"flag"
	"fmt"

	"github.com/cdaedge/cdaedge/builder/version"
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
	fmt.Fprintf(std.stdout, "builder %s\n", version.String())
	return nil
}
