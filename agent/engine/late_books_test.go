// A loop too busy to hand over its last books before the drain line goes out (on a starved client
// the settle of thousands of connections can take seconds): the line waits for them while the cap
// allows, and a step whose drain line still lacks them ends with an error saying so, never as
// completed with requests left in flight. The last line's wait is set to nothing here, so the loop
// is always late for it.

package main

import (
	"strings"
	"testing"
)

func withoutLastFlushWait(t *testing.T) {
	saved := lastFlushWaitNs
	lastFlushWaitNs = 0
	t.Cleanup(func() { lastFlushWaitNs = saved })
}

func TestLateLastBooks(t *testing.T) {
	server := startServer(t, stalled)
	t.Run("the drain line waits for them until the cap", func(t *testing.T) {
		withoutLastFlushWait(t)
		config := setRequest(openConfig(server.port(), 400, 1, 1000), "timeoutMs", 300)
		ls := runEngine(t, config)
		assertEnd(t, ls, "completed")
		b := assertBooks(t, ls)
		if b.scheduled != 400 || b.errors["timeout"] != 400 || b.inFlight != 0 {
			t.Fatalf("scheduled %d, timeouts %d, in flight %d: want every one of 400 slots a timeout", b.scheduled, b.errors["timeout"], b.inFlight)
		}
	})
	t.Run("a drain line without them at the cap: an error, not completed", func(t *testing.T) {
		withoutLastFlushWait(t)
		// The 5 s timeout outlasts the 2 s cap: the drain ends at the cap with 400 requests on the wire.
		config := setRequest(openConfig(server.port(), 400, 1, 1000), "timeoutMs", 5000)
		config["capS"] = 2
		ls := runEngine(t, config)
		assertEnd(t, ls, "error")
		if message, _ := ls.end()["message"].(string); !strings.Contains(message, "books are incomplete: the last books of load thread 1 of 1 did not arrive") {
			t.Fatalf("end message %q", message)
		}
		assertBooks(t, ls)
	})
}
