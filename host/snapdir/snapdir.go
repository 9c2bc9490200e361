// Package snapdir loads the snapshot files of a directory for the host.
package snapdir

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/cdaedge/cdaedge/snapshot"
)

// File is one verified snapshot file.
type File struct {
	Path string
	Env  string // the environment id written in the snapshot (D1)
	Meta
	// Data is the whole file, held in memory (Open); nil when the file stays on disk
	// (OpenIndex).
	Data []byte
	// Reader reads the file by range when Data is nil (OpenIndex): the wasm engine reads
	// the index part straight into each of its instances and the item bodies as requests
	// ask for them, so the host itself holds none of the file. Each body block is checked
	// against its checksum by whoever it is handed to, as it is handed over.
	Reader io.ReaderAt
	// Snap reads Data in place (Open); nil when Data is: the host keeps no native reader
	// over a file it does not hold, and its own needs (logs, /readyz, metrics, the
	// playground's download) are met by Meta.
	Snap *snapshot.Snapshot
}

// Meta is what the host itself needs to know of a snapshot file, copied out of it when
// it is verified, so that it outlives any bytes of the file.
type Meta struct {
	Version   string // the content hash in hex (snapshot.Snapshot.Version)
	Items     int    // the number of items
	Preview   bool   // whether it may hold unpublished items (D3)
	Size      int64  // the file's size in bytes
	IndexSize int64  // its index part's size: what each wasm instance holds
}

// MetaOf returns what the host needs to know of an opened snapshot.
func MetaOf(s *snapshot.Snapshot) Meta {
	return Meta{Version: s.Version(), Items: s.Len(), Preview: s.Preview(), Size: s.Size(), IndexSize: s.IndexSize()}
}

// SameVersion reports whether f and g are the same version of a snapshot file: the same
// path and content.
func (f File) SameVersion(g File) bool { return f.Path == g.Path && f.Version == g.Version }

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

// OpenIndex verifies one snapshot file (its index part's checksum, format version and
// structure) without keeping any of it in the host's memory: the file stays open, and
// the File reads it by range (Reader) for the wasm engine, which copies the index part
// into each instance and asks for item bodies as requests need them. Only Meta is kept.
// The file is closed by the collector once nothing holds the File; replacing the file
// on disk (a new version written beside it and renamed over it) does not change what an
// open File reads. Rewriting it in place does, which the host does not support.
func OpenIndex(path string) (File, error) {
	f, err := os.Open(path)
	if err != nil {
		return File{}, fmt.Errorf("read snapshot: %w", err)
	}
	var header [snapshot.HeaderSize]byte
	if _, err := f.ReadAt(header[:], 0); err != nil {
		f.Close()
		return File{}, fmt.Errorf("open snapshot %s: %w", path, snapshot.ErrNotSnapshot)
	}
	n, err := snapshot.IndexLen(header[:])
	if err != nil {
		f.Close()
		return File{}, fmt.Errorf("open snapshot %s: %w", path, err)
	}
	info, err := f.Stat()
	if err != nil || n > info.Size() || n != int64(int(n)) {
		f.Close()
		return File{}, fmt.Errorf("open snapshot %s: %w: the file is shorter than its index part", path, snapshot.ErrCorrupt)
	}
	env, meta, err := verifyIndex(f, int(n))
	if err == nil && meta.Size != info.Size() {
		err = fmt.Errorf("%w: %d bytes, the index part says %d", snapshot.ErrCorrupt, info.Size(), meta.Size)
	}
	if err != nil {
		f.Close()
		return File{}, fmt.Errorf("open snapshot %s: %w", path, err)
	}
	return File{Path: path, Env: env, Meta: meta, Reader: f}, nil
}

// openIndexBytes opens the index part held in data and returns what the host keeps of
// it, every string copied out of data: the caller may release data afterwards.
func openIndexBytes(data []byte) (env string, meta Meta, err error) {
	snap, err := snapshot.Open(data)
	if err != nil {
		return "", Meta{}, err
	}
	return strings.Clone(snap.Environment()), MetaOf(snap), nil
}

// Open reads and verifies one snapshot file (checksums and format version).
func Open(path string) (File, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return File{}, fmt.Errorf("read snapshot: %w", err)
	}
	snap, err := snapshot.Open(data)
	if err == nil && snap.Size() != int64(len(data)) {
		// The reader also opens an index part alone; a file cut there has lost its bodies.
		err = fmt.Errorf("%w: %d bytes, the index part says %d", snapshot.ErrCorrupt, len(data), snap.Size())
	}
	if err != nil {
		return File{}, fmt.Errorf("open snapshot %s: %w", path, err)
	}
	return File{Path: path, Env: snap.Environment(), Meta: MetaOf(snap), Data: data, Snap: snap}, nil
}

// readIndex verifies the first n bytes of f, its index part, read into a buffer that
// is dropped once what the host keeps is copied out of it.
func readIndex(f *os.File, n int) (env string, meta Meta, err error) {
	data := make([]byte, n)
	if _, err := f.ReadAt(data, 0); err != nil {
		return "", Meta{}, fmt.Errorf("read snapshot: %w", err)
	}
	return openIndexBytes(data)
}
