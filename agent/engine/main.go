// benchlab-engine: `version` prints what it is; `run` reads one config line on stdin, runs the
// step with one epoll loop per thread plan, writes NDJSON lines on stdout, and stops at once on a
// `{"type":"stop"}` line or EOF on stdin. README.md fixes the lines.

package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"
)

const engineVersion = "1.0.0"

func main() {
	out := &output{writer: os.Stdout}
	if len(os.Args) == 2 && os.Args[1] == "version" {
		out.emit(versionLine{Version: engineVersion, Go: runtime.Version()})
		return
	}
	if len(os.Args) != 2 || os.Args[1] != "run" {
		fmt.Fprintln(os.Stderr, "usage: benchlab-engine version | benchlab-engine run (one JSON config line on stdin)")
		os.Exit(2)
	}
	os.Exit(run(os.Stdin, out))
}

// run is the `run` command; it returns the exit code.
func run(stdin io.Reader, out *output) int {
	input := bufio.NewReaderSize(stdin, 1<<20)
	line, err := input.ReadBytes('\n')
	if err != nil && len(strings.TrimSpace(string(line))) == 0 {
		out.emit(endLine{Type: "end", Reason: "error", Message: "no config line on stdin"})
		return 2
	}
	config, err := ParseConfig(line)
	if err != nil {
		out.emit(endLine{Type: "end", Reason: "error", Message: err.Error()})
		return 2
	}
	setup, err := prepare(config)
	if err != nil {
		out.emit(endLine{Type: "end", Reason: "error", Message: err.Error()})
		return 0
	}
	// One P per loop and one for the reporter, so a second's line never waits for a loop's turn.
	runtime.GOMAXPROCS(max(runtime.GOMAXPROCS(0), len(config.Threads)+1))
	stop := make(chan struct{})
	go watchStdin(input, out, stop)
	result := runStep(config, setup, out, stop)
	out.emit(endLine{Type: "end", Reason: result.reason, Message: result.message})
	return 0
}

// watchStdin closes stop on a stop line or when stdin ends.
func watchStdin(input *bufio.Reader, out *output, stop chan<- struct{}) {
	defer close(stop)
	for {
		line, err := input.ReadBytes('\n')
		if text := strings.TrimSpace(string(line)); text != "" {
			var command struct {
				Type string `json:"type"`
			}
			if json.Unmarshal([]byte(text), &command) == nil && command.Type == "stop" {
				return
			}
			out.log("warn", "ignored a line on stdin that is not {\"type\":\"stop\"}")
		}
		if err != nil {
			return
		}
	}
}
