// Per-second samples of a run, written in batched transactions by the single writer of a run,
// and read back in second order for charts, replay and comparison. Also the one way a run's
// stored seconds become a summary's input (recovery after a crash, runs cut off before their
// summary was written).

import type { SummarySecond } from '../../../app/runs/run-summary.ts';
import type { Db } from '../store/database.ts';

export interface SampleInput {
  second: number;
  clientIndex?: number;
  /** `drain`: the answers still due after the measured window (not a second of the window). */
  phase?: 'measure' | 'drain';
  /** Requests scheduled in the interval; null for rows stored before the books were kept. */
  scheduled: number | null;
  notSent: Record<string, number>;
  /** Unresolved at the end of the interval. */
  inFlight: number | null;
  requests: number;
  bytes: number;
  errors: Record<string, number>;
  statusClasses: Record<string, number>;
  p50Us: number | null;
  p90Us: number | null;
  p99Us: number | null;
  maxUs: number | null;
  /** The encoded HDR interval histogram of this second. */
  histogram: Uint8Array | null;
  clientMetrics: Record<string, number> | null;
  serverMetrics: Record<string, number> | null;
}

export interface StoredSample extends SampleInput {
  runId: number;
  clientIndex: number;
  phase: 'measure' | 'drain';
}

interface SampleRow {
  run_id: number;
  second: number;
  client_index: number;
  phase: 'measure' | 'drain';
  scheduled: number | null;
  not_sent: string;
  in_flight: number | null;
  requests: number;
  bytes: number;
  errors: string;
  status_classes: string;
  p50_us: number | null;
  p90_us: number | null;
  p99_us: number | null;
  max_us: number | null;
  histogram: Buffer | null;
  client_metrics: string | null;
  server_metrics: string | null;
}

const json = (value: unknown) => (value === null ? null : JSON.stringify(value));

export class SamplesRepository {
  readonly #db: Db;
  readonly #insert;
  readonly #appendBatch;

  constructor(db: Db) {
    this.#db = db;
    this.#insert = db.prepare(
      `INSERT INTO sample (run_id, second, client_index, phase, scheduled, not_sent, in_flight, requests, bytes, errors, status_classes,
         p50_us, p90_us, p99_us, max_us, histogram, client_metrics, server_metrics)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.#appendBatch = db.transaction((runId: number, samples: readonly SampleInput[]) => {
      for (const sample of samples) {
        this.#insert.run(
          runId,
          sample.second,
          sample.clientIndex ?? 0,
          sample.phase ?? 'measure',
          sample.scheduled,
          JSON.stringify(sample.notSent),
          sample.inFlight,
          sample.requests,
          sample.bytes,
          JSON.stringify(sample.errors),
          JSON.stringify(sample.statusClasses),
          sample.p50Us,
          sample.p90Us,
          sample.p99Us,
          sample.maxUs,
          sample.histogram,
          json(sample.clientMetrics),
          json(sample.serverMetrics),
        );
      }
    });
  }

  /** Appends samples of one run in one transaction: all are stored, or none. */
  append(runId: number, samples: readonly SampleInput[]): void {
    this.#appendBatch(runId, samples);
  }

  forRun(runId: number): StoredSample[] {
    const rows = this.#db
      .prepare('SELECT * FROM sample WHERE run_id = ? ORDER BY second, client_index')
      .all(runId) as SampleRow[];
    return rows.map((row) => ({
      runId: row.run_id,
      second: row.second,
      clientIndex: row.client_index,
      phase: row.phase,
      scheduled: row.scheduled,
      notSent: JSON.parse(row.not_sent) as Record<string, number>,
      inFlight: row.in_flight,
      requests: row.requests,
      bytes: row.bytes,
      errors: JSON.parse(row.errors) as Record<string, number>,
      statusClasses: JSON.parse(row.status_classes) as Record<string, number>,
      p50Us: row.p50_us,
      p90Us: row.p90_us,
      p99Us: row.p99_us,
      maxUs: row.max_us,
      histogram: row.histogram ? new Uint8Array(row.histogram) : null,
      clientMetrics: row.client_metrics ? (JSON.parse(row.client_metrics) as Record<string, number>) : null,
      serverMetrics: row.server_metrics ? (JSON.parse(row.server_metrics) as Record<string, number>) : null,
    }));
  }

  /** A run's stored intervals as a summary adds them (histograms decoded on the way). */
  summarySeconds(runId: number): SummarySecond[] {
    return this.forRun(runId).map(summarySecondOf);
  }
}

/** A stored interval as the summary reads it. */
export function summarySecondOf(sample: StoredSample): SummarySecond {
  return {
    phase: sample.phase,
    scheduled: sample.scheduled,
    requests: sample.requests,
    bytes: sample.bytes,
    durationMs: sample.clientMetrics?.durationMs ?? 1000,
    errors: sample.errors,
    notSent: sample.notSent,
    inFlight: sample.inFlight,
    status: sample.statusClasses,
    histogram: sample.histogram ? Buffer.from(sample.histogram).toString('base64') : null,
  };
}
