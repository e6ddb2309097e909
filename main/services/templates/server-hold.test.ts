// A plan's hold of a host as the host's inspection reads it, on this machine's own shell (the same
// scripts Benchlab sends over SSH): nobody holding, a hold taken, and the hold let go.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { LocalTransport } from '../hosts/local-transport.ts';
import { inspectRun } from './remote-server.ts';
import { holdHost } from './server-hold.ts';

const dir = mkdtempSync(join(tmpdir(), 'benchlab-hold-'));
after(() => rmSync(dir, { recursive: true, force: true }));

test("the host's inspection names the plan holding it, and nobody once it is let go", async () => {
  const transport = new LocalTransport();
  const run = join(dir, 'run');
  assert.equal((await inspectRun(transport, run, 0)).heldBy, null, 'never held');
  const hold = await holdHost(transport, 'this machine', run, { what: 'plan "Overnight"', holder: 'the benchlab CLI (pid 7 on ci)', since: '08:00' });
  try {
    assert.equal(hold.unheld, null, 'this machine has flock');
    assert.equal((await inspectRun(transport, run, 0)).heldBy, 'plan "Overnight" of the benchlab CLI (pid 7 on ci) (since 08:00)');
  } finally {
    await hold.release();
  }
  assert.equal((await inspectRun(transport, run, 0)).heldBy, null, 'let go');
});
