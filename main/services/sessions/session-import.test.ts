import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { renderReportHtml } from '../../../app/sessions/comparison-report.ts';
import { importText } from '../../../app/sessions/importers/index.ts';
import { createSeeder } from '../../../tests/support/session-seed.ts';
import { RunsRepository } from '../runs/runs-repository.ts';
import { SamplesRepository } from '../runs/samples-repository.ts';
import { ComparisonService } from './comparison-service.ts';
import { SessionImporter } from './session-import.ts';
import { SessionsRepository } from '../runs/sessions-repository.ts';
import { openTestDatabase } from '../../../tests/support/test-database.ts';

const fixtures = new URL('../../../tests/fixtures/imports/', import.meta.url);
const fixture = (name: string) => readFileSync(new URL(name, fixtures), 'utf8');
const fixturePath = (name: string) => fileURLToPath(new URL(name, fixtures));
const { db, dir } = openTestDatabase('import');
const sessions = new SessionsRepository(db);
const runs = new RunsRepository(db);
const samples = new SamplesRepository(db);
const importer = new SessionImporter({ db, sessions, uploadsDir: join(dir, 'tmp', 'imports') });
const compare = new ComparisonService({ db, sessions });
const seeder = createSeeder(db);
const count = (table: string) => (db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
const importedAt = new Date('2026-03-02T09:00:00.000Z');

test('a summary-only import stores one session marked imported, one run with the printed summary, no seconds', async () => {
  const session = await importer.importFile(fixturePath('wrk-latency.txt'), { format: 'wrk', fileName: '/tmp/results/wrk-latency.txt', tags: ['wrk'] }, importedAt);
  assert.equal(session.name, 'wrk-latency.txt (imported from wrk)');
  assert.equal(session.status, 'completed');
  assert.deepEqual(session.tags, ['wrk']);
  assert.equal(session.startedAt, null, 'wrk text has no clock time');
  const provenance = session.config.imported as Record<string, unknown>;
  assert.deepEqual([provenance.format, provenance.fileName, provenance.importedAt], ['wrk', 'wrk-latency.txt', importedAt.toISOString()]);
  const [run] = runs.forSession(session.id);
  assert.deepEqual([run!.templateId, run!.variant, run!.step.label, run!.sampleCount], ['imported', 'wrk', 'c=20, 3 s', 0]);
  assert.equal(run!.summary!.p99Us, 20270);
  const entry = compare.library().find((item) => item.id === session.id)!;
  assert.equal(entry.importedFrom, "wrk's text output with --latency");
});

test('a per-request import streamed from disk stores its seconds through the samples repository, summarized by the one summarizer', async () => {
  const path = join(dir, 'points.ndjson');
  writeFileSync(path, fixture('k6-points.ndjson'));
  const session = await importer.importFile(path, { format: 'k6', fileName: 'points.ndjson', name: 'k6 nightly' }, importedAt);
  assert.equal(session.name, 'k6 nightly');
  // Its timed-out request started 10 s before it ended, at 36.8 s: the run starts there.
  assert.equal(session.startedAt, '2024-05-09T12:34:36.800Z');
  const [run] = runs.withHistograms(session.id);
  const stored = samples.forRun(run!.id);
  assert.deepEqual(stored.slice(-3).map((second) => [second.second, second.requests, second.scheduled]), [[8, 2, 2], [9, 2, 2], [10, 1, 3]]);
  assert.ok(stored.every((second) => (second.histogram !== null) === second.requests > 0));
  assert.equal(run!.summary!.books!.balanced, true);
  assert.equal(run!.summary!.requests, 5);
  assert.ok(run!.histogram, 'the merged histogram is stored with the run');
});

test('a bad file stores nothing, and a failure while storing leaves nothing behind (one transaction)', async () => {
  const before = [count('session'), count('run'), count('sample')];
  await assert.rejects(importer.importFile(fixturePath('wrk-latency.txt'), { format: 'k6', fileName: 'k6.txt' }), { code: 'invalid_args', message: "k6.txt: this looks like wrk's text output, not k6's results: import it as wrk" });
  const path = join(dir, 'long.ndjson');
  writeFileSync(path, `${fixture('k6-points.ndjson')}${'x'.repeat(5 * 1024 * 1024)}`);
  await assert.rejects(importer.importFile(path, { format: 'k6', fileName: 'long.ndjson' }), { code: 'invalid_args', message: /^long\.ndjson:15: the line is longer than 4 MiB/ });
  const result = importText('jmeter', 'jmeter.jtl', fixture('jmeter.jtl'));
  if (result.kind !== 'per-request') return assert.fail('per-request expected');
  // A second the store refuses (its index is NOT NULL) after the session and run rows were written.
  (result.seconds[2] as { second: number | null }).second = null;
  assert.throws(() => importer.store(result, { fileName: 'jmeter.jtl' }));
  assert.deepEqual([count('session'), count('run'), count('sample')], before);
});

test('Compare and the PDF show an imported session beside a measured one: "—" with the reason where the file carried nothing', async () => {
  const measured = seeder.session({ name: 'Benchlab c=20', rps: 9000, latencyUs: 1500, seconds: 3, sweep: [20] });
  const imported = await importer.importFile(fixturePath('wrk-non2xx.txt'), { format: 'wrk', fileName: 'wrk-non2xx.txt' }, importedAt);
  const comparison = compare.open({ sessionIds: [measured.sessionId, imported.id] });
  assert.equal(comparison.steps.length, 1, 'the same load ("c=20, 3 s") shares one table');
  const [ours, theirs] = comparison.steps[0]!.rows;
  const column = (key: string) => comparison.columns.findIndex((c) => c.key === key);
  assert.ok(ours!.values[column('p99')]! > 0);
  assert.equal(ours!.missing, undefined);
  assert.equal(theirs!.values[column('p99')], null);
  assert.match(theirs!.missing!.p99!, /--latency/);
  assert.equal(theirs!.values[column('mean')], 3250, "wrk's printed mean");
  assert.equal(theirs!.values[column('rps')], 9792.89);
  assert.equal(theirs!.values[column('failed')], 3061);
  assert.equal(theirs!.values[column('notSent')], null);
  const band = comparison.columns.find((c) => c.key.startsWith('band:'))!;
  assert.equal(theirs!.values[comparison.columns.indexOf(band)], null);
  assert.match(theirs!.missing![band.key]!, /no histogram/);
  assert.equal(theirs!.best[column('p99')], false);
  assert.match(comparison.sessions[1]!.configuration, /^imported from wrk's text output \(wrk-non2xx\.txt\)$/);
  assert.match(comparison.sessions[1]!.imported!, /latency resolution: latencies as wrk printed them/);
  assert.equal(comparison.sessions[0]!.imported, null);
  assert.ok(comparison.warnings.some((warning) => warning.startsWith("“wrk-non2xx.txt (imported from wrk)” is imported from wrk's text output: its latencies have the tool's resolution")));
  assert.ok(!comparison.warnings.some((warning) => warning.includes('before Benchlab kept the books')));
  assert.equal(comparison.distributions.length, 1, 'only the measured session has a histogram to draw');
  const html = renderReportHtml(comparison, { generatedAt: importedAt });
  assert.match(html, /— wrk-non2xx\.txt \(imported from wrk\): p50, p75, p90, p99: wrk prints percentiles only with --latency/);
});
