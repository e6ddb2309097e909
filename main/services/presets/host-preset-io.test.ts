// The remote file writes of presets, run through the local transport on temp files (as root, which
// chown needs): the mode, owner and group a write is given are what the file gets, atomically,
// whatever the umask and even in a setgid directory whose group a new file would otherwise take;
// with SELinux on (a stand-in getenforce), the recorded context is set before the rename.

import assert from 'node:assert/strict';
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { shellQuote } from '../../../app/common/shell-quote.ts';
import { NEW_FILE_META } from '../../../app/presets/preset-plan.ts';
import { skipOrFail } from '../../../tests/support/lab-required.ts';
import { LocalTransport } from '../hosts/local-transport.ts';
import { writeFiles, type RemoteAccess } from './host-preset-io.ts';

const ADM_GID = 4;
// Root, as the lab needs: where the lab is required (CI), its absence fails rather than skips.
const skip = skipOrFail(process.getuid?.() !== 0 ? 'needs root (chown)' : null) ?? false;

function metaOf(path: string): string {
  const stat = statSync(path);
  return `${(stat.mode & 0o7777).toString(8).padStart(4, '0')} ${stat.uid}:${stat.gid}`;
}

function base64(text: string): string {
  return Buffer.from(text).toString('base64');
}

describe('writeFiles sets the mode, owner and group it is given', { skip }, () => {
  let dir: string;
  const access: RemoteAccess = { transport: new LocalTransport(), sudoPassword: undefined };
  let umask: number;

  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'benchlab-preset-io-'));
    // A setgid directory owned by group adm: a new file in it takes group adm unless told otherwise.
    chownSync(dir, 0, ADM_GID);
    chmodSync(dir, 0o2755);
    umask = process.umask(0o077);
  });

  after(() => {
    process.umask(umask);
    rmSync(dir, { recursive: true, force: true });
  });

  test("Benchlab's new file is 0644 root:root under umask 077 in a setgid directory", async () => {
    const path = join(dir, '90-new.conf');
    await writeFiles(access, 'write-drop-ins', { [path]: { base64: base64('new\n'), meta: NEW_FILE_META } });
    assert.equal(readFileSync(path, 'utf8'), 'new\n');
    assert.equal(metaOf(path), '0644 0:0');
  });

  test('a file put back gets its recorded mode, owner and group; no temp file is left', async () => {
    const path = join(dir, '90-restored.conf');
    await writeFiles(access, 'write-drop-ins', { [path]: { base64: base64('x\n'), meta: NEW_FILE_META } });
    await writeFiles(access, 'write-drop-ins', { [path]: { base64: base64('old\n'), meta: { mode: '640', uid: 0, gid: ADM_GID, context: null } } });
    assert.equal(readFileSync(path, 'utf8'), 'old\n');
    assert.equal(metaOf(path), '0640 0:4');
    await writeFiles(access, 'write-drop-ins', { [path]: { base64: base64('older\n'), meta: { mode: '600', uid: 0, gid: 0, context: null } } });
    assert.equal(metaOf(path), '0600 0:0');
    assert.deepEqual(readdirSync(dir).filter((name) => name.includes('benchlab-tmp')), []);
  });

  test('null removes the file', async () => {
    const path = join(dir, '90-gone.conf');
    await writeFiles(access, 'write-drop-ins', { [path]: { base64: base64('x\n'), meta: NEW_FILE_META } });
    await writeFiles(access, 'write-drop-ins', { [path]: null });
    assert.equal(existsSync(path), false);
  });
});

describe('writeFiles with SELinux on', { skip }, () => {
  let dir: string;
  let path: string;
  const access: RemoteAccess = { transport: new LocalTransport(), sudoPassword: undefined };
  const searchPath = process.env.PATH;

  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'benchlab-preset-selinux-'));
    path = join(dir, 'etc', '90-labelled.conf');
    // Stand-ins, first on PATH: getenforce says Enforcing; chcon notes what it was asked to label
    // and what the final path still holds then (the old bytes: the rename comes after the label).
    const bin = join(dir, 'bin');
    mkdirSync(bin);
    writeFileSync(join(bin, 'getenforce'), '#!/bin/sh\necho Enforcing\n', { mode: 0o755 });
    writeFileSync(join(bin, 'chcon'), `#!/bin/sh\necho "$1 $(basename "$2") final:$(cat ${shellQuote(path)})" >> ${shellQuote(join(dir, 'chcon.log'))}\n`, { mode: 0o755 });
    process.env.PATH = `${bin}:${searchPath}`;
  });

  after(() => {
    process.env.PATH = searchPath;
    rmSync(dir, { recursive: true, force: true });
  });

  test('the recorded context is set on the temp file, before it is renamed into place; none is set for a new file', async () => {
    await writeFiles(access, 'write-drop-ins', { [path]: { base64: base64('new\n'), meta: NEW_FILE_META } });
    assert.equal(existsSync(join(dir, 'chcon.log')), false, 'no context recorded: the directory default stays');
    await writeFiles(access, 'write-drop-ins', { [path]: { base64: base64('old\n'), meta: { mode: '600', uid: 0, gid: 0, context: 'system_u:object_r:system_conf_t:s0' } } });
    assert.equal(readFileSync(join(dir, 'chcon.log'), 'utf8'), 'system_u:object_r:system_conf_t:s0 .90-labelled.conf.benchlab-tmp final:new\n');
    assert.equal(readFileSync(path, 'utf8'), 'old\n');
    assert.equal(metaOf(path), '0600 0:0');
  });
});
