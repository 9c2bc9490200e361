package main

import (
	"flag"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/cdaedge/cdaedge/builder/version"
)

func TestVersion(t *testing.T) {
	want := "builder " + version.String() + "\n"
	if !regexp.MustCompile(`^builder \S`).MatchString(want) {
		t.Fatalf("version line %q", want)
	}
	for _, args := range [][]string{{"--version"}, {"-version"}, {"version"}} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			code, stdout, stderr := cli(t, "", args...)
			if code != 0 || stdout != want || stderr != "" {
				t.Errorf("code %d, stdout %q, stderr %q; want 0, %q, nothing", code, stdout, stderr, want)
			}
		})
	}
	code, stdout, stderr := cli(t, "", "version", "extra")
	if code != 2 || stdout != "" || !strings.Contains(stderr, `unexpected argument "extra"`) {
		t.Errorf("version extra: code %d, stdout %q, stderr %q", code, stdout, stderr)
	}
}

// flagNames returns the names of the flags c defines.
func flagNames(t *testing.T, c *command) []string {
	t.Helper()
	fs := newFlags(c.name)
	if err := c.run(fs, []string{"-h"}, stdio{strings.NewReader(""), io.Discard, io.Discard}); err != flag.ErrHelp {
		t.Fatalf("%s -h: %v, want flag.ErrHelp", c.name, err)
	}
	var names []string
	fs.VisitAll(func(f *flag.Flag) { names = append(names, f.Name) })
	return names
}

// TestCommandHelp: every command's --help starts with its synopsis, writes every flag
// with two dashes, ends with an example, fits 80 columns and cites nothing a new
// user could not look up.
func TestCommandHelp(t *testing.T) {
	citation := regexp.MustCompile(`\bD[0-9]+\b|#[0-9]+|decisions|/work/|/home/|/root/`)
	for _, c := range commands {
		names := flagNames(t, c)
		for _, h := range []string{"--help", "-help", "-h"} {
			t.Run(c.name+" "+h, func(t *testing.T) {
				code, stdout, stderr := cli(t, "", c.name, h)
				if code != 0 || stdout != "" {
					t.Fatalf("code %d, stdout %q", code, stdout)
				}
				if !strings.HasPrefix(stderr, "usage: builder "+c.name) {
					t.Errorf("help does not start with the synopsis:\n%s", stderr)
				}
				if !strings.Contains(stderr, "\nexample:\n  builder "+c.name) {
					t.Errorf("help lacks an example:\n%s", stderr)
				}
				for _, name := range names {
					if !regexp.MustCompile(`(?m)^  --` + name + `\b`).MatchString(stderr) {
						t.Errorf("help does not list --%s:\n%s", name, stderr)
					}
					if strings.Contains(stderr, " -"+name) {
						t.Errorf("help writes -%s with one dash:\n%s", name, stderr)
					}
				}
				if m := citation.FindString(stderr); m != "" {
					t.Errorf("help cites %q:\n%s", m, stderr)
				}
				for _, line := range strings.Split(stderr, "\n") {
					if len([]rune(line)) > helpWidth {
						t.Errorf("line longer than %d columns: %q", helpWidth, line)
					}
				}
			})
		}
	}
	if names := flagNames(t, &buildCommand); strings.Join(names, " ") != "env out preview" {
		t.Errorf("build flags %v", names)
	}
}

func TestTopLevelHelp(t *testing.T) {
	tests := []struct {
		args []string
		code int
	}{
		{nil, 2},
		{[]string{"--help"}, 0},
		{[]string{"-help"}, 0},
		{[]string{"-h"}, 0},
		{[]string{"help"}, 0},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			code, stdout, stderr := cli(t, "", tt.args...)
			text, other := stdout, stderr
			if tt.code != 0 {
				text, other = stderr, stdout
			}
			if code != tt.code || other != "" {
				t.Fatalf("code %d (want %d), stdout %q, stderr %q", code, tt.code, stdout, stderr)
			}
			for _, c := range commands {
				if !regexp.MustCompile(`(?m)^  ` + c.name + ` +\S`).MatchString(text) {
					t.Errorf("usage does not list %s on a line of its own:\n%s", c.name, text)
				}
			}
			if strings.Contains(text, " -env") {
				t.Errorf("usage writes -env with one dash only:\n%s", text)
			}
			for _, line := range strings.Split(text, "\n") {
				if len([]rune(line)) > helpWidth {
					t.Errorf("line longer than %d columns: %q", helpWidth, line)
				}
			}
		})
	}
}

func TestUnknownCommand(t *testing.T) {
	for _, name := range []string{"frobnicate", "Build", "-env", "--preview", "builder"} {
		t.Run(name, func(t *testing.T) {
			code, stdout, stderr := cli(t, "", name, "x")
			if code != 2 || stdout != "" {
				t.Errorf("code %d, stdout %q; want 2 and nothing", code, stdout)
			}
			if !strings.HasPrefix(stderr, `builder: unknown command "`+name+`"`) || !strings.Contains(stderr, "\ncommands:\n") {
				t.Errorf("stderr does not name %q and list the commands:\n%s", name, stderr)
			}
		})
	}
}

// TestFlagDashes: flags work with one dash and with two.
func TestFlagDashes(t *testing.T) {
	for _, dash := range []string{"-", "--"} {
		t.Run(dash, func(t *testing.T) {
			dir := t.TempDir()
			out := filepath.Join(dir, "demo.snap")
			if code, _, stderr := cli(t, "", "build", dash+"env", "demo", dash+"out="+out, dash+"preview", items); code != 0 {
				t.Fatalf("build: code %d\n%s", code, stderr)
			}
			code, stdout, stderr := cli(t, "", "inspect", dash+"json", out)
			if code != 0 || !strings.Contains(stdout, `"preview": true`) {
				t.Errorf("inspect: code %d, stdout %q, stderr %q", code, stdout, stderr)
			}
			exp := filepath.Join(dir, "x.ndjson")
			if code, _, stderr := cli(t, "", "export", dash+"out", exp, out); code != 0 {
				t.Errorf("export: code %d\n%s", code, stderr)
			} else if data, _ := os.ReadFile(exp); strings.Count(string(data), "\n") != 5 {
				t.Errorf("export wrote %q", data)
			}
			code, stdout, stderr = cli(t, "", "gen", dash+"items", "2", dash+"seed", "3", dash+"env", "demo")
			if code != 0 || strings.Count(stdout, "\n") != 2 {
				t.Errorf("gen: code %d, %d lines, stderr %q", code, strings.Count(stdout, "\n"), stderr)
			}
		})
	}
}
