// One load thread: an OS thread of its own (runtime.LockOSThread) running one epoll loop over its
// share of the connections, edge-triggered, every socket registered once. Each turn: wait (until
// the driver's next timer, to the nanosecond), take the reporter's commands, serve the ready
// sockets, then let the driver act on its timers (fills, slots, deadlines). The loop owns its
// sockets, its books and its driver; the reporter talks to it only through commands and messages.

package main

import (
	"runtime"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// The monotonic clock every time in the engine is counted on (ns since the process started).
var processStart = time.Now()

func monotonicNs() int64 { return int64(time.Since(processStart)) }

// epochMs turns a monotonic time into wall-clock epoch milliseconds.
func epochMs(at int64) int64 { return processStart.Add(time.Duration(at)).UnixMilli() }

// What the reporter asks a loop to do.
const (
	cmdStart = iota
	cmdFlush
	cmdDrain
	cmdHalt
	cmdSettle
	cmdFinish
)

type command struct {
	kind  int
	at    int64
	round int
	tag   int
	last  bool
}

// What a loop tells the reporter.
const (
	msgReady = iota
	msgInterval
	msgDone
	msgDrained
	msgFatal
)

type loopMessage struct {
	kind     int
	thread   int
	round    int
	tag      int
	interval Interval
	text     string
}

// driver is the load model (closed or open) a loop runs.
type driver interface {
	start(startAt int64)
	// catchUp brings the books up to the boundary `at` (the open model releases the slots due by then).
	catchUp(at int64)
	drain(at int64)
	halt(at int64)
	settle()
	finish()
	// served follows the events of one connection's socket.
	served(c *conn)
	// tick acts on what is due at `now` after a turn's sockets were served.
	tick(now int64)
	// check tells the reporter once when a fixed count is done or the drain has nothing left.
	check()
	nextWake() (int64, bool)
	backlog() int64
	// connected: c's connect is established, connectNs after it began.
	connected(c *conn, connectNs int64)
	answered(c *conn, status int, bytes int64, from int64, tag int, now int64, phases answerPhases)
	failed(c *conn, kind int, from int64, tag int)
	// lateAnswered: the answer to a request already failed by c.expire was read (closed model, onTimeout wait).
	lateAnswered(c *conn)
	closed(c *conn, wasConnected bool, errno syscall.Errno)
}

type loop struct {
	index  int
	epfd   int
	wakeFd int
	events []syscall.EpollEvent
	slots  []*conn
	gens   []int32
	free   []int32
	// The target's address as connect(2) takes it, a copy per loop.
	address rawSockaddr
	family  int
	// The encoded request, and copies of it back to back so several go out in one write.
	request    []byte
	batch      []byte
	head       bool
	oneShot    bool
	ringSize   int
	readBuffer []byte
	receiver   receiver
	// Wall clock minus the monotonic clock at the turn's start, to place kernel receive times.
	wallOffset int64
	recorder   *Recorder
	deadlines  deadlineQueue
	// Settled connections waiting for the server's FIN, oldest first.
	lingering lingerQueue
	driver    driver
	// Connects that failed before reaching epoll, settled after the turn that made them.
	failedConnects []*conn
	out            chan<- loopMessage
	mu             sync.Mutex
	commands       []command
	hasCommands    atomic.Bool
	finished       bool
	lagNs          int64
}

func newLoop(index int, setup *engineSetup, plan ThreadPlan, out chan<- loopMessage) *loop {
	l := &loop{
		index:      index,
		events:     make([]syscall.EpollEvent, 512),
		address:    toRawSockaddr(setup.sockaddr),
		family:     setup.family,
		request:    setup.request,
		batch:      setup.batch,
		head:       setup.config.Request.Method == "HEAD",
		oneShot:    setup.oneShot,
		ringSize:   setup.ringSize,
		readBuffer: make([]byte, 64*1024),
		recorder:   NewRecorder(),
		out:        out,
	}
	if setup.config.Load.Model == "closed" {
		l.driver = newClosedDriver(l, setup.config, plan)
	} else {
		l.driver = newOpenDriver(l, setup.config, plan)
	}
	return l
}

func (l *loop) now() int64 { return monotonicNs() }

// timeOutInFlight ends every request still on the wire as timed out: the drain is over (a driver's
// settle) and no answer may come in any more.
func (l *loop) timeOutInFlight() {
	for _, c := range l.slots {
		if c != nil {
			c.end(errTimeout, 0)
		}
	}
}

func (l *loop) stampTurn() int64 {
	now := time.Now()
	mono := int64(now.Sub(processStart))
	l.wallOffset = now.UnixNano() - mono
	return mono
}

// arrival is when the kernel received the bytes just read, on the monotonic clock: latency ends
// there, not when the loop came round to read them. Now when the kernel gave no time.
func (l *loop) arrival(receivedAtNs int64) int64 {
	now := l.now()
	if receivedAtNs == 0 {
		return now
	}
	return min(now, receivedAtNs-l.wallOffset)
}

func (l *loop) post(message loopMessage) {
	message.thread = l.index
	l.out <- message
}

// send queues a command and wakes the loop.
func (l *loop) send(cmd command) {
	l.mu.Lock()
	defer l.mu.Unlock()
	// A loop that has ended has closed its eventfd, and the number may belong to a socket by now.
	if l.wakeFd < 0 {
		return
	}
	l.commands = append(l.commands, cmd)
	l.hasCommands.Store(true)
	signalEventFd(l.wakeFd)
}

func (l *loop) setUp() error {
	l.wakeFd = -1
	epfd, err := syscall.EpollCreate1(syscall.EPOLL_CLOEXEC)
	if err != nil {
		return err
	}
	l.epfd = epfd
	wakeFd, err := newEventFd()
	if err != nil {
		return err
	}
	l.mu.Lock()
	l.wakeFd = wakeFd
	l.mu.Unlock()
	event := syscall.EpollEvent{Events: syscall.EPOLLIN | epollET, Fd: -1}
	return syscall.EpollCtl(l.epfd, syscall.EPOLL_CTL_ADD, l.wakeFd, &event)
}

const epollET = 1 << 31

// oneSegmentBytes: a request this small goes out in one TCP segment on any usual path (MSS ≥ 1200).
const oneSegmentBytes = 1200

// run is the thread's body; it returns after `finish`.
func (l *loop) run(ready *sync.WaitGroup) {
	runtime.LockOSThread()
	if err := l.setUp(); err != nil {
		ready.Done()
		l.post(loopMessage{kind: msgFatal, text: "cannot set up the event loop: " + err.Error()})
		return
	}
	ready.Done()
	l.post(loopMessage{kind: msgReady})
	for !l.finished {
		n, err := epollWait(l.epfd, l.events, l.timeout())
		if err != nil {
			l.post(loopMessage{kind: msgFatal, text: "epoll: " + err.Error()})
			l.finishNow()
			break
		}
		turnStart := l.stampTurn()
		if l.hasCommands.Load() {
			l.takeCommands()
			if l.finished {
				break
			}
		}
		for i := range n {
			l.serve(&l.events[i])
		}
		now := l.now()
		l.driver.tick(now)
		l.lingering.closeExpired(now)
		l.settleFailedConnects()
		l.driver.check()
		l.lagNs = max(l.lagNs, l.now()-turnStart)
	}
	_ = syscall.Close(l.epfd)
	l.mu.Lock()
	_ = syscall.Close(l.wakeFd)
	l.wakeFd = -1
	l.mu.Unlock()
}

// timeout is how long the next wait may last: until the driver's next timer, or without limit.
func (l *loop) timeout() int64 {
	if len(l.failedConnects) > 0 || l.hasCommands.Load() {
		return 0
	}
	at, ok := l.driver.nextWake()
	if linger, has := l.lingering.next(); has && (!ok || linger < at) {
		at, ok = linger, true
	}
	if !ok {
		return -1
	}
	return max(0, at-l.now())
}

func (l *loop) takeCommands() {
	l.mu.Lock()
	commands := l.commands
	l.commands = nil
	l.hasCommands.Store(false)
	l.mu.Unlock()
	for _, cmd := range commands {
		switch cmd.kind {
		case cmdStart:
			l.driver.start(cmd.at)
		case cmdFlush:
			l.driver.catchUp(cmd.at)
			interval := l.recorder.take(cmd.tag, cmd.last)
			interval.Backlog = l.driver.backlog()
			interval.LagNs = l.lagNs
			l.lagNs = 0
			l.post(loopMessage{kind: msgInterval, round: cmd.round, tag: cmd.tag, interval: interval})
		case cmdDrain:
			l.driver.drain(cmd.at)
		case cmdHalt:
			l.driver.halt(cmd.at)
		case cmdSettle:
			l.driver.settle()
		case cmdFinish:
			l.finishNow()
			return
		}
	}
}

func (l *loop) finishNow() {
	l.driver.finish()
	for _, c := range l.slots {
		if c != nil {
			c.drop()
		}
	}
	l.failedConnects = nil
	l.finished = true
}

func (l *loop) serve(event *syscall.EpollEvent) {
	if event.Fd < 0 {
		drainEventFd(l.wakeFd)
		return
	}
	c := l.slots[event.Fd]
	if c == nil || c.gen != event.Pad {
		return // a socket closed earlier in this turn
	}
	defer l.driver.served(c)
	events := event.Events
	if !c.connected {
		if events&(syscall.EPOLLOUT|syscall.EPOLLERR|syscall.EPOLLHUP) == 0 {
			return
		}
		// Writable without an error or hang-up is connected; only those two need SO_ERROR's reason.
		if events&(syscall.EPOLLERR|syscall.EPOLLHUP) != 0 {
			if errno := socketError(c.fd); errno != 0 {
				c.end(errorKind(errno), errno)
				return
			}
		}
		c.connected = true
		c.connectedAt = l.now()
		l.driver.connected(c, c.connectedAt-c.openedAt)
		if !c.flushWrites() {
			return
		}
	}
	if events&(syscall.EPOLLIN|syscall.EPOLLRDHUP|syscall.EPOLLHUP|syscall.EPOLLERR) != 0 {
		c.onReadable(events&(syscall.EPOLLRDHUP|syscall.EPOLLHUP|syscall.EPOLLERR) != 0)
	}
	if !c.ended && c.owed > 0 && events&syscall.EPOLLOUT != 0 {
		c.flushWrites()
	}
}

// dial opens a connection; a connect that fails at once is settled after this turn.
func (l *loop) dial() *conn {
	c := &conn{loop: l, fd: -1, slot: -1, openedAt: l.now(), from: make([]int64, l.ringSize), sentAt: make([]int64, l.ringSize), tags: make([]uint8, l.ringSize)}
	fd, errno := rawSocket(l.family)
	if errno != 0 {
		return l.connectFailed(c, errno)
	}
	c.fd = fd
	if !l.oneShot || len(l.request) > oneSegmentBytes {
		// Skipped for a lone request that fits one segment: Nagle never holds back a connection's
		// first segment, only a tail behind unacknowledged ones.
		rawSetsockoptInt(fd, syscall.IPPROTO_TCP, syscall.TCP_NODELAY, 1)
	}
	rawSetsockoptInt(fd, syscall.SOL_SOCKET, syscall.SO_TIMESTAMPNS, 1)
	if errno := rawConnect(fd, &l.address); errno != 0 && errno != syscall.EINPROGRESS {
		return l.connectFailed(c, errno)
	}
	if len(l.free) > 0 {
		c.slot = l.free[len(l.free)-1]
		l.free = l.free[:len(l.free)-1]
	} else {
		c.slot = int32(len(l.slots))
		l.slots = append(l.slots, nil)
		l.gens = append(l.gens, 0)
	}
	l.gens[c.slot]++
	c.gen = l.gens[c.slot]
	l.slots[c.slot] = c
	event := syscall.EpollEvent{Events: syscall.EPOLLIN | syscall.EPOLLOUT | syscall.EPOLLRDHUP | epollET, Fd: c.slot, Pad: c.gen}
	if errno := rawEpollCtl(l.epfd, syscall.EPOLL_CTL_ADD, fd, &event); errno != 0 {
		return l.connectFailed(c, errno)
	}
	return c
}

func (l *loop) connectFailed(c *conn, err error) *conn {
	errno, ok := err.(syscall.Errno)
	if !ok || errno == 0 {
		errno = syscall.EIO
	}
	c.failedConnect = errno
	l.failedConnects = append(l.failedConnects, c)
	return c
}

func (l *loop) settleFailedConnects() {
	for len(l.failedConnects) > 0 {
		failed := l.failedConnects
		l.failedConnects = nil
		for _, c := range failed {
			c.end(errorKind(c.failedConnect), c.failedConnect)
		}
	}
}

// release closes a connection's socket and frees its slot.
func (l *loop) release(c *conn) {
	if c.fd >= 0 {
		rawClose(c.fd)
		c.fd = -1
	}
	if c.slot >= 0 {
		l.slots[c.slot] = nil
		l.free = append(l.free, c.slot)
		c.slot = -1
	}
}
