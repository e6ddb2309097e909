// The load role's main thread: splits the step over worker threads (all client cores), starts
// them at the step's start time (the config's, so several clients start together, else at once),
// keeps the interval boundaries from it, gathers each thread's books of one phase at every
// boundary, adds their histograms (the headline's and the phases': exactly) into one `sample` line per second with the client's
// metrics, and ends the step. A step is warm-up seconds, then the measured window of exactly its
// duration (or until a fixed count is answered), then ONE drain line with the answers still due, at
// most the request timeout long, after which whatever is left is settled. Benchlab's stop, a lost
// heartbeat or the time cap end it at once, reporting what is in flight on the last line.

import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { EndReason, LoadAgentConfig, LoadSampleLine } from '../app/runs/agent-protocol.ts';
import { mergePhases } from '../app/runs/request-phases.ts';
import { encodeHistogram, latencyStats, mergeEncodedHistograms } from '../app/common/hdr.ts';
import { defaultOpenConnections, MAX_CONNECTIONS, targetRate } from '../app/runs/load-profile.ts';
import { addSecondCounts, emptyErrors, emptyNotSent, emptySecondCounts, emptyStatus } from '../app/runs/run-summary.ts';
import { ClientMetricsSampler } from './client-metrics.ts';
import { connectionCeiling, FD_RESERVE } from './fd-limit.ts';
import { hostNowMs as now } from './host-clock.ts';
import { MEASURE, WARMUP, type PhaseTag } from './interval-recorder.ts';
import { share, type FromThread, type IntervalMessage, type ThreadSetup, type ToThread } from './thread-messages.ts';

/** Threads get this long to hand over their interval before the line is published without them. */
const FLUSH_WAIT_MS = 400;
/**
 * A phase's last line waits this long for every thread (the drain line until the cap, if that is
 * later): nothing comes after it to carry a late thread's interval, so a drain line without it
 * leaves requests out of the books and the step is not completed.
 */
const LAST_FLUSH_WAIT_MS = 5000;
/** The drain lasts at most the request timeout and this, for answers on their way when it ran out. */
export const DRAIN_GRACE_MS = 500;
/** The soonest a step starts once its threads are up: time for the start message to reach them. */
const START_MARGIN_MS = 20;
/**
 * A start time further ahead than this on the host's clock is a wrong clock or offset, not a plan:
 * the step is refused rather than left waiting.
 */
export const MAX_START_LEAD_MS = 60_000;

/** A target on this very host: its server competes with the load threads for the same cores. */
export function isLoopback(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '::1' || /^127\./.test(hostname);
}

/** The open model's connection maximum: the profile's, else enough for the rate × timeout within the client's file limit. */
export function openConnectionMaximum(config: LoadAgentConfig, ceiling = connectionCeiling()): number {
  if (config.load.model !== 'open') throw new Error('not an open-model load');
  if (config.load.connections !== undefined) return config.load.connections;
  const wanted = defaultOpenConnections(targetRate(config.load)!, config.request.timeoutMs);
  return Math.min(wanted, ceiling ?? MAX_CONNECTIONS);
}

export function planThreads(config: LoadAgentConfig, cores = availableParallelism(), ceiling = connectionCeiling()): ThreadSetup[] {
  const { load, request, target } = config;
  const warmupS = Math.ceil(config.warmupS);
  // All cores by default; on loopback one is left to the server (measured: on 2 cores, 1 load
  // thread beside the server does ~20 % more requests/s than 2).
  const usable = isLoopback(target.hostname) ? Math.max(1, cores - 1) : cores;
  const connections = load.model === 'closed' ? load.connections : openConnectionMaximum(config, ceiling);
  const count = Math.max(1, Math.min(config.workers ?? usable, connections));
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
          ...(load.thinkTime ? { thinkTime: load.thinkTime } : {}),
        },
      };
    }
    return {
      index,
      target,
      request,
      warmupS,
      open: {
        rate: targetRate(load)! / count,
        phase: index / count,
        maxConnections: share(connections, count, index),
        durationS: load.durationS,
        requests: load.requests === undefined ? undefined : share(load.requests, count, index),
      },
    };
  });
}

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

type LinePhase = LoadSampleLine['phase'];

/**
 * Why the closed model's connections cannot all be open at once on this host, or null. Without this
 * check the connections past the file limit fail to open and the step measures the limit.
 */
export function describeConnectionShortfall(config: LoadAgentConfig, ceiling = connectionCeiling()): string | null {
  if (config.load.model !== 'closed' || ceiling === null || config.load.connections <= ceiling) return null;
  return (
    `${config.load.connections} connections need as many open files, but the agent may hold only ${ceiling} here ` +
    `(its open-files limit less ${FD_RESERVE} for itself): raise nofile on the client (a preset such as the wrk seed's) or use fewer connections`
  );
}

/** Why the config's start time cannot be kept (too far ahead on this host's clock), or null. */
export function describeStartTooFar(config: LoadAgentConfig, at = now()): string | null {
  if (config.startAtMs === undefined || config.startAtMs - at <= MAX_START_LEAD_MS) return null;
  return (
    `the step was asked to start ${Math.round((config.startAtMs - at) / 1000)} s from now on this host's clock, more than ${MAX_START_LEAD_MS / 1000} s: ` +
    `its clock or the measured clock offset is wrong; check the host's time (timedatectl) and start again`
  );
}

/**
 * When the step's first second begins (this host's clock, epoch ms), once its engine is ready at
 * `readyAt`: the config's start time, so several clients start together, or at once when it is
 * absent or already past (said in a log line, since that client then starts late).
 */
export function stepStartAt(config: LoadAgentConfig, readyAt: number, log: LoadIo['log']): number {
  const soonest = readyAt + START_MARGIN_MS;
  if (config.startAtMs === undefined) return soonest;
  if (config.startAtMs < soonest) {
    log('warn', `the start time had passed by ${(soonest - config.startAtMs).toFixed(1)} ms when the load was ready on this host: started at once`);
    return soonest;
  }
  return config.startAtMs;
}

export async function runLoad(config: LoadAgentConfig, io: LoadIo, workerEntry: string | URL): Promise<LoadOutcome> {
  const refusal = describeConnectionShortfall(config) ?? describeStartTooFar(config);
  if (refusal) return { reason: 'error', message: refusal };
  const setups = planThreads(config);
  const workers = setups.map((setup) => new Worker(workerEntry, { workerData: { benchlabLoadThread: setup } }));
  const received: IntervalMessage[] = [];
  const answered = new Map<Worker, number>();
  let ready = 0;
  let done = 0;
  let drained = 0;
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
      else if (message.type === 'drained') drained++;
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
  const startAt = stepStartAt(config, now(), (level, message) => io.log(level, message));
  const measureAt = startAt + warmupSeconds * 1000;
  const durationS = config.load.durationS;
  const windowEnd = durationS === undefined ? null : measureAt + durationS * 1000;
  const capAt = startAt + config.capS * 1000;
  post({ type: 'start', startAt });

  let round = 0;
  let second = 0;
  let lastBoundary = startAt;
  /** Each thread's latest in-flight level of the phase being published (a thread late for one line is counted by its previous level). */
  let inFlightTag: PhaseTag = WARMUP;
  const inFlight = new Map<number, number>();

  /**
   * Gathers every thread's books of `tag` and publishes one line for [lastBoundary, at); returns the
   * threads (by index) whose books of this round the line lacks.
   */
  const flush = async (tag: PhaseTag, phase: LinePhase, at: number, durationMs: number, options: { last?: boolean; dropIfEmpty?: boolean; waitMs?: number } = {}): Promise<number[]> => {
    const thisRound = ++round;
    post({ type: 'flush', round: thisRound, tag, at, last: options.last ?? false });
    const deadline = now() + (options.waitMs ?? (options.last ? LAST_FLUSH_WAIT_MS : FLUSH_WAIT_MS));
    const behind = () => workers.flatMap((worker, index) => ((answered.get(worker) ?? 0) < thisRound ? [index] : []));
    while (behind().length > 0 && now() < deadline && !fatal) await sleepUntil(deadline);
    if (tag !== inFlightTag) {
      inFlightTag = tag;
      inFlight.clear();
    }
    // A late interval of a phase already published belongs to no line (only the warm-up's can be).
    const intervals = received.splice(0).filter((interval) => interval.tag === tag);
    for (const interval of intervals) inFlight.set(interval.thread, interval.inFlight);
    const line = mergeIntervals(intervals, [...inFlight.values()].reduce((sum, level) => sum + level, 0), { second, at, phase, durationMs }, metrics);
    const empty = line.scheduled === 0 && line.requests === 0 && Object.values(line.errors).every((count) => count === 0) && Object.values(line.notSent).every((count) => count === 0);
    if (options.dropIfEmpty && empty) return behind();
    io.sample(line);
    second++;
    lastBoundary = at;
    return behind();
  };

  const phaseNow = (): [PhaseTag, LinePhase] => (second < warmupSeconds ? [WARMUP, 'warmup'] : [MEASURE, 'measure']);

  /**
   * Ends the step at once: every thread stops sending at `at`, and the cut-short interval reports
   * what is in flight; nothing is settled. The threads halt before the line is taken, so no request
   * reaches the server after the last line's end, and the line waits for every thread like any last
   * line does: the server never answers more than the books say was sent.
   */
  const cut = async (reason: EndReason, message?: string, phase?: LinePhase): Promise<LoadOutcome> => {
    const at = now();
    const [tag, current]: [PhaseTag, LinePhase] = phase === 'drain' ? [MEASURE, 'drain'] : phaseNow();
    post({ type: 'halt', at });
    // A sliver with nothing in it is not worth a line (a fixed-count step may fit in a few ms).
    await flush(tag, current, at, Math.max(0, at - lastBoundary), { last: true, dropIfEmpty: at - lastBoundary < 50 });
    post({ type: 'finish' });
    await terminate();
    return message === undefined ? { reason } : { reason, message };
  };

  // Warm-up and the measured window, one line per second.
  let end: number;
  for (;;) {
    const nextBoundary = startAt + (second + 1) * 1000;
    await sleepUntil(Math.min(nextBoundary, capAt, windowEnd ?? Number.POSITIVE_INFINITY));
    if (stopReason) return cut(stopReason);
    if (fatal) return cut('error', `a load thread failed: ${fatal}`);
    const t = now();
    if (windowEnd !== null && t >= windowEnd - 0.5) {
      end = windowEnd;
      break;
    }
    if (t >= nextBoundary - 0.5) {
      const [tag, phase] = phaseNow();
      await flush(tag, phase, nextBoundary, 1000, { last: tag === WARMUP && second === warmupSeconds - 1 });
    }
    if (done === workers.length && second >= warmupSeconds) {
      end = now();
      break;
    }
    if (t >= capAt) return cut('cap', `the step reached its ${config.capS} s cap`);
  }

  // The window's last line ends exactly at its end; nothing is scheduled after it.
  post({ type: 'drain', at: end });
  await flush(MEASURE, 'measure', end, Math.max(0, end - lastBoundary));

  const drainUntil = Math.min(end + config.request.timeoutMs + DRAIN_GRACE_MS, capAt);
  while (drained < workers.length && !stopReason && !fatal && now() < drainUntil) await sleepUntil(drainUntil);
  if (stopReason) return cut(stopReason, undefined, 'drain');
  if (fatal) return cut('error', `a load thread failed: ${fatal}`, 'drain');
  // What is still on the wire timed out; what still waits for a connection was never sent.
  post({ type: 'settle' });
  const drainEnd = now();
  const late = await flush(MEASURE, 'drain', drainEnd, Math.max(0, drainEnd - end), { last: true, waitMs: Math.max(LAST_FLUSH_WAIT_MS, capAt - drainEnd) });
  post({ type: 'finish' });
  await terminate();
  if (late.length > 0) return { reason: 'error', message: describeLateBooks(late, workers.length, now() - drainEnd) };
  return { reason: 'completed' };
}

/** Why a step whose drain line lacks some threads' last books is not completed (as the native engine says it). */
export function describeLateBooks(late: readonly number[], threads: number, waitedMs: number): string {
  const which = `load thread${late.length > 1 ? 's' : ''} ${late.map((index) => index + 1).join(', ')}`;
  return `the step's books are incomplete: the last books of ${which} of ${threads} did not arrive within ${(waitedMs / 1000).toFixed(1)} s of the drain's end (the client host is too busy for this load)`;
}

function mergeIntervals(
  intervals: IntervalMessage[],
  inFlight: number,
  where: { second: number; at: number; phase: LinePhase; durationMs: number },
  metrics: ClientMetricsSampler,
): LoadSampleLine {
  const status: Record<string, number> = emptyStatus();
  const errors: Record<string, number> = emptyErrors();
  const notSent: Record<string, number> = emptyNotSent();
  const counts = emptySecondCounts();
  let sent = 0;
  let portErrors = 0;
  let newConnections = 0;
  let connectUsMax: number | null = null;
  let lagMs = 0;
  const backlogByThread = new Map<number, number>();
  for (const interval of intervals) {
    addSecondCounts(counts, interval);
    sent += interval.sent;
    portErrors += interval.portErrors;
    newConnections += interval.newConnections;
    if (interval.connectUsMax !== null) connectUsMax = Math.max(connectUsMax ?? 0, interval.connectUsMax);
    lagMs = Math.max(lagMs, interval.lagMs);
    // A late answer from an earlier round may sit beside this one: the newest backlog counts.
    backlogByThread.set(interval.thread, interval.backlog);
    for (const [kind, count] of Object.entries(interval.status)) status[kind] = (status[kind] ?? 0) + count;
    for (const [kind, count] of Object.entries(interval.errors)) errors[kind] = (errors[kind] ?? 0) + count;
    for (const [reason, count] of Object.entries(interval.notSent)) notSent[reason] = (notSent[reason] ?? 0) + count;
  }
  const histogram = mergeEncodedHistograms(intervals.map((interval) => interval.histogram));
  const stats = latencyStats(histogram);
  const phases = mergePhases(intervals.map((interval) => interval.phases));
  const backlog = [...backlogByThread.values()].reduce((sum, value) => sum + value, 0);
  return {
    type: 'sample',
    second: where.second,
    at: Math.round(where.at),
    phase: where.phase,
    durationMs: Math.round(where.durationMs),
    ...counts,
    status,
    errors,
    notSent,
    inFlight,
    histogram: stats.count === 0 ? null : encodeHistogram(histogram),
    p50Us: stats.p50Us,
    p90Us: stats.p90Us,
    p99Us: stats.p99Us,
    maxUs: stats.maxUs,
    phases,
    client: metrics.sample({ lagMs, backlog, sent, portErrors, newConnections, connectUsMax }),
  };
}

