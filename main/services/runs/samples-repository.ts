// Per-second samples of a run, written in batched transactions by the single writer of a run,
// and read back in second order as the run's seconds (app/runs/run-second.ts): the one way a stored
// second is read, for summaries, verdicts, charts, replay and comparison. Histograms (the headline's
// and the request phases') are stored as bytes and travel encoded; a reader that does not need them
// (Compare, replay) leaves them out.

import type { SecondClientMetrics, SecondServerMetrics } from '../../../app/runs/agent-protocol.ts';
import type { RunSecond } from '../../../app/runs/run-second.ts';
import { SECOND_COUNTS, type SecondCount } from '../../../app/runs/second-kinds.ts';
import type { Db } from '../store/database.ts';
import { parseJsonColumn } from '../store/json-column.ts';

/** A second to store: a run's second (never a warm-up one: those are not kept), client 0 and measured unless said. */
export type SampleInput = Omit<RunSecond, 'clientIndex' | 'phase'> & {
  clientIndex?: number;
  phase?: 'measure' | 'drain';
};

/** A count of the second's own (SECOND_COUNTS) is stored in its own column, its name in snake_case. */
type CountColumn<Name extends string> = Name extends `${infer Head}${infer Tail}` ? `${Head extends Lowercase<Head> ? Head : `_${Lowercase<Head>}`}${CountColumn<Tail>}` : Name;
const countColumn = <Name extends SecondCount>(name: Name) => name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`) as CountColumn<Name>;
/** null: a row stored before the count was kept. */
type CountColumns = { [Name in SecondCount as CountColumn<Name>]: number | null };

interface SampleRow extends CountColumns {
  run_id: number;
  second: number;
  client_index: number;
  phase: 'measure' | 'drain';
  not_sent: string;
  in_flight: number | null;
  errors: string;
  status_classes: string;
  p50_us: number | null;
  p90_us: number | null;
  p99_us: number | null;
  max_us: number | null;
  histogram: Buffer | null;
  connect_histogram: Buffer | null;
  waiting_histogram: Buffer | null;
  processing_histogram: Buffer | null;
  with_connect: number | null;
  client_metrics: string | null;
  server_metrics: string | null;
}

const json = (value: unknown) => (value === null ? null : JSON.stringify(value));
const bytesOf = (encoded: string | null) => (encoded === null ? null : Buffer.from(encoded, 'base64'));

type StoredColumn = Exclude<keyof SampleRow, 'run_id'>;

/**
 * Each stored column with the value it takes from a second: the INSERT is built from this list by
 * name, so a new column is one line here (and its migration), never a position to count.
 */
const WRITTEN: { [Column in StoredColumn]: (sample: SampleInput) => SampleRow[Column] } = {
  second: (sample) => sample.second,
  client_index: (sample) => sample.clientIndex ?? 0,
  phase: (sample) => sample.phase ?? 'measure',
  ...(Object.fromEntries(SECOND_COUNTS.map((name) => [countColumn(name), (sample: SampleInput) => sample[name]])) as { [Column in keyof CountColumns]: (sample: SampleInput) => number | null }),
  not_sent: (sample) => JSON.stringify(sample.notSent),
  in_flight: (sample) => sample.inFlight,
  errors: (sample) => JSON.stringify(sample.errors),
  status_classes: (sample) => JSON.stringify(sample.statusClasses),
  p50_us: (sample) => sample.p50Us,
  p90_us: (sample) => sample.p90Us,
  p99_us: (sample) => sample.p99Us,
  max_us: (sample) => sample.maxUs,
  histogram: (sample) => bytesOf(sample.histogram),
  connect_histogram: (sample) => bytesOf(sample.phases?.connect ?? null),
  waiting_histogram: (sample) => bytesOf(sample.phases?.waiting ?? null),
  processing_histogram: (sample) => bytesOf(sample.phases?.processing ?? null),
  with_connect: (sample) => sample.phases?.withConnect ?? null,
  client_metrics: (sample) => json(sample.clientMetrics),
  server_metrics: (sample) => json(sample.serverMetrics),
};
const WRITTEN_COLUMNS = Object.keys(WRITTEN) as StoredColumn[];

function rowOf(runId: number, sample: SampleInput): Record<keyof SampleRow, unknown> {
  const row = { run_id: runId } as Record<keyof SampleRow, unknown>;
  for (const column of WRITTEN_COLUMNS) row[column] = WRITTEN[column](sample);
  return row;
}

/** Every column but the histogram (the read model of Compare and replay skips decoding those). */
const COLUMNS_BUT_HISTOGRAM = ['run_id', ...WRITTEN_COLUMNS.filter((column) => !column.endsWith('histogram'))].join(', ');
const NO_HISTOGRAMS = 'NULL AS histogram, NULL AS connect_histogram, NULL AS waiting_histogram, NULL AS processing_histogram';

const base64Of = (bytes: Buffer | null) => (bytes ? bytes.toString('base64') : null);

/** The row's counts of the second's own; a count the row predates reads 0 (`scheduled`: null, books were not kept then). */
function countsOf(row: SampleRow): Pick<RunSecond, SecondCount> {
  const counts = Object.fromEntries(SECOND_COUNTS.map((name) => [name, row[countColumn(name)] ?? (name === 'scheduled' ? null : 0)]));
  return counts as Pick<RunSecond, SecondCount>;
}

function toSecond(row: SampleRow): RunSecond {
  return {
    second: row.second,
    clientIndex: row.client_index,
    phase: row.phase,
    ...countsOf(row),
    notSent: parseJsonColumn<Record<string, number>>(row.not_sent, {}),
    inFlight: row.in_flight,
    errors: parseJsonColumn<Record<string, number>>(row.errors, {}),
    statusClasses: parseJsonColumn<Record<string, number>>(row.status_classes, {}),
    p50Us: row.p50_us,
    p90Us: row.p90_us,
    p99Us: row.p99_us,
    maxUs: row.max_us,
    histogram: base64Of(row.histogram),
    phases:
      row.with_connect === null
        ? null
        : { connect: base64Of(row.connect_histogram), waiting: base64Of(row.waiting_histogram), processing: base64Of(row.processing_histogram), withConnect: row.with_connect },
    clientMetrics: parseJsonColumn<SecondClientMetrics | null>(row.client_metrics, null),
    serverMetrics: parseJsonColumn<SecondServerMetrics | null>(row.server_metrics, null),
  };
}

export class SamplesRepository {
  readonly #insert;
  readonly #appendBatch;
  readonly #all;
  readonly #allButHistograms;
  readonly #measuredButHistograms;

  constructor(db: Db) {
    const columns = ['run_id', ...WRITTEN_COLUMNS];
    this.#insert = db.prepare(`INSERT INTO sample (${columns.join(', ')}) VALUES (${columns.map((column) => `@${column}`).join(', ')})`);
    this.#appendBatch = db.transaction((runId: number, samples: readonly SampleInput[]) => {
      for (const sample of samples) this.#insert.run(rowOf(runId, sample));
    });
    this.#all = db.prepare('SELECT * FROM sample WHERE run_id = ? ORDER BY second, client_index');
    this.#allButHistograms = db.prepare(`SELECT ${COLUMNS_BUT_HISTOGRAM}, ${NO_HISTOGRAMS} FROM sample WHERE run_id = ? ORDER BY second, client_index`);
    this.#measuredButHistograms = db.prepare(`SELECT ${COLUMNS_BUT_HISTOGRAM}, ${NO_HISTOGRAMS} FROM sample WHERE run_id = ? AND phase = 'measure' ORDER BY second, client_index`);
  }

  /** Appends samples of one run in one transaction: all are stored, or none. */
  append(runId: number, samples: readonly SampleInput[]): void {
    this.#appendBatch(runId, samples);
  }

  /** A run's stored seconds in order (the drain last), with their histograms. */
  forRun(runId: number): RunSecond[] {
    return (this.#all.all(runId) as SampleRow[]).map(toSecond);
  }

  /**
   * A run's stored seconds without their histograms (null): what charts, replay and the verdicts
   * read. `measured` keeps the seconds of the window only (no drain).
   */
  withoutHistograms(runId: number, options: { measured?: boolean } = {}): RunSecond[] {
    const statement = options.measured ? this.#measuredButHistograms : this.#allButHistograms;
    return (statement.all(runId) as SampleRow[]).map(toSecond);
  }
}
