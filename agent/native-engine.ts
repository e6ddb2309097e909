// The load role on the native engine: the agent starts the engine binary (agent/engine/, its path
// in the config), gives it the step with the threads resolved as for the Node engine (planThreads),
// and turns each of its interval lines into one `sample` line with the client's metrics. The agent
// keeps the protocol to Benchlab: a stop, a lost heartbeat or a closed stdin is passed on as the
// engine's stop; the engine keeps the cap, the agent enforces it too should the engine overrun it.
// A start time (startAtMs) goes to the engine, which gets ready and waits for it itself.
// The engine runs in the agent's process group (Benchlab stops the agent's group as one) and is
// killed with the agent; its own stdin closing with a killed agent also stops it.

import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import {
  LineSplitter,
  parseEngineLine,
  type ClientMetrics,
  type EndReason,
  type EngineIntervalLine,
  type EngineLine,
  type LoadAgentConfig,
  type LoadSampleLine,
} from '../app/runs/agent-protocol.ts';
import { ClientMetricsSampler, type LoadThreadFigures } from './client-metrics.ts';
import { hostNowMs } from './host-clock.ts';
import { describeConnectionShortfall, describeStartTooFar, planThreads, type LoadIo, type LoadOutcome } from './load-coordinator.ts';

/** The engine gets this long to start its loops, as the Node engine's threads do. */
const READY_WAIT_MS = 15_000;
/** After a stop, the engine gets this long to write its last line and exit before it is killed. */
const STOP_GRACE_MS = 5000;
/**
 * The engine keeps the cap itself (counted from its first second); the agent stops one that has not
 * ended this long after the cap from its ready line.
 */
const CAP_OVERRUN_MS = 5000;
/** The tail of the engine's stderr kept for an error message. */
const STDERR_TAIL = 2000;

/** The one config line the engine reads (agent/engine/config.go). */
export function engineConfig(config: LoadAgentConfig, cores?: number): object {
  const threads = planThreads(config, cores).map((setup) => {
    if (setup.closed) return { connections: setup.closed.connections, ...(setup.closed.requests === undefined ? {} : { requests: setup.closed.requests }) };
    const open = setup.open!;
    return { rate: open.rate, phase: open.phase, maxConnections: open.maxConnections, ...(open.requests === undefined ? {} : { requests: open.requests }) };
  });
  // HTTP/1.1 is the engine's own default: said only when it is 1.0, so an engine from before the
  // option still reads every config it can run (it refuses fields it does not know).
  const { httpVersion, ...request } = config.request;
  return {
    target: config.target,
    request: httpVersion === '1.0' ? { ...request, httpVersion } : request,
    load: config.load,
    warmupS: config.warmupS,
    capS: config.capS,
    ...(config.startAtMs === undefined ? {} : { startAtMs: config.startAtMs }),
    threads,
  };
}

/** The agent's sample line for one of the engine's intervals. */
export function sampleFromInterval(interval: EngineIntervalLine, client: (figures: LoadThreadFigures) => ClientMetrics): LoadSampleLine {
  const { type: _type, engine, ...books } = interval;
  return { type: 'sample', ...books, client: client(engine) };
}

export async function runNativeLoad(config: LoadAgentConfig, io: LoadIo): Promise<LoadOutcome> {
  const path = config.engine?.path;
  if (!path) return { reason: 'error', message: 'the native engine was chosen but its path on this host was not given' };
  if (config.target.protocol !== 'http') return { reason: 'error', message: 'the native engine drives plain http targets only: use the Node engine for https' };
  const refusal = describeConnectionShortfall(config) ?? describeStartTooFar(config);
  if (refusal) return { reason: 'error', message: refusal };

  let child: ChildProcessWithoutNullStreams;
  try {
    child = spawn(path, ['run'], { stdio: ['pipe', 'pipe', 'pipe'] });
  } catch (error) {
    return { reason: 'error', message: `the native engine could not start (${path}): ${error instanceof Error ? error.message : String(error)}` };
  }
  return new EngineRun(config, io, child, path).outcome;
}

/** One run of the engine process, from its config line to its exit. */
class EngineRun {
  readonly outcome: Promise<LoadOutcome>;
  readonly #config: LoadAgentConfig;
  readonly #io: LoadIo;
  readonly #child: ChildProcessWithoutNullStreams;
  readonly #timers: Array<ReturnType<typeof setTimeout>> = [];
  #metrics: ClientMetricsSampler | null = null;
  /** Why the agent stopped the engine: Benchlab's stop, a lost heartbeat, a closed stdin, or the cap it overran. */
  #stopReason: EndReason | null = null;
  /** What went wrong on the agent's side of the engine (it could not start, wrote nonsense, never got ready). */
  #failure: string | null = null;
  #end: Extract<EngineLine, { type: 'end' }> | null = null;
  #stderr = '';
  readonly #killAtExit = () => this.#child.kill('SIGKILL');

  constructor(config: LoadAgentConfig, io: LoadIo, child: ChildProcessWithoutNullStreams, path: string) {
    this.#config = config;
    this.#io = io;
    this.#child = child;
    this.outcome = new Promise((resolve) => {
      child.on('close', (code, signal) => {
        this.#timers.forEach((timer) => clearTimeout(timer));
        process.off('exit', this.#killAtExit);
        resolve(this.#result(code, signal));
      });
    });
    child.on('error', (error) => this.#fail(`the native engine could not start (${path}): ${error.message}`));
    // However the agent ends, the engine does not outlive it.
    process.on('exit', this.#killAtExit);
    child.stdin.on('error', () => undefined);
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => (this.#stderr = (this.#stderr + chunk).slice(-STDERR_TAIL)));
    const splitter = new LineSplitter();
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => splitter.push(chunk).forEach((line) => this.#line(line)));
    child.stdout.on('end', () => splitter.flush().forEach((line) => this.#line(line)));

    child.stdin.write(`${JSON.stringify(engineConfig(config))}\n`);
    this.#after(READY_WAIT_MS, () => {
      if (!this.#metrics) this.#fail(`the native engine did not start its load threads within ${READY_WAIT_MS / 1000} s`);
    });
    io.onStop((reason) => this.#stop(reason));
  }

  #line(text: string): void {
    const parsed = parseEngineLine(text);
    if (!parsed.ok) {
      this.#fail(`the native engine wrote a line the agent cannot read: ${parsed.error}`);
      return;
    }
    const line = parsed.value;
    switch (line.type) {
      case 'ready':
        this.#started(line.threads);
        break;
      case 'interval': {
        const metrics = this.#started(line.engine.threads);
        this.#io.sample(sampleFromInterval(line, (figures) => metrics.sample(figures)));
        break;
      }
      case 'log':
        this.#io.log(line.level, line.message);
        break;
      case 'end':
        this.#end ??= line;
        this.#after(STOP_GRACE_MS, () => {
          this.#io.log('warn', `the native engine did not exit within ${STOP_GRACE_MS / 1000} s of its end line: killed`);
          this.#child.kill('SIGKILL');
        });
        break;
    }
  }

  /** The engine's loops run: its seconds are sampled from here, and its cap is watched. */
  #started(threads: number): ClientMetricsSampler {
    if (this.#metrics) return this.#metrics;
    this.#metrics = new ClientMetricsSampler(this.#config.target.port, threads, this.#child.pid);
    // Ready before its start time, the engine counts the cap from that time.
    const untilStartMs = Math.max(0, (this.#config.startAtMs ?? 0) - hostNowMs());
    this.#after(untilStartMs + this.#config.capS * 1000 + CAP_OVERRUN_MS, () => {
      this.#io.log('warn', `the native engine ran past its ${this.#config.capS} s cap: stopped by the agent`);
      this.#stop('cap');
    });
    return this.#metrics;
  }

  /** Asks the engine to stop at once (its last line reports what is in flight); kills it if it does not exit. */
  #stop(reason: EndReason): void {
    this.#stopReason ??= reason;
    if (this.#child.exitCode !== null || this.#child.signalCode !== null || this.#child.stdin.writableEnded) return;
    this.#child.stdin.end(`${JSON.stringify({ type: 'stop' })}\n`);
    this.#after(STOP_GRACE_MS, () => {
      this.#io.log('warn', `the native engine did not exit within ${STOP_GRACE_MS / 1000} s of its stop: killed`);
      this.#child.kill('SIGKILL');
    });
  }

  #fail(message: string): void {
    this.#failure ??= message;
    this.#stop('error');
  }

  #after(ms: number, run: () => void): void {
    const timer = setTimeout(run, ms);
    timer.unref();
    this.#timers.push(timer);
  }

  #result(code: number | null, signal: NodeJS.Signals | null): LoadOutcome {
    if (this.#failure) return { reason: 'error', message: this.#failure };
    if (this.#stopReason === 'cap') return { reason: 'cap', message: `the step reached its ${this.#config.capS} s cap` };
    if (this.#stopReason) return { reason: this.#stopReason };
    const stderr = this.#stderr.trim().split('\n').at(-1);
    const end = this.#end;
    if (!end) {
      const how = signal ? `was killed by ${signal}` : `exited with code ${code}`;
      return { reason: 'error', message: `the native engine ${how} before its end line${stderr ? `: ${stderr}` : ''}` };
    }
    if (end.reason === 'stopped') return { reason: 'error', message: 'the native engine stopped without being asked to' };
    if (end.reason === 'error') return { reason: 'error', message: `the native engine failed: ${end.message ?? (stderr || 'no reason given')}` };
    return end.message === undefined ? { reason: end.reason } : { reason: end.reason, message: end.message };
  }
}
