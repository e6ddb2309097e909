// Measuring a host's clock through a real agent in the clock role, over the local transport (the
// same HostTransport.start an SSH host uses): on this machine the true offset is zero, so the
// estimate must lie within its own stated uncertainty of it. An agent that never answers, a
// cancelled measurement and one that cannot start fail with one clear line, and leave nothing running.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { ApiError } from '../../../app/common/errors.ts';
import { shellQuote } from '../../../app/common/shell-quote.ts';
import { AGENT_PROTOCOL_VERSION } from '../../../app/runs/agent-protocol.ts';
import { AGENT_SOURCE } from '../../../agent/agent-harness.ts';
import { until } from '../../../tests/support/until.ts';
import { LocalTransport } from '../hosts/local-transport.ts';
import type { AgentHost } from './agent-host.ts';
import { measureClockOffset, PONG_TIMEOUT_MS } from './clock-sync.ts';

const transport = new LocalTransport();
let dir: string;

before(() => {
  dir = mkdtempSync(join(tmpdir(), 'benchlab-clock-'));
});
after(() => rmSync(dir, { recursive: true, force: true }));

/** An agent host on this machine whose command carries `marker`, so its processes can be found. */
function agentHost(script: string[], marker: string): AgentHost {
  return { command: [process.execPath, ...script, marker].map(shellQuote).join(' '), pidDir: dir, hostname: 'this-machine', agentDir: dir, machine: process.arch };
}

/** Processes still running whose command line holds `marker`. */
function running(marker: string): string[] {
  const table = execFileSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' });
  return table.split('\n').filter((line) => line.includes(marker) && !line.includes('ps -eo'));
}

async function nothingLeft(marker: string): Promise<void> {
  await until(() => running(marker).length === 0, `the processes of ${marker} to end`, 5000);
}

/** A fake agent that says hello in the clock role, then never answers a ping. */
const SILENT_AGENT = [
  '-e',
  `process.stdout.write(JSON.stringify({ type: 'hello', version: ${AGENT_PROTOCOL_VERSION}, role: 'clock', pid: process.pid, node: process.version, cores: 1 }) + '\\n');` +
    'process.stdin.resume(); setTimeout(() => {}, 60000);',
];

test('the real agent: 16 probes, an offset within its stated uncertainty of the true one (zero here), nothing left running', async () => {
  const marker = `clock-${randomUUID()}`;
  const offset = await measureClockOffset(transport, agentHost([AGENT_SOURCE], marker));
  assert.equal(offset.probes, 16);
  // Starting the agent (Node's start-up included) takes far longer than one round trip.
  assert.ok(offset.readyMs !== undefined && offset.readyMs > offset.rttMs, `ready after ${offset.readyMs} ms`);
  assert.ok(offset.rttMs > 0, `rtt ${offset.rttMs}`);
  assert.ok(Math.abs(offset.rttMs / 2 - offset.uncertaintyMs) < 0.01, 'uncertainty is half the kept round trip plus the resolution');
  assert.ok(Math.abs(offset.offsetMs) <= offset.uncertaintyMs, `offset ${offset.offsetMs} ms beyond ±${offset.uncertaintyMs} ms of the true 0`);
  await nothingLeft(marker);
});

test('the probe count is honoured, and a bad one refused before anything starts', async () => {
  const marker = `clock-${randomUUID()}`;
  assert.equal((await measureClockOffset(transport, agentHost([AGENT_SOURCE], marker), { probes: 3 })).probes, 3);
  await assert.rejects(measureClockOffset(transport, agentHost([AGENT_SOURCE], marker), { probes: 0 }), /clock probes must be a whole number from 1 to 1000, not 0/);
  await nothingLeft(marker);
});

test('an agent that never answers: a timeout naming the host, and it is stopped', async () => {
  const marker = `clock-${randomUUID()}`;
  await assert.rejects(measureClockOffset(transport, agentHost(SILENT_AGENT, marker)), (error: unknown) => {
    assert.ok(error instanceof ApiError);
    assert.equal(error.code, 'timeout');
    assert.equal(error.message, `the clock of this-machine did not answer within ${PONG_TIMEOUT_MS / 1000} s: check the link to the host and start again`);
    return true;
  });
  await nothingLeft(marker);
});

test('cancelled: before the start nothing runs; during the probes the agent is stopped', async () => {
  const marker = `clock-${randomUUID()}`;
  const cancelled = new AbortController();
  cancelled.abort();
  await assert.rejects(measureClockOffset(transport, agentHost([AGENT_SOURCE], marker), { signal: cancelled.signal }), /measuring the clock of this-machine was cancelled/);
  assert.deepEqual(running(marker), []);

  const during = new AbortController();
  const measuring = measureClockOffset(transport, agentHost(SILENT_AGENT, marker), { signal: during.signal });
  await until(() => running(marker).length > 0, 'the silent agent to run', 5000);
  during.abort();
  await assert.rejects(measuring, (error: unknown) => error instanceof ApiError && error.code === 'cancelled');
  await nothingLeft(marker);
});

test('an agent that cannot start: one line saying so', async () => {
  const marker = `clock-${randomUUID()}`;
  await assert.rejects(measureClockOffset(transport, agentHost(['-e', 'process.stderr.write("no such agent\\n"); process.exit(3)'], marker)), /the load agent did not start: no such agent/);
  await nothingLeft(marker);
});
