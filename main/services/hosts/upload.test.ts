import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { LocalTransport } from './local-transport.ts';

describe('upload through the local transport', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'benchlab-upload-'));
  after(() => rmSync(scratch, { recursive: true, force: true }));
  const transport = new LocalTransport();

  test('bytes and files arrive exactly, folders are created, the mode is set', async () => {
    const bytes = randomBytes(300_000);
    const progress: number[] = [];
    await transport.upload(bytes, join(scratch, 'a b', "it's", 'blob.bin'), { mode: 0o755, onProgress: (sent) => progress.push(sent) });
    const target = join(scratch, 'a b', "it's", 'blob.bin');
    assert.ok(readFileSync(target).equals(bytes));
    assert.equal(statSync(target).mode & 0o777, 0o755);
    assert.equal(progress.at(-1), bytes.length);

    const source = join(scratch, 'source.txt');
    writeFileSync(source, 'from a file\n');
    await transport.upload(source, join(scratch, 'copy.txt'));
    assert.equal(readFileSync(join(scratch, 'copy.txt'), 'utf8'), 'from a file\n');
    assert.equal(statSync(join(scratch, 'copy.txt')).mode & 0o777, 0o644);
  });

  test('a cancelled upload leaves neither the target nor a temporary file', async () => {
    const controller = new AbortController();
    const big = randomBytes(64 * 1024 * 1024);
    const upload = transport.upload(big, join(scratch, 'cut', 'big.bin'), {
      signal: controller.signal,
      onProgress: (sent) => {
        if (sent > 1024 * 1024) controller.abort();
      },
    });
    await assert.rejects(upload, { code: 'cancelled' });
    assert.equal(existsSync(join(scratch, 'cut', 'big.bin')), false);
    if (existsSync(join(scratch, 'cut'))) assert.deepEqual(readdirSync(join(scratch, 'cut')), []);
  });
});
