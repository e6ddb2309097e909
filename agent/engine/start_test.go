// The step's start time: the config's startAtMs read on the wall clock, as epochMs reads it back;
// a past one starts at once and says so; none starts at once.

package main

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

func reporterStartingAt(startAtMs *float64) (*reporter, *bytes.Buffer) {
	var written bytes.Buffer
	return &reporter{config: &Config{StartAtMs: startAtMs}, out: &output{writer: &written}}, &written
}

func TestStartAtIsTheConfiguredInstant(t *testing.T) {
	wanted := float64(time.Now().Add(2 * time.Second).UnixMilli())
	r, written := reporterStartingAt(&wanted)
	startAt := r.stepStartAt(monotonicNs())
	if got := epochMs(startAt); float64(got) != wanted {
		t.Fatalf("first second begins at %d, want %.0f", got, wanted)
	}
	if got := epochMs(startAt + 1_000_000_000); float64(got) != wanted+1000 {
		t.Fatalf("first boundary at %d, want %.0f", got, wanted+1000)
	}
	if written.Len() != 0 {
		t.Fatalf("unexpected output: %s", written.String())
	}
}

func TestStartAtInThePastStartsAtOnceAndSaysSo(t *testing.T) {
	past := float64(time.Now().Add(-3 * time.Second).UnixMilli())
	r, written := reporterStartingAt(&past)
	readyAt := monotonicNs()
	if startAt := r.stepStartAt(readyAt); startAt != readyAt+startMarginNs {
		t.Fatalf("started at %d, want at once (%d)", startAt, readyAt+startMarginNs)
	}
	if !strings.Contains(written.String(), `"level":"warn"`) || !strings.Contains(written.String(), "the start time had passed by") {
		t.Fatalf("no warning about the late start: %q", written.String())
	}
}

func TestNoStartAtStartsAtOnce(t *testing.T) {
	r, _ := reporterStartingAt(nil)
	readyAt := monotonicNs()
	if startAt := r.stepStartAt(readyAt); startAt != readyAt+startMarginNs {
		t.Fatalf("started at %d, want %d", startAt, readyAt+startMarginNs)
	}
}

func TestStartAtMustBeAnEpochTime(t *testing.T) {
	line := `{"target":{"hostname":"127.0.0.1","port":80},"request":{"method":"GET","path":"/","headers":{},"timeoutMs":1000},` +
		`"load":{"model":"closed","connections":1,"durationS":1},"warmupS":0,"capS":5,"startAtMs":-1,"threads":[{"connections":1}]}`
	if _, err := ParseConfig([]byte(line)); err == nil || !strings.Contains(err.Error(), "startAtMs") {
		t.Fatalf("want a startAtMs error, got %v", err)
	}
}
