// The engine against servers that fail it: closing mid-answer, resetting, refusing, stalling past
// the timeout, answering what is not HTTP; each counted under its error kind with the books still
// balancing, and no descriptor left open after such a run.

package main

import (
	"bufio"
	"net"
	"os"
	"testing"
	"time"
)

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

func TestMalformedAnswersAreOtherErrors(t *testing.T) {
	forEachAnswer(t, map[string]string{
		"not HTTP":               "garbage that is no status line\r\n\r\n",
		"a status with no class": "HTTP/1.1 600 Beyond\r\nContent-Length: 0\r\n\r\n",
		"a bad length":           "HTTP/1.1 200 OK\r\nContent-Length: twelve\r\n\r\n",
	}, answering, func(t *testing.T, server *testServer, answer string) {
		ls := runEngine(t, closedConfig(server.port(), 2, map[string]any{"requests": 20}))
		assertEnd(t, ls, "completed")
		b := assertBooks(t, ls)
		if b.errors["other"] != 20 || b.answered != 0 {
			t.Fatalf("errors %v, answered %d: want 20 of kind other", b.errors, b.answered)
		}
	})
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
