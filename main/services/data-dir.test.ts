// The data folder made ready or refused in one line: nested folders made one level at a time (a
// recursive mkdir under /proc spins for minutes), a file in the way named, never a raw errno line.

import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { DataDirError, ensureDataDir } from './data-dir.ts';

const dir = mkdtempSync(join(tmpdir(), 'benchlab-data-dir-'));
after(() => rmSync(dir, { recursive: true, force: true }));

test('missing folders are made, each private to the user; an existing one is used as it is', () => {
  const nested = join(dir, 'a', 'b', 'c');
  ensureDataDir(nested);
  assert.ok(statSync(nested).isDirectory());
  assert.equal(statSync(join(dir, 'a')).mode & 0o777, 0o700);
  ensureDataDir(nested);
});

test('a file in the way is named, as the folder itself or above it', () => {
  const file = join(dir, 'a-file');
  writeFileSync(file, 'x');
  assert.throws(() => ensureDataDir(file), new DataDirError(`cannot use ${file} as the data folder: ${file} is a file, not a folder`));
  assert.throws(() => ensureDataDir(join(file, 'x', 'y')), new DataDirError(`cannot use ${join(file, 'x', 'y')} as the data folder: ${file} is a file, not a folder`));
});

test('a folder under /proc is refused at once with why, not by a mkdir that never returns', { skip: !existsSync('/proc/1') && 'no /proc here' }, () => {
  assert.throws(() => ensureDataDir('/proc/1/x'), new DataDirError('cannot use /proc/1/x as the data folder: /proc/1 does not take new folders'));
  assert.throws(() => ensureDataDir('/proc/1/x/y/z'), /^DataDirError: cannot use \/proc\/1\/x\/y\/z as the data folder: \/proc\/1 does not take new folders$/);
});
