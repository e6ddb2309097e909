import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Deployment } from '../templates/templates-contract.ts';
import { deploymentServing, runDeploymentOf } from './run-deployment.ts';

const deployment = (change: Partial<Deployment>): Deployment => ({
  hostId: 2,
  hostName: 'server',
  templateId: 'node',
  templateName: 'Node',
  variant: 'async',
  knobs: { workers: 2 },
  port: 8080,
  state: 'ready',
  step: null,
  message: null,
  logTail: [],
  url: 'http://10.0.0.2:8080',
  installOffers: [],
  startedAt: null,
  readyMs: null,
  database: null,
  updatedAt: '2026-01-01T00:00:00.000Z',
  ...change,
});

test('the deployment ready on the chosen server at the target port labels the run', () => {
  const deployments = [deployment({ hostId: 3, templateId: 'tomcat' }), deployment({})];
  assert.deepEqual(deploymentServing(deployments, 2, 'http://10.0.0.2:8080'), { templateId: 'node', variant: 'async', knobs: { workers: 2 } });
});

test('no deployment without a server host, on another port, not ready, or for a bad target', () => {
  const ready = [deployment({})];
  assert.equal(deploymentServing(ready, null, 'http://10.0.0.2:8080'), undefined);
  assert.equal(deploymentServing(ready, 2, 'http://10.0.0.2:9090'), undefined);
  assert.equal(deploymentServing([deployment({ state: 'building' as Deployment['state'] })], 2, 'http://10.0.0.2:8080'), undefined);
  assert.equal(deploymentServing(ready, 2, 'not a url'), undefined);
});

test('a deployment that names its components passes them on to the run; one that does not, none', () => {
  const components = { express: '5.3.0', pg: '8.23.1' };
  assert.deepEqual(runDeploymentOf(deployment({ templateId: 'node-express', components })), { templateId: 'node-express', variant: 'async', knobs: { workers: 2 }, components });
  assert.equal('components' in runDeploymentOf(deployment({})), false);
});

test("a deployment with a private database passes its facts on to the run, so the session records the database's version and settings", () => {
  const database = { kind: 'postgresql' as const, version: '15.14', port: 41234, name: 'benchlab', user: 'benchlab', settings: { shared_buffers: '128MB' } };
  assert.deepEqual(runDeploymentOf(deployment({ database })).database, database);
  assert.equal('database' in runDeploymentOf(deployment({})), false);
});
