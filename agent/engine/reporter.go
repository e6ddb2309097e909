// The step's conductor, as agent/load-coordinator.ts runLoad: starts the loops, keeps the interval
// boundaries, gathers every loop's books of one phase at each boundary and adds them (histograms
// exactly) into ONE interval line per second. A step is warm-up seconds, then the measured window
// of exactly its duration (or until a fixed count is answered), then ONE drain line with the
// answers still due, at most the request timeout long plus a grace, after which whatever is left is
// settled. Stop, EOF on stdin or the time cap end it at once, reporting what is in flight. A step
// whose drain line lacks a loop's last books (a loop too starved to hand them over in time) is not
// completed: it ends with an error saying so, never with requests silently left in flight.

package main

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"sync"
	"time"
)

const (
	// Loops get this long to hand over their interval before the line is published without them.
	flushWaitNs = 400_000_000
	// The drain lasts at most the request timeout and this, for answers on their way when it ran out.
	drainGraceNs = 500_000_000
	readyWaitNs  = 15_000_000_000
	// The soonest a step starts once its loops are ready: time for the start command to reach them.
	startMarginNs = 20_000_000
	halfMsNs      = 500_000
)

// A phase's last line waits this long for every loop (the drain line up to the cap, if that is
// later): nothing after it carries a late interval. A variable so a test can make a loop late.
var lastFlushWaitNs int64 = 5_000_000_000

type reporter struct {
	config   *Config
	out      *output
	loops    []*loop
	messages chan loopMessage
	stop     <-chan struct{}

	ready, done, drained int
	fatal                string
	stopped              bool
	received             []loopMessage
	answered             []int

	round        int
	second       int
	lastBoundary int64
	inFlightTag  int
	inFlight     map[int]int64
}

type outcome struct {
	reason  string
	message string
}

func runStep(config *Config, setup *engineSetup, out *output, stop <-chan struct{}) outcome {
	r := &reporter{
		config:   config,
		out:      out,
		messages: make(chan loopMessage, 64*len(config.Threads)),
		stop:     stop,
		answered: make([]int, len(config.Threads)),
		inFlight: map[int]int64{},
	}
	var started sync.WaitGroup
	for index, plan := range config.Threads {
		l := newLoop(index, setup, plan, r.messages)
		r.loops = append(r.loops, l)
		started.Add(1)
		go l.run(&started)
	}
	started.Wait()

	readyBy := monotonicNs() + readyWaitNs
	for r.ready < len(r.loops) && r.fatal == "" && !r.stopped && monotonicNs() < readyBy {
		r.waitUntil(readyBy)
	}
	if r.fatal != "" || r.stopped || r.ready < len(r.loops) {
		r.post(command{kind: cmdFinish})
		if r.stopped {
			return outcome{reason: "stopped"}
		}
		if r.fatal == "" {
			r.fatal = "the load threads did not start within 15 s"
		}
		return outcome{reason: "error", message: r.fatal}
	}
	out.emit(readyLine{Type: "ready", Threads: len(r.loops)})

	warmupSeconds := config.WarmupSeconds()
	startAt := r.stepStartAt(monotonicNs())
	measureAt := startAt + int64(warmupSeconds)*1_000_000_000
	windowEnd := int64(math.MaxInt64)
	if config.Load.DurationS != nil {
		windowEnd = measureAt + int64(math.Round(*config.Load.DurationS*1e9))
	}
	capAt := startAt + int64(math.Round(config.CapS*1e9))
	r.post(command{kind: cmdStart, at: startAt})
	r.lastBoundary = startAt

	phaseNow := func() (int, string) {
		if r.second < warmupSeconds {
			return warmupTag, "warmup"
		}
		return measureTag, "measure"
	}

	// cut ends the step at once: every loop stops writing at `at`, and the cut-short interval
	// reports what is in flight; nothing is settled.
	cut := func(reason, message string, drain bool) outcome {
		at := monotonicNs()
		tag, phase := phaseNow()
		if drain {
			tag, phase = measureTag, "drain"
		}
		r.post(command{kind: cmdHalt, at: at})
		// A sliver with nothing in it is not worth a line (a fixed-count step may fit in a few ms).
		r.flush(tag, phase, at, max(0, at-r.lastBoundary), true, lastFlushWaitNs, at-r.lastBoundary < 50_000_000)
		r.post(command{kind: cmdFinish})
		return outcome{reason: reason, message: message}
	}

	// Warm-up and the measured window, one line per second.
	var end int64
	for {
		nextBoundary := startAt + int64(r.second+1)*1_000_000_000
		r.waitUntil(min(nextBoundary, capAt, windowEnd))
		if r.stopped {
			return cut("stopped", "", false)
		}
		if r.fatal != "" {
			return cut("error", "a load thread failed: "+r.fatal, false)
		}
		t := monotonicNs()
		if t >= windowEnd-halfMsNs {
			end = windowEnd
			break
		}
		if t >= nextBoundary-halfMsNs {
			tag, phase := phaseNow()
			wait, last := int64(flushWaitNs), tag == warmupTag && r.second == warmupSeconds-1
			if last {
				wait = lastFlushWaitNs
			}
			r.flush(tag, phase, nextBoundary, 1_000_000_000, last, wait, false)
		}
		if r.done == len(r.loops) && r.second >= warmupSeconds {
			end = monotonicNs()
			break
		}
		if t >= capAt {
			return cut("cap", fmt.Sprintf("the step reached its %g s cap", config.CapS), false)
		}
	}

	// The window's last line ends exactly at its end; nothing is scheduled after it.
	r.post(command{kind: cmdDrain, at: end})
	r.flush(measureTag, "measure", end, max(0, end-r.lastBoundary), false, flushWaitNs, false)

	drainUntil := min(end+int64(config.Request.TimeoutMs)*1_000_000+drainGraceNs, capAt)
	for r.drained < len(r.loops) && !r.stopped && r.fatal == "" && monotonicNs() < drainUntil {
		r.waitUntil(drainUntil)
	}
	if r.stopped {
		return cut("stopped", "", true)
	}
	if r.fatal != "" {
		return cut("error", "a load thread failed: "+r.fatal, true)
	}
	// What is still on the wire timed out; what still waits for a connection was never sent.
	r.post(command{kind: cmdSettle})
	drainEnd := monotonicNs()
	late := r.flush(measureTag, "drain", drainEnd, max(0, drainEnd-end), true, max(lastFlushWaitNs, capAt-drainEnd), false)
	r.post(command{kind: cmdFinish})
	if len(late) > 0 {
		return outcome{reason: "error", message: r.describeLate(late, monotonicNs()-drainEnd)}
	}
	return outcome{reason: "completed"}
}

// describeLate says which loops' last books the drain line lacks: what they settled since their
// previous line is in no line, so the step's books are incomplete.
func (r *reporter) describeLate(late []int, waitedNs int64) string {
	names := make([]string, len(late))
	for i, thread := range late {
		names[i] = strconv.Itoa(thread + 1)
	}
	which := "load thread " + names[0]
	if len(late) > 1 {
		which = "load threads " + strings.Join(names, ", ")
	}
	return fmt.Sprintf("the step's books are incomplete: the last books of %s of %d did not arrive within %.1f s of the drain's end (the client host is too busy for this load)",
		which, len(r.loops), float64(waitedNs)/1e9)
}

// stepStartAt is when the first second begins (monotonic ns), the loops being ready at readyAt: the
// config's start time, so several clients start together, or at once when it is absent or past
// (said in a log line, since this client then starts late).
func (r *reporter) stepStartAt(readyAt int64) int64 {
	soonest := readyAt + startMarginNs
	if r.config.StartAtMs == nil {
		return soonest
	}
	// Counted on the wall clock from the process's start, as epochMs reads it back: a start time of
	// whole milliseconds gives boundaries at whole milliseconds.
	wanted := time.UnixMicro(int64(math.Round(*r.config.StartAtMs * 1000))).Sub(processStart).Nanoseconds()
	if wanted < soonest {
		r.out.log("warn", fmt.Sprintf("the start time had passed by %.1f ms when the load was ready on this host: started at once", float64(soonest-wanted)/1e6))
		return soonest
	}
	return wanted
}

func (r *reporter) post(cmd command) {
	for _, l := range r.loops {
		l.send(cmd)
	}
}

// waitUntil returns at `until`, or earlier when a loop said something or the step was stopped.
func (r *reporter) waitUntil(until int64) {
	delay := until - monotonicNs()
	if delay <= 0 {
		r.takeMessages()
		return
	}
	timer := time.NewTimer(time.Duration(delay))
	defer timer.Stop()
	select {
	case message := <-r.messages:
		r.handle(message)
		r.takeMessages()
	case <-r.stop:
		r.stopped = true
	case <-timer.C:
	}
	select {
	case <-r.stop:
		r.stopped = true
	default:
	}
}

func (r *reporter) takeMessages() {
	for {
		select {
		case message := <-r.messages:
			r.handle(message)
		default:
			return
		}
	}
}

func (r *reporter) handle(message loopMessage) {
	switch message.kind {
	case msgReady:
		r.ready++
	case msgInterval:
		r.received = append(r.received, message)
		r.answered[message.thread] = max(r.answered[message.thread], message.round)
	case msgDone:
		r.done++
	case msgDrained:
		r.drained++
	case msgFatal:
		if r.fatal == "" {
			r.fatal = message.text
		}
	}
}

// flush gathers every loop's books of `tag` and publishes one line for [lastBoundary, at), waiting
// at most waitNs for them; it returns the loops whose books of this round the line lacks.
func (r *reporter) flush(tag int, phase string, at, durationNs int64, last bool, waitNs int64, dropIfEmpty bool) []int {
	r.round++
	round := r.round
	r.post(command{kind: cmdFlush, round: round, tag: tag, at: at, last: last})
	deadline := monotonicNs() + waitNs
	for r.behind(round) && monotonicNs() < deadline && r.fatal == "" {
		r.waitUntil(deadline)
	}
	r.takeMessages()
	var late []int
	for thread, answered := range r.answered {
		if answered < round {
			late = append(late, thread)
		}
	}
	if tag != r.inFlightTag {
		r.inFlightTag = tag
		clear(r.inFlight)
	}
	// A late interval of a phase already published belongs to no line (only the warm-up's can be).
	var intervals []loopMessage
	for _, message := range r.received {
		if message.tag == tag {
			intervals = append(intervals, message)
			r.inFlight[message.thread] = message.interval.InFlight
		} else {
			r.recycleAll(message.thread, &message.interval)
		}
	}
	r.received = r.received[:0]
	line := r.merge(intervals, phase, at, durationNs)
	empty := line.Scheduled == 0 && line.Requests == 0 && line.Errors == (errorCounts{}) && line.NotSent == (notSentCounts{})
	if dropIfEmpty && empty {
		return late
	}
	r.out.emit(line)
	r.second++
	r.lastBoundary = at
	return late
}

func (r *reporter) behind(round int) bool {
	for _, answered := range r.answered {
		if answered < round {
			return true
		}
	}
	return false
}

// recycleAll hands every histogram of an interval back to its loop.
func (r *reporter) recycleAll(thread int, data *Interval) {
	for _, h := range []*Histogram{data.Histogram, data.Waiting, data.Processing, data.Connect} {
		r.recycle(thread, h)
	}
}

// recycle hands a merged histogram back to its loop, emptied off the loop's thread.
func (r *reporter) recycle(thread int, h *Histogram) {
	if h == nil {
		return
	}
	h.Reset()
	select {
	case r.loops[thread].recorder.spares <- h:
	default:
	}
}

func (r *reporter) merge(intervals []loopMessage, phase string, at, durationNs int64) intervalLine {
	line := intervalLine{Type: "interval", Second: r.second, At: epochMs(at), Phase: phase, DurationMs: int64(math.Round(float64(durationNs) / 1e6))}
	histogram, connect, waiting, processing := NewHistogram(), NewHistogram(), NewHistogram(), NewHistogram()
	var lagNs, connectUsMax int64
	backlogs := map[int]int64{}
	for _, message := range intervals {
		data := &message.interval
		line.add(&data.secondCounts)
		for i := range line.Status {
			line.Status[i] += data.Status[i]
		}
		for i := range line.Errors {
			line.Errors[i] += data.Errors[i]
		}
		for i := range line.NotSent {
			line.NotSent[i] += data.NotSent[i]
		}
		line.Engine.Sent += data.Sent
		line.Engine.PortErrors += data.PortErrors
		line.Engine.NewConnections += data.NewConnections
		connectUsMax = max(connectUsMax, data.ConnectUsMax)
		lagNs = max(lagNs, data.LagNs)
		// A late answer from an earlier round may sit beside this one: the newest backlog counts.
		backlogs[message.thread] = data.Backlog
		line.Phases.WithConnect += data.WithConnect
		for _, pair := range [][2]*Histogram{{histogram, data.Histogram}, {connect, data.Connect}, {waiting, data.Waiting}, {processing, data.Processing}} {
			if pair[1] != nil {
				pair[0].Add(pair[1])
			}
		}
		r.recycleAll(message.thread, data)
	}
	for _, level := range r.inFlight {
		line.InFlight += level
	}
	for _, backlog := range backlogs {
		line.Engine.Backlog += backlog
	}
	if histogram.Total() > 0 {
		encoded := histogram.Encode()
		p50, p90, p99, maxUs := histogram.ValueAtPercentile(50), histogram.ValueAtPercentile(90), histogram.ValueAtPercentile(99), histogram.MaxUs()
		line.Histogram, line.P50Us, line.P90Us, line.P99Us, line.MaxUs = &encoded, &p50, &p90, &p99, &maxUs
	}
	line.Phases.Connect, line.Phases.Waiting, line.Phases.Processing = encoded(connect), encoded(waiting), encoded(processing)
	line.Engine.Threads = len(r.loops)
	line.Engine.CPUS = math.Round(cpuSeconds()*1000) / 1000
	line.Engine.LagMs = math.Round(float64(lagNs)/1e3) / 1e3
	if line.Engine.NewConnections > 0 {
		line.Engine.ConnectUsMax = &connectUsMax
	}
	return line
}

// encoded is a histogram's encoding, nil when it holds nothing.
func encoded(h *Histogram) *string {
	if h.Total() == 0 {
		return nil
	}
	text := h.Encode()
	return &text
}
