// Two plans on one server host at once (lab instance `ownerplans`): two real `benchlab run`
// processes on one data dir and one set of hosts, each with a server preset, a deploy and a short
// load, the second started the moment the first holds the host (spawned together, a busy machine
// let one end before the other began, and both ran, one after the other, as they should). The host is held by one plan from before its first preset to its end:
// the other is refused before it touches anything (no preset applied, no deploy, no stop), naming
// the plan and the process that hold the host, and the first runs to its end undisturbed.

import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { labSkipReason } from '../support/lab-hosts.ts';
import { openLabBackend, type LabBackend } from '../support/lab-backend.ts';
import { until, within } from '../support/until.ts';
import { labExec } from './lab.ts';

const skip = labSkipReason();
const INSTANCE = 'ownerplans';
const PORT = 18540;
const CLI = resolve(import.meta.dirname, '..', '..', 'main', 'cli', 'benchlab.ts');

interface Ended {
  child: ChildProcess;
  name: string;
  code: number | null;
  stdout: string;
  stderr: string;
}

function run(dataDir: string, name: string): Promise<Ended> {
  const file = join(dataDir, `${name}.yaml`);
  writeFileSync(
    file,
    `version: 1
name: ${name}
hosts: { client: lab-client, server: lab-server }
presets: { client: null, server: load-client }
templates:
  - { template: node, variant: async, port: ${PORT} }
profile:
  request: { path: /hello }
  load: { model: closed, connections: 2, durationS: 2 }
`,
  );
  const child = spawn(process.execPath, [CLI, 'run', file, '--data-dir', dataDir], { cwd: dataDir, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  return within(new Promise<Ended>((done) => child.on('close', (code) => done({ child, name, code, stdout, stderr }))), `benchlab run ${name}`, 240_000);
}

async function sysctl(key: string): Promise<string> {
  return (await labExec('server', ['sysctl', '-n', key], { instance: INSTANCE })).stdout.trim();
}

describe('two plans at once on one server host', { skip: skip ?? false }, () => {
  let lab: LabBackend;

  before(async () => {
    // The store with both hosts added and their keys pinned, as the app would leave it; the plans name them.
    lab = await openLabBackend(INSTANCE, 'benchlab-two-plans-', { sharedCaches: true });
  });

  after(async () => {
    await lab?.close();
  });

  test('one runs; the other is refused before any preset, deploy or stop, naming who holds the host', async () => {
    const finBefore = await sysctl('net.ipv4.tcp_fin_timeout');
    assert.notEqual(finBefore, '15', 'the preset would change something');
    const first = run(lab.dir, 'Plan A');
    await until(
      async () => (await labExec('server', ['sh', '-c', 'cat /var/lib/benchlab/run/*.hold 2>/dev/null'], { instance: INSTANCE })).stdout.includes('Plan A'),
      'Plan A holding lab-server',
      120_000,
      100,
    );
    const ended = await Promise.all([first, run(lab.dir, 'Plan B')]);
    const refused = ended.filter((entry) => entry.code !== 0);
    assert.equal(refused.length, 1, ended.map((entry) => `${entry.name} exit ${entry.code}:\n${entry.stderr}`).join('\n'));
    const loser = refused[0]!;
    const winner = ended.find((entry) => entry !== loser)!;

    assert.equal(loser.code, 2, loser.stderr);
    // Refused by the hold, or (once the holder has deployed) by its server, and the run loading it
    // once that has begun: each way naming the process that holds the host, before anything was touched.
    const holder = `the benchlab CLI \\(pid ${winner.child.pid} on [^)]+\\)`;
    assert.match(
      loser.stderr,
      new RegExp(
        `(lab-server is held by plan "${winner.name}" of ${holder} \\(since [^)]+\\)|lab-server runs [^\\n]*, held by ${holder}, heartbeat \\d+ s ago(; run “${winner.name} — [^”]+” loads it now)?): plan "${loser.name}" did not start: nothing was applied, deployed or stopped`,
      ),
    );
    assert.doesNotMatch(loser.stderr, /^\[\d+\/\d+\]/m, 'not one stage of the refused plan ran');

    // The plan that holds the host ran every stage, as if it had been alone.
    assert.match(winner.stderr, /^\[1\/5\] Apply preset .* on lab-server/m);
    assert.match(winner.stderr, /^\[5\/5\] Revert lab-server to its settings before the preset — done/m);
    assert.match(winner.stdout, new RegExp(`^Node\\.js \\(node:http\\) · async\\s+completed\\s+1\\s+[\\d,]+\\s`, 'm'));
    const sessions = lab.services.sessions.list().map((session) => [session.name, session.status]);
    assert.deepEqual(sessions, [[`${winner.name} — Node.js (node:http) · async`, 'completed']]);
    assert.equal(await sysctl('net.ipv4.tcp_fin_timeout'), finBefore, 'reverted by the plan that applied it');
  });

  test('once the plan that held the host has ended, the next one runs', async () => {
    const next = await run(lab.dir, 'Plan C');
    assert.equal(next.code, 0, next.stderr);
  });
});
