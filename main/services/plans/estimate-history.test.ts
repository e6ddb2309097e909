// The estimates' history on a real SQLite file: a deploy announced ready is recorded once (however
// often it is announced again), completed sessions give their planned load and how long they took,
// and the basis learned from them is what the plan estimates with.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, test } from 'node:test';
import type { Deployment } from '../../../app/templates/templates-contract.ts';
import { EventBus } from '../event-bus.ts';
import { HostsRepository } from '../hosts/hosts-repository.ts';
import { RunsRepository } from '../runs/runs-repository.ts';
import { SessionsRepository } from '../runs/sessions-repository.ts';
import type { RunSummary } from '../../../app/runs/run-summary-schema.ts';
import { openDatabase, type Db } from '../store/database.ts';
import { EstimateHistory } from './estimate-history.ts';
import { EstimatesRepository } from './estimates-repository.ts';

let dir: string;
let db: Db;
let bus: EventBus;
let history: EstimateHistory;
let serverId: number;

const profile = { target: 'http://10.0.0.1:3000', request: { method: 'GET', path: '/hello', headers: {}, timeoutMs: 1000 }, load: { model: 'closed', connections: 4, pipelining: 1, durationS: 10 }, sweep: [], warmupS: 0, pauseS: 0, bucketsMs: [] };

function ready(change: Partial<Deployment>): Deployment {
  return {
    hostId: serverId,
    hostName: 'server',
    templateId: 'node',
    templateName: 'Node',
    variant: 'async',
    knobs: {},
    port: 3000,
    state: 'ready',
    step: null,
    message: null,
    logTail: [],
    url: 'http://10.0.0.1:3000',
    installOffers: [],
    startedAt: '2026-11-24T10:00:00.000Z',
    readyMs: 4000,
    database: null,
    updatedAt: '2026-11-24T10:00:04.000Z',
    ...change,
  };
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'benchlab-estimates-'));
  db = openDatabase(dir).db;
  bus = new EventBus();
  serverId = new HostsRepository(db).add({ name: 'server', address: '10.0.0.1', port: 22, user: 'root', auth: 'agent' }).id;
  history = new EstimateHistory({ bus, repository: new EstimatesRepository(db) });
});

afterEach(() => {
  history.close();
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

test('nothing stored: no history, and the guesses', () => {
  assert.deepEqual(history.history(), { deploys: [], sessions: [], rates: [] });
  assert.equal(history.basis().deployS(serverId, 'node', 'async'), 30);
});

test('a deploy announced ready is recorded once; one still on its way or failed is not', () => {
  bus.publish('templates.progress', ready({ state: 'building', readyMs: null }));
  bus.publish('templates.progress', ready({}));
  bus.publish('templates.progress', ready({ updatedAt: '2026-11-24T10:00:09.000Z' }));
  bus.publish('templates.progress', ready({ state: 'failed', readyMs: null, startedAt: '2026-11-24T11:00:00.000Z' }));
  bus.publish('templates.progress', ready({ startedAt: '2026-11-24T12:00:00.000Z', readyMs: 8000 }));
  assert.deepEqual(history.history().deploys, [
    { hostId: serverId, templateId: 'node', variant: 'async', seconds: 8 },
    { hostId: serverId, templateId: 'node', variant: 'async', seconds: 4 },
  ]);
  assert.equal(history.basis().deployS(serverId, 'node', 'async'), 6);
});

test('completed sessions give their planned load and what they took; others and count-ended ones do not', () => {
  const sessions = new SessionsRepository(db);
  const add = (status: 'completed' | 'failed', seconds: number, load: Record<string, unknown> = profile.load) => {
    const session = sessions.create({ name: 'run', config: { profile: { ...profile, load } } });
    const started = new Date('2026-11-24T10:00:00.000Z');
    sessions.setStatus(session.id, 'running', { started });
    sessions.setStatus(session.id, status, { ended: new Date(started.getTime() + seconds * 1000) });
  };
  add('completed', 13);
  add('failed', 50);
  add('completed', 14);
  add('completed', 70, { model: 'closed', connections: 4, pipelining: 1, requests: 100 });
  assert.deepEqual(history.history().sessions, [
    { plannedS: 10, tookS: 14 },
    { plannedS: 10, tookS: 13 },
  ]);
  assert.equal(history.basis().loadOverheadS, 4);
});

test('completed runs give the requests/s they got at their URL: a count-ended step is estimated by them', () => {
  const sessions = new SessionsRepository(db);
  const runs = new RunsRepository(db);
  const add = (status: 'completed' | 'failed', requestsPerSecond: number) => {
    const session = sessions.create({ name: 'run', config: { profile } });
    const runId = runs.create({ sessionId: session.id, ordinal: 1, templateId: 'node', variant: 'async', step: { label: 'c=4', load: profile.load } });
    runs.finish(runId, status, { summary: { requestsPerSecond } as RunSummary, histogram: null });
  };
  add('completed', 800);
  add('failed', 5);
  add('completed', 1200);
  assert.deepEqual(history.history().rates, [
    { url: 'http://10.0.0.1:3000/hello', connections: 4, requestsPerSecond: 1200 },
    { url: 'http://10.0.0.1:3000/hello', connections: 4, requestsPerSecond: 800 },
  ]);
  assert.equal(history.basis().answersPerS!('http://10.0.0.1:3000/hello', 4), 1000);
});
