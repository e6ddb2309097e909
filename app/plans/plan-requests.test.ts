// Several named requests per plan: the plan file's `profile.requests` (beside the single request,
// which still loads as before), its problems with their line and column, the round trip, and the
// expansion into one load stage (and one session) per template and request.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { describeProblems, parsePlanFile } from './plan-file.ts';
import { formatPlanFile } from './plan-file-format.ts';
import { planEstimate, planStages, PlanSpec, repeatGroup, targetStageId, type PlanNames, type PlanState } from './plan.ts';
import { planConfigurations, type ReportRun } from './plan-report.ts';
import { plannedRequests } from './plan-requests.ts';
import { planSessionName } from '../sessions/session-names.ts';

const HEAD = `version: 1
name: endpoints
templates: [node:async, node:sync]
`;

function parsed(text: string) {
  const result = parsePlanFile(text);
  assert.ok(result.ok, result.ok ? '' : describeProblems('plan.yaml', result.problems));
  return result.plan;
}

function problems(text: string): string {
  const result = parsePlanFile(text);
  assert.equal(result.ok, false);
  return result.ok ? '' : describeProblems('plan.yaml', result.problems);
}

const TWO = `${HEAD}profile:
  requests:
    - {name: json, path: /json}
    - {name: fib, path: /fib?n=30, timeoutMs: 30000, load: {model: closed, connections: 2, requests: 50}}
  load: {model: closed, connections: 10, durationS: 5}
`;

describe('plan files with named requests', () => {
  test('requests parse beside the profile; its request is the first one, each keeps its own fields and load', () => {
    const plan = parsed(TWO);
    assert.deepEqual(
      plan.profile?.requests?.map((request) => [request.name, request.method, request.path, request.timeoutMs, request.load?.model ?? null]),
      [
        ['json', 'GET', '/json', 10_000, null],
        ['fib', 'GET', '/fib?n=30', 30_000, 'closed'],
      ],
    );
    assert.equal(plan.profile?.request.path, '/json');
  });

  test('a file with one request (no requests) loads exactly as before: no requests on its profile', () => {
    const plan = parsed(`${HEAD}profile:\n  request: {path: /hello}\n  load: {model: closed, connections: 10, durationS: 5}\n`);
    assert.equal(plan.profile?.request.path, '/hello');
    assert.equal('requests' in plan.profile!, false);
  });

  test('it round-trips: the saved file writes requests (not request) and reads back to the same plan', () => {
    const plan = parsed(TWO);
    const text = formatPlanFile(plan, 'yaml');
    assert.match(text, /^ {2}requests:$/m);
    assert.doesNotMatch(text, /^ {2}request:/m);
    assert.deepEqual(parsed(text), plan);
    assert.deepEqual(parsed(formatPlanFile(plan, 'json')), plan);
  });

  test('problems carry their line and column: both forms, a name twice, a bad path, an unknown field, a load the sweep does not fit', () => {
    const text = `${HEAD}profile:
  request: {path: /a}
  requests:
    - {name: json, path: json}
    - {name: JSON, path: /x, bogus: 1}
    - {name: fib, path: /fib, load: {model: open, rate: 100, durationS: 5}}
  load: {model: closed, connections: 10, durationS: 5}
  sweep: [10, 20]
`;
    assert.equal(
      problems(text),
      [
        'plan.yaml:5:12 profile.request: give either request or requests, not both',
        'plan.yaml:7:26 profile.requests[0].path: must start with "/" (for example /hello)',
        'plan.yaml:8:14 profile.requests[1].name: names "JSON" again: each request once',
        'plan.yaml:8:30 profile.requests[1].bogus: is not a field of a plan file (see docs/plan-files.md)',
      ].join('\n'),
    );
    assert.match(
      problems(`${HEAD}profile:\n  requests:\n    - {name: a, path: /a, load: {model: closed, connections: 2, durationS: 1}}\n  load: {model: open, rate: 10, durationS: 5}\n  sweep: [10, 0.5]\n`),
      /^plan\.yaml:6:33 profile\.requests\[0\]\.load: with this load, the profile's sweep\[1\] /,
    );
    // Each request against the load it runs with: the second waits past its timeout, which the profile's open load cannot.
    assert.match(
      problems(`${HEAD}profile:\n  requests:\n    - {name: a, path: /a}\n    - {name: b, path: /b, onTimeout: wait}\n  load: {model: open, rate: 10, durationS: 5}\n`),
      /^plan\.yaml:7:38 profile\.requests\[1\]\.onTimeout: wait is for the closed model/,
    );
    assert.match(problems(`${HEAD}profile:\n  requests: []\n  load: {model: closed, connections: 10, durationS: 5}\n`), /plan\.yaml:5:13 profile\.requests: needs at least one request/);
    assert.match(problems(`${HEAD}profile:\n  requests:\n    - {path: /a}\n  load: {model: closed, connections: 10, durationS: 5}\n`), /plan\.yaml:6:7 profile\.requests\[0\]\.name: is required/);
  });
});

const NAMES: PlanNames = { host: (id) => `host${id}`, preset: (id) => id, template: (id, variant) => `${id} · ${variant}` };

function spec(overrides: Record<string, unknown> = {}): PlanSpec {
  return PlanSpec.parse({
    name: 'endpoints',
    clientHostId: 1,
    serverHostId: 2,
    presets: { client: null, server: null },
    targets: [
      { templateId: 'node', variant: 'async' },
      { templateId: 'node', variant: 'sync' },
    ],
    profile: { target: 'http://127.0.0.1:8080', request: { path: '/json' }, load: { model: 'closed', connections: 10, durationS: 5 } },
    requests: [
      { name: 'json', path: '/json' },
      { name: 'fib', path: '/fib?n=30', load: { model: 'closed', connections: 2, durationS: 20 } },
    ],
    ...overrides,
  });
}

describe('a plan with named requests', () => {
  test('each template runs each request: one deploy, a load stage per request naming it, one stop', () => {
    const stages = planStages(spec(), NAMES);
    assert.deepEqual(
      stages.map((stage) => stage.id),
      ['deploy-0', 'load-0-r0', 'load-0-r1', 'stop-0', 'deploy-1', 'load-1-r0', 'load-1-r1', 'stop-1'],
    );
    const loads = stages.filter((stage) => stage.kind === 'load');
    assert.deepEqual(
      loads.map((stage) => [stage.target, stage.request]),
      [
        [0, 0],
        [0, 1],
        [1, 0],
        [1, 1],
      ],
    );
    assert.match(loads[0]!.label, /: json, GET \/json, c=10, 5 s$/);
    assert.match(loads[1]!.label, /: fib, GET \/fib\?n=30, c=2, 20 s$/);
    // Each request's estimate follows its own load: fib's 20 s against json's 5 s.
    assert.ok(loads[1]!.estimateS > loads[0]!.estimateS);
  });

  test('each request runs with its own profile; without named requests the profile runs alone, unnamed', () => {
    const planned = plannedRequests(spec());
    assert.deepEqual(
      planned.map(({ name, profile }) => [name, profile.request.path, profile.load.model === 'closed' ? profile.load.connections : null]),
      [
        ['json', '/json', 10],
        ['fib', '/fib?n=30', 2],
      ],
    );
    const single = spec({ requests: undefined });
    assert.deepEqual(plannedRequests(single).map(({ name, profile }) => [name, profile.request.path]), [[null, '/json']]);
    assert.deepEqual(
      planStages(single, NAMES).map((stage) => stage.id),
      ['deploy-0', 'load-0', 'stop-0', 'deploy-1', 'load-1', 'stop-1'],
    );
  });

  test('the estimate counts every request of every template', () => {
    const basis = { deployS: () => 0, loadOverheadS: 0 };
    const two = planEstimate(spec(), basis).seconds;
    const one = planEstimate(spec({ requests: [{ name: 'json', path: '/json' }] }), basis).seconds;
    assert.ok(two > one, `${two} s for two requests against ${one} s for one`);
  });

  test('a request’s session is named after it, and its repeats form their own group', () => {
    assert.equal(planSessionName({ name: 'endpoints', repeats: 2 }, 0, 'node · async', 1, 'fib'), 'endpoints — node · async — fib (run 1 of 2)');
    assert.equal(planSessionName({ name: 'endpoints' }, 0, 'node · async'), 'endpoints — node · async');
    assert.notEqual(repeatGroup(1, 'now', 0, 0), repeatGroup(1, 'now', 0, 1));
    assert.equal(repeatGroup(1, 'now', 0), 'plan 1 now target 0');
    assert.equal(targetStageId('load', 0, 2, 3, 1), 'load-0-2-r1');
    assert.equal(targetStageId('deploy', 0, 2, 3, 1), 'deploy-0-2');
  });

  test('the plan refuses two requests of one name, and a request load that its profile’s sweep does not fit', () => {
    assert.throws(() => spec({ requests: [{ name: 'a', path: '/a' }, { name: 'A', path: '/b' }] }), /again: each request once/);
    assert.throws(
      () => spec({ profile: { target: 'http://127.0.0.1:8080', request: { path: '/a' }, load: { model: 'open', rate: 10, durationS: 5 }, sweep: [0.5] }, requests: [{ name: 'a', path: '/a', load: { model: 'closed', connections: 2, durationS: 5 } }] }),
      (error: Error) => error.message.includes('"requests"') && error.message.includes('"load"'),
    );
    // A request's own field against its own load: waiting past the timeout is for the closed model.
    assert.doesNotThrow(() => spec({ requests: [{ name: 'a', path: '/a', onTimeout: 'wait' }] }));
    assert.throws(
      () => spec({ requests: [{ name: 'a', path: '/a' }, { name: 'b', path: '/b', onTimeout: 'wait', load: { model: 'open', rate: 10, durationS: 5 } }] }),
      (error: Error) => /"requests",\s*1,\s*"onTimeout"/.test(error.message),
    );
  });
});

describe('the report of a plan with named requests', () => {
  test('each template and request is its own configuration, named after the request, its runs its own', () => {
    const stages = planStages(spec({ targets: [{ templateId: 'node', variant: 'async' }] }), NAMES).map((stage, index) => ({ ...stage, status: 'done' as const, sessionId: stage.kind === 'load' ? index : null }));
    const plan: PlanState = { id: 1, name: 'endpoints', status: 'completed', stages, sessionIds: [1, 2], message: null, startedAt: 'now', endedAt: 'now', estimateS: 1 };
    const summary = (requestsPerSecond: number) => ({ requestsPerSecond }) as unknown as ReportRun['summary'];
    const runs: Record<number, ReportRun[]> = {
      1: [{ templateId: 'node', variant: 'async', stepLabel: 'c=10', summary: summary(9000), requestName: 'json' }],
      2: [{ templateId: 'node', variant: 'async', stepLabel: 'c=2', summary: summary(90), requestName: 'fib' }],
    };
    const configurations = planConfigurations(plan, [{ templateId: 'node', variant: 'async', knobs: {}, label: 'Node · async' }], (id) => runs[id] ?? [], null);
    assert.deepEqual(
      configurations.map((configuration) => [configuration.label, configuration.request, configuration.sessionIds, configuration.summaries.map((entry) => entry?.requestsPerSecond)]),
      [
        ['Node · async — json', 'json', [1], [9000]],
        ['Node · async — fib', 'fib', [2], [90]],
      ],
    );
  });
});
