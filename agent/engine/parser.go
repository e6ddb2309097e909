// The answer parser of a connection: status line and headers (Content-Length, chunked,
// `Connection`, HTTP/1.0), bodies by length, in chunks (trailers skipped) or until the close, 1xx
// interim answers skipped, 204/304 and HEAD without a body. It reads each read's bytes where they
// lie, carrying only a head split over reads, and allocates nothing per answer.

package main

import (
	"bytes"
	"errors"
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
			at += c.takeSized(len(chunk) - at)
			if c.remaining == 0 {
				c.complete(now)
			}
		case stateUntilClose:
			c.bytes += int64(len(chunk) - at)
			at = len(chunk)
		case stateChunkData:
			at += c.takeSized(len(chunk) - at)
			if c.remaining == 0 {
				c.state = stateChunkEnd
			}
		default:
			// The chunked framing's lines, read a byte at a time.
			b := chunk[at]
			at++
			c.bytes++
			if err := c.framingByte(b, now); err != nil {
				return err
			}
		}
	}
	return nil
}

// takeSized counts what a sized part (a length body, a chunk) still awaits out of the available
// bytes, and returns how many it took.
func (c *conn) takeSized(available int) int {
	take := min(c.remaining, int64(available))
	c.bytes += take
	c.remaining -= take
	return int(take)
}

// framingByte reads one byte of a chunk's size line, its extension, the line ending its data, or
// the trailers.
func (c *conn) framingByte(b byte, now int64) error {
	switch c.state {
	case stateChunkSize:
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
		if b == '\n' {
			c.chunkSizeDone()
		}
	case stateChunkEnd:
		if b == '\n' {
			c.state = stateChunkSize
			c.remaining = 0
		} else if b != '\r' {
			return errProtocol
		}
	case stateTrailers:
		if b == '\n' {
			if c.lineBytes == 0 {
				c.complete(now)
			}
			c.lineBytes = 0
		} else if b != '\r' {
			c.lineBytes++
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
	if !c.answerBegun {
		c.answerBegun = true
		c.firstByteAt = now
	}
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
	if c.loop.oneShot && !closes {
		// The server would keep it open: this side closes it, there is no FIN to wait for.
		c.closeAfter, c.closeNow = true, true
	}
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
