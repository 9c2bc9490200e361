package server

import (
	"bytes"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"os"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/cdaedge/cdaedge/edge"
)

// limitConns returns ln with at most limit connections open at once (limit <= 0: no
// limit). A connection past the limit is answered at once with 503 `unavailable` and
// Retry-After (retryAfter, at least a second) and closed, rather than queued. Its
// connections log a slow sender cut by the header timeout (see connState).
func limitConns(ln net.Listener, limit int, retryAfter time.Duration, log *slog.Logger) *limitListener {
	l := &limitListener{Listener: ln, log: log, retryAfter: max(1, int(retryAfter/time.Second))}
	l.held.New = func() any { b := make([]byte, 0, 16<<10); return &b }
	if limit > 0 {
		l.slots = make(chan struct{}, limit)
		// Turning connections away takes a goroutine each, for a moment; bound them too.
		l.refusing = make(chan struct{}, 64)
	}
	return l
}

type limitListener struct {
	net.Listener
	log        *slog.Logger
	retryAfter int
	slots      chan struct{} // one token per open connection; nil: no limit
	refusing   chan struct{}
	refused    atomic.Uint64
	// held are the buffers of the bytes its connections hold back (conn.Write): one is
	// taken for an answer and given back once it is sent, so an idle connection holds
	// none.
	held sync.Pool
}

// Accept returns the next connection within the limit, answering those over it.
func (l *limitListener) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		if l.slots == nil {
			return &conn{Conn: c, log: l.log, pool: &l.held}, nil
		}
		select {
		case l.slots <- struct{}{}:
			return &conn{Conn: c, log: l.log, pool: &l.held, done: func() { <-l.slots }}, nil
		default:
			l.refuse(c)
		}
	}
}

// refuse answers a connection over the limit with 503 and closes it.
func (l *limitListener) refuse(c net.Conn) {
	if n := l.refused.Add(1); n == 1 || n%1000 == 0 {
		l.log.Warn("connection limit reached; answering 503", "limit", cap(l.slots), "refused", n)
	}
	select {
	case l.refusing <- struct{}{}:
	default:
		_ = c.Close() // too many being turned away already
		return
	}
	go func() {
		defer func() { <-l.refusing }()
		body := edge.AppendErrorEnvelope(nil, edge.Errorf(edge.CodeUnavailable,
			"the server has as many connections open as it allows (%d); retry later", cap(l.slots)))
		head := "HTTP/1.1 503 Service Unavailable\r\nContent-Type: " + edge.ContentTypeJSON +
			"\r\nRetry-After: " + strconv.Itoa(l.retryAfter) + "\r\nConnection: close\r\nContent-Length: " +
			strconv.Itoa(len(body)) + "\r\n\r\n"
		// Read the request's head first (briefly): an answer written before the client
		// has sent its request is, to an HTTP client, an unsolicited response on an idle
		// connection, which it drops and reports as a broken connection, not as a 503.
		_ = c.SetReadDeadline(time.Now().Add(500 * time.Millisecond))
		awaitRequestHead(c)
		_ = c.SetDeadline(time.Now().Add(time.Second))
		_, _ = c.Write(append([]byte(head), body...))
		// Half-close and read what the client sent, so that closing does not reset the
		// connection before the client has read the answer.
		if tc, ok := c.(interface{ CloseWrite() error }); ok {
			_ = tc.CloseWrite()
		}
		var buf [4096]byte
		for {
			if _, err := c.Read(buf[:]); err != nil {
				break
			}
		}
		_ = c.Close()
	}()
}

// awaitRequestHead reads from c until the end of a request's head (an empty line), 8 KiB,
// or an error such as c's read deadline.
func awaitRequestHead(c net.Conn) {
	var buf [8192]byte
	n := 0
	for n < len(buf) {
		m, err := c.Read(buf[n:])
		n += m
		if bytes.Contains(buf[:n], []byte("\r\n\r\n")) || err != nil {
			return
		}
	}
}

// conn frees its listener slot once closed, logs a slow sender (a read cut by its
// deadline while the server waits for a request's headers), and sends an answer in
// one write (Write).
type conn struct {
	net.Conn
	log      *slog.Logger
	done     func()
	once     sync.Once
	read     atomic.Int64 // bytes read so far
	idleAt   atomic.Int64 // read when the connection last became idle; -1 while active
	timedOut atomic.Bool

	// held is what Write holds back (nil when nothing is), from pool, and werr the error
	// of the write that sent it, if it failed; wmu guards both: the server's background
	// read, which flushes too, runs beside the handler's writes.
	wmu  sync.Mutex
	held *[]byte
	pool *sync.Pool
	werr error
}

// maxHeld bounds the bytes a connection holds back (Write); larger answers go out in
// writes of about this size.
const maxHeld = 256 << 10

// Write holds b back, after what it holds already, until the server is done with the
// answer or more than maxHeld bytes are held. net/http writes an answer through a 4 KiB
// buffer: a 60 KB answer went out in 15 writes, each a trip through both ends' TCP
// stacks, and even a 5 KB item in two. The server is done when it clears the write
// deadline (after every answer), reads (a request body, an expected 100 Continue, the
// next request), half-closes or closes the connection: each of these sends what is
// held first, within the answer's write deadline.
func (c *conn) Write(b []byte) (int, error) {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	if c.werr != nil {
		return 0, c.werr
	}
	if c.held == nil {
		c.held = c.pool.Get().(*[]byte)
	}
	if len(*c.held)+len(b) <= maxHeld {
		*c.held = append(*c.held, b...)
		return len(b), nil
	}
	before := len(*c.held)
	bufs := net.Buffers{*c.held, b}
	n, err := bufs.WriteTo(c.Conn) // one writev
	c.releaseHeld()
	c.werr = err
	return int(max(n-int64(before), 0)), err
}

// flushHeld sends what Write holds back.
func (c *conn) flushHeld() error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	if c.held == nil || c.werr != nil {
		return c.werr
	}
	if len(*c.held) > 0 {
		_, c.werr = c.Conn.Write(*c.held)
	}
	c.releaseHeld()
	return c.werr
}

// releaseHeld gives the held buffer back, empty (a grown one is dropped).
func (c *conn) releaseHeld() {
	if cap(*c.held) <= maxHeld {
		*c.held = (*c.held)[:0]
		c.pool.Put(c.held)
	}
	c.held = nil
}

func (c *conn) SetWriteDeadline(t time.Time) error {
	_ = c.flushHeld() // under the deadline it replaces (net/http clears it after an answer)
	return c.Conn.SetWriteDeadline(t)
}

func (c *conn) SetDeadline(t time.Time) error {
	_ = c.flushHeld()
	return c.Conn.SetDeadline(t)
}

// CloseWrite sends what is held and half-closes the connection (net/http does so
// before closing a connection whose client may still be sending).
func (c *conn) CloseWrite() error {
	if err := c.flushHeld(); err != nil {
		return err
	}
	if cw, ok := c.Conn.(interface{ CloseWrite() error }); ok {
		return cw.CloseWrite()
	}
	return nil
}

// connState follows the server's view of each connection, for conn.Read.
func connState(c net.Conn, state http.ConnState) {
	cc, ok := c.(*conn)
	if !ok {
		return
	}
	switch state {
	case http.StateActive:
		cc.idleAt.Store(-1)
	case http.StateIdle:
		cc.idleAt.Store(cc.read.Load())
	}
}

func (c *conn) Read(b []byte) (int, error) {
	if err := c.flushHeld(); err != nil {
		return 0, err
	}
	n, err := c.Conn.Read(b)
	read := c.read.Add(int64(n))
	if err == nil || !errors.Is(err, os.ErrDeadlineExceeded) || c.timedOut.Load() {
		return n, err
	}
	// While a request is active, the handler reports its body's timeout and the server
	// itself expires reads it no longer wants. An idle connection with nothing new read
	// reached the idle timeout: not a slow sender.
	switch idle := c.idleAt.Load(); {
	case idle < 0:
	case idle > 0 && read == idle:
		c.log.Debug("idle connection closed", "remote", c.RemoteAddr().String())
	default:
		c.timedOut.Store(true)
		c.log.Warn("slow sender: request headers not received within the header timeout; connection closed",
			"reason", "read_header_timeout", "remote", c.RemoteAddr().String(), "bytes_read", read)
	}
	return n, err
}

func (c *conn) Close() error {
	_ = c.flushHeld()
	err := c.Conn.Close()
	c.once.Do(func() {
		if c.done != nil {
			c.done()
		}
	})
	return err
}
