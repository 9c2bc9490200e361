package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/cdaedge/cdaedge/snapshot"
)

// errUsage marks a usage error (exit status 2); run prints its message and the
// command's synopsis.
type errUsage struct{ msg string }

func (e errUsage) Error() string { return e.msg }

// errReported is returned when the problems were already printed.
var errReported = errors.New("problems reported")

// envRule describes a valid environment id in words, for error messages.
const envRule = "want 1 to 128 letters, digits, '_', '.' or '-', starting with a letter or digit"

// newFlags returns a flag set that prints nothing itself: run reports its errors as
// usage errors, and prints the command's help for -h.
func newFlags(name string) *flag.FlagSet {
	fs := flag.NewFlagSet("builder "+name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	return fs
}

// parseFlags parses flags given before, between or after positional arguments and
// returns the positional ones. "--" ends flag parsing. For -h it returns flag.ErrHelp;
// other flag errors become usage errors.
func parseFlags(fs *flag.FlagSet, args []string) ([]string, error) {
	var rest []string
	for i, a := range args {
		if a == "--" {
			args, rest = args[:i], args[i+1:]
			break
		}
	}
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return nil, err
			}
			return nil, errUsage{err.Error()}
		}
		args = fs.Args()
		if len(args) == 0 {
			break
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
	return append(pos, rest...), nil
}

// isSet reports whether the flag name was given on the command line.
func isSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

// helpWidth is the column at which help text is wrapped.
const helpWidth = 80

// printHelp prints a command's --help: the synopsis, what it does (wrapped to
// helpWidth), its flags written with two dashes ("--name VALUE  description (default …)") and an example.
func printHelp(w io.Writer, c *command, fs *flag.FlagSet) {
	fmt.Fprintf(w, "usage: %s\n\n%s\n", c.synopsis, strings.Join(wrap(c.about, helpWidth), "\n"))
	type row struct{ name, text string }
	var rows []row
	width := 0
	fs.VisitAll(func(f *flag.Flag) {
		value, text := flag.UnquoteUsage(f)
		name := "--" + f.Name
		if value != "" {
			name += " " + value
		}
		if d := f.DefValue; d != "" && d != "0" && d != "false" {
			text += " (default " + d + ")"
		}
		rows = append(rows, row{name, text})
		width = max(width, len(name))
	})
	if len(rows) > 0 {
		fmt.Fprint(w, "\nflags:\n")
		indent := 2 + width + 2
		for _, r := range rows {
			lines := wrap(r.text, max(helpWidth-indent, 30))
			fmt.Fprintf(w, "  %-*s  %s\n", width, r.name, lines[0])
			for _, l := range lines[1:] {
				fmt.Fprintf(w, "%*s%s\n", indent, "", l)
			}
		}
	}
	fmt.Fprintf(w, "\nexample:\n  %s\n", c.example)
}

// wrap splits text into lines of at most width bytes, breaking at spaces; a word
// longer than width gets a line of its own. It returns at least one line.
func wrap(text string, width int) []string {
	var lines []string
	line := ""
	for _, word := range strings.Fields(text) {
		switch {
		case line == "":
			line = word
		case len(line)+1+len(word) <= width:
			line += " " + word
		default:
			lines = append(lines, line)
			line = word
		}
	}
	return append(lines, line)
}

// openSnapshot reads and opens the snapshot file at path.
func openSnapshot(path string) (*snapshot.Snapshot, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read snapshot: %w", err)
	}
	s, err := snapshot.Open(data)
	if err != nil {
		return nil, fmt.Errorf("open snapshot %s: %w", path, err)
	}
	return s, nil
}

// plural returns one when n is 1 and many otherwise.
func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// humanSize formats a byte count: 512 B, 1.2 KiB, 3.4 MiB.
func humanSize(n int64) string {
	const unit = 1024
	if n < unit {
		return strconv.FormatInt(n, 10) + " B"
	}
	f, i := float64(n)/unit, 0
	for f >= unit && i < 3 {
		f /= unit
		i++
	}
	return strconv.FormatFloat(f, 'f', 1, 64) + " " + [...]string{"KiB", "MiB", "GiB", "TiB"}[i]
}

// since formats the time elapsed since start for log lines: 35ms, 1.2s.
func since(start time.Time) string {
	d := time.Since(start)
	if d < time.Second {
		return strconv.FormatInt(d.Milliseconds(), 10) + "ms"
	}
	return strconv.FormatFloat(d.Seconds(), 'f', 1, 64) + "s"
}
