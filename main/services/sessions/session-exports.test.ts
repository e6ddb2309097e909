// Session exports on a real SQLite file through the services and the contract's dispatcher: each
// format from a seeded session, the knobs a run was deployed with, and the refusals (a session that
// does not exist, a format Benchlab does not write).

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import * as hdr from 'hdr-histogram-js';
import { createHandlers } from '../../api/handlers.ts';
import { createDispatcher } from '../../api/dispatch.ts';
import { createServices } from '../services.ts';
import { RunsRepository } from '../runs/runs-repository.ts';
import { SamplesRepository } from '../runs/samples-repository.ts';
import { createLatencyHistogram, decodeHistogram, encodeHistogram, latencyStats, recordLatencyUs } from '../../../app/common/hdr.ts';
import { createSeeder } from '../../../tests/support/session-seed.ts';

const dir = mkdtempSync(join(tmpdir(), 'benchlab-exports-'));
const services = createServices({ dataDir: dir, transport: 'cli', version: 'test' });
after(async () => {
  await services.close();
  rmSync(dir, { recursive: true, force: true });
});
const seeded = createSeeder(services.db).session({ name: 'Undertow, servlet', templateId: 'undertow', variant: 'servlet', rps: 800, latencyUs: 1500, seconds: 5 });
// A second session whose run was deployed with knobs (the seeder deploys none).
const withKnobs = services.sessions.create({ name: 'Node workers', status: 'completed' });
new RunsRepository(services.db).create({ sessionId: withKnobs.id, ordinal: 1, templateId: 'node', variant: 'cluster', knobs: { workers: 4, mode: 'fast' }, step: { label: 'c=10' } });
const dispatch = createDispatcher(createHandlers(services), (error) => assert.fail(String(error)));

test('sessions.export gives each format of a stored session as a file', async () => {
  const outcome = await dispatch('sessions.export', { id: seeded.sessionId, format: 'json' });
  assert.ok(outcome.ok, JSON.stringify(outcome));
  const file = outcome.result as { fileName: string; mediaType: string; content: string };
  assert.equal(file.fileName, `benchlab-session-${seeded.sessionId}-undertow-servlet.json`);
  assert.equal(file.mediaType, 'application/json');
  const document = JSON.parse(file.content) as { session: { id: number; name: string }; runs: Array<{ template: string; seconds: unknown[]; summary: { requests: number } }> };
  assert.equal(document.session.name, 'Undertow, servlet');
  assert.deepEqual(
    document.runs.map((run) => [run.template, run.seconds.length]),
    [['undertow', 5]],
  );

  const csv = services.exports.export(seeded.sessionId, 'csv');
  assert.equal(csv.mediaType, 'text/csv');
  assert.equal(csv.content.trimEnd().split('\r\n').length, 1 + 5);

  const log = services.exports.export(seeded.sessionId, 'hdr-log');
  assert.equal(log.fileName.endsWith('.hlog'), true);
  const reader = new hdr.HistogramLogReader(log.content);
  let intervals = 0;
  while (reader.nextIntervalHistogram()) intervals++;
  assert.equal(intervals, 5);
});

test('the knobs a run was deployed with are in its export, and a session without seconds exports empty', () => {
  const document = JSON.parse(services.exports.export(withKnobs.id, 'json').content) as {
    session: { templates: unknown[]; hosts: unknown };
    runs: Array<{ knobs: unknown; summary: unknown; seconds: unknown[] }>;
  };
  assert.deepEqual(document.session.templates, [{ template: 'node', variant: 'cluster', knobs: { mode: 'fast', workers: 4 } }]);
  assert.deepEqual(document.session.hosts, { client: null, server: null });
  assert.deepEqual(document.runs.map((run) => [run.knobs, run.summary, run.seconds.length]), [[{ mode: 'fast', workers: 4 }, null, 0]]);
  assert.equal(services.exports.export(withKnobs.id, 'csv').content.split('\r\n').length, 2, 'the header only');
  assert.doesNotMatch(services.exports.export(withKnobs.id, 'hdr-log').content, /^\d/m, 'no interval lines');
});

test('refused: a session that does not exist, a format Benchlab does not write', async () => {
  assert.deepEqual(await dispatch('sessions.export', { id: 9999, format: 'csv' }), { ok: false, error: { code: 'not_found', message: 'session 9999 does not exist' } });
  const badFormat = await dispatch('sessions.export', { id: seeded.sessionId, format: 'xlsx' });
  assert.equal(badFormat.ok, false);
  assert.match(JSON.stringify(badFormat), /json, csv or hdr-log/);
  assert.throws(() => services.exports.export(seeded.sessionId, 'pdf' as 'csv'), /format: must be one of json, csv, hdr-log/);
});

test('compare.export: one file of each kind for the compared runs only — CSV per second, JSON with the headline, the runs\' merged histograms as a log', async () => {
  const seeder = createSeeder(services.db, { client: 'cmp-client', server: 'cmp-server' });
  const a = seeder.session({ name: 'Tomcat', templateId: 'tomcat', rps: 500, latencyUs: 2000, seconds: 3, sweep: [10, 100] });
  const b = seeder.session({ name: 'Vert.x', templateId: 'vertx', rps: 900, latencyUs: 800, seconds: 3, sweep: [10, 100] });
  // The second step of Tomcat left out.
  const selection = { sessionIds: [a.sessionId, b.sessionId], runIds: [a.runIds[0]!, ...b.runIds], title: 'Tomcat vs Vert.x' };

  const csvOutcome = await dispatch('compare.export', { ...selection, format: 'csv' });
  assert.ok(csvOutcome.ok, JSON.stringify(csvOutcome));
  const csv = csvOutcome.result as { fileName: string; content: string };
  assert.equal(csv.fileName, 'benchlab-comparison-tomcat-vs-vert-x.csv');
  const lines = csv.content.trimEnd().split('\r\n');
  assert.match(lines[0]!, /^configuration,label,session_id,session,run,step,template,/);
  assert.equal(lines.length, 1 + 3 * 3, 'three compared runs of three seconds');
  assert.deepEqual([...new Set(lines.slice(1).map((line) => line.split(',').slice(0, 2).join(',')))], ['A,A', 'B,B']);

  const json = JSON.parse(services.exports.exportComparison(services.compare.open(selection), 'json').content) as {
    format: string;
    configurations: Array<{ letter: string; name: string; server: string }>;
    headline: Array<{ step: string; rows: Array<{ configuration: string; requestsPerSecond: number }>; verdicts: string[] }>;
    sessions: Array<{ label: string; session: { name: string }; runs: unknown[] }>;
  };
  assert.equal(json.format, 'benchlab-comparison');
  assert.deepEqual(json.configurations.map((config) => [config.letter, config.name, config.server]), [['A', 'Tomcat', 'tomcat'], ['B', 'Vert.x', 'vertx']]);
  assert.deepEqual(json.headline.map((step) => step.rows.map((row) => row.configuration)), [['A', 'B'], ['B']]);
  assert.match(json.headline[0]!.verdicts[0]!, /^Requests\/s: B is 1\.\d\d× A — too few runs for a verdict/);
  assert.deepEqual(json.sessions.map((session) => [session.label, session.runs.length]), [['A', 1], ['B', 2]]);

  const log = services.exports.exportComparison(services.compare.open(selection), 'hdr-log');
  const reader = new hdr.HistogramLogReader(log.content);
  const intervals: Array<{ tag: string; count: number }> = [];
  for (let interval = reader.nextIntervalHistogram(); interval; interval = reader.nextIntervalHistogram()) intervals.push({ tag: interval.tag!, count: interval.totalCount });
  assert.deepEqual(intervals.map((interval) => interval.tag).sort(), ['A.step-1', 'B.step-1', 'B.step-2']);
  // Each interval is the run's whole merged histogram: 3 seconds of 200 recorded latencies.
  assert.deepEqual([...new Set(intervals.map((interval) => interval.count))], [600]);
});

test('a run of two clients: the CSV per second is merged from their histograms, the JSON keeps each client’s seconds', () => {
  const { sessionId, runIds } = createSeeder(services.db, { client: 'two-a', server: 'two-server' }).session({ name: 'Two clients', rps: 300, latencyUs: 1000, seconds: 3 });
  const samples = new SamplesRepository(services.db);
  const stored = samples.forRun(runIds[0]!);
  const slow = createLatencyHistogram();
  recordLatencyUs(slow, 90_000);
  const slowStats = latencyStats(slow);
  // One answer at 90 ms from the second client: its own p99, but under 1 % of the second's answers.
  samples.append(
    runIds[0]!,
    stored.map((entry) => ({ ...entry, phase: 'measure' as const, clientIndex: 1, requests: 1, scheduled: 1, statusClasses: { '2xx': 1 }, histogram: encodeHistogram(slow), p50Us: slowStats.p50Us, p90Us: slowStats.p90Us, p99Us: slowStats.p99Us, maxUs: slowStats.maxUs })),
  );
  const [header, ...rows] = services.exports.export(sessionId, 'csv').content.trimEnd().split('\r\n').map((line) => line.replace(/"[^"]*"/, 'step').split(','));
  const column = (name: string) => header!.indexOf(name);
  assert.equal(rows.length, 3, 'one row per second');
  rows.forEach((row, i) => {
    const merged = createLatencyHistogram();
    merged.add(decodeHistogram(stored[i]!.histogram!));
    merged.add(slow);
    assert.equal(row[column('client')], 'all');
    assert.equal(Number(row[column('requests')]), stored[i]!.requests + 1);
    assert.equal(Number(row[column('p99_us')]), latencyStats(merged).p99Us, 'read with the histograms although the CSV needs none for one client');
  });
  const document = JSON.parse(services.exports.export(sessionId, 'json').content) as { runs: Array<{ seconds: Array<{ client: number }> }> };
  assert.deepEqual(document.runs[0]!.seconds.map((second) => second.client), [0, 1, 0, 1, 0, 1]);
});
