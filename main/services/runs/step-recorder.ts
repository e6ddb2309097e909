// One step's measurements as they arrive: each agent line becomes a run second (app/runs/
// run-second.ts); a measured second (and the drain after the window) is written to SQLite at once
// (one short transaction, so a killed Benchlab loses at most the second in flight), then added into
// the step's tally (app/runs/summarize-run.ts, the one summary) and its books checked. Warm-up
// seconds are built the same way, to be charted, but neither stored nor counted.

import type { LoadSampleLine, ServerMetrics } from '../../../app/runs/agent-protocol.ts';
import type { Bottleneck } from '../../../app/runs/bottleneck.ts';
import { summarySecondOf, type RunSecond } from '../../../app/runs/run-second.ts';
import { intervalBalances, type RunSummary } from '../../../app/runs/run-summary.ts';
import { RunTally, type SummaryRules } from '../../../app/runs/summarize-run.ts';
import type { RunsRepository, RunStatus } from './runs-repository.ts';
import { auditBooks } from './books-audit.ts';
import type { SamplesRepository } from './samples-repository.ts';

export class StepRecorder {
  readonly runId: number;
  readonly #samples: SamplesRepository;
  readonly #runs: RunsRepository;
  readonly #tally: RunTally;
  #stored = 0;
  #inFlight = 0;

  constructor(options: { runId: number; samples: SamplesRepository; runs: RunsRepository; rules: SummaryRules }) {
    this.runId = options.runId;
    this.#samples = options.samples;
    this.#runs = options.runs;
    this.#tally = new RunTally(options.rules);
  }

  /** The line as the run second it is stored as; `server` is the server's latest reading (≤ 1 s old). */
  secondOf(line: LoadSampleLine, server: ServerMetrics | null): RunSecond {
    return {
      // Stored seconds count from 0 after the warm-up; a warm-up second keeps the agent's index.
      second: line.phase === 'warmup' ? line.second : this.#stored,
      clientIndex: 0,
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
      histogram: line.histogram,
      clientMetrics: numbersOnly({ ...line.client, at: line.at, durationMs: line.durationMs }),
      serverMetrics: server ? flattenServer(server) : null,
    };
  }

  /**
   * Stores and counts a measured second or the drain (a warm-up second is neither). Returns what is
   * wrong with its books, if anything (it is stored all the same).
   */
  record(second: RunSecond): string | null {
    if (second.phase === 'warmup') return null;
    this.#samples.append(this.runId, [{ ...second, phase: second.phase }]);
    this.#stored++;
    this.#tally.add(second);
    const balanced = intervalBalances(summarySecondOf(second), this.#inFlight);
    this.#inFlight = second.inFlight ?? 0;
    return balanced ? null : `the books of ${second.phase === 'drain' ? 'the drain' : `second ${second.second}`} do not balance (scheduled ${second.scheduled}, in flight ${second.inFlight})`;
  }

  summary(): RunSummary | null {
    return this.#tally.summary();
  }

  bottleneck(): Bottleneck | null {
    return this.#tally.bottleneck();
  }

  /** Writes the step's result (summary with its steadiness, merged histogram) and returns it. */
  finish(status: RunStatus): { summary: RunSummary | null; bottleneck: Bottleneck | null } {
    const result = this.#tally.result();
    this.#runs.finish(this.runId, status, { summary: result.summary, histogram: result.histogram });
    auditBooks(this.runId, status, result.summary);
    return { summary: result.summary, bottleneck: result.bottleneck };
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
