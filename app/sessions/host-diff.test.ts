// The host diff with several clients: sessions with as many clients each are compared client by
// client (the warning names which client differs); sessions whose client sets differ say so and
// compare only their first clients; one-client sessions read as before.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { seedSystemInfo } from '../../tests/support/session-seed.ts';
import { diffHosts } from './host-diff.ts';

const server = seedSystemInfo('server');

test('two sessions of two clients each are compared client by client', () => {
  const diff = diffHosts(
    ['a', 'b'],
    [
      { client: seedSystemInfo('c1'), clients: [seedSystemInfo('c1'), seedSystemInfo('c2')], server },
      { client: seedSystemInfo('c1'), clients: [seedSystemInfo('c1'), seedSystemInfo('c2', { cpuCores: 8 })], server },
    ],
  );
  assert.deepEqual(diff.warnings, ['Not comparable: the client 2 hosts differ in cores.']);
  const cores = diff.rows.filter((row) => row.role === 'client' && row.label === 'cores');
  assert.deepEqual(
    cores.map((row) => [row.clientIndex, row.values, row.differs]),
    [
      [0, ['2', '2'], false],
      [1, ['2', '8'], true],
    ],
  );
  assert.equal(diff.rows.filter((row) => row.role === 'server' && row.clientIndex !== undefined).length, 0);
});

test('sessions with different client sets say so and compare their first clients only', () => {
  const diff = diffHosts(
    ['one', 'two'],
    [
      { client: seedSystemInfo('c1'), server },
      { client: seedSystemInfo('c1', { kernel: '6.1.0' }), clients: [seedSystemInfo('c1', { kernel: '6.1.0' }), seedSystemInfo('c2')], server },
    ],
  );
  assert.deepEqual(diff.warnings, ['Not comparable: the client hosts differ in kernel.', "The client sets differ (1 vs 2 clients): only each session's first client is compared."]);
  assert.ok(diff.rows.every((row) => row.clientIndex === undefined));
});

test('one client each reads as before: no client index, the first client compared', () => {
  const diff = diffHosts(['a', 'b'], [{ client: seedSystemInfo('c1'), clients: [seedSystemInfo('c1')], server }, { client: seedSystemInfo('c9'), server: null }]);
  assert.deepEqual(diff.warnings, ['No server system info for “b”: cannot tell whether the server hosts match.']);
  assert.deepEqual(diff.rows.find((row) => row.role === 'client' && row.label === 'hostname'), { role: 'client', label: 'hostname', values: ['c1', 'c9'], differs: true });
});

test('servers with the same limits under different process names are comparable; different limits are not', () => {
  const limits = { nofile: { soft: '1024', hard: '524288' }, nproc: { soft: '7823', hard: '7823' } };
  const listening = (command: string, nofile = limits.nofile) => ({
    ...server,
    readings: { machineId: null, bootId: null, governors: null, boost: null, loadAverage: null, busy: [], swap: null, listener: { pid: 42, command, limits: { ...limits, nofile } } },
  });
  const client = seedSystemInfo('c1');
  const same = diffHosts(['apache', 'node', 'spring'], [{ client, server: listening('apache2') }, { client, server: listening('node') }, { client, server: listening('java') }]);
  assert.deepEqual(same.warnings, [], 'only the programs differ, which is what two templates are');
  const row = same.rows.find((entry) => entry.label === 'server process limits')!;
  assert.equal(row.differs, false);
  assert.deepEqual(row.values, ['apache2', 'node', 'java'].map((command) => `nofile 1024 / 524288, nproc 7823 / 7823 (${command})`), 'the process is still named');
  const raised = diffHosts(['a', 'b'], [{ client, server: listening('node') }, { client, server: listening('node', { soft: '100000', hard: '100000' }) }]);
  assert.deepEqual(raised.warnings, ['Not comparable: the server hosts differ in server process limits.']);
});
