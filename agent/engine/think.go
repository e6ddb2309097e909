// Think time in the closed model: the pause each connection takes before each request it sends (its
// first one too), as app/runs/think-time.ts defines it — fixed, or uniform between a least and a
// most, optionally rounded half up to whole multiples of a unit (siege's -d of 1 s or more sleeps
// whole seconds). The driver keeps the connections that pause, and the replacements due when one
// ends, in one heap by when their pause ends: random pauses end in no particular order.

package main

import (
	"errors"
	"math"
	"math/rand/v2"
)

// ThinkTime is the config's load.thinkTime.
type ThinkTime struct {
	Kind string `json:"kind"`
	// Fixed: every pause.
	Ms float64 `json:"ms,omitempty"`
	// Uniform: drawn between these.
	MinMs float64 `json:"minMs,omitempty"`
	MaxMs float64 `json:"maxMs,omitempty"`
	// Uniform: rounded to the nearest multiple of this; 0: not rounded.
	RoundToMs float64 `json:"roundToMs,omitempty"`
}

const maxThinkMs = 3_600_000

func (t *ThinkTime) check() error {
	switch t.Kind {
	case "fixed":
		if !(t.Ms > 0) || t.Ms > maxThinkMs {
			return errors.New("load.thinkTime.ms must be greater than 0 and at most 3600000")
		}
	case "uniform":
		if t.MinMs < 0 || !(t.MaxMs > t.MinMs) || t.MaxMs > maxThinkMs {
			return errors.New("load.thinkTime: minMs must be at least 0 and below maxMs, maxMs at most 3600000")
		}
		if t.RoundToMs < 0 || t.RoundToMs > maxThinkMs {
			return errors.New("load.thinkTime.roundToMs must be greater than 0 and at most 3600000")
		}
	default:
		return errors.New("load.thinkTime.kind must be fixed or uniform")
	}
	return nil
}

// pauseMs draws one pause; u is uniform in [0, 1).
func (t *ThinkTime) pauseMs(u float64) float64 {
	if t.Kind == "fixed" {
		return t.Ms
	}
	drawn := t.MinMs + u*(t.MaxMs-t.MinMs)
	if t.RoundToMs == 0 {
		return drawn
	}
	return math.Floor(drawn/t.RoundToMs+0.5) * t.RoundToMs
}

// pauseNs draws one pause in ns.
func (t *ThinkTime) pauseNs() int64 { return int64(t.pauseMs(rand.Float64()) * 1e6) }

// wake is one pause's end: the connection that takes its next request then, or nil for a
// connection to open then.
type wake struct {
	at   int64
	conn *conn
}

// wakeHeap is a binary min-heap of wakes by time.
type wakeHeap []wake

func (h *wakeHeap) push(w wake) {
	*h = append(*h, w)
	items := *h
	for i := len(items) - 1; i > 0; {
		parent := (i - 1) / 2
		if items[parent].at <= items[i].at {
			break
		}
		items[parent], items[i] = items[i], items[parent]
		i = parent
	}
}

func (h *wakeHeap) head() (int64, bool) {
	if len(*h) == 0 {
		return 0, false
	}
	return (*h)[0].at, true
}

func (h *wakeHeap) pop() wake {
	items := *h
	top := items[0]
	last := len(items) - 1
	items[0] = items[last]
	items[last] = wake{}
	items = items[:last]
	for i := 0; ; {
		smallest, left, right := i, 2*i+1, 2*i+2
		if left < len(items) && items[left].at < items[smallest].at {
			smallest = left
		}
		if right < len(items) && items[right].at < items[smallest].at {
			smallest = right
		}
		if smallest == i {
			break
		}
		items[i], items[smallest] = items[smallest], items[i]
		i = smallest
	}
	*h = items
	return top
}
