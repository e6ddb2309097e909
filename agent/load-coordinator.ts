// The load role's main thread: splits the step over worker threads (all client cores), keeps the
// second boundaries, gathers each thread's interval at every boundary, adds their histograms
// (exactly) into one `sample` line per second with the client's metrics, and ends the step — by
// its duration, its request count, Benchlab's stop, a lost heartbeat, or its hard time cap.

import { availableParallelism } from 'node:os';
import { performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import type { EndReason, LoadAgentConfig, LoadSampleLine } from '../app/agent-protocol.ts';
import { createLatencyHistogram, decodeHistogram, encodeHistogram } from '../app/hdr.ts';
import { emptyErrors, emptyStatus } from '../app/run-summary.ts';
import { ClientMetricsSampler } from './client-metrics.ts';
import { share, type FromThread, type ThreadSetup, type ToThread } from './load-thread.ts';

const now = () => performance.timeOrigin + performance.now();
/** Threads get this long to hand over their interval before the second is published without them. */
const FLUSH_WAIT_MS = 400;
/** Extra time after an open step's end for the last answers, on top of the request timeout. */
const DRAIN_GRACE_MS = 500;

/** A target on this very host: its server competes with the load threads for the same cores. */
export function isLoopback(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '::1' || /^127\./.test(hostname);
}

export function planThreads(config: LoadAgentConfig, cores = availableParallelism()): ThreadSetup[] {
  const { load, request, target } = config;
  const warmupS = Math.ceil(config.warmupS);
  // All cores by default; on loopback one is left to the server (measured: on 2 cores, 1 load
  // thread beside the server does ~20 % more requests/s than 2).
  const usable = isLoopback(target.hostname) ? Math.max(1, cores - 1) : cores;
  const count = Math.max(1, Math.min(config.workers ?? usable, load.connections));
  return Array.from({ length: count }, (_, index): ThreadSetup => {
    if (load.model === 'closed') {
      return {
        index,
        target,
        request,
        warmupS,
        closed: {
          connections: share(load.connections, count, index),
          pipelining: load.pipelining,
          durationS: load.durationS,
          requests: load.requests === undefined ? undefined : share(load.requests, count, index),
        },
      };
    }
    const rate = load.requests !== undefined ? load.requests / load.durationS : load.rate!;
    return {
      index,
      target,
      request,
      warmupS,
      open: {
        rate: rate / count,
        phase: index / count,
        connections: share(load.connections, count, index),
        durationS: load.durationS,
        requests: load.requests === undefined ? undefined : share(load.requests, count, index),
      },
    };
  });
}

type IntervalMessage = Extract<FromThread, { type: 'interval' }>;

export interface LoadOutcome {
  reason: EndReason;
  message?: string;
}

export interface LoadIo {
  sample(line: LoadSampleLine): void;
  log(level: 'info' | 'warn' | 'error', message: string): void;
  /** Registers the one listener for stop (Benchlab's stop, lost heartbeat, closed stdin). */
  onStop(listener: (reason: EndReason) => void): void;
}

export async function runLoad(config: LoadAgentConfig, io: LoadIo, workerEntry: string | URL): Promise<LoadOutcome> {
  const setups = planThreads(config);
  const workers = setups.map((setup) => new Worker(workerEntry, { workerData: { benchlabLoadThread: setup } }));
  const received: IntervalMessage[] = [];
  const answered = new Map<Worker, number>();
  let ready = 0;
  let done = 0;
  let stopReason: EndReason | null = null;
  let fatal: string | null = null;
  let wake: (() => void) | null = null;
  const notify = () => wake?.();

  for (const worker of workers) {
    worker.on('message', (message: FromThread) => {
      if (message.type === 'ready') ready++;
      else if (message.type === 'interval') {
        received.push(message);
        answered.set(worker, message.round);
      } else if (message.type === 'done') done++;
      else if (message.type === 'fatal') fatal ??= message.message;
      notify();
    });
    worker.on('error', (error) => {
      fatal ??= error.message;
      notify();
    });
  }
  io.onStop((reason) => {
    stopReason ??= reason;
    notify();
  });

  const sleepUntil = (at: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(finish, Math.max(0, at - now()));
      function finish() {
        clearTimeout(timer);
        wake = null;
        resolve();
      }
      wake = finish;
    });

  const post = (message: ToThread) => workers.forEach((worker) => worker.postMessage(message));
  const terminate = () => Promise.all(workers.map((worker) => worker.terminate()));

  const readyBy = now() + 15_000;
  while (ready < workers.length && !fatal && !stopReason && now() < readyBy) await sleepUntil(readyBy);
  if (fatal || stopReason || ready < workers.length) {
    await terminate();
    if (stopReason) return { reason: stopReason };
    return { reason: 'error', message: fatal ?? 'the load threads did not start within 15 s' };
  }

  const metrics = new ClientMetricsSampler(config.target.port, workers.length);
  const warmupSeconds = Math.ceil(config.warmupS);
  const startAt = now() + 20;
  const durationS = config.load.durationS;
  const endAt = durationS === undefined ? null : startAt + (warmupSeconds + durationS) * 1000;
  const capAt = startAt + config.capS * 1000;
  post({ type: 'start', startAt });

  let round = 0;
  let second = 0;
  let lastBoundary = startAt;
  let drainUntil: number | null = null;

  /** Gathers every thread's interval and publishes one line for [lastBoundary, at). */
  const flush = async (at: number, dropIfEmpty = false): Promise<void> => {
    const thisRound = ++round;
    post({ type: 'flush', round: thisRound });
    const deadline = now() + FLUSH_WAIT_MS;
    while (workers.some((worker) => (answered.get(worker) ?? 0) < thisRound) && now() < deadline && !fatal) await sleepUntil(deadline);
    const intervals = received.splice(0);
    const durationMs = Math.max(0, Math.min(2000, at - lastBoundary));
    const line = mergeIntervals(intervals, second, at, second < warmupSeconds ? 'warmup' : 'measure', durationMs, metrics);
    const empty = line.requests === 0 && line.client.sent === 0 && Object.values(line.errors).every((count) => count === 0);
    if (dropIfEmpty && empty) return;
    io.sample(line);
    second++;
    lastBoundary = at;
  };

  const end = async (reason: EndReason, message?: string, flushed = false): Promise<LoadOutcome> => {
    post({ type: 'finish' });
    const at = now();
    // The cut-short last second: always gathered (a fast fixed-count step may fit in a few ms),
    // published unless it is a sliver with nothing in it.
    if (!flushed) await flush(at, at - lastBoundary < 50);
    await terminate();
    return message === undefined ? { reason } : { reason, message };
  };

  for (;;) {
    const nextBoundary = startAt + (second + 1) * 1000;
    let wakeAt = Math.min(nextBoundary, capAt);
    if (endAt !== null && drainUntil === null) wakeAt = Math.min(wakeAt, endAt);
    if (drainUntil !== null) wakeAt = Math.min(wakeAt, drainUntil);
    await sleepUntil(wakeAt);

    if (stopReason) return end(stopReason);
    if (fatal) return end('error', `a load thread failed: ${fatal}`);
    const t = now();
    if (t >= nextBoundary - 0.5) {
      // A closed step ending on this boundary stops its connections first, so answers arriving
      // meanwhile still land in this last second rather than in no second at all.
      const closedEnds = config.load.model === 'closed' && endAt !== null && nextBoundary >= endAt - 0.5;
      if (closedEnds) post({ type: 'finish' });
      await flush(nextBoundary);
      if (closedEnds) return end('completed', undefined, true);
      if (second === warmupSeconds) post({ type: 'measure' });
    }
    if (done === workers.length) return end('completed');
    if (t >= capAt) return end('cap', `the step reached its ${config.capS} s cap`);
    if (endAt !== null && drainUntil === null && t >= endAt - 0.5) {
      if (config.load.model === 'closed') return end('completed');
      // Open model: what is due is still sent; answers get the request timeout to arrive.
      post({ type: 'drain' });
      drainUntil = endAt + config.request.timeoutMs + DRAIN_GRACE_MS;
    }
    if (drainUntil !== null && t >= drainUntil) return end('completed');
  }
}

function mergeIntervals(
  intervals: IntervalMessage[],
  second: number,
  at: number,
  phase: 'warmup' | 'measure',
  durationMs: number,
  metrics: ClientMetricsSampler,
): LoadSampleLine {
  const histogram = createLatencyHistogram();
  const status: Record<string, number> = emptyStatus();
  const errors: Record<string, number> = emptyErrors();
  let requests = 0;
  let bytes = 0;
  let sent = 0;
  let portErrors = 0;
  let lagMs = 0;
  const backlogByThread = new Map<number, number>();
  for (const interval of intervals) {
    requests += interval.requests;
    bytes += interval.bytes;
    sent += interval.sent;
    portErrors += interval.portErrors;
    lagMs = Math.max(lagMs, interval.lagMs);
    // A late answer from an earlier round may sit beside this one: the newest backlog counts.
    backlogByThread.set(interval.thread, interval.backlog);
    for (const [kind, count] of Object.entries(interval.status)) status[kind] = (status[kind] ?? 0) + count;
    for (const [kind, count] of Object.entries(interval.errors)) errors[kind] = (errors[kind] ?? 0) + count;
    if (interval.histogram) histogram.add(decodeHistogram(interval.histogram));
  }
  const backlog = [...backlogByThread.values()].reduce((sum, value) => sum + value, 0);
  const empty = histogram.totalCount === 0;
  const percentileUs = (percentile: number) => (empty ? null : histogram.getValueAtPercentile(percentile));
  return {
    type: 'sample',
    second,
    at: Math.round(at),
    phase,
    durationMs: Math.round(durationMs),
    requests,
    bytes,
    status,
    errors,
    histogram: empty ? null : encodeHistogram(histogram),
    p50Us: percentileUs(50),
    p90Us: percentileUs(90),
    p99Us: percentileUs(99),
    maxUs: empty ? null : histogram.highestEquivalentValue(histogram.maxValue),
    client: metrics.sample({ lagMs, backlog, sent, portErrors }),
  };
}
