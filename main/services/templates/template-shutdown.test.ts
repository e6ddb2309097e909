// The template service at shutdown, against a host that never answers (a fake transport whose
// commands hang until aborted): a deploy in progress is cancelled and shutdown resolves once it has
// ended; a deploy asked for afterwards is refused as unavailable.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import type { Host } from '../../../app/hosts/hosts.ts';
import type { Deployment } from '../../../app/templates/templates-contract.ts';
import { EventBus } from '../event-bus.ts';
import type { HostTransport } from '../hosts/host-transport.ts';
import { Logger } from '../logger.ts';
import { openDatabase } from '../store/database.ts';
import { EventsRepository } from '../store/events-repository.ts';
import { within } from '../../../tests/support/until.ts';
import { TemplateService } from './template-service.ts';

const dir = mkdtempSync(join(tmpdir(), 'benchlab-template-shutdown-'));
const { db } = openDatabase(join(dir, 'data'));
after(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A host whose every command hangs until its signal aborts it. */
const hangingTransport = {
  kind: 'ssh',
  user: 'root',
  exec: (_command: string, options?: { signal?: AbortSignal }) =>
    new Promise((_resolve, reject) => options?.signal?.addEventListener('abort', () => reject(new Error('aborted')), { once: true })),
  close: () => undefined,
} as unknown as HostTransport;

test('shutdown cancels a deploy in progress, waits for it, and refuses a new one', async () => {
  const bus = new EventBus();
  const progress: Deployment[] = [];
  bus.subscribe('templates.progress', (deployment) => progress.push(deployment));
  const templates = new TemplateService({
    bus,
    log: new Logger(new EventsRepository(db), bus),
    hosts: { get: (id) => ({ id, name: 'slow host', kind: 'ssh', address: '10.0.0.1' }) as Host },
    connections: { transportFor: () => hangingTransport, sudoPasswordFor: () => undefined },
    cacheDir: join(dir, 'cache'),
    buildDir: join(dir, 'builds'),
  });
  const deploying = templates.deploy(1, 'node', {});
  const outcome = deploying.then(
    () => 'deployed',
    (error: { code?: string }) => error.code,
  );
  await within(
    new Promise<void>((done) => bus.subscribe('templates.progress', (deployment) => deployment.state === 'checking' && done())),
    'the deploy to start checking the host',
    10_000,
  );

  await within(templates.shutdown(), 'shutdown to end the deploy', 10_000);
  assert.equal(await outcome, 'cancelled', 'the deploy in progress was cancelled');
  assert.equal(progress.at(-1)?.state, 'stopped');
  await assert.rejects(templates.deploy(1, 'node', {}), { code: 'unavailable', message: /shutting down/ });
  templates.close();
});
