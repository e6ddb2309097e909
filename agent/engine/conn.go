// One HTTP/1.1 connection of a loop (kept alive, or one request each): a nonblocking socket, the
// FIFO of requests on the wire (each with the time its latency runs from, when its last byte went
// out, and its phase), the bytes still owed to the socket, and the state of its answer parser
// (parser.go). It settles every request exactly once — answered with its phases, or failed with
// the kind the socket's end says — and tells its driver; it keeps no timers (the loop's deadline
// queue decides when a request has waited too long, and the driver whether it closes the
// connection or, with onTimeout wait, expires the request and reads its late answer uncounted).
// A connection the server said it closes waits for the server's FIN before closing, so the
// TIME_WAIT stays with the server.

package main

import "syscall"

// lingerNs: how long a settled connection the server said it closes waits for the server's FIN.
const lingerNs = 1_000_000_000

type conn struct {
	loop        *loop
	fd          int
	slot        int32
	gen         int32
	openedAt    int64
	connectedAt int64
	connected   bool
	ended       bool
	// The last answer said the connection closes: it takes no more requests.
	closeAfter bool
	// Close without waiting for the server's FIN: it answered a one-request connection without saying it closes.
	closeNow bool
	// The server's FIN (or an error) was seen: closing now leaves the TIME_WAIT with the server.
	peerClosed bool
	// The driver was told it closed (all settled) while the socket waits for the server's FIN.
	retired bool
	// Closed model: answered or connected, so it takes its next requests once its events are served.
	wantsFill bool
	// Closed model with a think time: when its next request may go (its pause's end, drawn at its
	// answer); 0 while no pause is pending.
	nextAt int64
	// Open model: counted in the pool.
	inPool bool
	// A connect that failed before the socket reached epoll, delivered by the loop after this turn.
	failedConnect syscall.Errno

	// Requests on the wire, as a ring: when latency runs from (ns), when its last byte was written
	// (ns, 0 until then) and the phase tag.
	from    []int64
	sentAt  []int64
	tags    []uint8
	first   int
	count   int
	written int64
	settled int64
	// Requests before this sequence number were failed as timeouts by expire; their answers are awaited.
	expired int64
	// Requests whose last byte has been written (a sequence number like written and settled).
	fullySent int64

	// Bytes still to write, and where in the encoded request the next byte is.
	owed     int
	writePos int

	state     int
	remaining int64
	status    int
	bytes     int64
	lineBytes int
	pending   []byte
	// When the answer being read began to arrive (its first byte, interim answers included).
	firstByteAt int64
	answerBegun bool
}

// usable: it may take another request (with a connection per request, only its first).
func (c *conn) usable() bool {
	return !c.ended && !c.closeAfter && !c.retired && !(c.loop.oneShot && c.written > 0)
}

// isOutstanding: still to be settled (on the wire and not yet failed by expire).
func (c *conn) isOutstanding(seq int64) bool {
	return seq >= c.settled && seq >= c.expired && seq < c.written
}

// expire fails the requests on the wire up to seq as timeouts and keeps the connection, which
// reads their answers without counting them before it takes its next request (onTimeout wait).
func (c *conn) expire(seq int64) {
	for at := max(c.settled, c.expired); at <= seq && at < c.written; at++ {
		index := (c.first + int(at-c.settled)) & (len(c.from) - 1)
		c.loop.driver.failed(c, errTimeout, c.from[index], int(c.tags[index]))
	}
	c.expired = max(c.expired, seq+1)
}

// queue puts one request on the wire (written by flushWrites); latency runs from `from`.
func (c *conn) queue(from int64, tag int) {
	if c.count == len(c.from) {
		c.grow()
	}
	at := (c.first + c.count) & (len(c.from) - 1)
	c.from[at] = from
	c.sentAt[at] = 0
	c.tags[at] = uint8(tag)
	c.count++
	c.written++
	c.owed += len(c.loop.request)
}

func (c *conn) grow() {
	size := max(2, len(c.from)*2)
	from := make([]int64, size)
	sentAt := make([]int64, size)
	tags := make([]uint8, size)
	for i := 0; i < c.count; i++ {
		at := (c.first + i) & (len(c.from) - 1)
		from[i] = c.from[at]
		sentAt[i] = c.sentAt[at]
		tags[i] = c.tags[at]
	}
	c.from, c.sentAt, c.tags, c.first = from, sentAt, tags, 0
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
		writeAt := c.loop.now()
		n, errno := rawSend(c.fd, batch[c.writePos:end])
		if n > 0 {
			c.owed -= n
			c.writePos = (c.writePos + n) % size
			c.markSent(writeAt)
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

// markSent stamps the requests whose last byte the write that began at writeAt completed.
func (c *conn) markSent(writeAt int64) {
	size := len(c.loop.request)
	done := c.written - int64((c.owed+size-1)/size)
	for seq := max(c.fullySent, c.settled); seq < done; seq++ {
		c.sentAt[(c.first+int(seq-c.settled))&(len(c.from)-1)] = writeAt
	}
	c.fullySent = max(c.fullySent, done)
}

// end settles every request on the wire as failed, once, closes the socket and tells the driver.
func (c *conn) end(kind int, errno syscall.Errno) {
	if c.ended {
		return
	}
	c.ended = true
	driver := c.loop.driver
	for seq := c.settled; c.count > 0; seq++ {
		at := c.first
		c.first = (c.first + 1) & (len(c.from) - 1)
		c.count--
		// Requests already failed by expire are not failed again.
		if seq >= c.expired {
			driver.failed(c, kind, c.from[at], int(c.tags[at]))
		}
	}
	c.settled = c.written
	wasConnected := c.connected
	c.loop.release(c)
	if !c.retired {
		driver.closed(c, wasConnected, errno)
	}
}

// retire: every request on the connection is settled and the answer said it closes, but the
// server's FIN has not come yet. The driver replaces it at once, and the socket waits for that FIN
// (at most lingerNs) before closing, so the server, which closes first, keeps the TIME_WAIT — as
// with ab — instead of this host's ports.
func (c *conn) retire() {
	c.retired = true
	c.loop.lingering.push(c, c.loop.now()+lingerNs)
	c.loop.driver.closed(c, true, 0)
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
	c.peerClosed = c.peerClosed || hangUp
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
	} else if c.count == 0 && (c.peerClosed || c.closeNow) {
		c.end(errClosed, 0)
	} else if c.count == 0 && !c.retired {
		c.retire()
	}
}

// complete settles the oldest request on the wire as answered, with its phases: the connect it
// paid (the first request of a connection opened it), and its wait from its last byte written to
// the answer's first byte.
func (c *conn) complete(now int64) {
	at := c.first
	c.first = (c.first + 1) & (len(c.from) - 1)
	c.count--
	seq := c.settled
	c.settled++
	answer := answerPhases{waitingNs: -1}
	if seq == 0 {
		answer.withConnect = true
		answer.connectNs = c.connectedAt - c.openedAt
	}
	if sentAt := c.sentAt[at]; sentAt > 0 && c.answerBegun {
		answer.waitingNs = max(0, c.firstByteAt-sentAt)
	}
	answerBytes := c.bytes
	c.bytes = 0
	c.state = stateHead
	c.answerBegun = false
	if seq < c.expired {
		c.loop.driver.lateAnswered(c)
		return
	}
	c.loop.driver.answered(c, c.status, answerBytes, c.from[at], int(c.tags[at]), now, answer)
}

// answerPhases is what an answer's phases are recorded from.
type answerPhases struct {
	withConnect bool
	// The connect this request paid (0 unless it opened its connection).
	connectNs int64
	// Last byte written to the answer's first byte; -1 when unknown (answered before fully written).
	waitingNs int64
}
