// The agent's line protocol: one JSON object per line (NDJSON) each way over the SSH channel.
// Benchlab → agent on stdin: the start line with the whole configuration, then a heartbeat every
// second, `ping` lines (clock role) and `stop`. Agent → Benchlab on stdout: hello, one `sample`
// (load) or `server` (sampler) line per second, a `pong` per ping, log lines, and `end`. Each line
// is checked with these schemas on arrival, so a corrupt or foreign line is reported, never
// half-trusted.

import { z } from 'zod';
import { RequestSpec, StepLoad } from './load-profile.ts';
import { describeZodError } from '../common/zod-issues.ts';
import { SECOND_COUNTS, type SecondCount } from './second-kinds.ts';

/** 3: the clock role (ping/pong) and LoadAgentConfig.startAtMs. */
export const AGENT_PROTOCOL_VERSION = 3;
/**
 * The agent stops its load when it hears no line from Benchlab for this long: long enough that a
 * Benchlab alive but not running (a laptop under load, a long GC, a process stopped for 10 s) never
 * costs a run, its seconds kept by the agent meanwhile and delivered when it reads again. A
 * Benchlab that is gone closes the channel, and the agent stops at once on its stdin's end.
 */
export const HEARTBEAT_TIMEOUT_MS = 15_000;
export const HEARTBEAT_EVERY_MS = 1000;
/** Longest line either side accepts (a sample with its histogram is a few KB). */
export const MAX_LINE_BYTES = 1024 * 1024;
/** The longest drain: the longest request timeout and a little. */
export const MAX_DRAIN_MS = 130_000;

const Count = z.number().int().min(0);

/** The line's fields of the second's own counts (SECOND_COUNTS), each a count under its name. */
const SECOND_COUNT_FIELDS = Object.fromEntries(SECOND_COUNTS.map((name) => [name, Count])) as Record<SecondCount, typeof Count>;
const Micros = z.number().min(0).nullable();

// ---------------------------------------------------------------------------------------------
// Benchlab → agent

export const LOAD_ENGINES = ['node', 'native'] as const;
export type LoadEngineKind = (typeof LOAD_ENGINES)[number];

export const LoadEngine = z.object({
  kind: z.enum(LOAD_ENGINES),
  /** The native engine's binary on the client host (required for `native`). */
  path: z.string().optional(),
});
export type LoadEngine = z.output<typeof LoadEngine>;

export const LoadAgentConfig = z
  .object({
    role: z.literal('load'),
    target: z.object({ protocol: z.enum(['http', 'https']), hostname: z.string(), port: z.number().int() }).strict(),
    request: RequestSpec,
    load: StepLoad,
    warmupS: z.number().min(0),
    /** The agent ends the step by itself after this long, whatever happens. */
    capS: z.number().gt(0),
    /** Worker threads to spread the load over; default: one per core. */
    workers: z.number().int().min(1).max(256).optional(),
    /** Where the agent writes its pid (so a later Benchlab can clean up after a crash). */
    pidFile: z.string().optional(),
    /**
     * Which engine drives the load: the agent's own Node threads (absent or `node`) or the native
     * engine binary at `path` on the client host, which the agent starts and reads from.
     */
    engine: LoadEngine.optional(),
    /**
     * When to start the step's load (warm-up first), in epoch ms of the client's own clock: the
     * agent gets ready (threads or the native engine up) and waits for this instant, and its
     * second boundaries count from it, so several clients start together. Absent: at once. A
     * time already past: at once, with a log line.
     */
    startAtMs: z.number().positive().optional(),
  })
  .strict();
export type LoadAgentConfig = z.output<typeof LoadAgentConfig>;

export const SamplerConfig = z
  .object({
    role: z.literal('sampler'),
    /** The server under test is the process listening on this port (and its children). */
    port: z.number().int().min(1).max(65535).nullable(),
    capS: z.number().gt(0),
    pidFile: z.string().optional(),
  })
  .strict();
export type SamplerConfig = z.output<typeof SamplerConfig>;

export const ProbeConfig = z
  .object({
    role: z.literal('probe'),
    target: z.object({ hostname: z.string(), port: z.number().int() }).strict(),
    timeoutMs: z.number().int().min(100).max(30_000),
  })
  .strict();
export type ProbeConfig = z.output<typeof ProbeConfig>;

/**
 * Answers `ping` commands with `pong` lines carrying the host's clock, so Benchlab can measure the
 * host's clock offset (app/runs/clock-offset.ts). Ends on `stop`, like the other roles, or at the cap.
 */
export const ClockConfig = z
  .object({
    role: z.literal('clock'),
    capS: z.number().gt(0),
  })
  .strict();
export type ClockConfig = z.output<typeof ClockConfig>;

export const AgentConfig = z.discriminatedUnion('role', [LoadAgentConfig, SamplerConfig, ProbeConfig, ClockConfig]);
export type AgentConfig = z.output<typeof AgentConfig>;

export const AgentCommand = z.discriminatedUnion('type', [
  z.object({ type: z.literal('start'), version: z.number().int(), config: AgentConfig }),
  z.object({ type: z.literal('hb') }),
  z.object({ type: z.literal('stop') }),
  /** Clock role: asks for one `pong` with the host's time. */
  z.object({ type: z.literal('ping'), id: Count }),
]);
export type AgentCommand = z.output<typeof AgentCommand>;

// ---------------------------------------------------------------------------------------------
// Agent → Benchlab

export const ClientMetrics = z.object({
  /** Busy share of all the client host's cores, 0..1. */
  cpu: z.number(),
  /** CPU the agent itself used, in cores (2 = two cores busy). */
  agentCpu: z.number(),
  cores: z.number().int(),
  /** Load threads (one event loop each): `agentCpu` near this count is a saturated agent. 0: not reported. */
  loadThreads: Count.default(0),
  /** Busy share (0..1) of the cores the agent's busy threads last ran on; null when unknown. */
  agentCoresBusy: z.number().nullable().default(null),
  /** Worst event-loop delay (p99) among the load threads in this second. */
  eventLoopLagMs: z.number(),
  /** Established connections to the target. */
  openSockets: Count,
  /** Sockets to the target in TIME_WAIT. */
  timeWait: Count,
  /** Open model: requests due but still waiting for a free connection at the end of the second. */
  backlog: Count,
  /** Requests sent in this second. */
  sent: Count,
  /** Errors that mean no local port was free (EADDRNOTAVAIL). */
  portErrors: Count,
  /** Connections opened in this interval (the open model opens them on demand). */
  newConnections: Count.default(0),
  /** Slowest connect among them, µs; null when none was opened. */
  connectUsMax: Micros.default(null),
  portRangeSize: z.number().int().nullable(),
});
export type ClientMetrics = z.infer<typeof ClientMetrics>;

/**
 * The client's readings as a stored second keeps them (app/runs/run-second.ts): the figures above,
 * with when the second ended (`at`, epoch ms on Benchlab's clock) and what it lasted (`durationMs`).
 * Each may be absent: rows stored before a figure was sent lack it, and unknowns (null) are not kept.
 */
export type SecondClientMetrics = { [K in keyof ClientMetrics]?: NonNullable<ClientMetrics[K]> } & { at?: number; durationMs?: number };

/**
 * How several clients' readings of one second become one (app/runs/merge-seconds.ts): events counted
 * in the second add up; every other reading keeps the highest (the slowest client speaks; `at` the
 * latest, `durationMs` the longest). A new reading says here which it is.
 */
export const CLIENT_METRICS_MERGE = {
  cpu: 'max',
  agentCpu: 'max',
  cores: 'max',
  loadThreads: 'max',
  agentCoresBusy: 'max',
  eventLoopLagMs: 'max',
  openSockets: 'max',
  timeWait: 'max',
  backlog: 'add',
  sent: 'add',
  portErrors: 'add',
  newConnections: 'add',
  connectUsMax: 'max',
  portRangeSize: 'max',
  at: 'max',
  durationMs: 'max',
} as const satisfies Record<keyof SecondClientMetrics, 'add' | 'max'>;

/**
 * An interval's request phases, as ab reports them (engines.md): `connect`, µs from the start of a
 * connect to established, one value per connection established in the interval; `waiting`, µs from
 * a request's last byte written to the first byte of its answer; `processing`, an answer's total
 * latency less the connect its request paid (all of it when it reused a connection); `withConnect`,
 * answers whose request opened its own connection, so the headline latency includes that connect.
 * Histograms are encoded like `histogram`. Absent from older agents and engines: nothing measured.
 */
export const RequestPhases = z.object({
  connect: z.string().max(MAX_LINE_BYTES).nullable(),
  waiting: z.string().max(MAX_LINE_BYTES).nullable(),
  processing: z.string().max(MAX_LINE_BYTES).nullable(),
  withConnect: Count,
});
export type RequestPhases = z.infer<typeof RequestPhases>;

export function noPhases(): RequestPhases {
  return { connect: null, waiting: null, processing: null, withConnect: 0 };
}

/**
 * One interval of one client. Counts belong to the phase of the requests they count (a warm-up
 * request answered after the warm-up is never a measured one). The books of the phase balance on
 * every line: `inFlight(previous line) + scheduled = Σ status + Σ errors + Σ notSent + inFlight`,
 * and the `drain` line that follows the measured window leaves nothing in flight.
 */
export const LoadSampleLine = z.object({
  type: z.literal('sample'),
  /** 0-based index of this interval in the step, warm-up included (the drain follows the last). */
  second: Count,
  /** Wall-clock end of the interval (epoch ms), for lag measurement. */
  at: z.number(),
  /** `drain`: after the measured window, the answers still due; never part of the window's time. */
  phase: z.enum(['warmup', 'measure', 'drain']),
  /** Interval length: 1000, less for a last second cut short; a drain lasts up to the request timeout. */
  durationMs: z.number().min(0).max(MAX_DRAIN_MS),
  /** The second's own counts (SECOND_COUNTS: scheduled, requests answered, bytes). */
  ...SECOND_COUNT_FIELDS,
  status: z.record(z.string(), Count),
  /** Requests that ended without an answer, by kind (ERROR_KINDS). */
  errors: z.record(z.string(), Count),
  /** Scheduled requests that were never sent, by reason (NOT_SENT_REASONS). */
  notSent: z.record(z.string(), Count),
  /** Scheduled and not yet resolved at the end of the interval (on the wire or waiting for a connection). */
  inFlight: Count,
  /**
   * The interval's HDR histogram (µs), compressed base64; null when no latency was recorded. The
   * total each request experienced: from its connect when it opened its own connection (closed
   * model), from its intended time (open model), else from its write.
   */
  histogram: z.string().max(MAX_LINE_BYTES).nullable(),
  p50Us: Micros,
  p90Us: Micros,
  p99Us: Micros,
  maxUs: Micros,
  phases: RequestPhases.default(noPhases),
  client: ClientMetrics,
});
export type LoadSampleLine = z.infer<typeof LoadSampleLine>;

export const ServerMetrics = z.object({
  cpuUser: z.number(),
  cpuSystem: z.number(),
  cpuIowait: z.number(),
  cpu: z.number(),
  cores: z.number().int(),
  memTotalBytes: z.number(),
  memUsedBytes: z.number(),
  /** RSS of the server under test and its child processes; null when it is not found. */
  processRssBytes: z.number().nullable(),
  processFds: z.number().nullable(),
  processThreads: z.number().nullable(),
  processPid: z.number().nullable(),
  rxBytesPerS: z.number(),
  txBytesPerS: z.number(),
  tcp: z.record(z.string(), Count),
  /** Busy share (0..1) of the server host's busiest core: one saturated event loop hides in `cpu`. */
  busiestCoreCpu: z.number().nullable().default(null),
  /** CPU of the server under test and its children, in cores; null when it is not found. */
  processCpu: z.number().nullable().default(null),
  /** Connections that found the accept queue full in this interval (TcpExt ListenOverflows). */
  listenOverflows: Count.default(0),
  /** Connection requests dropped at a listener in this interval (TcpExt ListenDrops). */
  listenDrops: Count.default(0),
  /** Busy share (0..1) of each core of the server host in this interval, core 0 first; absent from older agents. */
  coreCpu: z.array(z.number()).max(1024).optional(),
  /** Tasks runnable on the server host at the reading (procs_running, the sampler among them). */
  runQueue: Count.optional(),
  /** Context switches per second on the whole server host. */
  hostContextSwitchesPerS: z.number().optional(),
  /**
   * Context switches per second of the server process tree's threads: voluntary (a thread waited for
   * I/O, a lock, a sleep) and involuntary (the scheduler took its core: more runnable threads than
   * cores). Null when the server was not found, or has more threads than the sampler reads each
   * second (PROCESS_SWITCH_THREADS: reading each thread's counters costs the server's host CPU).
   */
  processVoluntarySwitchesPerS: z.number().nullable().optional(),
  processInvoluntarySwitchesPerS: z.number().nullable().optional(),
  /** TCP segments the server host sent again in this interval (Tcp RetransSegs, its namespace). */
  tcpRetransmits: Count.optional(),
  /**
   * The server's GC pauses that ended in this interval: a JVM's from its unified GC log (`-Xlog:gc`,
   * which Benchlab's JVM templates start with), a Node server's from V8 as the monitor its start
   * preloads observes them (with several processes, a cluster: the pauses added up, the time paused
   * the most-paused process's, the longest of any). How many, their total and the longest, in ms.
   * Absent when the server's runtime says nothing the sampler can read (started without either).
   */
  gcPauses: Count.optional(),
  gcPauseMs: z.number().min(0).optional(),
  gcLongestPauseMs: z.number().min(0).optional(),
  /** The heap in use after the interval's last GC pause (bytes; a Node cluster: each process's latest added up); absent when no pause ended in it. */
  heapAfterGcBytes: z.number().min(0).optional(),
  /**
   * A Node server's event-loop delay in this interval (ms, from the monitor Benchlab's Node templates
   * preload): how late the loop ran a timer at the median, p99 and worst; with several processes (a
   * cluster), the worst process's. Absent when the server carries no such monitor.
   */
  eventLoopDelayP50Ms: z.number().min(0).optional(),
  eventLoopDelayP99Ms: z.number().min(0).optional(),
  eventLoopDelayMaxMs: z.number().min(0).optional(),
  /**
   * How often that monitor's own timers ran in this interval (its processes added up): each may have
   * woken an idle loop, so up to this many of `processVoluntarySwitchesPerS` may be the monitor's.
   */
  monitorWakesPerS: Count.optional(),
  /**
   * When the sampler read these figures (epoch ms, the server host's clock): the client second they
   * are stored with is the one that ended closest to it (app/runs/server-readings.ts). Absent from
   * older agents.
   */
  readAt: z.number().optional(),
});
export type ServerMetrics = z.infer<typeof ServerMetrics>;

/**
 * The server's reading as a stored second keeps it: its figures (each may be absent, as in rows stored
 * before it was read; unknowns are not kept), the TCP states flattened as `tcp.<STATE>`, and each
 * core's busy share in one string, `coreBusy` (app/runs/core-busy.ts), or in rows stored before it
 * one key per core, `core.<N>`. Read the cores only with `coreCpuOf`, which reads both.
 */
export type SecondServerMetrics = { [K in Exclude<keyof ServerMetrics, 'tcp' | 'coreCpu'>]?: NonNullable<ServerMetrics[K]> } & {
  coreBusy?: string;
} & { [state: `tcp.${string}`]: number } & { [core: `core.${number}`]: number };

export const ServerSampleLine = z.object({
  type: z.literal('server'),
  second: Count,
  at: z.number(),
  server: ServerMetrics,
});
export type ServerSampleLine = z.infer<typeof ServerSampleLine>;

// ---------------------------------------------------------------------------------------------
// Native engine → agent (agent/engine/README.md): the lines the engine binary writes on its stdout.
// The agent reads them and speaks the protocol above to Benchlab.

/** One second of the engine: the agent's sample line without `type`/`client`, plus the engine's own figures. */
export const EngineIntervalLine = LoadSampleLine.omit({ type: true, client: true }).extend({
  type: z.literal('interval'),
  engine: z.object({
    threads: Count,
    /** CPU seconds (user + system) the engine has used since it started. */
    cpuS: z.number().min(0),
    /** The longest loop turn of the second across its threads. */
    lagMs: z.number().min(0),
    backlog: Count,
    sent: Count,
    portErrors: Count,
    newConnections: Count,
    connectUsMax: Micros,
  }),
});
export type EngineIntervalLine = z.infer<typeof EngineIntervalLine>;

export const EngineLine = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ready'), threads: Count }),
  EngineIntervalLine,
  z.object({ type: z.literal('log'), level: z.enum(['info', 'warn', 'error']), message: z.string() }),
  z.object({ type: z.literal('end'), reason: z.enum(['completed', 'stopped', 'cap', 'error']), message: z.string().optional() }),
]);
export type EngineLine = z.infer<typeof EngineLine>;

export const END_REASONS = ['completed', 'stopped', 'heartbeat', 'stdin-closed', 'cap', 'error'] as const;
export type EndReason = (typeof END_REASONS)[number];

export const AgentLine = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('hello'),
    version: z.number().int(),
    role: z.enum(['load', 'sampler', 'probe', 'clock']),
    pid: z.number().int(),
    node: z.string(),
    cores: z.number().int(),
    workers: z.number().int().optional(),
    /** The load role's engine (absent from older agents and the other roles: node). */
    engine: z.enum(LOAD_ENGINES).optional(),
  }),
  LoadSampleLine,
  ServerSampleLine,
  z.object({ type: z.literal('probe'), reachable: z.boolean(), rttMs: z.number().nullable(), message: z.string().nullable() }),
  /** Clock role: the answer to `ping` `id`, with the host's time (epoch ms, µs resolution) read on arrival. */
  z.object({ type: z.literal('pong'), id: Count, hostMs: z.number() }),
  z.object({ type: z.literal('log'), level: z.enum(['debug', 'info', 'warn', 'error']), message: z.string() }),
  z.object({ type: z.literal('end'), reason: z.enum(END_REASONS), message: z.string().optional() }),
]);
export type AgentLine = z.infer<typeof AgentLine>;

export type ParsedLine<T> = { ok: true; value: T } | { ok: false; error: string };

function parseWith<T>(schema: z.ZodType<T>, line: string): ParsedLine<T> {
  if (line.length > MAX_LINE_BYTES) return { ok: false, error: `line of ${line.length} characters is too long` };
  let json: unknown;
  try {
    json = JSON.parse(line);
  } catch {
    return { ok: false, error: `not JSON: ${line.slice(0, 120)}` };
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    return { ok: false, error: `unexpected line (${describeZodError(parsed.error, 1) || 'invalid'}): ${line.slice(0, 120)}` };
  }
  return { ok: true, value: parsed.data };
}

export function parseAgentLine(line: string): ParsedLine<AgentLine> {
  return parseWith(AgentLine, line);
}

export function parseAgentCommand(line: string): ParsedLine<AgentCommand> {
  return parseWith(AgentCommand, line);
}

export function parseEngineLine(line: string): ParsedLine<EngineLine> {
  return parseWith(EngineLine, line);
}

export function encodeLine(message: AgentLine | AgentCommand): string {
  return `${JSON.stringify(message)}\n`;
}

/** Splits a byte stream into lines; keeps the unfinished tail for the next chunk. */
export class LineSplitter {
  #tail = '';
  push(chunk: string): string[] {
    const text = this.#tail + chunk;
    const lines = text.split('\n');
    this.#tail = lines.pop() ?? '';
    // A runaway line without a newline must not grow without bound.
    if (this.#tail.length > MAX_LINE_BYTES) this.#tail = '';
    return lines.filter((line) => line.trim().length > 0);
  }
  /** What is left at the end of the stream (an unterminated last line). */
  flush(): string[] {
    const rest = this.#tail.trim();
    this.#tail = '';
    return rest ? [rest] : [];
  }
}
