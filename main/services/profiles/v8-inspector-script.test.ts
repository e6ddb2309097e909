// The V8 profile script against a real Node server on this machine: it opens the server's inspector,
// takes a profile while the server works, and closes the inspector it opened — afterwards the server
// listens on its own port alone, as before (an inspector left open lets any local user run code as it).

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { test } from 'node:test';
import { V8_INSPECTOR_SCRIPT } from './v8-inspector-script.ts';

/** The ports a process listens on, from its sockets in /proc. */
function listeningPorts(pid: number): number[] {
  const inodes = new Set<string>();
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      const match = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
      if (match) inodes.add(match[1]!);
    } catch {
      // A descriptor closed while read.
    }
  }
  const ports: number[] = [];
  for (const file of ['tcp', 'tcp6']) {
    for (const line of readFileSync(`/proc/${pid}/net/${file}`, 'utf8').split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      if (fields.length >= 10 && fields[3] === '0A' && inodes.has(fields[9]!)) ports.push(parseInt(fields[1]!.split(':').pop()!, 16));
    }
  }
  return ports.sort((a, b) => a - b);
}

/** A stream's output as it comes; `when` resolves once a condition on it holds, checked on each chunk. */
function collected(stream: NodeJS.ReadableStream): { text: () => string; when: (done: (text: string) => boolean) => Promise<void> } {
  let text = '';
  const waiting: Array<{ done: (text: string) => boolean; resolve: () => void }> = [];
  stream.on('data', (chunk: Buffer) => {
    text += chunk.toString();
    for (const waiter of waiting.filter((entry) => entry.done(text))) {
      waiting.splice(waiting.indexOf(waiter), 1);
      waiter.resolve();
    }
  });
  return {
    text: () => text,
    when: (done) => (done(text) ? Promise.resolve() : new Promise((resolve) => waiting.push({ done, resolve }))),
  };
}

/** A process's CPU time so far (user and system), in clock ticks, from /proc. */
function cpuTicks(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return Number(fields[11]) + Number(fields[12]);
}

/** The server's own CPU time the profile covers: about 100 samples of its spin at 1 ms. */
const TICKS_PROFILED = 10;

test('the script profiles a Node server through the inspector it opens, then closes it', { skip: process.platform !== 'linux' }, async () => {
  // A server that keeps one core busy a little, so the profile has samples of its own code; it
  // writes its port once it listens.
  const server = spawn(process.execPath, ['-e', "const http = require('http'); function spin() { const end = Date.now() + 5; while (Date.now() < end); setTimeout(spin, 1); } spin(); http.createServer((q, r) => r.end('ok')).listen(0, '127.0.0.1', function () { console.log(this.address().port); });"], { stdio: ['ignore', 'pipe', 'ignore'] });
  const served = collected(server.stdout);
  try {
    await served.when((text) => /^\d+\n/.test(text));
    const port = parseInt(served.text(), 10);
    assert.deepEqual(listeningPorts(server.pid!), [port], 'before: its own port alone');

    const profiler = spawn(process.execPath, ['-e', V8_INSPECTOR_SCRIPT, String(server.pid), String(port), '1000'], { stdio: ['pipe', 'pipe', 'inherit'] });
    const exited = once(profiler, 'exit');
    const printed = collected(profiler.stdout);
    await printed.when((text) => text.includes('@started'));
    // A busy machine can leave the server no turn between the start and an immediate end: the
    // profile ends once the server has had TICKS_PROFILED of CPU under it (a state, polled).
    const ticksBefore = cpuTicks(server.pid!);
    while (cpuTicks(server.pid!) < ticksBefore + TICKS_PROFILED) await new Promise((resolve) => setTimeout(resolve, 20));
    profiler.stdin.end();
    await exited;
    const output = printed.text();
    assert.ok(output.includes('@v8 '), output.slice(0, 300));
    const profile = JSON.parse(output.slice(output.indexOf('@v8 ') + 4)) as { nodes: Array<{ id: number; callFrame: { functionName: string } }>; samples: number[] };
    assert.ok(profile.samples.length > 0, 'samples were taken');
    // The server's spin, or the timer that runs it: one run in ten here (and a CI run) had V8 put
    // every sample of spin's loop under its caller, listOnTimeout, with no frame of spin's own.
    // The lab test of the profiles holds a template's own hot function to its top frames.
    const working = new Set(profile.nodes.filter((node) => ['spin', 'listOnTimeout'].includes(node.callFrame.functionName)).map((node) => node.id));
    assert.ok(profile.samples.some((id) => working.has(id)), `the server’s own work has samples of its own: ${profile.samples.length} samples, ${profile.nodes.map((node) => node.callFrame.functionName).join(', ')}`);

    // The inspector goes a moment after the reply: wait for it, bounded.
    const deadline = Date.now() + 10_000;
    while (listeningPorts(server.pid!).length > 1 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    assert.deepEqual(listeningPorts(server.pid!), [port], 'after: the inspector it opened is closed');
  } finally {
    server.kill();
  }
});
