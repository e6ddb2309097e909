// The runtime's own figures read from real processes on this machine: a Node server started with the
// event-loop monitor preloaded, whose loop is then blocked on request or made to allocate, a Node
// cluster (a primary and two workers) whose monitor lines the test writes, read as one server, and a
// JVM started with the GC log flag, allocating until it collects. Each is found by its port, as the
// server sampler finds a template's server, and read through the flags the templates start with.

import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { ServerMetrics } from '../app/runs/agent-protocol.ts';
import { EVENT_LOOP_FOLDER } from '../app/runs/event-loop-monitor.ts';
import { withRuntimeMonitors } from '../app/runs/runtime-monitors.ts';
import { ServerSampler } from './server-sampler.ts';

const linux = process.platform === 'linux';
const javaProbe = spawnSync('java', ['-version'], { encoding: 'utf8' });
const java = javaProbe.status === 0;
/** This machine's Java as the templates' host facts give it ("17.0.9"; Java 8 says "1.8.0_392"). */
const JAVA_VERSION = /version "(?:1\.)?(\d+)/.exec(javaProbe.stderr ?? '')?.[1] ?? null;
const dirs: string[] = [];
const children: ChildProcess[] = [];

after(() => {
  for (const child of children) child.kill('SIGKILL');
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/**
 * Starts a server as a template's `{node}` or `{java}` start would, with the monitor's flags; resolves
 * once it prints its port. `silentMonitor`: the preloaded module writes nothing (the test writes its lines).
 */
async function startMonitored(placeholder: '{node}' | '{java}', argv: string[], silentMonitor = false): Promise<{ child: ChildProcess; port: number; dir: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'benchlab-runtime-'));
  dirs.push(dir);
  const started = withRuntimeMonitors(placeholder, argv, dir, JAVA_VERSION);
  for (const file of started.files) writeFileSync(join(dir, file.name), silentMonitor ? '' : file.text);
  const child = spawn(started.argv[0]!, started.argv.slice(1), { cwd: dir, stdio: ['pipe', 'pipe', 'inherit'] });
  children.push(child);
  const port = await new Promise<number>((resolve, reject) => {
    let text = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      if (text.includes('\n')) resolve(Number(text.split('\n')[0]));
    });
    child.once('exit', (code) => reject(new Error(`exited with ${code} before it printed its port`)));
  });
  return { child, port, dir };
}

/** Samples once a second (as the agent does) until `done` says a reading is the one wanted, at most `most` times. */
async function sampleUntil(sampler: ServerSampler, done: (metrics: ServerMetrics) => boolean, most: number): Promise<ServerMetrics[]> {
  const readings: ServerMetrics[] = [];
  for (let i = 0; i < most; i++) {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const metrics = ServerMetrics.parse(sampler.sample());
    readings.push(metrics);
    if (done(metrics)) break;
  }
  return readings;
}

/**
 * A server whose loop runs a busy wait of N ms for each line `block N` on its stdin, and builds N
 * strings of a million letters one letter at a time (as the templates' /concat) for `alloc N`.
 */
const NODE_SERVER = `
const server = require('node:net').createServer(() => {});
server.listen(0, '127.0.0.1', () => console.log(server.address().port));
let kept = 0;
require('node:readline').createInterface({ input: process.stdin }).on('line', (line) => {
  const [what, count] = line.split(' ');
  if (what === 'alloc') {
    for (let i = 0; i < Number(count); i++) {
      let text = '';
      for (let j = 0; j < 1000000; j++) text += String.fromCharCode(97 + (j % 26));
      kept += text.length;
    }
    return;
  }
  const until = Date.now() + Number(count);
  while (Date.now() < until);
});
`;

/** A Node cluster: the primary listens (so the sampler finds it) and forks two workers that idle. */
const CLUSTER_SERVER = `
const cluster = require('node:cluster');
if (cluster.isPrimary) {
  const server = require('node:net').createServer(() => {});
  let online = 0;
  for (let i = 0; i < 2; i++) cluster.fork().on('online', () => { if (++online === 2) server.listen(0, '127.0.0.1', () => console.log(server.address().port)); });
} else setInterval(() => {}, 1000);
`;

/** A JVM that listens (so the sampler finds it) and allocates, on a small heap, until it is killed. */
const JAVA_SERVER = `
public class Alloc {
  static volatile Object sink;
  public static void main(String[] args) throws Exception {
    java.net.ServerSocket server = new java.net.ServerSocket(0, 50, java.net.InetAddress.getLoopbackAddress());
    System.out.println(server.getLocalPort());
    while (true) { for (int i = 0; i < 2000; i++) sink = new byte[1024]; Thread.sleep(1); }
  }
}
`;

describe("the runtime's own figures from real processes", { skip: !linux }, () => {
  test("a Node server's event-loop delay: small while its loop is free, the block's length once it is blocked, and the whole stall while it stays blocked", async () => {
    const { child, port } = await startMonitored('{node}', [process.execPath, '-e', NODE_SERVER]);
    const sampler = new ServerSampler(port);
    const first = ServerMetrics.parse(sampler.sample());
    assert.equal(first.eventLoopDelayP99Ms, undefined, 'the first reading only marks where the monitor’s file ends');
    const free = (await sampleUntil(sampler, (metrics) => metrics.eventLoopDelayMaxMs !== undefined, 10)).at(-1)!;
    assert.ok(free.eventLoopDelayMaxMs !== undefined, 'the monitor wrote its second');
    assert.ok(free.eventLoopDelayP50Ms! <= free.eventLoopDelayP99Ms! && free.eventLoopDelayP99Ms! <= free.eventLoopDelayMaxMs!, JSON.stringify(free));

    const BLOCK_MS = 400;
    child.stdin!.write(`block ${BLOCK_MS}\n`);
    const blocked = (await sampleUntil(sampler, (metrics) => (metrics.eventLoopDelayMaxMs ?? 0) > free.eventLoopDelayMaxMs!, 5)).at(-1)!;
    assert.ok(blocked.eventLoopDelayMaxMs! > free.eventLoopDelayMaxMs!, `${JSON.stringify(free)} then ${JSON.stringify(blocked)}`);
    // A timer due during the block ran when it ended: late by about the block, less the monitor's 10 ms interval.
    assert.ok(blocked.eventLoopDelayMaxMs! >= BLOCK_MS / 2 && blocked.eventLoopDelayMaxMs! <= BLOCK_MS + 1000, String(blocked.eventLoopDelayMaxMs));

    // Blocked for longer than the monitor's seconds: it writes nothing, and the stall is read as a delay at every percentile.
    const STALL_MS = 3500;
    child.stdin!.write(`block ${STALL_MS}\n`);
    // Read against the shorter block's: the stall reaches past it at every percentile, not only at the maximum.
    const stalled = (await sampleUntil(sampler, (metrics) => (metrics.eventLoopDelayP50Ms ?? 0) > blocked.eventLoopDelayMaxMs!, 6)).at(-1)!;
    assert.ok(stalled.eventLoopDelayP50Ms! > blocked.eventLoopDelayMaxMs!, `a loop blocked for seconds, after one blocked for ${BLOCK_MS} ms: ${JSON.stringify(blocked)} then ${JSON.stringify(stalled)}`);
    assert.equal(stalled.eventLoopDelayP50Ms, stalled.eventLoopDelayMaxMs);
  });

  test("a Node cluster's GC is one server's: the processes' pauses added up, the most-paused process's time, the longest of any, their heaps added up; the monitor's runs added up", async () => {
    // A file, not -e: node:cluster forks its workers from the primary's script.
    const scriptDir = mkdtempSync(join(tmpdir(), 'benchlab-cluster-'));
    dirs.push(scriptDir);
    writeFileSync(join(scriptDir, 'cluster.cjs'), CLUSTER_SERVER);
    const { child, port, dir } = await startMonitored('{node}', [process.execPath, join(scriptDir, 'cluster.cjs')], true);
    const workers = readFileSync(`/proc/${child.pid}/task/${child.pid}/children`, 'utf8').trim().split(/\s+/).map(Number);
    assert.equal(workers.length, 2, 'the primary forked its two workers');
    const folder = join(dir, EVENT_LOOP_FOLDER);
    mkdirSync(folder, { recursive: true });
    const write = (pid: number, figures: object) => appendFileSync(join(folder, `${pid}.jsonl`), `${JSON.stringify({ at: Date.now(), p50: 0.1, p99: 1, max: 2, ...figures })}\n`);
    const [primary, first, second] = [child.pid!, workers[0]!, workers[1]!];
    // Before the run: the primary's heap after its last pause is known from its file's last line.
    write(primary, { wakes: 100, gc: 1, gcMs: 1, gcMaxMs: 1, heap: 5e6 });
    write(first, { wakes: 100, gc: 0, gcMs: 0, gcMaxMs: 0 });
    write(second, { wakes: 100, gc: 0, gcMs: 0, gcMaxMs: 0 });
    const sampler = new ServerSampler(port);
    assert.equal(ServerMetrics.parse(sampler.sample()).gcPauses, undefined, 'the first reading only marks where the files end');

    write(primary, { wakes: 101, gc: 0, gcMs: 0, gcMaxMs: 0 });
    write(first, { wakes: 90, gc: 3, gcMs: 30, gcMaxMs: 20, heap: 40e6 });
    write(second, { wakes: 80, gc: 5, gcMs: 45, gcMaxMs: 12, heap: 42e6 });
    const busy = ServerMetrics.parse(sampler.sample());
    assert.deepEqual([busy.gcPauses, busy.gcPauseMs, busy.gcLongestPauseMs, busy.heapAfterGcBytes, busy.monitorWakesPerS], [8, 45, 20, 87e6, 271]);

    write(first, { wakes: 100, gc: 0, gcMs: 0, gcMaxMs: 0 });
    const quiet = ServerMetrics.parse(sampler.sample());
    assert.deepEqual([quiet.gcPauses, quiet.gcPauseMs, quiet.heapAfterGcBytes, quiet.monitorWakesPerS], [0, 0, undefined, 100], 'no pause ended: no heap after one, as a JVM; a process without a new line has paused nothing');
  });

  test("a Node server's GC from V8 as its monitor observes it: every second has its count, pauses while it allocates, with the time paused and the heap after; the monitor's own timer runs counted", async () => {
    const { child, port } = await startMonitored('{node}', [process.execPath, '-e', NODE_SERVER]);
    const sampler = new ServerSampler(port);
    assert.equal(ServerMetrics.parse(sampler.sample()).gcPauses, undefined, 'the first reading only marks where the file ends');
    const idle = (await sampleUntil(sampler, (metrics) => metrics.gcPauses !== undefined, 10)).at(-1)!;
    assert.ok(idle.gcPauses !== undefined && idle.monitorWakesPerS !== undefined, `the monitor wrote its second: ${JSON.stringify(idle)}`);
    // An idle loop: its only timers are the monitor's, about a hundred runs a second (10 ms apart).
    assert.ok(idle.monitorWakesPerS! > 10, `the monitor's timer ran: ${idle.monitorWakesPerS}`);

    child.stdin!.write('alloc 8\n');
    const readings = await sampleUntil(sampler, (metrics) => (metrics.gcPauses ?? 0) > idle.gcPauses!, 8);
    const collected = readings.at(-1)!;
    assert.ok(collected.gcPauses! > idle.gcPauses!, `allocating, more pauses: ${idle.gcPauses} then ${JSON.stringify(readings.map((metrics) => metrics.gcPauses))}`);
    assert.ok(readings.every((metrics) => metrics.gcPauses !== undefined), 'every reading has its count, zero when no pause ended');
    assert.ok(collected.gcPauseMs! >= collected.gcLongestPauseMs! && collected.gcLongestPauseMs! > 0, JSON.stringify(collected));
    assert.ok(collected.gcPauseMs! > idle.gcPauseMs!, `more time paused than idle: ${idle.gcPauseMs} then ${collected.gcPauseMs}`);
    assert.ok(collected.heapAfterGcBytes! > 0, `the heap after its last pause: ${collected.heapAfterGcBytes}`);
  });

  test('a second read before the monitor’s next line gives the line it wrote last, from the first reading on', async () => {
    const { child, port, dir } = await startMonitored('{node}', [process.execPath, '-e', NODE_SERVER], true);
    const folder = join(dir, EVENT_LOOP_FOLDER);
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, `${child.pid}.jsonl`), `${JSON.stringify({ at: Date.now(), p50: 0.1, p99: 0.7, max: 3 })}\n`);
    const sampler = new ServerSampler(port);
    const first = ServerMetrics.parse(sampler.sample());
    assert.equal(first.eventLoopDelayP99Ms, undefined, 'the first reading only marks where the file ends');
    const next = ServerMetrics.parse(sampler.sample());
    assert.deepEqual([next.eventLoopDelayP50Ms, next.eventLoopDelayP99Ms, next.eventLoopDelayMaxMs], [0.1, 0.7, 3]);
  });

  test('a JVM’s GC pauses from its GC log: counted from the run’s start, with their total, the longest and the heap after', { skip: !java }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'benchlab-alloc-'));
    dirs.push(dir);
    writeFileSync(join(dir, 'Alloc.java'), JAVA_SERVER);
    const { port } = await startMonitored('{java}', ['java', '-Xmx32m', '-XX:+UseSerialGC', join(dir, 'Alloc.java')]);
    const sampler = new ServerSampler(port);
    const first = ServerMetrics.parse(sampler.sample());
    assert.equal(first.gcPauses, undefined, 'the first reading only marks where the log ends: the pauses before the run are not counted');
    const readings = await sampleUntil(sampler, (metrics) => (metrics.gcPauses ?? 0) > 0, 20);
    const collected = readings.at(-1)!;
    assert.ok(collected.gcPauses! > 0, `readings: ${JSON.stringify(readings.map((metrics) => metrics.gcPauses))}`);
    assert.ok(readings.every((metrics) => metrics.gcPauses !== undefined), 'every reading after the first has its count, zero when no pause ended');
    assert.ok(collected.gcPauseMs! >= collected.gcLongestPauseMs! && collected.gcLongestPauseMs! > 0, JSON.stringify(collected));
    assert.ok(collected.gcLongestPauseMs! * collected.gcPauses! >= collected.gcPauseMs!, 'no pause is longer than the longest');
    assert.ok(collected.heapAfterGcBytes! > 0 && collected.heapAfterGcBytes! <= 32 * 1024 ** 2, `heap after GC within -Xmx32m: ${collected.heapAfterGcBytes}`);
    assert.equal(collected.eventLoopDelayP99Ms, undefined, 'a JVM carries no event-loop monitor');
  });
});
