// The closed model in one loop, as agent/closed-driver.ts: a fixed set of connections, each keeping
// `pipelining` requests on the wire and writing the next right after a read brings answers (all the
// room they make in one write). Latency is service time, from the write — for a connection's first
// request from the start of its connect, which it paid; the timeout runs from the write, and a
// timed-out request is counted, not put in the histogram. A connection the server closed or reset
// is opened again at once; one that could not connect counts the request it set out to send as
// failed and is tried again after a pause.

package main

import "syscall"

// reconnectPauseNs keeps a refusing target from being hammered in a tight loop.
const reconnectPauseNs = 100_000_000

type closedDriver struct {
	l           *loop
	connections int
	pipelining  int
	timeoutNs   int64
	warmupNs    int64
	measureAt   int64
	// Measured requests still to send (a fixed count), or -1 for a timed step.
	budget int64
	// Times at which a connection is to be opened (the start, and pauses after failed connects).
	opens timeRing
	// Connects under way: with a fixed count, no more are opened than requests are left to send.
	connecting  int64
	stopped     bool
	finished    bool
	draining    bool
	doneSaid    bool
	drainedSaid bool
}

func newClosedDriver(l *loop, config *Config, plan ThreadPlan) *closedDriver {
	d := &closedDriver{
		l:           l,
		connections: plan.Connections,
		pipelining:  config.Load.Pipelining,
		timeoutNs:   int64(config.Request.TimeoutMs) * 1_000_000,
		warmupNs:    int64(config.WarmupSeconds()) * 1_000_000_000,
		measureAt:   1<<63 - 1,
		budget:      -1,
	}
	if plan.Requests != nil {
		d.budget = *plan.Requests
	}
	return d
}

func (d *closedDriver) start(startAt int64) {
	d.measureAt = startAt + d.warmupNs
	for range d.connections {
		d.opens.push(startAt)
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
	for _, c := range d.l.slots {
		if c != nil {
			c.end(errTimeout, 0)
		}
	}
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
	c.wantsFill = true
}

func (d *closedDriver) failed(_ *conn, kind int, _ int64, tag int) {
	d.l.recorder.failed(tag, kind, -1)
}

func (d *closedDriver) closed(_ *conn, wasConnected bool, errno syscall.Errno) {
	if d.finished {
		return
	}
	if errno == syscall.EADDRNOTAVAIL {
		d.l.recorder.portErrors++
	}
	if wasConnected {
		d.open()
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
	for c := d.l.deadlines.popExpired(now); c != nil; c = d.l.deadlines.popExpired(now) {
		c.end(errTimeout, 0)
	}
	for at, ok := d.opens.head(); ok && at <= now; at, ok = d.opens.head() {
		d.opens.pop()
		d.open()
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
