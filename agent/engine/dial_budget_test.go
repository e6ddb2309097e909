// The open model opens at most dialsPerTurn connections per loop turn: a second of slots due at
// once (an overloaded server's timeouts free them by the thousand) is sent over several quick
// turns, the next turn coming at once, instead of one turn that holds the loop for seconds.

package main

import (
	"encoding/json"
	"syscall"
	"testing"
)

func TestOpenModelOpensAFewConnectionsPerTurn(t *testing.T) {
	server := startServer(t, stalled)
	encoded, err := json.Marshal(openConfig(server.port(), 1000, 1, 1000))
	if err != nil {
		t.Fatal(err)
	}
	config, err := ParseConfig(encoded)
	if err != nil {
		t.Fatal(err)
	}
	setup, err := prepare(config)
	if err != nil {
		t.Fatal(err)
	}
	l := newLoop(0, setup, config.Threads[0], make(chan loopMessage, 8))
	if err := l.setUp(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		l.finishNow()
		_ = syscall.Close(l.epfd)
		_ = syscall.Close(l.wakeFd)
	})
	d := l.driver.(*openDriver)
	now := l.now()
	// Started a second ago: 1000 slots are due, none has a connection yet.
	d.start(now - 1_000_000_000)
	d.catchUp(now)
	d.tick(now)
	if d.poolSize != dialsPerTurn || d.backlog() != 1000-dialsPerTurn {
		t.Fatalf("one turn opened %d connections with %d slots waiting: want %d and %d", d.poolSize, d.backlog(), dialsPerTurn, 1000-dialsPerTurn)
	}
	if wake, ok := l.driver.nextWake(); !ok || wake > now {
		t.Fatalf("next wake %d (ok %v): the next turn should come at once", wake, ok)
	}
	d.tick(now)
	if d.poolSize != 2*dialsPerTurn {
		t.Fatalf("two turns opened %d connections, want %d", d.poolSize, 2*dialsPerTurn)
	}
}
