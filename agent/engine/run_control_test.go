// How a run goes, against real sockets: the open model's schedule and the slots it could not send
// when its pool is full, warm-up before measure, the stop line and the connection cap, a bad
// config refused, and threads sharing a fixed request count.

package main

import (
	"bufio"
	"io"
	"net"
	"strings"
	"testing"
	"time"
)

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
