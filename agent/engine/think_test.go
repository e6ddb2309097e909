// Think time in the closed model: the pauses drawn as app/runs/think-time.ts draws them (siege's
// whole seconds included), the heap that orders them, the config's checks, and a run that keeps
// its connections alive through the pauses and spends at least the pauses it was asked for.

package main

import (
	"bufio"
	"math/rand/v2"
	"net"
	"strings"
	"testing"
	"time"
)

func TestThinkPausesAreDrawnAsTheAppDrawsThem(t *testing.T) {
	fixed := ThinkTime{Kind: "fixed", Ms: 250}
	uniform := ThinkTime{Kind: "uniform", MinMs: 100, MaxMs: 300}
	siege := ThinkTime{Kind: "uniform", MaxMs: 1000, RoundToMs: 1000}
	for _, c := range []struct {
		think *ThinkTime
		u     float64
		want  float64
	}{
		{&fixed, 0.7, 250}, {&uniform, 0, 100}, {&uniform, 0.5, 200}, {&uniform, 0.999, 299.8},
		// siege -d1: (unsigned)(u*1 + .5) whole seconds: 0 below one half, 1 from it.
		{&siege, 0, 0}, {&siege, 0.49, 0}, {&siege, 0.5, 1000}, {&siege, 0.99, 1000},
	} {
		if got := c.think.pauseMs(c.u); got < c.want-1e-9 || got > c.want+1e-9 {
			t.Fatalf("%+v at %v: %v, want %v", *c.think, c.u, got, c.want)
		}
	}
}

func TestWakesLeaveInTimeOrder(t *testing.T) {
	var heap wakeHeap
	for range 500 {
		heap.push(wake{at: rand.Int64N(1000)})
	}
	last := int64(-1)
	for range 500 {
		w := heap.pop()
		if w.at < last {
			t.Fatalf("%d after %d", w.at, last)
		}
		last = w.at
	}
	if _, ok := heap.head(); ok {
		t.Fatal("the heap is not empty")
	}
}

func TestThinkTimeIsChecked(t *testing.T) {
	for _, c := range []struct {
		load map[string]any
		want string
	}{
		{map[string]any{"durationS": 1, "thinkTime": map[string]any{"kind": "fixed", "ms": 0}}, "thinkTime.ms"},
		{map[string]any{"durationS": 1, "thinkTime": map[string]any{"kind": "uniform", "minMs": 50, "maxMs": 50}}, "minMs"},
		{map[string]any{"durationS": 1, "thinkTime": map[string]any{"kind": "poisson", "ms": 5}}, "kind"},
		{map[string]any{"durationS": 1, "pipelining": 4, "thinkTime": map[string]any{"kind": "fixed", "ms": 5}}, "pipelining"},
	} {
		if _, err := ParseConfig(mustJSON(t, closedConfig(1, 1, c.load))); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Fatalf("%v: %v, want an error naming %s", c.load, err, c.want)
		}
	}
}

func TestThinkTimeKeepsConnectionsAliveThroughItsPauses(t *testing.T) {
	const connections, requests, pauseMs = 2, 20, 40
	server := startServer(t, answering("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"))
	config := closedConfig(server.port(), connections, map[string]any{"requests": requests, "thinkTime": map[string]any{"kind": "fixed", "ms": pauseMs}})
	began := time.Now()
	ls := runEngine(t, config)
	took := time.Since(began)
	assertEnd(t, ls, "completed")
	b := assertBooks(t, ls)
	if b.status["2xx"] != requests || server.connections.Load() != connections {
		t.Fatalf("2xx %d over %d connections: want %d over %d", b.status["2xx"], server.connections.Load(), requests, connections)
	}
	// Each connection paused before each of its requests: the run lasted at least those pauses.
	if least := time.Duration(requests/connections*pauseMs) * time.Millisecond; took < least {
		t.Fatalf("took %v, less than the %v of pauses", took, least)
	}
}

// A server that closes an idle kept-alive connection while it pauses (a keep-alive timeout shorter
// than the pause): nothing fails, and the next request goes on a new connection when the pause ends.
func TestAConnectionClosedWhileItPausesIsReplacedAfterThePause(t *testing.T) {
	const requests, pauseMs = 10, 60
	server := startServer(t, func(s *testServer, c net.Conn, r *bufio.Reader) {
		if _, ok := s.readRequest(r); ok {
			_, _ = c.Write([]byte("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"))
			time.Sleep(10 * time.Millisecond)
		}
		_ = c.Close()
	})
	config := closedConfig(server.port(), 1, map[string]any{"requests": requests, "thinkTime": map[string]any{"kind": "fixed", "ms": pauseMs}})
	began := time.Now()
	ls := runEngine(t, config)
	took := time.Since(began)
	assertEnd(t, ls, "completed")
	b := assertBooks(t, ls)
	if b.status["2xx"] != requests || sumOf(toAny(b.errors)) != 0 || server.connections.Load() != requests {
		t.Fatalf("2xx %d, errors %v, %d connections: want %d answers on as many connections", b.status["2xx"], b.errors, server.connections.Load(), requests)
	}
	if least := time.Duration(requests*pauseMs) * time.Millisecond; took < least {
		t.Fatalf("took %v, less than the %v of pauses: a replacement did not wait for its pause", took, least)
	}
}
