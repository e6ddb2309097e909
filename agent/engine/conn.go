// One HTTP/1.1 keep-alive connection of a loop: a nonblocking socket, the FIFO of requests on the
// wire (each with the time its latency runs from and its phase), the bytes still owed to the
// socket, and the answer parser (Content-Length, chunked, HEAD, 1xx, 204/304, read-until-close,
// `Connection: close`). It settles every request exactly once — answered, or failed with the kind
// the socket's end says — and tells its driver; it keeps no timers (the loop's deadline queue
// decides when a request has waited too long). The parser allocates nothing per answer.

package main

import (
	"bytes"
	"errors"
	"syscall"
)

const maxHeadBytes = 64 * 1024

// Parser states: reading a status line and headers, or which part of a body.
const (
	stateHead = iota
	stateLength
	stateChunkSize
	stateChunkExtension
	stateChunkData
	stateChunkEnd
	stateTrailers
	stateUntilClose
)

var errProtocol = errors.New("malformed answer")

var headEnd = []byte("\r\n\r\n")

type conn struct {
	loop      *loop
	fd        int
	slot      int32
	gen       int32
	openedAt  int64
	connected bool
	ended     bool
	// The last answer said the connection closes: it takes no more requests.
	closeAfter bool
	// Closed model: answered or connected, so it takes its next requests once its events are served.
	wantsFill bool
	// Open model: counted in the pool.
	inPool bool
	// A connect that failed before the socket reached epoll, delivered by the loop after this turn.
	failedConnect syscall.Errno

	// Requests on the wire, as a ring: when latency runs from (ns) and the phase tag.
	from    []int64
	tags    []uint8
	first   int
	count   int
	written int64
	settled int64

	// Bytes still to write, and where in the encoded request the next byte is.
	owed     int
	writePos int

	state     int
	remaining int64
	status    int
	bytes     int64
	lineBytes int
	pending   []byte
}

func (c *conn) usable() bool { return !c.ended && !c.closeAfter }

func (c *conn) isOutstanding(seq int64) bool { return seq >= c.settled && seq < c.written }

// queue puts one request on the wire (written by flushWrites); latency runs from `from`.
func (c *conn) queue(from int64, tag int) {
	if c.count == len(c.from) {
		c.grow()
	}
	at := (c.first + c.count) & (len(c.from) - 1)
	c.from[at] = from
	c.tags[at] = uint8(tag)
	c.count++
	c.written++
	c.owed += len(c.loop.request)
}

func (c *conn) grow() {
	size := max(2, len(c.from)*2)
	from := make([]int64, size)
	tags := make([]uint8, size)
	for i := 0; i < c.count; i++ {
		at := (c.first + i) & (len(c.from) - 1)
		from[i] = c.from[at]
		tags[i] = c.tags[at]
	}
	c.from, c.tags, c.first = from, tags, 0
}

// flushWrites writes what is owed until the socket takes no more; false when the connection ended.
func (c *conn) flushWrites() bool {
	if !c.connected || c.ended {
		return !c.ended
	}
	batch := c.loop.batch
	size := len(c.loop.request)
	for c.owed > 0 {
		end := min(len(batch), c.writePos+c.owed)
		n, errno := rawSend(c.fd, batch[c.writePos:end])
		if n > 0 {
			c.owed -= n
			c.writePos = (c.writePos + n) % size
			continue
		}
		if errno == syscall.EAGAIN || errno == syscall.EINTR {
			// The socket buffer is full: its EPOLLOUT edge brings the rest.
			return true
		}
		c.end(errorKind(errno), errno)
		return false
	}
	return true
}

// end settles every request on the wire as failed, once, closes the socket and tells the driver.
func (c *conn) end(kind int, errno syscall.Errno) {
	if c.ended {
		return
	}
	c.ended = true
	driver := c.loop.driver
	for c.count > 0 {
		at := c.first
		c.first = (c.first + 1) & (len(c.from) - 1)
		c.count--
		driver.failed(c, kind, c.from[at], int(c.tags[at]))
	}
	c.settled = c.written
	wasConnected := c.connected
	c.loop.release(c)
	driver.closed(c, wasConnected, errno)
}

// drop closes without settling anything: the step is over and what was on the wire stays in flight.
func (c *conn) drop() {
	if c.ended {
		return
	}
	c.ended = true
	c.count = 0
	c.settled = c.written
	c.loop.release(c)
}

// onReadable reads until the socket is empty (or, without a hang-up, until a short read).
func (c *conn) onReadable(hangUp bool) {
	buffer := c.loop.readBuffer
	for !c.ended {
		n, receivedAt, errno := c.loop.receiver.read(c.fd, buffer)
		if n > 0 {
			c.onData(buffer[:n], c.loop.arrival(receivedAt))
			if n < len(buffer) && !hangUp {
				return
			}
			continue
		}
		if n == 0 {
			// An answer without a length ends with the connection.
			if c.state == stateUntilClose && c.count > 0 {
				c.complete(c.loop.now())
			}
			c.end(errClosed, 0)
			return
		}
		switch errno {
		case syscall.EAGAIN:
			return
		case syscall.EINTR:
			continue
		default:
			c.end(errorKind(errno), errno)
			return
		}
	}
}

func (c *conn) onData(chunk []byte, now int64) {
	if err := c.parse(chunk, now); err != nil {
		// A malformed answer: nothing more on this connection can be trusted.
		c.end(errOther, 0)
		return
	}
	if c.ended || !c.closeAfter {
		return
	}
	if c.count > 0 && c.state == stateHead {
		c.end(errClosed, 0)
	} else if c.count == 0 {
		c.end(errClosed, 0)
	}
}

func (c *conn) parse(chunk []byte, now int64) error {
	at := 0
	for at < len(chunk) && !c.ended {
		switch c.state {
		case stateHead:
			next, err := c.readHead(chunk, at, now)
			if err != nil {
				return err
			}
			at = next
		case stateLength:
			take := min(c.remaining, int64(len(chunk)-at))
			c.bytes += take
			c.remaining -= take
			at += int(take)
			if c.remaining == 0 {
				c.complete(now)
			}
		case stateUntilClose:
			c.bytes += int64(len(chunk) - at)
			at = len(chunk)
		case stateChunkSize:
			b := chunk[at]
			at++
			c.bytes++
			if digit := hexValue(b); digit >= 0 {
				c.remaining = c.remaining*16 + int64(digit)
				if c.remaining > 1<<48 {
					return errProtocol
				}
			} else if b == '\n' {
				c.chunkSizeDone()
			} else if b == ';' {
				c.state = stateChunkExtension
			} else if b != '\r' && b != ' ' && b != '\t' {
				return errProtocol
			}
		case stateChunkExtension:
			b := chunk[at]
			at++
			c.bytes++
			if b == '\n' {
				c.chunkSizeDone()
			}
		case stateChunkData:
			take := min(c.remaining, int64(len(chunk)-at))
			c.bytes += take
			c.remaining -= take
			at += int(take)
			if c.remaining == 0 {
				c.state = stateChunkEnd
			}
		case stateChunkEnd:
			b := chunk[at]
			at++
			c.bytes++
			if b == '\n' {
				c.state = stateChunkSize
				c.remaining = 0
			} else if b != '\r' {
				return errProtocol
			}
		case stateTrailers:
			b := chunk[at]
			at++
			c.bytes++
			if b == '\n' {
				if c.lineBytes == 0 {
					c.complete(now)
				}
				c.lineBytes = 0
			} else if b != '\r' {
				c.lineBytes++
			}
		}
	}
	return nil
}

func (c *conn) chunkSizeDone() {
	if c.remaining == 0 {
		c.state = stateTrailers
		c.lineBytes = 0
	} else {
		c.state = stateChunkData
	}
}

// readHead reads a status line and headers from chunk at start; returns where the body starts.
// A head split over reads is carried in the connection's own buffer.
func (c *conn) readHead(chunk []byte, start int, now int64) (int, error) {
	if len(c.pending) > 0 {
		carried := len(c.pending)
		c.pending = append(c.pending, chunk[start:]...)
		end := bytes.Index(c.pending[max(0, carried-3):], headEnd)
		if end < 0 {
			if len(c.pending) > maxHeadBytes {
				return 0, errProtocol
			}
			return len(chunk), nil
		}
		end += max(0, carried-3)
		head := c.pending[:end]
		bodyAt := start + end + 4 - carried
		err := c.acceptHead(head, now)
		c.pending = c.pending[:0]
		return bodyAt, err
	}
	end := bytes.Index(chunk[start:], headEnd)
	if end < 0 {
		if len(chunk)-start > maxHeadBytes {
			return 0, errProtocol
		}
		c.pending = append(c.pending[:0], chunk[start:]...)
		return len(chunk), nil
	}
	return start + end + 4, c.acceptHead(chunk[start:start+end], now)
}

func (c *conn) acceptHead(head []byte, now int64) error {
	if c.count == 0 {
		return errProtocol // an answer to no request
	}
	c.bytes += int64(len(head) + 4)
	// "HTTP/1.x SSS"
	if len(head) < 12 || head[0] != 'H' || head[8] != ' ' {
		return errProtocol
	}
	status := int(head[9]-'0')*100 + int(head[10]-'0')*10 + int(head[11]-'0')
	if head[9] < '0' || head[9] > '9' || head[10] < '0' || head[10] > '9' || head[11] < '0' || head[11] > '9' || status < 100 {
		return errProtocol
	}
	contentLength := int64(-1)
	chunked := false
	closes := head[7] == '0'
	line := bytes.IndexByte(head, '\n') + 1
	for line > 0 && line < len(head) {
		next := bytes.IndexByte(head[line:], '\n')
		if next < 0 {
			next = len(head)
		} else {
			next += line
		}
		field := head[line:next]
		if colon := bytes.IndexByte(field, ':'); colon > 0 {
			name, value := field[:colon], trimSpace(field[colon+1:])
			switch {
			case len(name) == 14 && sameName(name, "content-length"):
				length, ok := parseDecimal(value)
				if !ok {
					return errProtocol
				}
				contentLength = length
			case len(name) == 17 && sameName(name, "transfer-encoding"):
				chunked = hasSuffixFold(value, "chunked")
			case len(name) == 10 && sameName(name, "connection"):
				if containsFold(value, "close") {
					closes = true
				} else if containsFold(value, "keep-alive") {
					closes = false
				}
			}
		}
		line = next + 1
	}
	if status < 200 && status != 101 {
		// An interim answer (100 Continue, 103 Early Hints): the final one follows.
		return nil
	}
	c.status = status
	c.closeAfter = closes
	switch {
	case c.loop.head || status == 204 || status == 304 || status == 101:
		c.complete(now)
	case chunked:
		c.state = stateChunkSize
		c.remaining = 0
	case contentLength > 0:
		c.state = stateLength
		c.remaining = contentLength
	case contentLength == 0:
		c.complete(now)
	default:
		c.state = stateUntilClose
		c.closeAfter = true
	}
	return nil
}

// complete settles the oldest request on the wire as answered.
func (c *conn) complete(now int64) {
	at := c.first
	c.first = (c.first + 1) & (len(c.from) - 1)
	c.count--
	c.settled++
	answerBytes := c.bytes
	c.bytes = 0
	c.state = stateHead
	c.loop.driver.answered(c, c.status, answerBytes, c.from[at], int(c.tags[at]), now)
}

func hexValue(b byte) int {
	switch {
	case b >= '0' && b <= '9':
		return int(b - '0')
	case b|0x20 >= 'a' && b|0x20 <= 'f':
		return int(b|0x20) - 'a' + 10
	}
	return -1
}

// sameName matches a header name against a lower-case one, ignoring case.
func sameName(name []byte, lower string) bool {
	for i := range len(lower) {
		if name[i]|0x20 != lower[i] {
			return false
		}
	}
	return true
}

func trimSpace(value []byte) []byte {
	for len(value) > 0 && (value[0] == ' ' || value[0] == '\t') {
		value = value[1:]
	}
	for len(value) > 0 && (value[len(value)-1] == ' ' || value[len(value)-1] == '\t' || value[len(value)-1] == '\r') {
		value = value[:len(value)-1]
	}
	return value
}

func parseDecimal(value []byte) (int64, bool) {
	if len(value) == 0 || len(value) > 15 {
		return 0, false
	}
	var n int64
	for _, b := range value {
		if b < '0' || b > '9' {
			return 0, false
		}
		n = n*10 + int64(b-'0')
	}
	return n, true
}

func hasSuffixFold(value []byte, lower string) bool {
	return len(value) >= len(lower) && sameName(value[len(value)-len(lower):], lower)
}

func containsFold(value []byte, lower string) bool {
	for i := 0; i+len(lower) <= len(value); i++ {
		if sameName(value[i:], lower) {
			return true
		}
	}
	return false
}
