// System info and reachability against real hosts: the lab's sshd hosts over SshTransport (needs
// Linux and root; skipped otherwise) and this machine over LocalTransport. The lab is shared with
// other test files, so this file brings it up (idempotent) and never takes it down.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { hostname } from 'node:os';
import { test } from 'node:test';
import { TRACKED_SYSCTLS } from '../../../app/hosts/system-info.ts';
import { labSsh, labUp } from '../../../tests/lab/lab.ts';
import { labSkipReason } from '../../../tests/support/lab-hosts.ts';
import { SshTransport } from './ssh-transport.ts';
import { LocalTransport } from './local-transport.ts';
import { collectSystemInfo, measureReachability } from './system-info.ts';

const LIMIT = /^(\d+|unlimited)$/;

test('system info and reachability of the lab hosts over SSH', { timeout: 120_000 }, async (t) => {
  const unsupported = labSkipReason();
  if (unsupported) {
    t.skip(`skipped: ${unsupported}`);
    return;
  }
  const { status } = await labUp();
  assert.equal(status.state, 'up', status.problems.join('; '));

  const connect = (role: 'client' | 'server') => {
    const host = status.hosts[role];
    return SshTransport.connect({
      label: `lab-${role}`,
      address: host.address,
      port: host.port,
      user: 'root',
      auth: 'key',
      keyPath: status.keyPath,
      pinnedFingerprint: host.hostKeyFingerprint,
    });
  };
  const server = await connect('server');
  const client = await connect('client');
  try {
    await t.test('collectSystemInfo reads bl-server', async () => {
      const info = await collectSystemInfo(server);
      t.diagnostic(JSON.stringify(info));
      assert.equal(info.hostname, 'bl-server');
      // The lab hosts are namespaces of this machine: same kernel.
      assert.equal(info.kernel, execFileSync('uname', ['-r'], { encoding: 'utf8' }).trim());
      assert.equal(info.arch, execFileSync('uname', ['-m'], { encoding: 'utf8' }).trim());
      assert.notEqual(info.distro, 'unknown');
      assert.notEqual(info.cpuModel, 'unknown');
      assert.ok(info.cpuCores > 0);
      assert.ok(info.memoryBytes > 0);
      for (const limit of [info.limits.nofile, info.limits.nproc]) {
        assert.match(limit.soft, LIMIT);
        assert.match(limit.hard, LIMIT);
      }
      assert.deepEqual(Object.keys(info.sysctls).sort(), [...TRACKED_SYSCTLS].sort());
      assert.match(info.sysctls['net.ipv4.ip_local_port_range'] ?? '', /^\d+ \d+$/);
      assert.ok(info.runtimes.node === null || info.runtimes.node.startsWith('v'), String(info.runtimes.node));
      assert.ok(!Number.isNaN(Date.parse(info.takenAt)));
    });

    await t.test('the limits are those of a fresh SSH login', async () => {
      const info = await collectSystemInfo(server);
      const login = await labSsh('server', 'ulimit -Sn; ulimit -Hn');
      assert.equal(login.code, 0, login.stderr);
      assert.deepEqual(login.stdout.trim().split('\n'), [info.limits.nofile.soft, info.limits.nofile.hard]);
    });

    await t.test('bl-client reaches bl-server:22 and times the round trip', async () => {
      const result = await measureReachability(client, { address: status.hosts.server.address, port: 22 }, { from: 1, to: 2 });
      t.diagnostic(JSON.stringify(result));
      assert.equal(result.reachable, true, result.message ?? '');
      assert.equal(result.from, 1);
      assert.equal(result.to, 2);
      assert.ok(result.rttMs !== null && result.rttMs >= 0, String(result.rttMs));
    });

    // "Quickly": refused, not timed out (how long it takes is not asserted: speed is for npm run bench).
    await t.test('a closed port is unreachable, quickly and with a clear message', async () => {
      const started = performance.now();
      const result = await measureReachability(client, { address: status.hosts.server.address, port: 1 }, { from: 1, to: 2 });
      const seconds = (performance.now() - started) / 1000;
      t.diagnostic(`${JSON.stringify(result)} in ${seconds.toFixed(2)} s`);
      assert.equal(result.reachable, false);
      assert.equal(result.rttMs, null);
      assert.match(result.message ?? '', /refused/);
    });

    await t.test('an address nobody holds is unreachable within the connect bound', async () => {
      // In the lab subnet but unassigned: no ARP answer, so the connect hangs until our bound or the
      // kernel's "no route to host", whichever comes first.
      const started = performance.now();
      const result = await measureReachability(client, { address: '10.231.0.250', port: 22 }, { from: 1, to: 2 });
      const seconds = (performance.now() - started) / 1000;
      t.diagnostic(`${JSON.stringify(result)} in ${seconds.toFixed(2)} s`);
      assert.equal(result.reachable, false);
      // The message says which bound ended the wait: ours (3 s) or the kernel's.
      assert.match(result.message ?? '', /no answer from 10\.231\.0\.250:22 within 3 s|no route to 10\.231\.0\.250/);
    });
  } finally {
    server.close();
    client.close();
  }
});

test('system info of this machine over LocalTransport', { timeout: 60_000 }, async (t) => {
  if (process.platform !== 'linux') {
    t.skip('skipped: the system info script reads /proc (Linux)');
    return;
  }
  const info = await collectSystemInfo(new LocalTransport());
  assert.equal(info.hostname, hostname());
  assert.ok(info.cpuCores > 0);
  assert.ok(info.memoryBytes > 0);
  assert.deepEqual(Object.keys(info.sysctls).sort(), [...TRACKED_SYSCTLS].sort());
  assert.ok(info.runtimes.node === null || info.runtimes.node.startsWith('v'));
});
