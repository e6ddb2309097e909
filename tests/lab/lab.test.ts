// Tests of the lab against the real thing: namespaces, bridge, sshd, PAM limits and private /etc
// copies, checked over real SSH, with one client and then with two. It builds its own lab instance
// ("selftest", 10.231.1.0/24) so the default lab that other tests use is never torn down under them.

import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { openDatabase } from '../../main/services/store/database.ts';
import { HostsRepository } from '../../main/services/hosts/hosts-repository.ts';
import {
  labDown,
  labExec,
  labLayout,
  labRegenerateHostKey,
  labSetLink,
  labSsh,
  labStatus,
  labSudoPassword,
  labUp,
  registerHosts,
  type LabHostKey,
  type LabRole,
} from './lab.ts';
import { isAlive, listPids, readCmdline, tryRun, type RunResult } from './system.ts';
import { labSkipReason } from '../support/lab-hosts.ts';
import { until } from '../support/until.ts';

const instance = 'selftest';
const skip = labSkipReason() ?? false;
const layout = labLayout(instance);
const server = layout.hosts.server;
const client = layout.hosts.client;
const LAB_CLI = fileURLToPath(new URL('./lab-cli.ts', import.meta.url));

/** ssh as a first-time user would: the lab key, no known_hosts, no prompts, bounded in time. */
function sshAs(user: string, role: LabRole, command: string, input?: string): Promise<RunResult> {
  const host = layout.hosts[role];
  const args = [
    '-F', '/dev/null',
    '-i', layout.keyPath,
    '-o', 'IdentitiesOnly=yes',
    '-o', 'StrictHostKeyChecking=no',
    '-o', 'UserKnownHostsFile=/dev/null',
    '-o', 'BatchMode=yes',
    '-o', 'ConnectTimeout=5',
    '-o', 'LogLevel=ERROR',
    `${user}@${host.address}`,
    command,
  ];
  return tryRun('ssh', args, { timeoutMs: 20_000, ...(input === undefined ? {} : { input }) });
}

function ssh(role: LabRole, command: string): Promise<RunResult> {
  return sshAs('root', role, command);
}

async function sshOk(role: LabRole, command: string): Promise<string> {
  const result = await ssh(role, command);
  assert.equal(result.code, 0, `ssh ${role} \`${command}\` failed: ${result.stderr}`);
  return result.stdout;
}

/** Refuses to write a machine path over ssh unless the host has its own copy mounted there. */
async function assertPrivateMount(role: LabRole, path: string): Promise<void> {
  const mounts = await sshOk(role, 'cat /proc/self/mounts');
  const mounted = mounts.split('\n').some((line) => line.split(' ')[1] === path);
  assert.ok(mounted, `${path} is not a private mount in the ${role} host: refusing to write the machine's file`);
}

function tcpReachable(address: string, port: number, timeoutMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: address, port });
    const done = (reachable: boolean) => {
      socket.destroy();
      resolve(reachable);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

function mountsText(): string {
  return readFileSync('/proc/mounts', 'utf8');
}

test('the two-host lab', { timeout: 180_000, skip }, async (t) => {
  // Start from nothing, whatever an interrupted earlier run left.
  await labDown({ instance });
  const canary = `90-benchlab-lab-canary-${randomBytes(4).toString('hex')}.conf`;

  try {
    const up = await labUp({ instance });
    t.diagnostic(`labUp took ${up.seconds} s`);
    assert.equal(up.alreadyUp, false);
    assert.equal(up.status.state, 'up', up.status.problems.join('; '));

    await t.test('each host answers ssh with its own hostname', async () => {
      assert.equal((await sshOk('server', 'hostname')).trim(), 'bl-server');
      assert.equal((await sshOk('client', 'hostname')).trim(), 'bl-client');
    });

    await t.test('the client reaches the server across the bridge, and names resolve inside', async () => {
      await sshOk('client', `exec 3<>/dev/tcp/${server.address}/22 && head -c 8 <&3`);
      assert.equal((await sshOk('client', 'getent hosts bl-server')).trim().split(/\s+/)[0], server.address);
    });

    await t.test('a file written into /etc/sysctl.d on the server stays in the server', async () => {
      await assertPrivateMount('server', '/etc/sysctl.d');
      await sshOk('server', `echo 'net.ipv4.tcp_tw_reuse = 1' > /etc/sysctl.d/${canary}`);
      assert.equal((await sshOk('server', `cat /etc/sysctl.d/${canary}`)).trim(), 'net.ipv4.tcp_tw_reuse = 1');
      assert.ok(existsSync(join(server.privateCopies['/etc/sysctl.d'], canary)), 'the file is in the lab-owned directory');
      assert.equal(existsSync(join('/etc/sysctl.d', canary)), false, 'the machine /etc/sysctl.d must not see it');
      assert.equal((await ssh('client', `test -e /etc/sysctl.d/${canary}`)).code, 1, 'the client host must not see it');
    });

    await t.test('a net sysctl set in one namespace changes neither the other host nor the root namespace', async () => {
      const rootBefore = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8');
      const clientBefore = await sshOk('client', 'cat /proc/sys/net/ipv4/ip_local_port_range');
      assert.notEqual(rootBefore.trim().replace(/\s+/g, ' '), '18000 65535', 'precondition: the root value differs from the one set');
      const set = await tryRun('ip', ['netns', 'exec', server.namespace, 'sysctl', '-w', 'net.ipv4.ip_local_port_range=18000 65535']);
      assert.equal(set.code, 0, set.stderr);
      assert.equal((await sshOk('server', 'cat /proc/sys/net/ipv4/ip_local_port_range')).trim().replace(/\s+/g, ' '), '18000 65535');
      assert.equal(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8'), rootBefore);
      assert.equal(await sshOk('client', 'cat /proc/sys/net/ipv4/ip_local_port_range'), clientBefore);
    });

    await t.test('machine-wide sysctls are read-only inside a host, net.* stays writable', async () => {
      const fileMax = readFileSync('/proc/sys/fs/file-max', 'utf8').trim();
      // Writing the machine's own value: harmless even if the guard failed.
      const attempt = await ssh('server', `sysctl -w fs.file-max=${fileMax}`);
      assert.notEqual(attempt.code, 0, 'fs.file-max must not be writable from a lab host');
      assert.match(attempt.stderr, /permission denied|read-only/i);
      await sshOk('server', 'sysctl -w net.ipv4.tcp_tw_reuse=1');
    });

    await t.test('pam_limits applies the host private limits.d at ssh login', async () => {
      assert.notEqual((await sshOk('server', 'ulimit -Sn')).trim(), '12345', 'precondition');
      await assertPrivateMount('server', '/etc/security/limits.d');
      await sshOk('server', "printf 'root soft nofile 12345\\nroot hard nofile 15000\\n' > /etc/security/limits.d/90-benchlab-lab-test.conf");
      assert.equal(existsSync('/etc/security/limits.d/90-benchlab-lab-test.conf'), false, 'the machine limits.d must not see it');
      assert.deepEqual((await sshOk('server', 'ulimit -Sn; ulimit -Hn')).trim().split('\n'), ['12345', '15000']);
      assert.notEqual((await sshOk('client', 'ulimit -Sn')).trim(), '12345', 'the client host keeps its own limits');
    });

    await t.test('limits.conf is a private copy: writing it leaves the machine file alone', async () => {
      const machineBefore = readFileSync('/etc/security/limits.conf', 'utf8');
      assert.equal(await sshOk('server', 'cat /etc/security/limits.conf'), machineBefore, 'it starts as a copy of the machine file');
      await assertPrivateMount('server', '/etc/security/limits.conf');
      await sshOk('server', "echo 'root soft nproc 4321' >> /etc/security/limits.conf");
      assert.equal(readFileSync('/etc/security/limits.conf', 'utf8'), machineBefore);
      assert.match(readFileSync(server.privateCopies['/etc/security/limits.conf'], 'utf8'), /root soft nproc 4321/);
      assert.equal((await sshOk('server', 'ulimit -Su')).trim(), '4321');
      assert.doesNotMatch(await sshOk('client', 'cat /etc/security/limits.conf'), /4321/);
    });

    await t.test('sshd logs logins at VERBOSE level into the lab log of each host', () => {
      const serverLog = readFileSync(server.logFile, 'utf8');
      assert.match(serverLog, /Accepted key ED25519 SHA256:\S+ found at /, 'VERBOSE detail is logged');
      assert.match(serverLog, new RegExp(`Accepted publickey for root from ${layout.bridgeAddress.replace(/\./g, '\\.')} `));
      assert.match(readFileSync(client.logFile, 'utf8'), /Accepted publickey for root/);
    });

    await t.test('the sudo user logs in with the lab key, and sudo takes its password on stdin', async () => {
      const password = labSudoPassword();
      assert.ok(password, 'the lab knows the password of the sudo user it created');
      const result = await sshAs('benchlab', 'server', "sudo -S -p '' -- id -u", `${password}\n`);
      assert.equal(result.code, 0, result.stderr);
      assert.equal(result.stdout.trim(), '0');
    });

    await t.test('labExec and labSsh reach the same host', async () => {
      const inside = await labExec('server', ['hostname'], { instance });
      assert.equal(inside.stdout.trim(), 'bl-server');
      const viaSsh = await labSsh('client', 'hostname', { instance });
      assert.equal(viaSsh.code, 0, viaSsh.stderr);
      assert.equal(viaSsh.stdout.trim(), 'bl-client');
    });

    await t.test('a regenerated host key is refused against the old pin before any authentication', async () => {
      const pinned = join(mkdtempSync(join(tmpdir(), 'benchlab-lab-test-')), 'known_hosts');
      copyFileSync(layout.knownHostsPath, pinned);
      const before = (await labStatus({ instance })).hosts.server.hostKeyFingerprint;
      const after = await labRegenerateHostKey('server', { instance });
      assert.notEqual(after, before);
      const logOffset = readFileSync(server.logFile, 'utf8').length;
      const refused = await tryRun(
        'ssh',
        ['-F', '/dev/null', '-i', layout.keyPath, '-o', 'IdentitiesOnly=yes', '-o', 'BatchMode=yes', '-o', 'StrictHostKeyChecking=yes',
          '-o', `UserKnownHostsFile=${pinned}`, '-o', 'GlobalKnownHostsFile=/dev/null', '-o', 'ConnectTimeout=5', `root@${server.address}`, 'true'],
        { timeoutMs: 20_000 },
      );
      rmSync(pinned, { force: true });
      assert.equal(refused.code, 255);
      assert.match(refused.stderr, /REMOTE HOST IDENTIFICATION HAS CHANGED/);
      const newLines = readFileSync(server.logFile, 'utf8').slice(logOffset);
      assert.match(newLines, /Connection from /, 'the connection reached sshd');
      assert.doesNotMatch(newLines, /Accepted|Failed|Postponed|authenticating user|Invalid user/);
      // The lab's own known_hosts follows the new key.
      const fresh = await labSsh('server', 'hostname', { instance });
      assert.equal(fresh.code, 0, fresh.stderr);
    });

    await t.test('a link taken down makes its host unreachable until it comes back up', async () => {
      assert.equal(await tcpReachable(server.address, 22, 2000), true);
      await labSetLink('server', 'down', { instance });
      try {
        assert.equal(await tcpReachable(server.address, 22, 1500), false);
        assert.equal((await labStatus({ instance })).state, 'broken');
      } finally {
        await labSetLink('server', 'up', { instance });
      }
      assert.equal(await tcpReachable(server.address, 22, 2000), true);
    });

    await t.test('up again leaves the running lab as it is', async () => {
      const before = await labStatus({ instance });
      const again = await labUp({ instance });
      assert.equal(again.alreadyUp, true);
      assert.equal(again.status.hosts.server.sshdPid, before.hosts.server.sshdPid);
      assert.equal(again.status.hosts.client.sshdPid, before.hosts.client.sshdPid);
      assert.equal((await sshOk('server', `cat /etc/sysctl.d/${canary}`)).trim(), 'net.ipv4.tcp_tw_reuse = 1', 'host state kept');
    });

    await t.test('up rebuilds a broken lab', async () => {
      const pid = (await labStatus({ instance })).hosts.server.sshdPid;
      assert.ok(pid);
      process.kill(pid, 'SIGKILL');
      assert.equal((await labStatus({ instance })).state, 'broken');
      const rebuilt = await labUp({ instance });
      assert.equal(rebuilt.rebuilt, true);
      assert.equal(rebuilt.status.state, 'up');
      assert.equal((await sshOk('server', 'hostname')).trim(), 'bl-server');
    });

    await t.test('register adds both hosts to a Benchlab store once', async () => {
      const dataDir = mkdtempSync(join(tmpdir(), 'benchlab-lab-store-'));
      try {
        const first = await registerHosts(layout, dataDir);
        assert.deepEqual(first.added, ['lab-client', 'lab-server']);
        const second = await registerHosts(layout, dataDir);
        assert.deepEqual(second.added, []);
        assert.deepEqual(second.skipped.map((entry) => entry.name), ['lab-client', 'lab-server']);
        const { db } = openDatabase(dataDir);
        try {
          const hosts = new HostsRepository(db).list();
          assert.deepEqual(
            hosts.map((host) => [host.name, host.address, host.port, host.user, host.auth, host.keyPath]),
            [
              ['lab-client', client.address, 22, 'root', 'key', layout.keyPath],
              ['lab-server', server.address, 22, 'root', 'key', layout.keyPath],
            ],
          );
        } finally {
          db.close();
        }
      } finally {
        rmSync(dataDir, { recursive: true, force: true });
      }
    });

    await t.test('the CLI reports status as JSON', async () => {
      const result = await tryRun(process.execPath, [LAB_CLI, 'status', '--json', '--instance', instance], { timeoutMs: 20_000 });
      assert.equal(result.code, 0, result.stderr);
      const status = JSON.parse(result.stdout) as { state: string; hosts: { server: { reportedHostname: string } } };
      assert.equal(status.state, 'up');
      assert.equal(status.hosts.server.reportedHostname, 'bl-server');
    });

    await t.test('down leaves no namespace, link, mount or process behind', async () => {
      const status = await labStatus({ instance });
      const sshdPids = [status.hosts.client.sshdPid, status.hosts.server.sshdPid].filter((pid): pid is number => pid !== null);
      assert.equal(sshdPids.length, 2);
      // A login still open at down time must not keep anything alive. It is in once its command
      // (a sleep of a length nothing else here uses) runs.
      const lingering = sshAs('root', 'server', 'sleep 67');
      await until(() => listPids().some((pid) => readCmdline(pid)?.join(' ') === 'sleep 67'), 'the login’s command to run', 10_000);

      const down = await labDown({ instance });
      assert.deepEqual(down.leftovers, []);
      await lingering;

      const namespaces = (await tryRun('ip', ['netns', 'list'])).stdout;
      for (const role of ['client', 'server'] as const) assert.doesNotMatch(namespaces, new RegExp(`^${layout.hosts[role].namespace}\\b`, 'm'));
      const links = (await tryRun('ip', ['-o', 'link', 'show'])).stdout;
      for (const name of [layout.bridge, client.vethRoot, server.vethRoot]) assert.doesNotMatch(links, new RegExp(`: ${name}[@:]`));
      const mounts = mountsText();
      assert.equal(mounts.includes(layout.runDir), false, 'no lab mount');
      assert.equal(mounts.includes(`/run/netns/${server.namespace}`) || mounts.includes(`/run/netns/${client.namespace}`), false);
      for (const pid of sshdPids) assert.equal(isAlive(pid), false, `sshd ${pid} is gone`);
      const labProcesses = listPids().filter((pid) => isAlive(pid) && (readCmdline(pid)?.join(' ').includes(layout.runDir) ?? false));
      assert.deepEqual(labProcesses, []);
      assert.equal(existsSync(layout.runDir), false);
      assert.equal(existsSync(join('/etc/sysctl.d', canary)), false);
      assert.equal((await labStatus({ instance })).state, 'down');
    });

    await t.test('keys survive down and up, so pinned host keys stay valid', async () => {
      const fingerprint = (await labStatus({ instance })).hosts.server.hostKeyFingerprint;
      assert.ok(fingerprint);
      const again = await labUp({ instance });
      assert.equal(again.alreadyUp, false);
      assert.equal(again.status.hosts.server.hostKeyFingerprint, fingerprint);
      assert.equal((await sshOk('server', `test -e /etc/sysctl.d/${canary} && echo kept || echo fresh`)).trim(), 'fresh');
      assert.deepEqual((await labDown({ instance })).leftovers, []);
    });
  } finally {
    const final = await labDown({ instance, purge: true });
    assert.deepEqual(final.leftovers, [], 'the lab test leaves nothing behind');
  }
});

test('a lab with two clients', { timeout: 120_000, skip }, async (t) => {
  await labDown({ instance });
  const twoClients = labLayout(instance, 2);
  const second = twoClients.clients[1]!;
  try {
    const up = await labUp({ instance, clients: 2 });
    assert.equal(up.status.state, 'up', up.status.problems.join('; '));
    assert.deepEqual(
      up.status.clients.map((host) => [host.key, host.namespace, host.address, host.reportedHostname]),
      [
        ['client', 'blt-client', '10.231.1.2', 'bl-client'],
        ['client2', 'blt-client2', '10.231.1.4', 'bl-client2'],
      ],
    );
    assert.equal(up.status.hosts.client.key, 'client', 'hosts.client stays the first client');

    await t.test('each client answers ssh with its own sshd and hostname, and reaches the server', async () => {
      const pids = up.status.clients.map((host) => host.sshdPid);
      assert.equal(new Set(pids).size, 2, `two sshds: ${pids.join(', ')}`);
      for (const key of ['client', 'client2'] as const satisfies readonly LabHostKey[]) {
        const answer = await labSsh(key, `hostname && exec 3<>/dev/tcp/${server.address}/22 && head -c 7 <&3`, { instance });
        assert.equal(answer.code, 0, answer.stderr);
        assert.deepEqual(answer.stdout.trim().split('\n'), [`bl-${key}`, 'SSH-2.0']);
      }
      assert.match(readFileSync(second.logFile, 'utf8'), /Accepted publickey for root/, 'the login reached client2’s own sshd');
    });

    await t.test('up without a count leaves the two clients as they are', async () => {
      const again = await labUp({ instance });
      assert.equal(again.alreadyUp, true);
      assert.equal(again.status.clients.length, 2);
    });

    await t.test('register adds every client and the server', async () => {
      const dataDir = mkdtempSync(join(tmpdir(), 'benchlab-lab-store-'));
      try {
        assert.deepEqual((await registerHosts(twoClients, dataDir)).added, ['lab-client', 'lab-client2', 'lab-server']);
      } finally {
        rmSync(dataDir, { recursive: true, force: true });
      }
    });

    await t.test('status and down know every client even when the state file is gone', async () => {
      const sshd = (await labStatus({ instance })).clients[1]!.sshdPid;
      assert.ok(sshd);
      rmSync(twoClients.statePath);
      const status = await labStatus({ instance });
      assert.equal(status.clients.length, 2, 'client2 found by its namespace');
      assert.equal(status.clients[1]!.sshdPid, sshd);
      const down = await labDown({ instance });
      assert.deepEqual(down.leftovers, []);
      const namespaces = (await tryRun('ip', ['netns', 'list'])).stdout;
      assert.doesNotMatch(namespaces, /^blt-/m, 'no namespace of the instance is left');
      const links = (await tryRun('ip', ['-o', 'link', 'show'])).stdout;
      assert.doesNotMatch(links, /: blt-/, 'no link of the instance is left');
      assert.equal(isAlive(sshd), false, 'client2’s sshd is gone');
      assert.equal((await labStatus({ instance })).state, 'down');
    });

    await t.test('up with another count rebuilds the lab with that many clients', async () => {
      await labUp({ instance, clients: 2 });
      const one = await labUp({ instance, clients: 1 });
      assert.equal(one.rebuilt, true);
      assert.equal(one.status.clients.length, 1);
      assert.equal(existsSync(`/run/netns/${second.namespace}`), false, 'client2 went');
    });
  } finally {
    const final = await labDown({ instance, purge: true });
    assert.deepEqual(final.leftovers, [], 'the lab test leaves nothing behind');
  }
});
