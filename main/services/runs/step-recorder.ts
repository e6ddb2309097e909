// One step's measurements as they arrive: each measured second is written to SQLite at once (one
// short transaction, so a killed Benchlab loses at most the second in flight), added into the
// step's accumulator (exact histogram addition) for the live and final summary, and judged for
// client saturation. Warm-up seconds are charted but neither stored nor counted.

import type { LoadSampleLine, ServerMetrics } from '../../../app/agent-protocol.ts';
import { encodeHistogram } from '../../../app/hdr.ts';
import { SummaryAccumulator, type RunSummary } from '../../../app/run-summary.ts';
import { judgeSaturation, type SaturationFinding, type SecondForSaturation } from '../../../app/saturation.ts';
import type { RunsRepository, RunStatus } from '../store/runs-repository.ts';
import type { SamplesRepository } from '../store/samples-repository.ts';

export function histogramBytes(encoded: string | null): Uint8Array | null {
  return encoded ? new Uint8Array(Buffer.from(encoded, 'base64')) : null;
}

export function histogramText(bytes: Uint8Array | null): string | null {
  return bytes ? Buffer.from(bytes).toString('base64') : null;
}

export class StepRecorder {
  readonly runId: number;
  readonly #samples: SamplesRepository;
  readonly #runs: RunsRepository;
  readonly #bucketsMs: readonly number[];
  readonly #targetRate: number | null;
  readonly #accumulator = new SummaryAccumulator();
  readonly #seconds: SecondForSaturation[] = [];
  #stored = 0;

  constructor(options: { runId: number; samples: SamplesRepository; runs: RunsRepository; bucketsMs: readonly number[]; targetRate: number | null }) {
    this.runId = options.runId;
    this.#samples = options.samples;
    this.#runs = options.runs;
    this.#bucketsMs = options.bucketsMs;
    this.#targetRate = options.targetRate;
  }

  get storedSeconds(): number {
    return this.#stored;
  }

  /** Stores and counts a measured second; `server` is the server's latest reading (≤ 1 s old). */
  record(line: LoadSampleLine, server: ServerMetrics | null): void {
    if (line.phase !== 'measure') return;
    this.#samples.append(this.runId, [
      {
        second: this.#stored,
        requests: line.requests,
        bytes: line.bytes,
        errors: line.errors,
        statusClasses: line.status,
        p50Us: line.p50Us,
        p90Us: line.p90Us,
        p99Us: line.p99Us,
        maxUs: line.maxUs,
        histogram: histogramBytes(line.histogram),
        clientMetrics: numbersOnly({ ...line.client, at: line.at, durationMs: line.durationMs }),
        serverMetrics: server ? flattenServer(server) : null,
      },
    ]);
    this.#stored++;
    this.#accumulator.add({ requests: line.requests, bytes: line.bytes, durationMs: line.durationMs, errors: line.errors, status: line.status, histogram: line.histogram });
    this.#seconds.push({ requests: line.requests, durationMs: line.durationMs, client: line.client });
  }

  summary(): RunSummary | null {
    return this.#stored === 0 ? null : this.#accumulator.summary(this.#bucketsMs);
  }

  saturation(): SaturationFinding[] {
    return judgeSaturation(this.#seconds, this.#targetRate);
  }

  finish(status: RunStatus): RunSummary | null {
    const summary = this.summary();
    const histogram = this.#stored === 0 ? null : histogramBytes(encodeHistogram(this.#accumulator.histogram));
    this.#runs.finish(this.runId, status, { summary, histogram });
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
