// Why the server limited a run, from its own readings: what the bottleneck verdict (bottleneck.ts)
// adds to "the server was saturated" when the server's per-second runtime figures and its CPU
// profile say more — a thread pool at its cap with requests queued, threads preempted for want of
// cores, a blocked event loop, GC above a tenth of the time, one core saturated while the others
// idled, TCP retransmits, most of the profile's samples in one frame. Each comes with its evidence
// in words, and a short cause the verdict's headline can name.
//
// Some are decisive: the server's own runtime said it struggled (its pool was full while requests
// queued, its loop was blocked, GC took its time), which names the server even in the closed model,
// where no target rate was missed. The others only explain: one busy core or a hot frame is how a
// server spends its time whether or not that limited the run, so they never decide a verdict alone.
// Rows stored before a figure was read simply lack it: the rule that needs it stays quiet.

import type { SecondServerMetrics } from './agent-protocol.ts';
import { coreCpuOf } from './core-busy.ts';
import { formatBytes } from '../common/byte-size.ts';
import { median } from '../common/median.ts';
import { plural } from '../common/plural.ts';

export const EXPLAIN_LIMITS = {
  /** GC pauses above this share of the server's time (over the seconds that read its GC: a JVM's log, a Node server's monitor). */
  gcShare: 0.1,
  /** A server's event loop counts as blocked in a second whose delay p99 is above this (ms; the client's own limit). */
  serverLoopDelayMs: 50,
  /** A thread pool: the server process has at least this many threads (a JVM alone starts some 20–40: GC, compiler, its event loops)… */
  poolThreads: 50,
  /** …and at least this many per core of its host (an event-loop server has about one per core, plus the runtime's). */
  poolThreadsPerCore: 4,
  /** Threads count as at their cap within this share of the peak (or 2 threads, whichever is more)… */
  poolCapTolerance: 0.05,
  /** …in at least this share of the seconds that read them… */
  poolCapSeconds: 0.5,
  /** …while the process used less than this share of its host's cores (median): its threads waited. */
  poolComputing: 0.8,
  /** Threads count as preempted in a second with at least this many involuntary switches per second… */
  preemptedPerS: 100,
  /** A core is saturated from this busy share (as the server CPU rule)… */
  coreBusy: 0.95,
  /** …and the other cores idled when their median busy share is at most this. */
  othersIdle: 0.3,
  /** The server process uses at least this many cores for the busy core to be its own. */
  processCores: 0.8,
  /** TCP retransmits of the server host that count as evidence over the run. */
  retransmits: 10,
  /** A profile names a frame only with at least this many samples of work… */
  profileSamples: 50,
  /** …and when the frame holds more than this share of them on its own (its self time). */
  profileFrameShare: 0.5,
} as const;

export const EXPLANATION_KINDS = ['pool-exhausted', 'server-loop-blocked', 'gc', 'one-core', 'threads-preempted', 'retransmits', 'profile-hotspot'] as const;
export type ExplanationKind = (typeof EXPLANATION_KINDS)[number];

export interface Explanation {
  kind: ExplanationKind;
  message: string;
  /** Seconds in which it held (the whole run for the profile). */
  seconds: number;
  /** The few words a headline names it by. */
  cause: string;
  /** The server's own runtime said it struggled: this alone names the server. */
  decisive: boolean;
}

/**
 * A run's CPU profile as the verdict reads it (app/profiles/profile-hotspot.ts reduces the folded
 * stacks to this): its samples of work and the frame with the most of them on its own.
 */
export interface BottleneckProfile {
  tool: string;
  /** Samples in which the server worked (V8's idle samples left out). */
  busySamples: number;
  /** The frame with the most self samples, by name over every place it is called from; null for none. */
  hottest: { name: string; self: number } | null;
}

/** What the verdict already knows about the server, which some rules need. */
export interface ServerState {
  /** Its CPU counted as saturated (the verdict's server-cpu rule). */
  cpuSaturated: boolean;
  /** Requests queued at it: timeouts, accept-queue drops or latency that kept rising. */
  queued: boolean;
  /** The seconds a per-second condition must hold in. */
  needed: number;
}

type Reading = Readonly<SecondServerMetrics>;

const percent = (share: number) => `${share >= 0.1 ? Math.round(share * 100) : (Math.round(share * 1000) / 10).toString()} %`;
const ms = (value: number) => `${value >= 10 ? Math.round(value).toLocaleString('en-US') : (Math.round(value * 10) / 10).toString()} ms`;
const count = (value: number) => Math.round(value).toLocaleString('en-US');
const cores = (value: number) => value.toFixed(value >= 10 ? 0 : 1);

/** A figure of a reading when it is a finite number. */
function figure(reading: Reading, key: keyof SecondServerMetrics): number | null {
  const value = reading[key];
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

function figures(readings: readonly Reading[], key: keyof SecondServerMetrics): number[] {
  return readings.map((reading) => figure(reading, key)).filter((value): value is number => value !== null);
}

function gc(readings: readonly Reading[], state: ServerState): Explanation | null {
  const read = readings.filter((reading) => figure(reading, 'gcPauseMs') !== null);
  if (read.length < state.needed) return null;
  const pauseMs = figures(read, 'gcPauseMs');
  const share = pauseMs.reduce((sum, value) => sum + value, 0) / (read.length * 1000);
  if (share < EXPLAIN_LIMITS.gcShare) return null;
  const pauses = figures(read, 'gcPauses').reduce((sum, value) => sum + value, 0);
  const longest = Math.max(0, ...figures(read, 'gcLongestPauseMs'));
  const heap = figures(read, 'heapAfterGcBytes');
  // The heap as the runtime line and Compare's cells print it (server-runtime.ts gcWords).
  const heapWords = heap.length > 0 ? `; heap after GC up to ${formatBytes(Math.max(...heap))}` : '';
  return {
    kind: 'gc',
    seconds: read.length,
    message: `GC paused the server ${percent(share)} of the time: ${plural(Math.round(pauses), 'pause')} in ${read.length} s, the longest ${ms(longest)}${heapWords}`,
    cause: `GC took ${percent(share)} of its time`,
    decisive: true,
  };
}

function loopBlocked(readings: readonly Reading[], state: ServerState): Explanation | null {
  const p99s = figures(readings, 'eventLoopDelayP99Ms');
  const blocked = p99s.filter((p99) => p99 > EXPLAIN_LIMITS.serverLoopDelayMs);
  if (blocked.length < state.needed || blocked.length === 0) return null;
  const worst = figures(readings, 'eventLoopDelayMaxMs');
  const worstWords = worst.length > 0 ? `, a timer up to ${ms(Math.max(...worst))} late` : '';
  return {
    kind: 'server-loop-blocked',
    seconds: blocked.length,
    message: `the server's event loop was blocked: its delay p99 over ${EXPLAIN_LIMITS.serverLoopDelayMs} ms in ${blocked.length} s (up to ${ms(Math.max(...blocked))}${worstWords})`,
    cause: 'its event loop was blocked',
    decisive: true,
  };
}

/**
 * A thread pool at its cap: the server process's many threads held at their peak while requests
 * queued, and the process not using its host's cores — the threads waited (for a sleep, a lock, a
 * database) instead of taking the queued requests, and no more were started. The process's own CPU
 * decides, where it was read: a host kept busy by others does not make waiting threads compute.
 */
function poolExhausted(readings: readonly Reading[], state: ServerState): Explanation | null {
  if (!state.queued) return null;
  const threads = figures(readings, 'processThreads');
  if (threads.length < state.needed || threads.length === 0) return null;
  const peak = Math.max(...threads);
  const hostCores = Math.max(1, ...figures(readings, 'cores'));
  if (peak < Math.max(EXPLAIN_LIMITS.poolThreads, EXPLAIN_LIMITS.poolThreadsPerCore * hostCores)) return null;
  const cpu = figures(readings, 'processCpu');
  const computing = cpu.length > 0 ? median(cpu) >= EXPLAIN_LIMITS.poolComputing * hostCores : state.cpuSaturated;
  if (computing) return null;
  const tolerance = Math.max(2, Math.ceil(EXPLAIN_LIMITS.poolCapTolerance * peak));
  const atCap = threads.filter((value) => value >= peak - tolerance).length;
  if (atCap < Math.max(state.needed, Math.ceil(EXPLAIN_LIMITS.poolCapSeconds * threads.length))) return null;
  const waited = figures(readings, 'processVoluntarySwitchesPerS');
  const preempted = figures(readings, 'processInvoluntarySwitchesPerS');
  const cpuWords = cpu.length > 0 ? `: the process used at most ${cores(Math.max(...cpu))} of ${plural(hostCores, 'core')}` : '';
  const switchWords = waited.length > 0 && preempted.length > 0 ? `, its threads waiting ${count(median(waited))} times/s against ${count(median(preempted))} preemptions/s (medians)` : '';
  return {
    kind: 'pool-exhausted',
    seconds: atCap,
    message: `a thread pool at its cap: the server process's threads held at ${count(peak)} in ${atCap} s while requests queued, waiting rather than running${cpuWords}${switchWords}`,
    cause: `its ${count(peak)} threads were all taken while requests queued`,
    decisive: true,
  };
}

/** More runnable threads than cores: the scheduler took the server's threads off their cores more often than they waited. */
function threadsPreempted(readings: readonly Reading[], state: ServerState): Explanation | null {
  let seconds = 0;
  let worst = 0;
  let runQueue = 0;
  let hostCores = 1;
  for (const reading of readings) {
    const involuntary = figure(reading, 'processInvoluntarySwitchesPerS');
    const voluntary = figure(reading, 'processVoluntarySwitchesPerS');
    const queue = figure(reading, 'runQueue');
    const readingCores = figure(reading, 'cores') ?? 1;
    if (involuntary === null || voluntary === null || queue === null) continue;
    if (involuntary >= EXPLAIN_LIMITS.preemptedPerS && involuntary >= voluntary && queue > readingCores) {
      seconds++;
      worst = Math.max(worst, involuntary);
      runQueue = Math.max(runQueue, queue);
      hostCores = readingCores;
    }
  }
  if (seconds < state.needed || seconds === 0) return null;
  return {
    kind: 'threads-preempted',
    seconds,
    message: `more runnable threads than cores: the server's threads were preempted more often than they waited in ${seconds} s (up to ${count(worst)} involuntary switches/s, run queue up to ${count(runQueue)} on ${plural(hostCores, 'core')})`,
    cause: 'its threads queued for cores',
    decisive: false,
  };
}

/** One core saturated by the server while the host's other cores idled: one thread set the limit. */
function oneCore(readings: readonly Reading[], state: ServerState): Explanation | null {
  let seconds = 0;
  let hostCores = 0;
  const others: number[] = [];
  for (const reading of readings) {
    const shares = coreCpuOf(reading);
    if (shares.length < 2) continue;
    const busiest = Math.max(...shares);
    const rest = [...shares];
    rest.splice(shares.indexOf(busiest), 1);
    const process = figure(reading, 'processCpu');
    const restMedian = median(rest);
    if (busiest >= EXPLAIN_LIMITS.coreBusy && restMedian <= EXPLAIN_LIMITS.othersIdle && (process === null || process >= EXPLAIN_LIMITS.processCores)) {
      seconds++;
      hostCores = shares.length;
      others.push(restMedian);
    }
  }
  if (seconds < state.needed || seconds === 0) return null;
  return {
    kind: 'one-core',
    seconds,
    message: `one core of ${hostCores} did the work: saturated in ${seconds} s while the other ${hostCores - 1 === 1 ? 'core stayed' : `${hostCores - 1} stayed`} at a median ${percent(median(others))} busy — one thread set the limit, more cores would not have helped`,
    cause: 'one core saturated while the others idled',
    decisive: false,
  };
}

function retransmits(readings: readonly Reading[], state: ServerState): Explanation | null {
  const sent = figures(readings, 'tcpRetransmits');
  const total = sent.reduce((sum, value) => sum + value, 0);
  const seconds = sent.filter((value) => value > 0).length;
  if (total < EXPLAIN_LIMITS.retransmits || seconds < state.needed) return null;
  return {
    kind: 'retransmits',
    seconds,
    message: `the server host sent ${plural(Math.round(total), 'TCP segment')} again (retransmits) in ${seconds} s: segments were lost on the way or dropped at a full queue`,
    cause: 'TCP segments were retransmitted',
    decisive: false,
  };
}

const SHOWN_FRAME = 80;

function hotspot(profile: BottleneckProfile | null | undefined, runSeconds: number): Explanation | null {
  if (!profile?.hottest || profile.busySamples < EXPLAIN_LIMITS.profileSamples) return null;
  const share = profile.hottest.self / profile.busySamples;
  if (share <= EXPLAIN_LIMITS.profileFrameShare) return null;
  const name = profile.hottest.name.length > SHOWN_FRAME ? `${profile.hottest.name.slice(0, SHOWN_FRAME - 1)}…` : profile.hottest.name;
  return {
    kind: 'profile-hotspot',
    seconds: runSeconds,
    message: `the CPU profile (${profile.tool}) found most of the server's samples in one frame: ${name}, ${percent(share)} of ${count(profile.busySamples)} samples in its own code`,
    cause: `most of its CPU time went to ${name}`,
    decisive: false,
  };
}

/**
 * What the server's readings and profile explain, the decisive first (pool, loop, GC), then the
 * rest; [] when nothing stands out or nothing was read.
 */
export function explainServer(seconds: ReadonlyArray<{ serverMetrics: Reading | null }>, state: ServerState, profile?: BottleneckProfile | null): Explanation[] {
  const readings = seconds.map((second) => second.serverMetrics).filter((reading): reading is Reading => reading !== null);
  return [poolExhausted(readings, state), loopBlocked(readings, state), gc(readings, state), oneCore(readings, state), threadsPreempted(readings, state), retransmits(readings, state), hotspot(profile, seconds.length)].filter(
    (explanation): explanation is Explanation => explanation !== null,
  );
}
