// Connect time on the lab, Benchlab against ab: nginx (one worker) on the `newconn` lab's server
// host, ab run inside its client host (`ab -n N -c C`, HTTP/1.0 without keep-alive, as the ab seed
// ran it), and a Benchlab session from the same client host with the same request count,
// connections and HTTP/1.0, interleaved. Printed: each side's requests/s and the medians of ab's
// "Connection Times" rows (connect, waiting, processing, total) beside Benchlab's phases, as ratios.
// ab prints whole milliseconds, so a median below 1 ms reads 0 there: the ratios say so.

import { existsSync } from 'node:fs';
import type { LiveRun, StoredRun } from '../app/runs/runs.ts';
import type { RunSummary } from '../app/runs/run-summary.ts';
import { labExec, labUp } from '../tests/lab/lab.ts';
import { openLabBackend, type LabBackend } from '../tests/support/lab-backend.ts';
import { labSkipReason } from '../tests/support/lab-hosts.ts';
import { withLabServerNginx } from './hello-nginx.ts';
import { withMachineLoad, type MachineLoad } from './load-engine.ts';
import { AGENT_BUNDLE } from './load-tools.ts';
import { abPhaseMedians, type NewConnectionRun } from './new-connections.ts';

const INSTANCE = 'newconn';
const NGINX_PORT = 18499;
export const CONNECT_AGREEMENT_LOAD = { requests: 5000, connections: 50 } as const;
export const CONNECT_AGREEMENT_ROUNDS = 2;

export interface ConnectAgreementRound {
  load: MachineLoad;
  ab: { rps: number; phasesMs: NonNullable<NewConnectionRun['phasesMs']> };
  benchlab: { rps: number; engine: string; phasesMs: { connect: number | null; waiting: number | null; processing: number | null; total: number | null } };
}

export interface ConnectAgreement {
  skipped: string | null;
  rounds: ConnectAgreementRound[];
}

async function runAb(url: string): Promise<ConnectAgreementRound['ab']> {
  const { requests, connections } = CONNECT_AGREEMENT_LOAD;
  const result = await labExec('client', ['sh', '-c', 'ulimit -n "$(ulimit -Hn)"; exec ab -q -n "$1" -c "$2" "$3"', 'sh', String(requests), String(connections), `${url}/`], { instance: INSTANCE, timeoutMs: 120_000 });
  if (result.code !== 0) throw new Error(`ab on the lab client failed: ${result.stderr.trim()}`);
  return { rps: Number(/Requests per second:\s+([\d.]+)/.exec(result.stdout)?.[1] ?? Number.NaN), phasesMs: abPhaseMedians(result.stdout) };
}

async function runBenchlab(lab: LabBackend, url: string): Promise<ConnectAgreementRound['benchlab']> {
  const { requests, connections } = CONNECT_AGREEMENT_LOAD;
  const started = await lab.ok<LiveRun>('runs.start', {
    clientHostId: lab.clientId,
    profile: { target: url, request: { path: '/', httpVersion: '1.0' }, load: { model: 'closed', connections, requests } },
  });
  const live = await lab.services.runs.finished(started.sessionId);
  if (live.status !== 'completed') throw new Error(`the Benchlab session ended ${live.status}: ${live.message ?? ''}`);
  const [stored] = await lab.ok<StoredRun[]>('runs.list', { sessionId: live.sessionId });
  const summary: RunSummary | null | undefined = stored?.summary;
  if (!summary?.phases) throw new Error('the Benchlab session stored no phases');
  const ms = (us: number | null) => (us === null ? null : us / 1000);
  const { phases } = summary;
  return {
    rps: summary.requestsPerSecond,
    engine: live.clients[0]?.engine?.kind ?? '?',
    phasesMs: { connect: ms(phases.connect.p50Us), waiting: ms(phases.waiting.p50Us), processing: ms(phases.processing.p50Us), total: ms(phases.total.p50Us) },
  };
}

export async function benchConnectAgreement(): Promise<ConnectAgreement> {
  const skipped =
    labSkipReason() ??
    (existsSync('/usr/sbin/nginx') ? null : 'needs nginx on this machine (apt-get install nginx)') ??
    (existsSync('/usr/bin/ab') ? null : 'needs ab on this machine (apt-get install apache2-utils)') ??
    (existsSync(AGENT_BUNDLE) ? null : 'build the agent first: npm run build:agent');
  if (skipped) return { skipped, rounds: [] };
  const open = async () => {
    await labUp({ instance: INSTANCE });
    return openLabBackend(INSTANCE, 'benchlab-bench-connect-store-');
  };
  return withLabServerNginx(INSTANCE, NGINX_PORT, open, async (nginx, lab) => {
    const rounds: ConnectAgreementRound[] = [];
    for (let round = 0; round < CONNECT_AGREEMENT_ROUNDS; round++) {
      const { value, load } = await withMachineLoad(async () => ({ ab: await runAb(nginx.url), benchlab: await runBenchlab(lab, nginx.url) }));
      rounds.push({ load, ...value });
    }
    return { skipped: null, rounds };
  });
}
