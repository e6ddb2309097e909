// Runs the three load tools the same way against one target and reads their numbers: Benchlab's
// agent (the bundle, with heartbeats, as Benchlab runs it), bare autocannon (programmatic, its own
// numbers) and wrk (--latency). Each runs through an `exec` that is either this machine or a lab
// host (nsenter), so loopback and lab figures come from the same code.

import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { AGENT_PROTOCOL_VERSION, LineSplitter, parseAgentLine, type LoadAgentConfig } from '../app/runs/agent-protocol.ts';
import { SummaryAccumulator, type RunSummary } from '../app/runs/run-summary.ts';
import { engineBinary } from '../main/services/runs/engine-binary.ts';

export const ROOT = resolve(import.meta.dirname, '..');
export const AGENT_BUNDLE = resolve(ROOT, 'out', 'agent', 'benchlab-agent.mjs');
const AUTOCANNON = resolve(ROOT, 'node_modules', 'autocannon');

export type Exec = (argv: string[], timeoutMs: number) => Promise<string>;

export interface ToolFigures {
  rps: number;
  p50Ms: number | null;
  p99Ms: number | null;
  errors: number;
  /** What the errors were, by kind as the tool names them ("reset 3, timeout 1"); empty for none. */
  errorKinds: string;
}

/** "reset 3, non-2xx 1": the kinds with a count, in the order given. */
function kindsText(counts: Record<string, number>): string {
  return Object.entries(counts)
    .filter(([, count]) => count > 0)
    .map(([kind, count]) => `${kind} ${count}`)
    .join(', ');
}

/** This machine: spawn and collect stdout. */
export const localExec: Exec = (argv, timeoutMs) =>
  new Promise((done, fail) => {
    const child = spawn(argv[0]!, argv.slice(1), { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.on('close', (code) => {
      clearTimeout(timer);
      if (code === 0) done(out);
      else fail(new Error(`${argv[0]} exited with ${code}: ${err.slice(-500)}`));
    });
  });

/** This machine's native engine binary, or why a bench that needs it is skipped (`skipped` already: not built). */
export async function localEngineFile(skipped: string | null): Promise<{ file: string } | { skipped: string }> {
  if (skipped) return { skipped };
  const binary = await engineBinary(process.arch === 'arm64' ? 'arm64' : 'amd64');
  return binary.ok ? { file: binary.binary.file } : { skipped: `the native engine is unavailable: ${binary.reason}` };
}

/**
 * The native engine alone (`argv` ends in `<engine> run`), fed `config` on stdin, which stays open
 * while it runs (EOF would stop it) and is closed once its end line came; resolves with its output.
 */
export function runEngineAlone(argv: string[], config: unknown): Promise<string> {
  return new Promise((done, fail) => {
    const child = spawn(argv[0]!, argv.slice(1), { stdio: ['pipe', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (/"type":"end"/.test(out)) child.stdin.end();
    });
    child.once('error', fail);
    child.once('close', (code) => (code === 0 && /"type":"end"/.test(out) ? done(out) : fail(new Error(`the engine exited with ${code}: ${out.slice(-500)}`))));
    child.stdin.write(`${JSON.stringify(config)}\n`);
  });
}

export async function runAgentTool(exec: Exec, node: string, config: LoadAgentConfig): Promise<ToolFigures & { lines: number; summary: RunSummary }> {
  // The start line as $0, then a heartbeat a second until the agent ends (the loop then dies of SIGPIPE).
  const script = `(printf '%s\\n' "$0"; while :; do echo '{"type":"hb"}'; sleep 1; done) | ${node} ${AGENT_BUNDLE}`;
  const output = await exec(['sh', '-c', script, JSON.stringify({ type: 'start', version: AGENT_PROTOCOL_VERSION, config })], (config.capS + 20) * 1000);
  // The measured seconds and the drain, summarized as Benchlab summarizes a stored run.
  const samples = new LineSplitter()
    .push(`${output}\n`)
    .map((line) => parseAgentLine(line))
    .flatMap((parsed) => (parsed.ok && parsed.value.type === 'sample' && parsed.value.phase !== 'warmup' ? [parsed.value] : []));
  // The accumulator summarizeRun tallies a stored run's seconds with.
  const accumulator = new SummaryAccumulator();
  for (const sample of samples) accumulator.add({ ...sample, phase: sample.phase === 'drain' ? 'drain' : 'measure' });
  const summary = accumulator.summary([], { timeoutsInLatency: config.load.model === 'open' });
  const ms = (us: number | null) => (us === null ? null : us / 1000);
  const errorKinds = kindsText({ ...summary.errors, 'non-2xx': summary.non2xx });
  return { rps: summary.requestsPerSecond, p50Ms: ms(summary.p50Us), p99Ms: ms(summary.p99Us), errors: summary.failed, errorKinds, lines: samples.length, summary };
}

/** Bare autocannon, programmatic, reporting its own numbers (latency in its whole milliseconds). */
export async function runAutocannon(
  exec: Exec,
  node: string,
  options: { url: string; connections: number; durationS: number; overallRate?: number; ignoreCoordinatedOmission?: boolean },
): Promise<ToolFigures> {
  const script = `
const autocannon = require(${JSON.stringify(AUTOCANNON)});
const options = JSON.parse(process.argv[1]);
autocannon(options, (error, result) => {
  if (error) { console.error(error.message); process.exit(1); }
  console.log(JSON.stringify({ total: result.requests.total, duration: result.duration, p50: result.latency.p50, p99: result.latency.p99, errors: result.errors + result.non2xx }));
});`;
  const settings = {
    url: options.url,
    connections: options.connections,
    duration: options.durationS,
    ...(options.overallRate ? { overallRate: options.overallRate } : {}),
    ...(options.ignoreCoordinatedOmission ? { ignoreCoordinatedOmission: true } : {}),
  };
  const output = await exec([node, '-e', script, JSON.stringify(settings)], (options.durationS + 30) * 1000);
  const result = JSON.parse(output.trim().split('\n').pop()!) as { total: number; duration: number; p50: number; p99: number; errors: number };
  return { rps: result.total / result.duration, p50Ms: result.p50, p99Ms: result.p99, errors: result.errors, errorKinds: '' };
}

function wrkDuration(text: string): number {
  const match = /^([\d.]+)(us|ms|s|m)$/.exec(text.trim());
  if (!match) return Number.NaN;
  const value = Number(match[1]);
  return match[2] === 'us' ? value / 1000 : match[2] === 'ms' ? value : match[2] === 's' ? value * 1000 : value * 60_000;
}

export async function runWrk(exec: Exec, options: { url: string; connections: number; durationS: number; threads: number }): Promise<ToolFigures> {
  const output = await exec(['wrk', `-t${options.threads}`, `-c${options.connections}`, `-d${options.durationS}s`, '--latency', options.url], (options.durationS + 30) * 1000);
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(output)?.[1] ?? Number.NaN);
  const percentile = (p: string) => {
    const match = new RegExp(`^\\s+${p}%\\s+(\\S+)`, 'm').exec(output);
    return match ? wrkDuration(match[1]!) : null;
  };
  const socketErrors = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(output);
  const non2xx = Number(/Non-2xx or 3xx responses: (\d+)/.exec(output)?.[1] ?? 0);
  const [connect, read, write, timeout] = (socketErrors?.slice(1) ?? ['0', '0', '0', '0']).map(Number) as [number, number, number, number];
  const errors = connect + read + write + timeout + non2xx;
  return { rps, p50Ms: percentile('50'), p99Ms: percentile('99'), errors, errorKinds: kindsText({ connect, read, write, timeout, 'non-2xx': non2xx }) };
}
