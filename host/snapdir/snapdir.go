// Package snapdir loads the snapshot files of a directory for the host.
package snapdir

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"

	"github.com/cdaedge/cdaedge/snapshot"
)

// File is one verified snapshot file.
type File struct {
	Path string
	Env  string // the environment id written in the snapshot (D1)
	// Data is the file's bytes, or its index part alone when Bodies is set; Snap reads
	// them in place.
	Data []byte
	// Bodies reads the rest of the file, the item bodies, by range, when Data holds only
	// the index part (OpenIndex); nil otherwise. Each body block is checked against its
	// checksum by whoever it is handed to, as it is handed over.
	Bodies io.ReaderAt
	Snap   *snapshot.Snapshot
}

// Opener opens and verifies one snapshot file: Open or OpenIndex.
type Opener func(path string) (File, error)

// Load opens every *.snap file of dir with open (nil: Open), in name order. It fails
// when there is none, when one does not open, or when two hold the same environment.
func Load(dir string, open Opener) ([]File, error) {
	if open == nil {
		open = Open
	}
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
		f, err := open(path)
		if err != nil {
			return nil, err
		}
		if prev, ok := seen[f.Env]; ok {
			return nil, fmt.Errorf("open snapshot %s: environment %q is also in %s", path, f.Env, prev)
		}
		seen[f.Env] = path
		files = append(files, f)
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

// OpenIndex reads one snapshot file's index part and verifies it (its checksum and
// format version), and keeps the file open for its item bodies, which stay on disk (in
// the page cache) instead of in the host's memory. The file is closed by the collector
// once nothing holds the File; replacing the file on disk (a new version written
// beside it and renamed over it) does not change what an open File reads.
func OpenIndex(path string) (File, error) {
	f, err := os.Open(path)
	if err != nil {
		return File{}, fmt.Errorf("read snapshot: %w", err)
	}
	var header [snapshot.HeaderSize]byte
	if _, err := io.ReadFull(f, header[:]); err != nil {
		f.Close()
		return File{}, fmt.Errorf("open snapshot %s: %w", path, snapshot.ErrNotSnapshot)
	}
	n, err := snapshot.IndexLen(header[:])
	if err != nil {
		f.Close()
		return File{}, fmt.Errorf("open snapshot %s: %w", path, err)
	}
	info, err := f.Stat()
	if err != nil || n > info.Size() {
		f.Close()
		return File{}, fmt.Errorf("open snapshot %s: %w: the file is shorter than its index part", path, snapshot.ErrCorrupt)
	}
	data := make([]byte, n)
	if _, err := f.ReadAt(data, 0); err != nil {
		f.Close()
		return File{}, fmt.Errorf("read snapshot: %w", err)
	}
	snap, err := snapshot.Open(data)
	if err == nil && snap.Size() != info.Size() {
		err = fmt.Errorf("%w: %d bytes, the index part says %d", snapshot.ErrCorrupt, info.Size(), snap.Size())
	}
	if err != nil {
		f.Close()
		return File{}, fmt.Errorf("open snapshot %s: %w", path, err)
	}
	return File{Path: path, Env: snap.Environment(), Data: data, Bodies: f, Snap: snap}, nil
}

// Open reads and verifies one snapshot file (checksums and format version).
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
