// Small in-process HTTP/1.1 servers for the engine's tests, each with one behaviour (keep-alive
// answers, chunked, interim answers, a body cut short, resets, stalls, batched pipelining, an accept
// queue held full), and the
// harness that runs the engine's `run` in-process on a config and returns its lines.

package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"net"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// testServer accepts connections and hands each to serve; it counts connections and requests.
type testServer struct {
	listener    net.Listener
	connections atomic.Int64
	requests    atomic.Int64
	mu          sync.Mutex
	open        []net.Conn
	// The first request heads read, as sent.
	heads []string
}

func startServer(t *testing.T, serve func(s *testServer, c net.Conn, r *bufio.Reader)) *testServer {
	t.Helper()
	listener, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	return serveOn(t, listener, nil, serve)
}

// startHeldBackServer listens with its accept queue already full (its own idle connections fill
// it), so the kernel drops the SYNs of new connects; once overflows (at least `connects` more
// dropped SYNs, counted by the kernel) show the client is waiting, it takes those idle
// connections off the queue and accepts promptly, and the waiting connects complete at their SYN's
// retry. Their connect time is that wait.
func startHeldBackServer(t *testing.T, connects int64, serve func(s *testServer, c net.Conn, r *bufio.Reader)) *testServer {
	t.Helper()
	const backlog = 64
	fd, err := syscall.Socket(syscall.AF_INET, syscall.SOCK_STREAM|syscall.SOCK_CLOEXEC, 0)
	if err != nil {
		t.Fatal(err)
	}
	file := os.NewFile(uintptr(fd), "held-back listener")
	defer file.Close()
	if err := syscall.Bind(fd, &syscall.SockaddrInet4{Addr: [4]byte{127, 0, 0, 1}}); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Listen(fd, backlog); err != nil {
		t.Fatal(err)
	}
	listener, err := net.FileListener(file)
	if err != nil {
		t.Fatal(err)
	}
	// The queue holds backlog + 1 connections.
	var fillers []net.Conn
	for range backlog + 1 {
		c, err := net.Dial("tcp", listener.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		fillers = append(fillers, c)
	}
	before := listenOverflows(t)
	release := make(chan struct{})
	go func() {
		defer close(release)
		for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline) && listenOverflows(t) < before+connects; {
			time.Sleep(5 * time.Millisecond)
		}
		for _, c := range fillers {
			_ = c.Close()
		}
	}()
	return serveOn(t, listener, release, serve)
}

// listenOverflows is the kernel's count of connects a full accept queue turned away.
func listenOverflows(t *testing.T) int64 {
	data, err := os.ReadFile("/proc/net/netstat")
	if err != nil {
		t.Fatal(err)
	}
	rows := strings.Split(string(data), "\n")
	for i := 0; i+1 < len(rows); i += 2 {
		names, values := strings.Fields(rows[i]), strings.Fields(rows[i+1])
		for j, name := range names {
			if name == "ListenOverflows" && j < len(values) {
				n, _ := strconv.ParseInt(values[j], 10, 64)
				return n
			}
		}
	}
	t.Fatal("no ListenOverflows in /proc/net/netstat")
	return 0
}

// serveOn accepts on listener (once `open` is closed, when given) and serves every connection.
func serveOn(t *testing.T, listener net.Listener, open <-chan struct{}, serve func(s *testServer, c net.Conn, r *bufio.Reader)) *testServer {
	s := &testServer{listener: listener}
	go func() {
		if open != nil {
			<-open
		}
		for {
			c, err := listener.Accept()
			if err != nil {
				return
			}
			s.connections.Add(1)
			s.mu.Lock()
			s.open = append(s.open, c)
			s.mu.Unlock()
			go serve(s, c, bufio.NewReader(c))
		}
	}()
	t.Cleanup(func() {
		_ = listener.Close()
		s.mu.Lock()
		defer s.mu.Unlock()
		for _, c := range s.open {
			_ = c.Close()
		}
	})
	return s
}

func (s *testServer) port() int { return s.listener.Addr().(*net.TCPAddr).Port }

// readRequest reads one request head (and a Content-Length body); false at the connection's end.
func (s *testServer) readRequest(r *bufio.Reader) (method string, ok bool) {
	length := 0
	var head strings.Builder
	for first := true; ; first = false {
		line, err := r.ReadString('\n')
		if err != nil {
			return "", false
		}
		head.WriteString(line)
		line = strings.TrimRight(line, "\r\n")
		if first {
			method, _, _ = strings.Cut(line, " ")
			continue
		}
		if line == "" {
			break
		}
		if name, value, found := strings.Cut(line, ":"); found && strings.EqualFold(name, "content-length") {
			length, _ = strconv.Atoi(strings.TrimSpace(value))
		}
	}
	if length > 0 {
		if _, err := io.CopyN(io.Discard, r, int64(length)); err != nil {
			return "", false
		}
	}
	s.requests.Add(1)
	s.mu.Lock()
	if len(s.heads) < 100 {
		s.heads = append(s.heads, head.String())
	}
	s.mu.Unlock()
	return method, true
}

// answering serves every request on a connection with the same answer bytes.
// forEachAnswer runs check as a subtest per named answer, against a server that gives it (`serve`:
// answering, or answeringOnce to close after it).
func forEachAnswer(t *testing.T, answers map[string]string, serve func(string) func(*testServer, net.Conn, *bufio.Reader), check func(t *testing.T, server *testServer, answer string)) {
	for name, answer := range answers {
		t.Run(name, func(t *testing.T) { check(t, startServer(t, serve(answer)), answer) })
	}
}

func answering(answer string) func(*testServer, net.Conn, *bufio.Reader) {
	return func(s *testServer, c net.Conn, r *bufio.Reader) {
		for {
			if _, ok := s.readRequest(r); !ok {
				return
			}
			if _, err := c.Write([]byte(answer)); err != nil {
				return
			}
		}
	}
}

// answeringOnce answers the first request of each connection, then closes it.
func answeringOnce(answer string) func(*testServer, net.Conn, *bufio.Reader) {
	return func(s *testServer, c net.Conn, r *bufio.Reader) {
		if _, ok := s.readRequest(r); ok {
			_, _ = c.Write([]byte(answer))
		}
		_ = c.Close()
	}
}

type lines []map[string]any

// runEngine runs the engine in-process on config and returns its output lines.
func runEngine(t *testing.T, config map[string]any) lines {
	t.Helper()
	encoded, err := json.Marshal(config)
	if err != nil {
		t.Fatal(err)
	}
	stdinReader, stdinWriter := io.Pipe()
	go func() { _, _ = stdinWriter.Write(append(encoded, '\n')) }()
	var buffer lockedBuffer
	done := make(chan int, 1)
	go func() { done <- run(stdinReader, &output{writer: &buffer}) }()
	select {
	case code := <-done:
		if code != 0 {
			t.Fatalf("engine exited %d: %s", code, buffer.String())
		}
	case <-time.After(60 * time.Second):
		t.Fatalf("engine did not end within 60 s: %s", buffer.String())
	}
	_ = stdinWriter.Close()
	return parseLines(t, buffer.String())
}

func parseLines(t *testing.T, text string) lines {
	t.Helper()
	var out lines
	for _, line := range strings.Split(strings.TrimSpace(text), "\n") {
		var value map[string]any
		if err := json.Unmarshal([]byte(line), &value); err != nil {
			t.Fatalf("not a JSON line: %q", line)
		}
		out = append(out, value)
	}
	return out
}

type lockedBuffer struct {
	mu     sync.Mutex
	buffer bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buffer.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buffer.String()
}

func mustJSON(t *testing.T, value any) []byte {
	t.Helper()
	encoded, err := json.Marshal(value)
	if err != nil {
		t.Fatal(err)
	}
	return encoded
}
