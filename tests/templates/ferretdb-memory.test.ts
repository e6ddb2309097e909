// benchlab-ferretdb's memory limit, on this machine: FerretDB v1 reads and sorts a whole collection
// in memory per find, so a read of a grown collection needs more than an idle FerretDB. Held to a
// limit between the two, the read does not answer and FerretDB stops with `out of memory` (exit 3)
// instead of growing; with room, the same read answers. No absolute sizes: the limit is placed
// between what this machine's FerretDB measured idle and at the read's peak.

import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { mongoUrl } from '../../app/templates/template-mongo.ts';
import { buildFerretdb } from '../../scripts/build-ferretdb.ts';
import { freePort } from '../support/database-endpoints.ts';
import { ferretdbSkipReason } from '../support/mongo-endpoints.ts';
import { until } from '../support/until.ts';

/** Enough documents that one read of them all takes several times an idle FerretDB's memory. */
const GROWN_DOCS = 30_000;
const ROOM = 1 << 30;

interface Served {
  child: ChildProcess;
  url: string;
  said: () => string;
  exit: Promise<number | null>;
}

describe('benchlab-ferretdb serve --memory-limit', { skip: ferretdbSkipReason }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'benchlab-test-ferretdb-memory-'));
  let binary = '';
  let current: Served | null = null;

  before(async () => {
    const built = await buildFerretdb();
    assert.notEqual(built.status, 'unavailable', built.status === 'unavailable' ? built.reason : '');
    binary = (built as { binary: string }).binary;
  });
  after(() => {
    current?.child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  /** `serve` on the same data folder with `limit` bytes; resolves once it listens. */
  async function serve(limit: number): Promise<Served> {
    const portFile = join(dir, `port-${Date.now()}`);
    const child = spawn(binary, ['serve', '--dir', join(dir, 'data'), '--ports', String(await freePort()), '--port-file', portFile, '--memory-limit', String(limit)], { stdio: ['ignore', 'ignore', 'pipe'] });
    let said = '';
    child.stderr!.on('data', (chunk: Buffer) => (said += chunk.toString()));
    const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    let exited = false;
    void exit.then(() => (exited = true));
    await until(() => existsSync(portFile) || exited, 'FerretDB listens', 30_000);
    assert.ok(existsSync(portFile), `FerretDB did not start: ${said}`);
    current = { child, url: mongoUrl(Number(readFileSync(portFile, 'utf8'))), said: () => said, exit };
    return current;
  }

  async function stop(served: Served): Promise<void> {
    served.child.kill('SIGTERM');
    await served.exit;
  }

  /** VmRSS and VmHWM of the process, in bytes. */
  function memory(served: Served): { resident: number; peak: number } {
    const status = readFileSync(`/proc/${served.child.pid}/status`, 'utf8');
    const kb = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(status)?.[1]) * 1024;
    return { resident: kb('VmRSS'), peak: kb('VmHWM') };
  }

  function run(args: string[]) {
    return spawnSync(binary, args, { encoding: 'utf8', timeout: 120_000 });
  }

  test('a read of a grown collection answers with room, and stops FerretDB with out of memory when the limit is below its need', async () => {
    const seeding = await serve(ROOM);
    const seeded = run(['seed', '--url', seeding.url, '--docs', String(GROWN_DOCS)]);
    assert.equal(seeded.status, 0, seeded.stderr);
    await stop(seeding);

    const roomy = await serve(ROOM);
    const idle = memory(roomy).resident;
    const read = run(['docs', '--url', roomy.url]);
    assert.equal(read.status, 0, read.stderr);
    assert.equal(read.stdout.split('\n')[0], `count ${GROWN_DOCS}`);
    const peak = memory(roomy).peak;
    assert.ok(peak > idle * 1.5, `the read needs memory: peak ${peak >> 20} MiB against ${idle >> 20} MiB idle`);
    await stop(roomy);

    const limit = Math.round(idle + (peak - idle) / 2);
    const tight = await serve(limit);
    const refused = run(['docs', '--url', tight.url]);
    assert.notEqual(refused.status, 0, 'the read does not answer');
    assert.equal(await tight.exit, 3, 'FerretDB stopped itself');
    assert.match(tight.said(), /benchlab-ferretdb: out of memory: \d+ MiB resident, over the limit of \d+ MiB/);
  });
});
