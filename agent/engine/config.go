// The engine's input: the one JSON config line the agent writes on stdin, decoded strictly (an
// unknown field is an error, so the agent and the engine cannot drift apart silently) and checked
// before any socket opens. The agent resolves the split over threads (its planThreads) and passes
// one plan per thread; the engine runs exactly one OS thread with one epoll loop per plan.

package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
)

// Config is the whole config line.
type Config struct {
	Target  Target  `json:"target"`
	Request Request `json:"request"`
	Load    Load    `json:"load"`
	// Whole seconds of warm-up before the measured window (a fraction is rounded up, as the Node engine does).
	WarmupS float64 `json:"warmupS"`
	// The engine ends the step by itself after this long (seconds from the first request), whatever happens.
	CapS float64 `json:"capS"`
	// When the first second begins, in epoch ms of this host's clock (several clients start
	// together); absent: as soon as the loops are ready. A time already past starts at once.
	StartAtMs *float64     `json:"startAtMs,omitempty"`
	Threads   []ThreadPlan `json:"threads"`
}

// Target is where the load goes; plain HTTP only.
type Target struct {
	// Optional; "http" when given. Accepted so the agent may pass its own target object as is.
	Protocol string `json:"protocol,omitempty"`
	Hostname string `json:"hostname"`
	Port     int    `json:"port"`
}

// Request is the one request every connection sends, as app/runs/load-profile.ts RequestSpec.
type Request struct {
	Method    string            `json:"method"`
	Path      string            `json:"path"`
	Headers   map[string]string `json:"headers"`
	Body      *string           `json:"body,omitempty"`
	TimeoutMs int               `json:"timeoutMs"`
	// "1.1" (the default) or "1.0": an HTTP/1.0 request line, no keep-alive, a connection per request.
	HTTPVersion string `json:"httpVersion,omitempty"`
	// "close" (the default) gives a timed-out request up with its connection; "wait" (closed model
	// only) counts it as a timeout and keeps the connection waiting for its answer, not counted.
	OnTimeout string `json:"onTimeout,omitempty"`
}

// WaitOnTimeout: a timed-out request's connection waits for its answer instead of closing.
func (r *Request) WaitOnTimeout() bool { return r.OnTimeout == "wait" }

// Load is StepLoad of app/runs/load-profile.ts, both models in one shape.
type Load struct {
	Model string `json:"model"`
	// Closed: the connections; open: the optional connection maximum (the threads carry the resolved one).
	Connections int `json:"connections,omitempty"`
	// Closed only: requests kept on the wire per connection (1 when absent).
	Pipelining int `json:"pipelining,omitempty"`
	// The measured window (closed: absent when Requests is given).
	DurationS *float64 `json:"durationS,omitempty"`
	// A fixed request count (closed: instead of a duration; open: "N requests over durationS").
	Requests *int64 `json:"requests,omitempty"`
	// Open: requests per second (absent when Requests is given).
	Rate *float64 `json:"rate,omitempty"`
	// Closed only: a pause per connection before each request (think.go); absent: none.
	ThinkTime *ThinkTime `json:"thinkTime,omitempty"`
}

// ThreadPlan is one load thread's share, as planThreads in agent/load-coordinator.ts resolves it.
type ThreadPlan struct {
	// Closed: this thread's connections.
	Connections int `json:"connections,omitempty"`
	// This thread's share of a fixed request count (either model), absent otherwise.
	Requests *int64 `json:"requests,omitempty"`
	// Open: this thread's requests per second.
	Rate float64 `json:"rate,omitempty"`
	// Open: 0..1, where in its interval this thread's first slot falls, so threads interleave.
	Phase float64 `json:"phase,omitempty"`
	// Open: connections opened on demand up to this many.
	MaxConnections int `json:"maxConnections,omitempty"`
}

const maxThreads = 256

var httpMethods = []string{"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"}

// ParseConfig decodes and checks one config line; the error says which field is wrong.
func ParseConfig(line []byte) (*Config, error) {
	decoder := json.NewDecoder(bytes.NewReader(line))
	decoder.DisallowUnknownFields()
	var config Config
	if err := decoder.Decode(&config); err != nil {
		return nil, fmt.Errorf("config is not valid JSON for the engine: %v", err)
	}
	if err := config.check(); err != nil {
		return nil, err
	}
	return &config, nil
}

func (c *Config) check() error {
	if c.Target.Protocol != "" && c.Target.Protocol != "http" {
		return errors.New("target.protocol: the native engine speaks plain http only")
	}
	if c.Target.Hostname == "" {
		return errors.New("target.hostname is required")
	}
	if c.Target.Port < 1 || c.Target.Port > 65535 {
		return errors.New("target.port must be between 1 and 65535")
	}
	if err := c.Request.check(); err != nil {
		return err
	}
	if c.WarmupS < 0 || c.WarmupS > 3600 {
		return errors.New("warmupS must be between 0 and 3600")
	}
	if !(c.CapS > 0) {
		return errors.New("capS must be greater than 0")
	}
	if c.StartAtMs != nil && !(*c.StartAtMs > 0) {
		return errors.New("startAtMs must be an epoch time in milliseconds")
	}
	if len(c.Threads) < 1 || len(c.Threads) > maxThreads {
		return fmt.Errorf("threads must hold 1 to %d plans", maxThreads)
	}
	switch c.Load.Model {
	case "closed":
		return c.checkClosed()
	case "open":
		if c.Request.WaitOnTimeout() {
			return errors.New(`request.onTimeout "wait" is for the closed model`)
		}
		return c.checkOpen()
	default:
		return errors.New("load.model must be closed or open")
	}
}

func (r *Request) check() error {
	known := false
	for _, method := range httpMethods {
		known = known || r.Method == method
	}
	if !known {
		return fmt.Errorf("request.method must be one of %s", strings.Join(httpMethods, ", "))
	}
	if !strings.HasPrefix(r.Path, "/") || strings.ContainsAny(r.Path, " \r\n\t") {
		return errors.New(`request.path must start with "/" and hold no spaces or line breaks`)
	}
	for name, value := range r.Headers {
		if name == "" || strings.ContainsAny(name, " :\r\n") || strings.ContainsAny(value, "\r\n\x00") {
			return fmt.Errorf("request.headers: %q is not a valid header", name)
		}
	}
	if r.TimeoutMs < 1 || r.TimeoutMs > 120_000 {
		return errors.New("request.timeoutMs must be between 1 and 120000")
	}
	if err := oneOf(&r.HTTPVersion, "request.httpVersion", "1.1", "1.0"); err != nil {
		return err
	}
	return oneOf(&r.OnTimeout, "request.onTimeout", "close", "wait")
}

// oneOf checks that *value is one of choices, setting it to the first (the default) when empty.
func oneOf(value *string, field string, choices ...string) error {
	if *value == "" {
		*value = choices[0]
	}
	if slices.Contains(choices, *value) {
		return nil
	}
	return fmt.Errorf(`%s must be "%s"`, field, strings.Join(choices, `" or "`))
}

// ConnectionPerRequest: each request opens its own connection and the server closes it after the
// answer — HTTP/1.0 (sent without keep-alive), or a "Connection: close" header among the request's.
func (r *Request) ConnectionPerRequest() bool {
	if r.HTTPVersion == "1.0" {
		return true
	}
	for name, value := range r.Headers {
		if strings.EqualFold(name, "connection") && strings.Contains(strings.ToLower(value), "close") {
			return true
		}
	}
	return false
}

func (c *Config) checkClosed() error {
	if c.Load.Pipelining == 0 {
		c.Load.Pipelining = 1
	}
	if c.Load.Pipelining < 1 || c.Load.Pipelining > 64 {
		return errors.New("load.pipelining must be between 1 and 64")
	}
	if c.Request.ConnectionPerRequest() {
		// A connection carries one request: there is nothing to pipeline behind it.
		c.Load.Pipelining = 1
	}
	if c.Load.ThinkTime != nil {
		if err := c.Load.ThinkTime.check(); err != nil {
			return err
		}
		if c.Load.Pipelining > 1 {
			return errors.New("load.pipelining must be 1 with a think time")
		}
	}
	if (c.Load.DurationS == nil) == (c.Load.Requests == nil) {
		return errors.New("load: give either durationS or requests for the closed model")
	}
	if c.Load.DurationS != nil && !(*c.Load.DurationS > 0) {
		return errors.New("load.durationS must be greater than 0")
	}
	for i, plan := range c.Threads {
		if plan.Connections < 1 {
			return fmt.Errorf("threads[%d].connections must be at least 1", i)
		}
		if (c.Load.Requests == nil) != (plan.Requests == nil) {
			return fmt.Errorf("threads[%d].requests must be given exactly when load.requests is", i)
		}
		if plan.Requests != nil && *plan.Requests < 0 {
			return fmt.Errorf("threads[%d].requests must not be negative", i)
		}
	}
	return nil
}

func (c *Config) checkOpen() error {
	if c.Load.ThinkTime != nil {
		return errors.New("load.thinkTime is for the closed model only")
	}
	if c.Load.DurationS == nil || !(*c.Load.DurationS > 0) {
		return errors.New("load.durationS must be greater than 0 for the open model")
	}
	if (c.Load.Rate == nil) == (c.Load.Requests == nil) {
		return errors.New("load: give either rate or requests for the open model")
	}
	for i, plan := range c.Threads {
		if !(plan.Rate > 0) {
			return fmt.Errorf("threads[%d].rate must be greater than 0", i)
		}
		if plan.Phase < 0 || plan.Phase >= 1 {
			return fmt.Errorf("threads[%d].phase must be in 0..1", i)
		}
		if plan.MaxConnections < 1 {
			return fmt.Errorf("threads[%d].maxConnections must be at least 1", i)
		}
		if (c.Load.Requests == nil) != (plan.Requests == nil) {
			return fmt.Errorf("threads[%d].requests must be given exactly when load.requests is", i)
		}
	}
	return nil
}

// WarmupSeconds is the whole seconds of warm-up.
func (c *Config) WarmupSeconds() int {
	whole := int(c.WarmupS)
	if float64(whole) < c.WarmupS {
		whole++
	}
	return whole
}
