// A new connection per request, generator against generator: Debian's nginx (one worker, pinned to
// core 1) and, each in turn pinned to core 0, ab (HTTP/1.0, no keep-alive, as ab sends it), wrk
// with `Connection: close`, the native engine alone (HTTP/1.0 and `Connection: close`) and through
// the agent, and the Node engine through the agent (`Connection: close`), 50 concurrent requests,
// in interleaved rounds. Per generator: requests/s and its own CPU time per request (user + system
// of its process tree, /usr/bin/time), so "req/s per core" compares even when the machine is shared;
// and, for ab and the engine alone, the medians of connect, waiting, processing and total.

import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LoadAgentConfig } from '../app/runs/agent-protocol.ts';
import { latencyStats, mergeEncodedHistograms } from '../app/common/hdr.ts';
import { pinnedBenchSkipReason } from './engine-efficiency.ts';
import { startHelloNginx } from './hello-nginx.ts';
import { agentConfig, withMachineLoad, type MachineLoad } from './load-engine.ts';
import { localEngineFile, localExec, runAgentTool, runEngineAlone } from './load-tools.ts';
import { readTime, SERVER_CORE, timedOnGeneratorCore } from './pinned-time.ts';

const NGINX_PORT = 18483;
const CONCURRENCY = 50;
const DURATION_S = 5;
const REPEATS = 3;

export const NEW_CONNECTION_GENERATORS = ['ab', 'wrk', 'native engine, HTTP/1.0', 'native engine, Connection: close', 'native engine via the agent', 'Node engine via the agent'] as const;
export type NewConnectionGenerator = (typeof NEW_CONNECTION_GENERATORS)[number];

export interface NewConnectionRun {
  rps: number;
  answered: number;
  errors: number;
  /** CPU seconds (user + system) of the generator's process tree over the run. */
  cpuS: number;
  /** Medians (ms) of the request's phases as ab's "Connection Times" splits them; ab and the engine alone only. */
  phasesMs?: { connect: number | null; waiting: number | null; processing: number | null; total: number | null };
}

export interface NewConnectionBench {
  skipped: string | null;
  load: MachineLoad | null;
  runs: Record<NewConnectionGenerator, NewConnectionRun[]>;
  concurrency: number;
  durationS: number;
  repeats: number;
}

async function runAb(url: string, timeFile: string): Promise<NewConnectionRun> {
  // -n after -t: ab's -t alone stops at 50,000 requests.
  const output = await localExec(timedOnGeneratorCore(timeFile, ['ab', '-q', '-t', String(DURATION_S), '-n', '100000000', '-c', String(CONCURRENCY), url]), (DURATION_S + 30) * 1000);
  const answered = Number(/Complete requests:\s+(\d+)/.exec(output)?.[1] ?? Number.NaN);
  const failed = Number(/Failed requests:\s+(\d+)/.exec(output)?.[1] ?? 0);
  const rps = Number(/Requests per second:\s+([\d.]+)/.exec(output)?.[1] ?? Number.NaN);
  return { rps, answered, errors: failed, cpuS: readTime(timeFile).cpuS, phasesMs: abPhaseMedians(output) };
}

/** The medians (whole ms) of ab's "Connection Times" rows: "Connect:  min mean [+/-sd] median max". */
export function abPhaseMedians(output: string): NonNullable<NewConnectionRun['phasesMs']> {
  const median = (phase: string) => {
    const figures = new RegExp(`^${phase}:\\s+(.*)$`, 'm').exec(output)?.[1]?.trim().split(/\s+/);
    return figures && figures.length >= 5 ? Number(figures[3]) : null;
  };
  return { connect: median('Connect'), waiting: median('Waiting'), processing: median('Processing'), total: median('Total') };
}

async function runWrkClosing(url: string, timeFile: string): Promise<NewConnectionRun> {
  const output = await localExec(timedOnGeneratorCore(timeFile, ['wrk', '-t1', `-c${CONCURRENCY}`, `-d${DURATION_S}s`, '-H', 'Connection: close', url]), (DURATION_S + 30) * 1000);
  const answered = Number(/(\d+) requests in/.exec(output)?.[1] ?? Number.NaN);
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(output)?.[1] ?? Number.NaN);
  const socketErrors = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(output);
  const errors = (socketErrors?.slice(1) ?? []).map(Number).reduce((sum, n) => sum + n, 0);
  return { rps, answered, errors, cpuS: readTime(timeFile).cpuS };
}

interface EngineOutputLine {
  type: string;
  phase?: string;
  requests?: number;
  durationMs?: number;
  errors?: Record<string, number>;
  histogram?: string | null;
  phases?: { connect: string | null; waiting: string | null; processing: string | null };
}

/** The engine binary alone: one config line on stdin (held open until its end line), its interval lines read back. */
async function runEngineBinary(enginePath: string, timeFile: string, request: Record<string, unknown>): Promise<NewConnectionRun> {
  const config = {
    target: { hostname: '127.0.0.1', port: NGINX_PORT },
    request: { method: 'GET', path: '/', headers: {}, timeoutMs: 10_000, ...request },
    load: { model: 'closed', connections: CONCURRENCY, pipelining: 1, durationS: DURATION_S },
    // No warm-up: the CPU time covers the whole process, so every request it made must be counted.
    warmupS: 0,
    capS: DURATION_S + 30,
    threads: [{ connections: CONCURRENCY }],
  };
  const out = await runEngineAlone(timedOnGeneratorCore(timeFile, [enginePath, 'run']), config);
  const lines = out.trim().split('\n').map((line) => JSON.parse(line) as EngineOutputLine);
  let answered = 0;
  let errors = 0;
  let ms = 0;
  for (const line of lines) {
    if (line.type !== 'interval' || line.phase === 'warmup') continue;
    answered += line.requests ?? 0;
    errors += Object.values(line.errors ?? {}).reduce((sum, n) => sum + n, 0);
    if (line.phase === 'measure') ms += line.durationMs ?? 0;
  }
  const intervals = lines.filter((line) => line.type === 'interval');
  const p50Ms = (histograms: (string | null | undefined)[]) => {
    const p50Us = latencyStats(mergeEncodedHistograms(histograms.map((histogram) => histogram ?? null))).p50Us;
    return p50Us === null ? null : p50Us / 1000;
  };
  const phasesMs = {
    connect: p50Ms(intervals.map((line) => line.phases?.connect)),
    waiting: p50Ms(intervals.map((line) => line.phases?.waiting)),
    processing: p50Ms(intervals.map((line) => line.phases?.processing)),
    total: p50Ms(intervals.map((line) => line.histogram)),
  };
  return { rps: answered / (ms / 1000), answered, errors, cpuS: readTime(timeFile).cpuS, phasesMs };
}

async function runThroughAgent(url: string, timeFile: string, enginePath: string | null): Promise<NewConnectionRun> {
  const base = agentConfig(new URL(url), { model: 'closed', connections: CONCURRENCY, pipelining: 1, durationS: DURATION_S }, 0);
  const config: LoadAgentConfig = {
    ...base,
    request: { ...base.request, headers: { Connection: 'close' } },
    workers: 1,
    ...(enginePath ? { engine: { kind: 'native' as const, path: enginePath } } : {}),
  };
  const figures = await runAgentTool((argv, timeoutMs) => localExec(timedOnGeneratorCore(timeFile, argv), timeoutMs), process.execPath, config);
  // The drain's answers are in the agent's count too: its own total, not requests/s × the window.
  return { rps: figures.rps, answered: figures.summary.books?.answered ?? figures.rps * DURATION_S, errors: figures.errors, cpuS: readTime(timeFile).cpuS };
}

function emptyRuns(): Record<NewConnectionGenerator, NewConnectionRun[]> {
  return Object.fromEntries(NEW_CONNECTION_GENERATORS.map((generator) => [generator, []])) as unknown as Record<NewConnectionGenerator, NewConnectionRun[]>;
}

/** Runs the table, or says why it cannot (the pinned benches' tools or cores, or ab, missing). */
export async function benchNewConnections(): Promise<NewConnectionBench> {
  const result: NewConnectionBench = {
    skipped: pinnedBenchSkipReason() ?? (existsSync('/usr/bin/ab') ? null : 'ab is missing (apt-get install apache2-utils)'),
    load: null,
    runs: emptyRuns(),
    concurrency: CONCURRENCY,
    durationS: DURATION_S,
    repeats: REPEATS,
  };
  const engine = await localEngineFile(result.skipped);
  if ('skipped' in engine) return { ...result, ...engine };
  const enginePath = engine.file;
  const dir = mkdtempSync(join(tmpdir(), 'benchlab-new-connections-'));
  const timeFile = join(dir, 'time.txt');
  const nginx = await startHelloNginx({ dir, address: '127.0.0.1', port: NGINX_PORT, launcher: ['taskset', '-c', SERVER_CORE] });
  const url = `http://127.0.0.1:${NGINX_PORT}/`;
  const runners: Record<NewConnectionGenerator, () => Promise<NewConnectionRun>> = {
    ab: () => runAb(url, timeFile),
    wrk: () => runWrkClosing(url, timeFile),
    'native engine, HTTP/1.0': () => runEngineBinary(enginePath, timeFile, { httpVersion: '1.0' }),
    'native engine, Connection: close': () => runEngineBinary(enginePath, timeFile, { headers: { Connection: 'close' } }),
    'native engine via the agent': () => runThroughAgent(url, timeFile, enginePath),
    'Node engine via the agent': () => runThroughAgent(url, timeFile, null),
  };
  try {
    const measured = await withMachineLoad(async () => {
      for (let round = 0; round < REPEATS; round += 1) {
        for (let turn = 0; turn < NEW_CONNECTION_GENERATORS.length; turn += 1) {
          const generator = NEW_CONNECTION_GENERATORS[(round + turn) % NEW_CONNECTION_GENERATORS.length]!;
          result.runs[generator].push(await runners[generator]());
        }
      }
    });
    result.load = measured.load;
  } finally {
    await nginx.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  return result;
}

/** µs of the generator's CPU per answered request. */
export function cpuUsPerRequest(run: NewConnectionRun): number | null {
  return run.answered > 0 ? (run.cpuS / run.answered) * 1e6 : null;
}
