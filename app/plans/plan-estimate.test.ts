// Estimates that learn: deploys by the median of the same template and variant on the same host, then
// on any host, then the guess; sessions by their planned load plus the median overhead measured;
// only the recent measurements count; the plan's stages and total follow the learned figures.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ESTIMATE_HISTORY_SIZE, learnedEstimates, plannedLoadSeconds, runRate, type EstimateHistory } from './plan-estimate.ts';
import { ESTIMATE_S, GUESSED_ANSWERS_PER_CONNECTION_S, loadEstimate, PlanSpec, planEstimate, planStages } from './plan.ts';
import { LoadProfile } from '../runs/load-profile.ts';

const deploy = (hostId: number, templateId: string, seconds: number, variant = 'async') => ({ hostId, templateId, variant, seconds });
const none: EstimateHistory = { deploys: [], sessions: [], rates: [] };

test('nothing measured: the guesses', () => {
  const basis = learnedEstimates(none);
  assert.equal(basis.deployS(1, 'node', 'async'), ESTIMATE_S.deploy);
  assert.equal(basis.loadOverheadS, 0);
});

test('a deploy goes by the same template and variant on the same host first, then on any host', () => {
  const basis = learnedEstimates({ deploys: [deploy(1, 'node', 4), deploy(1, 'node', 6), deploy(1, 'node', 100), deploy(2, 'node', 50), deploy(2, 'vertx', 90, 'eventloop')], sessions: [] });
  assert.equal(basis.deployS(1, 'node', 'async'), 6, 'the median of host 1: one slow build does not rule');
  assert.equal(basis.deployS(3, 'node', 'async'), 28, 'no deploy on host 3: the median of every host (4, 6, 50, 100)');
  assert.equal(basis.deployS(2, 'vertx', 'eventloop'), 90);
  assert.equal(basis.deployS(2, 'node', 'sync'), ESTIMATE_S.deploy, 'another variant is another build');
});

test('only the recent measurements count (the history is newest first)', () => {
  const recent = Array.from({ length: ESTIMATE_HISTORY_SIZE }, () => deploy(1, 'node', 10));
  const old = Array.from({ length: ESTIMATE_HISTORY_SIZE + 5 }, () => deploy(1, 'node', 500));
  assert.equal(learnedEstimates({ deploys: [...recent, ...old], sessions: [] }).deployS(1, 'node', 'async'), 10);
});

test('a session adds the median of what sessions took beyond their planned load, never less than none', () => {
  const basis = learnedEstimates({ deploys: [], sessions: [{ plannedS: 10, tookS: 13 }, { plannedS: 30, tookS: 34 }, { plannedS: 10, tookS: 9 }, { plannedS: 60, tookS: 65.5 }, { plannedS: 10, tookS: 15 }] });
  assert.equal(basis.loadOverheadS, 4, 'overheads 3, 4, 0 (clamped), 5.5, 5: median 4');
});

test('a stored profile gives its planned seconds; a count-ended or unreadable one gives none', () => {
  const profile = { target: 'http://10.0.0.1:3000', request: { method: 'GET', path: '/hello', headers: {}, timeoutMs: 1000 }, load: { model: 'closed', connections: 4, pipelining: 1, durationS: 10 }, sweep: [], warmupS: 2, pauseS: 1, bucketsMs: [] };
  assert.equal(plannedLoadSeconds(profile), 12);
  assert.equal(plannedLoadSeconds({ ...profile, load: { model: 'closed', connections: 4, pipelining: 1, requests: 1000 } }), null);
  assert.equal(plannedLoadSeconds({ nonsense: true }), null);
});

test("the plan's stages and total follow the learned figures", () => {
  const spec = PlanSpec.parse({
    name: 'Learned',
    clientHostId: 1,
    serverHostId: 2,
    presets: { client: null, server: null },
    targets: [{ templateId: 'node', variant: 'async' }, { templateId: 'vertx', variant: 'eventloop' }],
    profile: { target: 'http://placeholder:1', request: { method: 'GET', path: '/hello', headers: {}, timeoutMs: 1000 }, load: { model: 'closed', connections: 4, pipelining: 1, durationS: 10 }, sweep: [], warmupS: 0, pauseS: 0, bucketsMs: [] },
    repeats: 2,
  });
  const basis = learnedEstimates({ deploys: [deploy(2, 'node', 3), deploy(2, 'vertx', 40, 'eventloop')], sessions: [{ plannedS: 10, tookS: 12 }] });
  const names = { host: (id: number) => `host ${id}`, preset: (id: string) => id, template: (id: string, variant: string) => `${id} ${variant}` };
  const stages = planStages(spec, names, basis);
  assert.deepEqual(
    stages.filter((stage) => stage.round === 1).map((stage) => [stage.kind, stage.estimateS]),
    [['deploy', 3], ['load', 12], ['stop', ESTIMATE_S.stop], ['deploy', 40], ['load', 12], ['stop', ESTIMATE_S.stop]],
  );
  const total = stages.reduce((sum, stage) => sum + stage.estimateS, 0);
  assert.deepEqual(planEstimate(spec, basis), { seconds: total, byCount: false });
  assert.equal(total, 2 * (3 + 12 + 5 + 40 + 12 + 5));
});

const countProfile = (connections: number, requests: number) =>
  LoadProfile.parse({ target: 'http://10.0.0.2:8080', request: { method: 'GET', path: '/hello' }, load: { model: 'closed', connections, requests } });

test('a count-ended step is estimated from its profile, never as its 600 s cap', () => {
  // 10,000 requests on 100 connections: 100 connections × 100 answers/s = 10,000 req/s, a second.
  const estimate = loadEstimate(countProfile(100, 10_000));
  assert.deepEqual(estimate, { seconds: Math.ceil(10_000 / (100 * GUESSED_ANSWERS_PER_CONNECTION_S)), byCount: true });
  assert.ok(estimate.seconds < countProfile(100, 10_000).countStepCapS);
  // A count too large for any rate stops at the cap: the estimate says no more than the run can take.
  assert.equal(loadEstimate(countProfile(1, 1e9)).seconds, 600);
});

test('a count-ended step goes by the requests/s past runs got at the same URL, the same connections first', () => {
  const rates = [
    { url: 'http://10.0.0.2:8080/hello', connections: 100, requestsPerSecond: 2000 },
    { url: 'http://10.0.0.2:8080/hello', connections: 100, requestsPerSecond: 2500 },
    { url: 'http://10.0.0.2:8080/hello', connections: 10, requestsPerSecond: 500 },
    { url: 'http://10.0.0.9:8080/hello', connections: 100, requestsPerSecond: 90_000 },
  ];
  const basis = learnedEstimates({ deploys: [], sessions: [], rates });
  assert.equal(basis.answersPerS!('http://10.0.0.2:8080/hello', 100), 2250);
  assert.equal(basis.answersPerS!('http://10.0.0.2:8080/hello', 50), 2000, 'other connections at the same URL: all of them (500, 2000, 2500)');
  assert.equal(basis.answersPerS!('http://10.0.0.3:8080/hello', 100), null);
  assert.deepEqual(loadEstimate(countProfile(100, 45_000), basis), { seconds: 20, byCount: true });
});

test('a stored run gives its URL, connections and requests/s; one without a summary none', () => {
  const profile = countProfile(100, 10_000);
  assert.deepEqual(runRate(profile, { load: { model: 'closed', connections: 50 } }, { requestsPerSecond: 1234 }), { url: 'http://10.0.0.2:8080/hello', connections: 50, requestsPerSecond: 1234 });
  assert.equal(runRate(profile, { load: { model: 'closed', connections: 50 } }, null), null);
  assert.equal(runRate({ nonsense: true }, {}, { requestsPerSecond: 1 }), null);
});
