//go:build !wasm

// The spool: a large build's items and compressed body blocks wait in one temporary
// file instead of in memory. The items are the largest thing a build holds (their
// canonical JSON is about the size of the input), and they are read twice after they
// are added (compressed, then indexed), each time in item order but not in the order
// they came in; the blocks are written once and copied into the snapshot once. Both
// are sequential enough for the operating system's file cache, which, unlike the
// process's heap, gives its memory back when it is needed elsewhere.

package snapshot

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"slices"
	"sync"
	"sync/atomic"
)

// SpoolTo makes the writer keep the items it is given, from now on, in a temporary
// file in dir (the system's temporary directory if dir is empty) instead of in memory,
// and the compressed bodies too when it encodes: a build's memory then no longer holds
// the items, which are about the size of its input. The snapshot is the same. It must be
// called before the first item is added. A spooling writer encodes once, as with
// EncodeOnce, and the Encoded it returns owns the file: close it (Encoded.Close) when
// it has been written. A writer that is not encoded is closed with Close.
func (w *Writer) SpoolTo(dir string) error {
	if len(w.items) > 0 || w.spool != nil || w.spent {
		return errors.New("snapshot writer: SpoolTo must come once, before the first item")
	}
	s, err := newSpool(dir)
	if err != nil {
		return fmt.Errorf("snapshot writer: spool: %w", err)
	}
	w.spool = s
	return nil
}

// Close spends the writer, which cannot be used afterwards, and releases its spool if
// it has one that no Encoded has taken over (a spooling writer that will not be
// encoded must be closed).
func (w *Writer) Close() error {
	w.spent = true
	w.items, w.ids = nil, nil
	if s := w.spool; s != nil {
		w.spool = nil
		return s.close()
	}
	return nil
}

// spool is a temporary file of the writer: the items' canonical JSON, appended as they
// are added, then the body blocks, appended by whichever core compressed them. Its
// first I/O error is kept and reported by Encode and by Encoded.WriteTo; a read that
// fails reads as zeros, so that the work in progress ends without a special case.
type spool struct {
	f    *os.File
	name string        // the file's name, when it could not be removed at once
	w    *bufio.Writer // buffers the items' appends; nil once Encode has begun
	end  atomic.Int64  // the file's length, appends included
	// chunk is how much of a dictionary's lists are held before they are stored
	// (postingsChunk; the tests make it small); an eighth of it, how much of a
	// spilled one is read at a time (listReader).
	chunk int
	mu    sync.Mutex
	err   error // the first I/O error
}

// newSpool creates the spool file in dir (the system's temporary directory if dir is
// empty).
func newSpool(dir string) (*spool, error) {
	f, err := os.CreateTemp(dir, ".snapshot-spool-*")
	if err != nil {
		return nil, err
	}
	s := &spool{f: f, w: bufio.NewWriterSize(f, 1<<20), chunk: postingsChunk}
	// Removed at once where the system allows it (the file lives until it is closed),
	// so that a build that is killed leaves nothing behind; elsewhere at close.
	if os.Remove(f.Name()) != nil {
		s.name = f.Name()
	}
	return s, nil
}

// fail records err, if it is the first error.
func (s *spool) fail(err error) {
	s.mu.Lock()
	if s.err == nil {
		s.err = err
	}
	s.mu.Unlock()
}

// failed returns the first error met, or nil.
func (s *spool) failed() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.err
}

// appendItem appends an item's JSON, while items are being added, and returns its
// offset.
func (s *spool) appendItem(b []byte) int64 {
	off := s.end.Load()
	if _, err := s.w.Write(b); err != nil {
		s.fail(err)
	}
	s.end.Add(int64(len(b)))
	return off
}

// seal ends the items' appends: from now on the file is read, and appended to by
// store only.
func (s *spool) seal() error {
	if s.w != nil {
		if err := s.w.Flush(); err != nil {
			s.fail(err)
		}
		s.w = nil
	}
	return s.failed()
}

// store appends b at a place reserved for it, from any goroutine, and returns its
// offset.
func (s *spool) store(b []byte) int64 {
	off := s.end.Add(int64(len(b))) - int64(len(b))
	s.writeAt(b, off)
	return off
}

// writeAt writes b at off, over bytes stored before.
func (s *spool) writeAt(b []byte, off int64) {
	if _, err := s.f.WriteAt(b, off); err != nil {
		s.fail(err)
	}
}

// read returns the n bytes at off, in buf's memory when it is large enough.
func (s *spool) read(off int64, n int, buf []byte) []byte {
	buf = slices.Grow(buf[:0], n)[:n]
	if _, err := s.f.ReadAt(buf, off); err != nil {
		s.fail(err)
		clear(buf)
	}
	return buf
}

// close closes the file (and removes it, if that could not be done at once).
func (s *spool) close() error {
	err := s.f.Close()
	if s.name != "" {
		err = errors.Join(err, os.Remove(s.name))
	}
	return err
}

// itemSource reads the sorted items' canonical JSON, from memory or from the spool.
type itemSource struct {
	items []pendingItem
	spool *spool // nil: every item's JSON is in memory
}

// size returns the length of item i's JSON.
func (src itemSource) size(i int) int {
	it := &src.items[i]
	if it.json != nil || src.spool == nil {
		return len(it.json)
	}
	return it.length
}

// json returns item i's JSON. A spooled item is read into buf's memory when buf is
// large enough (the result is then valid until buf is used again); pass nil for memory
// of its own.
func (src itemSource) json(i int, buf []byte) []byte {
	it := &src.items[i]
	if it.json != nil || src.spool == nil {
		return it.json
	}
	return src.spool.read(it.at, it.length, buf)
}
