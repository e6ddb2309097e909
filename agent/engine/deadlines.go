// A loop's request deadlines, oldest first. A loop writes requests in the order of the time their
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
