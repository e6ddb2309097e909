// The engine against real sockets: in-process servers with one behaviour each, the engine run
// in-process on a config, and its lines checked — here the answers it reads (counts by status,
// bytes, bodies or none, pipelining, connections kept alive or opened again) and the books
// balancing on every line. Servers that fail it are failures_test.go's; the open model's schedule,
// not-sent slots, warm-up, stop and the cap are run_control_test.go's.

package main

import (
	"bufio"
	"fmt"
	"net"
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
	forEachAnswer(t, map[string]string{
		"connection close": "HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 2\r\n\r\nok",
		"until close":      "HTTP/1.0 200 OK\r\n\r\nbody without a length",
	}, answeringOnce, func(t *testing.T, server *testServer, answer string) {
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
