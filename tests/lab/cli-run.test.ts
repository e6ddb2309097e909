// `benchlab run` end to end on the lab (instance `cli`): the real CLI process, spawned as a CI job
// would spawn it, on a small plan file naming its hosts by ~/.ssh/config aliases — a preset on the
// server, two variants of the Node template, a short load. A threshold that fails on purpose exits
// 1 and says which and by how much, with JSON and JUnit files written; all thresholds holding exit
// 0; Ctrl-C in the middle of a load exits 130 with nothing left running on the hosts and the preset
// reverted.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { labSkipReason, labTargets } from '../support/lab-hosts.ts';
import { TEST_BUILD_DIR, TEST_NODE_CACHE } from '../support/template-lab.ts';
import { until, within } from '../support/until.ts';
import { labExec } from './lab.ts';

const skip = labSkipReason();
const INSTANCE = 'cli';
const PORT = 18471;
const CLI = resolve(import.meta.dirname, '..', '..', 'main', 'cli', 'benchlab.ts');
/** Where the agents of the client host keep their pid files (root's Benchlab folder, by hostname). */
const AGENT_PIDS = '/var/lib/benchlab/agent/pids/bl-client';
const SERVER_RUN = '/var/lib/benchlab/run/bl-server';
const RUN_MS = 240_000;

interface Finished {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** A `benchlab run` child: its output as it comes, a wait for a stderr line, and its end. */
function spawnRun(home: string, dataDir: string, args: string[]) {
  const child = spawn(process.execPath, [CLI, 'run', ...args, '--data-dir', dataDir, '--accept-new-host-keys'], {
    cwd: home,
    env: { ...process.env, HOME: home },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  const lineWaiters = new Set<() => void>();
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
    for (const check of [...lineWaiters]) check();
  });
  // 'close': the process has exited and its output has all been read.
  const ended = new Promise<Finished>((resolveEnd) => child.on('close', (code, signal) => resolveEnd({ code, signal, stdout, stderr })));
  return {
    child,
    ended: () => within(ended, 'benchlab run to exit', RUN_MS).catch((error: Error) => {
      throw new Error(`${error.message}; its stderr so far:\n${stderr}`);
    }),
    /** The first stderr line matching `pattern` (already written or still to come). */
    line: (pattern: RegExp, what: string) =>
      within(
        new Promise<string>((resolveLine) => {
          const check = () => {
            const found = stderr.split('\n').find((entry) => pattern.test(entry));
            if (found === undefined) return;
            lineWaiters.delete(check);
            resolveLine(found);
          };
          lineWaiters.add(check);
          check();
        }),
        what,
        RUN_MS,
      ),
  };
}

async function run(home: string, dataDir: string, args: string[]): Promise<Finished> {
  return spawnRun(home, dataDir, args).ended();
}

async function sysctl(key: string): Promise<string> {
  return (await labExec('server', ['sysctl', '-n', key], { instance: INSTANCE })).stdout.trim();
}

async function agentPids(): Promise<number[]> {
  const listed = await labExec('client', ['sh', '-c', `cat ${AGENT_PIDS}/*.pid 2>/dev/null; true`], { instance: INSTANCE });
  return listed.stdout.split(/\s+/).filter(Boolean).map(Number);
}

async function alive(role: 'client' | 'server', pid: number): Promise<boolean> {
  const result = await labExec(role, ['sh', '-c', `test -d /proc/${pid} && ! grep -q '^State:.*Z' /proc/${pid}/status && echo yes; true`], { instance: INSTANCE });
  return result.stdout.trim() === 'yes';
}

/** What is still there of a server: a listener on the port, or Benchlab's run folder. */
async function serverLeftovers(): Promise<string[]> {
  const listening = await labExec('server', ['ss', '-ltnH', `sport = :${PORT}`], { instance: INSTANCE });
  const runDir = await labExec('server', ['sh', '-c', `test -e ${SERVER_RUN} && echo exists; true`], { instance: INSTANCE });
  return [...(listening.stdout.trim() ? [`port ${PORT} listens`] : []), ...(runDir.stdout.includes('exists') ? [`${SERVER_RUN} exists`] : [])];
}

function planYaml(options: { durationS: number; thresholds: string[] }): string {
  return `version: 1
name: CLI lab
hosts: { client: cli-client, server: cli-server }
presets: { client: null, server: load-client }
templates:
  - { template: node, variant: async, port: ${PORT} }
  - { template: node, variant: sync, port: ${PORT} }
profile:
  request: { path: /hello }
  load: { model: closed, connections: 4, durationS: ${options.durationS} }
  pauseS: 0
thresholds:
${options.thresholds.map((threshold) => `  - ${threshold}`).join('\n')}
`;
}

describe('benchlab run on the lab', { skip: skip ?? false }, () => {
  let home: string;
  let dataDir: string;
  let fingerprints: Record<'client' | 'server', string | null>;
  let finBefore: string;

  before(async () => {
    const targets = await labTargets(INSTANCE);
    fingerprints = { client: targets.client.pinnedFingerprint ?? null, server: targets.server.pinnedFingerprint ?? null };
    home = mkdtempSync(join(tmpdir(), 'benchlab-cli-run-lab-'));
    dataDir = join(home, 'data');
    // The lab tests' shared template builds and portable Node, as openLabBackend's sharedCaches.
    mkdirSync(join(dataDir, 'cache'), { recursive: true });
    for (const [shared, name] of [[TEST_BUILD_DIR, 'template-builds'], [TEST_NODE_CACHE, 'portable-node']] as const) {
      mkdirSync(shared, { recursive: true });
      symlinkSync(shared, join(dataDir, 'cache', name));
    }
    // The hosts as a CI machine would name them: aliases of ~/.ssh/config.
    mkdirSync(join(home, '.ssh'));
    const alias = (role: 'client' | 'server') => `Host cli-${role}\n  HostName ${targets[role].address}\n  User root\n  IdentityFile ${targets.keyPath}\n`;
    writeFileSync(join(home, '.ssh', 'config'), `${alias('client')}\n${alias('server')}`);
    finBefore = await sysctl('net.ipv4.tcp_fin_timeout');
    assert.notEqual(finBefore, '15', 'the preset would change nothing to revert');
  });

  after(() => {
    if (home) rmSync(home, { recursive: true, force: true });
  });

  test('a threshold failing on purpose: exit 1, the failure with its value, JSON and JUnit written', async () => {
    writeFileSync(join(home, 'plan.yaml'), planYaml({ durationS: 2, thresholds: ['errors < 1%', 'not_sent == 0', 'p99 < 1us'] }));
    const result = await run(home, dataDir, ['plan.yaml', '--json', 'results.json', '--junit', 'results.xml']);
    assert.equal(result.code, 1, result.stderr);

    // The summary table on stdout, a row per configuration, then each failure with its value.
    const [header, ...rows] = result.stdout.split('\n');
    assert.match(header!, /^configuration\s+status\s+runs\s+req\/s\s+p50\s+p99\s+max\s+errors\s+not sent\s+server RSS max\s+thresholds$/);
    assert.match(rows[0]!, /^Node\.js \(node:http\) · async\s+completed\s+1\s+[\d,]+\s/);
    assert.match(rows[1]!, /^Node\.js \(node:http\) · sync\s+completed\s+1\s+[\d,]+\s/);
    assert.match(result.stdout, /\nFAILED Node\.js \(node:http\) · async: p99 < 1us — p99 = \d+us, not < 1us\n/);
    assert.match(result.stdout, /\nFAILED Node\.js \(node:http\) · sync: p99 < 1us — p99 = \d+us, not < 1us\n/);
    assert.match(result.stdout, /\nthresholds: 4 hold, 2 failed\n$/);
    // Progress went to stderr as plain lines (no terminal here), the host keys pinned on first use.
    assert.match(result.stderr, /^pinned the host key of cli-client: SHA256:/m);
    assert.match(result.stderr, /^\[1\/8\] Apply preset .* on cli-server$/m);
    assert.match(result.stderr, /^\[3\/8\] load running: [\d,]+ req\/s, p99 /m);
    assert.match(result.stderr, /^\[8\/8\] Revert cli-server to its settings before the preset — done/m);
    assert.match(result.stderr, /^wrote results\.json\nwrote results\.xml\n$/m);

    const json = JSON.parse(readFileSync(join(home, 'results.json'), 'utf8'));
    assert.equal(json.format, 'benchlab-plan-report');
    assert.equal(json.version, 1);
    assert.equal(json.outcome, 'failed');
    assert.equal(json.plan.status, 'completed');
    assert.equal(json.plan.sessionIds.length, 2);
    assert.deepEqual(
      json.thresholds.map((entry: { threshold: string; configuration: string; status: string }) => `${entry.threshold} ${entry.configuration} ${entry.status}`),
      ['errors < 1% node:async holds', 'errors < 1% node:sync holds', 'not_sent == 0 node:async holds', 'not_sent == 0 node:sync holds', 'p99 < 1us node:async fails', 'p99 < 1us node:sync fails'],
    );
    for (const configuration of json.configurations) assert.ok(configuration.figures.requestsPerSecond > 0, `${configuration.key} measured requests`);

    const junit = readFileSync(join(home, 'results.xml'), 'utf8');
    assert.match(junit, /^<\?xml version="1\.0" encoding="UTF-8"\?>\n<testsuites name="benchlab" tests="8" failures="2" errors="0" /);
    assert.equal(junit.match(/<failure type="threshold" message="p99 = \d+us, not &lt; 1us">/g)?.length, 2);

    // The sessions are in the data dir's database, as the app would show them; the keys pinned are the lab's.
    const sessions = JSON.parse(await cliJson(home, dataDir, ['sessions', 'list', '--json'])) as Array<{ id: number; name: string; status: string }>;
    assert.deepEqual(sessions.map((session) => [session.name, session.status]).sort(), [
      ['CLI lab — Node.js (node:http) · async', 'completed'],
      ['CLI lab — Node.js (node:http) · sync', 'completed'],
    ]);
    const hosts = JSON.parse(await cliJson(home, dataDir, ['hosts', 'list', '--json'])) as Array<{ name: string; hostKeyFingerprint: string | null }>;
    assert.deepEqual(Object.fromEntries(hosts.map((host) => [host.name, host.hostKeyFingerprint])), { 'cli-client': fingerprints.client, 'cli-server': fingerprints.server });
    assert.equal(await sysctl('net.ipv4.tcp_fin_timeout'), finBefore, 'the preset was reverted');
    assert.deepEqual(await serverLeftovers(), []);
  });

  test('every threshold holding: exit 0, and a Markdown report', async () => {
    writeFileSync(join(home, 'plan.yaml'), planYaml({ durationS: 2, thresholds: ['errors < 1%', 'not_sent == 0'] }));
    const result = await run(home, dataDir, ['plan.yaml', '--threshold', 'p99 < 10s', '--markdown', 'results.md', '--tag', 'ci']);
    assert.equal(result.code, 0, `${result.stdout}\n${result.stderr}`);
    assert.match(result.stdout, /\nthresholds: 6 hold, 0 failed\n$/);
    assert.doesNotMatch(result.stdout, /FAILED/);
    const markdown = readFileSync(join(home, 'results.md'), 'utf8');
    assert.match(markdown, /^# CLI lab: passed\n/);
    assert.equal(markdown.match(/\n\| p99 < 10s \| \d+(\.\d+)?s \| ok \|\n/g)?.length, 2);
    const tagged = JSON.parse(await cliJson(home, dataDir, ['sessions', 'list', '--tag', 'ci', '--json'])) as unknown[];
    assert.equal(tagged.length, 2);
  });

  test('Ctrl-C during a load: the load and the server stop, the preset is reverted, exit 130', async () => {
    writeFileSync(join(home, 'long.yaml'), planYaml({ durationS: 120, thresholds: ['errors < 1%'] }));
    const cli = spawnRun(home, dataDir, ['long.yaml']);
    await cli.line(/^\[3\/8\] load running: /, 'the progress line saying the first load runs');
    const agents = await until(agentPids, 'the load agent\'s pid file', 10_000, 200);
    assert.equal(await sysctl('net.ipv4.tcp_fin_timeout'), '15', 'the preset is in effect during the load');
    const serverPid = Number((await labExec('server', ['sh', '-c', `ss -ltnpH 'sport = :${PORT}' | grep -o 'pid=[0-9]*' | head -1 | cut -d= -f2`], { instance: INSTANCE })).stdout.trim());
    assert.ok(serverPid > 0, 'the server listens while the load runs');

    cli.child.kill('SIGINT');
    const result = await cli.ended();
    assert.equal(result.code, 130, result.stderr);
    assert.match(result.stderr, /^SIGINT: stopping the plan — the load and the server are stopped and the hosts reverted/m);
    assert.match(result.stderr, /^\[3\/8\] Load .* — cancelled: stopped; the seconds measured are kept$/m);
    assert.match(result.stderr, /^\[8\/8\] Revert cli-server to its settings before the preset — done/m);
    assert.match(result.stderr, /plan cancelled: cancelled: the server was stopped and the rest skipped/);

    for (const pid of agents) assert.equal(await alive('client', pid), false, `agent ${pid} still runs on the client`);
    assert.deepEqual(await agentPids(), [], 'no agent pid file is left');
    assert.equal(await alive('server', serverPid), false, 'the server process still runs');
    assert.deepEqual(await serverLeftovers(), []);
    assert.equal(await sysctl('net.ipv4.tcp_fin_timeout'), finBefore, 'the host was reverted');
    const pending = JSON.parse(await cliJson(home, dataDir, ['call', 'presets.pending'])) as unknown[];
    assert.deepEqual(pending, [], 'nothing is left pending revert');
  });
});

/** Another command's JSON output on the same data dir. */
async function cliJson(home: string, dataDir: string, args: string[]): Promise<string> {
  const child = spawn(process.execPath, [CLI, ...args, '--data-dir', dataDir], { cwd: home, env: { ...process.env, HOME: home }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const code = await within(new Promise<number | null>((resolveCode) => child.on('close', resolveCode)), `benchlab ${args.join(' ')}`, 30_000);
  assert.equal(code, 0, `benchlab ${args.join(' ')}: ${stderr}`);
  return stdout;
}
