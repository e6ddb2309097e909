// One load thread's books since the last interval boundary, kept apart per phase a request was
// scheduled in (warm-up or measured), as agent/interval-recorder.ts keeps them: scheduled,
// answered by status class with bytes and the µs latency histogram (with the answers' waiting and
// processing histograms and how many paid a connect), errors by kind, not sent by
// reason, and what is still in flight; plus the thread's phase-less figures (the connects'
// histogram among them). Only its own loop
// touches it; `take` hands one phase's interval over and starts the next.

package main

// Phase tags: the phase a request was scheduled in; it keeps it until it is settled.
const (
	warmupTag  = 0
	measureTag = 1
)

// Error kinds (errTimeout…) and not-sent reasons (notSentPoolFull…) are generated from the
// TypeScript definition: second_gen.go.

// Interval is one thread's books of one phase for one interval, handed to the reporter.
type Interval struct {
	// The second's own counts (scheduled, requests, bytes…), generated: second_gen.go.
	secondCounts
	Status  statusCounts
	Errors  errorCounts
	NotSent notSentCounts
	// Scheduled in this phase and not settled yet (a level, not a count of the interval).
	InFlight int64
	// Nil when nothing was recorded; the reporter returns it to the thread's spares.
	Histogram *Histogram
	// The answers' phases (nil when none): from the last byte written to the first byte of the
	// answer, and the total less the connect the request paid; and how many paid one.
	Waiting     *Histogram
	Processing  *Histogram
	WithConnect int64
	// Phase-less, like NewConnections: every connect established in the interval (nil when none).
	Connect        *Histogram
	Sent           int64
	PortErrors     int64
	NewConnections int64
	ConnectUsMax   int64
	Backlog        int64
	LagNs          int64
}

type phaseBooks struct {
	Interval
	inFlight int64
	// After its last line the phase's late settlements are no one's: they are not recorded.
	closed bool
}

// Recorder is a thread's books.
type Recorder struct {
	books          [2]phaseBooks
	spares         chan *Histogram
	sent           int64
	portErrors     int64
	newConnections int64
	connectUsMax   int64
	connect        *Histogram
}

// NewRecorder makes the books; histograms handed over come back through spares once merged.
func NewRecorder() *Recorder {
	r := &Recorder{spares: make(chan *Histogram, 32)}
	r.books[warmupTag].Histogram = NewHistogram()
	r.books[measureTag].Histogram = NewHistogram()
	return r
}

func (r *Recorder) scheduled(tag int, count int64) {
	books := &r.books[tag]
	books.Scheduled += count
	books.inFlight += count
}

func (r *Recorder) answered(tag int, status int, bytes int64, latencyNs int64, phases answerPhases) {
	books := &r.books[tag]
	books.inFlight--
	if books.closed {
		return
	}
	class := status/100 - 1
	if class < 0 || class >= statusClasses {
		// No status class to count it under: an answer outside HTTP's, so an error.
		books.Errors[errOther]++
		return
	}
	books.Requests++
	books.Bytes += bytes
	books.Status[class]++
	books.Histogram.RecordNs(latencyNs)
	if books.Processing == nil {
		books.Processing, books.Waiting = r.spare(), r.spare()
	}
	books.Processing.RecordNs(max(0, latencyNs-phases.connectNs))
	if phases.waitingNs >= 0 {
		books.Waiting.RecordNs(phases.waitingNs)
	}
	if phases.withConnect {
		books.WithConnect++
	}
}

// failed counts a request that ended without an answer; latencyNs ≥ 0 puts it in the histogram.
func (r *Recorder) failed(tag int, kind int, latencyNs int64) {
	books := &r.books[tag]
	books.inFlight--
	if books.closed {
		return
	}
	books.Errors[kind]++
	if latencyNs >= 0 {
		books.Histogram.RecordNs(latencyNs)
	}
}

func (r *Recorder) notSent(tag int, reason int) {
	books := &r.books[tag]
	books.inFlight--
	if !books.closed {
		books.NotSent[reason]++
	}
}

func (r *Recorder) inFlight(tag int) int64 { return r.books[tag].inFlight }

func (r *Recorder) connected(connectNs int64) {
	r.newConnections++
	r.connectUsMax = max(r.connectUsMax, max(1, (connectNs+500)/1000))
	if r.connect == nil {
		r.connect = r.spare()
	}
	r.connect.RecordNs(connectNs)
}

// take hands over tag's interval; last: the phase has no further line.
func (r *Recorder) take(tag int, last bool) Interval {
	books := &r.books[tag]
	data := books.Interval
	data.InFlight = books.inFlight
	data.Sent, data.PortErrors, data.NewConnections, data.ConnectUsMax = r.sent, r.portErrors, r.newConnections, r.connectUsMax
	data.Connect, r.connect = r.connect, nil
	if data.Histogram.Total() == 0 {
		data.Histogram = nil
		books.Interval = Interval{Histogram: books.Histogram}
	} else {
		books.Interval = Interval{Histogram: r.spare()}
	}
	if last {
		books.closed = true
	}
	r.sent, r.portErrors, r.newConnections, r.connectUsMax = 0, 0, 0, 0
	return data
}

func (r *Recorder) spare() *Histogram {
	select {
	case h := <-r.spares:
		return h
	default:
		return NewHistogram()
	}
}
