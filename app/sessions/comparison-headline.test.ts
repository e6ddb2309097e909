// The first page's answer: configurations under letters, headline figures as medians of each
// configuration's runs, who is ahead and by how much only as far as the runs allow, and the warnings.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createLatencyHistogram, recordLatencyUs } from '../common/hdr.ts';
import { SummaryAccumulator } from '../runs/run-summary.ts';
import { buildComparison, recordedEngine, type ComparedRunInput, type ComparedSessionInput } from './comparison.ts';
import { buildHeadline, letterOf, sessionLabel } from './comparison-headline.ts';

const bottleneckClient = { verdict: 'client-bound' as const, headline: 'client-bound', evidence: [] };

function fixtureRun(runId: number, connections: number, rps: number, latencyUs: number, extra: Partial<ComparedRunInput> = {}): ComparedRunInput {
  const accumulator = new SummaryAccumulator();
  const interval = createLatencyHistogram();
  for (let i = 0; i < 100; i++) recordLatencyUs(interval, latencyUs + i);
  accumulator.add({ scheduled: rps, inFlight: 0, requests: rps, bytes: rps, durationMs: 1000, errors: { timeout: 2 }, status: { '2xx': rps - 2 }, histogram: interval });
  return {
    runId,
    stepLabel: `c=${connections}, 10 s`,
    templateId: 'tomcat',
    variant: 'nio',
    status: 'completed',
    summary: accumulator.summary([800, 1200]),
    histogram: accumulator.histogram,
    startedAt: null,
    seconds: [{ second: 0, requests: rps, durationMs: 1000, p99Us: latencyUs }],
    knobs: { threads: 200, gzip: false },
    load: { model: 'closed', connections, durationS: 10, pipelining: 1 },
    ...extra,
  };
}

function fixtureSession(id: number, name: string, runs: ComparedRunInput[], config: Record<string, unknown> = {}): ComparedSessionInput {
  return {
    id,
    name,
    status: 'completed',
    createdAt: '2026-02-01T09:00:00.000Z',
    startedAt: '2026-02-01T09:00:00.000Z',
    notes: '',
    tags: [],
    config: { target: `http://t${name}`, ...config },
    clientHost: 'lab-client',
    serverHost: 'lab-server',
    systems: { client: null, server: null },
    runs,
  };
}

test('one run a side: letters, configuration lines, best figures, and "too few runs" instead of a verdict', () => {
  const comparison = buildComparison([
    fixtureSession(1, 'Tomcat', [fixtureRun(1, 10, 1000, 4000)], { engine: { choice: 'auto', kind: 'native', notice: null } }),
    fixtureSession(2, 'Vert.x', [fixtureRun(2, 10, 3000, 1000, { templateId: 'vertx', variant: '', knobs: {} })]),
  ]);
  const headline = buildHeadline(comparison);
  assert.deepEqual(
    headline.configurations.map(({ letter, name, server, variant, knobs, hosts, engine }) => ({ letter, name, server, variant, knobs, hosts, engine })),
    [
      { letter: 'A', name: 'Tomcat', server: 'tomcat', variant: 'nio', knobs: 'gzip off, threads 200', hosts: 'lab-client → lab-server', engine: 'native engine' },
      { letter: 'B', name: 'Vert.x', server: 'vertx', variant: 'default', knobs: 'defaults', hosts: 'lab-client → lab-server', engine: null },
    ],
  );
  const [step] = headline.steps;
  assert.equal(step!.rows.length, 2);
  assert.deepEqual(step!.rows.map((row) => row.best.rps), [false, true]);
  assert.deepEqual(step!.rows.map((row) => row.best.p99), [false, true]);
  assert.equal(step!.rows[0]!.values.errors, 2, 'two timeouts, nothing left unsent');
  assert.match(step!.verdicts[0]!, /^Requests\/s: B is 3\.00× A — too few runs for a verdict \(1 run each; 5 a side needed\)\.$/);
  assert.match(step!.verdicts[1]!, /^p99: A is 3\.\d\d× B \(B lower\) — too few runs for a verdict/);
});

test('five runs a side: the ratio of medians with its 95 % interval, the figures medians of the runs', () => {
  const sessions: ComparedSessionInput[] = [];
  for (let i = 0; i < 5; i++) sessions.push(fixtureSession(10 + i, `sync (run ${i + 1} of 5)`, [fixtureRun(100 + i, 10, 1000 + i * 10, 4000)], { repeat: { group: 'sync' } }));
  for (let i = 0; i < 5; i++) sessions.push(fixtureSession(20 + i, `async (run ${i + 1} of 5)`, [fixtureRun(200 + i, 10, 2000 + i * 10, 4000)], { repeat: { group: 'async' } }));
  const comparison = buildComparison(sessions);
  const headline = buildHeadline(comparison);
  assert.deepEqual(headline.configurations.map((config) => config.name), ['sync (5 runs)', 'async (5 runs)']);
  assert.ok(headline.repeated);
  assert.deepEqual(headline.steps[0]!.rows.map((row) => [row.runs, row.values.rps]), [[5, 1020], [5, 2020]]);
  assert.match(headline.steps[0]!.verdicts[0]!, /^Requests\/s: B is 1\.98× A \(95 % CI 1\.94–2\.02×, 5 runs each\)\.$/);
  assert.match(headline.steps[0]!.verdicts[1]!, /^p99: no difference shown between/);
  assert.deepEqual([sessionLabel(comparison, 0), sessionLabel(comparison, 9)], ['A1', 'B5']);
});

test('warnings: the comparison\'s own, then client-bound and not steady runs by session and step', () => {
  const unsteady = fixtureRun(2, 10, 3000, 1000);
  unsteady.summary = { ...unsteady.summary!, steadiness: { steady: false, message: 'not steady' } };
  const comparison = buildComparison([
    fixtureSession(1, 'Tomcat', [fixtureRun(1, 10, 1000, 4000, { bottleneck: bottleneckClient }), fixtureRun(3, 100, 1000, 4000, { bottleneck: bottleneckClient })]),
    fixtureSession(2, 'Vert.x', [unsteady]),
  ]);
  const warnings = buildHeadline(comparison).warnings;
  assert.ok(warnings.some((warning) => /^Client-bound: “Tomcat” at c=10, 10 s, c=100, 10 s — the load generator/.test(warning)), warnings.join('\n'));
  assert.ok(warnings.some((warning) => /^Not steady: “Vert\.x” at c=10, 10 s/.test(warning)));
});

test('a sweep of more steps than the headline shows: each configuration at its peak, the step named', () => {
  const steps = [1, 2, 4, 8, 16, 32];
  const comparison = buildComparison([
    fixtureSession(1, 'A', steps.map((c, i) => fixtureRun(i + 1, c, c === 8 ? 5000 : 1000 + c, 1000))),
    fixtureSession(2, 'B', steps.map((c, i) => fixtureRun(i + 11, c, c === 32 ? 6000 : 900 + c, 1000))),
  ]);
  const headline = buildHeadline(comparison);
  assert.equal(headline.steps.length, 1);
  assert.deepEqual(headline.steps[0]!.rows.map((row) => row.step), ['c=8, 10 s', 'c=32, 10 s']);
  assert.match(headline.stepNote!, /A sweep of 6 steps/);
  assert.deepEqual(comparison.steps.map((step) => step.position?.value), steps);
});

test('letters go on past Z; the engine a session recorded is read from its config', () => {
  assert.deepEqual([letterOf(0), letterOf(25), letterOf(26)], ['A', 'Z', 'AA']);
  assert.equal(recordedEngine({}), null);
  assert.equal(recordedEngine({ engine: { choice: 'auto', kind: 'node', notice: 'native engine unavailable on c: …' } }), 'Node engine');
});
