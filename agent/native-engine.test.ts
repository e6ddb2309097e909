// The agent's side of the native engine against stand-in engines (small scripts speaking the
// engine's lines, agent/engine/README.md), so each rule is checked whatever the real engine does:
// the config line it gets (threads as planThreads splits them), interval lines turned into sample
// lines with the engine's CPU, threads and loop lag as the client's figures, stop passed on, and
// every way an engine can fail — missing, crashing, writing nonsense, ignoring its stop — ending
// the run with a clear error (or the stop it was given), never a hang and never an engine left
// running. The real engine's behaviour is the conformance suite's (agent/conformance/).

import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import type { LoadAgentConfig } from '../app/runs/agent-protocol.ts';
import { until } from '../tests/support/until.ts';
import { endOf, runAgent, samplesOf } from './agent-harness.ts';
import { isRunning } from '../tests/support/processes.ts';

const dir = mkdtempSync(join(tmpdir(), 'benchlab-native-engine-test-'));
after(() => rmSync(dir, { recursive: true, force: true }));

function interval(second: number, cpuS: number, extra: Record<string, unknown> = {}) {
  return {
    type: 'interval',
    second,
    at: Date.now(),
    phase: 'measure',
    durationMs: 1000,
    scheduled: 10,
    requests: 10,
    bytes: 430,
    status: { '1xx': 0, '2xx': 10, '3xx': 0, '4xx': 0, '5xx': 0 },
    errors: { timeout: 0, refused: 0, reset: 0, closed: 0, other: 0 },
    notSent: { 'pool-full': 0, 'step-ended': 0 },
    inFlight: 0,
    histogram: null,
    p50Us: null,
    p90Us: null,
    p99Us: null,
    maxUs: null,
    engine: { threads: 2, cpuS, lagMs: 1.5, backlog: 3, sent: 10, portErrors: 1, newConnections: 4, connectUsMax: 250 },
    ...extra,
  };
}

/**
 * A stand-in engine: a script that reads the config line (saved to `<name>.config.json`), writes
 * `lines` (and exits if the last is an end line), then on `stop` or EOF writes `onStop` and exits —
 * unless `deaf`, or it does `crash`.
 */
function standIn(name: string, behaviour: { lines?: unknown[]; raw?: string; onStop?: unknown[]; deaf?: boolean; crash?: string }): string {
  const script = join(dir, `${name}.mjs`);
  const pidFile = join(dir, `${name}.pid`);
  writeFileSync(
    script,
    `import { writeFileSync } from 'node:fs';
const behaviour = ${JSON.stringify(behaviour)};
writeFileSync(${JSON.stringify(pidFile)}, String(process.pid));
let input = '';
let configured = false;
const out = (line) => process.stdout.write(JSON.stringify(line) + '\\n');
const stop = () => {
  if (behaviour.deaf) return;
  for (const line of behaviour.onStop ?? []) out(line);
  process.exit(0);
};
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => {
  input += chunk;
  const lines = input.split('\\n');
  input = lines.pop();
  for (const line of lines) {
    if (!configured) {
      configured = true;
      writeFileSync(${JSON.stringify(join(dir, `${name}.config.json`))}, line);
      if (behaviour.crash) {
        process.stderr.write(behaviour.crash + '\\n');
        process.exit(3);
      }
      for (const out_ of behaviour.lines ?? []) out(out_);
      if (behaviour.raw) process.stdout.write(behaviour.raw);
      if (behaviour.lines?.at(-1)?.type === 'end') process.exit(0);
    } else if (JSON.parse(line).type === 'stop') stop();
  }
});
process.stdin.on('end', stop);
if (behaviour.deaf) setInterval(() => undefined, 1000);
`,
  );
  const path = join(dir, name);
  writeFileSync(path, `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(script)} "$@"\n`);
  chmodSync(path, 0o755);
  return path;
}

function pidOf(name: string): number {
  return Number(readFileSync(join(dir, `${name}.pid`), 'utf8'));
}

function config(path: string, load: LoadAgentConfig['load'] = { model: 'closed', connections: 5, pipelining: 2, durationS: 30 }, extra: Partial<LoadAgentConfig> = {}): LoadAgentConfig {
  return {
    role: 'load',
    target: { protocol: 'http', hostname: '127.0.0.1', port: 9 },
    request: { method: 'GET', path: '/hello', headers: {}, timeoutMs: 2000 },
    load,
    warmupS: 1,
    capS: 30,
    workers: 2,
    engine: { kind: 'native', path },
    ...extra,
  };
}

describe('native engine adapter', () => {
  test('the engine gets the step with its threads split as the Node engine splits them', async () => {
    const path = standIn('config-closed', { lines: [{ type: 'ready', threads: 2 }], onStop: [{ type: 'end', reason: 'stopped' }] });
    const run = await runAgent(config(path, { model: 'closed', connections: 5, pipelining: 2, requests: 101 }), { stopAfterMs: 0 });
    assert.equal(endOf(run)?.reason, 'stopped', run.stderr);
    const sent = JSON.parse(readFileSync(join(dir, 'config-closed.config.json'), 'utf8'));
    assert.deepEqual(sent, {
      target: { protocol: 'http', hostname: '127.0.0.1', port: 9 },
      request: { method: 'GET', path: '/hello', headers: {}, timeoutMs: 2000 },
      load: { model: 'closed', connections: 5, pipelining: 2, requests: 101 },
      warmupS: 1,
      capS: 30,
      threads: [
        { connections: 3, requests: 51 },
        { connections: 2, requests: 50 },
      ],
    });
    const open = standIn('config-open', { lines: [{ type: 'ready', threads: 2 }], onStop: [{ type: 'end', reason: 'stopped' }] });
    await runAgent(config(open, { model: 'open', rate: 100, durationS: 2, connections: 7 }), { stopAfterMs: 0 });
    assert.deepEqual(JSON.parse(readFileSync(join(dir, 'config-open.config.json'), 'utf8')).threads, [
      { rate: 50, phase: 0, maxConnections: 4 },
      { rate: 50, phase: 0.5, maxConnections: 3 },
    ]);
  });

  test('each interval becomes a sample line: the books as they are, the engine’s CPU, threads and lag as the client’s', async () => {
    const path = standIn('intervals', {
      lines: [{ type: 'ready', threads: 2 }, interval(0, 0.2), interval(1, 0.2), interval(2, 4.2), { type: 'log', level: 'warn', message: 'a word from the engine' }, { type: 'end', reason: 'completed' }],
    });
    const run = await runAgent(config(path));
    assert.equal(endOf(run)?.reason, 'completed', run.stderr);
    assert.equal(run.lines.find((line) => line.type === 'hello' && line.engine === 'native')?.type, 'hello');
    const samples = samplesOf(run);
    assert.deepEqual(
      samples.map((line) => [line.second, line.requests, line.bytes, line.status['2xx']]),
      [
        [0, 10, 430, 10],
        [1, 10, 430, 10],
        [2, 10, 430, 10],
      ],
    );
    const client = samples[1]!.client;
    assert.deepEqual([client.loadThreads, client.eventLoopLagMs, client.backlog, client.sent, client.portErrors, client.newConnections, client.connectUsMax], [2, 1.5, 3, 10, 1, 4, 250]);
    // No CPU used between the first and second lines, 4 s between the second and the third.
    assert.equal(client.agentCpu, 0);
    assert.ok(samples[2]!.client.agentCpu > 0);
    assert.ok(run.lines.some((line) => line.type === 'log' && line.level === 'warn' && line.message === 'a word from the engine'));
  });

  test('stop is passed on; the engine’s last line is the run’s', async () => {
    const path = standIn('stop', { lines: [{ type: 'ready', threads: 2 }, interval(0, 0.1)], onStop: [interval(1, 0.2, { durationMs: 300, inFlight: 2, scheduled: 12 }), { type: 'end', reason: 'stopped' }] });
    const run = await runAgent(config(path), { stopWhen: (line) => line.type === 'sample' });
    assert.equal(endOf(run)?.reason, 'stopped');
    assert.deepEqual(
      samplesOf(run).map((line) => [line.second, line.durationMs, line.inFlight]),
      [
        [0, 1000, 0],
        [1, 300, 2],
      ],
    );
  });

  test('a missing engine ends the run with an error that names it', async () => {
    const run = await runAgent(config(join(dir, 'no-such-engine')));
    assert.equal(endOf(run)?.reason, 'error');
    assert.match(endOf(run)?.message ?? '', /the native engine could not start \(.*no-such-engine\): .*ENOENT/);
    assert.equal(samplesOf(run).length, 0);
  });

  test('an engine that crashes ends the run with its last word; one that writes nonsense is stopped', async () => {
    const crash = await runAgent(config(standIn('crash', { crash: 'panic: runtime error: index out of range' })));
    assert.equal(endOf(crash)?.reason, 'error');
    assert.equal(endOf(crash)?.message, 'the native engine exited with code 3 before its end line: panic: runtime error: index out of range');
    const nonsense = await runAgent(config(standIn('nonsense', { lines: [{ type: 'ready', threads: 2 }], raw: 'fatal error: all goroutines are asleep\n', onStop: [{ type: 'end', reason: 'stopped' }] })));
    assert.equal(endOf(nonsense)?.reason, 'error');
    assert.match(endOf(nonsense)?.message ?? '', /^the native engine wrote a line the agent cannot read: not JSON: fatal error/);
    assert.equal(isRunning(pidOf('nonsense')), false);
  });

  test('an engine that ignores its stop is killed, and the run ends as stopped', async () => {
    const path = standIn('deaf', { lines: [{ type: 'ready', threads: 2 }, interval(0, 0.1)], deaf: true });
    const run = await runAgent(config(path), { stopWhen: (line) => line.type === 'sample' });
    assert.equal(endOf(run)?.reason, 'stopped');
    assert.ok(run.lines.some((line) => line.type === 'log' && line.level === 'warn' && /did not exit .* of its stop: killed/.test(line.message)));
    assert.equal(isRunning(pidOf('deaf')), false);
  });

  test('an engine left behind by a killed agent is stopped by its closed stdin', async () => {
    const path = standIn('orphan', { lines: [{ type: 'ready', threads: 2 }, interval(0, 0.1)], onStop: [{ type: 'end', reason: 'stopped' }] });
    const run = await runAgent(config(path), { killWhen: (line) => line.type === 'sample' });
    assert.equal(run.exitSignal, 'SIGKILL');
    await until(() => !isRunning(pidOf('orphan')), 'the engine to exit after its agent was killed', 5000);
  });
});
