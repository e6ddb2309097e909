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

type deadlineQueue struct {
	ring  []deadline
	first int
	count int
}

func (q *deadlineQueue) push(c *conn, seq int64, at int64) {
	if q.count == len(q.ring) {
		size := max(64, len(q.ring)*2)
		ring := make([]deadline, size)
		for i := 0; i < q.count; i++ {
			ring[i] = q.ring[(q.first+i)&(len(q.ring)-1)]
		}
		q.ring, q.first = ring, 0
	}
	q.ring[(q.first+q.count)&(len(q.ring)-1)] = deadline{c, seq, at}
	q.count++
}

func (q *deadlineQueue) skipSettled() {
	for q.count > 0 {
		head := &q.ring[q.first]
		if head.conn.isOutstanding(head.seq) {
			return
		}
		head.conn = nil
		q.first = (q.first + 1) & (len(q.ring) - 1)
		q.count--
	}
}

// next is the deadline of the oldest request still on the wire; ok false when none is.
func (q *deadlineQueue) next() (int64, bool) {
	q.skipSettled()
	if q.count == 0 {
		return 0, false
	}
	return q.ring[q.first].at, true
}

// popExpired removes and returns the connection of the oldest request if its deadline is at or before now.
func (q *deadlineQueue) popExpired(now int64) *conn {
	at, ok := q.next()
	if !ok || at > now {
		return nil
	}
	head := &q.ring[q.first]
	c := head.conn
	head.conn = nil
	q.first = (q.first + 1) & (len(q.ring) - 1)
	q.count--
	return c
}

// timeRing is a FIFO of times (ns), sorted because they are pushed in order.
type timeRing struct {
	ring  []int64
	first int
	count int
}

func (r *timeRing) push(at int64) {
	if r.count == len(r.ring) {
		size := max(64, len(r.ring)*2)
		ring := make([]int64, size)
		for i := 0; i < r.count; i++ {
			ring[i] = r.ring[(r.first+i)&(len(r.ring)-1)]
		}
		r.ring, r.first = ring, 0
	}
	r.ring[(r.first+r.count)&(len(r.ring)-1)] = at
	r.count++
}

func (r *timeRing) head() (int64, bool) {
	if r.count == 0 {
		return 0, false
	}
	return r.ring[r.first], true
}

func (r *timeRing) pop() int64 {
	at := r.ring[r.first]
	r.first = (r.first + 1) & (len(r.ring) - 1)
	r.count--
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
