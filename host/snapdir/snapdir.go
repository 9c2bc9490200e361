// Package snapdir loads the snapshot files of a directory for the host.
package snapdir

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"

	"github.com/cdaedge/cdaedge/snapshot"
)

// File is one verified snapshot file.
type File struct {
	Path string
	Env  string // the environment id written in the snapshot (D1)
	Data []byte // the file's bytes; Snap reads them in place
	Snap *snapshot.Snapshot
}

// Load reads and verifies every *.snap file of dir, in name order. It fails when there
// is none, when one does not open, or when two hold the same environment.
func Load(dir string) ([]File, error) {
	paths, err := filepath.Glob(filepath.Join(dir, "*.snap"))
	if err != nil {
		return nil, fmt.Errorf("list snapshots: %w", err)
	}
	if len(paths) == 0 {
		if _, err := os.Stat(dir); err != nil {
			return nil, fmt.Errorf("list snapshots: %w", err)
		}
		return nil, errors.New("list snapshots: no *.snap file in " + dir)
	}
	sort.Strings(paths)
	files := make([]File, 0, len(paths))
	seen := map[string]string{}
	for _, path := range paths {
		data, err := os.ReadFile(path)
		if err != nil {
			return nil, fmt.Errorf("read snapshot: %w", err)
		}
		snap, err := snapshot.Open(data)
		if err != nil {
			return nil, fmt.Errorf("open snapshot %s: %w", path, err)
		}
		env := snap.Environment()
		if prev, ok := seen[env]; ok {
			return nil, fmt.Errorf("open snapshot %s: environment %q is also in %s", path, env, prev)
		}
		seen[env] = path
		files = append(files, File{Path: path, Env: env, Data: data, Snap: snap})
	}
	return files, nil
}

// Candidate is a *.snap file found by Scan, with the file information taken before it
// was read (so a later change shows as a different Info).
type Candidate struct {
	Path string
	Info os.FileInfo
}

// List returns the *.snap files of dir in name order, with their file information.
// Files that vanish while listing are left out.
func List(dir string) ([]Candidate, error) {
	paths, err := filepath.Glob(filepath.Join(dir, "*.snap"))
	if err != nil {
		return nil, fmt.Errorf("list snapshots: %w", err)
	}
	if _, err := os.Stat(dir); err != nil {
		return nil, fmt.Errorf("list snapshots: %w", err)
	}
	sort.Strings(paths)
	out := make([]Candidate, 0, len(paths))
	for _, path := range paths {
		info, err := os.Stat(path)
		if err != nil || !info.Mode().IsRegular() {
			continue
		}
		out = append(out, Candidate{Path: path, Info: info})
	}
	return out, nil
}

// Same reports whether a and b describe the same unchanged file: the same inode, size
// and modification time.
func Same(a, b os.FileInfo) bool {
	return a != nil && b != nil && os.SameFile(a, b) && a.Size() == b.Size() && a.ModTime().Equal(b.ModTime())
}

// Open reads and verifies one snapshot file (checksum and format version).
func Open(path string) (File, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return File{}, fmt.Errorf("read snapshot: %w", err)
	}
	snap, err := snapshot.Open(data)
	if err != nil {
		return File{}, fmt.Errorf("open snapshot %s: %w", path, err)
	}
	return File{Path: path, Env: snap.Environment(), Data: data, Snap: snap}, nil
}
