// What every loop of a step shares, made once before the loops start: the target's socket address
// (the name resolved once) and the request encoded as the Node engine encodes it, with copies of it
// back to back so a pipelined batch goes out in one write.

package main

import (
	"context"
	"fmt"
	"net"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"
)

type engineSetup struct {
	config   *Config
	sockaddr syscall.Sockaddr
	family   int
	request  []byte
	batch    []byte
	ringSize int
	// Each request on a connection of its own (HTTP/1.0, or a "Connection: close" header).
	oneShot bool
}

// batchBytesMax bounds the back-to-back copies of a large request.
const batchBytesMax = 256 * 1024

func prepare(config *Config) (*engineSetup, error) {
	sockaddr, family, err := resolve(config.Target)
	if err != nil {
		return nil, err
	}
	request := encodeRequest(config.Target, config.Request)
	pipelining := 1
	if config.Load.Model == "closed" {
		pipelining = config.Load.Pipelining
	}
	copies := max(1, min(pipelining+1, batchBytesMax/len(request)))
	batch := make([]byte, 0, copies*len(request))
	for range copies {
		batch = append(batch, request...)
	}
	ringSize := 2
	for ringSize < pipelining {
		ringSize *= 2
	}
	return &engineSetup{config: config, sockaddr: sockaddr, family: family, request: request, batch: batch, ringSize: ringSize, oneShot: config.Request.ConnectionPerRequest()}, nil
}

func resolve(target Target) (syscall.Sockaddr, int, error) {
	ip := net.ParseIP(target.Hostname)
	if ip == nil {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		addresses, err := net.DefaultResolver.LookupIPAddr(ctx, target.Hostname)
		if err != nil || len(addresses) == 0 {
			return nil, 0, fmt.Errorf("cannot resolve %s: check the target's host name", target.Hostname)
		}
		ip = addresses[0].IP
		for _, address := range addresses {
			if address.IP.To4() != nil {
				ip = address.IP
				break
			}
		}
	}
	if v4 := ip.To4(); v4 != nil {
		sockaddr := &syscall.SockaddrInet4{Port: target.Port}
		copy(sockaddr.Addr[:], v4)
		return sockaddr, syscall.AF_INET, nil
	}
	sockaddr := &syscall.SockaddrInet6{Port: target.Port}
	copy(sockaddr.Addr[:], ip.To16())
	return sockaddr, syscall.AF_INET6, nil
}

// encodeRequest writes the request line (HTTP/1.1 or, as ab sends it, HTTP/1.0 with no keep-alive
// header), a Host header unless given, the headers, a Content-Length
// for a body unless given, and the body.
func encodeRequest(target Target, request Request) []byte {
	var text strings.Builder
	text.WriteString(request.Method + " " + request.Path + " HTTP/" + request.HTTPVersion + "\r\n")
	given := map[string]bool{}
	names := make([]string, 0, len(request.Headers))
	for name := range request.Headers {
		given[strings.ToLower(name)] = true
		names = append(names, name)
	}
	sort.Strings(names)
	if !given["host"] {
		host := target.Hostname
		if strings.Contains(host, ":") {
			host = "[" + host + "]"
		}
		if target.Port != 80 {
			host += ":" + strconv.Itoa(target.Port)
		}
		text.WriteString("Host: " + host + "\r\n")
	}
	for _, name := range names {
		text.WriteString(name + ": " + request.Headers[name] + "\r\n")
	}
	if request.Body != nil && !given["content-length"] {
		text.WriteString("Content-Length: " + strconv.Itoa(len(*request.Body)) + "\r\n")
	}
	text.WriteString("\r\n")
	if request.Body != nil {
		text.WriteString(*request.Body)
	}
	return []byte(text.String())
}
