// The store watch on a real SQLite file with two connections, as two Benchlab processes have: a
// session another connection adds, changes or deletes is published as `sessions.changed`; this
// connection's own writes and other connections' writes to anything but the sessions are not; it
// polls only while someone listens, and a listener does not keep the process alive.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { afterEach, beforeEach, test } from 'node:test';
import { DraftsRepository } from '../drafts/drafts-repository.ts';
import { EventBus } from '../event-bus.ts';
import { Logger } from '../logger.ts';
import { createServices } from '../services.ts';
import { SessionsRepository } from '../runs/sessions-repository.ts';
import { RunsRepository } from '../runs/runs-repository.ts';
import { testDatabasePerTest } from '../../../tests/support/test-database.ts';
import { within } from '../../../tests/support/until.ts';
import { openDatabase, type Db } from './database.ts';
import { EventsRepository } from './events-repository.ts';
import { StoreWatch } from './store-watch.ts';

const store = testDatabasePerTest('store-watch');
let ours: Db;
let theirs: Db;
let bus: EventBus;
let watch: StoreWatch;

beforeEach(() => {
  // Two connections to one file, as two Benchlab processes have.
  ours = store.db;
  theirs = openDatabase(store.dir).db;
  bus = new EventBus();
  watch = new StoreWatch({ db: ours, bus, log: new Logger(new EventsRepository(ours), bus) });
});

afterEach(() => {
  watch.close();
  theirs.close();
});

test("another connection's new, changed and deleted sessions are published; nothing else is", () => {
  const published: unknown[] = [];
  bus.subscribe('sessions.changed', (payload) => published.push(payload));
  const other = new SessionsRepository(theirs);
  assert.equal(watch.check(), false, 'nothing changed yet');

  const id = other.create({ name: 'from the CLI', status: 'running' }).id;
  assert.equal(watch.check(), true, 'a new session');
  assert.equal(watch.check(), false, 'published once');

  new RunsRepository(theirs).create({ sessionId: id, ordinal: 1, templateId: 'node', variant: 'async' });
  assert.equal(watch.check(), true, 'a new run of a session');
  other.setStatus(id, 'completed', { ended: new Date() });
  assert.equal(watch.check(), true, 'a session that ended');

  new DraftsRepository(theirs).save('wizard', { step: 2 });
  assert.equal(watch.check(), false, 'a change to something else than the sessions');

  other.delete(id);
  assert.equal(watch.check(), true, 'a deleted session');
  assert.deepEqual(published, [{}, {}, {}, {}]);
});

test("this connection's own writes are not published", () => {
  const published: unknown[] = [];
  bus.subscribe('sessions.changed', (payload) => published.push(payload));
  const own = new SessionsRepository(ours);
  const id = own.create({ name: 'from the app itself' }).id;
  own.rename(id, 'renamed here');
  assert.equal(watch.check(), false);
  assert.deepEqual(published, []);
});

test('while someone listens it polls by itself, and a session another connection adds arrives', async () => {
  const services = createServices({ dataDir: store.dir, transport: 'web', version: 'test' });
  try {
    const arrived = new Promise<void>((resolve) => services.bus.subscribe('sessions.changed', () => resolve()));
    new SessionsRepository(theirs).create({ name: 'imported elsewhere' });
    await within(arrived, 'sessions.changed', 10_000);
    assert.equal(services.sessions.list()[0]?.name, 'imported elsewhere');
  } finally {
    await services.close();
  }
});

test('a process whose services have a listener still ends by itself', async () => {
  const services = resolve(import.meta.dirname, '..', 'services.ts');
  const script = `
    import { createServices } from ${JSON.stringify(services)};
    const services = createServices({ dataDir: ${JSON.stringify(store.dir)}, transport: 'web', version: 'test' });
    services.bus.subscribe('sessions.changed', () => {});
  `;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'ignore', 'inherit'] });
  const code = await within(new Promise<number | null>((done) => child.once('exit', done)), 'the process to end on its own', 20_000).finally(() => child.kill('SIGKILL'));
  assert.equal(code, 0);
});
