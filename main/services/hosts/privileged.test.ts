// sudo on the lab as a non-root user: the password travels on stdin only — never in any process's
// command line (polled while sudo runs), the logs, or the SQLite file — and a wrong one fails fast.

import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { labLayout, labSudoPassword, SUDO_USER } from '../../../tests/lab/lab.ts';
import { connectAsSudoUser, labSkipReason, labTargets } from '../../../tests/support/lab-hosts.ts';
import { within } from '../../../tests/support/until.ts';
import { createServices } from '../services.ts';
import { runPrivileged } from './privileged.ts';

const skip = labSkipReason({ sudoUser: true });

/** Every process's command line on this machine (the lab's namespaces share our PID namespace). */
function allCommandLines(): string[] {
  const lines: string[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      lines.push(readFileSync(`/proc/${entry}/cmdline`, 'latin1'));
    } catch {
      // the process ended between listing and reading
    }
  }
  return lines;
}

describe('sudo on a lab host as a non-root user', { skip: skip ?? false }, () => {
  test('the password never shows in /proc/*/cmdline, logs or the database', async () => {
    const targets = await labTargets();
    const password = labSudoPassword()!;
    const dataDir = mkdtempSync(join(tmpdir(), 'benchlab-sudo-'));
    const services = createServices({ dataDir, transport: 'cli', version: 'test' });
    after(async () => {
      await services.close();
      rmSync(dataDir, { recursive: true, force: true });
    });

    const hostId = await connectAsSudoUser(services, targets.server, 'server');
    const transport = services.connections.transportFor(hostId);
    assert.equal(transport.user, SUDO_USER);

    let polls = 0;
    let leaked: string | null = null;
    const poller = setInterval(() => {
      polls++;
      leaked ??= allCommandLines().find((line) => line.includes(password)) ?? null;
    }, 5);
    try {
      const result = await runPrivileged(transport, 'sleep 1; id -u', { sudoPassword: services.connections.sudoPasswordFor(hostId) });
      assert.equal(result.stdout.trim(), '0', result.stderr);
    } finally {
      clearInterval(poller);
    }
    assert.ok(polls > 20, `polled /proc only ${polls} times`);
    assert.equal(leaked, null, `password found in a command line: ${leaked}`);

    services.log.info('test', 'flush');
    for (const file of [join(dataDir, 'benchlab.db'), join(dataDir, 'benchlab.db-wal')]) {
      if (existsSync(file)) assert.ok(!readFileSync(file).includes(password), `password stored in ${file}`);
    }
    const sshdLog = readFileSync(labLayout('default').hosts.server.logFile, 'utf8');
    assert.ok(!sshdLog.includes(password), 'password in the sshd log');
  });

  test('a wrong sudo password fails with a clear message in under 5 s', async () => {
    const targets = await labTargets();
    const dataDir = mkdtempSync(join(tmpdir(), 'benchlab-sudo-'));
    const services = createServices({ dataDir, transport: 'cli', version: 'test' });
    after(async () => {
      await services.close();
      rmSync(dataDir, { recursive: true, force: true });
    });
    const host = services.hosts.add({ name: 'server', address: targets.server.address, port: 22, user: SUDO_USER, auth: 'password' });
    services.hosts.pinKey(host.id, targets.server.pinnedFingerprint!);
    await services.connections.connect(host.id, { password: labSudoPassword()! });

    // Refused at once, not after sudo's retries: the wait is bounded, not timed.
    await assert.rejects(within(runPrivileged(services.connections.transportFor(host.id), 'id -u', { sudoPassword: 'not-the-password' }), 'the refusal', 5000), {
      code: 'auth_failed',
      message: /wrong password/,
    });

    await assert.rejects(runPrivileged(services.connections.transportFor(host.id), 'id -u'), { code: 'password_required' });
  });
});
