// The SSH transport against the lab's real sshd: host keys checked before any credential,
// clear errors for every bad input, jump hosts, and commands that run.

import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ApiError } from '../../../app/common/errors.ts';
import { labLayout, labRegenerateHostKey } from '../../../tests/lab/lab.ts';
import { labSkipReason, labTargets } from '../../../tests/support/lab-hosts.ts';
import { within } from '../../../tests/support/until.ts';
import { SshTransport, type SshTarget } from './ssh-transport.ts';

const skip = labSkipReason();
const scratch = mkdtempSync(join(tmpdir(), 'benchlab-ssh-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

async function rejection(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof ApiError, `expected an ApiError, got ${String(error)}`);
    return error;
  }
  assert.fail('expected the connection to be refused');
}

/** A user name nobody has: if sshd ever saw an authentication attempt, its log names it. */
const canaryUser = () => `canary${randomBytes(4).toString('hex')}`;

describe('SSH transport on the lab', { skip: skip ?? false }, () => {
  let targets: Awaited<ReturnType<typeof labTargets>>;
  before(async () => {
    targets = await labTargets();
  });

  test('with the pinned key it connects and runs commands', async () => {
    const ssh = await SshTransport.connect(targets.server);
    try {
      const result = await ssh.exec('hostname; echo err >&2; exit 3');
      assert.equal(result.stdout.trim(), 'bl-server');
      assert.equal(result.stderr.trim(), 'err');
      assert.equal(result.code, 3);
      const echoed = await ssh.exec('cat', { stdin: 'fed through stdin' });
      assert.equal(echoed.stdout, 'fed through stdin');
    } finally {
      ssh.close();
    }
  });

  test('first use: an unknown key is shown as a SHA256 fingerprint and nothing is authenticated', async () => {
    const user = canaryUser();
    const error = await rejection(SshTransport.connect({ ...targets.server, user, pinnedFingerprint: null }));
    assert.equal(error.code, 'host_key_unknown');
    assert.equal(error.details?.fingerprint, targets.server.pinnedFingerprint);
    assert.match(error.message, /SHA256:[A-Za-z0-9+/]{43}/);
    const log = readFileSync(labLayout('default').hosts.server.logFile, 'utf8');
    assert.ok(!log.includes(user), 'sshd saw an authentication attempt before the key was accepted');
  });

  test('the sshd log would show an attempt (control for the check above)', async () => {
    const user = canaryUser();
    const error = await rejection(SshTransport.connect({ ...targets.server, user }));
    assert.equal(error.code, 'auth_failed');
    assert.match(error.message, new RegExp(`authentication failed for user "${user}"`));
    const log = readFileSync(labLayout('default').hosts.server.logFile, 'utf8');
    assert.ok(log.includes(user));
  });

  test('a jump host reaches the server through the client, each hop verified', async () => {
    const ssh = await SshTransport.connect({ ...targets.server, jump: targets.client });
    try {
      assert.equal((await ssh.exec('hostname')).stdout.trim(), 'bl-server');
    } finally {
      ssh.close();
    }
    const error = await rejection(SshTransport.connect({ ...targets.server, jump: { ...targets.client, pinnedFingerprint: null } }));
    assert.equal(error.code, 'host_key_unknown');
    assert.match(error.message, /lab-client/);
  });

  test('bad input: refused port, unreachable host, bad key file, missing password, each explained', async () => {
    const refused = await rejection(SshTransport.connect({ ...targets.server, port: 2222 }));
    assert.equal(refused.code, 'unreachable');
    assert.match(refused.message, /connection refused/);

    // Explained within 10 s: the wait is bounded, not timed.
    const unreachable = await rejection(within(SshTransport.connect({ ...targets.server, label: 'ghost', address: '10.231.0.99' }), 'the unreachable host to be explained', 10_000));
    assert.equal(unreachable.code, 'unreachable');

    const notAKey = join(scratch, 'not-a-key');
    writeFileSync(notAKey, 'hello\n');
    const badKey = await rejection(SshTransport.connect({ ...targets.server, keyPath: notAKey }));
    assert.equal(badKey.code, 'invalid_args');
    assert.match(badKey.message, /not a private key/);

    const missingKey = await rejection(SshTransport.connect({ ...targets.server, keyPath: join(scratch, 'absent') }));
    assert.match(missingKey.message, /no such file/);

    const noPassword = await rejection(SshTransport.connect({ ...targets.server, auth: 'password' }));
    assert.equal(noPassword.code, 'password_required');

    const wrongPassword = await rejection(SshTransport.connect({ ...targets.server, auth: 'password', user: 'benchlab' }, { password: 'wrong-password' }));
    assert.equal(wrongPassword.code, 'auth_failed');
  });
});

describe('SSH transport when a host key changes', { skip: skip ?? false }, () => {
  test('a regenerated host key is refused before authentication, with a clear message', async () => {
    const targets = await labTargets('rekey');
    const oldPin = targets.server.pinnedFingerprint;
    const newFingerprint = await labRegenerateHostKey('server', { instance: 'rekey' });
    assert.notEqual(newFingerprint, oldPin);

    const user = canaryUser();
    const target: SshTarget = { ...targets.server, user };
    const error = await rejection(SshTransport.connect(target));
    assert.equal(error.code, 'host_key_changed');
    assert.equal(error.details?.fingerprint, newFingerprint);
    assert.equal(error.details?.pinned, oldPin);
    assert.match(error.message, /CHANGED/);
    const log = readFileSync(labLayout('rekey').hosts.server.logFile, 'utf8');
    assert.ok(!log.includes(user), 'credentials were offered to a host whose key changed');

    const ssh = await SshTransport.connect({ ...targets.server, pinnedFingerprint: newFingerprint });
    ssh.close();
  });
});
