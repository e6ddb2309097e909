// Tests of the agent's pipes while Benchlab does not read them: its lines wait and all arrive, the
// end line last, once Benchlab reads again; it is waited for as long as it may be alive (its
// heartbeats still come, or its silence is under the limit); a Benchlab gone (stdin closed) is not.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { PassThrough } from 'node:stream';
import { describe, test } from 'node:test';
import { encodeLine } from '../app/runs/agent-protocol.ts';
import { AgentIo } from './agent-io.ts';

/** A heartbeat limit short enough for a test; the rules are relations to it. */
const LIMIT_MS = 300;

/** Benchlab's side: its stdin to the agent, and the agent's stdout, which it does not read yet (a small buffer that fills). */
function pipes() {
  const input = new PassThrough();
  const output = new PassThrough({ highWaterMark: 64 });
  return { input, output, io: new AgentIo(input, output, LIMIT_MS) };
}

/** Whether `promise` has settled by the time `steps` heartbeats have gone in, LIMIT_MS / 3 apart. */
async function settledWhileBeating(promise: Promise<void>, input: PassThrough | null, steps: number): Promise<boolean> {
  let settled = false;
  void promise.then(() => (settled = true));
  for (let step = 0; step < steps && !settled; step++) {
    await new Promise((resolve) => setTimeout(resolve, LIMIT_MS / 3));
    input?.write(encodeLine({ type: 'hb' }));
  }
  return settled;
}

function readAll(output: PassThrough): string[] {
  const lines: string[] = [];
  output.setEncoding('utf8');
  let rest = '';
  output.on('data', (chunk: string) => {
    const parts = (rest + chunk).split('\n');
    rest = parts.pop()!;
    lines.push(...parts);
  });
  return lines;
}

describe('agent io while Benchlab does not read', () => {
  test('a Benchlab that still beats is waited for past the limit, and gets every line and the end last', async () => {
    const { input, output, io } = pipes();
    for (let second = 0; second < 20; second++) io.log('info', `second ${second}`);
    const finished = io.finish({ type: 'end', reason: 'completed' });
    // Five times the heartbeat limit (and over the 1 s a gone Benchlab is given) without reading:
    // alive, its heartbeats come, so the agent waits.
    assert.equal(await settledWhileBeating(finished, input, 15), false, 'finished before Benchlab read its lines');
    assert.equal(io.stopReason, null, 'its heartbeats kept it from stopping');
    const lines = readAll(output);
    await finished;
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(lines.length, 21);
    assert.deepEqual(JSON.parse(lines.at(-1)!), { type: 'end', reason: 'completed' });
    assert.match(lines[19]!, /second 19/);
  });

  test('a silent Benchlab is waited for up to the limit, then given up', async () => {
    const { output, io } = pipes();
    for (let second = 0; second < 20; second++) io.log('info', `second ${second}`);
    const startedAt = Date.now();
    const finished = io.finish({ type: 'end', reason: 'heartbeat' });
    assert.equal(await settledWhileBeating(finished, null, 2), false, 'gave up within the limit');
    await finished;
    assert.ok(Date.now() - startedAt >= LIMIT_MS, `gave up after ${Date.now() - startedAt} ms`);
    output.destroy();
  });

  test('a Benchlab gone (stdin closed) stops the agent at once and is not waited for', async () => {
    const { input, output, io } = pipes();
    let stoppedAt: number | null = null;
    io.onStop((reason) => {
      assert.equal(reason, 'stdin-closed');
      stoppedAt = Date.now();
    });
    for (let second = 0; second < 20; second++) io.log('info', `second ${second}`);
    const closedAt = Date.now();
    input.end();
    await new Promise((resolve) => input.once('end', resolve));
    assert.ok(stoppedAt !== null && stoppedAt - closedAt < LIMIT_MS, 'stopped on the end of stdin, not by the heartbeat rule');
    const startedAt = Date.now();
    await io.finish({ type: 'end', reason: 'stdin-closed' });
    assert.ok(Date.now() - startedAt <= 1000 + LIMIT_MS, `waited ${Date.now() - startedAt} ms for a Benchlab that is gone`);
    output.destroy();
  });
});

describe("the agent's own stall", () => {
  test("an agent that did not run for longer than the limit reads Benchlab's heartbeats from the pipe before it judges Benchlab silent", async () => {
    // Benchlab's side as a real pipe: its heartbeats wait in the pipe while the agent's loop does not run.
    const beating = spawn('sh', ['-c', `while :; do echo '${encodeLine({ type: 'hb' }).trim()}'; sleep 0.05; done`], { stdio: ['ignore', 'pipe', 'ignore'] });
    try {
      const output = new PassThrough();
      output.resume();
      const io = new AgentIo(beating.stdout, output, LIMIT_MS);
      await new Promise((resolve) => beating.stdout.once('data', resolve));
      // The loop stalls for three limits while it handles another pipe's input (a host too busy to
      // run the agent, or a long line): when it ends, the next turn of the loop runs the timers,
      // the watchdog's among them, before it reads the pipe the heartbeats wait in.
      const other = spawn('sh', ['-c', 'echo go'], { stdio: ['ignore', 'pipe', 'ignore'] });
      await new Promise<void>((resolve) =>
        other.stdout.once('data', () => {
          const until = Date.now() + 3 * LIMIT_MS;
          while (Date.now() < until) {
            // stalled
          }
          resolve();
        }),
      );
      await new Promise((resolve) => setTimeout(resolve, 2 * LIMIT_MS));
      assert.equal(io.stopReason, null, "stopped for Benchlab's silence while its heartbeats waited in the pipe");
      beating.kill();
      await new Promise((resolve) => beating.once('close', resolve));
      // And a Benchlab really silent (its side closed here) is still noticed.
      await new Promise((resolve) => setTimeout(resolve, 2 * LIMIT_MS));
      assert.notEqual(io.stopReason, null);
    } finally {
      beating.kill();
    }
  });
});
