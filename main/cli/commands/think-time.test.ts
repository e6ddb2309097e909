// The think time as the CLI shows it: `sessions show` names the session's load with its pause and
// each run's step says it; `compare` of a session with a think time and one without says their
// loads differ, and they are not taken for repeats of one configuration.

import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { seedStore } from '../../../tests/support/session-seed.ts';
import { storeCli } from '../../../tests/support/cli-process.ts';

const { dataDir, cli } = storeCli('benchlab-cli-think-');

const ids: Record<string, number> = {};
before(() =>
  seedStore(dataDir, (seeder) => {
    ids.think = seeder.session({ name: 'siege db', rps: 150, latencyUs: 20_000, seconds: 3, thinkTime: { kind: 'uniform', maxMs: 1000, roundToMs: 1000 }, histogramPool: 2 }).sessionId;
    ids.none = seeder.session({ name: 'no pause', rps: 5000, latencyUs: 2000, seconds: 3, startedAt: new Date('2026-03-02T10:00:00Z'), histogramPool: 2 }).sessionId;
  }),
);

test('sessions show names the load with its think time, and the run’s step says it', () => {
  const shown = cli('sessions', 'show', String(ids.think));
  assert.equal(shown.code, 0, shown.stderr);
  assert.match(shown.stdout, /^load +GET http:\/\/10\.200\.0\.2:8080\/hello · closed model, c=100, 3 s, think 0–1 s, rounded to 1 s$/m);
  assert.match(shown.stdout, /^1 +node +c=100, 3 s, think 0–1 s, rounded to 1 s +completed /m);
  assert.match(cli('sessions', 'show', String(ids.none)).stdout, /^load +GET .* c=100, 3 s$/m);
});

test('compare says the loads differ, and keeps them apart', () => {
  const compared = cli('compare', String(ids.think), String(ids.none));
  assert.equal(compared.code, 0, compared.stderr);
  assert.match(compared.stdout, /^loads differ:$/m);
  assert.match(compared.stdout, new RegExp(`^  ${ids.think} siege db: .*think 0–1 s, rounded to 1 s$`, 'm'));
  assert.match(compared.stdout, new RegExp(`^  ${ids.none} no pause: .*c=100, 3 s$`, 'm'));
  const json = JSON.parse(cli('compare', String(ids.think), String(ids.none), '--json').stdout) as { repeats: unknown[] };
  assert.equal(json.repeats.length, 2, 'two configurations, not repeats of one');
});
