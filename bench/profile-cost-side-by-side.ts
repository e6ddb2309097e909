// What Benchlab's V8 profile costs a Node server, measured with the machine's own drift taken out:
// two servers of the Node template on one core, loaded at the same time, one of them profiled with
// the very capture a run uses (the V8 inspector program, at the run's sampling interval) and the
// other not, the roles swapped from one round to the next. Both share the core's speed of the
// moment, so a round's ratio (profiled over unprofiled: requests/s, p99, CPU per answer) holds the
// profiler's cost and little else. Rounds where neither is profiled show how far the two servers
// differ with nothing changed.
//
// Why beside the lab's runs one after the other (bench/profile-cost.ts): on this virtual machine a
// quiet process pinned to a core, computing fib(25) and nothing else, took 1,278–1,489 µs of CPU
// per call from one 3-second window to the next, so two runs minutes apart differ by about 10 %,
// and no affordable number of them settles a cost of 2 %. Here that drift falls on both servers at
// once. Loopback, not the lab's link: the cost sought is the server's CPU, which the link does not
// change.

import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { pairedRatioInterval, type PairedRatio } from '../app/sessions/compare-stats.ts';
import { V8_INTERVAL_US } from '../main/services/profiles/step-profiler.ts';
import { V8_INSPECTOR_SCRIPT } from '../main/services/profiles/v8-inspector-script.ts';
import { buildNodeTemplate, nodeTemplateArgv, startAnswering, stopLocal } from './local-node-template.ts';
import { GENERATOR_CORE, SERVER_CORE } from './pinned-time.ts';
import { countFrom, PROFILE_COST_LOAD } from './profile-cost.ts';

const PORTS = [18_531, 18_532] as const;
/** Connections per server: each server's event loop kept busy, as PROFILE_COST_LOAD's 8 keep one. */
const CONNECTIONS = 4;
const WARMUP_S = PROFILE_COST_LOAD.warmupS;
const MEASURE_S = PROFILE_COST_LOAD.durationS;
/**
 * Cycles of three rounds (first server profiled, second profiled, neither), about 30 s each: 15
 * give 30 profiled rounds in 8 minutes, whose interval came out about ±0.3 % on requests/s and CPU
 * per answer and ±1.5 % on p99 here. BENCHLAB_PROFILE_COST_CYCLES sets another number.
 */
export const SIDE_BY_SIDE_CYCLES = countFrom('BENCHLAB_PROFILE_COST_CYCLES', 15);

/** One server's share of a round: its answers, p99, and CPU time over the measured seconds, of the whole process and of its main thread. */
export interface ServerShare {
  answers: number;
  p99Us: number;
  cpuUs: number;
  mainCpuUs: number;
}

/** A round's ratios: requests, p99, CPU per answer of the process and of its main thread (where the server's JavaScript runs). */
export interface ShareRatios {
  rps: number;
  p99: number;
  cpu: number;
  mainCpu: number;
}

export interface SideBySideCost {
  /** Profiled over unprofiled, the geometric mean of the cycles' costs with its 95 % interval. */
  cost: Record<keyof ShareRatios, PairedRatio | null>;
  /** First server over second in the rounds where neither is profiled: the method's own spread. */
  alike: Record<keyof ShareRatios, PairedRatio | null>;
  rounds: number;
  /** The fewest samples a round's profile held: a capture that never ran would show 0. */
  fewestSamples: number;
}

/** One round's ratios, first over second. */
export function shareRatios(first: ServerShare, second: ServerShare): ShareRatios {
  const perAnswer = (cpuUs: number, share: ServerShare) => cpuUs / share.answers;
  return {
    rps: first.answers / second.answers,
    p99: first.p99Us / second.p99Us,
    cpu: perAnswer(first.cpuUs, first) / perAnswer(second.cpuUs, second),
    mainCpu: perAnswer(first.mainCpuUs, first) / perAnswer(second.mainCpuUs, second),
  };
}

/**
 * A cycle's cost: the geometric mean of its two rounds' ratios, the first server profiled in one
 * and the second in the other. Two servers alike still differ (one got 2 % more answers than the
 * other in every unprofiled round of a run here), and that difference enters the two rounds as a
 * factor and its inverse, so it cancels within the cycle instead of widening the interval.
 */
export function swappedCost(first: ShareRatios, second: ShareRatios): ShareRatios {
  const mean = (figure: keyof ShareRatios) => Math.sqrt(first[figure] * second[figure]);
  return { rps: mean('rps'), p99: mean('p99'), cpu: mean('cpu'), mainCpu: mean('mainCpu') };
}

/** The geometric means with their intervals, per figure, of rounds' ratios. */
export function intervals(ratios: readonly ShareRatios[]): SideBySideCost['cost'] {
  const of = (figure: keyof ShareRatios) => pairedRatioInterval(ratios.map((one) => one[figure]));
  return { rps: of('rps'), p99: of('p99'), cpu: of('cpu'), mainCpu: of('mainCpu') };
}

/** CPU time so far of every thread of the process and of its main thread, µs (schedstat's nanoseconds on the CPU). */
function processCpuUs(pid: number): { all: number; main: number } {
  let [all, main] = [0, 0];
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    try {
      const ns = Number(readFileSync(`/proc/${pid}/task/${task}/schedstat`, 'utf8').split(' ')[0]);
      all += ns;
      if (task === String(pid)) main = ns;
    } catch {
      // The thread ended between the listing and the read.
    }
  }
  return { all: all / 1000, main: main / 1000 };
}

/** A load client on the generator's core: CONNECTIONS keep-alive connections to each port, closed model; prints, per port, answers and latencies of the measured seconds. */
const LOAD_CLIENT = String.raw`
const http = require('http');
const [path, warmupMs, measureMs, connections, ...ports] = process.argv.slice(1);
const start = Date.now(), measureFrom = start + Number(warmupMs), end = measureFrom + Number(measureMs);
const results = ports.map(() => ({ answers: 0, failures: 0, latencies: [] }));
let open = 0;
process.stdout.write('measuring ' + measureFrom + '\n');
ports.forEach((port, index) => {
  const agent = new http.Agent({ keepAlive: true, maxSockets: Number(connections) });
  for (let c = 0; c < Number(connections); c++) {
    open++;
    const next = () => {
      if (Date.now() >= end) { if (--open === 0) done(); return; }
      const sent = process.hrtime.bigint();
      const sentAt = Date.now();
      http.get({ host: '127.0.0.1', port: Number(port), path, agent }, (res) => {
        res.resume();
        res.on('end', () => {
          const result = results[index];
          if (sentAt >= measureFrom && Date.now() <= end) {
            if (res.statusCode === 200) { result.answers++; result.latencies.push(Number(process.hrtime.bigint() - sent) / 1000); } else result.failures++;
          }
          next();
        });
      }).on('error', () => { results[index].failures++; setTimeout(next, 10); });
    };
    next();
  }
});
function done() {
  const out = results.map((r) => { const sorted = r.latencies.sort((a, b) => a - b); return { answers: r.answers, failures: r.failures, p99Us: sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.99) - 1)] }; });
  process.stdout.write('done ' + JSON.stringify(out) + '\n', () => process.exit(0));
}
`;

function lines(child: ChildProcess): (pattern: RegExp) => Promise<string> {
  const seen: string[] = [];
  const waiting: Array<{ pattern: RegExp; resolve: (line: string) => void }> = [];
  createInterface({ input: child.stdout! }).on('line', (line) => {
    const index = waiting.findIndex((wait) => wait.pattern.test(line));
    if (index >= 0) waiting.splice(index, 1)[0]!.resolve(line);
    else seen.push(line);
  });
  return (pattern) =>
    new Promise((resolve, reject) => {
      const earlier = seen.findIndex((line) => pattern.test(line));
      if (earlier >= 0) return resolve(seen.splice(earlier, 1)[0]!);
      waiting.push({ pattern, resolve });
      child.once('exit', (code) => reject(new Error(`${child.spawnfile} exited (${code}) before printing ${pattern}`)));
    });
}

/** Starts the V8 capture on `pid` as a run does (pinned with the server, as it runs on the server's host); stop() ends it and gives its sample count. */
async function startCapture(pid: number, port: number): Promise<{ stop(): Promise<number> }> {
  const capture = spawn('taskset', ['-c', SERVER_CORE, process.execPath, '-e', V8_INSPECTOR_SCRIPT, String(pid), String(port), String(V8_INTERVAL_US)], { stdio: ['pipe', 'pipe', 'inherit'] });
  const next = lines(capture);
  const started = await next(/^@(started|failed)/);
  if (started.startsWith('@failed')) throw new Error(`the V8 capture did not start: ${started}`);
  return {
    async stop() {
      const output = next(/^@(v8|failed)/);
      capture.stdin!.end();
      const line = await output;
      if (line.startsWith('@failed')) throw new Error(`the V8 capture failed: ${line}`);
      return (JSON.parse(line.slice(4)) as { samples: number[] }).samples.length;
    },
  };
}

/** One round: both servers loaded at once, `profiled` (0, 1 or null) under the capture. */
async function round(servers: ChildProcess[], profiled: number | null): Promise<{ shares: ServerShare[]; samples: number | null }> {
  const capture = profiled === null ? null : await startCapture(servers[profiled]!.pid!, PORTS[profiled]!);
  const client = spawn('taskset', ['-c', GENERATOR_CORE, process.execPath, '-e', LOAD_CLIENT, PROFILE_COST_LOAD.path, String(WARMUP_S * 1000), String(MEASURE_S * 1000), String(CONNECTIONS), ...PORTS.map(String)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const next = lines(client);
  const measureFrom = Number((await next(/^measuring /)).split(' ')[1]);
  const at = (time: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, time - Date.now())));
  await at(measureFrom);
  const cpuBefore = servers.map((server) => processCpuUs(server.pid!));
  await at(measureFrom + MEASURE_S * 1000);
  const cpuAfter = servers.map((server) => processCpuUs(server.pid!));
  const done = await next(/^done /);
  const loads = JSON.parse(done.slice(5)) as Array<{ answers: number; failures: number; p99Us: number }>;
  const samples = capture ? await capture.stop() : null;
  for (const [index, load] of loads.entries()) if (load.failures > 0 || load.answers === 0) throw new Error(`server ${index + 1}: ${load.failures} failures, ${load.answers} answers`);
  const shares = loads.map((load, index) => ({
    answers: load.answers,
    p99Us: load.p99Us,
    cpuUs: cpuAfter[index]!.all - cpuBefore[index]!.all,
    mainCpuUs: cpuAfter[index]!.main - cpuBefore[index]!.main,
  }));
  return { shares, samples };
}

export async function benchProfileCostSideBySide(): Promise<SideBySideCost> {
  const bundle = await buildNodeTemplate();
  // Under taskset, which execs node: each pid is the server's own.
  const servers: ChildProcess[] = [];
  try {
    for (const port of PORTS) servers.push(await startAnswering(nodeTemplateArgv(bundle, port, false, ['taskset', '-c', SERVER_CORE]), port));
    // Unmeasured: the JIT warms, and each server meets its first profiler before a measured round.
    await round(servers, 0);
    await round(servers, 1);
    const cost: ShareRatios[] = [];
    const alike: ShareRatios[] = [];
    let fewestSamples = Number.POSITIVE_INFINITY;
    for (let cycle = 0; cycle < SIDE_BY_SIDE_CYCLES; cycle++) {
      const swapped: ShareRatios[] = [];
      for (const profiled of [0, 1, null] as const) {
        const { shares, samples } = await round(servers, profiled);
        if (profiled === null) alike.push(shareRatios(shares[0]!, shares[1]!));
        else {
          swapped.push(shareRatios(shares[profiled]!, shares[1 - profiled]!));
          fewestSamples = Math.min(fewestSamples, samples!);
        }
      }
      cost.push(swappedCost(swapped[0]!, swapped[1]!));
    }
    return { cost: intervals(cost), alike: intervals(alike), rounds: 2 * cost.length, fewestSamples };
  } finally {
    for (const server of servers) await stopLocal(server);
  }
}
