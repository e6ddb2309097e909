// The one check per connect: registered parts run in order on each connect, work waits for them,
// a failing part is logged under its owner and does not stop the parts after it.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import type { LogLine } from '../../../app/contract.ts';
import { EventBus } from '../event-bus.ts';
import { Logger } from '../logger.ts';
import { openDatabase } from '../store/database.ts';
import { EventsRepository } from '../store/events-repository.ts';
import { ConnectChecks } from './connect-checks.ts';

const dir = mkdtempSync(join(tmpdir(), 'benchlab-connect-checks-'));
const db = openDatabase(dir).db;
after(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

function setUp(connected: (hostId: number) => boolean = () => true) {
  const bus = new EventBus();
  const lines: LogLine[] = [];
  bus.subscribe('log', (line) => lines.push(line));
  const checks = new ConnectChecks({ bus, log: new Logger(new EventsRepository(db), bus), hosts: { get: (id) => ({ name: `host-${id}` }) }, isConnected: connected });
  const connect = (hostId: number) => bus.publish('hosts.connection', { hostId, state: 'connected', message: null, since: new Date().toISOString(), unresponsiveSince: null });
  return { bus, lines, checks, connect };
}

/** A promise with its resolve function, so a test decides when a check ends. */
function gate(): { promise: Promise<void>; open: () => void } {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}

test('each connect runs every registered part in order, and settled() waits for all of them', async () => {
  const { checks, connect } = setUp();
  const order: string[] = [];
  const first = gate();
  const firstStarted = gate();
  checks.register({ owner: 'templates', what: 'servers', run: async (id) => { order.push(`servers ${id}`); firstStarted.open(); await first.promise; } });
  checks.register({ owner: 'runs', what: 'agents', run: async (id) => { order.push(`agents ${id}`); } });
  connect(7);
  let settled = false;
  const waiting = checks.settled(7).then(() => (settled = true));
  await firstStarted.promise;
  assert.deepEqual(order, ['servers 7']);
  assert.equal(settled, false);
  first.open();
  await waiting;
  assert.deepEqual(order, ['servers 7', 'agents 7']);
  checks.close();
});

test('a host that was never connected has nothing to wait for', async () => {
  const { checks } = setUp();
  checks.register({ owner: 'runs', what: 'agents', run: () => assert.fail('no connect, no check') });
  await checks.settled(3);
  checks.close();
});

test('a second connect queues behind the first: the parts never run twice at once on one host', async () => {
  const { checks, connect } = setUp();
  let running = 0;
  let most = 0;
  const gates = [gate(), gate()];
  let call = 0;
  checks.register({
    owner: 'runs',
    what: 'agents',
    run: async () => {
      running++;
      most = Math.max(most, running);
      await gates[call++]!.promise;
      running--;
    },
  });
  connect(1);
  connect(1);
  gates[0]!.open();
  gates[1]!.open();
  await checks.settled(1);
  assert.equal(call, 2);
  assert.equal(most, 1);
  checks.close();
});

test('a failing part is logged with the host name under its owner, and the next part still runs', async () => {
  const { checks, connect, lines } = setUp();
  let agentsChecked = false;
  checks.register({ owner: 'templates', what: 'servers left by an earlier session', run: () => Promise.reject(new Error('permission denied')) });
  checks.register({ owner: 'runs', what: 'agents', run: async () => void (agentsChecked = true) });
  connect(4);
  await checks.settled(4);
  assert.equal(agentsChecked, true);
  const warning = lines.find((line) => line.source === 'templates');
  assert.equal(warning?.level, 'warn');
  assert.equal(warning?.message, 'host-4: could not check for servers left by an earlier session: permission denied');
  checks.close();
});

test('a part cut short because the host dropped again is only a debug line', async () => {
  const { checks, connect, lines } = setUp(() => false);
  checks.register({ owner: 'runs', what: 'agents', run: () => Promise.reject(new Error('not connected')) });
  connect(5);
  await checks.settled(5);
  assert.deepEqual(lines.filter((line) => line.source === 'runs').map((line) => line.level), ['debug']);
  checks.close();
});

test('after close(), connects run nothing', async () => {
  const { checks, connect } = setUp();
  checks.register({ owner: 'runs', what: 'agents', run: () => assert.fail('closed') });
  checks.close();
  connect(2);
  await checks.settled(2);
});
