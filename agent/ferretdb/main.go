// benchlab-ferretdb: the private MongoDB-protocol database of a deployment whose host has no
// mongod of its own. It runs FerretDB v1 embedded, on its SQLite backend, so the server host
// needs nothing but this one static binary, and it does the two jobs a host without a MongoDB
// shell cannot: seeding the contract's `docs` collection and reading back what runs (the same
// for a host's own mongod). Commands:
//
//	serve --dir DATA --ports P1,P2,… --port-file FILE [--memory-limit BYTES]
//	                                                    listen on 127.0.0.1 at the first free port
//	seed --url mongodb://127.0.0.1:PORT/NAME --docs N    wait for it, seed, print version and settings
//	docs --url mongodb://127.0.0.1:PORT/NAME             a look inside: `count N`, `newest {…}`, then the 100 /docs answers as JSON lines
//	version                                               print FerretDB's module version
package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"os"
	"os/signal"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"
	"syscall"

	"github.com/FerretDB/FerretDB/ferretdb"
)

const ferretModule = "github.com/FerretDB/FerretDB"

func main() {
	if len(os.Args) < 2 {
		fail("usage: benchlab-ferretdb serve|seed|docs|version [flags]")
	}
	var err error
	switch os.Args[1] {
	case "serve":
		err = serve(os.Args[2:])
	case "seed":
		err = seed(os.Args[2:])
	case "docs":
		err = showDocs(os.Args[2:])
	case "version":
		fmt.Println(ferretVersion())
	default:
		err = fmt.Errorf("unknown command %q (serve, seed, docs or version)", os.Args[1])
	}
	if err != nil {
		fail(err.Error())
	}
}

func fail(message string) {
	fmt.Fprintln(os.Stderr, "benchlab-ferretdb:", message)
	os.Exit(1)
}

// ferretVersion is FerretDB's module version as this binary was built with it (its own version
// file is left empty when it is embedded, so the build's record is the one source).
func ferretVersion() string {
	if info, ok := debug.ReadBuildInfo(); ok {
		for _, dep := range info.Deps {
			if dep.Path == ferretModule {
				return dep.Version
			}
		}
	}
	return "unknown"
}

// flags reads `--name value` pairs; every flag named is required (others are optional).
func flags(args []string, names ...string) (map[string]string, error) {
	values := map[string]string{}
	for i := 0; i+1 < len(args); i += 2 {
		values[strings.TrimPrefix(args[i], "--")] = args[i+1]
	}
	for _, name := range names {
		if values[name] == "" {
			return nil, fmt.Errorf("--%s is required", name)
		}
	}
	return values, nil
}

// serve runs FerretDB on the first of the ports that binds, writes that port to the port file
// once it listens (the deploy waits for it), and stops on TERM or INT.
func serve(args []string) error {
	values, err := flags(args, "dir", "ports", "port-file")
	if err != nil {
		return err
	}
	dir, err := filepath.Abs(values["dir"])
	if err != nil {
		return err
	}
	if text := values["memory-limit"]; text != "" {
		limit, convErr := strconv.ParseInt(text, 10, 64)
		if convErr != nil || limit <= 0 {
			return fmt.Errorf("--memory-limit must be a positive number of bytes, got %q", text)
		}
		if err = boundMemory(limit); err != nil {
			return err
		}
	}
	if err = os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	logger := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	var db *ferretdb.FerretDB
	var port int
	for _, text := range strings.Split(values["ports"], ",") {
		candidate, convErr := strconv.Atoi(strings.TrimSpace(text))
		if convErr != nil {
			return fmt.Errorf("not a port: %q", text)
		}
		// A look first: FerretDB opens its backend before it binds, and a failed bind leaves that open.
		probe, listenErr := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", candidate))
		if listenErr != nil {
			continue
		}
		probe.Close()
		db, err = ferretdb.New(&ferretdb.Config{
			Listener:  ferretdb.ListenerConfig{TCP: fmt.Sprintf("127.0.0.1:%d", candidate)},
			Logger:    logger,
			Handler:   "sqlite",
			SQLiteURL: "file:" + dir + "/",
		})
		if err == nil {
			port = candidate
			break
		}
		if !errors.Is(err, syscall.EADDRINUSE) && !strings.Contains(err.Error(), "address already in use") {
			return err
		}
	}
	if db == nil {
		return fmt.Errorf("no free port on 127.0.0.1 among %s", values["ports"])
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGINT)
	defer stop()
	done := make(chan error, 1)
	go func() { done <- db.Run(ctx) }()
	partial := values["port-file"] + ".partial"
	if err = os.WriteFile(partial, []byte(strconv.Itoa(port)+"\n"), 0o644); err != nil {
		return err
	}
	if err = os.Rename(partial, values["port-file"]); err != nil {
		return err
	}
	fmt.Printf("benchlab-ferretdb: FerretDB %s (SQLite in %s) listening on 127.0.0.1:%d\n", ferretVersion(), dir, port)
	return <-done
}
