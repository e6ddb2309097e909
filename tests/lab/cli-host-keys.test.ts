// The CLI's host key rules against a real sshd (the default lab, read-only): an unpinned key is
// refused with the flag to pass, --accept-new-host-keys pins exactly the key the host presents
// (as ssh's accept-new), and a changed key is refused with both fingerprints even with the flag.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { openDatabase } from '../../main/services/store/database.ts';
import { HostsRepository } from '../../main/services/hosts/hosts-repository.ts';
import { labSkipReason, labTargets } from '../support/lab-hosts.ts';

const skip = labSkipReason();
const CLI = join(import.meta.dirname, '..', '..', 'main', 'cli', 'benchlab.ts');

describe('benchlab host key rules on the lab', { skip: skip ?? false }, () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'benchlab-cli-keys-'));
  let realFingerprint: string;

  const cli = (...args: string[]) => {
    const result = spawnSync(process.execPath, [CLI, '--data-dir', dataDir, ...args], { encoding: 'utf8' });
    return { code: result.status, stdout: result.stdout, stderr: result.stderr };
  };
  const storedFingerprint = () => (JSON.parse(cli('hosts', 'list', '--json').stdout) as Array<{ hostKeyFingerprint: string | null }>)[0]!.hostKeyFingerprint;

  before(async () => {
    const targets = await labTargets('default');
    realFingerprint = targets.server.pinnedFingerprint!;
    const added = cli('hosts', 'add', 'srv', `root@${targets.server.address}:${targets.server.port}`, '--key', targets.keyPath);
    assert.equal(added.code, 0, added.stderr);
  });

  after(() => rmSync(dataDir, { recursive: true, force: true }));

  test('an unpinned key is refused, naming the flag, and stays unpinned', () => {
    const refused = cli('hosts', 'check', 'srv');
    assert.equal(refused.code, 1);
    assert.match(refused.stdout, /^srv +no +not pinned/m);
    assert.ok(
      refused.stderr.includes(`host key of srv not pinned (${realFingerprint}): pin it in the app or pass --accept-new-host-keys`),
      refused.stderr,
    );
    assert.equal(storedFingerprint(), null);
  });

  test('--accept-new-host-keys pins the presented key and connects', () => {
    const checked = cli('hosts', 'check', 'srv', '--accept-new-host-keys');
    assert.equal(checked.code, 0, checked.stderr);
    assert.ok(checked.stderr.includes(`pinned the host key of srv: ${realFingerprint}`), checked.stderr);
    assert.match(checked.stdout, new RegExp(`^srv +yes +${realFingerprint.replace(/[+/]/g, '\\$&')} +\\S.* +\\d+ +[\\d.]+ GiB$`, 'm'));
    assert.equal(storedFingerprint(), realFingerprint);
    assert.equal(cli('hosts', 'check', 'srv').code, 0, 'pinned now: no flag needed');
  });

  test('a changed key is refused even with the flag, with both fingerprints, and the pin is kept', () => {
    const planted = `SHA256:${'A'.repeat(43)}`;
    const { db } = openDatabase(dataDir);
    const hosts = new HostsRepository(db);
    hosts.pinKey(hosts.list()[0]!.id, planted);
    db.close();
    const refused = cli('hosts', 'check', 'srv', '--accept-new-host-keys');
    assert.equal(refused.code, 1);
    assert.ok(refused.stderr.includes(`host key of srv has CHANGED: pinned ${planted}, now ${realFingerprint}`), refused.stderr);
    assert.equal(storedFingerprint(), planted);
  });
});
