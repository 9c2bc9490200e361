// Command buildbench measures the builder at scale: it generates environments of the
// given sizes (builder gen, seed 1) and times `builder build` on each as a child
// process, reading its peak resident memory from the kernel. With --baseline it builds
// each environment with a second builder binary in the same run, so that the two
// compare on the same machine at the same moment; --rounds repeats the pair, each
// round in the other order than the one before (on this kind of machine whichever
// builds first was measured ~1.1x slower, so one order alone misleads), and the ratio
// is of the means. It prints the rates beside the
// targets: 20,000 items/s at 100k items, and 2 GB of peak memory for 1M items (2 KB
// per item).
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// result is one build's measurements.
type result struct {
	Builder      string  `json:"builder"`
	Items        int     `json:"items"`
	Seconds      float64 `json:"seconds"`
	CPUSeconds   float64 `json:"cpu_seconds"` // user and system time: what the build cost, however busy the machine
	ItemsPerSec  float64 `json:"items_per_second"`
	PeakRSSMiB   float64 `json:"peak_rss_mib"`
	RSSPerItemKB float64 `json:"peak_rss_per_item_kb"`
	InputMiB     float64 `json:"input_mib"`
	SnapshotMiB  float64 `json:"snapshot_mib"`
}

func main() {
	builder := flag.String("builder", "build/builder", "the builder `binary` to measure")
	baseline := flag.String("baseline", "", "another builder `binary` to measure on the same inputs, for a ratio")
	sizes := flag.String("items", "100000", "comma-separated environment `sizes`")
	dir := flag.String("dir", "build/bench/builder", "`folder` for the generated inputs and the snapshots")
	out := flag.String("out", "", "also write the results as JSON to `FILE`")
	rounds := flag.Int("rounds", 1, "how many times to build each environment with each builder, alternating their order")
	flag.Parse()
	if err := run(*builder, *baseline, *sizes, *dir, *out, max(1, *rounds)); err != nil {
		fmt.Fprintln(os.Stderr, "buildbench:", err)
		os.Exit(1)
	}
}

func run(builder, baseline, sizes, dir, out string, rounds int) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	var results []result
	fmt.Printf("%-10s %8s %9s %9s %11s %13s %14s %10s\n", "builder", "items", "seconds", "CPU s", "items/s", "peak RSS MiB", "RSS/item KB", "snap/input")
	for _, field := range strings.Split(sizes, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(field))
		if err != nil || n <= 0 {
			return fmt.Errorf("--items: %q is not a size", field)
		}
		input := filepath.Join(dir, fmt.Sprintf("items-%d.ndjson", n))
		if _, err := os.Stat(input); err != nil {
			gen := exec.Command(builder, "gen", "--items", strconv.Itoa(n), "--seed", "1", "--env", "bench", "--out", input)
			gen.Stderr = os.Stderr
			if err := gen.Run(); err != nil {
				return fmt.Errorf("generate %d items: %w", n, err)
			}
		}
		bins := []string{builder}
		if baseline != "" {
			bins = append(bins, baseline)
		}
		var sums [2]result // per binary, over the rounds
		for round := range rounds {
			for k := range bins {
				i := k
				if round%2 == 1 {
					i = len(bins) - 1 - k
				}
				r, err := measure(bins[i], input, filepath.Join(dir, fmt.Sprintf("snap-%d-%d.snap", n, i)), n)
				if err != nil {
					return err
				}
				name := "builder"
				if i > 0 {
					name = "baseline"
				}
				fmt.Printf("%-10s %8d %9.1f %9.1f %11.0f %13.0f %14.2f %10.2f\n", name, n, r.Seconds, r.CPUSeconds, r.ItemsPerSec, r.PeakRSSMiB, r.RSSPerItemKB, r.SnapshotMiB/r.InputMiB)
				sums[i].Seconds += r.Seconds
				sums[i].CPUSeconds += r.CPUSeconds
				sums[i].PeakRSSMiB += r.PeakRSSMiB
				results = append(results, r)
			}
		}
		if len(bins) == 2 {
			// On a shared machine the wall-clock ratio says as much about the other
			// processes as about the builders: the CPU time ratio does not.
			b, a := sums[0], sums[1]
			fmt.Printf("builder / baseline at %d items, mean of %d %s: %.2fx the speed, %.2fx the CPU time, %.2fx the peak memory\n",
				n, rounds, plural(rounds, "round", "rounds"), a.Seconds/b.Seconds, b.CPUSeconds/a.CPUSeconds, b.PeakRSSMiB/a.PeakRSSMiB)
		}
	}
	fmt.Println("targets: >= 20,000 items/s at 100k items; peak RSS <= 2 GB for 1M items (2.0 KB per item)")
	if out == "" {
		return nil
	}
	b, err := json.MarshalIndent(results, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(out, append(b, '\n'), 0o644)
}

// measure runs bin build on input and returns its time and peak memory.
func measure(bin, input, snap string, n int) (result, error) {
	cmd := exec.Command(bin, "build", "--env", "bench", "--out", snap, input)
	cmd.Stderr = os.Stderr
	start := time.Now()
	if err := cmd.Run(); err != nil {
		return result{}, fmt.Errorf("%s build: %w", bin, err)
	}
	elapsed := time.Since(start).Seconds()
	r := result{Builder: bin, Items: n, Seconds: elapsed, ItemsPerSec: float64(n) / elapsed}
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		r.PeakRSSMiB = float64(ru.Maxrss) / 1024 // Linux reports kilobytes
		r.CPUSeconds = time.Duration(ru.Utime.Nano() + ru.Stime.Nano()).Seconds()
		r.RSSPerItemKB = float64(ru.Maxrss) * 1.024 / float64(n)
	}
	for _, f := range []struct {
		path string
		dst  *float64
	}{{input, &r.InputMiB}, {snap, &r.SnapshotMiB}} {
		fi, err := os.Stat(f.path)
		if err != nil {
			return result{}, err
		}
		*f.dst = float64(fi.Size()) / (1 << 20)
	}
	os.Remove(snap)
	return r, nil
}

// plural returns one or many by n.
func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
