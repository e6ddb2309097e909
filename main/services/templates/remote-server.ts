// The server-side half of a deployment over a HostTransport: probe the host, inspect its run dir,
// start the supervisor, wait for readiness, stream logs, beat the heartbeat and stop — each one
// script of host-scripts.ts, its output read into a typed result.

import { ApiError, messageOf } from '../../../app/common/errors.ts';
import type { DatabaseFacts } from '../../../app/templates/template-database.ts';
import { parseHostFacts, type HostFacts } from '../../../app/templates/template-hosts.ts';
import type { HostTransport } from '../hosts/host-transport.ts';
import { describeRecord } from './server-hold.ts';
import { untilAborted } from './until-aborted.ts';
import {
  heartbeatScript,
  inspectScript,
  probeScript,
  readinessScript,
  startScript,
  stopScript,
  watchScript,
  type ReadinessSpec,
  type StartSpec,
} from './host-scripts.ts';

const SHORT_MS = 30_000;

export async function probeHost(transport: HostTransport, runtimePath: string | undefined, signal?: AbortSignal): Promise<HostFacts> {
  const result = await untilAborted(transport.exec('sh -s', { stdin: probeScript(runtimePath), timeoutMs: SHORT_MS }), signal);
  try {
    return parseHostFacts(result.stdout);
  } catch (error) {
    const said = (result.stderr.trim() || result.stdout.trim()).split('\n').slice(-2).join(' ').slice(0, 300);
    throw new ApiError('unavailable', `${messageOf(error)}${said ? `: ${said}` : ''}`);
  }
}

/** What deployment.json says: written by Benchlab at start. */
export interface RecordedDeployment {
  id: string;
  templateId: string;
  templateName?: string;
  variant?: string;
  port?: number;
  stopSignal?: string;
  graceSeconds?: number;
  logs?: string[];
  /** The private database started with it (version, port, settings). */
  database?: DatabaseFacts;
  /** The Benchlab process that deployed it and beats its heartbeat, in words ("benchlab run, pid 4242 on ci-7"). */
  holder?: string;
}

export interface RunInspection {
  deployment: RecordedDeployment | null;
  /** The supervisor's group still runs (null: the run dir is from before the last boot, or absent). */
  alive: boolean | null;
  heartbeatAgeSeconds: number | null;
  exitCode: string | null;
  portInUse: boolean;
  /** Something of Benchlab's is in the run dir (files, processes, a private database). */
  present: boolean;
  /** A plan holds the host (server-hold.ts), in words: `plan "Overnight" of the benchlab CLI (pid 4242)`; null: none. */
  heldBy: string | null;
}

export async function inspectRun(transport: HostTransport, run: string, port: number, signal?: AbortSignal): Promise<RunInspection> {
  const result = await untilAborted(transport.exec('sh -s', { stdin: inspectScript(run, port), timeoutMs: SHORT_MS }), signal);
  const inspection: RunInspection = { deployment: null, alive: null, heartbeatAgeSeconds: null, exitCode: null, portInUse: false, present: false, heldBy: null };
  for (const line of result.stdout.split('\n')) {
    const [key, ...rest] = line.trim().split(' ');
    const value = rest.join(' ');
    if (key === 'port-in-use') inspection.portInUse = true;
    else if (key === 'deployment') {
      inspection.present = true;
      try {
        const parsed = JSON.parse(value) as RecordedDeployment;
        if (typeof parsed.id === 'string' && typeof parsed.templateId === 'string') inspection.deployment = parsed;
      } catch {
        // a damaged record is still a leftover to clean
      }
    } else if (key === 'alive') {
      inspection.present = true;
      inspection.alive = value === 'yes';
    } else if (key === 'stale-boot' || key === 'database') inspection.present = true;
    else if (key === 'heartbeat-age' && /^-?\d+$/.test(value)) inspection.heartbeatAgeSeconds = Number(value);
    else if (key === 'exit-code') inspection.exitCode = value;
    else if (key === 'held') inspection.heldBy = describeRecord(value);
  }
  if (!result.stdout.includes('end')) throw new ApiError('unavailable', 'cannot inspect Benchlab\'s run folder on the host');
  return inspection;
}

export async function startSupervised(transport: HostTransport, spec: StartSpec, signal?: AbortSignal): Promise<number> {
  const result = await untilAborted(transport.exec('sh -s', { stdin: startScript(spec), timeoutMs: SHORT_MS }), signal);
  const match = /supervisor (\d+)/.exec(result.stdout);
  if (!match) {
    const said = result.stdout.replace(/^error /m, '').trim().split('\n').slice(-3).join(' ');
    throw new ApiError('unavailable', `cannot start the server: ${said || `exit code ${result.code}`}`);
  }
  return Number(match[1]);
}

export type Readiness = { outcome: 'ready' } | { outcome: 'dead'; exitCode: string } | { outcome: 'timeout'; lastStatus: string };

export async function waitReady(transport: HostTransport, spec: ReadinessSpec, signal?: AbortSignal): Promise<Readiness> {
  const result = await untilAborted(transport.exec('sh -s', { stdin: readinessScript(spec), timeoutMs: (spec.timeoutSeconds + 15) * 1000 }), signal);
  const line = result.stdout.trim().split('\n').pop() ?? '';
  if (line === 'ready') return { outcome: 'ready' };
  if (line.startsWith('dead')) return { outcome: 'dead', exitCode: line.slice(5).trim() || '?' };
  if (line.startsWith('timeout')) return { outcome: 'timeout', lastStatus: line.slice(8).trim() };
  throw new ApiError('unavailable', `the readiness check did not run on the host${result.stderr ? `: ${result.stderr.trim().slice(0, 200)}` : ''}`);
}

/** Streams the logs until the server's group ends; a stop ends it, so it is never killed. */
export async function watchLogs(transport: HostTransport, run: string, logs: readonly string[], options: { fromStart: boolean; onOutput: (chunk: string) => void }): Promise<void> {
  await transport.exec('sh -s', { stdin: watchScript(run, logs, options.fromStart), timeoutMs: 2 ** 31 - 1, onStdout: options.onOutput });
}

/** What a heartbeat found: the server's state, and a private database's last log lines when it ended under a running server. */
export interface Beat {
  state: 'alive' | 'dead' | 'replaced' | 'database-ended';
  logTail: string[];
}

/** Beats the heartbeat of our deployment; `replaced`: the run dir holds another deployment now (left alone). */
export async function beat(transport: HostTransport, run: string, deploymentId: string): Promise<Beat> {
  const result = await transport.exec('sh -s', { stdin: heartbeatScript(run, deploymentId), timeoutMs: 15_000 });
  const lines = result.stdout.trim().split('\n');
  const said = lines.at(-1) ?? '';
  const state = said === 'alive' || said === 'replaced' || said === 'database-ended' ? said : 'dead';
  return { state, logTail: lines.filter((line) => line.startsWith('log ')).map((line) => line.slice(4)) };
}

export interface StopOutcome {
  how: 'graceful' | 'killed' | 'none';
  logTail: string[];
}

/**
 * How long the stop script may run past the server's grace: its KILL and the wait for the group (5 s),
 * then a private PostgreSQL's and a private MongoDB-protocol database's own stops (up to 20 s each,
 * each by its loop of 0.1 s sleeps, which a busy host stretches), with room to spare. Less, and a
 * Vert.x with its FerretDB stopped under load outlived the wait: the stop failed and the host stayed
 * "stopping" for every later deploy of the plan.
 */
const STOP_PAST_GRACE_S = 60;

export async function stopRun(transport: HostTransport, run: string, signal: string, graceSeconds: number, logs: readonly string[]): Promise<StopOutcome> {
  const result = await transport.exec('sh -s', { stdin: stopScript(run, signal, graceSeconds, logs), timeoutMs: (graceSeconds + STOP_PAST_GRACE_S) * 1000 });
  const lines = result.stdout.split('\n');
  const logTail = lines.filter((line) => line.startsWith('log ')).map((line) => line.slice(4));
  const how = /stopped (graceful|killed|none)/.exec(result.stdout)?.[1] as StopOutcome['how'] | undefined;
  if (!how) throw new ApiError('unavailable', `the stop did not complete on the host${result.stderr ? `: ${result.stderr.trim().slice(0, 200)}` : ''}`);
  return { how, logTail };
}
