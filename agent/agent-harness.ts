// Test support for the agent: a local HTTP server that counts what it answers (and can stall),
// and a runner that starts the agent as Benchlab would — start line, heartbeats, stop — and
// collects its lines with their arrival times.

import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { encodeLine, LineSplitter, parseAgentLine, type AgentConfig, type AgentLine } from '../app/agent-protocol.ts';

export const AGENT_SOURCE = resolve(import.meta.dirname, 'main.ts');

export interface TestServer {
  port: number;
  /** Requests answered so far, and when the last one arrived. */
  answered(): number;
  lastRequestAt(): number;
  /** Blocks the server's event loop for `ms` (a GC pause, a synchronous call). */
  stall(ms: number): void;
  close(): Promise<void>;
}

export async function startTestServer(body = 'hello world'): Promise<TestServer> {
  let answered = 0;
  let lastRequestAt = 0;
  const server: Server = createServer((_request, response) => {
    answered++;
    lastRequestAt = Date.now();
    response.end(body);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return {
    port: (server.address() as AddressInfo).port,
    answered: () => answered,
    lastRequestAt: () => lastRequestAt,
    stall(ms) {
      const until = Date.now() + ms;
      while (Date.now() < until);
    },
    close: () =>
      new Promise((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}

export interface AgentRun {
  lines: Array<AgentLine & { receivedAt: number }>;
  stderr: string;
  exitCode: number | null;
  exitedAt: number;
  /** When `stop` was written, if it was. */
  stopSentAt: number | null;
}

export interface RunOptions {
  /** Send heartbeats (default true). */
  heartbeat?: boolean;
  /** Send `stop` this long after the start line. */
  stopAfterMs?: number;
  /** Close stdin this long after the start line. */
  closeStdinAfterMs?: number;
  /** Run this file with this node instead of the source with the current one. */
  node?: string;
  script?: string;
  /** Called with each line as it arrives. */
  onLine?: (line: AgentLine) => void;
  /** Send `stop` once a line makes this true. */
  stopWhen?: (line: AgentLine) => boolean;
}

export function runAgent(config: AgentConfig, options: RunOptions = {}): Promise<AgentRun> {
  const child = spawn(options.node ?? process.execPath, [options.script ?? AGENT_SOURCE], { stdio: ['pipe', 'pipe', 'pipe'] });
  const lines: AgentRun['lines'] = [];
  let stopSentAt: number | null = null;
  let stderr = '';
  const splitter = new LineSplitter();
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => {
    for (const text of splitter.push(chunk)) {
      const parsed = parseAgentLine(text);
      if (!parsed.ok) throw new Error(parsed.error);
      lines.push({ ...parsed.value, receivedAt: Date.now() });
      options.onLine?.(parsed.value);
      if (stopSentAt === null && options.stopWhen?.(parsed.value)) {
        stopSentAt = Date.now();
        child.stdin.write(encodeLine({ type: 'stop' }));
      }
    }
  });
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdin.on('error', () => undefined);
  child.stdin.write(encodeLine({ type: 'start', version: 1, config }));
  const timers: ReturnType<typeof setTimeout>[] = [];
  if (options.heartbeat !== false) {
    const beat = setInterval(() => child.stdin.writable && child.stdin.write(encodeLine({ type: 'hb' })), 1000);
    timers.push(beat);
  }
  if (options.stopAfterMs !== undefined) {
    timers.push(
      setTimeout(() => {
        stopSentAt = Date.now();
        child.stdin.write(encodeLine({ type: 'stop' }));
      }, options.stopAfterMs),
    );
  }
  if (options.closeStdinAfterMs !== undefined) timers.push(setTimeout(() => child.stdin.end(), options.closeStdinAfterMs));
  return new Promise((done) => {
    child.on('close', (code) => {
      timers.forEach((timer) => clearTimeout(timer));
      done({ lines, stderr, exitCode: code, exitedAt: Date.now(), stopSentAt });
    });
  });
}

export function samplesOf(run: AgentRun) {
  return run.lines.filter((line): line is Extract<AgentRun['lines'][number], { type: 'sample' }> => line.type === 'sample');
}

export function endOf(run: AgentRun) {
  return run.lines.find((line): line is Extract<AgentRun['lines'][number], { type: 'end' }> => line.type === 'end');
}
