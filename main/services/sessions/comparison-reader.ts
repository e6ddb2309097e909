// Reads what a comparison and a replay need from the store, and only that: runs with their
// summaries and merged histograms, per-second counters and p99 without the interval histograms
// (decoding 36,000 of those would blow the 300 ms budget), host names and each session's own
// snapshot of its hosts taken at its start — never a host's later facts: a session without a
// snapshot shows none. Each compared run's bottleneck verdict is judged from its stored seconds.

import { BOTTLENECK_CLIENT_FIELDS, BOTTLENECK_SERVER_FIELDS, judgeBottleneck, storedTargetRate, type BottleneckSecond } from '../../../app/runs/bottleneck.ts';
import type { ComparedRunInput, ComparedSessionInput } from '../../../app/sessions/comparison.ts';
import { decodeHistogram, type LatencyHistogram } from '../../../app/common/hdr.ts';
import type { StoredSecond } from '../../../app/sessions/replay.ts';
import { SummaryAccumulator, type RunSummary } from '../../../app/runs/run-summary.ts';
import type { SessionHostFacts } from '../../../app/hosts/host-facts.ts';
import type { Session } from '../../../app/sessions/sessions.ts';
import type { Db } from '../store/database.ts';
import { SnapshotsRepository } from './snapshots-repository.ts';
import { SamplesRepository } from '../runs/samples-repository.ts';

interface RunRow {
  id: number;
  ordinal: number;
  template_id: string;
  variant: string;
  step: string;
  status: string;
  started_at: string | null;
  ended_at: string | null;
  summary: string | null;
  histogram: Buffer | null;
}

export interface ReadRun extends ComparedRunInput {
  ordinal: number;
  endedAt: string | null;
  step: Record<string, unknown>;
}

function parse<T>(text: string | null, fallback: T): T {
  if (text === null) return fallback;
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
}

function histogramOf(bytes: Buffer | null): LatencyHistogram | null {
  if (!bytes) return null;
  try {
    return decodeHistogram(bytes.toString('base64'));
  } catch {
    return null;
  }
}

interface SecondRow {
  second: number;
  requests: number;
  duration_ms: number;
  p99_us: number | null;
  p50_us: number | null;
  pool_full: number | null;
  timeouts: number | null;
  /** JSON arrays of BOTTLENECK_CLIENT_FIELDS / BOTTLENECK_SERVER_FIELDS values. */
  client: string | null;
  server: string | null;
}

function pick(fields: readonly string[], json: string | null): Record<string, number> | null {
  const values = parse<Array<number | null> | null>(json, null);
  if (!values) return null;
  const record: Record<string, number> = {};
  fields.forEach((field, i) => {
    const value = values[i];
    if (typeof value === 'number') record[field] = value;
  });
  return record;
}

function bottleneckSecond(row: SecondRow): BottleneckSecond {
  return {
    requests: row.requests,
    p50Us: row.p50_us,
    notSent: { 'pool-full': row.pool_full ?? 0 },
    errors: { timeout: row.timeouts ?? 0 },
    clientMetrics: pick(BOTTLENECK_CLIENT_FIELDS, row.client),
    serverMetrics: pick(BOTTLENECK_SERVER_FIELDS, row.server),
  };
}

export class ComparisonReader {
  readonly #db: Db;
  readonly #runs;
  readonly #seconds;
  readonly #host;
  readonly #snapshots: SnapshotsRepository;
  readonly #samples: SamplesRepository;

  constructor(db: Db) {
    this.#db = db;
    this.#samples = new SamplesRepository(db);
    this.#runs = db.prepare('SELECT id, ordinal, template_id, variant, step, status, started_at, ended_at, summary, histogram FROM run WHERE session_id = ? ORDER BY ordinal');
    // Several clients of one second add up; the slowest client's p99 stands for the second. Only
    // the metrics the bottleneck verdict reads are picked out of the JSON, in the same pass.
    const paths = (fields: readonly string[]) => fields.map((field) => `'$.${field}'`).join(', ');
    this.#seconds = db.prepare(
      `SELECT second, sum(requests) AS requests, max(coalesce(json_extract(client_metrics, '$.durationMs'), 1000)) AS duration_ms, max(p99_us) AS p99_us,
         max(p50_us) AS p50_us, sum(json_extract(not_sent, '$."pool-full"')) AS pool_full, sum(json_extract(errors, '$.timeout')) AS timeouts,
         json_extract(client_metrics, ${paths(BOTTLENECK_CLIENT_FIELDS)}) AS client, json_extract(server_metrics, ${paths(BOTTLENECK_SERVER_FIELDS)}) AS server
       FROM sample WHERE run_id = ? AND phase = 'measure' GROUP BY second ORDER BY second`,
    );
    this.#host = db.prepare('SELECT name FROM host WHERE id = ?');
    this.#snapshots = new SnapshotsRepository(db);
  }

  hostName(id: number | null): string | null {
    if (id === null) return null;
    return (this.#host.get(id) as { name: string } | undefined)?.name ?? null;
  }

  /** The session's own snapshot of its hosts, or null when it recorded none. */
  hostFacts(sessionId: number): SessionHostFacts | null {
    return this.#snapshots.forSession(sessionId);
  }

  runs(session: Session, onlyRunIds?: ReadonlySet<number>): ReadRun[] {
    const rows = (this.#runs.all(session.id) as RunRow[]).filter((row) => !onlyRunIds || onlyRunIds.has(row.id));
    const bucketsMs = ((session.config.profile as { bucketsMs?: number[] } | undefined)?.bucketsMs ?? [800, 1200]).filter((v) => typeof v === 'number');
    return rows.map((row) => {
      const step = parse<Record<string, unknown>>(row.step, {});
      const seconds = this.#seconds.all(row.id) as SecondRow[];
      let summary = parse<RunSummary | null>(row.summary, null);
      let histogram = histogramOf(row.histogram);
      // A run cut off before its summary was written: add up its stored seconds now.
      if (!summary && seconds.length > 0) ({ summary, histogram } = this.#summarizeFromSamples(row.id, bucketsMs, (step.load as { model?: string } | undefined)?.model === 'open'));
      return {
        runId: row.id,
        ordinal: row.ordinal,
        stepLabel: typeof step.label === 'string' ? step.label : `step ${row.ordinal}`,
        templateId: row.template_id,
        variant: row.variant,
        status: row.status,
        summary,
        histogram,
        startedAt: row.started_at,
        endedAt: row.ended_at,
        step,
        seconds: seconds.map((s) => ({ second: s.second, requests: s.requests, durationMs: s.duration_ms, p99Us: s.p99_us })),
        // The same verdict as the Run page's, from the same stored seconds.
        bottleneck: judgeBottleneck(seconds.map(bottleneckSecond), storedTargetRate(step)),
      };
    });
  }

  #summarizeFromSamples(runId: number, bucketsMs: readonly number[], timeoutsInLatency: boolean): { summary: RunSummary; histogram: LatencyHistogram } {
    const accumulator = new SummaryAccumulator();
    for (const second of this.#samples.summarySeconds(runId)) accumulator.add(second);
    return { summary: accumulator.summary(bucketsMs, { timeoutsInLatency }), histogram: accumulator.histogram };
  }

  session(session: Session, onlyRunIds?: ReadonlySet<number>): ComparedSessionInput {
    const facts = this.hostFacts(session.id);
    return {
      id: session.id,
      name: session.name,
      status: session.status,
      createdAt: session.createdAt,
      startedAt: session.startedAt,
      notes: session.notes,
      tags: session.tags,
      config: session.config,
      clientHost: this.hostName(session.clientHostId),
      serverHost: this.hostName(session.serverHostId),
      systems: { client: facts?.client ?? null, server: facts?.server ?? null },
      noise: facts?.findings ?? [],
      runs: this.runs(session, onlyRunIds),
    };
  }

  /** Every stored second of a run with its metrics, for replay (no histograms). */
  storedSeconds(runId: number): StoredSecond[] {
    const rows = this.#db
      .prepare('SELECT second, sum(requests) AS requests, errors, p50_us, p90_us, p99_us, client_metrics, server_metrics FROM sample WHERE run_id = ? AND phase = \'measure\' GROUP BY second ORDER BY second')
      .all(runId) as Array<{ second: number; requests: number; errors: string; p50_us: number | null; p90_us: number | null; p99_us: number | null; client_metrics: string | null; server_metrics: string | null }>;
    return rows.map((row) => ({
      second: row.second,
      requests: row.requests,
      errors: parse(row.errors, {}),
      p50Us: row.p50_us,
      p90Us: row.p90_us,
      p99Us: row.p99_us,
      clientMetrics: parse(row.client_metrics, null),
      serverMetrics: parse(row.server_metrics, null),
    }));
  }
}
