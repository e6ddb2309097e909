// The one way a run is summarized, from its seconds as stored (run-second.ts): the live summary
// while it runs, the result written at its end, the summary of a run cut off before that (after a
// crash, or read by Compare and the PDF) and the bottleneck verdict are all this tally's. Live it
// is fed second by second; read back, `summarizeRun` feeds it the stored seconds.

import { DEFAULT_BUCKETS_MS } from './load-profile.ts';
import { judgeBottleneck, storedTargetRate, type Bottleneck, type BottleneckHosts, type BottleneckProfile } from './bottleneck.ts';
import type { LatencyHistogram } from '../common/hdr.ts';
import { mergeClientSeconds } from './merge-seconds.ts';
import { summarySecondOf, windowSecondOf, type RunSecond, type WindowSecond } from './run-second.ts';
import { SummaryAccumulator, type RunSummary } from './run-summary.ts';
import { judgeSteadiness } from './steady-state.ts';
import { ServerMemoryTally } from './server-memory.ts';
import { ServerRuntimeTally } from './server-runtime.ts';

/** What a run's summary depends on besides its seconds. */
export interface SummaryRules {
  /** The latency bands' boundaries (the session profile's). */
  bucketsMs: readonly number[];
  /** The open model records a timed-out request at its timeout in the latency histogram. */
  timeoutsInLatency: boolean;
  /** Requests per second the step asked for (open model), for the bottleneck verdict. */
  targetRate: number | null;
  /**
   * The clients (by index) that ran on the server's machine (app/hosts/host-facts.ts
   * `clientsOnServerMachine`): the verdicts then cannot name a side. Absent: none.
   */
  clientsOnServerMachine?: readonly number[];
}

/**
 * The rules of a run, from its session's profile, the step stored with the run and, when known, the
 * clients that shared the server's machine (from the session's host facts).
 */
export function summaryRulesOf(profile: unknown, step: Readonly<Record<string, unknown>>, clientsOnServerMachine: readonly number[] = []): SummaryRules {
  const bucketsMs = (profile as { bucketsMs?: unknown } | null | undefined)?.bucketsMs;
  return {
    bucketsMs: Array.isArray(bucketsMs) ? bucketsMs.filter((value): value is number => typeof value === 'number') : DEFAULT_BUCKETS_MS,
    timeoutsInLatency: (step.load as { model?: unknown } | undefined)?.model === 'open',
    targetRate: storedTargetRate(step),
    clientsOnServerMachine,
  };
}

/** What the verdict of the given clients (all: the merged run) knows about the hosts. */
function hostsOf(rules: Pick<SummaryRules, 'clientsOnServerMachine'>, clientIndex?: number): BottleneckHosts {
  const shared = rules.clientsOnServerMachine ?? [];
  return { sharedMachine: clientIndex === undefined ? shared.length > 0 : shared.includes(clientIndex) };
}

export interface RunResult {
  /** Null when no second was stored. */
  summary: RunSummary | null;
  /** The run's merged latency histogram; null when no second was stored. */
  histogram: LatencyHistogram | null;
  bottleneck: Bottleneck | null;
}

/**
 * How far behind the newest second a second's merged histogram is kept for another client's part:
 * clients' seconds arrive within a second or two of each other, and a client's seconds held up by a
 * stalled Benchlab arrive within the heartbeat timeout (15 s). A part later than this merges by the
 * highest percentiles (an upper bound, as for seconds read without histograms).
 */
const OPEN_SECONDS = 30;

/**
 * The measured window second by second, several clients of one second merged by the one merge
 * (merge-seconds.ts): counts added, percentiles read from the added histograms.
 */
class RunWindow {
  /** Each index's second, merged over the clients that gave it so far (phases left out: no verdict reads them). */
  readonly #seconds = new Map<number, RunSecond>();
  /** Requests scheduled per second index (seconds stored before the books count none). */
  readonly #scheduled = new Map<number, number>();
  /** Seconds up to this index are closed: their histograms are let go. */
  #closedUpTo = -1;

  add(second: RunSecond): void {
    // The verdicts are about the window; the drain is no second of it, warm-up is before it.
    if (second.phase !== 'measure') return;
    const part: RunSecond = { ...second, phases: null };
    const earlier = this.#seconds.get(second.second);
    if (!earlier) this.#seconds.set(second.second, part);
    else {
      // A second already closed kept no histogram: the new part's percentiles then stand beside its own.
      const parts = earlier.histogram === null && earlier.requests > 0 ? [earlier, { ...part, histogram: null }] : [earlier, part];
      this.#seconds.set(second.second, mergeClientSeconds(parts));
    }
    this.#scheduled.set(second.second, (this.#scheduled.get(second.second) ?? 0) + (second.scheduled ?? 0));
    for (; this.#closedUpTo < second.second - OPEN_SECONDS; this.#closedUpTo++) {
      const closing = this.#seconds.get(this.#closedUpTo + 1);
      if (closing) closing.histogram = null;
    }
  }

  seconds(): WindowSecond[] {
    return [...this.#seconds.values()].map(windowSecondOf);
  }

  /** Requests scheduled over the given second indexes, or all of them. */
  scheduled(indexes: Iterable<number> = this.#scheduled.keys()): number {
    let total = 0;
    for (const index of indexes) total += this.#scheduled.get(index) ?? 0;
    return total;
  }

  indexes(): IterableIterator<number> {
    return this.#seconds.keys();
  }
}

/** The window of all clients taken together, and each client's own window for its own verdict. */
class ClientWindows {
  readonly all = new RunWindow();
  readonly #own = new Map<number, RunWindow>();

  add(second: RunSecond): void {
    this.all.add(second);
    let own = this.#own.get(second.clientIndex);
    if (!own) this.#own.set(second.clientIndex, (own = new RunWindow()));
    own.add(second);
  }

  /**
   * Each client's verdict on its own seconds ([] for one client), so one saturated client among
   * several is named while the merged verdict may still read "client-bound" for the run. A client's
   * target rate is its share of the step's: what it scheduled of all scheduled in its seconds.
   */
  verdicts(rules: Pick<SummaryRules, 'targetRate' | 'clientsOnServerMachine'>): Array<{ clientIndex: number; bottleneck: Bottleneck | null }> {
    if (this.#own.size < 2) return [];
    return [...this.#own.entries()]
      .sort(([a], [b]) => a - b)
      .map(([clientIndex, own]) => ({ clientIndex, bottleneck: judgeBottleneck(own.seconds(), this.#targetRateOf(own, rules.targetRate), hostsOf(rules, clientIndex)) }));
  }

  #targetRateOf(own: RunWindow, targetRate: number | null): number | null {
    if (targetRate === null) return null;
    const all = this.all.scheduled(own.indexes());
    // Seconds stored before the books have no scheduled counts: an even share then.
    return all > 0 ? (targetRate * own.scheduled()) / all : targetRate / this.#own.size;
  }
}

/** A run's seconds added up as they come (exact histogram addition); warm-up seconds are not counted. */
export class RunTally {
  readonly #rules: SummaryRules;
  readonly #accumulator = new SummaryAccumulator();
  readonly #clients = new ClientWindows();
  readonly #memory = new ServerMemoryTally();
  readonly #runtime = new ServerRuntimeTally();
  #counted = 0;

  constructor(rules: SummaryRules) {
    this.#rules = rules;
  }

  /** Seconds counted so far (the drain included). */
  get counted(): number {
    return this.#counted;
  }

  add(second: RunSecond): void {
    if (second.phase === 'warmup') return;
    this.#accumulator.add(summarySecondOf(second), second.second, second.clientIndex);
    this.#counted++;
    this.#clients.add(second);
    this.#memory.add(second.second, second.serverMetrics);
    this.#runtime.add(second.second, second.serverMetrics);
  }

  /** The summary so far (steadiness is judged only over the whole run: see `result`). */
  summary(): RunSummary | null {
    if (this.#counted === 0) return null;
    return { ...this.#accumulator.summary(this.#rules.bucketsMs, { timeoutsInLatency: this.#rules.timeoutsInLatency }), serverMemory: this.#memory.result(), serverRuntime: this.#runtime.result() };
  }

  /** The merged verdict; `profile`: the run's captured CPU profile (none while it runs). */
  bottleneck(profile: BottleneckProfile | null = null): Bottleneck | null {
    return judgeBottleneck(this.#clients.all.seconds(), this.#rules.targetRate, hostsOf(this.#rules), profile);
  }

  /** Each client's own verdict ([] for one client): see ClientWindows. */
  clientVerdicts(): Array<{ clientIndex: number; bottleneck: Bottleneck | null }> {
    return this.#clients.verdicts(this.#rules);
  }

  /** The run's result once it has ended: the summary with its steadiness, the merged histogram, the verdict. */
  result(profile: BottleneckProfile | null = null): RunResult {
    const summary = this.summary();
    // Judged once over the whole window: a verdict mid-run would change with every second.
    if (summary) summary.steadiness = judgeSteadiness(this.#clients.all.seconds());
    return { summary, histogram: summary ? this.#accumulator.histogram : null, bottleneck: this.bottleneck(profile) };
  }
}

/** A run's result from its stored seconds, in second order. */
export function summarizeRun(seconds: Iterable<RunSecond>, rules: SummaryRules): RunResult {
  const tally = new RunTally(rules);
  for (const second of seconds) tally.add(second);
  return tally.result();
}

/**
 * A run's measured window from its stored seconds, several clients of one second taken together:
 * what its verdicts are judged on (`judgeBottleneck`) and Compare draws. Reads no histogram
 * (Compare reads the seconds without them).
 */
export function runWindow(seconds: Iterable<RunSecond>): WindowSecond[] {
  const window = new RunWindow();
  for (const second of seconds) window.add(second);
  return window.seconds();
}

/** Each client's own verdict from a run's stored seconds ([] for one client); reads no histogram. */
export function clientVerdictsOf(seconds: Iterable<RunSecond>, rules: Pick<SummaryRules, 'targetRate' | 'clientsOnServerMachine'>): Array<{ clientIndex: number; bottleneck: Bottleneck | null }> {
  const clients = new ClientWindows();
  for (const second of seconds) clients.add(second);
  return clients.verdicts(rules);
}

/** The merged run's verdict from its window (runWindow), by the same rules as live, with the run's CPU profile when one was captured. */
export function windowBottleneck(window: Parameters<typeof judgeBottleneck>[0], rules: Pick<SummaryRules, 'targetRate' | 'clientsOnServerMachine'>, profile: BottleneckProfile | null = null): Bottleneck | null {
  return judgeBottleneck(window, rules.targetRate, hostsOf(rules), profile);
}
