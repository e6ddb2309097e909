// The dispatcher during shutdown (real services on a temporary data dir): a request admitted before
// shutdown began is awaited and answered, one that arrives after is refused as unavailable.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setImmediate } from 'node:timers/promises';
import { afterEach, beforeEach, test } from 'node:test';
import type { AppInfo } from '../../app/contract.ts';
import { createServices, type Services } from '../services/services.ts';
import { createDispatcher } from './dispatch.ts';
import { createHandlers } from './handlers.ts';

let dir: string;
let services: Services;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'benchlab-dispatch-'));
  services = createServices({ dataDir: dir, transport: 'web', version: 'test' });
});

afterEach(async () => {
  await services.close();
  rmSync(dir, { recursive: true, force: true });
});

test('once shutdown has begun, requests are refused while one admitted before is awaited', async () => {
  let answer!: (info: AppInfo) => void;
  const slow = new Promise<AppInfo>((resolve) => (answer = resolve));
  const handlers = { ...createHandlers(services), 'app.info': () => slow };
  const dispatch = createDispatcher(handlers, (error) => assert.fail(String(error)), services.requests);

  const admitted = dispatch('app.info', {});
  let closed = false;
  const closing = services.close().then(() => (closed = true));

  const refused = await dispatch('hosts.list', {});
  assert.deepEqual(refused, { ok: false, error: { code: 'unavailable', message: 'Benchlab is shutting down: start it again to go on' } });
  assert.equal((await dispatch('no.such', {})).ok, false, 'an unknown name is still unknown');

  await setImmediate();
  assert.equal(closed, false, 'the close waits for the request admitted before it');
  assert.ok(services.db.open, 'the store stays open meanwhile');
  answer(services.info());
  assert.equal((await admitted).ok, true, 'the admitted request is answered');
  await closing;
  assert.equal(services.db.open, false, 'then the store is closed');
});

test('a request whose write finds the store full is refused as unavailable, saying so, and stores nothing', async () => {
  const dispatch = createDispatcher(createHandlers(services), () => {}, services.requests);
  // A real SQLITE_FULL: the file may not grow past the pages it has.
  const pages = services.db.pragma('page_count', { simple: true }) as number;
  services.db.pragma(`max_page_count = ${pages}`);
  const hosts = Array.from({ length: 200 }, (_, i) => ({ name: `full-${i}-${'x'.repeat(50)}`, address: `10.9.${i >> 8}.${i & 255}`, port: 22, user: 'root', auth: 'agent' }));
  let refused: unknown = null;
  let refusedName = '';
  for (const host of hosts) {
    const outcome = await dispatch('hosts.add', host);
    if (!outcome.ok) {
      refused = outcome.error;
      refusedName = host.name;
      break;
    }
  }
  assert.ok(!services.hosts.list().some((host) => host.name === refusedName), 'the refused host is not stored');
  assert.deepEqual(refused, { code: 'unavailable', message: 'hosts.add: the data disk is full, nothing was stored; free space and try again' });
});

test('a request without a usable name is told what is wrong with it', async () => {
  const dispatch = createDispatcher(createHandlers(services), (error) => assert.fail(String(error)));
  const message = async (name: unknown) => {
    const outcome = await dispatch(name, {});
    assert.ok(!outcome.ok && outcome.error.code === 'unknown_request');
    return outcome.error.message;
  };
  assert.equal(await message(42), `the request's name must be text such as "app.info", not the number 42`);
  assert.equal(await message(['app.info']), `the request's name must be text such as "app.info", not a list`);
  assert.equal(await message(undefined), 'the request has no name: send {"name": "<capability>.<request>", "args": {…}}');
  assert.equal(await message('no.such'), 'unknown request "no.such"');
});
