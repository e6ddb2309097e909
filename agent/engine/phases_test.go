// The phases of every answer (connect, waiting, processing, how many paid a connect) against real
// sockets: a server whose accept queue is held full makes connects wait for their SYN's retry, and the relations between the
// phases and the headline latency must hold; keep-alive pays a connect once per connection.

package main

import (
	"bufio"
	"net"
	"testing"
)

// phaseTotals merges a run's measured histograms (headline and phases) and adds up its counts.
type phaseTotals struct {
	total, connect, waiting, processing *Histogram
	withConnect, answered, connections  int64
}

func decodeInto(t *testing.T, into *Histogram, encoded any) {
	t.Helper()
	if encoded == nil {
		return
	}
	counts, _ := decodeCounts(t, encoded.(string))
	for index, count := range counts {
		into.counts[index] += count
		into.total += count
		into.lowIndex = min(into.lowIndex, index)
		into.highIndex = max(into.highIndex, index)
		into.maxValueUs = max(into.maxValueUs, valueFromIndex(index))
	}
}

func sumPhases(t *testing.T, ls lines) phaseTotals {
	t.Helper()
	totals := phaseTotals{total: NewHistogram(), connect: NewHistogram(), waiting: NewHistogram(), processing: NewHistogram()}
	for _, line := range ls.intervals() {
		phases, ok := line["phases"].(map[string]any)
		if !ok {
			t.Fatalf("second %v has no phases: %v", line["second"], line)
		}
		engine := line["engine"].(map[string]any)
		connect := NewHistogram()
		decodeInto(t, connect, phases["connect"])
		if connect.Total() != number(engine["newConnections"]) {
			t.Fatalf("second %v: %d connects in the histogram, %d new connections", line["second"], connect.Total(), number(engine["newConnections"]))
		}
		totals.connect.Add(connect)
		totals.connections += connect.Total()
		if line["phase"] == "warmup" {
			continue
		}
		decodeInto(t, totals.total, line["histogram"])
		decodeInto(t, totals.waiting, phases["waiting"])
		decodeInto(t, totals.processing, phases["processing"])
		totals.withConnect += number(phases["withConnect"])
		totals.answered += number(line["requests"])
	}
	return totals
}

// sumUs is the histogram's values added up (each at its bucket's value).
func sumUs(h *Histogram) float64 {
	var sum float64
	for index := h.lowIndex; index <= h.highIndex; index++ {
		sum += float64(h.counts[index]) * float64(valueFromIndex(index))
	}
	return sum
}

// assertPhaseRelations: per answer, total = processing + the connect it paid, and processing
// includes waiting; so at every percentile and in sum total ≥ processing ≥ waiting, and what the
// total holds beyond processing is connect time (no more than the connects took).
func assertPhaseRelations(t *testing.T, name string, p phaseTotals) {
	t.Helper()
	if p.processing.Total() != p.answered || p.waiting.Total() != p.answered || p.total.Total() != p.answered {
		t.Fatalf("%s: %d answers, but %d totals, %d processing, %d waiting", name, p.answered, p.total.Total(), p.processing.Total(), p.waiting.Total())
	}
	for _, percentile := range []float64{50, 90, 99, 100} {
		total, processing, waiting := p.total.ValueAtPercentile(percentile), p.processing.ValueAtPercentile(percentile), p.waiting.ValueAtPercentile(percentile)
		if total < processing || processing < waiting {
			t.Fatalf("%s p%v: total %d µs, processing %d µs, waiting %d µs: want total ≥ processing ≥ waiting", name, percentile, total, processing, waiting)
		}
	}
	// Bucket values are within 0.1 % of the values recorded.
	const slack = 1.002
	total, processing, waiting, connect := sumUs(p.total), sumUs(p.processing), sumUs(p.waiting), sumUs(p.connect)
	if total*slack < processing || processing*slack < waiting {
		t.Fatalf("%s: Σtotal %.0f, Σprocessing %.0f, Σwaiting %.0f µs", name, total, processing, waiting)
	}
	if total-processing > connect*slack+float64(p.answered) {
		t.Fatalf("%s: totals exceed processing by %.0f µs, more than the %.0f µs all connects took", name, total-processing, connect)
	}
}

func closingAnswers(s *testServer, c net.Conn, r *bufio.Reader) {
	if _, ok := s.readRequest(r); ok {
		_, _ = c.Write([]byte("HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 2\r\n\r\nok"))
	}
	_ = c.Close()
}

func TestConnectTimeOfAHeldBackAccept(t *testing.T) {
	const connections = 8
	run := func(server *testServer) phaseTotals {
		// One request per connection, so every connect is paid by an answer.
		config := closedConfig(server.port(), connections, map[string]any{"requests": connections})
		setRequest(config, "headers", map[string]any{"Connection": "close"})
		ls := runEngine(t, config)
		assertEnd(t, ls, "completed")
		b := assertBooks(t, ls)
		if b.status["2xx"] != connections || sumOf(toAny(b.errors)) != 0 {
			t.Fatalf("2xx %d, errors %v", b.status["2xx"], b.errors)
		}
		return sumPhases(t, ls)
	}
	prompt := run(startServer(t, closingAnswers))
	heldBack := run(startHeldBackServer(t, connections, closingAnswers))
	t.Logf("connect p50 %d µs held back, %d µs prompt; total p50 %d / %d µs; waiting p50 %d / %d µs",
		heldBack.connect.ValueAtPercentile(50), prompt.connect.ValueAtPercentile(50), heldBack.total.ValueAtPercentile(50),
		prompt.total.ValueAtPercentile(50), heldBack.waiting.ValueAtPercentile(50), prompt.waiting.ValueAtPercentile(50))
	for name, p := range map[string]phaseTotals{"prompt": prompt, "held back": heldBack} {
		assertPhaseRelations(t, name, p)
		if p.withConnect != p.answered {
			t.Fatalf("%s: %d of %d answers paid a connect: with Connection: close every one opens its own", name, p.withConnect, p.answered)
		}
	}
	if heldBack.connect.ValueAtPercentile(50) <= prompt.connect.ValueAtPercentile(50) {
		t.Fatalf("connect p50: %d µs held back, %d µs prompt", heldBack.connect.ValueAtPercentile(50), prompt.connect.ValueAtPercentile(50))
	}
	// The connect is inside the headline latency of a request that opened its own connection.
	if heldBack.total.ValueAtPercentile(50) <= prompt.total.ValueAtPercentile(50) {
		t.Fatalf("total p50: %d µs held back, %d µs prompt", heldBack.total.ValueAtPercentile(50), prompt.total.ValueAtPercentile(50))
	}
	heldBackConnect := sumUs(heldBack.total) - sumUs(heldBack.processing)
	promptConnect := sumUs(prompt.total) - sumUs(prompt.processing)
	if heldBackConnect/float64(heldBack.answered) <= promptConnect/float64(prompt.answered) {
		t.Fatalf("connect paid per answer: %.0f µs held back, %.0f µs prompt", heldBackConnect/float64(heldBack.answered), promptConnect/float64(prompt.answered))
	}
}

func TestKeepAlivePaysAConnectOncePerConnection(t *testing.T) {
	server := startServer(t, answering("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello"))
	ls := runEngine(t, closedConfig(server.port(), 4, map[string]any{"requests": 400}))
	assertEnd(t, ls, "completed")
	p := sumPhases(t, ls)
	assertPhaseRelations(t, "keep-alive", p)
	if p.withConnect != 4 || p.connections != 4 || p.answered != 400 {
		t.Fatalf("%d answers paid a connect over %d connections (%d answers): keep-alive pays one per connection", p.withConnect, p.connections, p.answered)
	}
}

func TestOpenModelPhases(t *testing.T) {
	server := startServer(t, closingAnswers)
	config := openConfig(server.port(), 200, 1, 20)
	setRequest(config, "httpVersion", "1.0")
	ls := runEngine(t, config)
	assertEnd(t, ls, "completed")
	p := sumPhases(t, ls)
	assertPhaseRelations(t, "open", p)
	if p.answered == 0 || p.withConnect != p.answered {
		t.Fatalf("%d of %d answers paid a connect: HTTP/1.0 opens one per request", p.withConnect, p.answered)
	}
}
