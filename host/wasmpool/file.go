package wasmpool

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/cdaedge/cdaedge/snapshot"
)

// File is one snapshot file the pool serves. Each instance holds only the file's index
// part; the item bodies a request needs are copied into the instance as it asks for
// them (wasm/README.md, "Item bodies by range"), from Data or through Reader.
type File struct {
	// Data is the whole file, or its index part alone, held in memory; nil when the file
	// is read through Reader alone. The pool keeps a reference to it; it must not change.
	Data []byte
	// Reader reads the file by range, for what Data does not hold: with Data nil, the
	// index part, read straight into each instance's memory as the instance is built (so
	// that the host holds no copy of its own), and with Data nil or only the index part,
	// the item bodies the instances ask for. Its bytes must not change.
	Reader io.ReaderAt
}

// source is one File of a generation, with what its header says.
type source struct {
	File
	hash     [32]byte // the content hash, which need-ranges frames name the file by
	named    bool     // whether it has a header, and so a hash
	indexLen int64    // the index part's length
}

// newSource reads f's header, from Data or else through Reader.
func newSource(f File) (*source, error) {
	src := &source{File: f}
	header := f.Data
	if f.Data == nil {
		if f.Reader == nil {
			return nil, errors.New("neither bytes nor a reader")
		}
		header = make([]byte, snapshot.HeaderSize)
		if n, err := f.Reader.ReadAt(header, 0); n < len(header) {
			return nil, fmt.Errorf("read header: %w", err)
		}
	}
	// A Data too short for a header, or whose header is wrong, goes to the module as it
	// is, which answers why it is not a snapshot.
	src.indexLen = int64(len(f.Data))
	if len(header) >= snapshot.HeaderSize {
		src.hash, src.named = [32]byte(header[32:64]), true
	}
	n, err := snapshot.IndexLen(header)
	switch {
	case err == nil && (f.Data == nil || n <= int64(len(f.Data))):
		src.indexLen = n
	case f.Data == nil:
		return nil, err
	}
	return src, nil
}

// Whole returns the Files of whole snapshot files held in memory.
func Whole(data ...[]byte) []File {
	files := make([]File, len(data))
	for i, d := range data {
		files[i] = File{Data: d}
	}
	return files
}

// readChunk is how much of an index part load reads at once: a bound on each read
// call, not a buffer (reads land in the instance's memory).
const readChunk = 8 << 20

// load hands src's index part to load_snapshot. Only the index part goes into the
// instance: item bodies stay in the host's one copy of the file, or on disk, and the
// instance asks for the blocks a request needs. An index part that the host does not
// hold is read from the file straight into the buffer the instance allocated for it.
func (in *instance) load(ctx context.Context, src *source) error {
	if src.Data != nil {
		return in.give(ctx, in.loadSnapshot, src.Data[:src.indexLen])
	}
	ptr, dst, err := in.buffer(ctx, uint64(src.indexLen))
	if err != nil {
		return err
	}
	for off := 0; off < len(dst); off += readChunk {
		part := dst[off:min(off+readChunk, len(dst))]
		if n, err := src.Reader.ReadAt(part, int64(off)); n < len(part) {
			return fmt.Errorf("read index part: %w", err)
		}
	}
	// The file was verified when it was opened; a different header now means it was
	// rewritten in place since, which the instance must not serve unverified.
	if [32]byte(dst[32:64]) != src.hash {
		return errors.New("the file changed on disk since it was verified")
	}
	return in.call(ctx, in.loadSnapshot, ptr, len(dst))
}
