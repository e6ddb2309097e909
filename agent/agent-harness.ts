// Test support for the agent: a local HTTP server that counts what it answers (and can stall), a
// scripted raw server (slow answers, a FIN or a reset every Nth request, or no answer at all), a
// runner that starts the agent as Benchlab would — start line, heartbeats, stop — and collects its
// lines with their arrival times, and the check that the books of every line of a run balance.

import { spawn } from 'node:child_process';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { createServer as createTcpServer, type AddressInfo, type Socket } from 'node:net';
import { resolve } from 'node:path';
import { AGENT_PROTOCOL_VERSION, encodeLine, LineSplitter, parseAgentLine, type AgentConfig, type AgentLine } from '../app/runs/agent-protocol.ts';
import { hostNowMs } from './host-clock.ts';
import { ERROR_KINDS, intervalBalances, NOT_SENT_REASONS, STATUS_CLASSES, sumKinds } from '../app/runs/run-summary.ts';

export const AGENT_SOURCE = resolve(import.meta.dirname, 'main.ts');

export interface TestServer {
  port: number;
  /** Requests answered so far, and when the last one arrived. */
  answered(): number;
  lastRequestAt(): number;
  /** When the first request arrived (epoch ms at µs resolution), or null before one did. */
  firstRequestAt(): number | null;
  /** Connections open now: a load that has stopped holds none. */
  openConnections(): Promise<number>;
  /** Blocks the server's event loop for `ms` (a GC pause, a synchronous call). */
  stall(ms: number): void;
  close(): Promise<void>;
}

export async function startTestServer(body = 'hello world'): Promise<TestServer> {
  let answered = 0;
  let lastRequestAt = 0;
  let firstRequestAt: number | null = null;
  const server: Server = createServer((_request, response) => {
    firstRequestAt ??= hostNowMs();
    answered++;
    lastRequestAt = Date.now();
    response.end(body);
  });
  const { port, close } = await listenOnLoopback(server);
  return {
    port,
    answered: () => answered,
    lastRequestAt: () => lastRequestAt,
    firstRequestAt: () => firstRequestAt,
    openConnections: () => new Promise((done, fail) => server.getConnections((error, count) => (error ? fail(error) : done(count)))),
    stall(ms) {
      const until = Date.now() + ms;
      while (Date.now() < until);
    },
    close,
  };
}

/** A figure a test server keeps and hands over, starting again from zero: connections or the most requests on one since the last look. */
export class Tally {
  #value = 0;

  add(count = 1): void {
    this.#value += count;
  }

  raise(to: number): void {
    this.#value = Math.max(this.#value, to);
  }

  take(): number {
    const value = this.#value;
    this.#value = 0;
    return value;
  }
}

/**
 * Puts a test's HTTP server on a free loopback port (`backlog`: the kernel's accept queue, when the
 * test needs it short); `close` ends its connections and resolves once it stopped.
 */
export async function listenOnLoopback(server: Server, backlog?: number): Promise<{ port: number; close(): Promise<void> }> {
  await new Promise<void>((done) => server.listen({ port: 0, host: '127.0.0.1', ...(backlog === undefined ? {} : { backlog }) }, done));
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}

export interface ScriptedServer {
  port: number;
  /** Requests that arrived, answered or not. */
  received(): number;
  /** The most requests one read of a connection held: more than 1 means they were pipelined. */
  mostInOneRead(): number;
  close(): Promise<void>;
}

export interface Script {
  /** Answer each request this long after it arrived (in order; 0: at once); absent: never answer. */
  answerAfterMs?: number;
  /** The raw answers, taken in turn for the requests of a connection; default a 200 with a 5-byte body. */
  answers?: string[];
  /** Write each answer in pieces of this many bytes, one per turn of the event loop (a server dripping its answer). */
  pieceBytes?: number;
  /** Close the connection (FIN) after each answer: answers that end with the connection or say `Connection: close`. */
  closeAfterAnswer?: boolean;
  /**
   * Every `n`th request of a connection is not answered: the server closes (FIN) or resets (RST) the
   * connection instead, or (`fin-mid-answer`) writes the first half of its answer, then closes.
   */
  endEvery?: { n: number; how: 'fin' | 'reset' | 'fin-mid-answer' };
}

export const ANSWER_200 = 'HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello';

/** A raw TCP server speaking just enough HTTP/1.1 (requests without bodies) to misbehave on purpose. */
export async function startScriptedServer(script: Script): Promise<ScriptedServer> {
  let received = 0;
  let mostInOneRead = 0;
  const answers = (script.answers ?? [ANSWER_200]).map((answer) => Buffer.from(answer, 'latin1'));
  const sockets = new Set<Socket>();
  const timers = new Set<ReturnType<typeof setTimeout>>();
  // A timer starts from the event loop's clock as of the loop's last turn, which may be a while
  // before this request arrived, so it can fire early by that much. The delay is the floor of
  // every latency the tests assert, so it is held by the monotonic clock from the arrival.
  const holdFor = (delayMs: number, then: () => void) => {
    const until = performance.now() + delayMs;
    const wait = (ms: number) => {
      const timer = setTimeout(() => {
        timers.delete(timer);
        const left = until - performance.now();
        if (left > 0) wait(Math.ceil(left));
        else then();
      }, ms);
      timers.add(timer);
    };
    wait(delayMs);
  };
  const server = createTcpServer((socket) => {
    sockets.add(socket);
    socket.setNoDelay(true);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    let text = '';
    let count = 0;
    // Answers leave in the order of their requests, even when written in pieces.
    let writing = Promise.resolve();
    // Once the server has decided to close, what else arrives on the connection is not read.
    let ending = false;
    const answer = (bytes: Buffer, then: 'keep' | 'end') => {
      writing = writing.then(() => writeAnswer(socket, bytes, script.pieceBytes, then));
    };
    socket.on('data', (chunk) => {
      if (ending) return;
      text += chunk.toString('latin1');
      let inThisRead = 0;
      for (let end = text.indexOf('\r\n\r\n'); end >= 0; end = text.indexOf('\r\n\r\n')) {
        text = text.slice(end + 4);
        received++;
        count++;
        mostInOneRead = Math.max(mostInOneRead, ++inThisRead);
        const bytes = answers[(count - 1) % answers.length]!;
        if (script.endEvery && count % script.endEvery.n === 0) {
          ending = true;
          if (script.endEvery.how === 'fin') socket.end();
          else if (script.endEvery.how === 'reset') socket.resetAndDestroy();
          else answer(bytes.subarray(0, bytes.length >> 1), 'end');
          return;
        }
        if (script.answerAfterMs === undefined) continue;
        const then = script.closeAfterAnswer ? 'end' : 'keep';
        if (script.answerAfterMs === 0) {
          answer(bytes, then);
        } else {
          holdFor(script.answerAfterMs, () => answer(bytes, then));
        }
        if (then === 'end') {
          ending = true;
          return;
        }
      }
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return {
    port: (server.address() as AddressInfo).port,
    received: () => received,
    mostInOneRead: () => mostInOneRead,
    close: () =>
      new Promise((done) => {
        timers.forEach((timer) => clearTimeout(timer));
        sockets.forEach((socket) => socket.destroy());
        server.close(() => done());
      }),
  };
}

async function writeAnswer(socket: Socket, bytes: Buffer, pieceBytes: number | undefined, then: 'keep' | 'end'): Promise<void> {
  if (!socket.writable) return;
  if (!pieceBytes) socket.write(bytes);
  else {
    for (let at = 0; at < bytes.length && socket.writable; at += pieceBytes) {
      socket.write(bytes.subarray(at, at + pieceBytes));
      await new Promise((next) => setImmediate(next));
    }
  }
  if (then === 'end') socket.end();
}

export interface AgentRun {
  lines: Array<AgentLine & { receivedAt: number }>;
  stderr: string;
  exitCode: number | null;
  /** The signal that ended the agent, if one did. */
  exitSignal: NodeJS.Signals | null;
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
  /** Close stdin (Benchlab gone) once a line makes this true. */
  closeStdinWhen?: (line: AgentLine) => boolean;
  /** Kill the agent with SIGKILL (no chance to clean up) once a line makes this true. */
  killWhen?: (line: AgentLine) => boolean;
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
      if (options.closeStdinWhen?.(parsed.value)) child.stdin.end();
      if (options.killWhen?.(parsed.value)) child.kill('SIGKILL');
    }
  });
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdin.on('error', () => undefined);
  child.stdin.write(encodeLine({ type: 'start', version: AGENT_PROTOCOL_VERSION, config }));
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
    child.on('close', (code, signal) => {
      timers.forEach((timer) => clearTimeout(timer));
      done({ lines, stderr, exitCode: code, exitSignal: signal, exitedAt: Date.now(), stopSentAt });
    });
  });
}

export function samplesOf(run: AgentRun) {
  return run.lines.filter((line): line is Extract<AgentRun['lines'][number], { type: 'sample' }> => line.type === 'sample');
}

export function endOf(run: AgentRun) {
  return run.lines.find((line): line is Extract<AgentRun['lines'][number], { type: 'end' }> => line.type === 'end');
}

type SampleLine = ReturnType<typeof samplesOf>[number];

export interface Books {
  scheduled: number;
  answered: number;
  errors: Record<string, number>;
  notSent: Record<string, number>;
  /** Left in flight by the last measured or drain line (0 for a completed step). */
  inFlight: number;
  /** Sum of the measured lines' durations. */
  windowMs: number;
  drain: SampleLine | null;
}

/**
 * Asserts the books of every line of a run: within each phase, what was in flight before plus what
 * was scheduled is answered, failed, not sent or still in flight; the first measured line starts
 * from nothing; a completed step ends with ONE drain line that schedules nothing and leaves nothing
 * in flight. Returns the measured books (window and drain).
 */
export function assertBooks(run: AgentRun): Books {
  const samples = samplesOf(run);
  const books: Books = { scheduled: 0, answered: 0, errors: {}, notSent: {}, inFlight: 0, windowMs: 0, drain: null };
  let phase: string | null = null;
  let before = 0;
  for (const line of samples) {
    const counted = line.phase === 'warmup' ? 'warmup' : 'measured';
    if (counted !== phase) {
      assert.ok(phase === null || (phase === 'warmup' && counted === 'measured'), `line ${line.second}: ${line.phase} after ${phase}`);
      phase = counted;
      before = 0;
    }
    const resolved = sumKinds(line.status, STATUS_CLASSES) + sumKinds(line.errors, ERROR_KINDS) + sumKinds(line.notSent, NOT_SENT_REASONS);
    assert.ok(
      intervalBalances({ ...line, phase: undefined }, before),
      `line ${line.second} (${line.phase}) does not balance: ${before} in flight + ${line.scheduled} scheduled ≠ ${resolved} settled + ${line.inFlight} in flight`,
    );
    assert.equal(line.requests, sumKinds(line.status, STATUS_CLASSES), `line ${line.second}: requests are the answers`);
    before = line.inFlight;
    if (line.phase === 'warmup') continue;
    books.scheduled += line.scheduled;
    books.answered += line.requests;
    for (const [kind, count] of Object.entries(line.errors)) books.errors[kind] = (books.errors[kind] ?? 0) + count;
    for (const [reason, count] of Object.entries(line.notSent)) books.notSent[reason] = (books.notSent[reason] ?? 0) + count;
    books.inFlight = line.inFlight;
    if (line.phase === 'measure') {
      assert.equal(books.drain, null, `line ${line.second}: a measured line after the drain`);
      books.windowMs += line.durationMs;
    } else {
      assert.equal(books.drain, null, `line ${line.second}: a second drain line`);
      assert.equal(line.scheduled, 0, 'the drain schedules nothing');
      books.drain = line;
    }
  }
  if (endOf(run)?.reason === 'completed') {
    assert.ok(books.drain, 'a completed step ends with a drain line');
    assert.equal(samples.at(-1), books.drain, 'the drain line is the last');
    assert.equal(books.drain.inFlight, 0, 'the drain leaves nothing in flight');
  }
  return books;
}
