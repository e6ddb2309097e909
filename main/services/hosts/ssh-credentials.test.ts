// Credentials against the lab's sshd: an encrypted key asks for its passphrase (and a wrong one is
// refused), and ssh-agent authentication works through SSH_AUTH_SOCK.

import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { appendFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { labLayout } from '../../../tests/lab/lab.ts';
import { labSkipReason, labTargets } from '../../../tests/support/lab-hosts.ts';
import { until } from '../../../tests/support/until.ts';
import { SshTransport } from './ssh-transport.ts';

const skip = labSkipReason();

describe('SSH credentials on the lab', { skip: skip ?? false }, () => {
  const scratch = mkdtempSync(join(tmpdir(), 'benchlab-cred-'));
  let targets: Awaited<ReturnType<typeof labTargets>>;
  const encryptedKey = join(scratch, 'id_encrypted');
  const passphrase = 'correct horse battery staple';

  before(async () => {
    targets = await labTargets();
    execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', passphrase, '-C', 'benchlab-test-encrypted', '-f', encryptedKey]);
    // The lab's authorized keys live in its own runtime dir, never in the real /root/.ssh.
    appendFileSync(join(labLayout('default').authorizedKeysDir, 'root'), readFileSync(`${encryptedKey}.pub`));
  });
  after(() => rmSync(scratch, { recursive: true, force: true }));

  test('an encrypted key asks for its passphrase, refuses a wrong one, and works with the right one', async () => {
    const target = { ...targets.server, keyPath: encryptedKey };
    await assert.rejects(SshTransport.connect(target), { code: 'passphrase_required', message: /encrypted: enter its passphrase/ });
    await assert.rejects(SshTransport.connect(target, { passphrase: 'wrong' }), { code: 'auth_failed', message: /wrong passphrase/ });
    const ssh = await SshTransport.connect(target, { passphrase });
    try {
      assert.equal((await ssh.exec('hostname')).stdout.trim(), 'bl-server');
    } finally {
      ssh.close();
    }
  });

  test('ssh-agent authentication uses the key the agent holds', async () => {
    const socket = join(scratch, 'agent.sock');
    const agent = spawn('ssh-agent', ['-D', '-a', socket], { stdio: 'ignore' });
    const previous = process.env.SSH_AUTH_SOCK;
    try {
      const listening = () => {
        try {
          execFileSync('ssh-add', ['-l'], { env: { ...process.env, SSH_AUTH_SOCK: socket }, stdio: 'ignore' });
          return true;
        } catch (error) {
          // exit 1 means "agent up, no identities": ready; 2 means not listening yet
          return (error as { status?: number }).status === 1;
        }
      };
      await until(listening, 'ssh-agent to listen', 5000, 100);
      execFileSync('ssh-add', ['-q', targets.keyPath], { env: { ...process.env, SSH_AUTH_SOCK: socket } });
      process.env.SSH_AUTH_SOCK = socket;
      const ssh = await SshTransport.connect({ ...targets.server, auth: 'agent', keyPath: undefined });
      try {
        assert.equal((await ssh.exec('hostname')).stdout.trim(), 'bl-server');
      } finally {
        ssh.close();
      }
      delete process.env.SSH_AUTH_SOCK;
      await assert.rejects(SshTransport.connect({ ...targets.server, auth: 'agent' }), { code: 'auth_failed', message: /no ssh-agent/ });
    } finally {
      if (previous === undefined) delete process.env.SSH_AUTH_SOCK;
      else process.env.SSH_AUTH_SOCK = previous;
      agent.kill();
    }
  });
});
