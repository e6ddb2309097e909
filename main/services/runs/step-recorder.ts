// One step's measurements as they arrive: each measured second (and the drain after the window)
// is written to SQLite at once (one short transaction, so a killed Benchlab loses at most the
// second in flight), added into the step's accumulator (exact histogram addition) for the live and
// final summary, its books checked, and judged for its bottleneck. Warm-up seconds are charted
// but neither stored nor counted.

import type { LoadSampleLine, ServerMetrics } from '../../../app/runs/agent-protocol.ts';
import { encodeHistogram } from '../../../app/common/hdr.ts';
import { intervalBalances, SummaryAccumulator, type RunSummary } from '../../../app/runs/run-summary.ts';
import { judgeBottleneck, type Bottleneck, type BottleneckSecond } from '../../../app/runs/bottleneck.ts';
import { judgeSteadiness, type SecondForSteadiness } from '../../../app/runs/steady-state.ts';
import type { RunsRepository, RunStatus } from './runs-repository.ts';
import { auditBooks } from './books-audit.ts';
import type { SamplesRepository } from './samples-repository.ts';

export function histogramBytes(encoded: string | null): Uint8Array | null {
  return encoded ? new Uint8Array(Buffer.from(encoded, 'base64')) : null;
}

export class StepRecorder {
  readonly runId: number;
  readonly #samples: SamplesRepository;
  readonly #runs: RunsRepository;
  readonly #bucketsMs: readonly number[];
  readonly #targetRate: number | null;
  readonly #timeoutsInLatency: boolean;
  readonly #accumulator = new SummaryAccumulator();
  /** The measured seconds as stored: the verdict reads what replay and Compare will read. */
  readonly #seconds: BottleneckSecond[] = [];
  readonly #steadiness: SecondForSteadiness[] = [];
  #stored = 0;
  #inFlight = 0;

  constructor(options: {
    runId: number;
    samples: SamplesRepository;
    runs: RunsRepository;
    bucketsMs: readonly number[];
    targetRate: number | null;
    /** The open model records a timed-out request at its timeout in the latency histogram. */
    timeoutsInLatency: boolean;
  }) {
    this.runId = options.runId;
    this.#samples = options.samples;
    this.#runs = options.runs;
    this.#bucketsMs = options.bucketsMs;
    this.#targetRate = options.targetRate;
    this.#timeoutsInLatency = options.timeoutsInLatency;
  }

  get storedSeconds(): number {
    return this.#stored;
  }

  /**
   * Stores and counts a measured second or the drain; `server` is the server's latest reading (≤ 1 s
   * old). Returns what is wrong with the line's books, if anything (the line is stored all the same).
   */
  record(line: LoadSampleLine, server: ServerMetrics | null): string | null {
    if (line.phase === 'warmup') return null;
    const clientMetrics = numbersOnly({ ...line.client, at: line.at, durationMs: line.durationMs });
    const serverMetrics = server ? flattenServer(server) : null;
    this.#samples.append(this.runId, [
      {
        second: this.#stored,
        phase: line.phase,
        scheduled: line.scheduled,
        notSent: line.notSent,
        inFlight: line.inFlight,
        requests: line.requests,
        bytes: line.bytes,
        errors: line.errors,
        statusClasses: line.status,
        p50Us: line.p50Us,
        p90Us: line.p90Us,
        p99Us: line.p99Us,
        maxUs: line.maxUs,
        histogram: histogramBytes(line.histogram),
        clientMetrics,
        serverMetrics,
      },
    ]);
    this.#stored++;
    const second = {
      phase: line.phase,
      scheduled: line.scheduled,
      requests: line.requests,
      bytes: line.bytes,
      durationMs: line.durationMs,
      errors: line.errors,
      notSent: line.notSent,
      inFlight: line.inFlight,
      status: line.status,
      histogram: line.histogram,
    };
    this.#accumulator.add(second);
    const balanced = intervalBalances(second, this.#inFlight);
    this.#inFlight = line.inFlight;
    // The verdicts are about the window; the drain is no second of it.
    if (line.phase === 'measure') {
      this.#seconds.push({ requests: line.requests, p50Us: line.p50Us, notSent: line.notSent, errors: line.errors, clientMetrics, serverMetrics });
      this.#steadiness.push({ requests: line.requests, durationMs: line.durationMs, p50Us: line.p50Us });
    }
    return balanced ? null : `the books of ${line.phase === 'drain' ? 'the drain' : `second ${line.second}`} do not balance (scheduled ${line.scheduled}, in flight ${line.inFlight})`;
  }

  summary(): RunSummary | null {
    return this.#stored === 0 ? null : this.#accumulator.summary(this.#bucketsMs, { timeoutsInLatency: this.#timeoutsInLatency });
  }

  bottleneck(): Bottleneck | null {
    return judgeBottleneck(this.#seconds, this.#targetRate);
  }

  finish(status: RunStatus): RunSummary | null {
    const summary = this.summary();
    // Judged once over the whole window: a verdict mid-run would change with every second.
    if (summary) summary.steadiness = judgeSteadiness(this.#steadiness);
    const histogram = this.#stored === 0 ? null : histogramBytes(encodeHistogram(this.#accumulator.histogram));
    this.#runs.finish(this.runId, status, { summary, histogram });
    auditBooks(this.runId, status, summary);
    return summary;
  }
}

/** Server metrics as stored: numbers only, TCP states as `tcp.<STATE>`. */
export function flattenServer(server: ServerMetrics): Record<string, number> {
  const flat: Record<string, number> = {};
  for (const [key, value] of Object.entries(server)) {
    if (key === 'tcp') for (const [state, count] of Object.entries(server.tcp)) flat[`tcp.${state}`] = count;
    else if (typeof value === 'number') flat[key] = value;
  }
  return flat;
}

function numbersOnly(record: Record<string, unknown>): Record<string, number> {
  const numbers: Record<string, number> = {};
  for (const [key, value] of Object.entries(record)) if (typeof value === 'number') numbers[key] = value;
  return numbers;
}
