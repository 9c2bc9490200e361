package ingest

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"runtime"
	"sync"
)

// progressEvery is how many items pass between Progress calls.
const progressEvery = 2048

// An NDJSON input is read in batches of lines. One goroutine reads, one per core checks
// the batches' items (scan), and the caller's goroutine takes the batches in input order
// and records each item (accept), so problems, ContentIDs and items come out as a
// single pass would give them.
const (
	batchLines = 256     // lines per batch, at most
	batchBytes = 4 << 20 // bytes per batch, about (a longer line makes a batch of its own)
)

// lineBatch is consecutive lines of an NDJSON input and, once done is closed, what
// checking their items found.
type lineBatch struct {
	buf     []byte // the lines' bytes, terminators dropped
	lines   []batchLine
	results []scanned
	err     error // a read error after the batch's lines
	done    chan struct{}
}

// batchLine is one line of a batch: where it is in buf, its number in the input, the
// input's bytes read up to its end (for progress), and whether it holds an item.
type batchLine struct {
	start, end int
	number     int
	read       int64
	tooLong    bool
	item       bool
}

// AddNDJSON reads NDJSON items from r, named name in problem reports; size is the
// input's size for progress reports (-1 if unknown). Blank lines are allowed.
func (b *Builder) AddNDJSON(name string, r io.Reader, size int64) error {
	fi := b.addFileName(name)
	workers := runtime.GOMAXPROCS(0)
	ordered := make(chan *lineBatch, 2*workers) // batches in input order, for accepting
	work := make(chan *lineBatch, 2*workers)    // the same batches, for checking
	stop := make(chan struct{})
	// Accepted batches' buffers go back to the reader: the items keep nothing of them
	// (prepared items are copies), and reusing them spares allocating and zeroing the
	// whole input again.
	free := make(chan []byte, 2*workers+2)
	var wg sync.WaitGroup
	wg.Go(func() { readBatches(r, ordered, work, stop, free) })
	for range workers {
		wg.Go(func() {
			for batch := range work {
				batch.results = make([]scanned, len(batch.lines))
				for i, l := range batch.lines {
					if l.item {
						batch.results[i] = b.scanAndPrepare(batch.buf[:l.end], l.start, l.end)
					}
				}
				close(batch.done)
			}
		})
	}
	defer wg.Wait()
	defer close(stop) // on a read error, the reader stops early
	items := 0
	var read int64
	for batch := range ordered {
		<-batch.done
		for i, l := range batch.lines {
			read = l.read
			switch {
			case l.tooLong:
				b.problem(Problem{File: name, Line: l.number, Message: fmt.Sprintf("line longer than %d MiB", MaxLine>>20)})
			case l.item:
				items++
				b.accept(fi, int32(l.number), batch.buf[:l.end], l.start, "", nil, batch.results[i])
				if b.opts.Progress != nil && items%progressEvery == 0 {
					b.opts.Progress(Progress{File: name, Items: items, Bytes: read, Total: size})
				}
			}
		}
		if batch.err != nil {
			return fmt.Errorf("read %s: %w", name, batch.err)
		}
		select {
		case free <- batch.buf[:0]:
		default:
		}
		batch.buf, batch.results = nil, nil
	}
	b.finishFile(name, items, read, size)
	return nil
}

// readBatches reads r's lines into batches, sends each to ordered and then to work,
// and closes both at the end of the input or after a read error (carried by the last
// batch), or when stop is closed. It fills buffers from free when there are some.
func readBatches(r io.Reader, ordered, work chan<- *lineBatch, stop <-chan struct{}, free <-chan []byte) {
	defer close(ordered)
	defer close(work)
	br := bufio.NewReaderSize(r, 1<<20)
	var long []byte
	var read int64
	newBatch := func() *lineBatch {
		b := &lineBatch{done: make(chan struct{}), lines: make([]batchLine, 0, batchLines)}
		select {
		case b.buf = <-free:
		default:
			// Room for a full batch and the line that ends it, most of the time: the
			// buffer does not grow by copying.
			b.buf = make([]byte, 0, batchBytes+batchBytes/4)
		}
		return b
	}
	batch := newBatch()
	send := func() bool {
		select {
		case ordered <- batch:
		case <-stop:
			return false
		}
		select {
		case work <- batch:
		case <-stop:
			return false
		}
		batch = newBatch()
		return true
	}
	for number := 1; ; number++ {
		line, tooLong, err := readLine(br, &long)
		read += int64(len(line))
		if err != nil && err != io.EOF {
			batch.err = err
			send()
			return
		}
		if len(line) == 0 && err == io.EOF {
			break
		}
		if number == 1 {
			line = bytes.TrimPrefix(line, []byte("\xef\xbb\xbf"))
		}
		l := batchLine{number: number, read: read, tooLong: tooLong}
		if !tooLong {
			body := trimLine(line)
			l.start = len(batch.buf)
			batch.buf = append(batch.buf, body...)
			l.end = len(batch.buf)
			l.item = len(bytes.TrimSpace(body)) > 0
		}
		batch.lines = append(batch.lines, l)
		if len(batch.lines) >= batchLines || len(batch.buf) >= batchBytes {
			if !send() {
				return
			}
		}
		if err == io.EOF {
			break
		}
	}
	if len(batch.lines) > 0 {
		send()
	}
}

// readLine returns the next line including its newline; a line longer than MaxLine is
// consumed and reported as tooLong. long is a reusable buffer for lines that do not fit
// in the reader's buffer.
func readLine(br *bufio.Reader, long *[]byte) (line []byte, tooLong bool, err error) {
	line, err = br.ReadSlice('\n')
	if err != bufio.ErrBufferFull {
		return line, false, err
	}
	buf := append((*long)[:0], line...)
	n := int64(len(line))
	for err == bufio.ErrBufferFull {
		line, err = br.ReadSlice('\n')
		n += int64(len(line))
		if !tooLong {
			buf = append(buf, line...)
			if len(buf) > MaxLine+2 {
				tooLong, buf = true, buf[:0]
			}
		}
	}
	if cap(buf) <= MaxLine+2 {
		*long = buf
	}
	if tooLong {
		// Keep the byte count honest for progress; the content is dropped.
		return make([]byte, 0), true, err
	}
	return buf, false, err
}

// trimLine drops the line terminator (LF or CRLF).
func trimLine(line []byte) []byte {
	line = bytes.TrimSuffix(line, []byte("\n"))
	return bytes.TrimSuffix(line, []byte("\r"))
}
