// The open model's books at a rate the server cannot carry: a loopback server that spends 10 ms of
// CPU on every request (about 100 requests/s) is asked for 300 requests/s, once with a connection
// maximum that runs out (requests left waiting become "not sent") and once with the default maximum
// (rate × timeout: requests queue at the server and time out). Every scheduled request must end in
// exactly one bucket, and the step must last its duration plus a drain capped by the timeout.

import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import type { LoadAgentConfig } from '../app/runs/agent-protocol.ts';
import type { RunSummary } from '../app/runs/run-summary.ts';
import { localExec, runAgentTool } from './load-tools.ts';

const PORT = 18464;
export const OVERLOAD = { rate: 300, durationS: 5, timeoutMs: 1000, serviceMs: 10, cappedConnections: 20 } as const;

/** A node:http server that busy-waits `serviceMs` per request: one core carries 1000 / serviceMs requests/s. */
const SLOW_SERVER = `
const [port, serviceMs] = process.argv.slice(1).map(Number);
require('node:http').createServer((request, response) => {
  const until = Date.now() + serviceMs;
  while (Date.now() < until);
  response.end('slow');
}).listen(port, '127.0.0.1', () => console.log('ready'));`;

export interface OverloadFigures {
  label: string;
  wallS: number;
  summary: RunSummary;
}

async function startServer(): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['-e', SLOW_SERVER, String(PORT), String(OVERLOAD.serviceMs)], { stdio: ['ignore', 'pipe', 'inherit'] });
  const [chunk] = (await once(child.stdout!, 'data')) as [Buffer];
  if (!chunk.toString().includes('ready')) throw new Error('the slow server did not start');
  return child;
}

async function overloadRun(label: string, connections: number | undefined): Promise<OverloadFigures> {
  const server = await startServer();
  try {
    const config: LoadAgentConfig = {
      role: 'load',
      target: { protocol: 'http', hostname: '127.0.0.1', port: PORT },
      request: { method: 'GET', path: '/', headers: {}, timeoutMs: OVERLOAD.timeoutMs },
      load: { model: 'open', rate: OVERLOAD.rate, durationS: OVERLOAD.durationS, ...(connections === undefined ? {} : { connections }) },
      warmupS: 0,
      capS: 60,
    };
    const started = performance.now();
    const figures = await runAgentTool(localExec, process.execPath, config);
    return { label, wallS: (performance.now() - started) / 1000, summary: figures.summary };
  } finally {
    const exited = once(server, 'exit');
    server.kill('SIGTERM');
    await exited;
  }
}

export async function benchOpenAccounting(): Promise<OverloadFigures[]> {
  return [
    await overloadRun(`at most ${OVERLOAD.cappedConnections} connections`, OVERLOAD.cappedConnections),
    await overloadRun('connections as the rate needs (default)', undefined),
  ];
}
