import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SessionsRepository } from '../runs/sessions-repository.ts';
import { createSeeder } from '../../../tests/support/session-seed.ts';
import { ComparisonService } from './comparison-service.ts';
import { createLatencyHistogram, decodeHistogram, encodeHistogram, latencyStats, recordLatencyUs } from '../../../app/common/hdr.ts';
import { SamplesRepository, type SampleInput } from '../runs/samples-repository.ts';
import { openTestDatabase } from '../../../tests/support/test-database.ts';
import { ProfilesRepository } from '../profiles/profiles-repository.ts';

const { db } = openTestDatabase('compare');
const sessions = new SessionsRepository(db);
const service = new ComparisonService({ db, sessions });
const seeder = createSeeder(db);
const slow = seeder.session({ name: 'Tomcat BIO', templateId: 'tomcat', variant: 'bio', rps: 1000, latencyUs: 2000, seconds: 30, sweep: [10, 100], tags: ['jvm'] });
const fast = seeder.session({ name: 'Vert.x', templateId: 'vertx', rps: 3000, latencyUs: 800, seconds: 30, sweep: [10, 100], serverInfo: { kernel: '6.1.0-other' } });

test('a comparison of two stored sweeps: rows per step with the best marked, timelines, host warnings', () => {
  const comparison = service.open({ sessionIds: [slow.sessionId, fast.sessionId] });
  assert.deepEqual(comparison.steps.map((step) => step.label), ['c=10, 30 s', 'c=100, 30 s']);
  const rps = comparison.columns.findIndex((column) => column.key === 'rps');
  for (const step of comparison.steps) {
    assert.equal(step.rows.length, 2);
    assert.equal(step.rows[1]!.best[rps], true, 'Vert.x serves more');
    assert.ok(Math.abs(step.rows[1]!.values[rps]! - 3000) < 150);
  }
  assert.equal(comparison.timelines[0]!.t.length, 60);
  assert.deepEqual(comparison.timelines[0]!.steps.map((step) => step.t), [0, 30]);
  assert.deepEqual(comparison.sessions.map((session) => session.templates), [['tomcat (bio)'], ['vertx']]);
  assert.equal(comparison.sessions[0]!.serverHost, 'seed-server');
  assert.deepEqual(comparison.hosts.warnings, ['Not comparable: the server hosts differ in kernel.']);
  assert.equal(comparison.distributions.length, 4);
});

test('chosen runs only, and a run of another session is refused', () => {
  const comparison = service.open({ sessionIds: [slow.sessionId, fast.sessionId], runIds: [slow.runIds[1]!, fast.runIds[1]!] });
  assert.deepEqual(comparison.steps.map((step) => step.label), ['c=100, 30 s']);
  assert.throws(() => service.open({ sessionIds: [slow.sessionId, fast.sessionId], runIds: [999] }), /run 999 is not a run of the chosen sessions/);
});

test('library entries, notes and tags, duplicate as a linked draft', () => {
  const entry = service.library().find((e) => e.id === slow.sessionId)!;
  assert.deepEqual(entry.templates, ['tomcat']);
  assert.equal(entry.clientHost, 'seed-client');
  const updated = service.update(slow.sessionId, { notes: 'first try', tags: ['jvm', 'bio'] });
  assert.equal(updated.notes, 'first try');
  assert.deepEqual(updated.tags, ['jvm', 'bio']);
  assert.equal(service.update(slow.sessionId, { notes: 'second' }).tags.length, 2, 'tags kept when only notes change');
  const copy = service.duplicate(slow.sessionId);
  assert.equal(copy.name, 'Tomcat BIO (copy)');
  assert.equal(copy.status, 'draft');
  assert.equal(copy.originSessionId, slow.sessionId);
  assert.deepEqual(copy.config, sessions.get(slow.sessionId).config);
  assert.throws(() => service.duplicate(12345), /does not exist/);
});

test('replay: the stored seconds as live points with step markers', () => {
  const replay = service.replay(fast.sessionId);
  assert.equal(replay.points.length, 60);
  assert.equal(replay.durationS, 60);
  assert.deepEqual(replay.run.steps.map((step) => [step.startedAtS, step.endedAtS, step.status]), [[0, 30, 'completed'], [30, 60, 'completed']]);
  assert.equal(replay.run.status, 'completed');
  // Each point sits where the live chart drew it: at the end of its second, as the agent measured it.
  assert.ok(replay.points.every((point, i) => point.t === i + 1 && point.rps > 2800 && point.serverCpu === 0.6));
  assert.ok(replay.run.steps[0]!.summary!.p99Us! > 0);
});

test('two clients: replay and Compare draw their seconds merged exactly, with each client’s part and verdict; one client stays as it was', () => {
  const { sessionId, runIds } = seeder.session({ name: 'Two clients', rps: 400, latencyUs: 1000, seconds: 6 });
  const samples = new SamplesRepository(db);
  const stored = samples.forRun(runIds[0]!);
  // Per second, one histogram fed both clients' requests: what the merged second must say.
  const direct = stored.map(() => createLatencyHistogram());
  const second: SampleInput[] = stored.map((entry, i) => {
    // The second client saw one slow answer in 20 (its own p99 is 40 ms); in all 220 timed answers it is under 1 %.
    const histogram = createLatencyHistogram();
    for (let n = 0; n < 19; n++) recordLatencyUs(histogram, 500);
    recordLatencyUs(histogram, 40_000);
    direct[i]!.add(decodeHistogram(entry.histogram!));
    direct[i]!.add(histogram);
    const stats = latencyStats(histogram);
    return { ...entry, phase: 'measure', clientIndex: 1, requests: 20, scheduled: 20, statusClasses: { '2xx': 20 }, histogram: encodeHistogram(histogram), p50Us: stats.p50Us, p90Us: stats.p90Us, p99Us: stats.p99Us, maxUs: stats.maxUs };
  });
  samples.append(runIds[0]!, second);
  // Only the fully merged second's p99 is below the slowest client's: the test tells the two apart.
  const p99s = direct.map((histogram) => latencyStats(histogram).p99Us);

  const replay = service.replay(sessionId);
  assert.equal(replay.points.length, 6, 'one point per second, not one per client');
  replay.points.forEach((point, i) => {
    assert.equal(point.rps, stored[i]!.requests + 20);
    assert.equal(point.p99Us, p99s[i], 'the p99 of the added histograms');
    assert.deepEqual(point.clients?.map((part) => [part.clientIndex, part.rps]), [[0, stored[i]!.requests], [1, 20]]);
    assert.ok(point.clients![1]!.p99Us! >= 40_000);
  });
  assert.deepEqual(replay.run.steps[0]!.clientVerdicts.map((verdict) => verdict.clientIndex), [0, 1]);

  const timeline = service.open({ sessionIds: [sessionId, slow.sessionId] }).timelines[0]!;
  assert.deepEqual(timeline.rps, stored.map((entry) => entry.requests + 20), 'Compare adds the clients’ requests');
  assert.deepEqual(timeline.p99Us, p99s, 'Compare’s p99 is the merged one, not the slowest client’s');
  assert.ok(p99s.every((p99) => p99! < 40_000), 'merged, the one slow answer is under 1 %: not the slowest client’s p99');

  // A one-client session replays exactly as before: no breakdown, no per-client verdicts.
  const single = service.replay(fast.sessionId);
  assert.ok(single.points.every((point) => point.clients === undefined));
  assert.ok(single.run.steps.every((step) => step.clientVerdicts.length === 0));
});

test("the verdict reads the run's CPU profile: replay, Compare and the PDF name its hottest frame", () => {
  // A closed load whose requests time out: server-bound on the seconds alone.
  const { sessionId, runIds } = seeder.session({ name: 'Hot frame', rps: 300, latencyUs: 5000, seconds: 6, stepLoad: [{ timeoutShare: 0.2 }] });
  const kindsOf = () => {
    const row = service.open({ sessionIds: [sessionId, slow.sessionId] }).steps.flatMap((step) => step.rows).find((r) => r.runId === runIds[0]);
    return { compared: row?.bottleneck?.evidence.map((evidence) => evidence.kind) ?? [], replayed: service.replay(sessionId).run.steps[0]!.bottleneck };
  };
  const before = kindsOf();
  assert.equal(before.replayed?.verdict, 'server-bound');
  assert.ok(!before.compared.includes('profile-hotspot'), 'no profile, no frame named');

  new ProfilesRepository(db).save(runIds[0]!, {
    status: 'captured',
    folded: '(idle) 500\nmain;serve;handle;bcrypt 700\nmain;serve;handle 150\nmain;serve;parse 150\n',
    facts: { tool: 'jfr', runtime: 'jvm', samples: 1500, stacks: 4, intervalUs: 10_000, durationMs: 6000, pid: 42 },
  });
  const after = kindsOf();
  assert.ok(after.compared.includes('profile-hotspot'), after.compared.join());
  assert.match(after.replayed!.headline, /\(most of its CPU time went to bcrypt\)/);
  assert.match(after.replayed!.evidence.find((evidence) => evidence.kind === 'profile-hotspot')!.message, /bcrypt, 70 % of 1,000 samples/);
});
