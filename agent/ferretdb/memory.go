// The memory bound of `serve`: FerretDB v1 holds a whole collection per read (it sorts in memory)
// and allocates a slice as large as the batch size a client asks for, so one client can make it
// grow without end. With a limit it never takes more than that from the host: the Go heap is kept
// under it (the collector works harder as it nears it), a watchdog ends the process with a line
// that says why once its resident memory passes it, and the address space is capped so that a
// single huge allocation fails at once instead of being paged in.

package main

import (
	"fmt"
	"os"
	"runtime/debug"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// addressSpaceHeadroom is what the address-space cap adds to the limit: the Go runtime and the
// SQLite allocator reserve about 1.3 GiB of address space they never touch.
const addressSpaceHeadroom = 2 << 30

// How often the watchdog reads the resident memory.
const watchEvery = 100 * time.Millisecond

func boundMemory(limit int64) error {
	debug.SetMemoryLimit(limit * 3 / 4)
	ceiling := uint64(limit) + addressSpaceHeadroom
	if err := syscall.Setrlimit(syscall.RLIMIT_AS, &syscall.Rlimit{Cur: ceiling, Max: ceiling}); err != nil {
		return fmt.Errorf("cannot cap the address space at %d bytes: %w", ceiling, err)
	}
	go watchResident(limit)
	return nil
}

// residentBytes is the process's resident set from /proc/self/statm (pages), or -1.
func residentBytes() int64 {
	raw, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		return -1
	}
	fields := strings.Fields(string(raw))
	if len(fields) < 2 {
		return -1
	}
	pages, err := strconv.ParseInt(fields[1], 10, 64)
	if err != nil {
		return -1
	}
	return pages * int64(os.Getpagesize())
}

func watchResident(limit int64) {
	for range time.Tick(watchEvery) {
		if resident := residentBytes(); resident > limit {
			fmt.Fprintf(os.Stderr, "benchlab-ferretdb: out of memory: %d MiB resident, over the limit of %d MiB; stopping so the host keeps its memory\n", resident>>20, limit>>20)
			os.Exit(3)
		}
	}
}
