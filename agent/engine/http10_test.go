// A connection per request: HTTP/1.0 as ab sends it (the request line, no keep-alive header, answers
// ending at Content-Length or at the close) and a "Connection: close" header; and the close left
// to the server, which closes first, so its side keeps the TIME_WAIT.

package main

import (
	"bufio"
	"errors"
	"io"
	"net"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

func TestHTTP10RequestsOpenAConnectionEach(t *testing.T) {
	forEachAnswer(t, map[string]string{
		"length":      "HTTP/1.0 200 OK\r\nContent-Length: 5\r\n\r\nhello",
		"until close": "HTTP/1.0 200 OK\r\n\r\nhello until the close",
		"1.1 closing": "HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 5\r\n\r\nhello",
	}, answeringOnce, func(t *testing.T, server *testServer, answer string) {
		config := closedConfig(server.port(), 4, map[string]any{"requests": 40})
		setRequest(config, "httpVersion", "1.0")
		ls := runEngine(t, config)
		assertEnd(t, ls, "completed")
		b := assertBooks(t, ls)
		if b.status["2xx"] != 40 || sumOf(toAny(b.errors)) != 0 || b.bytes != int64(40*len(answer)) {
			t.Fatalf("2xx %d, errors %v, bytes %d", b.status["2xx"], b.errors, b.bytes)
		}
		if server.connections.Load() != 40 || b.newConnections != 40 {
			t.Fatalf("%d connections at the server, %d reported: want one per request", server.connections.Load(), b.newConnections)
		}
		server.mu.Lock()
		head := server.heads[0]
		server.mu.Unlock()
		if !strings.HasPrefix(head, "GET / HTTP/1.0\r\n") || strings.Contains(strings.ToLower(head), "keep-alive") {
			t.Fatalf("the request was %q: want an HTTP/1.0 request line and no keep-alive", head)
		}
	})
}

// A server that would keep the connection alive all the same gets no second request on it: the
// engine closes it itself after the answer.
func TestConnectionPerRequestAgainstAKeepAliveServer(t *testing.T) {
	for name, request := range map[string][2]string{"HTTP/1.0": {"httpVersion", "1.0"}, "Connection: close": {"headers", "close"}} {
		t.Run(name, func(t *testing.T) {
			server := startServer(t, answering("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"))
			config := closedConfig(server.port(), 2, map[string]any{"requests": 20, "pipelining": 4})
			if request[0] == "headers" {
				setRequest(config, "headers", map[string]any{"connection": "Close"})
			} else {
				setRequest(config, "httpVersion", request[1])
			}
			ls := runEngine(t, config)
			assertEnd(t, ls, "completed")
			b := assertBooks(t, ls)
			if b.status["2xx"] != 20 || server.requests.Load() != 20 || server.connections.Load() != 20 {
				t.Fatalf("2xx %d, %d requests over %d connections: want 20 over 20", b.status["2xx"], server.requests.Load(), server.connections.Load())
			}
		})
	}
}

func TestHTTPVersionIsChecked(t *testing.T) {
	var buffer lockedBuffer
	config := closedConfig(1, 1, map[string]any{"requests": 1})
	setRequest(config, "httpVersion", "2")
	code := run(strings.NewReader(string(mustJSON(t, config))+"\n"), &output{writer: &buffer})
	ls := parseLines(t, buffer.String())
	if code != 2 || !strings.Contains(ls.end()["message"].(string), "httpVersion") {
		t.Fatalf("exit %d, lines %v", code, ls)
	}
}

func TestWaitOnTimeoutIsForTheClosedModel(t *testing.T) {
	for name, config := range map[string]map[string]any{
		"an unknown onTimeout":   closedConfig(1, 1, map[string]any{"requests": 1}),
		"wait in the open model": openConfig(1, 10, 1, 1),
	} {
		t.Run(name, func(t *testing.T) {
			var buffer lockedBuffer
			value := "wait"
			if name == "an unknown onTimeout" {
				value = "linger"
			}
			setRequest(config, "onTimeout", value)
			code := run(strings.NewReader(string(mustJSON(t, config))+"\n"), &output{writer: &buffer})
			ls := parseLines(t, buffer.String())
			if code != 2 || !strings.Contains(ls.end()["message"].(string), "onTimeout") {
				t.Fatalf("exit %d, lines %v", code, ls)
			}
		})
	}
}

// The server answers 10 ms late and closes 5 ms after its answer; a client that closes first (its
// FIN reaching the server before the server closed) would keep the TIME_WAIT on the client's ports.
// Only the last connections, still waiting when the step ends, are closed by the client.
func TestTheServerClosesFirst(t *testing.T) {
	const connections = 4
	var clientFirst, serverFirst atomic.Int64
	server := startServer(t, func(s *testServer, c net.Conn, r *bufio.Reader) {
		defer c.Close()
		if _, ok := s.readRequest(r); !ok {
			return
		}
		time.Sleep(10 * time.Millisecond)
		_, _ = c.Write([]byte("HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 2\r\n\r\nok"))
		_ = c.SetReadDeadline(time.Now().Add(5 * time.Millisecond))
		if _, err := r.ReadByte(); errors.Is(err, io.EOF) {
			clientFirst.Add(1)
		} else if errors.Is(err, os.ErrDeadlineExceeded) {
			serverFirst.Add(1)
		}
	})
	config := closedConfig(server.port(), connections, map[string]any{"requests": 40})
	setRequest(config, "headers", map[string]any{"Connection": "close"})
	ls := runEngine(t, config)
	assertEnd(t, ls, "completed")
	if b := assertBooks(t, ls); b.status["2xx"] != 40 {
		t.Fatalf("2xx %d", b.status["2xx"])
	}
	if clientFirst.Load() > connections || serverFirst.Load() < 40-connections {
		t.Fatalf("the client closed first %d times, the server %d times: the client waits for the server's close", clientFirst.Load(), serverFirst.Load())
	}
}
