// The five seeds' findings reproduced by their shipped studies (lab instance `reproduce`): each test
// loads resources/studies/<id>.yaml through the study catalog and runs it as a plan with the study's
// own presets, rates, connections, requests and servers — shortened only in duration (step
// lengths, warm-ups, pauses) — and asserts the direction of its seed's
// finding by relations alone: one server against another, a step against the one before. No
// latency or rate is bounded in absolute terms, so the findings hold on a busy machine as on a
// quiet one. Where a finding rests on some of a study's servers or requests, the test runs those
// (each as the study lists it, knobs and all) to keep the file's length in minutes. The figures are printed as
// diagnostics.

import assert from 'node:assert/strict';
import { loadavg } from 'node:os';
import { after, before, describe, test, type TestContext } from 'node:test';
import type { LivePoint, StoredRun } from '../../app/runs/runs.ts';
import type { PlanState } from '../../app/plans/plan.ts';
import type { PresetPlan } from '../../app/presets/preset-plan.ts';
import type { RunSummary } from '../../app/runs/run-summary-schema.ts';
import { STUDY_TARGET_PLACEHOLDER, type StudyProfile } from '../../app/plans/plan-file.ts';
import type { Study } from '../../app/plans/studies.ts';
import { builtInStudiesDir, loadStudies } from '../../main/services/plans/study-catalog.ts';
import { openLabBackend, type LabBackend } from '../support/lab-backend.ts';
import { labSkipReason } from '../support/lab-hosts.ts';
import { labLayout } from './layout.ts';
import { run } from './system.ts';

const skip = labSkipReason();
const INSTANCE = 'reproduce';

/** What a test shortens: durations only. */
interface Shortening {
  /** Each step's (and each named request's) length, for a study that runs by time. */
  durationS?: number;
  warmupS?: number;
  pauseS?: number;
  /** Rounds of the study's servers, interleaved (A B C A B C); each server's steps of every round, in order. */
  repeats?: number;
}

/** One step of one session: its server, request and stored run with the seconds it charted. */
interface StepResult {
  server: string;
  request: string | null;
  label: string;
  summary: RunSummary;
  points: LivePoint[];
}

const ms = (us: number | null | undefined): number => (us ?? NaN) / 1000;
const fixed = (value: number, digits = 1): string => (Number.isFinite(value) ? value.toFixed(digits) : '—');

function row(step: StepResult): string {
  const s = step.summary;
  const books = s.books;
  return [
    `${step.server}${step.request ? ` ${step.request}` : ''}`.padEnd(30),
    step.label.padEnd(22),
    `${fixed(s.requestsPerSecond, 0)} req/s`,
    `mean ${fixed(ms(s.meanUs))} ms`,
    `p50 ${fixed(ms(s.p50Us))}`,
    `p99 ${fixed(ms(s.p99Us))}`,
    `max ${fixed(ms(s.maxUs), 0)}`,
    `bands ${s.bands.map((band) => band.count).join('/')}`,
    `failed ${s.failed}${Object.entries(s.errors).filter(([, count]) => count > 0).map(([kind, count]) => ` ${kind} ${count}`).join('')}`,
    books ? `books ${books.scheduled}=${books.answered}+${books.errors}+${books.timeouts}+${books.notSent}${books.inFlight ? ` in flight ${books.inFlight}` : ''}` : 'no books',
  ].join(' | ');
}

/** A server as the study lists it, named by template, variant and the knobs that tell variants apart. */
function serverName(deployment: { templateId: string; variant: string; knobs: Record<string, unknown> }, distinguishing: readonly string[] = []): string {
  const knobs = distinguishing.map((knob) => deployment.knobs[knob]).filter((value) => value !== undefined);
  return [`${deployment.templateId}:${deployment.variant}`, ...knobs.map(String)].join('/');
}

/** The study's profile with every length shortened as asked; rates, connections and requests untouched. */
function shortened(profile: StudyProfile, by: Shortening): StudyProfile {
  const load = <T extends { durationS?: number }>(entry: T): T => (by.durationS !== undefined && entry.durationS !== undefined ? { ...entry, durationS: by.durationS } : entry);
  return {
    ...profile,
    load: load(profile.load),
    ...(profile.requests ? { requests: profile.requests.map((request) => (request.load ? { ...request, load: load(request.load) } : request)) } : {}),
    ...(by.warmupS !== undefined ? { warmupS: by.warmupS } : {}),
    ...(by.pauseS !== undefined ? { pauseS: by.pauseS } : {}),
  } as StudyProfile;
}

describe('the shipped studies reproduce their seeds’ findings on the lab', { skip: skip ?? false }, () => {
  let lab: LabBackend;
  const studies = new Map<string, Study>();

  before(async () => {
    const catalog = await loadStudies(builtInStudiesDir());
    assert.deepEqual(catalog.broken, []);
    for (const study of catalog.studies) studies.set(study.id, study);
    lab = await openLabBackend(INSTANCE, 'benchlab-reproduce-lab-', { sharedCaches: true });
  });

  after(async () => {
    if (!lab) return;
    await lab.services.plans.cancel().catch(() => undefined);
    await lab.services.templates.stop(lab.serverId).catch(() => undefined);
    await lab.close();
  });

  /** The preset the study names for one host, with the plan Benchlab shows for it there. */
  async function presetFor(presetId: string | null, hostId: number): Promise<{ presetId: string; planId: string } | null> {
    if (presetId === null) return null;
    const plan = await lab.ok<PresetPlan>('presets.plan', { presetId, hostId });
    return { presetId, planId: plan.planId };
  }

  /**
   * Runs a shipped study as a plan: its presets, profile, requests and capacity steps, shortened
   * only in duration, against `servers` (each one of the study's own entries, `template:variant`
   * plus knobs that tell entries apart). Returns each session's steps keyed by server name, then
   * request name.
   */
  async function runStudy(t: TestContext, studyId: string, servers: readonly string[], by: Shortening, distinguishing: readonly string[] = [], requestNames?: readonly string[]): Promise<Map<string, StepResult[]>> {
    const study = studies.get(studyId);
    assert.ok(study, `the catalog has the study ${studyId}`);
    const targets = servers.map((name) => {
      const entry = study.templates.find((listed) => serverName({ ...listed, knobs: listed.knobs ?? {} }, distinguishing) === name);
      assert.ok(entry, `${studyId} lists ${name} (it lists ${study.templates.map((listed) => serverName({ ...listed, knobs: listed.knobs ?? {} }, distinguishing)).join(', ')})`);
      return entry;
    });
    const { repeats, ...shortening } = by;
    const { requests: studyRequests, ...profile } = shortened(study.profile, shortening);
    const requests = requestNames ? studyRequests?.filter((request) => requestNames.includes(request.name)) : studyRequests;
    if (requestNames) assert.deepEqual(requests?.map((request) => request.name), requestNames, `${studyId} has the requests ${requestNames.join(', ')}`);
    const capacity = study.capacity;
    const started = await lab.ok<PlanState>('plans.start', {
      name: studyId,
      clientHostId: lab.clientId,
      serverHostId: lab.serverId,
      presets: { client: await presetFor(study.presets.client, lab.clientId), server: await presetFor(study.presets.server, lab.serverId) },
      revertPresets: true,
      targets,
      profile: { ...profile, target: STUDY_TARGET_PLACEHOLDER },
      ...(requests ? { requests } : {}),
      ...(capacity ? { capacity } : {}),
      ...(repeats ? { repeats } : {}),
      studyId,
    });
    assert.equal(started.status, 'running');
    const final = (await lab.services.plans.settled())!;
    const results = new Map<string, StepResult[]>();
    for (const stage of final.stages) {
      if (stage.kind !== 'load' || stage.sessionId === null) continue;
      const sessionId = stage.sessionId;
      const server = servers[stage.target!]!;
      const request = stage.request === null || stage.request === undefined ? null : requests![stage.request]!.name;
      const runs = await lab.ok<StoredRun[]>('runs.list', { sessionId });
      // A session whose seconds all went missing (an overloaded step answering only in its drain) has no replay.
      const replay = await lab.ok<{ points: LivePoint[] }>('replay.load', { sessionId }).catch(() => ({ points: [] as LivePoint[] }));
      const steps = runs
        .sort((a, b) => a.ordinal - b.ordinal)
        .flatMap((run) => {
          // A step without a summary never ended (the plan's failure says why, below).
          if (!run.summary) return [];
          const label = typeof run.step.label === 'string' ? run.step.label : `step ${run.ordinal}`;
          // The measured window's seconds: not the warm-up, nor the drain's one point of late answers.
          return [{ server, request, label, summary: run.summary, points: replay.points.filter((point) => point.step === run.ordinal - 1 && !point.warmup && !point.drain) }];
        });
      for (const step of steps) t.diagnostic(row(step));
      const key = request === null ? server : `${server} ${request}`;
      results.set(key, [...(results.get(key) ?? []), ...steps]);
    }
    t.diagnostic(`load average ${loadavg().map((load) => load.toFixed(2)).join(' ')}`);
    // Checked after the figures are printed, so a plan that failed half-way still shows what it measured.
    assert.equal(final.status, 'completed', `${studyId}: ${final.message ?? ''} ${final.stages.map((stage) => `${stage.id}: ${stage.status} ${stage.detail ?? ''}`).join('; ')}`);
    return results;
  }

  const only = (results: Map<string, StepResult[]>, key: string): StepResult => {
    const steps = results.get(key);
    assert.ok(steps && steps.length === 1, `one step for ${key} (have ${[...results.keys()].join(', ')})`);
    return steps[0]!;
  };

  /** ab itself (the seed's tool, `ab -n 10000 -c 100` without -k) from the lab's client against one deployed server: its requests/s. */
  async function abRate(server: string): Promise<number> {
    const [templateId, variant] = server.split(':') as [string, string];
    const deployment = await lab.ok<{ url: string }>('templates.deploy', { hostId: lab.serverId, templateId, variant });
    try {
      const result = await run('ip', ['netns', 'exec', labLayout(INSTANCE).hosts.client.namespace, 'ab', '-q', '-n', '10000', '-c', '100', new URL('/hello', deployment.url).href], { timeoutMs: 120_000 });
      const rate = /Requests per second:\s+([\d.]+)/.exec(result.stdout);
      assert.ok(rate, `ab printed its rate: ${result.stdout}`);
      return Number(rate[1]);
    } finally {
      await lab.ok('templates.stop', { hostId: lab.serverId });
    }
  }

  test('ab seed: with a new connection per request, the Node of 2012 ahead of today’s, each against Apache as ab itself finds them', { timeout: 600_000 }, async (t) => {
    // Not shortened: a fixed count of 10 000 requests takes seconds; two rounds, interleaved. The
    // seed had its Node at 1.6× Apache. Its finding is the Node of its day's: on a quiet lab Node
    // 0.8 (node-0-8) leads Apache by 1.24–1.33× and today's Node does not (docs/studies.md). On a
    // machine whose other work holds the cores, a one-thread server gets one thread's share against
    // Apache's many, and the two come out level, by ab as by Benchlab. So the test asserts what holds
    // busy or quiet: Node 0.8 answers more than today's Node (both one thread), and each Node's ratio
    // to Apache is within a factor of 2 of ab's on the same hosts, right after the plan.
    const servers = ['apache-static:mpm_event', 'node-0-8:async', 'node:async'] as const;
    const results = await runStudy(t, 'ab-fixed-count', servers, { repeats: 2 });
    const rounds = servers.map((server) => results.get(server) ?? []);
    for (const [index, steps] of rounds.entries()) {
      assert.equal(steps.length, 2, `${servers[index]}: a step per round`);
      for (const step of steps) {
        assert.equal(step.summary.status['2xx'], 10_000, `${step.server}: every request answered 200`);
        assert.equal(step.summary.phases?.withConnect, 10_000, `${step.server}: a connection per request`);
      }
    }
    // Each server's rate over both rounds: its requests over its time.
    const rate = (steps: StepResult[]) => steps.length / steps.reduce((sum, step) => sum + 1 / step.summary.requestsPerSecond, 0);
    const [apache, node08, today] = rounds.map(rate) as [number, number, number];
    const ab = [await abRate(servers[0]), await abRate(servers[1]), await abRate(servers[2])] as const;
    t.diagnostic(`req/s, Apache / Node 0.8 / today's Node: Benchlab ${[apache, node08, today].map((value) => fixed(value, 0)).join(' / ')}, ab ${ab.map((value) => fixed(value, 0)).join(' / ')}; Node 0.8 / Apache ${fixed(node08 / apache, 2)}`);
    assert.ok(node08 > today, `Node 0.8 ${fixed(node08, 0)} req/s against today's Node ${fixed(today, 0)}`);
    // The same verdicts as ab's, within a factor of 2 on a shared machine (Benchlab once got 20–47 % less from Node than ab).
    for (const [index, node] of [[1, node08], [2, today]] as const) {
      const ours = node / apache;
      const theirs = ab[index] / ab[0];
      assert.ok(ours > theirs / 2 && ours < theirs * 2, `${servers[index]}/Apache ${fixed(ours, 2)} by Benchlab against ${fixed(theirs, 2)} by ab`);
    }
  });

  test('loadtest seed: at 700 req/s the sync controller falls behind with growing latency while async keeps the rate', { timeout: 600_000 }, async (t) => {
    // 15 s instead of 60 s: sync's queue grows from the first second. The study's warm-up and its
    // 1000 connections kept (without them a cold async server collapsed under new connections).
    const results = await runStudy(t, 'loadtest-sleep', ['spring-boot:sync', 'spring-boot:async'], { durationS: 15 });
    const sync = only(results, 'spring-boot:sync');
    const async = only(results, 'spring-boot:async');
    const late = (step: StepResult) => step.summary.books!.timeouts + step.summary.books!.notSent + step.summary.failed;
    assert.ok(sync.summary.requestsPerSecond < async.summary.requestsPerSecond, `sync ${fixed(sync.summary.requestsPerSecond, 0)} req/s against async ${fixed(async.summary.requestsPerSecond, 0)}`);
    assert.ok(sync.summary.p50Us! > async.summary.p50Us! && sync.summary.p99Us! > async.summary.p99Us!, `sync p50/p99 ${fixed(ms(sync.summary.p50Us))}/${fixed(ms(sync.summary.p99Us))} ms against async ${fixed(ms(async.summary.p50Us))}/${fixed(ms(async.summary.p99Us))}`);
    assert.ok(late(sync) >= late(async), `sync failed or never answered ${late(sync)}, async ${late(async)}`);
    // Sync's latency grows second by second; async's stays at its operation's length.
    const p50s = (step: StepResult) => step.points.map((point) => point.p50Us ?? 0);
    const growth = (step: StepResult) => Math.max(...p50s(step).slice(-3)) / Math.max(1, p50s(step)[1]!);
    assert.ok(growth(sync) > 2 * growth(async), `sync p50 ${p50s(sync).map((us) => Math.round(us / 1000)).join(', ')} ms; async ${p50s(async).map((us) => Math.round(us / 1000)).join(', ')} ms`);
  });

  /** Answers within a step and its drain: at 10 000 connections most of a short step goes to connecting, so a step's rate alone can read 0. */
  const answered = (step: StepResult) => step.summary.books?.answered ?? step.summary.requests;

  test('wrk seed: Vert.x answers more than Spring Boot on Tomcat at every connection count', { timeout: 900_000 }, async (t) => {
    // Steps of 3 s instead of 10 s, a 3 s warm-up instead of 10 s, 1 s pauses; the seed's
    // connections, preset and /hello. Spring Boot on Tomcat, the first Spring Boot of the seed.
    const servers = ['vertx:eventloop', 'spring-boot-3:sync/tomcat'];
    const results = await runStudy(t, 'wrk-connections', servers, { durationS: 3, warmupS: 3, pauseS: 1 }, ['container']);
    const vertx = results.get(servers[0]!)!;
    const spring = results.get(servers[1]!)!;
    assert.equal(vertx.length, 4);
    assert.equal(spring.length, 4);
    const figures = vertx.map((step, index) => `${step.label}: ${answered(step)} against ${answered(spring[index]!)}`).join('; ');
    // 10, 100 and 1000 connections. The 10 000 step is printed, not asserted: opening 10 000
    // connections takes most of a 3 s step on 2 shared cores, so which side answers more there is
    // left to when each got its connections (a busy machine has had either at 0).
    for (let index = 0; index < 3; index += 1) {
      assert.ok(answered(vertx[index]!) > answered(spring[index]!), `Vert.x against Spring Boot answered: ${figures}`);
    }
  });

  test('Gatling seed: a larger share of answers is slow or failed at 3.48× the capacity than at 1.74×', { timeout: 900_000 }, async (t) => {
    // Steps of 5 s instead of 30 s, 2 s pauses; the study's calibration, the seed's multiples and
    // the preset's link. An overloaded step's drain lasts as long as its backlog takes to serve (up
    // to the 60 s timeout), so it shrinks with the step: at 10 s the drains took 2 of 3.7 minutes. Node sync, the reference the capacity is measured on (a second server
    // doubled the test's 9 minutes in CI and showed the same). The first step (1.52×) opens the
    // connections the later steps reuse, a cost of its own on a new server, so the top step is
    // held against the second.
    const servers = ['node:sync'];
    const results = await runStudy(t, 'gatling-file', servers, { durationS: 5, pauseS: 2 });
    const notFast = (step: StepResult) => {
      const s = step.summary;
      const scheduled = s.books?.scheduled ?? s.requests;
      return (scheduled - s.bands[0]!.count) / scheduled;
    };
    for (const server of servers) {
      const steps = results.get(server)!;
      assert.equal(steps.length, 4);
      const shares = steps.map((step) => `${step.label} ${fixed(100 * notFast(step))} %`).join(', ');
      t.diagnostic(`${server}: slow or failed ${shares}`);
      assert.ok(notFast(steps[3]!) > notFast(steps[1]!), `${server}: ${shares}`);
    }
  });

  // Last: a plan that fails here leaves its server on the host, which would refuse the seeds above.
  // Not reproduced on the lab, and said so on every run rather than skipped:
  // - json and concat: with a connection per request, as siege sent them, a cold JVM spends up to
  //   five times Node's CPU per answer until its JIT has compiled the accept-and-close path, on two
  //   cores the client shares. Shortened to 5 s, restify leads json and concat is level, where the
  //   seed's Vert.x led both (run as shipped on a quiet machine, Vert.x leads both).
  // - Nashorn on fib is level with restify or ahead of it here (74 against 58 req/s as shipped, 67
  //   against 57 and 36 against 52 in two test runs), where the seed's Nashorn was 0.42× Node.
  const SIEGE_NOT_REPRODUCED = 'with a connection per request a cold Vert.x trails restify on json and is level on concat on the 2-core lab (the seed’s finding is not reproduced here yet)';
  const NASHORN_FIB_LEVEL = 'Nashorn is level with restify on fib on the lab: the seed’s Nashorn, 0.42× Node, ran on the JVM of 2014 (JDK 8u05), which no package source here carries; today’s, with or without optimistic types, computes fib as fast as V8';

  test('siege seed: Vert.x beats restify on fib; on Rhino and Nashorn it loses on concat and fib', { timeout: 900_000 }, async (t) => {
    // 5 s per endpoint instead of 30 s, siege's 100 users and its connection per request kept. The
    // database step is not run here (near a tie at the private FerretDB's pace: docs/studies.md).
    const servers = ['node-restify:async/mongo', 'vertx:eventloop/mongo/java', 'vertx:eventloop/mongo/rhino', 'vertx:eventloop/mongo/nashorn'];
    const results = await runStudy(t, 'siege-mixed', servers, { durationS: 5 }, ['database', 'language'], ['json', 'concat', 'fib']);
    const rps = (server: string, request: string) => only(results, `${server} ${request}`).summary.requestsPerSecond;
    const [restify, java, rhino, nashorn] = servers as [string, string, string, string];
    const behind = (slower: string, faster: string, request: string) =>
      assert.ok(rps(slower, request) < rps(faster, request), `${request}: ${slower} ${fixed(rps(slower, request), 0)} req/s against ${faster} ${fixed(rps(faster, request), 0)}`);
    await t.test('Vert.x in Java ahead of restify on fib; Rhino and Nashorn behind Java on concat and fib; Rhino behind restify on both, Nashorn on concat', () => {
      behind(restify, java, 'fib');
      for (const request of ['concat', 'fib']) {
        behind(rhino, java, request);
        behind(nashorn, java, request);
        behind(rhino, restify, request);
      }
      behind(nashorn, restify, 'concat');
    });
    await t.test('Vert.x in Java ahead of restify on json and concat', { todo: SIEGE_NOT_REPRODUCED }, () => {
      behind(restify, java, 'json');
      behind(restify, java, 'concat');
    });
    await t.test('Nashorn behind restify on fib', { todo: NASHORN_FIB_LEVEL }, () => {
      behind(nashorn, restify, 'fib');
    });
  });
});
