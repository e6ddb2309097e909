// The ~/.ssh/config importer against OpenSSH itself: on a realistic config, every alias resolves to
// the address, port, user, jump host and identity file that `ssh -G` resolves (where the client is installed).

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { parseSshConfig } from './ssh-config.ts';

/** `ssh -G` prints the configuration ssh would use for a host, without connecting. */
function sshResolve(configPath: string, alias: string): Map<string, string[]> {
  const output = execFileSync('ssh', ['-G', '-F', configPath, alias], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  const values = new Map<string, string[]>();
  for (const line of output.split('\n')) {
    const space = line.indexOf(' ');
    if (space <= 0) continue;
    const key = line.slice(0, space);
    values.set(key, [...(values.get(key) ?? []), line.slice(space + 1)]);
  }
  return values;
}

function hasSsh(): boolean {
  try {
    execFileSync('ssh', ['-V'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

test('agrees with OpenSSH (ssh -G) on a realistic config', (t) => {
  if (!hasSsh()) {
    t.skip('skipped: no OpenSSH client here');
    return;
  }
  // Lower-case aliases: ssh lower-cases the host it is given before matching Host patterns.
  const config = `
User global-user
Host web1 web2 *.internal !bastion
  Port 2201
Host bastion
  HostName bastion.example.com
  IdentityFile ~/.ssh/bastion_key
Host app-eu app-us db.prod direct
  Port 22
Host app-*
  User app
  ProxyJump gw.example.com
Host direct
  ProxyJump none
Host *.prod direct
  ProxyJump ops@gateway:2222
Host node1 node2
  HostName %h.cluster.local
Host c  # trailing comment
  HostName=c.lab
  Port = 2022 #x
  User "quoted user"
Host old
  ProxyCommand ssh -W %h:%p bastion
  ProxyJump ignored-because-second
Host *
  Port 2200
  IdentityFile "~/.ssh/id ed25519"
`;
  const dir = mkdtempSync(join(tmpdir(), 'benchlab-ssh-config-'));
  try {
    const path = join(dir, 'config');
    writeFileSync(path, config);
    const home = homedir();
    const { candidates } = parseSshConfig(config, { home, currentUser: userInfo().username });
    assert.equal(candidates.length, 11);
    for (const candidate of candidates) {
      const resolved = sshResolve(path, candidate.name);
      const first = (key: string) => resolved.get(key)?.[0] ?? null;
      assert.equal(candidate.address, first('hostname'), `${candidate.name}: hostname`);
      assert.equal(String(candidate.port), first('port'), `${candidate.name}: port`);
      assert.equal(candidate.user, first('user'), `${candidate.name}: user`);
      assert.equal(candidate.proxyJump, first('proxyjump'), `${candidate.name}: proxyjump`);
      const identity = first('identityfile');
      assert.equal(candidate.identityFile, identity?.replace(/^~/, home) ?? null, `${candidate.name}: identityfile`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
