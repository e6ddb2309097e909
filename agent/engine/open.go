// The open model in one loop, as agent/open-driver.ts: slots released on the arrival schedule
// whether or not earlier ones were answered, each sent on a free connection, opening one on demand
// up to the thread's maximum. Latency and the timeout run from the slot's intended time, so waiting
// for a connection counts: a slot still waiting when its timeout runs out is not sent (pool-full);
// one on the wire then is a timeout, put in the histogram at the timeout value, and its connection
// is closed so a late answer cannot be taken for another request's. A connection that fails fails
// its request; the pool opens another when the next slot needs it. A loop turn opens at most
// dialsPerTurn connections: on a starved client a connect can take milliseconds, and a turn that
// opened thousands at once (an overloaded server's timeouts each free a slot for a new
// connection) held the loop for seconds, its books late for their lines; the rest wait for the
// next turn, which comes at once.

package main

import (
	"math"
	"syscall"
)

// arrivalSchedule is the open model's clock: slot k is intended at start + (k + phase) / rate.
type arrivalSchedule struct {
	startAt int64
	rate    float64
	phase   float64
	endAt   int64
	limit   int64
	next    int64
}

func (s *arrivalSchedule) at(k int64) int64 {
	return s.startAt + int64(math.Round((float64(k)+s.phase)*1e9/s.rate))
}

// nextAt is the intended time of the next slot not yet released; ok false when the schedule is over.
func (s *arrivalSchedule) nextAt() (int64, bool) {
	if s.next >= s.limit {
		return 0, false
	}
	at := s.at(s.next)
	return at, at < s.endAt
}

// The most connections one loop turn opens.
const dialsPerTurn = 16

type openDriver struct {
	l              *loop
	rate           float64
	phase          float64
	warmupNs       int64
	durationNs     int64
	requests       *int64
	timeoutNs      int64
	maxConnections int
	poolSize       int
	// Connections this turn may still open; when they ran out with slots waiting, the next turn comes at once.
	dialsLeft   int
	dialsRanOut bool
	// Free connections, the last freed on top (the fewest connections stay busy).
	idle []*conn
	// Intended times of released slots waiting for a connection, in order.
	waiting     timeRing
	schedules   []*arrivalSchedule
	measureAt   int64
	scheduling  bool
	draining    bool
	drainedSaid bool
	finished    bool
	halted      bool
}

func newOpenDriver(l *loop, config *Config, plan ThreadPlan) *openDriver {
	return &openDriver{
		l:              l,
		rate:           plan.Rate,
		phase:          plan.Phase,
		warmupNs:       int64(config.WarmupSeconds()) * 1_000_000_000,
		durationNs:     int64(math.Round(*config.Load.DurationS * 1e9)),
		requests:       plan.Requests,
		timeoutNs:      int64(config.Request.TimeoutMs) * 1_000_000,
		maxConnections: plan.MaxConnections,
		dialsLeft:      dialsPerTurn,
		measureAt:      math.MaxInt64,
	}
}

func (d *openDriver) start(startAt int64) {
	d.measureAt = startAt + d.warmupNs
	if d.warmupNs > 0 {
		d.schedules = append(d.schedules, &arrivalSchedule{startAt: startAt, rate: d.rate, phase: d.phase, endAt: d.measureAt, limit: math.MaxInt64})
	}
	// A fixed count is exactly that many slots; a rate runs until the window's end.
	measured := &arrivalSchedule{startAt: d.measureAt, rate: d.rate, phase: d.phase, endAt: math.MaxInt64, limit: math.MaxInt64}
	if d.requests != nil {
		measured.limit = *d.requests
	} else {
		measured.endAt = d.measureAt + d.durationNs
	}
	d.schedules = append(d.schedules, measured)
	d.scheduling = true
}

func (d *openDriver) tagOf(intendedAt int64) int {
	if intendedAt >= d.measureAt {
		return measureTag
	}
	return warmupTag
}

// release puts the slots intended at or before `at` in the waiting queue, counted as scheduled.
func (d *openDriver) release(at int64) {
	if !d.scheduling {
		return
	}
	for _, schedule := range d.schedules {
		var released int64
		var first int64
		for slot, ok := schedule.nextAt(); ok && slot <= at; slot, ok = schedule.nextAt() {
			if released == 0 {
				first = slot
			}
			d.waiting.push(slot)
			schedule.next++
			released++
		}
		if released > 0 {
			d.l.recorder.scheduled(d.tagOf(first), released)
		}
	}
}

func (d *openDriver) catchUp(at int64) {
	d.release(at)
	d.dispatch()
}

// stopScheduling releases what is due by `at` and schedules nothing after it (a drain, a halt).
func (d *openDriver) stopScheduling(at int64) {
	d.release(at)
	d.scheduling = false
}

func (d *openDriver) drain(at int64) {
	d.stopScheduling(at)
	d.draining = true
	d.dispatch()
}

func (d *openDriver) notSendWaiting() {
	for d.waiting.count > 0 {
		d.l.recorder.notSent(d.tagOf(d.waiting.pop()), notSentStepEnded)
	}
}

func (d *openDriver) halt(at int64) {
	d.stopScheduling(at)
	d.halted = true
	// Slots already due but still waiting for a connection will never go out: the step ended.
	d.notSendWaiting()
}

func (d *openDriver) settle() {
	d.scheduling = false
	d.notSendWaiting()
	d.l.timeOutInFlight()
}

func (d *openDriver) finish() {
	d.finished = true
	d.scheduling = false
	clear(d.idle)
	d.idle = d.idle[:0]
}

func (d *openDriver) backlog() int64 { return int64(d.waiting.count) }

func (d *openDriver) connected(_ *conn, connectNs int64) {
	d.l.recorder.connected(connectNs)
}

func (d *openDriver) answered(c *conn, status int, bytes int64, from int64, tag int, now int64, phases answerPhases) {
	// An answer after its deadline (the loop ran late) is a timeout all the same: the same request
	// must not count as answered on one machine and timed out on another.
	if latency := now - from; latency > d.timeoutNs {
		d.l.recorder.failed(tag, errTimeout, d.timeoutNs)
	} else {
		d.l.recorder.answered(tag, status, bytes, latency, phases)
	}
	if c.usable() && c.count == 0 {
		d.idle = append(d.idle, c)
	}
}

func (d *openDriver) failed(_ *conn, kind int, _ int64, tag int) {
	// A silent server must not look fast: its timeouts are latencies of the timeout.
	latency := int64(-1)
	if kind == errTimeout {
		latency = d.timeoutNs
	}
	d.l.recorder.failed(tag, kind, latency)
}

// lateAnswered cannot happen: the open model closes a timed-out request's connection (config.go).
func (d *openDriver) lateAnswered(*conn) {}

func (d *openDriver) closed(c *conn, _ bool, errno syscall.Errno) {
	if d.finished {
		return
	}
	if c.inPool {
		c.inPool = false
		d.poolSize--
	}
	if errno == syscall.EADDRNOTAVAIL {
		d.l.recorder.portErrors++
	}
}

func (d *openDriver) tick(now int64) {
	if d.finished {
		return
	}
	d.release(now)
	// Slots whose timeout ran out while waiting are not sent; requests whose timeout ran out on the wire time out.
	for at, ok := d.waiting.head(); ok && at+d.timeoutNs <= now; at, ok = d.waiting.head() {
		d.l.recorder.notSent(d.tagOf(d.waiting.pop()), notSentPoolFull)
	}
	for c, _ := d.l.deadlines.popExpired(now); c != nil; c, _ = d.l.deadlines.popExpired(now) {
		c.end(errTimeout, 0)
	}
	d.dispatch()
	// The turn ends here: the next one may open connections again.
	d.dialsRanOut = d.dialsLeft == 0 && d.waiting.count > 0
	d.dialsLeft = dialsPerTurn
}

// served sends waiting slots on connections this socket's answers freed, without waiting for the turn's end.
func (d *openDriver) served(*conn) {
	if d.waiting.count > 0 && len(d.idle) > 0 {
		d.dispatch()
	}
}

func (d *openDriver) dispatch() {
	if d.finished || d.halted {
		return
	}
	for d.waiting.count > 0 {
		c := d.freeConnection()
		if c == nil {
			break
		}
		intendedAt := d.waiting.pop()
		d.l.deadlines.push(c, c.written, intendedAt+d.timeoutNs)
		c.queue(intendedAt, d.tagOf(intendedAt))
		d.l.recorder.sent++
		c.flushWrites()
	}
}

func (d *openDriver) freeConnection() *conn {
	for len(d.idle) > 0 {
		c := d.idle[len(d.idle)-1]
		d.idle[len(d.idle)-1] = nil
		d.idle = d.idle[:len(d.idle)-1]
		if c.usable() && c.count == 0 {
			return c
		}
	}
	if d.poolSize >= d.maxConnections || d.dialsLeft == 0 {
		return nil
	}
	d.dialsLeft--
	c := d.l.dial()
	c.inPool = true
	d.poolSize++
	return c
}

// nextWake is whatever comes first: the next slot, a request's deadline, a waiting slot's
// deadline; at once when slots wait for connections the last turn had no dials left to open.
func (d *openDriver) nextWake() (int64, bool) {
	if d.dialsRanOut && !d.finished && !d.halted {
		return 0, true
	}
	wake, ok := d.l.deadlines.next()
	if d.scheduling {
		for _, schedule := range d.schedules {
			if at, has := schedule.nextAt(); has && (!ok || at < wake) {
				wake, ok = at, true
			}
		}
	}
	if at, has := d.waiting.head(); has && (!ok || at+d.timeoutNs < wake) {
		wake, ok = at+d.timeoutNs, true
	}
	return wake, ok
}

func (d *openDriver) check() {
	if !d.draining || d.drainedSaid || d.finished || d.l.recorder.inFlight(measureTag) > 0 {
		return
	}
	d.drainedSaid = true
	d.l.post(loopMessage{kind: msgDrained})
}
