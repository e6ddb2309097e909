// The one way a second becomes a point on the run dashboard's charts: the run service draws the
// second it has just stored, replay draws the same stored second later, so a replay shows exactly
// what was seen live. A second merged from several clients carries each client's own requests/s
// and p99 beside the merged figures (the per-client breakdown shown on demand). The drain after a
// step's window (answers that came late) is a point too, marked as such: the summary table counts
// those answers, so a chart that left them out would show a lower tail than the table.

import { coreCpuOf } from './core-busy.ts';
import type { RunSecond } from './run-second.ts';
import { SECOND_COUNTS, type SecondCounts } from './second-kinds.ts';
import type { LivePoint } from './runs.ts';

export interface PointContext {
  sessionId: number;
  /** The step's index in the session (0-based). */
  step: number;
  /** When the session started, epoch ms: the charts' x counts from there. */
  startedAtMs: number;
  /** Where the step started, in session seconds: places rows stored without their time (older Benchlab). */
  stepOffsetS: number;
}

/** The length a second's rates are per: its recorded duration, a full second when unknown or zero. */
function durationMsOf(second: RunSecond): number {
  const durationMs = second.clientMetrics?.durationMs;
  return durationMs !== undefined && durationMs > 0 ? durationMs : 1000;
}

/** `parts`: the clients' own seconds a merged second was made of; two or more fill the point's `clients`. */
export function chartPoint(second: RunSecond, context: PointContext, parts?: readonly RunSecond[]): LivePoint {
  const client = second.clientMetrics ?? {};
  const server = second.serverMetrics;
  // A drain's rates are over at least a second: two answers in its 10 ms are not 200 a second.
  const durationMs = second.phase === 'drain' ? Math.max(1000, durationMsOf(second)) : durationMsOf(second);
  const errors = Object.values(second.errors).reduce((sum, count) => sum + count, 0);
  // t is the end of the second (`at`, as the agent measured it) in session seconds, to the hundredth.
  const t = client.at !== undefined ? Math.round((client.at - context.startedAtMs) / 10) / 100 : context.stepOffsetS + second.second + 1;
  return {
    sessionId: context.sessionId,
    step: context.step,
    t,
    at: client.at ?? context.startedAtMs + t * 1000,
    warmup: second.phase === 'warmup',
    rps: (second.requests * 1000) / durationMs,
    errorsPerS: (errors * 1000) / durationMs,
    // A count the second predates (null) is drawn as none.
    countsPerS: Object.fromEntries(SECOND_COUNTS.map((name) => [name, ((second[name] ?? 0) * 1000) / durationMs])) as SecondCounts,
    p50Us: second.p50Us,
    p90Us: second.p90Us,
    p99Us: second.p99Us,
    maxUs: second.maxUs,
    ...(second.phase === 'drain' ? { drain: true } : {}),
    clientCpu: client.cpu ?? 0,
    eventLoopLagMs: client.eventLoopLagMs ?? 0,
    serverCpu: server?.cpu ?? null,
    serverRssBytes: server?.processRssBytes ?? null,
    serverMemUsedBytes: server?.memUsedBytes ?? null,
    rxBytesPerS: server?.rxBytesPerS ?? null,
    txBytesPerS: server?.txBytesPerS ?? null,
    ...(server
      ? {
          server: {
            coreCpu: coreCpuOf(server),
            threads: server.processThreads ?? null,
            runQueue: server.runQueue ?? null,
            voluntarySwitchesPerS: server.processVoluntarySwitchesPerS ?? null,
            involuntarySwitchesPerS: server.processInvoluntarySwitchesPerS ?? null,
            // Counts of the server's interval, shown per second of the point.
            tcpRetransmitsPerS: server.tcpRetransmits === undefined ? null : (server.tcpRetransmits * 1000) / durationMs,
            listenOverflowsPerS: server.listenOverflows === undefined ? null : (server.listenOverflows * 1000) / durationMs,
            // The runtime's own figures are the server sampler's interval's, as it read them.
            gcPauses: server.gcPauses ?? null,
            gcPauseMs: server.gcPauseMs ?? null,
            gcLongestPauseMs: server.gcLongestPauseMs ?? null,
            heapAfterGcBytes: server.heapAfterGcBytes ?? null,
            eventLoopDelayP50Ms: server.eventLoopDelayP50Ms ?? null,
            eventLoopDelayP99Ms: server.eventLoopDelayP99Ms ?? null,
            eventLoopDelayMaxMs: server.eventLoopDelayMaxMs ?? null,
            monitorWakesPerS: server.monitorWakesPerS ?? null,
          },
        }
      : {}),
    ...(parts && parts.length >= 2
      ? { clients: parts.map((part) => ({ clientIndex: part.clientIndex, rps: (part.requests * 1000) / durationMsOf(part), p99Us: part.p99Us })) }
      : {}),
  };
}
