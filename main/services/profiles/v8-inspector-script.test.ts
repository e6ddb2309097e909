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

test('the script profiles a Node server through the inspector it opens, then closes it', { skip: process.platform !== 'linux' }, async () => {
  // A server that keeps one core busy a little, so the profile has samples of its own code.
  const server = spawn(process.execPath, ['-e', "const http = require('http'); function spin() { const end = Date.now() + 5; while (Date.now() < end); setTimeout(spin, 1); } spin(); http.createServer((q, r) => r.end('ok')).listen(0, '127.0.0.1', function () { console.log(this.address().port); });"], { stdio: ['ignore', 'pipe', 'ignore'] });
  try {
    const [chunk] = (await once(server.stdout, 'data')) as [Buffer];
    const port = Number(chunk.toString().trim());
    assert.deepEqual(listeningPorts(server.pid!), [port], 'before: its own port alone');

    const profiler = spawn(process.execPath, ['-e', V8_INSPECTOR_SCRIPT, String(server.pid), String(port), '1000'], { stdio: ['pipe', 'pipe', 'inherit'] });
    let output = '';
    profiler.stdout.on('data', (data: Buffer) => {
      output += data.toString();
      if (output.includes('@started') && profiler.stdin.writable) profiler.stdin.end();
    });
    await once(profiler, 'exit');
    assert.ok(output.includes('@v8 '), output.slice(0, 300));
    const profile = JSON.parse(output.slice(output.indexOf('@v8 ') + 4)) as { nodes: Array<{ callFrame: { functionName: string } }>; samples: number[] };
    assert.ok(profile.samples.length > 0, 'samples were taken');
    assert.ok(profile.nodes.some((node) => node.callFrame.functionName === 'spin'), 'the server’s own function is on the stacks');

    // The inspector goes a moment after the reply: wait for it, bounded.
    const deadline = Date.now() + 10_000;
    while (listeningPorts(server.pid!).length > 1 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    assert.deepEqual(listeningPorts(server.pid!), [port], 'after: the inspector it opened is closed');
  } finally {
    server.kill();
  }
});
