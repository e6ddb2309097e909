// `npm run bench`: prints Benchlab's speed and size figures. No pass/fail: goals are read, not asserted.

import { benchComparisonOpen } from '../bench/comparison-open.ts';
import { benchJvmTemplates } from '../bench/jvm-templates.ts';
import { benchStoreIngest } from '../bench/store-ingest.ts';
import { benchWebColdStart } from '../bench/web-cold-start.ts';

function print(title: string, figures: Record<string, number | string>): void {
  console.log(`\n${title}`);
  for (const [name, value] of Object.entries(figures)) console.log(`  ${name.padEnd(26)} ${value}`);
}

console.log(`Benchlab benchmarks — Node ${process.version}, ${process.platform}-${process.arch}`);

const coldStart = await benchWebColdStart();
print('Web mode cold start (spawn → first answered app.info)', {
  'median ms': coldStart.medianMs.toFixed(0),
  'min ms': coldStart.minMs.toFixed(0),
  'max ms': coldStart.maxMs.toFixed(0),
});

for (const [samples, batchSize] of [[36_000, 60], [3_600, 1]] as const) {
  const ingest = benchStoreIngest(samples, batchSize);
  print(`Store ingest (WAL, synchronous=FULL, ${batchSize === 1 ? 'one transaction per sample' : `batches of ${batchSize}`})`, {
    samples: ingest.samples,
    'samples per second': ingest.samplesPerSecond,
    'bytes per sample on disk': ingest.bytesPerSample,
    'of which HDR histogram': ingest.histogramBytesPerSample,
  });
}

const compare = benchComparisonOpen();
print(`Open a comparison of ${compare.sessions} sessions × ${compare.samplesPerSession} samples (goal < 300 ms)`, {
  'median ms': compare.medianMs.toFixed(0),
  'first (cold) ms': compare.firstMs.toFixed(0),
  'max ms': compare.maxMs.toFixed(0),
  'JSON to the UI KiB': (compare.jsonBytes / 1024).toFixed(0),
});

const jvm = await benchJvmTemplates();
for (const row of jvm.rows) {
  const lab = (value: number | null, unit: string) => (value === null ? `n/a (${jvm.labSkipped ?? 'lab'})` : `${value.toFixed(0)} ${unit}`);
  print(`JVM template ${row.id} (Maven build from a warm cache; deploy to the lab's server host)`, {
    'warm build s': (row.warmBuildMs / 1000).toFixed(1),
    'jar MiB': (row.jarBytes / 2 ** 20).toFixed(1),
    'deploy to ready': lab(row.firstDeployMs, 'ms (uploads the jar)'),
    'again, nothing changed': lab(row.againDeployMs, 'ms'),
    'server RSS after start': lab(row.rssKiB === null ? null : row.rssKiB / 1024, 'MiB'),
  });
}
