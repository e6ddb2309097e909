// The load engine as the UI sees it: a live session (its steps, each with status, live summary and
// bottleneck verdict), the chart points streamed once per second with acknowledgement
// backpressure, and stored runs. Points are compact numbers only: the charts read them as they are.

import { z } from 'zod';
import { RecordedEngine } from './engine-choice.ts';
import { connectionPerRequest, LoadProfile, type RequestSpec } from './load-profile.ts';
import { RunSummary } from './run-summary-schema.ts';
import { SECOND_COUNTS, type SecondCount } from './second-kinds.ts';
import { Bottleneck } from './bottleneck.ts';
import { ClockOffset } from './clock-offset.ts';

/** Points the back end may have published and not yet seen acknowledged before it holds the rest. */
export const POINTS_UNACKED_LIMIT = 10;
/** A held stream with no acknowledgement for this long lets its points through anyway (lost acks). */
export const POINTS_STALL_MS = 5000;
/** Points kept in memory for a page that opens mid-run (two hours at 1 Hz). */
export const LIVE_POINTS_KEPT = 7200;

export const LIVE_STATUSES = ['starting', 'running', 'pausing', 'stopping', 'completed', 'failed', 'cancelled'] as const;
export type LiveStatus = (typeof LIVE_STATUSES)[number];

export const STEP_STATUSES = ['pending', 'warmup', 'running', 'completed', 'failed', 'stopped'] as const;

export const CLIENT_STATUSES = ['starting', 'running', 'done', 'failed', 'lost'] as const;

/** One load client of a session: where it runs, its share of the load, its engine and clock, how it fares. */
export const LiveClient = z.object({
  /** 0..n-1, the `clientIndex` of its stored seconds. */
  index: z.number().int(),
  hostId: z.number(),
  name: z.string(),
  /** The weight used: the one given, else the host's core count (1 when unknown). */
  weight: z.number(),
  cores: z.number().int().nullable(),
  /** Its share of the current (or first) step: connections (closed model) or requests/s (open model). */
  connections: z.number().int().nullable(),
  rate: z.number().nullable(),
  engine: RecordedEngine.nullable(),
  /** Its clock's offset to Benchlab's; null: not measured (one client). */
  clock: ClockOffset.nullable(),
  status: z.enum(CLIENT_STATUSES),
  /** Set when it failed or was lost: when (session seconds) and why, in words. */
  problem: z.object({ atS: z.number(), message: z.string() }).nullable(),
});
export type LiveClient = z.infer<typeof LiveClient>;

export const ClientVerdict = z.object({ clientIndex: z.number().int(), bottleneck: Bottleneck.nullable() });
export type ClientVerdict = z.infer<typeof ClientVerdict>;

/**
 * What a step lost: a load client (which one), or the server under test (stopped or replaced under
 * the run), when (session seconds), why, and how many of its seconds are missing.
 */
export const StepDegraded = z.object({
  /** The client lost; null when the server changed. */
  clientIndex: z.number().int().nullable(),
  /** Absent in older records: a client. */
  lost: z.enum(['client', 'server']).optional(),
  /** The lost client's host, or the server's. */
  hostName: z.string(),
  atS: z.number(),
  message: z.string(),
  lostSeconds: z.number().int(),
});
export type StepDegraded = z.infer<typeof StepDegraded>;

export const LiveStep = z.object({
  index: z.number().int(),
  label: z.string(),
  runId: z.number().nullable(),
  status: z.enum(STEP_STATUSES),
  /** Seconds since the session started, for step markers on the charts. */
  startedAtS: z.number().nullable(),
  endedAtS: z.number().nullable(),
  /** The step's result so far (live) or final: always from added histograms. */
  summary: RunSummary.nullable(),
  /** Which side limited the step, with the evidence (app/runs/bottleneck.ts); null: nothing to say yet. */
  bottleneck: Bottleneck.nullable(),
  /** Requests/s the open model aims at; null for the closed model. */
  targetRate: z.number().nullable(),
  /** Each client's own verdict (one saturated client among several is named); [] for one client. */
  clientVerdicts: z.array(ClientVerdict),
  /** Set when a client failed, dropped its link or died during the step: the step's result lacks its part. */
  degraded: StepDegraded.nullable(),
});
export type LiveStep = z.infer<typeof LiveStep>;

export const LiveRun = z.object({
  sessionId: z.number(),
  name: z.string(),
  status: z.enum(LIVE_STATUSES),
  /** The first client's host (clients[0].hostId). */
  clientHostId: z.number(),
  /** The load clients, at least one; index 0 is the client of the fields that name one. */
  clients: z.array(LiveClient),
  serverHostId: z.number().nullable(),
  profile: LoadProfile,
  steps: z.array(LiveStep),
  currentStep: z.number().nullable(),
  /** What the latency means in this model, said next to the numbers. */
  latencyMeaning: z.string(),
  message: z.string().nullable(),
  startedAt: z.string(),
  endedAt: z.string().nullable(),
  /**
   * Per source of once-a-second lines (the client's load agent, the server's sampler): when its
   * last line came, while nothing has come from it for over 2 s; null while lines flow.
   */
  silentSince: z.object({
    /** The earliest silent client's last line. */
    client: z.string().nullable(),
    server: z.string().nullable(),
    /** With several clients: each silent one by index (LiveRun.clients), since its last line; absent with one client. */
    clients: z.array(z.object({ index: z.number().int(), since: z.string() })).optional(),
  }),
  /** The load engine that runs (ran) on the (first) client, with the fallback notice if any; null: not recorded (older sessions ran the Node engine). */
  engine: RecordedEngine.nullable(),
  /** The steps' rates as multiples of a capacity measured first (a plan's capacity steps), in words; absent: fixed steps. */
  calibration: z.string().nullable().optional(),
});
export type LiveRun = z.infer<typeof LiveRun>;

/** One second on the charts. Latencies in µs, rates per second, shares 0..1; null when unknown. */
export const LivePoint = z.object({
  sessionId: z.number(),
  step: z.number().int(),
  /** Seconds since the session started to the end of the point's second (the charts' x). */
  t: z.number(),
  /** The agent's second boundary, epoch ms (to measure the lag to the chart). */
  at: z.number(),
  warmup: z.boolean(),
  rps: z.number(),
  errorsPerS: z.number(),
  /** Each of the second's own counts (SECOND_COUNTS) per second, by name (absent from points of older Benchlab). */
  countsPerS: z.object(Object.fromEntries(SECOND_COUNTS.map((name) => [name, z.number()])) as Record<SecondCount, z.ZodNumber>).optional(),
  p50Us: z.number().nullable(),
  p90Us: z.number().nullable(),
  p99Us: z.number().nullable(),
  /** The slowest answer of the second (absent from points of older Benchlab). */
  maxUs: z.number().nullable().optional(),
  /**
   * The answers that came after the step's window (its drain): the table counts them, so the charts
   * draw them too, as one point at the drain's end. Absent for the window's seconds.
   */
  drain: z.boolean().optional(),
  clientCpu: z.number(),
  eventLoopLagMs: z.number(),
  serverCpu: z.number().nullable(),
  serverRssBytes: z.number().nullable(),
  serverMemUsedBytes: z.number().nullable(),
  rxBytesPerS: z.number().nullable(),
  txBytesPerS: z.number().nullable(),
  /** Why one server beats another, from the server host's reading (absent from points of older Benchlab, null when not read). */
  server: z
    .object({
      /** Each core's busy share (0..1), core 0 first. */
      coreCpu: z.array(z.number()),
      threads: z.number().nullable(),
      runQueue: z.number().nullable(),
      voluntarySwitchesPerS: z.number().nullable(),
      involuntarySwitchesPerS: z.number().nullable(),
      tcpRetransmitsPerS: z.number().nullable(),
      listenOverflowsPerS: z.number().nullable(),
      /** The server's GC pauses of the second (a JVM's GC log, a Node server's monitor): how many, their total and the longest (ms); heap after the last (bytes). */
      gcPauses: z.number().nullable(),
      gcPauseMs: z.number().nullable(),
      gcLongestPauseMs: z.number().nullable(),
      heapAfterGcBytes: z.number().nullable(),
      /** A Node server's event-loop delay of the second (ms): median, p99 and worst. */
      eventLoopDelayP50Ms: z.number().nullable(),
      eventLoopDelayP99Ms: z.number().nullable(),
      eventLoopDelayMaxMs: z.number().nullable(),
      /** Times the event-loop monitor's own timers ran in the second: up to that many of the voluntary switches are its. */
      monitorWakesPerS: z.number().nullable().optional(),
    })
    .optional(),
  /** Each client's own part of the second (several clients only): its requests/s and p99. */
  clients: z.array(z.object({ clientIndex: z.number().int(), rps: z.number(), p99Us: z.number().nullable() })).optional(),
});
export type LivePoint = z.infer<typeof LivePoint>;

export const LivePoints = z.object({ sessionId: z.number(), seq: z.number().int(), points: z.array(LivePoint) });
export type LivePoints = z.infer<typeof LivePoints>;

export const StoredRun = z.object({
  id: z.number(),
  sessionId: z.number(),
  ordinal: z.number(),
  templateId: z.string(),
  variant: z.string(),
  step: z.record(z.string(), z.unknown()),
  status: z.string(),
  startedAt: z.string().nullable(),
  endedAt: z.string().nullable(),
  summary: RunSummary.nullable(),
  /** Stored seconds of the measured window (the drain is not one). */
  sampleCount: z.number(),
});
export type StoredRun = z.infer<typeof StoredRun>;

/** What the latency means in this model and with this request (a connection per request or keep-alive), said next to the numbers. */
export function latencyMeaning(model: 'closed' | 'open', request?: Pick<RequestSpec, 'headers' | 'httpVersion'>): string {
  const perRequest = request !== undefined && connectionPerRequest(request);
  if (model === 'open') {
    return `Open model: latency and the timeout run from each request’s intended send time (coordinated-omission correct), a wait for a connection${perRequest ? ' and the connect each request opens' : ' and a new connection’s connect'} included; a timed-out request is in the latency at its timeout.`;
  }
  return perRequest
    ? 'Closed model, a connection per request: latency runs from the start of each request’s connect to its answer, the connect included (as ab’s total); the timeout runs from the write and timed-out requests are counted, not timed.'
    : 'Closed model: latency is service time, from the request’s write to its answer (a connection’s first request from its connect); connects are shown apart; the timeout runs from the write and timed-out requests are counted, not timed.';
}
