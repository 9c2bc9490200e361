// Command sizebench measures what a snapshot weighs against the content it was built
// from, for the two item sizes the file-size targets name: builder-gen items (about 5
// KB each) and items of about 2 KB (builder gen --short-bodies), where the index weighs
// more against the stored items. For each it generates N items (seed 1), builds them
// with the given builder, reads the file's parts and sections with `builder inspect
// --json`, and prints the file's size over its NDJSON input (target: at most 0.6), the
// index part's bytes per item (what every runtime keeps resident; target: at most
// 1.5 KB), and the largest sections.
package main

import (
	"bytes"
	"cmp"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// Targets of the file-size measurements.
const (
	targetRatio        = 0.6  // a snapshot over its NDJSON input
	targetResidentItem = 1500 // the index part's bytes per item
)

// itemSize is one kind of generated item: its label and the extra gen flags.
type itemSize struct {
	Label string
	Flags []string
}

var itemSizes = []itemSize{
	{"builder-gen (~5 KB)", nil},
	{"short bodies (~2 KB)", []string{"--short-bodies"}},
}

// result is one item size's measurements.
type result struct {
	Items          string   `json:"items"`
	Count          int      `json:"count"`         // items generated
	Published      int      `json:"published"`     // items in the snapshot
	InputBytes     int64    `json:"inputBytes"`    // the NDJSON input
	SnapshotBytes  int64    `json:"snapshotBytes"` // the whole file
	Ratio          float64  `json:"ratio"`         // SnapshotBytes / InputBytes
	IndexBytes     int64    `json:"indexBytes"`    // the index part: resident in every runtime
	IndexPerItem   float64  `json:"indexPerItem"`  // IndexBytes per published item
	PagedBytes     int64    `json:"pagedBytes"`    // dictionary blocks, postings, bitmaps
	BodyBytes      int64    `json:"bodyBytes"`     // the stored (deflated) items
	ItemJSONBytes  int64    `json:"itemJSONBytes"` // the items' JSON, inflated
	LargestSection []string `json:"largestParts"`  // the four largest sections or parts, with their share of the file
}

// inspected is the part of `builder inspect --json` that sizebench reads.
type inspected struct {
	Items      int       `json:"items"`
	Size       int64     `json:"size"`
	IndexBytes int64     `json:"indexBytes"`
	PagedBytes int64     `json:"pagedBytes"`
	BodyBytes  int64     `json:"bodyBytes"`
	ItemBytes  int64     `json:"itemBytes"`
	Sections   []section `json:"sections"`
}

// section is one section of a snapshot: its name and length.
type section struct {
	Name   string `json:"name"`
	Length int64  `json:"length"`
}

func main() {
	builder := flag.String("builder", "build/builder", "the builder `binary` that generates and builds")
	items := flag.Int("items", 10000, "how many items to generate of each size")
	dir := flag.String("dir", "build/bench/size", "`folder` for the generated inputs and the snapshots")
	out := flag.String("out", "", "also write the results as JSON to `FILE`")
	flag.Parse()
	if err := run(*builder, *dir, *out, *items); err != nil {
		fmt.Fprintln(os.Stderr, "sizebench:", err)
		os.Exit(1)
	}
}

func run(builder, dir, out string, n int) error {
	if n <= 0 {
		return fmt.Errorf("--items must be at least 1")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	var results []result
	for k, size := range itemSizes {
		input := filepath.Join(dir, fmt.Sprintf("items-%d-%d.ndjson", k, n))
		snap := filepath.Join(dir, fmt.Sprintf("snap-%d-%d.snap", k, n))
		gen := append([]string{"gen", "--items", strconv.Itoa(n), "--seed", "1", "--env", "bench", "--out", input}, size.Flags...)
		if err := runQuiet(builder, gen...); err != nil {
			return fmt.Errorf("generate %s: %w", size.Label, err)
		}
		if err := runQuiet(builder, "build", "--env", "bench", "--out", snap, input); err != nil {
			return fmt.Errorf("build %s: %w", size.Label, err)
		}
		r, err := measure(builder, input, snap)
		if err != nil {
			return err
		}
		r.Items, r.Count = size.Label, n
		results = append(results, r)
	}
	fmt.Printf("%-22s %9s %11s %9s %7s %12s %12s  %s\n", "items", "published", "NDJSON MiB", "file MiB", "ratio",
		"index B/item", "+paged", "largest parts")
	for _, r := range results {
		fmt.Printf("%-22s %9d %11.1f %9.1f %7.3f %12.0f %12.0f  %s\n", r.Items, r.Published, mib(r.InputBytes),
			mib(r.SnapshotBytes), r.Ratio, r.IndexPerItem, float64(r.IndexBytes+r.PagedBytes)/float64(max(1, r.Published)),
			strings.Join(r.LargestSection, ", "))
	}
	fmt.Printf("targets: the file <= %.1fx its NDJSON input on both item sizes; resident bytes (the index part) <= %d per item\n",
		targetRatio, targetResidentItem)
	if out == "" {
		return nil
	}
	b, err := json.MarshalIndent(results, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(out, append(b, '\n'), 0o644)
}

// measure reads the sizes of input and of the snapshot built from it.
func measure(builder, input, snap string) (result, error) {
	fi, err := os.Stat(input)
	if err != nil {
		return result{}, err
	}
	var stdout bytes.Buffer
	cmd := exec.Command(builder, "inspect", "--json", snap)
	cmd.Stdout, cmd.Stderr = &stdout, os.Stderr
	if err := cmd.Run(); err != nil {
		return result{}, fmt.Errorf("inspect %s: %w", snap, err)
	}
	var in inspected
	if err := json.Unmarshal(stdout.Bytes(), &in); err != nil {
		return result{}, fmt.Errorf("inspect %s: %w", snap, err)
	}
	r := result{Published: in.Items, InputBytes: fi.Size(), SnapshotBytes: in.Size, IndexBytes: in.IndexBytes,
		PagedBytes: in.PagedBytes, BodyBytes: in.BodyBytes, ItemJSONBytes: in.ItemBytes}
	r.Ratio = float64(in.Size) / float64(max(1, fi.Size()))
	r.IndexPerItem = float64(in.IndexBytes) / float64(max(1, in.Items))
	secs := append(in.Sections, section{Name: "body part", Length: in.BodyBytes})
	slices.SortStableFunc(secs, func(a, b section) int { return cmp.Compare(b.Length, a.Length) })
	for _, s := range secs[:min(4, len(secs))] {
		r.LargestSection = append(r.LargestSection, fmt.Sprintf("%s %.0f%%", s.Name, 100*float64(s.Length)/float64(max(1, in.Size))))
	}
	return r, os.Remove(snap)
}

// runQuiet runs the builder with args, showing its output only when it fails.
func runQuiet(bin string, args ...string) error {
	var outb bytes.Buffer
	cmd := exec.Command(bin, args...)
	cmd.Stdout, cmd.Stderr = &outb, &outb
	if err := cmd.Run(); err != nil {
		os.Stderr.Write(outb.Bytes())
		return err
	}
	return nil
}

func mib(n int64) float64 { return float64(n) / (1 << 20) }
