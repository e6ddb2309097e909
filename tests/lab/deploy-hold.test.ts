// A deploy that is not a plan's respects a plan's hold of the server host (lab instance
// `deploycard`): while a plan holds lab-server — here between its stages, when no server runs there
// yet — a `benchlab deploy` from another process and the app's own Templates deploy are both refused
// before they touch the host, naming the plan; nothing listens on the port. Once the plan lets the
// host go, the same deploy goes ahead.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Deployment } from '../../app/templates/templates-contract.ts';
import type { HostHold } from '../../main/services/templates/server-hold.ts';
import { labSkipReason } from '../support/lab-hosts.ts';
import { openLabBackend, type LabBackend } from '../support/lab-backend.ts';
import { within } from '../support/until.ts';
import { labExec } from './lab.ts';

const skip = labSkipReason();
const INSTANCE = 'deploycard';
const PORT = 18610;
const CLI = resolve(import.meta.dirname, '..', '..', 'main', 'cli', 'benchlab.ts');

/** A `benchlab` CLI process on the app's data dir, run to its end. */
function cli(dataDir: string, args: string[]): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, [CLI, ...args, '--data-dir', dataDir], { cwd: dataDir, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  return within(new Promise((done) => child.on('close', (code) => done({ code, stderr }))), `benchlab ${args.join(' ')}`, 240_000);
}

async function listening(port: number): Promise<boolean> {
  const found = await labExec('server', ['sh', '-c', `ss -ltnH 'sport = :${port}'`], { instance: INSTANCE });
  return found.stdout.trim() !== '';
}

describe("a deploy against a plan's hold of the server host", { skip: skip ?? false }, () => {
  let app: LabBackend;
  let hold: HostHold | null = null;

  before(async () => {
    app = await openLabBackend(INSTANCE, 'benchlab-deploy-hold-', { sharedCaches: true, transport: 'web' });
  });

  after(async () => {
    await hold?.release();
    await app?.services.templates.stop(app.serverId).catch(() => undefined);
    await app?.close();
  });

  test('refused from another process and from the app while the plan holds the host, naming the plan; deployed once it is let go', async () => {
    // What the plan runner takes before its first preset and keeps to its end.
    hold = await app.services.templates.hold(app.serverId, 'plan "Overnight"');

    const other = await cli(app.dir, ['deploy', 'lab-server', 'node:async', '--port', String(PORT)]);
    assert.equal(other.code, 2, other.stderr);
    assert.match(other.stderr, /failed at "check the host and its runtimes": lab-server is held by plan "Overnight" of Benchlab in web mode \(pid \d+ on [^)]+\) \(since [^)]+\): Node\.js \(node:http\) was not deployed and nothing on lab-server was touched/);

    const own = await app.call('templates.deploy', { hostId: app.serverId, templateId: 'node', variant: 'async', port: PORT });
    assert.equal(own.ok, false);
    assert.equal(own.ok ? null : own.error.code, 'conflict');
    assert.match(own.ok ? '' : own.error.message, /^lab-server is held by plan "Overnight" of this Benchlab: Node\.js \(node:http\) was not deployed/);
    assert.equal(await listening(PORT), false, 'nothing was started on the host');

    await hold.release();
    hold = null;
    const deployed = await app.ok<Deployment>('templates.deploy', { hostId: app.serverId, templateId: 'node', variant: 'async', port: PORT });
    assert.equal(deployed.state, 'ready');
    assert.equal(await listening(PORT), true);
  });
});
