// The closed model in one loop, as agent/closed-driver.ts: a fixed set of connections, each keeping
// `pipelining` requests on the wire and writing the next right after a read brings answers (all the
// room they make in one write). Latency is service time, from the write — for a connection's first
// request from the start of its connect, which it paid; the timeout runs from the write, and a
// timed-out request is counted, not put in the histogram; its connection is closed or, with
// onTimeout wait, reads the late answer uncounted before its next request (as wrk's timeout counts
// without closing). A connection the server closed or reset is opened again at once; one that could
// not connect counts the request it set out to send as failed and is tried again after a pause.
// With a think time (think.go) each connection pauses before each request it sends, its first one
// too: a kept-alive connection stays open through the pause, a connection per request is opened
// after it, and the pause is in no latency (a request's time starts after it). A connection lost
// while it pauses is replaced when its pause ends; one lost under a request pauses anew before the
// next.

package main

import "syscall"

// reconnectPauseNs keeps a refusing target from being hammered in a tight loop.
const reconnectPauseNs = 100_000_000

type closedDriver struct {
	l             *loop
	connections   int
	pipelining    int
	timeoutNs     int64
	waitOnTimeout bool
	warmupNs      int64
	measureAt     int64
	// Measured requests still to send (a fixed count), or -1 for a timed step.
	budget int64
	// Times at which a connection is to be opened (the start, and pauses after failed connects).
	opens timeRing
	// Connects under way: with a fixed count, no more are opened than requests are left to send.
	connecting int64
	// The think time (nil: none), and the pauses under way by when they end.
	think       *ThinkTime
	wakes       wakeHeap
	stopped     bool
	finished    bool
	draining    bool
	doneSaid    bool
	drainedSaid bool
}

func newClosedDriver(l *loop, config *Config, plan ThreadPlan) *closedDriver {
	d := &closedDriver{
		l:             l,
		connections:   plan.Connections,
		pipelining:    config.Load.Pipelining,
		timeoutNs:     int64(config.Request.TimeoutMs) * 1_000_000,
		waitOnTimeout: config.Request.WaitOnTimeout(),
		warmupNs:      int64(config.WarmupSeconds()) * 1_000_000_000,
		measureAt:     1<<63 - 1,
		budget:        -1,
		think:         config.Load.ThinkTime,
	}
	if plan.Requests != nil {
		d.budget = *plan.Requests
	}
	return d
}

func (d *closedDriver) start(startAt int64) {
	d.measureAt = startAt + d.warmupNs
	for range d.connections {
		if d.think != nil {
			// Each connection pauses before its first request too, so random pauses spread the starts.
			d.wakes.push(wake{at: startAt + d.think.pauseNs()})
		} else {
			d.opens.push(startAt)
		}
	}
}

func (d *closedDriver) catchUp(int64) {}

func (d *closedDriver) drain(int64) {
	d.stopped = true
	d.draining = true
}

// halt: what is on the wire stays there, reported in flight; no connection writes another request.
func (d *closedDriver) halt(int64) { d.stopped = true }

func (d *closedDriver) settle() {
	d.stopped = true
	d.l.timeOutInFlight()
}

func (d *closedDriver) finish() {
	d.stopped = true
	d.finished = true
}

func (d *closedDriver) backlog() int64 { return 0 }

func (d *closedDriver) open() {
	if d.stopped || d.budget == 0 || (d.budget > 0 && d.connecting >= d.budget) {
		return
	}
	d.connecting++
	d.l.dial()
}

// schedule takes one request from the schedule: its phase, or -1 when nothing more may be sent.
func (d *closedDriver) schedule(at int64) int {
	if d.stopped {
		return -1
	}
	tag := warmupTag
	if at >= d.measureAt {
		tag = measureTag
		if d.budget >= 0 {
			if d.budget == 0 {
				return -1
			}
			d.budget--
		}
	}
	d.l.recorder.scheduled(tag, 1)
	return tag
}

func (d *closedDriver) fill(c *conn) {
	if !c.usable() || c.count >= d.pipelining {
		return
	}
	at := d.l.now()
	for c.count < d.pipelining {
		tag := d.schedule(at)
		if tag < 0 {
			break
		}
		d.l.deadlines.push(c, c.written, at+d.timeoutNs)
		from := at
		if c.written == 0 {
			// The connection's first request opened it: its latency counts from the connect's start.
			from = c.openedAt
		}
		c.queue(from, tag)
		d.l.recorder.sent++
	}
	c.flushWrites()
}

func (d *closedDriver) connected(c *conn, connectNs int64) {
	d.connecting--
	d.l.recorder.connected(connectNs)
	c.wantsFill = true
}

func (d *closedDriver) answered(c *conn, status int, bytes int64, from int64, tag int, now int64, phases answerPhases) {
	d.l.recorder.answered(tag, status, bytes, now-from, phases)
	d.next(c, now)
}

func (d *closedDriver) lateAnswered(c *conn) { d.next(c, d.l.now()) }

// next: c's answer was read; it takes its next request once its events are served, or after its pause.
func (d *closedDriver) next(c *conn, now int64) {
	if d.think == nil {
		c.wantsFill = true
		return
	}
	// A connection per request is replaced at its close, after this pause (closed below).
	c.nextAt = now + d.think.pauseNs()
	if c.usable() {
		d.wakes.push(wake{at: c.nextAt, conn: c})
	}
}

func (d *closedDriver) failed(_ *conn, kind int, _ int64, tag int) {
	d.l.recorder.failed(tag, kind, -1)
}

func (d *closedDriver) closed(c *conn, wasConnected bool, errno syscall.Errno) {
	if d.finished {
		return
	}
	if errno == syscall.EADDRNOTAVAIL {
		d.l.recorder.portErrors++
	}
	if wasConnected {
		if d.think == nil {
			d.open()
			return
		}
		// Lost while it paused: the next request still waits for that pause; lost under a request: a new one.
		at := c.nextAt
		if at == 0 {
			at = d.l.now() + d.think.pauseNs()
		}
		d.wakes.push(wake{at: at})
		return
	}
	d.connecting--
	// The connection set out to send a request: it is scheduled and failed with the connect.
	now := d.l.now()
	if tag := d.schedule(now); tag >= 0 {
		kind := errOther
		if errno != 0 {
			kind = errorKind(errno)
		}
		d.l.recorder.failed(tag, kind, -1)
	}
	d.opens.push(now + reconnectPauseNs)
}

func (d *closedDriver) tick(now int64) {
	if d.finished {
		return
	}
	for c, seq := d.l.deadlines.popExpired(now); c != nil; c, seq = d.l.deadlines.popExpired(now) {
		if d.waitOnTimeout {
			c.expire(seq)
		} else {
			c.end(errTimeout, 0)
		}
	}
	for at, ok := d.opens.head(); ok && at <= now; at, ok = d.opens.head() {
		d.opens.pop()
		d.open()
	}
	for at, ok := d.wakes.head(); ok && at <= now; at, ok = d.wakes.head() {
		w := d.wakes.pop()
		if w.conn == nil {
			d.open()
		} else if !w.conn.ended {
			// Its pause is over: it takes its next request (one that ended meanwhile was replaced at its close).
			w.conn.nextAt = 0
			d.fill(w.conn)
		}
	}
}

// served writes a connection's next requests as soon as its answers are read, so the server works
// on them while the loop serves the other sockets of the turn.
func (d *closedDriver) served(c *conn) {
	if c.wantsFill {
		c.wantsFill = false
		d.fill(c)
	}
}

func (d *closedDriver) nextWake() (int64, bool) {
	wake, ok := d.l.deadlines.next()
	if at, has := d.opens.head(); has && !d.stopped && (!ok || at < wake) {
		wake, ok = at, true
	}
	if at, has := d.wakes.head(); has && !d.stopped && (!ok || at < wake) {
		wake, ok = at, true
	}
	return wake, ok
}

func (d *closedDriver) check() {
	if d.finished || d.l.recorder.inFlight(measureTag) > 0 {
		return
	}
	if d.draining && !d.drainedSaid {
		d.drainedSaid = true
		d.l.post(loopMessage{kind: msgDrained})
	} else if !d.draining && d.budget == 0 && !d.doneSaid {
		d.doneSaid = true
		d.l.post(loopMessage{kind: msgDone})
	}
}
