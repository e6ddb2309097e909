// Figures: store ingest rate (samples per second in batched transactions, synchronous=FULL, WAL)
// and bytes per sample on disk, with real encoded HDR interval histograms in each sample.

import * as hdr from 'hdr-histogram-js';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { openDatabase } from '../main/services/store/database.ts';
import { RunsRepository } from '../main/services/runs/runs-repository.ts';
import { SamplesRepository, type SampleInput } from '../main/services/runs/samples-repository.ts';
import { SessionsRepository } from '../main/services/runs/sessions-repository.ts';

/** One second of plausible load: ~20k requests with a log-normal-ish latency spread. */
function realisticSample(second: number, random: () => number): SampleInput {
  const histogram = hdr.build({ lowestDiscernibleValue: 1, highestTrackableValue: 60_000_000, numberOfSignificantValueDigits: 3, useWebAssembly: false });
  const requests = 20_000;
  for (let i = 0; i < requests; i++) histogram.recordValue(Math.round(400 * Math.exp(random() * 2.5)));
  const encoded = hdr.encodeIntoCompressedBase64(histogram);
  return {
    second,
    requests,
    bytes: requests * 43_000,
    scheduled: requests,
    notSent: {},
    inFlight: 0,
    errors: { timeout: 0, refused: 0, reset: 0, closed: 0, other: 0 },
    statusClasses: { '2xx': requests },
    p50Us: histogram.getValueAtPercentile(50),
    p90Us: histogram.getValueAtPercentile(90),
    p99Us: histogram.getValueAtPercentile(99),
    maxUs: histogram.maxValue,
    histogram: encoded,
    clientMetrics: { cpu: 0.42, agentCpu: 0.21, eventLoopLagMs: 3.1, openSockets: 100, timeWait: 2048 },
    serverMetrics: { cpuUser: 0.6, cpuSystem: 0.3, cpuIowait: 0, processRssBytes: 81_000_000, rxBytesPerS: 1.2e6, txBytesPerS: 8.6e8 },
  };
}

export function benchStoreIngest(totalSamples = 36_000, batchSize = 60) {
  let seed = 42;
  const random = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
  // Precompute a pool so the figure measures the store, not histogram encoding.
  const pool = Array.from({ length: 120 }, (_, i) => realisticSample(i, random));

  const dir = mkdtempSync(join(tmpdir(), 'benchlab-bench-store-'));
  const { db, file } = openDatabase(dir);
  try {
    const session = new SessionsRepository(db).create({ name: 'bench' });
    const runs = new RunsRepository(db);
    const samples = new SamplesRepository(db);
    const runCount = Math.ceil(totalSamples / 3600);
    const runIds = Array.from({ length: runCount }, (_, i) => runs.create({ sessionId: session.id, ordinal: i + 1, templateId: 'bench', variant: 'x' }));
    const sizeBefore = statSync(file).size;

    const started = performance.now();
    let written = 0;
    for (const runId of runIds) {
      for (let second = 0; second < 3600 && written < totalSamples; second += batchSize) {
        const batch = Array.from({ length: Math.min(batchSize, totalSamples - written) }, (_, i) => ({ ...pool[(second + i) % pool.length]!, second: second + i }));
        samples.append(runId, batch);
        written += batch.length;
      }
    }
    const elapsedMs = performance.now() - started;
    db.pragma('wal_checkpoint(TRUNCATE)');
    const bytesPerSample = (statSync(file).size - sizeBefore) / written;
    return {
      samples: written,
      batchSize,
      samplesPerSecond: Math.round(written / (elapsedMs / 1000)),
      bytesPerSample: Math.round(bytesPerSample),
      histogramBytesPerSample: Math.round(pool.reduce((sum, s) => sum + (s.histogram?.length ?? 0), 0) / pool.length),
    };
  } finally {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
