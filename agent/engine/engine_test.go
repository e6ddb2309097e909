// The engine against real sockets: in-process servers with one behaviour each, the engine run
// in-process on a config, and its lines checked — counts by status and error kind, bytes, the
// books balancing on every line, connections kept alive or opened again, the open model's
// schedule, not-sent slots, stop and the cap.

package main

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"os"
	"strings"
	"testing"
	"time"
)

func closedConfig(port int, connections int, load map[string]any) map[string]any {
	full := map[string]any{"model": "closed", "connections": connections, "pipelining": 1}
	for key, value := range load {
		full[key] = value
	}
	threads := []map[string]any{{"connections": connections}}
	if requests, ok := load["requests"]; ok {
		threads[0]["requests"] = requests
	}
	return map[string]any{
		"target":  map[string]any{"protocol": "http", "hostname": "127.0.0.1", "port": port},
		"request": map[string]any{"method": "GET", "path": "/", "headers": map[string]any{}, "timeoutMs": 5000},
		"load":    full, "warmupS": 0, "capS": 30, "threads": threads,
	}
}

func openConfig(port int, rate float64, durationS float64, maxConnections int) map[string]any {
	return map[string]any{
		"target":  map[string]any{"hostname": "127.0.0.1", "port": port},
		"request": map[string]any{"method": "GET", "path": "/", "headers": map[string]any{}, "timeoutMs": 5000},
		"load":    map[string]any{"model": "open", "rate": rate, "durationS": durationS},
		"warmupS": 0, "capS": 30,
		"threads": []map[string]any{{"rate": rate, "phase": 0, "maxConnections": maxConnections}},
	}
}

func setRequest(config map[string]any, key string, value any) map[string]any {
	config["request"].(map[string]any)[key] = value
	return config
}

// books adds up the measured lines (measure and drain) of a run.
type books struct {
	scheduled, answered, bytes, inFlight, newConnections, sent int64
	status                                                     map[string]int64
	errors                                                     map[string]int64
	notSent                                                    map[string]int64
	maxUs                                                      int64
	histograms                                                 int
	recorded                                                   int64
}

func number(value any) int64 {
	if value == nil {
		return 0
	}
	return int64(value.(float64))
}

func sumOf(value any) int64 {
	var total int64
	for _, count := range value.(map[string]any) {
		total += number(count)
	}
	return total
}

func (ls lines) intervals() lines {
	var out lines
	for _, line := range ls {
		if line["type"] == "interval" {
			out = append(out, line)
		}
	}
	return out
}

func (ls lines) end() map[string]any {
	last := ls[len(ls)-1]
	if last["type"] != "end" {
		return nil
	}
	return last
}

// assertBooks checks the identity on every line, per phase, and returns the measured totals.
func assertBooks(t *testing.T, ls lines) books {
	t.Helper()
	inFlightBefore := map[string]int64{}
	total := books{status: map[string]int64{}, errors: map[string]int64{}, notSent: map[string]int64{}}
	for _, line := range ls.intervals() {
		phase := line["phase"].(string)
		chain := phase
		if phase == "drain" {
			chain = "measure"
		}
		resolved := sumOf(line["status"]) + sumOf(line["errors"]) + sumOf(line["notSent"])
		scheduled, inFlight := number(line["scheduled"]), number(line["inFlight"])
		if inFlightBefore[chain]+scheduled != resolved+inFlight {
			t.Fatalf("second %v (%s) does not balance: %d in flight before + %d scheduled != %d resolved + %d in flight\n%v",
				line["second"], phase, inFlightBefore[chain], scheduled, resolved, inFlight, line)
		}
		inFlightBefore[chain] = inFlight
		engine := line["engine"].(map[string]any)
		total.newConnections += number(engine["newConnections"])
		total.sent += number(engine["sent"])
		if phase == "warmup" {
			continue
		}
		total.scheduled += scheduled
		total.answered += number(line["requests"])
		total.bytes += number(line["bytes"])
		total.inFlight = inFlight
		for _, field := range []struct {
			into map[string]int64
			name string
		}{{total.status, "status"}, {total.errors, "errors"}, {total.notSent, "notSent"}} {
			for kind, count := range line[field.name].(map[string]any) {
				field.into[kind] += number(count)
			}
		}
		if line["histogram"] != nil {
			total.histograms++
			total.recorded += histogramCount(t, line["histogram"].(string))
			total.maxUs = max(total.maxUs, number(line["maxUs"]))
		}
	}
	return total
}

func assertEnd(t *testing.T, ls lines, reason string) {
	t.Helper()
	end := ls.end()
	if end == nil || end["reason"] != reason {
		t.Fatalf("want end %s, got %v", reason, ls[len(ls)-1])
	}
}

func TestKeepAliveContentLength(t *testing.T) {
	answer := "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello"
	server := startServer(t, answering(answer))
	ls := runEngine(t, closedConfig(server.port(), 4, map[string]any{"requests": 400}))
	assertEnd(t, ls, "completed")
	b := assertBooks(t, ls)
	if b.scheduled != 400 || b.status["2xx"] != 400 || b.answered != 400 {
		t.Fatalf("scheduled %d, 2xx %d: want exactly 400", b.scheduled, b.status["2xx"])
	}
	if b.bytes != int64(400*len(answer)) {
		t.Fatalf("bytes %d, want %d", b.bytes, 400*len(answer))
	}
	if got := server.connections.Load(); got != 4 || b.newConnections != 4 {
		t.Fatalf("%d connections at the server, %d reported: keep-alive wants 4", got, b.newConnections)
	}
	if b.histograms == 0 || b.maxUs <= 0 {
		t.Fatal("no latency recorded")
	}
	if ls[0]["type"] != "ready" || ls[0]["threads"] != float64(1) {
		t.Fatalf("first line %v", ls[0])
	}
}

func TestChunkedAndDrippedAnswers(t *testing.T) {
	answer := "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5;ext=1\r\nhello\r\n6\r\n world\r\n0\r\nX-Trailer: yes\r\n\r\n"
	server := startServer(t, func(s *testServer, c net.Conn, r *bufio.Reader) {
		for {
			if _, ok := s.readRequest(r); !ok {
				return
			}
			// Three bytes at a time: every parser state split over reads.
			for at := 0; at < len(answer); at += 3 {
				if _, err := c.Write([]byte(answer[at:min(at+3, len(answer))])); err != nil {
					return
				}
				time.Sleep(50 * time.Microsecond)
			}
		}
	})
	ls := runEngine(t, closedConfig(server.port(), 2, map[string]any{"requests": 40}))
	assertEnd(t, ls, "completed")
	b := assertBooks(t, ls)
	if b.status["2xx"] != 40 || sumOf(toAny(b.errors)) != 0 || b.bytes != int64(40*len(answer)) {
		t.Fatalf("2xx %d errors %v bytes %d", b.status["2xx"], b.errors, b.bytes)
	}
	if server.connections.Load() != 2 {
		t.Fatalf("%d connections: chunked answers keep the connection", server.connections.Load())
	}
}

func toAny(counts map[string]int64) map[string]any {
	out := map[string]any{}
	for key, value := range counts {
		out[key] = float64(value)
	}
	return out
}

func TestInterimNoContentAndNotModifiedHaveNoBody(t *testing.T) {
	answers := []string{
		"HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </a>\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok",
		"HTTP/1.1 204 No Content\r\nContent-Length: 10\r\n\r\n",
		"HTTP/1.1 304 Not Modified\r\nContent-Length: 10\r\n\r\n",
		"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n",
		"HTTP/1.1 503 Busy\r\nContent-Length: 1\r\n\r\n!",
	}
	server := startServer(t, func(s *testServer, c net.Conn, r *bufio.Reader) {
		for i := 0; ; i++ {
			if _, ok := s.readRequest(r); !ok {
				return
			}
			if _, err := c.Write([]byte(answers[i%len(answers)])); err != nil {
				return
			}
		}
	})
	ls := runEngine(t, closedConfig(server.port(), 1, map[string]any{"requests": 50}))
	assertEnd(t, ls, "completed")
	b := assertBooks(t, ls)
	want := map[string]int64{"1xx": 0, "2xx": 20, "3xx": 10, "4xx": 10, "5xx": 10}
	for class, count := range want {
		if b.status[class] != count {
			t.Fatalf("status %v, want %v", b.status, want)
		}
	}
	if sumOf(toAny(b.errors)) != 0 || server.connections.Load() != 1 {
		t.Fatalf("errors %v, %d connections: bodiless answers must not desynchronise the connection", b.errors, server.connections.Load())
	}
}

func TestHeadAnswersHaveNoBody(t *testing.T) {
	server := startServer(t, func(s *testServer, c net.Conn, r *bufio.Reader) {
		for {
			method, ok := s.readRequest(r)
			if !ok {
				return
			}
			if method != "HEAD" {
				_, _ = c.Write([]byte("HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n"))
				continue
			}
			_, _ = c.Write([]byte("HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n"))
		}
	})
	ls := runEngine(t, setRequest(closedConfig(server.port(), 2, map[string]any{"requests": 30}), "method", "HEAD"))
	b := assertBooks(t, ls)
	if b.status["2xx"] != 30 || sumOf(toAny(b.errors)) != 0 {
		t.Fatalf("status %v errors %v", b.status, b.errors)
	}
}

func TestLargeBodiesAndRequestBodies(t *testing.T) {
	body := strings.Repeat("x", 1<<20)
	answer := fmt.Sprintf("HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\n%s", len(body), body)
	server := startServer(t, answering(answer))
	config := closedConfig(server.port(), 2, map[string]any{"requests": 20})
	setRequest(config, "method", "POST")
	setRequest(config, "body", strings.Repeat("b", 300_000))
	ls := runEngine(t, config)
	b := assertBooks(t, ls)
	if b.status["2xx"] != 20 || b.bytes != int64(20*len(answer)) {
		t.Fatalf("2xx %d, bytes %d, want 20 and %d", b.status["2xx"], b.bytes, 20*len(answer))
	}
	if server.requests.Load() != 20 {
		t.Fatalf("the server read %d whole requests with bodies, want 20", server.requests.Load())
	}
}

func TestPipelining(t *testing.T) {
	const depth = 8
	answer := "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"
	// Answers only once it holds a whole batch: without pipelining nothing would ever be answered.
	server := startServer(t, func(s *testServer, c net.Conn, r *bufio.Reader) {
		for {
			for range depth {
				if _, ok := s.readRequest(r); !ok {
					return
				}
			}
			if _, err := c.Write([]byte(strings.Repeat(answer, depth))); err != nil {
				return
			}
		}
	})
	config := closedConfig(server.port(), 2, map[string]any{"requests": 160, "pipelining": depth})
	setRequest(config, "timeoutMs", 3000)
	ls := runEngine(t, config)
	assertEnd(t, ls, "completed")
	b := assertBooks(t, ls)
	if b.status["2xx"] != 160 || sumOf(toAny(b.errors)) != 0 {
		t.Fatalf("2xx %d errors %v", b.status["2xx"], b.errors)
	}
}

func TestConnectionCloseAndReadUntilClose(t *testing.T) {
	for name, answer := range map[string]string{
		"connection close": "HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 2\r\n\r\nok",
		"until close":      "HTTP/1.0 200 OK\r\n\r\nbody without a length",
	} {
		t.Run(name, func(t *testing.T) {
			server := startServer(t, func(s *testServer, c net.Conn, r *bufio.Reader) {
				if _, ok := s.readRequest(r); ok {
					_, _ = c.Write([]byte(answer))
				}
				_ = c.Close()
			})
			ls := runEngine(t, closedConfig(server.port(), 2, map[string]any{"requests": 30}))
			b := assertBooks(t, ls)
			if b.status["2xx"] != 30 || sumOf(toAny(b.errors)) != 0 || b.bytes != int64(30*len(answer)) {
				t.Fatalf("2xx %d errors %v bytes %d", b.status["2xx"], b.errors, b.bytes)
			}
			if server.connections.Load() < 30 || b.newConnections < 30 {
				t.Fatalf("%d connections: each answer closes its own", server.connections.Load())
			}
		})
	}
}

// misbehaving answers 2 ms late, and every nth request on a connection ends it by `end` instead.
func misbehaving(n int, end func(c net.Conn)) func(*testServer, net.Conn, *bufio.Reader) {
	return func(s *testServer, c net.Conn, r *bufio.Reader) {
		for i := 1; ; i++ {
			if _, ok := s.readRequest(r); !ok {
				return
			}
			time.Sleep(2 * time.Millisecond)
			if i%n == 0 {
				end(c)
				return
			}
			_, _ = c.Write([]byte("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"))
		}
	}
}

func TestServerClosesMidAnswer(t *testing.T) {
	server := startServer(t, misbehaving(5, func(c net.Conn) {
		_, _ = c.Write([]byte("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nonly ten b"))
		_ = c.Close()
	}))
	ls := runEngine(t, closedConfig(server.port(), 2, map[string]any{"durationS": 1}))
	assertEnd(t, ls, "completed")
	b := assertBooks(t, ls)
	closed := b.errors["closed"]
	if closed == 0 || b.answered < 4*closed || b.answered+closed != b.scheduled {
		t.Fatalf("%d answered, %d closed, %d scheduled", b.answered, closed, b.scheduled)
	}
}

func TestReset(t *testing.T) {
	server := startServer(t, misbehaving(5, func(c net.Conn) {
		_ = c.(*net.TCPConn).SetLinger(0)
		_ = c.Close()
	}))
	ls := runEngine(t, closedConfig(server.port(), 2, map[string]any{"durationS": 1}))
	b := assertBooks(t, ls)
	reset := b.errors["reset"]
	if reset == 0 || b.answered < 4*reset || b.answered+reset != b.scheduled {
		t.Fatalf("%d answered, %d reset, %d scheduled, errors %v", b.answered, reset, b.scheduled, b.errors)
	}
}

func TestRefused(t *testing.T) {
	listener, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := listener.Addr().(*net.TCPAddr).Port
	_ = listener.Close()
	for name, config := range map[string]map[string]any{
		"closed": closedConfig(port, 3, map[string]any{"durationS": 1}),
		"open":   openConfig(port, 50, 1, 10),
	} {
		t.Run(name, func(t *testing.T) {
			ls := runEngine(t, config)
			assertEnd(t, ls, "completed")
			b := assertBooks(t, ls)
			if b.errors["refused"] == 0 || b.answered != 0 || b.errors["refused"] != b.scheduled {
				t.Fatalf("errors %v, scheduled %d", b.errors, b.scheduled)
			}
			// The closed model pauses 100 ms between attempts: about 10 per connection in a second.
			if name == "closed" && b.errors["refused"] > 3*15 {
				t.Fatalf("%d refused: the closed model must pause before connecting again", b.errors["refused"])
			}
		})
	}
}

func stalled(s *testServer, c net.Conn, r *bufio.Reader) {
	for {
		if _, ok := s.readRequest(r); !ok {
			return
		}
	}
}

func TestStalledServerTimesOut(t *testing.T) {
	server := startServer(t, stalled)
	t.Run("closed: counted, not in the histogram", func(t *testing.T) {
		config := setRequest(closedConfig(server.port(), 2, map[string]any{"durationS": 1}), "timeoutMs", 300)
		ls := runEngine(t, config)
		assertEnd(t, ls, "completed")
		b := assertBooks(t, ls)
		if b.errors["timeout"] < 4 || b.answered != 0 || b.histograms != 0 || b.inFlight != 0 {
			t.Fatalf("errors %v, answered %d, histograms %d, in flight %d", b.errors, b.answered, b.histograms, b.inFlight)
		}
	})
	t.Run("open: from the intended time, at the timeout value", func(t *testing.T) {
		config := setRequest(openConfig(server.port(), 20, 1, 100), "timeoutMs", 300)
		ls := runEngine(t, config)
		assertEnd(t, ls, "completed")
		b := assertBooks(t, ls)
		if b.errors["timeout"] != 20 || b.scheduled != 20 {
			t.Fatalf("errors %v of %d scheduled, want 20 timeouts", b.errors, b.scheduled)
		}
		if b.maxUs < 300_000 || b.maxUs > 301_000 {
			t.Fatalf("max %d µs: a timeout is recorded at the timeout", b.maxUs)
		}
	})
}

func TestOpenModelSchedule(t *testing.T) {
	answer := "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"
	server := startServer(t, answering(answer))
	t.Run("a rate: exactly rate × duration slots", func(t *testing.T) {
		ls := runEngine(t, openConfig(server.port(), 200, 2, 50))
		b := assertBooks(t, ls)
		if b.scheduled != 400 || b.status["2xx"] != 400 {
			t.Fatalf("scheduled %d, 2xx %d: want 400", b.scheduled, b.status["2xx"])
		}
		measured := 0
		for _, line := range ls.intervals() {
			if line["phase"] == "measure" {
				measured++
				if s := number(line["scheduled"]); s < 195 || s > 205 {
					t.Fatalf("a measured second scheduled %d, want about 200", s)
				}
			}
		}
		if measured != 2 {
			t.Fatalf("%d measured lines, want 2", measured)
		}
	})
	t.Run("N over T on two interleaved threads", func(t *testing.T) {
		config := openConfig(server.port(), 60, 1, 10)
		config["load"] = map[string]any{"model": "open", "requests": 60, "durationS": 1}
		config["threads"] = []map[string]any{
			{"rate": 30, "phase": 0, "maxConnections": 5, "requests": 30},
			{"rate": 30, "phase": 0.5, "maxConnections": 5, "requests": 30},
		}
		ls := runEngine(t, config)
		b := assertBooks(t, ls)
		if b.scheduled != 60 || b.status["2xx"] != 60 {
			t.Fatalf("scheduled %d, 2xx %d: want 60", b.scheduled, b.status["2xx"])
		}
		if number(ls.intervals()[0]["engine"].(map[string]any)["threads"]) != 2 {
			t.Fatal("want 2 threads reported")
		}
	})
}

func TestOpenModelPoolFull(t *testing.T) {
	t.Run("one connection never answered: every slot is a timeout or not sent", func(t *testing.T) {
		server := startServer(t, stalled)
		// 2000 slots/s for one connection that never gets an answer. A timed-out request's connection
		// is closed at its deadline, which comes before every waiting slot's, so the next slot goes out
		// on a new connection; slots expire while waiting only when the loop runs late.
		config := setRequest(openConfig(server.port(), 2000, 0.5, 1), "timeoutMs", 200)
		ls := runEngine(t, config)
		assertEnd(t, ls, "completed")
		b := assertBooks(t, ls)
		poolFull := b.notSent["pool-full"]
		if b.scheduled != 1000 || b.errors["timeout"]+poolFull != 1000 {
			t.Fatalf("scheduled %d, timeouts %d, pool-full %d", b.scheduled, b.errors["timeout"], poolFull)
		}
		// Only what was sent has a latency, recorded at the timeout.
		if b.recorded != b.errors["timeout"] || b.maxUs < 200_000 || b.maxUs > 201_000 {
			t.Fatalf("%d latencies for %d timeouts, max %d µs", b.recorded, b.errors["timeout"], b.maxUs)
		}
		// One connection at a time: the first, then one more after each timed-out request's was closed.
		if got := server.connections.Load(); got > b.errors["timeout"]+1 {
			t.Fatalf("%d connections for %d timeouts", got, b.errors["timeout"])
		}
	})
	t.Run("the wait for a free connection counts in the latency", func(t *testing.T) {
		server := startServer(t, func(s *testServer, c net.Conn, r *bufio.Reader) {
			for {
				if _, ok := s.readRequest(r); !ok {
					return
				}
				time.Sleep(100 * time.Millisecond)
				_, _ = c.Write([]byte("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"))
			}
		})
		config := setRequest(openConfig(server.port(), 15, 1, 1), "timeoutMs", 5000)
		ls := runEngine(t, config)
		b := assertBooks(t, ls)
		if b.status["2xx"] != 15 || server.connections.Load() != 1 {
			t.Fatalf("2xx %d on %d connections", b.status["2xx"], server.connections.Load())
		}
		// 15 slots 66.7 ms apart served 100 ms each: the last waits about 15 × 33 ms before it is sent.
		if b.maxUs < 400_000 {
			t.Fatalf("max %d µs: the wait for a connection belongs to the latency", b.maxUs)
		}
	})
}

func TestWarmupThenMeasure(t *testing.T) {
	server := startServer(t, answering("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"))
	config := closedConfig(server.port(), 2, map[string]any{"durationS": 1})
	config["warmupS"] = 1
	ls := runEngine(t, config)
	assertEnd(t, ls, "completed")
	var phases []string
	for _, line := range ls.intervals() {
		phases = append(phases, line["phase"].(string))
	}
	if strings.Join(phases, ",") != "warmup,measure,drain" {
		t.Fatalf("phases %v", phases)
	}
	if number(ls.intervals()[0]["requests"]) == 0 || assertBooks(t, ls).answered == 0 {
		t.Fatal("both phases should answer")
	}
}

func TestStopAndCap(t *testing.T) {
	server := startServer(t, stalled)
	t.Run("a stop line ends at once with what is in flight", func(t *testing.T) {
		config := closedConfig(server.port(), 3, map[string]any{"durationS": 30})
		ls := runEngineStopped(t, config)
		assertEnd(t, ls, "stopped")
		b := assertBooks(t, ls)
		if b.inFlight != 3 || b.scheduled != 3 {
			t.Fatalf("in flight %d of %d scheduled, want 3 of 3", b.inFlight, b.scheduled)
		}
	})
	t.Run("open model: slots still waiting when stopped are not sent (step-ended)", func(t *testing.T) {
		config := openConfig(server.port(), 100, 30, 1)
		ls := runEngineStopped(t, config)
		assertEnd(t, ls, "stopped")
		b := assertBooks(t, ls)
		if b.inFlight != 1 || b.notSent["step-ended"] < 90 || b.notSent["step-ended"]+1 != b.scheduled {
			t.Fatalf("in flight %d, not sent %v, scheduled %d", b.inFlight, b.notSent, b.scheduled)
		}
	})
	t.Run("the cap ends the step", func(t *testing.T) {
		config := closedConfig(server.port(), 2, map[string]any{"durationS": 30})
		config["capS"] = 1.2
		ls := runEngine(t, config)
		assertEnd(t, ls, "cap")
		assertBooks(t, ls)
	})
}

func TestBadConfig(t *testing.T) {
	var buffer lockedBuffer
	code := run(strings.NewReader(`{"target":{"hostname":"127.0.0.1","port":1},"unknown":1}`+"\n"), &output{writer: &buffer})
	ls := parseLines(t, buffer.String())
	if code != 2 || ls.end()["reason"] != "error" || !strings.Contains(ls.end()["message"].(string), "unknown") {
		t.Fatalf("exit %d, lines %v", code, ls)
	}
}

// runEngineStopped runs the engine and writes the stop line once it is ready and a second has passed.
func runEngineStopped(t *testing.T, config map[string]any) lines {
	t.Helper()
	reader, writer := io.Pipe()
	var buffer lockedBuffer
	done := make(chan int, 1)
	go func() { done <- run(reader, &output{writer: &buffer}) }()
	encoded := mustJSON(t, config)
	go func() {
		_, _ = writer.Write(append(encoded, '\n'))
		for !strings.Contains(buffer.String(), `"second":0`) {
			time.Sleep(10 * time.Millisecond)
		}
		_, _ = writer.Write([]byte(`{"type":"stop"}` + "\n"))
	}()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatalf("the engine did not stop: %s", buffer.String())
	}
	_ = writer.Close()
	return parseLines(t, buffer.String())
}

func TestMalformedAnswersAreOtherErrors(t *testing.T) {
	for name, answer := range map[string]string{
		"not HTTP":               "garbage that is no status line\r\n\r\n",
		"a status with no class": "HTTP/1.1 600 Beyond\r\nContent-Length: 0\r\n\r\n",
		"a bad length":           "HTTP/1.1 200 OK\r\nContent-Length: twelve\r\n\r\n",
	} {
		t.Run(name, func(t *testing.T) {
			server := startServer(t, answering(answer))
			ls := runEngine(t, closedConfig(server.port(), 2, map[string]any{"requests": 20}))
			assertEnd(t, ls, "completed")
			b := assertBooks(t, ls)
			if b.errors["other"] != 20 || b.answered != 0 {
				t.Fatalf("errors %v, answered %d: want 20 of kind other", b.errors, b.answered)
			}
		})
	}
}

func TestThreadsShareAFixedCount(t *testing.T) {
	server := startServer(t, answering("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"))
	config := closedConfig(server.port(), 5, map[string]any{"requests": 301})
	config["threads"] = []map[string]any{{"connections": 3, "requests": 151}, {"connections": 2, "requests": 150}}
	ls := runEngine(t, config)
	assertEnd(t, ls, "completed")
	b := assertBooks(t, ls)
	if b.scheduled != 301 || b.status["2xx"] != 301 || server.connections.Load() != 5 {
		t.Fatalf("scheduled %d, 2xx %d, %d connections", b.scheduled, b.status["2xx"], server.connections.Load())
	}
	for _, line := range ls.intervals() {
		if number(line["engine"].(map[string]any)["threads"]) != 2 {
			t.Fatalf("line %v: want 2 threads", line["second"])
		}
	}
}

func openDescriptors(t *testing.T) int {
	t.Helper()
	entries, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Fatal(err)
	}
	return len(entries)
}

func TestNoDescriptorOutlivesARun(t *testing.T) {
	before := openDescriptors(t)
	t.Run("a run that reconnects and times out", func(t *testing.T) {
		server := startServer(t, misbehaving(3, func(c net.Conn) { _ = c.Close() }))
		runEngine(t, closedConfig(server.port(), 20, map[string]any{"durationS": 1}))
		stalledServer := startServer(t, stalled)
		runEngine(t, setRequest(openConfig(stalledServer.port(), 200, 1, 30), "timeoutMs", 300))
	})
	// The servers' sockets close with their goroutines, a moment after their listeners.
	deadline := time.Now().Add(5 * time.Second)
	for openDescriptors(t) > before && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if after := openDescriptors(t); after > before {
		t.Fatalf("%d descriptors open after the runs, %d before", after, before)
	}
}
