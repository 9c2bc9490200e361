// Package version reports a program's version from the build information the Go
// toolchain embeds, so that the builder and the host print the same kind of version
// for `--version` without a version string to keep up to date by hand.
package version

import (
	"runtime/debug"
	"strings"
)

// String returns the program's version from the build information the Go toolchain
// embeds: the main module's version ("(devel)" when built inside its own module),
// then, if version control information was recorded, the first 12 hex digits of the
// commit and "+dirty" if the work tree had uncommitted changes, e.g.
// "(devel) 1a2b3c4d5e6f+dirty".
func String() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "(unknown)"
	}
	return Of(info)
}

// Of formats info as String does.
func Of(info *debug.BuildInfo) string {
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
