// Which side limited a run — the client (the numbers partly measure the load generator), the
// server, or neither (the target rate was met) — with the evidence. Judged from the stored
// per-second client and server metrics only, so the Run page (live), replay, Compare and the PDF
// all say the same thing: they all call judgeBottleneck on the same seconds.
//
// Client-bound: the agent's own CPU near the cores of its load threads (or those cores saturated
// while it uses them), event-loop lag, the open model's connection maximum reached (requests not
// sent for pool-full: a client setting), local ports exhausted. Server-bound: the achieved rate
// below the target while the client has headroom, with what the server showed — latency rising,
// its CPU saturated (a single core counts: one busy event loop is a saturated server), accept-queue
// overflows, requests unanswered within the timeout. A full connection pool while requests time
// out is the server's doing (Little's law: the default maximum, rate × timeout, fills only when
// answers take the timeout); without timeouts the maximum was simply too small for the rate. The
// client host's machine-wide CPU is deliberately not evidence: it counts every other process on
// that machine.
//
// Two rules keep a side from being named on evidence that cannot carry it. When client and server
// share one machine (the same boot id, from the session's host facts), each side's load is the
// other's noise: the verdict says the two cannot be told apart, with both sides' evidence, and never
// names one (nor "the client had headroom": its headroom was the server's CPU). And when the server
// shows saturation (accept-queue drops, timeouts, its CPU), the client's event-loop lag alone never
// makes a run client-bound: a loaded client lags, but the server's own readings say it was full.
//
// When the server's own runtime figures and its CPU profile say why (bottleneck-explain.ts: a thread
// pool at its cap, a blocked event loop, GC above a tenth of the time, one saturated core, threads
// preempted, retransmits, most samples in one frame), the verdict lists that evidence and a
// server-bound headline names the first cause. The pool, the loop and GC are the server's own word
// that it struggled, so they count as its saturation; the rest only explain.

import { z } from 'zod';
import type { SecondClientMetrics, SecondServerMetrics } from './agent-protocol.ts';
import { StepLoad, targetRate } from './load-profile.ts';
import { plural } from '../common/plural.ts';
import { median } from '../common/median.ts';
import { EXPLANATION_KINDS, explainServer, type BottleneckProfile } from './bottleneck-explain.ts';

export type { BottleneckProfile } from './bottleneck-explain.ts';

export const BOTTLENECK_LIMITS = {
  /** The agent's CPU as a share of its load threads' cores (each thread is one event loop). */
  agentCpu: 0.85,
  /** The cores the load threads ran on count as saturated from this busy share… */
  agentCoresBusy: 0.95,
  /** …when the agent itself uses at least this share of its threads' cores there. */
  agentCpuOnBusyCores: 0.5,
  /** p99 event-loop delay of a load thread: beyond this, send times and latencies are the client's. */
  eventLoopLagMs: 50,
  /** Share of the local port range in use (established + TIME_WAIT) that counts as exhausted. */
  portsShare: 0.95,
  /** Achieved share of the target rate (open model) that counts as the target met. */
  achievedShare: 0.95,
  /** The server host's CPU over all cores… */
  serverCpu: 0.9,
  /** …or its busiest core, while the server process uses at least `serverProcessCores` cores. */
  serverCoreBusy: 0.95,
  serverProcessCores: 0.8,
  /** Latency rises when the median p50 of the last third of the run is this many times the first third's… */
  latencyRiseFactor: 2,
  /** …and at least this much higher (a rise within noise of a fast server is no evidence). */
  latencyRiseUs: 5000,
  /** A per-second condition must hold in at least this many seconds (or all of them) to count. */
  minSeconds: 2,
} as const;

export const BOTTLENECK_VERDICTS = ['client-bound', 'server-bound', 'neither', 'shared-machine'] as const;
export type BottleneckVerdict = (typeof BOTTLENECK_VERDICTS)[number];

export const EVIDENCE_KINDS = [
  'agent-cpu',
  'event-loop-lag',
  'pool-full',
  'ports-exhausted',
  'client-headroom',
  'below-target',
  'target-met',
  'latency-rising',
  'server-cpu',
  'listen-overflows',
  'timeouts',
  'same-machine',
  ...EXPLANATION_KINDS,
] as const;
export type EvidenceKind = (typeof EVIDENCE_KINDS)[number];

export const BottleneckEvidence = z.object({
  /** `machine`: a reading about both sides at once (they share one machine). */
  side: z.enum(['client', 'server', 'rate', 'machine']),
  kind: z.enum(EVIDENCE_KINDS),
  message: z.string(),
  /** Seconds in which it held (the whole run for run-wide readings). */
  seconds: z.number().int(),
});
export type BottleneckEvidence = z.infer<typeof BottleneckEvidence>;

export const Bottleneck = z.object({
  verdict: z.enum(BOTTLENECK_VERDICTS),
  /** One sentence for the banner's headline. */
  headline: z.string(),
  evidence: z.array(BottleneckEvidence),
});
export type Bottleneck = z.infer<typeof Bottleneck>;

/**
 * A measured second of the window (app/runs/run-second.ts: several clients of one second taken
 * together), with the client's and the server's readings as stored.
 */
export interface BottleneckSecond {
  requests: number;
  p50Us: number | null;
  /** Requests scheduled but never sent, by reason; absent in rows stored before the books. */
  notSent?: Readonly<Record<string, number>> | undefined;
  /** Requests that ended without an answer, by kind (`timeout`: none within the request timeout). */
  errors?: Readonly<Record<string, number>> | undefined;
  clientMetrics: Readonly<SecondClientMetrics> | null;
  serverMetrics: Readonly<SecondServerMetrics> | null;
}

interface Tally {
  seconds: number;
  worst: number;
}

const percent = (share: number) => `${Math.round(share * 100)} %`;
const cores = (value: number) => value.toFixed(value >= 10 ? 0 : 1);

/** The agent's load threads (one event loop each); rows from before the count was sent: all cores. */
function loadThreadsOf(client: Readonly<SecondClientMetrics>): number {
  return Math.max(1, client.loadThreads || client.cores || 1);
}

/** Reads the run's seconds once: how often and how badly each per-second condition held. */
function readSeconds(seconds: readonly BottleneckSecond[]) {
  const agentCpu: Tally = { seconds: 0, worst: 0 };
  const lag: Tally = { seconds: 0, worst: 0 };
  const ports: Tally = { seconds: 0, worst: 0 };
  const serverCpu: Tally = { seconds: 0, worst: 0 };
  let busiestAgentCores = 0;
  let agentPeak = 0;
  let lagPeak = 0;
  let threads = 1;
  let portErrors = 0;
  let poolFull = 0;
  let poolFullSeconds = 0;
  let overflows = 0;
  let overflowSeconds = 0;
  let timeouts = 0;
  let timeoutSeconds = 0;
  let serverProcessPeak: number | null = null;
  let serverCorePeak = 0;
  for (const second of seconds) {
    const client = second.clientMetrics ?? {};
    threads = loadThreadsOf(client);
    const agentShare = (client.agentCpu ?? 0) / threads;
    const coresBusy = client.agentCoresBusy ?? 0;
    agentPeak = Math.max(agentPeak, client.agentCpu ?? 0);
    busiestAgentCores = Math.max(busiestAgentCores, coresBusy);
    if (agentShare >= BOTTLENECK_LIMITS.agentCpu || (coresBusy >= BOTTLENECK_LIMITS.agentCoresBusy && agentShare >= BOTTLENECK_LIMITS.agentCpuOnBusyCores)) {
      agentCpu.seconds++;
      agentCpu.worst = Math.max(agentCpu.worst, agentShare);
    }
    lagPeak = Math.max(lagPeak, client.eventLoopLagMs ?? 0);
    if ((client.eventLoopLagMs ?? 0) > BOTTLENECK_LIMITS.eventLoopLagMs) {
      lag.seconds++;
      lag.worst = Math.max(lag.worst, client.eventLoopLagMs ?? 0);
    }
    const inUse = (client.openSockets ?? 0) + (client.timeWait ?? 0);
    portErrors += client.portErrors ?? 0;
    if ((client.portErrors ?? 0) > 0 || (client.portRangeSize !== undefined && inUse >= BOTTLENECK_LIMITS.portsShare * client.portRangeSize)) {
      ports.seconds++;
      ports.worst = Math.max(ports.worst, inUse);
    }
    const notSentPoolFull = second.notSent?.['pool-full'] ?? 0;
    poolFull += notSentPoolFull;
    if (notSentPoolFull > 0) poolFullSeconds++;
    const timedOut = second.errors?.timeout ?? 0;
    timeouts += timedOut;
    if (timedOut > 0) timeoutSeconds++;

    const server = second.serverMetrics;
    if (!server) continue;
    const process = server.processCpu ?? null;
    if (process !== null) serverProcessPeak = Math.max(serverProcessPeak ?? 0, process);
    serverCorePeak = Math.max(serverCorePeak, server.busiestCoreCpu ?? 0, server.cpu ?? 0);
    const coreSaturated = (server.busiestCoreCpu ?? 0) >= BOTTLENECK_LIMITS.serverCoreBusy && (process === null || process >= BOTTLENECK_LIMITS.serverProcessCores);
    if ((server.cpu ?? 0) >= BOTTLENECK_LIMITS.serverCpu || coreSaturated) {
      serverCpu.seconds++;
      serverCpu.worst = Math.max(serverCpu.worst, server.busiestCoreCpu ?? server.cpu ?? 0);
    }
    const dropped = Math.max(server.listenOverflows ?? 0, server.listenDrops ?? 0);
    overflows += dropped;
    if (dropped > 0) overflowSeconds++;
  }
  return { agentCpu, lag, ports, serverCpu, busiestAgentCores, agentPeak, lagPeak, threads, portErrors, poolFull, poolFullSeconds, overflows, overflowSeconds, timeouts, timeoutSeconds, serverProcessPeak, serverCorePeak };
}

/** Median p50 of the first and last thirds of the run, when latency rose between them. */
function latencyRise(seconds: readonly BottleneckSecond[]): { fromUs: number; toUs: number } | null {
  const p50s = seconds.map((second) => second.p50Us).filter((value): value is number => value !== null);
  if (p50s.length < 3) return null;
  const third = Math.max(1, Math.floor(p50s.length / 3));
  const fromUs = median(p50s.slice(0, third));
  const toUs = median(p50s.slice(-third));
  return toUs >= BOTTLENECK_LIMITS.latencyRiseFactor * fromUs && toUs - fromUs >= BOTTLENECK_LIMITS.latencyRiseUs ? { fromUs, toUs } : null;
}

const ms = (us: number) => `${us >= 100_000 ? Math.round(us / 1000) : (us / 1000).toFixed(1)} ms`;

/** What the verdict knows about the hosts besides the seconds. */
export interface BottleneckHosts {
  /** The client and the server ran on one machine (the same boot id in the session's host facts). */
  sharedMachine: boolean;
}

/**
 * The verdict over a run's measured seconds; `targetRate` is the open model's requests/s (null for
 * the closed model, which has no target: there a verdict needs one side's evidence). `profile`: the
 * run's CPU profile of the server, once it was captured (none while the run goes on). Null when
 * there is nothing to say.
 */
export function judgeBottleneck(
  seconds: readonly BottleneckSecond[],
  targetRate: number | null,
  hosts: BottleneckHosts = { sharedMachine: false },
  profile: BottleneckProfile | null = null,
): Bottleneck | null {
  if (seconds.length === 0) return null;
  const read = readSeconds(seconds);
  const needed = Math.min(BOTTLENECK_LIMITS.minSeconds, seconds.length);
  const client: BottleneckEvidence[] = [];
  if (read.agentCpu.seconds >= needed) {
    const onBusyCores = read.busiestAgentCores >= BOTTLENECK_LIMITS.agentCoresBusy ? `; the cores it ran on were up to ${percent(read.busiestAgentCores)} busy` : '';
    client.push({
      side: 'client',
      kind: 'agent-cpu',
      seconds: read.agentCpu.seconds,
      message: `the agent's CPU reached ${cores(read.agentPeak)} cores for ${plural(read.threads, 'load thread')} (${percent(read.agentCpu.worst)}) in ${read.agentCpu.seconds} s${onBusyCores}`,
    });
  }
  if (read.lag.seconds >= needed) {
    client.push({
      side: 'client',
      kind: 'event-loop-lag',
      seconds: read.lag.seconds,
      message: `the load threads' event loop lagged over ${BOTTLENECK_LIMITS.eventLoopLagMs} ms (up to ${Math.round(read.lag.worst)} ms) in ${read.lag.seconds} s`,
    });
  }
  if (read.ports.seconds > 0) {
    client.push({
      side: 'client',
      kind: 'ports-exhausted',
      seconds: read.ports.seconds,
      message:
        read.portErrors > 0
          ? `no free local port for ${plural(read.portErrors, 'connection attempt')} (EADDRNOTAVAIL)`
          : `local ports nearly exhausted (${read.ports.worst} in use or in TIME_WAIT)`,
    });
  }
  const poolFull: BottleneckEvidence | null =
    read.poolFull > 0
      ? {
          side: 'client',
          kind: 'pool-full',
          seconds: read.poolFullSeconds,
          message: `the connection maximum was reached: ${plural(read.poolFull, 'request')} not sent in ${read.poolFullSeconds} s (a client setting: raise the maximum or leave it empty)`,
        }
      : null;

  const server: BottleneckEvidence[] = [];
  if (read.serverCpu.seconds >= needed) {
    const process = read.serverProcessPeak === null ? '' : `, the server process using up to ${cores(read.serverProcessPeak)} cores`;
    server.push({
      side: 'server',
      kind: 'server-cpu',
      seconds: read.serverCpu.seconds,
      message: `server CPU saturated in ${read.serverCpu.seconds} s (busiest core up to ${percent(read.serverCorePeak)}${process})`,
    });
  }
  if (read.overflows > 0) {
    server.push({
      side: 'server',
      kind: 'listen-overflows',
      seconds: read.overflowSeconds,
      message: `the server's accept queue overflowed: ${plural(read.overflows, 'connection')} dropped at the listener (TcpExt ListenOverflows/ListenDrops) in ${read.overflowSeconds} s`,
    });
  }
  if (read.timeouts > 0) {
    server.push({
      side: 'server',
      kind: 'timeouts',
      seconds: read.timeoutSeconds,
      message: `${plural(read.timeouts, 'request')} got no answer within the timeout in ${read.timeoutSeconds} s`,
    });
  }
  const rise = latencyRise(seconds);
  const queued = read.timeouts > 0 || read.overflows > 0 || rise !== null;
  const explained = explainServer(seconds, { cpuSaturated: read.serverCpu.seconds >= needed, queued, needed }, profile);
  const asEvidence = (explanation: (typeof explained)[number]): BottleneckEvidence => ({ side: 'server', kind: explanation.kind, seconds: explanation.seconds, message: explanation.message });
  server.push(...explained.filter((explanation) => explanation.decisive).map(asEvidence));
  const serverHard = server.length > 0;
  if (rise) {
    server.push({ side: 'server', kind: 'latency-rising', seconds: seconds.length, message: `latency kept rising: median p50 from ${ms(rise.fromUs)} to ${ms(rise.toUs)}` });
  }
  server.push(...explained.filter((explanation) => !explanation.decisive).map(asEvidence));
  // The headline names what the server's readings explain first: the decisive causes lead the list.
  const because = explained.length > 0 ? ` (${explained[0]!.cause})` : '';

  const clientBound = (headline: string, rest: BottleneckEvidence[]): Bottleneck => ({ verdict: 'client-bound', headline, evidence: rest });
  const headroom = (): BottleneckEvidence => ({
    side: 'client',
    kind: 'client-headroom',
    seconds: seconds.length,
    message: `the client had headroom: the agent's CPU at most ${cores(read.agentPeak)} cores for ${plural(read.threads, 'load thread')}, event-loop lag at most ${Math.round(read.lagPeak)} ms`,
  });
  // Lag is the only client evidence while the server shows saturation: the server's readings decide.
  const lagOnly = client.length > 0 && client.every((evidence) => evidence.kind === 'event-loop-lag');
  const serverBound = (rest: BottleneckEvidence[]): Bottleneck =>
    lagOnly
      ? { verdict: 'server-bound', headline: `The server is the bottleneck${because}: it was saturated, and the client’s event-loop lag came with that load`, evidence: [...rest, ...client] }
      : { verdict: 'server-bound', headline: `The server is the bottleneck${because}: the client had headroom`, evidence: [...rest, headroom()] };
  const shared = (rest: BottleneckEvidence[]): Bottleneck => ({
    verdict: 'shared-machine',
    headline: 'Client and server share one machine: which side limited the run cannot be told apart',
    evidence: [
      {
        side: 'machine',
        kind: 'same-machine',
        seconds: seconds.length,
        message: `the load generator and the server ran on the same machine (the same boot id), so each side's load is the other's noise${
          read.serverProcessPeak === null ? '' : `; the server process used up to ${cores(read.serverProcessPeak)} cores`
        }`,
      },
      ...rest,
    ],
  });

  const sideEvidence = [...client, ...(poolFull ? [poolFull] : []), ...server];
  if (targetRate !== null && targetRate > 0) {
    const requests = seconds.reduce((sum, second) => sum + second.requests, 0);
    const durationS = seconds.reduce((sum, second) => sum + (second.clientMetrics?.durationMs || 1000), 0) / 1000;
    const achieved = requests / durationS;
    const rate = `achieved ${Math.round(achieved)} of the ${Math.round(targetRate)} requests/s target (${percent(achieved / targetRate)})`;
    if (achieved >= BOTTLENECK_LIMITS.achievedShare * targetRate) {
      return { verdict: 'neither', headline: 'Neither side limited the run: the target rate was met', evidence: [{ side: 'rate', kind: 'target-met', seconds: seconds.length, message: rate }] };
    }
    const below: BottleneckEvidence = { side: 'rate', kind: 'below-target', seconds: seconds.length, message: rate };
    if (hosts.sharedMachine) return shared([below, ...sideEvidence]);
    if (client.length > 0 && !(lagOnly && serverHard)) {
      return clientBound('The client, not the server, is the bottleneck: these numbers partly measure the load generator', [below, ...client, ...(poolFull ? [poolFull] : []), ...server]);
    }
    // Requests held back by the connection maximum are the client's setting, unless the server
    // was saturated or left requests unanswered (then more connections would only queue at it).
    if (poolFull && !serverHard) return clientBound('The client’s connection maximum, not the server, limited the rate', [below, poolFull, ...server]);
    return serverBound([below, ...server, ...(poolFull ? [poolFull] : [])]);
  }
  if (hosts.sharedMachine) return sideEvidence.length > 0 ? shared(sideEvidence) : null;
  if (client.length > 0 && !(lagOnly && serverHard)) return clientBound('The client, not the server, is the bottleneck: these numbers partly measure the load generator', [...client, ...server]);
  if (serverHard) return serverBound(server.filter((evidence) => evidence.kind !== 'latency-rising'));
  return null;
}

/** The open model's target rate of a stored run, from its step record (`{ load, … }`); null for the closed model. */
export function storedTargetRate(step: Readonly<Record<string, unknown>>): number | null {
  const load = StepLoad.safeParse(step.load);
  return load.success ? targetRate(load.data) : null;
}

/** The verdict as one line of text (the PDF; the UI lists the evidence under the headline). */
export function bottleneckText(bottleneck: Bottleneck): string {
  return `${bottleneck.headline} — ${bottleneck.evidence.map((evidence) => evidence.message).join('; ')}`;
}
