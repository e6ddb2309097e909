// The agent's entry point, also the entry of its load worker threads. Reads the start line on
// stdin, writes its pid file (so a later Benchlab can clean up after a crash), says hello, runs its
// role — load (on its own threads or the native engine), sampler, probe or clock — and ends with
// one `end` line. Runs under setsid on the host; whatever ends it, it stops its load first.

import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname } from 'node:path';
import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import { AGENT_PROTOCOL_VERSION, type EndReason, type SamplerConfig } from '../app/runs/agent-protocol.ts';
import { AgentIo } from './agent-io.ts';
import { answerClockPings } from './clock-role.ts';
import { runLoad, type LoadIo, type LoadOutcome } from './load-coordinator.ts';
import { runNativeLoad } from './native-engine.ts';
import { runLoadThread } from './load-thread.ts';
import type { ThreadSetup } from './thread-messages.ts';
import { probe } from './probe.ts';
import { ServerSampler } from './server-sampler.ts';

/** How long a freshly started agent waits for its start line. */
const START_TIMEOUT_MS = 15_000;

async function runSampler(config: SamplerConfig, io: AgentIo): Promise<LoadOutcome> {
  const sampler = new ServerSampler(config.port);
  const startAt = Date.now();
  const capAt = startAt + config.capS * 1000;
  let stopReason: EndReason | null = null;
  let wake: (() => void) | null = null;
  io.onStop((reason) => {
    stopReason = reason;
    wake?.();
  });
  for (let second = 0; ; second++) {
    const boundary = startAt + (second + 1) * 1000;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, Math.max(0, boundary - Date.now()));
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
    if (stopReason) return { reason: stopReason };
    io.send({ type: 'server', second, at: boundary, server: sampler.sample() });
    if (Date.now() >= capAt) return { reason: 'cap', message: `the sampler reached its ${config.capS} s cap` };
    // A reading that took seconds (a host too busy to read /proc) leaves those seconds unread: the
    // next reading is at the next boundary to come, never several at once to catch up.
    second = Math.max(second, Math.floor((Date.now() - startAt) / 1000) - 1);
  }
}

async function main(): Promise<void> {
  const io = new AgentIo(process.stdin, process.stdout);
  for (const signal of ['SIGTERM', 'SIGHUP', 'SIGINT'] as const) process.on(signal, () => io.stop('stopped'));
  const start = await io.waitForStart(START_TIMEOUT_MS);
  if (!start) {
    await io.finish({ type: 'end', reason: 'error', message: 'no start line arrived' });
    process.exit(2);
  }
  if (start.version !== AGENT_PROTOCOL_VERSION) {
    await io.finish({ type: 'end', reason: 'error', message: `this agent speaks protocol ${AGENT_PROTOCOL_VERSION}, not ${start.version}` });
    process.exit(2);
  }
  const config = start.config;
  const pidFile = config.role === 'probe' || config.role === 'clock' ? undefined : config.pidFile;
  if (pidFile) {
    mkdirSync(dirname(pidFile), { recursive: true });
    writeFileSync(pidFile, `${process.pid}\n`);
  }
  let outcome: LoadOutcome;
  try {
    if (config.role === 'probe') {
      io.send({ type: 'hello', version: AGENT_PROTOCOL_VERSION, role: 'probe', pid: process.pid, node: process.version, cores: availableParallelism() });
      io.send({ type: 'probe', ...(await probe(config)) });
      outcome = { reason: 'completed' };
    } else if (config.role === 'clock') {
      io.send({ type: 'hello', version: AGENT_PROTOCOL_VERSION, role: 'clock', pid: process.pid, node: process.version, cores: availableParallelism() });
      outcome = await answerClockPings(config, io);
    } else if (config.role === 'sampler') {
      io.send({ type: 'hello', version: AGENT_PROTOCOL_VERSION, role: 'sampler', pid: process.pid, node: process.version, cores: availableParallelism() });
      outcome = await runSampler(config, io);
    } else {
      io.send({ type: 'hello', version: AGENT_PROTOCOL_VERSION, role: 'load', pid: process.pid, node: process.version, cores: availableParallelism(), engine: config.engine?.kind ?? 'node' });
      const loadIo: LoadIo = {
        sample: (line) => io.send(line),
        log: (level, message) => io.log(level, message),
        onStop: (listener) => io.onStop(listener),
      };
      outcome = config.engine?.kind === 'native' ? await runNativeLoad(config, loadIo) : await runLoad(config, loadIo, new URL(import.meta.url));
    }
  } catch (error) {
    outcome = { reason: 'error', message: error instanceof Error ? error.message : String(error) };
  } finally {
    if (pidFile) rmSync(pidFile, { force: true });
  }
  await io.finish({ type: 'end', reason: outcome.reason, ...(outcome.message ? { message: outcome.message } : {}) });
  process.exit(outcome.reason === 'error' ? 1 : 0);
}

if (!isMainThread && (workerData as { benchlabLoadThread?: ThreadSetup } | null)?.benchlabLoadThread) {
  runLoadThread((workerData as { benchlabLoadThread: ThreadSetup }).benchlabLoadThread, parentPort!);
} else {
  void main();
}
