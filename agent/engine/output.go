// The engine's stdout: NDJSON, one whole object per line, flushed per line, from any goroutine.

package main

import (
	"encoding/json"
	"io"
	"strconv"
	"sync"
)

type output struct {
	mu     sync.Mutex
	writer io.Writer
}

func (o *output) emit(line any) {
	data, err := json.Marshal(line)
	if err != nil {
		data, _ = json.Marshal(logLine{Type: "log", Level: "error", Message: "cannot encode a line: " + err.Error()})
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	_, _ = o.writer.Write(append(data, '\n'))
}

func (o *output) log(level, message string) {
	o.emit(logLine{Type: "log", Level: level, Message: message})
}

type logLine struct {
	Type    string `json:"type"`
	Level   string `json:"level"`
	Message string `json:"message"`
}

type readyLine struct {
	Type    string `json:"type"`
	Threads int    `json:"threads"`
}

type endLine struct {
	Type    string `json:"type"`
	Reason  string `json:"reason"`
	Message string `json:"message,omitempty"`
}

type versionLine struct {
	Version string `json:"version"`
	Go      string `json:"go"`
}

// countsJSON writes counts as one JSON object, each under its kind's name, in the kinds' order
// (the count types and their names are generated: second_gen.go).
func countsJSON(names []string, counts []int64) []byte {
	data := []byte{'{'}
	for i, name := range names {
		if i > 0 {
			data = append(data, ',')
		}
		data = strconv.AppendQuote(data, name)
		data = append(data, ':')
		data = strconv.AppendInt(data, counts[i], 10)
	}
	return append(data, '}')
}

type engineFigures struct {
	Threads        int     `json:"threads"`
	CPUS           float64 `json:"cpuS"`
	LagMs          float64 `json:"lagMs"`
	Backlog        int64   `json:"backlog"`
	Sent           int64   `json:"sent"`
	PortErrors     int64   `json:"portErrors"`
	NewConnections int64   `json:"newConnections"`
	ConnectUsMax   *int64  `json:"connectUsMax"`
}

type intervalLine struct {
	// The second's own counts (scheduled, requests, bytes…), generated: second_gen.go.
	secondCounts
	Type       string        `json:"type"`
	Second     int           `json:"second"`
	At         int64         `json:"at"`
	Phase      string        `json:"phase"`
	DurationMs int64         `json:"durationMs"`
	Status     statusCounts  `json:"status"`
	Errors     errorCounts   `json:"errors"`
	NotSent    notSentCounts `json:"notSent"`
	InFlight   int64         `json:"inFlight"`
	Histogram  *string       `json:"histogram"`
	P50Us      *int64        `json:"p50Us"`
	P90Us      *int64        `json:"p90Us"`
	P99Us      *int64        `json:"p99Us"`
	MaxUs      *int64        `json:"maxUs"`
	Phases     phaseFigures  `json:"phases"`
	Engine     engineFigures `json:"engine"`
}

// phaseFigures: where the interval's time went, as ab's connect / waiting / processing (encoded
// histograms, null when empty), and how many answers paid for their own connect.
type phaseFigures struct {
	Connect     *string `json:"connect"`
	Waiting     *string `json:"waiting"`
	Processing  *string `json:"processing"`
	WithConnect int64   `json:"withConnect"`
}
