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
