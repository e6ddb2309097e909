// Preset revert restores more than bytes, on a real lab host as the sudo user (every root step
// through sudo -S): an administrator's 0600 root:root sysctl file and 0640 root:adm limits file
// come back with their mode, owner and group (from the host's restore file and from the journal
// alone), Benchlab's own new files are 0644 root:root even in a setgid directory, and a journal row
// written before modes were recorded still reverts as it always did. Instance `revert`: these
// files get odd modes that no other test should meet.

import assert from 'node:assert/strict';
import { chmodSync, chownSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, beforeEach, describe, test } from 'node:test';
import Database from 'better-sqlite3';
import { PresetDefinition } from '../../app/presets/presets.ts';
import { DATABASE_FILE_NAME } from '../../main/services/store/database.ts';
import { createServices, type Services } from '../../main/services/services.ts';
import { connectAsSudoUser, labSkipReason, labTargets } from '../support/lab-hosts.ts';
import { labExec, labLayout, SUDO_USER } from './lab.ts';

const INSTANCE = 'revert';
const ADM_GID = 4;
const skip = labSkipReason({ sudoUser: true });

const server = labLayout(INSTANCE).hosts.server;
const dirs = { limits: server.privateCopies['/etc/security/limits.d'], sysctl: server.privateCopies['/etc/sysctl.d'] };
const files = {
  limits: join(dirs.limits, '90-benchlab.conf'),
  sysctl: join(dirs.sysctl, '90-benchlab.conf'),
  restore: join(server.privateCopies['/var/lib/benchlab'], 'presets-restore.json'),
};

/** What an administrator left where Benchlab writes, with the modes they chose. */
const ADMIN = {
  sysctl: { bytes: Buffer.from('# kept private\nnet.ipv4.tcp_fin_timeout = 30\n'), mode: 0o600, uid: 0, gid: 0 },
  limits: { bytes: Buffer.from(`${SUDO_USER} soft nproc 4000\n`), mode: 0o640, uid: 0, gid: ADM_GID },
};

const LIVE_KEYS = ['net.ipv4.ip_local_port_range', 'net.core.somaxconn'];

/** Mode, owner and group as `stat -c '%04a %u:%g'` shows them. */
function metaOf(path: string): string {
  const stat = statSync(path);
  return `${(stat.mode & 0o7777).toString(8).padStart(4, '0')} ${stat.uid}:${stat.gid}`;
}

function placeAdminFiles(): void {
  for (const which of ['sysctl', 'limits'] as const) {
    const { bytes, mode, uid, gid } = ADMIN[which];
    writeFileSync(files[which], bytes);
    chownSync(files[which], uid, gid);
    chmodSync(files[which], mode);
  }
}

function assertAdminFilesBack(): void {
  assert.deepEqual(readFileSync(files.sysctl), ADMIN.sysctl.bytes);
  assert.deepEqual(readFileSync(files.limits), ADMIN.limits.bytes);
  assert.equal(metaOf(files.sysctl), '0600 0:0');
  assert.equal(metaOf(files.limits), '0640 0:4');
  assert.equal(existsSync(files.restore), false, 'the restore record is removed');
}

async function liveValues(): Promise<Record<string, string>> {
  const read = async (key: string) => {
    const result = await labExec('server', ['cat', `/proc/sys/${key.replace(/\./g, '/')}`], { instance: INSTANCE });
    assert.equal(result.code, 0, result.stderr);
    return [key, result.stdout.trim().replace(/\s+/g, ' ')] as const;
  };
  return Object.fromEntries(await Promise.all(LIVE_KEYS.map(read)));
}

describe('preset revert restores mode, owner and group, through sudo', { skip: skip ?? false, concurrency: false }, () => {
  let dataDir: string;
  let services: Services;
  let hostId: number;
  let presetId: string;
  let original: Record<string, string>;

  async function applyPreset(): Promise<void> {
    const plan = await services.presets.plan(presetId, hostId);
    const result = await services.presets.apply(presetId, hostId, plan.planId);
    assert.equal(result.outcome, 'applied');
    assert.equal(await liveValues().then((live) => live['net.ipv4.ip_local_port_range']), '18000 65535');
  }

  async function revert(): Promise<void> {
    const result = await services.presets.revert(hostId);
    assert.equal(result.outcome, 'reverted', JSON.stringify(result));
    assert.deepEqual(await liveValues(), original);
  }

  before(async () => {
    const targets = await labTargets(INSTANCE);
    dataDir = mkdtempSync(join(tmpdir(), 'benchlab-revert-modes-'));
    services = createServices({ dataDir, transport: 'cli', version: 'test' });
    hostId = await connectAsSudoUser(services, targets.server, 'lab-server');
    original = await liveValues();
    const somaxconn = original['net.core.somaxconn'] === '8192' ? '8191' : '8192';
    presetId = services.presetCatalog.save(
      PresetDefinition.parse({
        name: 'Revert modes',
        limits: [{ domain: SUDO_USER, type: 'soft', item: 'nofile', value: '12000' }],
        sysctls: [
          { key: 'net.ipv4.ip_local_port_range', value: '18000 65535' },
          { key: 'net.core.somaxconn', value: somaxconn },
        ],
      }),
    ).id;
  });

  beforeEach(async () => {
    // Each test starts from a host without Benchlab's changes, even after one that failed midway.
    if (services.changes.unreverted(hostId).length > 0) await services.presets.revert(hostId).catch(() => undefined);
    for (const path of Object.values(files)) rmSync(path, { force: true });
  });

  after(async () => {
    // Leave the lab as it was, whatever happened above.
    if (services && services.changes.unreverted(hostId).length > 0) await services.presets.revert(hostId).catch(() => undefined);
    services?.close();
    for (const path of Object.values(files)) rmSync(path, { force: true });
    for (const dir of Object.values(dirs)) {
      chownSync(dir, 0, 0);
      chmodSync(dir, 0o755);
    }
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  test("an administrator's 0600 root:root sysctl file and 0640 root:adm limits file come back exactly", async () => {
    placeAdminFiles();
    const plan = await services.presets.plan(presetId, hostId);
    assert.deepEqual(plan.files.map((file) => file.action), ['replace', 'replace']);
    await applyPreset();
    // Replaced in place: the content is the preset's, the mode and owner stay the administrator's.
    assert.equal(metaOf(files.sysctl), '0600 0:0');
    assert.equal(metaOf(files.limits), '0640 0:4');
    // The restore record copies a private file's bytes, so it is no more readable than that file.
    assert.equal(metaOf(files.restore), '0600 0:0');
    const record = JSON.parse(readFileSync(files.restore, 'utf8'));
    assert.deepEqual(record.meta['/etc/security/limits.d/90-benchlab.conf'], { mode: '640', uid: 0, gid: ADM_GID, context: null });
    const [entry] = services.changes.unreverted(hostId);
    assert.deepEqual(entry!.previous.meta?.['/etc/sysctl.d/90-benchlab.conf'], { mode: '600', uid: 0, gid: 0, context: null });
    await revert();
    assertAdminFilesBack();
  });

  test('from the journal alone (the restore file gone), the modes come back too', async () => {
    placeAdminFiles();
    await applyPreset();
    rmSync(files.restore);
    await revert();
    assertAdminFilesBack();
  });

  test('a revert puts back a mode changed after the apply, when the bytes are still ours', async () => {
    placeAdminFiles();
    await applyPreset();
    chmodSync(files.sysctl, 0o644);
    chownSync(files.limits, 0, 0);
    await revert();
    assertAdminFilesBack();
  });

  test("Benchlab's new files are 0644 root:root even in a setgid directory of group adm; revert removes them", async () => {
    for (const dir of Object.values(dirs)) {
      chownSync(dir, 0, ADM_GID);
      chmodSync(dir, 0o2775);
    }
    try {
      await applyPreset();
      assert.equal(metaOf(files.sysctl), '0644 0:0');
      assert.equal(metaOf(files.limits), '0644 0:0');
      assert.equal(metaOf(files.restore), '0644 0:0');
      await revert();
      assert.deepEqual([files.sysctl, files.limits, files.restore].map(existsSync), [false, false, false]);
    } finally {
      for (const dir of Object.values(dirs)) {
        chownSync(dir, 0, 0);
        chmodSync(dir, 0o755);
      }
    }
  });

  test('a journal row written before modes were recorded still reverts, the files 0644 root:root as before', async () => {
    placeAdminFiles();
    await applyPreset();
    rmSync(files.restore);
    const db = new Database(join(dataDir, DATABASE_FILE_NAME));
    try {
      const stripped = db.prepare("UPDATE change SET previous = json_remove(previous, '$.meta') WHERE status IN ('pending', 'applied')").run().changes;
      assert.equal(stripped, 1);
    } finally {
      db.close();
    }
    assert.equal(services.changes.unreverted(hostId)[0]!.previous.meta, undefined);
    await revert();
    assert.deepEqual(readFileSync(files.sysctl), ADMIN.sysctl.bytes);
    assert.deepEqual(readFileSync(files.limits), ADMIN.limits.bytes);
    assert.equal(metaOf(files.sysctl), '0644 0:0');
    assert.equal(metaOf(files.limits), '0644 0:0');
  });
});
