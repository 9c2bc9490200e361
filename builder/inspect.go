package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/cdaedge/cdaedge/snapshot"
)

var inspectCommand = command{
	name:     "inspect",
	summary:  "show a snapshot's header and section sizes",
	synopsis: "builder inspect [--json] FILE.snap",
	about: `
Shows a snapshot file's header (environment, format version, whether it is a
preview, item count, statuses, content version and size) and the offset and length
of each of its sections.`,
	example: "builder inspect --json build/demo.snap",
	run:     runInspect,
}

// runInspect is the inspect command.
func runInspect(fs *flag.FlagSet, args []string, std stdio) error {
	asJSON := fs.Bool("json", false, "print one JSON object instead of tables")
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
	info := describe(pos[0], s)
	stdout := std.stdout
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		if err := enc.Encode(info); err != nil {
			return fmt.Errorf("write: %w", err)
		}
		return nil
	}
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintf(tw, "file\t%s\n", info.File)
	fmt.Fprintf(tw, "environment\t%s\n", info.Environment)
	fmt.Fprintf(tw, "format\t%s\n", info.FormatVersion)
	fmt.Fprintf(tw, "preview\t%t\n", info.Preview)
	fmt.Fprintf(tw, "items\t%d\n", info.Items)
	fmt.Fprintf(tw, "statuses\t%s\n", strings.Join(info.Statuses, ", "))
	fmt.Fprintf(tw, "version\t%s\n", info.Version)
	fmt.Fprintf(tw, "size\t%s (%d bytes)\n", humanSize(info.Size), info.Size)
	fmt.Fprintf(tw, "index part\t%s (%d bytes): what a runtime loads\n", humanSize(info.IndexBytes), info.IndexBytes)
	if info.PagedBytes > 0 {
		fmt.Fprintf(tw, "paged part\t%s: dictionary blocks, postings and bitmaps, read by range in pages of 4 KiB\n", humanSize(info.PagedBytes))
	}
	fmt.Fprintf(tw, "body part\t%s in %d blocks: %s of items' JSON, deflated\n", humanSize(info.BodyBytes), info.BodyBlocks, humanSize(info.ItemBytes))
	if err := tw.Flush(); err != nil {
		return fmt.Errorf("write: %w", err)
	}
	fmt.Fprintln(stdout)
	tw = tabwriter.NewWriter(stdout, 0, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "section\toffset\tlength\tsize\t\n")
	for _, sec := range info.Sections {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%s\t\n", sec.Name, sec.Offset, sec.Length, humanSize(sec.Length))
	}
	if err := tw.Flush(); err != nil {
		return fmt.Errorf("write: %w", err)
	}
	return nil
}

// snapInfo is what inspect prints.
type snapInfo struct {
	File          string        `json:"file"`
	Environment   string        `json:"environment"`
	FormatVersion string        `json:"formatVersion"`
	Preview       bool          `json:"preview"`
	Items         int           `json:"items"`
	Statuses      []string      `json:"statuses"`
	Version       string        `json:"version"`
	Size          int64         `json:"size"`
	IndexBytes    int64         `json:"indexBytes"` // the index part, header included
	PagedBytes    int64         `json:"pagedBytes"` // the paged part (format 3)
	BodyBytes     int64         `json:"bodyBytes"`  // the stored body blocks
	BodyBlocks    int           `json:"bodyBlocks"`
	ItemBytes     int64         `json:"itemBytes"` // the items' JSON, inflated
	Sections      []sectionInfo `json:"sections"`
}

// sectionInfo is one section of a snapshot in inspect's output.
type sectionInfo struct {
	Name   string `json:"name"`
	Offset int64  `json:"offset"`
	Length int64  `json:"length"`
}

// describe collects what inspect prints about the snapshot s read from file.
func describe(file string, s *snapshot.Snapshot) snapInfo {
	major, minor := s.FormatVersion()
	info := snapInfo{
		File: file, Environment: s.Environment(), Preview: s.Preview(), Items: s.Len(),
		FormatVersion: strconv.Itoa(major) + "." + strconv.Itoa(minor),
		Statuses:      append([]string{}, s.Statuses()...),
		Version:       s.Version(), Size: s.Size(), Sections: []sectionInfo{},
		IndexBytes: s.IndexSize(), PagedBytes: s.PagedSize(),
	}
	info.BodyBytes, info.BodyBlocks, info.ItemBytes = s.BodyPart()
	for _, sec := range s.Sections() {
		info.Sections = append(info.Sections, sectionInfo{Name: sec.Name, Offset: sec.Offset, Length: sec.Length})
	}
	return info
}
