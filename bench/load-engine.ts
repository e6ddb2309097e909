// Figures of the load engine, each measured side by side in one run against the same server — the
// Node template's server on loopback and on the lab, and the Apache static template on the lab
// (agent, autocannon and wrk on bl-client, the template on bl-server) — for a client-bound target
// (/hello) at 10 and 100 connections and a server-bound one (/sleep?ms=5, Node only), with the
// machine's load printed beside each pair (every tool shares this machine's cores):
//   - the agent's requests/s against bare autocannon (goal >= 95 %) and against wrk (ratio);
//   - the agent's p50/p99 against wrk's (goal: within 10 %);
//   - an open-model run against a server that stalls once for 1 s: the agent's p99 (from intended
//     send times) against autocannon's own numbers at the same rate, with its coordinated-omission
//     correction (default) and without it (-C).
// On a 2-core machine the tools share the cores with the server, so the client-bound figures
// measure each tool's cost per request as much as the server.

import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import type { LoadAgentConfig } from '../app/runs/agent-protocol.ts';
import { labSkipReason } from '../tests/support/lab-hosts.ts';
import { templateLab } from '../tests/support/template-lab.ts';
import { labExec } from '../tests/lab/lab.ts';
import { buildNodeTemplate, nodeTemplateArgv, startAnswering, stopLocal } from './local-node-template.ts';
import { AGENT_BUNDLE, localExec, runAgentTool, runAutocannon, runWrk, type Exec, type ToolFigures } from './load-tools.ts';

const DURATION_S = 5;
/** Target path and connections of each side-by-side comparison. */
export const COMPARISONS = [
  { path: '/hello', connections: 10 },
  { path: '/hello', connections: 100 },
  { path: '/sleep?ms=5', connections: 10 },
] as const;
const LOOPBACK_PORT = 18461;
const STALL_PORT = 18462;
const LAB_PORT = 18463;

/** How busy the whole machine was while one side-by-side pair ran. */
export interface MachineLoad {
  /** 1-minute load average when the pair started. */
  loadAverage: number;
  /** Busy share of all cores over the pair, 0..1. */
  busy: number;
}

export interface SideBySide {
  where: string;
  server: string;
  load: MachineLoad;
  path: string;
  connections: number;
  agent: ToolFigures;
  autocannon: ToolFigures;
  wrk: ToolFigures;
}

export interface StallFigures {
  rate: number;
  agent: ToolFigures;
  autocannon: ToolFigures;
  autocannonWithoutCorrection: ToolFigures;
}

export function agentConfig(url: URL, load: LoadAgentConfig['load'], warmupS = 1): LoadAgentConfig {
  return {
    role: 'load',
    target: { protocol: 'http', hostname: url.hostname, port: Number(url.port) },
    request: { method: 'GET', path: `${url.pathname}${url.search}`, headers: {}, timeoutMs: 10_000 },
    load,
    warmupS,
    capS: 60,
  };
}

function cpuTicks(): { busy: number; total: number } {
  const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
  const idle = (fields[3] ?? 0) + (fields[4] ?? 0);
  const total = fields.reduce((sum, value) => sum + value, 0);
  return { busy: total - idle, total };
}

export async function withMachineLoad<T>(measure: () => Promise<T>): Promise<{ value: T; load: MachineLoad }> {
  const loadAverage = Number(readFileSync('/proc/loadavg', 'utf8').split(' ')[0]);
  const before = cpuTicks();
  const value = await measure();
  const after = cpuTicks();
  const total = after.total - before.total;
  return { value, load: { loadAverage, busy: total > 0 ? (after.busy - before.busy) / total : 0 } };
}

async function sideBySide(where: string, server: string, exec: Exec, node: string, base: string, path: string, connections: number): Promise<SideBySide> {
  const url = `${base}${path}`;
  const target = new URL(url);
  const { value, load } = await withMachineLoad(async () => ({
    agent: await runAgentTool(exec, node, agentConfig(target, { model: 'closed', connections, pipelining: 1, durationS: DURATION_S })),
    autocannon: await runAutocannon(exec, node, { url, connections, durationS: DURATION_S }),
    wrk: await runWrk(exec, { url, connections, durationS: DURATION_S, threads: Math.min(connections, availableParallelism()) }),
  }));
  return { where, server, load, path, connections, ...value };
}

async function allComparisons(where: string, server: string, exec: Exec, node: string, base: string, comparisons: ReadonlyArray<{ path: string; connections: number }> = COMPARISONS): Promise<SideBySide[]> {
  const runs: SideBySide[] = [];
  for (const { path, connections } of comparisons) runs.push(await sideBySide(where, server, exec, node, base, path, connections));
  return runs;
}

function startLocal(argv: string[], ready: RegExp): Promise<ChildProcess> {
  return new Promise((done, fail) => {
    const child = spawn(argv[0]!, argv.slice(1), { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (ready.test(out)) done(child);
    });
    child.once('exit', (code) => fail(new Error(`${argv.join(' ')} exited with ${code}: ${out}`)));
  });
}

/** A node:http server that answers at once, except that 2 s after its first request it blocks for 1 s. */
const STALLING_SERVER = `
const port = Number(process.argv[1]);
let first = 0;
let stalled = false;
require('node:http').createServer((request, response) => {
  first ||= Date.now();
  if (!stalled && Date.now() - first > 2000) {
    stalled = true;
    const until = Date.now() + 1000;
    while (Date.now() < until);
  }
  response.end('hello');
}).listen(port, '127.0.0.1', () => console.log('ready'));`;

/** Runs `measure` against a fresh stalling server (it stalls once per life). */
async function againstStallingServer<T>(measure: (url: string) => Promise<T>): Promise<T> {
  const server = await startLocal([process.execPath, '-e', STALLING_SERVER, String(STALL_PORT)], /ready/);
  try {
    return await measure(`http://127.0.0.1:${STALL_PORT}/`);
  } finally {
    await stopLocal(server);
  }
}

async function stallRun(rate: number): Promise<StallFigures> {
  const connections = 20;
  const durationS = 6;
  const agent = await againstStallingServer((url) =>
    runAgentTool(localExec, process.execPath, agentConfig(new URL(url), { model: 'open', rate, durationS, connections }, 0)),
  );
  const autocannon = await againstStallingServer((url) => runAutocannon(localExec, process.execPath, { url, connections, durationS, overallRate: rate }));
  const autocannonWithoutCorrection = await againstStallingServer((url) =>
    runAutocannon(localExec, process.execPath, { url, connections, durationS, overallRate: rate, ignoreCoordinatedOmission: true }),
  );
  return { rate, agent, autocannon, autocannonWithoutCorrection };
}

export async function benchLoadEngine(): Promise<{ runs: SideBySide[]; labSkipped: string | null; stall: StallFigures }> {
  if (!existsSync(AGENT_BUNDLE)) throw new Error('build the agent first: npm run build:agent');
  const runs: SideBySide[] = [];

  // The Node template bundles its packages at build (npm ci + esbuild), as a deploy builds it.
  const server = await startAnswering(nodeTemplateArgv(await buildNodeTemplate(), LOOPBACK_PORT, true), LOOPBACK_PORT);
  try {
    runs.push(...(await allComparisons('loopback', 'Node template', localExec, process.execPath, `http://127.0.0.1:${LOOPBACK_PORT}`)));
  } finally {
    await stopLocal(server);
  }

  const labSkipped = labSkipReason();
  if (!labSkipped) {
    const lab = await templateLab('bench-load');
    try {
      const deployment = await lab.service.deploy(lab.hostId, 'node', { port: LAB_PORT, knobs: { cacheFile: true } });
      const exec: Exec = async (argv, timeoutMs) => {
        const result = await labExec('client', argv, { timeoutMs });
        if (result.code !== 0) throw new Error(`${argv[0]} on bl-client exited with ${result.code}: ${result.stderr.slice(-500)}`);
        return result.stdout;
      };
      runs.push(...(await allComparisons('lab', 'Node template', exec, process.execPath, deployment.url!.replace(/\/$/, ''))));
      await lab.service.stop(lab.hostId);
      const apache = await lab.service.deploy(lab.hostId, 'apache-static', { port: LAB_PORT });
      const helloOnly = COMPARISONS.filter((comparison) => comparison.path === '/hello');
      runs.push(...(await allComparisons('lab', 'Apache static template', exec, process.execPath, apache.url!.replace(/\/$/, ''), helloOnly)));
      await lab.service.stop(lab.hostId);
    } finally {
      await lab.close();
    }
  }

  const stall = await stallRun(400);
  return { runs, labSkipped, stall };
}

