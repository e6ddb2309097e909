import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildComparison, markBest, type ComparedRunInput, type ComparedSessionInput } from './comparison.ts';
import { buildHeadline } from './comparison-headline.ts';
import { missingNote } from './comparison-report.ts';
import { createLatencyHistogram, recordLatencyUs } from '../common/hdr.ts';
import { diffHosts } from './host-diff.ts';
import { SummaryAccumulator } from '../runs/run-summary.ts';
import type { SystemInfo } from '../hosts/system-info.ts';
import { seedSystemInfo } from '../../tests/support/session-seed.ts';
import { comparedSession } from '../../tests/support/compared-session.ts';

const systemInfo = (overrides: Partial<SystemInfo> = {}): SystemInfo => seedSystemInfo('server', overrides);

function run(runId: number, stepLabel: string, latencyUs: number, rps: number, seconds = 5): ComparedRunInput {
  const histogram = createLatencyHistogram();
  const accumulator = new SummaryAccumulator();
  const perSecond = [];
  for (let second = 0; second < seconds; second++) {
    const interval = createLatencyHistogram();
    for (let i = 0; i < 100; i++) recordLatencyUs(interval, latencyUs + i);
    histogram.add(interval);
    accumulator.add({ scheduled: rps, inFlight: 0, requests: rps, bytes: rps * 10, durationMs: 1000, errors: {}, status: { '2xx': rps }, histogram: interval });
    perSecond.push({ second, requests: rps, durationMs: 1000, p99Us: latencyUs + 99 });
  }
  return { runId, stepLabel, templateId: 'node', variant: 'cluster', status: 'completed', summary: accumulator.summary([800, 1200]), histogram, startedAt: null, seconds: perSecond };
}

function session(id: number, runs: ComparedRunInput[], overrides: Partial<ComparedSessionInput> = {}): ComparedSessionInput {
  return comparedSession(id, runs, {
    config: { profile: { load: { model: 'closed', connections: [10, 100] } }, target: 'http://10.0.0.2:8080' },
    systems: { client: systemInfo({ hostname: 'client' }), server: systemInfo() },
    ...overrides,
  });
}

test('one table per sweep step, best value of each column marked', () => {
  const a = session(1, [run(11, 'c=10', 1000, 900), run(12, 'c=100', 5000, 2000)]);
  const b = session(2, [run(21, 'c=10', 2000, 800), run(22, 'c=100', 3000, 2500)], { config: { profile: { other: true } } });
  const comparison = buildComparison([a, b]);
  assert.deepEqual(comparison.steps.map((step) => step.label), ['c=10', 'c=100']);
  const rps = comparison.columns.findIndex((column) => column.key === 'rps');
  const p99 = comparison.columns.findIndex((column) => column.key === 'p99');
  const [first, second] = comparison.steps[0]!.rows;
  assert.equal(first!.values[rps], 900);
  assert.equal(first!.best[rps], true);
  assert.equal(second!.best[rps], false);
  assert.equal(first!.best[p99], true);
  assert.equal(comparison.steps[1]!.rows[1]!.best[rps], true);
  assert.deepEqual(
    comparison.columns.map((column) => column.label),
    ['Requests/s', 'Mean', 'Std dev', 'p50', 'p75', 'p90', 'p99', 'Max', '< 800 ms', '800–1200 ms', '≥ 1200 ms', 'Failed', 'Timeouts', 'Not sent'],
  );
  assert.deepEqual(comparison.warnings, []);
  assert.equal(comparison.timelines[0]!.t.length, 10);
  assert.deepEqual(comparison.timelines[0]!.steps, [{ t: 0, label: 'c=10' }, { t: 5, label: 'c=100' }]);
  assert.equal(comparison.distributions.length, 4);
  assert.ok(comparison.distributions[0]!.points.every((point, i, all) => i === 0 || point.us >= all[i - 1]!.us));
  // Different profiles: two groups of one, so no verdict: too few runs, and no interval
  assert.equal(comparison.repeats.length, 2);
  assert.equal(comparison.repeats[0]!.steps[0]!.rpsVsBaseline, null, 'the first configuration is the baseline');
  assert.equal(comparison.repeats[1]!.steps[0]!.rpsVsBaseline?.kind, 'too-few');
  assert.equal(comparison.repeats[1]!.steps[0]!.rpsVsBaseline?.low, null);
});

test('ties and lone rows mark nothing; a band in the middle is never best', () => {
  const columns = [
    { key: 'rps', label: 'r', unit: 'rps', better: 'higher' },
    { key: 'x', label: 'x', unit: 'share', better: 'none' },
  ] as const;
  assert.deepEqual(markBest([...columns], [[1, 1], [1, 2]]), [[false, false], [false, false]]);
  assert.deepEqual(markBest([...columns], [[3, 1]]), [[false, false]]);
  assert.deepEqual(markBest([...columns], [[3, 1], [null, 2], [4, 0]]), [[false, false], [false, false], [true, false]]);
});

test('repeated runs of one configuration: median, 95 % CI, and no verdict from 3 runs a side', () => {
  const slow = [900, 910, 905].map((rps, i) => session(i + 1, [run(100 + i, 'c=10', 1000, rps)]));
  const fast = [1500, 1490, 1510].map((rps, i) =>
    session(i + 10, [{ ...run(200 + i, 'c=10', 500, rps), templateId: 'vertx', variant: '' }]),
  );
  const comparison = buildComparison([...slow, ...fast]);
  assert.equal(comparison.repeats.length, 2);
  const [baseline, other] = comparison.repeats;
  assert.deepEqual(baseline!.sessions, [0, 1, 2]);
  assert.equal(baseline!.label, 'session 1 (3 runs)');
  const step = other!.steps[0]!;
  assert.equal(step.rps.median, 1500);
  assert.ok(step.rps.low <= 1500 && step.rps.high >= 1500);
  assert.equal(step.rpsVsBaseline?.kind, 'too-few');
  assert.equal(step.rpsVsBaseline?.text, 'too few runs for a verdict (n = 3 and 3; 5 a side needed)');
  assert.equal(step.p99VsBaseline?.kind, 'too-few');
  // Same inputs, same figures: the bootstrap is seeded from the values
  assert.deepEqual(buildComparison([...slow, ...fast]).repeats, comparison.repeats);
});

test('5 runs a side: the ratio of requests/s and of p99 against the first configuration, with its 95 % interval', () => {
  const slow = [900, 910, 905, 895, 902].map((rps, i) => session(i + 1, [run(100 + i, 'c=10', 1000, rps)]));
  const fast = [1500, 1490, 1510, 1505, 1495].map((rps, i) => session(i + 10, [{ ...run(200 + i, 'c=10', 500, rps), templateId: 'vertx', variant: '' }]));
  const step = buildComparison([...slow, ...fast]).repeats[1]!.steps[0]!;
  assert.equal(step.rpsVsBaseline?.kind, 'higher');
  assert.match(step.rpsVsBaseline!.text, /^this is 1\.66× the first \(95 % CI 1\.6\d–1\.6\d×\)$/);
  assert.equal(step.p99VsBaseline?.kind, 'lower');
  const same = [903, 899, 907, 901, 897].map((rps, i) => session(i + 20, [{ ...run(300 + i, 'c=10', 1000, rps), templateId: 'vertx', variant: '' }]));
  assert.equal(buildComparison([...slow, ...same]).repeats[1]!.steps[0]!.rpsVsBaseline?.kind, 'no-difference');
});

test('sessions a plan tagged as repeats group by their tag, not by equal profiles', () => {
  const tagged = (id: number, group: string) => session(id, [run(id, 'c=10', 1000, 900 + id)], { config: { ...session(0, []).config, repeat: { group, index: 1, of: 2 } } });
  const comparison = buildComparison([tagged(1, 'plan-1-t0'), tagged(2, 'plan-1-t1'), tagged(3, 'plan-1-t0'), session(4, [run(4, 'c=10', 1000, 900)])]);
  assert.deepEqual(
    comparison.repeats.map((group) => group.sessions),
    [[0, 2], [1], [3]],
  );
  assert.deepEqual(comparison.sessions.map((s) => s.group), [0, 1, 0, 2]);
});

test('the same profile on another engine or from another number of clients is another configuration', () => {
  const base = session(0, []).config;
  const withConfig = (id: number, extra: Record<string, unknown>) => session(id, [run(id, 'c=10', 1000, 900 + id)], { config: { ...base, ...extra } });
  const native = { engine: { choice: 'auto', kind: 'native', notice: null } };
  const node = { engine: { choice: 'node', kind: 'node', notice: null } };
  const comparison = buildComparison([withConfig(1, native), withConfig(2, node), withConfig(3, {}), withConfig(4, { ...native, clients: [{ index: 0 }, { index: 1 }] }), withConfig(5, native)]);
  // A session recorded before engines were (no `engine`) ran the Node engine: it groups with the Node one.
  assert.deepEqual(comparison.sessions.map((s) => s.group), [0, 1, 1, 2, 0]);
});

test('a run that was not steady is marked in its row, with the evidence', () => {
  const drifting = run(2, 'c=10', 1000, 800);
  drifting.summary!.steadiness = { steady: false, message: 'not steady: requests/s fell 18 % from the first half to the second' };
  const comparison = buildComparison([session(1, [run(1, 'c=10', 1000, 900)]), session(2, [drifting])]);
  assert.deepEqual(
    comparison.steps[0]!.rows.map((row) => row.steadiness),
    [null, { steady: false, message: 'not steady: requests/s fell 18 % from the first half to the second' }],
  );
});

test('host diff: differing kernel, cores and sysctls make runs not comparable; the hostname alone does not', () => {
  const diff = diffHosts(['a', 'b'], [
    { client: systemInfo({ hostname: 'c1' }), server: systemInfo() },
    { client: systemInfo({ hostname: 'c2' }), server: systemInfo({ kernel: '6.1.0', cpuCores: 8, sysctls: { ...systemInfo().sysctls, 'net.ipv4.tcp_tw_reuse': '2' } }) },
  ]);
  assert.deepEqual(diff.warnings, ['Not comparable: the server hosts differ in kernel, cores, net.ipv4.tcp_tw_reuse.']);
  assert.equal(diff.rows.find((row) => row.role === 'client' && row.label === 'hostname')?.differs, true);
  assert.deepEqual(diff.rows.find((row) => row.role === 'server' && row.label === 'cores')?.values, ['2', '8']);
  const missing = diffHosts(['a', 'b'], [{ client: null, server: systemInfo() }, { client: systemInfo(), server: systemInfo() }]);
  assert.deepEqual(missing.warnings, ['No client system info for “a”: cannot tell whether the client hosts match.']);
});

test("the sessions' recorded databases: a line per session and server rows in the host diff, flagged and warned about when they differ", () => {
  const base = session(0, []).config;
  const database = (version: string) => ({ kind: 'postgresql', version, port: 41234, name: 'benchlab', user: 'benchlab', settings: { shared_buffers: '128MB' } });
  const comparison = buildComparison([
    session(1, [run(1, 'c=10', 1000, 900)], { config: { ...base, database: database('15.14') } }),
    session(2, [run(2, 'c=10', 1000, 900)], { config: { ...base, database: database('16.4') } }),
    session(3, [run(3, 'c=10', 1000, 900)]),
  ]);
  assert.deepEqual(comparison.sessions.map((s) => s.database), ['PostgreSQL 15.14 on port 41234 · shared_buffers 128MB', 'PostgreSQL 16.4 on port 41234 · shared_buffers 128MB', null]);
  const row = comparison.hosts.rows.find((candidate) => candidate.label === 'database');
  assert.deepEqual(row, { role: 'server', label: 'database', values: ['PostgreSQL 15.14', 'PostgreSQL 16.4', null], differs: true });
  assert.ok(comparison.warnings.some((warning) => /databases differ in version/.test(warning)));
  assert.equal(buildComparison([session(1, [run(1, 'c=10', 1000, 900)])]).hosts.rows.some((candidate) => candidate.label.startsWith('database')), false, 'no database rows without a database');
});

test('an interrupted session is flagged', () => {
  const comparison = buildComparison([session(1, [run(1, 's', 100, 10)]), session(2, [run(2, 's', 100, 10)], { status: 'interrupted', name: 'cut' })]);
  assert.deepEqual(comparison.warnings, ['“cut” is interrupted: its figures cover only what was measured.']);
});

test('runs are repeats only when knobs, hosts and status are equal too; labels show the knobs that differ', () => {
  const spring = (id: number, knobs: Record<string, unknown>, overrides: Partial<ComparedSessionInput> = {}) =>
    session(id, [{ ...run(id, 'c=10', 1000, 2000 + id), templateId: 'spring-boot', variant: 'sync', knobs }], { name: 'Spring Boot 4.1 · sync controller', ...overrides });
  const comparison = buildComparison([
    spring(1, { container: 'tomcat' }),
    spring(2, { container: 'jetty' }),
    spring(3, { container: 'tomcat' }, { serverHost: 'other-server' }),
    spring(4, { container: 'tomcat' }),
  ]);
  assert.deepEqual(comparison.repeats.map((group) => group.sessions), [[0, 3], [1], [2]], 'Tomcat and Jetty, and another server host, are other configurations');
  assert.deepEqual(comparison.sessions.map((s) => s.distinctKnobs), ['container tomcat', 'container jetty', 'container tomcat', 'container tomcat']);
  const headline = buildHeadline(comparison);
  assert.deepEqual(headline.configurations.map((config) => config.name), [
    'Spring Boot 4.1 · sync controller · container tomcat (2 runs)',
    'Spring Boot 4.1 · sync controller · container jetty',
    'Spring Boot 4.1 · sync controller · container tomcat',
  ]);
});

test('a failed run and its rerun are no repeats: never in a median, never best, its requests in flight shown', () => {
  const failed = run(1, 'c=10', 100, 5000);
  failed.status = 'failed';
  failed.summary = { ...failed.summary!, failed: 0, books: { ...failed.summary!.books!, inFlight: 16_500, balanced: true } };
  const comparison = buildComparison([session(1, [failed], { status: 'failed', name: 'Node' }), session(2, [run(2, 'c=10', 1000, 410)], { name: 'Node' }), session(3, [{ ...run(3, 'c=10', 2000, 300), templateId: 'vertx' }], { name: 'Vert.x' })]);
  assert.deepEqual(comparison.repeats.map((group) => [group.label, group.sessions]), [['Node (failed)', [0]], ['Node', [1]], ['Vert.x', [2]]]);
  assert.equal(comparison.repeats[1]!.steps[0]!.rps.median, 410, 'the rerun alone, not a median with the failed run');
  const rows = comparison.steps[0]!.rows;
  assert.deepEqual(rows.map((row) => row.status), ['failed', 'completed', 'completed']);
  const column = (key: string) => comparison.columns.findIndex((candidate) => candidate.key === key);
  assert.deepEqual(rows.map((row) => row.best[column('rps')]), [false, true, false], 'the failed run served the most but is no result');
  assert.deepEqual(rows.map((row) => row.best[column('p50')]), [false, true, false]);
  assert.deepEqual(rows.map((row) => row.values[column('inFlight')]), [16_500, 0, 0]);
  const headline = buildHeadline(comparison);
  assert.deepEqual(headline.configurations.map((config) => [config.name, config.status]), [['Node — failed', 'failed'], ['Node', 'completed'], ['Vert.x', 'completed']]);
  const headRows = headline.steps[0]!.rows;
  assert.deepEqual(headRows.map((row) => row.best.rps), [false, true, false]);
  assert.deepEqual(headRows.map((row) => row.best.errors), [false, false, false], 'its "0 failed" is never best; the completed two tie');
  assert.match(headline.steps[0]!.verdicts[0]!, /^Requests\/s: B is 1\.37× C/, 'the verdict ranks completed configurations only');
  assert.equal(buildComparison([session(2, [run(2, 'c=10', 1000, 410)])]).columns.some((candidate) => candidate.key === 'inFlight'), false, 'no column when nothing was in flight');
});

test("the server's memory: its peak as a column and the three readings on the row, only when some run has a reading", () => {
  const withMemory = run(1, 'c=10', 1000, 900);
  withMemory.summary = { ...withMemory.summary!, serverMemory: { minBytes: 80e6, maxBytes: 120e6, endBytes: 110e6 } };
  const comparison = buildComparison([session(1, [withMemory]), session(2, [run(2, 'c=10', 1000, 900)])]);
  const c = comparison.columns.findIndex((column) => column.key === 'rssMax');
  assert.equal(comparison.columns[c]!.label, 'Server RSS');
  assert.deepEqual(comparison.steps[0]!.rows.map((row) => [row.values[c], row.best[c], row.serverMemory]), [
    [120e6, false, { minBytes: 80e6, maxBytes: 120e6, endBytes: 110e6 }],
    [null, false, null],
  ], 'less memory is no "best"');
  assert.deepEqual(comparison.steps[0]!.rows.map((row) => row.missing?.rssMax ?? null), [null, 'no server readings'], 'a run without a reading says why');
  const unfound = { ...run(2, 'c=10', 1000, 900), serverMemoryMissing: 'server process not found' };
  assert.equal(missingNote(comparison.columns, buildComparison([session(1, [withMemory]), session(2, [unfound])]).steps[0]!.rows[1]!), 'Server RSS: server process not found');
  assert.equal(buildComparison([session(2, [run(2, 'c=10', 1000, 900)])]).columns.some((column) => column.key === 'rssMax'), false);
});
