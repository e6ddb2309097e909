// One step's measurements as they arrive: each agent line becomes a run second (app/runs/
// run-second.ts) of the client that sent it (its clientIndex, its second count, its time corrected
// to Benchlab's clock); a measured second (and the drain after the window) is written to SQLite at
// once (one short transaction, so a killed Benchlab loses at most the second in flight), then added
// into the step's tally (app/runs/summarize-run.ts, the one summary, which adds the clients' seconds
// by second index) and its books checked per client. Warm-up seconds are built the same way, to be
// charted, but neither stored nor counted.

import type { LoadSampleLine, ServerMetrics } from '../../../app/runs/agent-protocol.ts';
import type { Bottleneck, BottleneckProfile } from '../../../app/runs/bottleneck.ts';
import { runSecondOf, summarySecondOf, type RunSecond } from '../../../app/runs/run-second.ts';
import { intervalBalances, type RunSummary } from '../../../app/runs/run-summary.ts';
import { RunTally, type SummaryRules } from '../../../app/runs/summarize-run.ts';
import type { ClientVerdict } from '../../../app/runs/runs.ts';
import type { RunsRepository, RunStatus } from './runs-repository.ts';
import { auditBooks } from './books-audit.ts';
import type { SamplesRepository } from './samples-repository.ts';

export class StepRecorder {
  readonly runId: number;
  readonly #samples: SamplesRepository;
  readonly #runs: RunsRepository;
  readonly #tally: RunTally;
  /** Per client: seconds stored (the drain included), measured seconds stored, requests in flight after its last second. */
  readonly #stored: number[];
  readonly #measured: number[];
  readonly #inFlight: number[];

  constructor(options: { runId: number; samples: SamplesRepository; runs: RunsRepository; rules: SummaryRules; clients?: number }) {
    this.runId = options.runId;
    this.#samples = options.samples;
    this.#runs = options.runs;
    this.#tally = new RunTally(options.rules);
    const clients = options.clients ?? 1;
    this.#stored = new Array<number>(clients).fill(0);
    this.#measured = new Array<number>(clients).fill(0);
    this.#inFlight = new Array<number>(clients).fill(0);
  }

  /**
   * The line as the run second it is stored as; `server` is the server's reading taken in that second
   * (app/runs/server-readings.ts), null when none was: a gap.
   * `client` says whose line it is and its clock's offset to Benchlab's (0 when not measured): the
   * second's time is stored on Benchlab's clock, so the seconds of several clients line up.
   */
  secondOf(line: LoadSampleLine, server: ServerMetrics | null, client: { index: number; offsetMs: number } = { index: 0, offsetMs: 0 }): RunSecond {
    // Stored seconds count from 0 after the warm-up; a warm-up second keeps the agent's index.
    const second = line.phase === 'warmup' ? line.second : this.#stored[client.index]!;
    return runSecondOf(line, server, { second, clientIndex: client.index, offsetMs: client.offsetMs });
  }

  /**
   * Stores and counts a measured second or the drain (a warm-up second is neither). Returns what is
   * wrong with its books, if anything (it is stored all the same).
   */
  record(second: RunSecond): string | null {
    if (second.phase === 'warmup') return null;
    this.#samples.append(this.runId, [{ ...second, phase: second.phase }]);
    const client = second.clientIndex;
    this.#stored[client]!++;
    if (second.phase === 'measure') this.#measured[client]!++;
    this.#tally.add(second);
    const balanced = intervalBalances(summarySecondOf(second), this.#inFlight[client]!);
    this.#inFlight[client] = second.inFlight ?? 0;
    if (balanced) return null;
    const whose = this.#stored.length > 1 ? ` of client ${client + 1}` : '';
    return `the books of ${second.phase === 'drain' ? 'the drain' : `second ${second.second}`}${whose} do not balance (scheduled ${second.scheduled}, in flight ${second.inFlight})`;
  }

  /** Measured seconds stored so far of one client (what a lost client's part is counted against). */
  measuredSeconds(clientIndex: number): number {
    return this.#measured[clientIndex] ?? 0;
  }

  summary(): RunSummary | null {
    return this.#tally.summary();
  }

  /** The verdict so far; `profile`: the step's captured CPU profile, once it ended. */
  bottleneck(profile: BottleneckProfile | null = null): Bottleneck | null {
    return this.#tally.bottleneck(profile);
  }

  /** Each client's own verdict ([] with one client). */
  clientVerdicts(): ClientVerdict[] {
    return this.#tally.clientVerdicts();
  }

  /** Writes the step's result (summary with its steadiness, merged histogram) and returns it. */
  finish(status: RunStatus, profile: BottleneckProfile | null = null): { summary: RunSummary | null; bottleneck: Bottleneck | null } {
    const result = this.#tally.result(profile);
    this.#runs.finish(this.runId, status, { summary: result.summary, histogram: result.histogram });
    auditBooks(this.runId, status, result.summary);
    return { summary: result.summary, bottleneck: result.bottleneck };
  }
}
