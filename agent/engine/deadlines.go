// A loop's request deadlines, oldest first, and its settled connections waiting for the server's FIN. A loop writes requests in the order of the time their
// timeout runs from (the write in the closed model, the intended time in the open one, whose slots
// leave their queue in order), so the deadlines arrive sorted and a FIFO ring is a priority queue.
// Entries of requests already settled are skipped when they reach the head.

package main

type deadline struct {
	conn *conn
	seq  int64
	at   int64
}

// fifo is a ring of values, oldest first, that doubles when full (its length stays a power of two).
type fifo[T any] struct {
	ring  []T
	first int
	count int
}

func (f *fifo[T]) push(value T) {
	if f.count == len(f.ring) {
		ring := make([]T, max(64, len(f.ring)*2))
		for i := 0; i < f.count; i++ {
			ring[i] = f.ring[(f.first+i)&(len(f.ring)-1)]
		}
		f.ring, f.first = ring, 0
	}
	f.ring[(f.first+f.count)&(len(f.ring)-1)] = value
	f.count++
}

// oldest is the entry at the head; only while count > 0.
func (f *fifo[T]) oldest() *T {
	return &f.ring[f.first]
}

// drop removes the head, cleared so that what it pointed to can go.
func (f *fifo[T]) drop() {
	var zero T
	f.ring[f.first] = zero
	f.first = (f.first + 1) & (len(f.ring) - 1)
	f.count--
}

type deadlineQueue struct {
	fifo[deadline]
}

func (q *deadlineQueue) push(c *conn, seq int64, at int64) {
	q.fifo.push(deadline{c, seq, at})
}

func (q *deadlineQueue) skipSettled() {
	for q.count > 0 {
		head := q.oldest()
		if head.conn.isOutstanding(head.seq) {
			return
		}
		q.drop()
	}
}

// next is the deadline of the oldest request still on the wire; ok false when none is.
func (q *deadlineQueue) next() (int64, bool) {
	q.skipSettled()
	if q.count == 0 {
		return 0, false
	}
	return q.oldest().at, true
}

// popExpired removes and returns the oldest request (its connection and sequence number) if its
// deadline is at or before now; a nil connection when none is due.
func (q *deadlineQueue) popExpired(now int64) (*conn, int64) {
	at, ok := q.next()
	if !ok || at > now {
		return nil, 0
	}
	head := *q.oldest()
	q.drop()
	return head.conn, head.seq
}

// timeRing is a FIFO of times (ns), sorted because they are pushed in order.
type timeRing struct {
	fifo[int64]
}

func (r *timeRing) head() (int64, bool) {
	if r.count == 0 {
		return 0, false
	}
	return *r.oldest(), true
}

func (r *timeRing) pop() int64 {
	at := *r.oldest()
	r.drop()
	return at
}

// lingerQueue holds settled connections waiting for the server's FIN, in the order they began to
// wait (all wait the same time, so their limits arrive sorted). Ones already closed are skipped.
type lingerQueue struct {
	conns []*conn
	times timeRing
	first int
}

func (q *lingerQueue) push(c *conn, until int64) {
	if q.first > 64 && q.first*2 > len(q.conns) {
		// Most of the slice is behind the head: move the waiting ones down instead of growing it.
		kept := copy(q.conns, q.conns[q.first:])
		clear(q.conns[kept:])
		q.conns, q.first = q.conns[:kept], 0
	}
	q.conns = append(q.conns, c)
	q.times.push(until)
}

func (q *lingerQueue) skipClosed() {
	for q.first < len(q.conns) && q.conns[q.first].ended {
		q.pop()
	}
}

func (q *lingerQueue) pop() *conn {
	c := q.conns[q.first]
	q.conns[q.first] = nil
	q.first++
	q.times.pop()
	return c
}

// next is when the oldest connection still waiting stops waiting.
func (q *lingerQueue) next() (int64, bool) {
	q.skipClosed()
	return q.times.head()
}

// closeExpired closes the connections whose wait for the server's FIN ran out.
func (q *lingerQueue) closeExpired(now int64) {
	for at, ok := q.next(); ok && at <= now; at, ok = q.next() {
		q.pop().end(errClosed, 0)
	}
}
