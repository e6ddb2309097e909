// The load generator's own efficiency, measured the way a 2-core machine allows: a cheap target
// (Debian's nginx, one worker answering a fixed body, pinned to core 1) and each generator in turn
// pinned to core 0 — the native engine and the Node engine (both through the agent bundle, one load
// thread, as Benchlab runs them), bare autocannon and wrk (-t1) — at 100 keep-alive connections,
// in interleaved repeats (the order rotates each round so drift in the machine hits every tool).
// Per tool: requests/s, p50/p99, and its CPU per 1,000 requests (user + system of the whole process
// tree, from /usr/bin/time); then each generator's peak RSS holding 10,000 connections.

import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LoadAgentConfig } from '../app/runs/agent-protocol.ts';
import { startHelloNginx } from './hello-nginx.ts';
import { agentConfig, withMachineLoad, type MachineLoad } from './load-engine.ts';
import { readTime, SERVER_CORE, TIME, timedOnGeneratorCore } from './pinned-time.ts';
import { localEngineFile, localExec, runAgentTool, runEngineAlone, runAutocannon, runWrk, type Exec, type ToolFigures } from './load-tools.ts';

const NGINX_PORT = 18481;
const CONNECTIONS = 100;
const DURATION_S = 5;
const REPEATS = 3;
const MANY_CONNECTIONS = 10_000;

export const GENERATORS = ['native engine', 'Node engine', 'autocannon', 'wrk'] as const;
export type Generator = (typeof GENERATORS)[number];

export interface GeneratorRun extends ToolFigures {
  /** User + system CPU seconds of the generator's process tree over the run. */
  cpuS: number;
  /** Requests answered over the run (requests/s × the measured seconds). */
  answered: number;
}

export interface EngineEfficiency {
  skipped: string | null;
  load: MachineLoad | null;
  runs: Record<Generator, GeneratorRun[]>;
  /** Peak RSS (bytes) of each generator holding MANY_CONNECTIONS; null when it could not be measured. */
  rssAtManyConnections: Record<Generator, number | null>;
  manyConnections: number;
  connections: number;
  durationS: number;
  repeats: number;
}

/** Runs `argv` pinned to the generator's core under /usr/bin/time; returns its stdout and CPU/RSS. */
function timedExec(timeFile: string): Exec {
  return (argv, timeoutMs) =>
    localExec(timedOnGeneratorCore(timeFile, argv), timeoutMs);
}

function nativeAgentConfig(base: LoadAgentConfig, enginePath: string | null): LoadAgentConfig {
  return { ...base, workers: 1, ...(enginePath ? { engine: { kind: 'native' as const, path: enginePath } } : {}) };
}

async function runGenerator(generator: Generator, enginePath: string, timeFile: string, connections: number, durationS: number): Promise<GeneratorRun> {
  const exec = timedExec(timeFile);
  const url = `http://127.0.0.1:${NGINX_PORT}/`;
  const closed = agentConfig(new URL(url), { model: 'closed', connections, pipelining: 1, durationS });
  const figures: ToolFigures =
    generator === 'native engine'
      ? await runAgentTool(exec, process.execPath, nativeAgentConfig(closed, enginePath))
      : generator === 'Node engine'
        ? await runAgentTool(exec, process.execPath, nativeAgentConfig(closed, null))
        : generator === 'autocannon'
          ? await runAutocannon(exec, process.execPath, { url, connections, durationS })
          : await runWrk(exec, { url, connections, durationS, threads: 1 });
  const { cpuS } = readTime(timeFile);
  return { ...figures, cpuS, answered: figures.rps * durationS };
}

/** Peak RSS of each generator holding `connections` keep-alive connections for 3 s. */
async function rssHolding(generator: Generator, enginePath: string, timeFile: string, connections: number): Promise<number | null> {
  try {
    if (generator === 'native engine') {
      // The engine alone: through the agent, time(1) would report the agent's Node heap instead.
      const config = {
        target: { hostname: '127.0.0.1', port: NGINX_PORT },
        request: { method: 'GET', path: '/', headers: {}, timeoutMs: 10_000 },
        load: { model: 'closed', connections, pipelining: 1, durationS: 3 },
        warmupS: 0,
        capS: 30,
        threads: [{ connections }],
      };
      await runEngineAlone(timedOnGeneratorCore(timeFile, [enginePath, 'run']), config);
    } else {
      await runGenerator(generator, enginePath, timeFile, connections, 3);
    }
    return readTime(timeFile).rssBytes;
  } catch {
    return null;
  }
}

/** Why the pinned benches (nginx on one core, a generator on the other) cannot run here, or null. */
export function pinnedBenchSkipReason(): string | null {
  if (availableParallelism() < 2) return 'needs 2 cores: one for nginx, one for the generator';
  for (const [tool, install] of [
    ['nginx', 'apt-get install nginx'],
    ['wrk', 'apt-get install wrk'],
    ['taskset', 'apt-get install util-linux'],
  ] as const) {
    if (!['/usr/sbin', '/usr/bin', '/sbin', '/bin'].some((dir) => existsSync(join(dir, tool)))) return `${tool} is missing (${install})`;
  }
  if (!existsSync(TIME)) return `${TIME} is missing (apt-get install time)`;
  return null;
}

function emptyRuns(): Record<Generator, GeneratorRun[]> {
  return { 'native engine': [], 'Node engine': [], autocannon: [], wrk: [] };
}

export async function benchEngineEfficiency(): Promise<EngineEfficiency> {
  const result: EngineEfficiency = {
    skipped: pinnedBenchSkipReason(),
    load: null,
    runs: emptyRuns(),
    rssAtManyConnections: { 'native engine': null, 'Node engine': null, autocannon: null, wrk: null },
    manyConnections: MANY_CONNECTIONS,
    connections: CONNECTIONS,
    durationS: DURATION_S,
    repeats: REPEATS,
  };
  const engine = await localEngineFile(result.skipped);
  if ('skipped' in engine) return { ...result, ...engine };
  const dir = mkdtempSync(join(tmpdir(), 'benchlab-engine-bench-'));
  const timeFile = join(dir, 'time.txt');
  const nginx = await startHelloNginx({ dir, address: '127.0.0.1', port: NGINX_PORT, launcher: ['taskset', '-c', SERVER_CORE] });
  try {
    const measured = await withMachineLoad(async () => {
      for (let round = 0; round < REPEATS; round += 1) {
        for (let turn = 0; turn < GENERATORS.length; turn += 1) {
          const generator = GENERATORS[(round + turn) % GENERATORS.length]!;
          result.runs[generator].push(await runGenerator(generator, engine.file, timeFile, CONNECTIONS, DURATION_S));
        }
      }
    });
    result.load = measured.load;
    for (const generator of GENERATORS) result.rssAtManyConnections[generator] = await rssHolding(generator, engine.file, timeFile, MANY_CONNECTIONS);
  } finally {
    await nginx.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  return result;
}

/** The median of the runs' values (null values left out); null when none. */
export function medianOf(runs: GeneratorRun[], pick: (run: GeneratorRun) => number | null): number | null {
  const values = runs.map(pick).filter((value): value is number => value !== null && Number.isFinite(value)).sort((a, b) => a - b);
  if (values.length === 0) return null;
  const middle = Math.floor(values.length / 2);
  return values.length % 2 === 1 ? values[middle]! : (values[middle - 1]! + values[middle]!) / 2;
}
