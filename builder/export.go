package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"

	"github.com/cdaedge/cdaedge/builder/ingest"
)

var exportCommand = command{
	name:     "export",
	summary:  "write a snapshot's items as NDJSON",
	synopsis: "builder export [--out FILE] FILE.snap",
	about: `
Writes the items of a snapshot file as NDJSON, one item per line, sorted by
ContentID, to standard output unless --out is given. Building the output again
with the same environment gives the same snapshot.`,
	example: "builder export --out items.ndjson build/demo.snap",
	run:     runExport,
}

// runExport is the export command.
func runExport(fs *flag.FlagSet, args []string, std stdio) error {
	out := fs.String("out", "", "write the items to `FILE` instead of standard output; FILE is replaced only when the whole export succeeds")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return errUsage{"want exactly one FILE.snap"}
	}
	s, err := openSnapshot(pos[0])
	if err != nil {
		return err
	}
	write := func(w io.Writer) error {
		for i := 0; i < s.Len(); i++ {
			if _, err := io.WriteString(w, s.Item(i)); err != nil {
				return err
			}
			if _, err := io.WriteString(w, "\n"); err != nil {
				return err
			}
		}
		return nil
	}
	if *out != "" {
		return ingest.WriteFileFunc(*out, write)
	}
	bw := bufio.NewWriterSize(std.stdout, 1<<20)
	if err := write(bw); err != nil {
		return fmt.Errorf("write: %w", err)
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("write: %w", err)
	}
	return nil
}
