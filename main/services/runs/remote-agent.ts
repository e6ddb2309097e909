// One running agent on a host, over HostTransport.start: sends the start line and a heartbeat
// every second, parses what comes back line by line (a line that fails its schema is logged, never
// trusted), and stops it — `stop` first, then a kill of its process group if it has not ended
// within the grace, then the channel itself. Over a dead link the channel's end would come only
// when SSH gives the connection up: an agent known gone is given up at once instead.

import {
  AGENT_PROTOCOL_VERSION,
  encodeLine,
  HEARTBEAT_EVERY_MS,
  LineSplitter,
  parseAgentLine,
  type AgentCommand,
  type AgentConfig,
  type AgentLine,
  type EndReason,
} from '../../../app/runs/agent-protocol.ts';
import { ApiError } from '../../../app/common/errors.ts';
import type { HostProcess, HostTransport } from '../hosts/host-transport.ts';

export interface AgentEnd {
  /** `lost`: the channel ended without the agent's end line; `link-lost`: given up over a silent link. */
  reason: EndReason | 'lost' | 'link-lost';
  message: string | null;
}

export interface RemoteAgentOptions {
  onLine: (line: AgentLine) => void;
  onProblem: (message: string) => void;
}

/** How long `stop` may take before the agent's process group is killed. */
export const STOP_GRACE_MS = 800;
/** After the kill, how long the channel may take to end before the agent is given up (a dead link). */
const KILLED_GRACE_MS = 2000;

export class RemoteAgent {
  readonly #transport: HostTransport;
  readonly #process: HostProcess;
  readonly #heartbeat: ReturnType<typeof setInterval>;
  #pid: number | null = null;
  #end: AgentEnd | null = null;
  readonly ended: Promise<AgentEnd>;
  #hello: ((pid: number) => void) | null = null;
  #giveUp: ((end: AgentEnd) => void) | null = null;
  #givenUp = false;

  private constructor(transport: HostTransport, process: HostProcess, feed: LineFeed, options: RemoteAgentOptions) {
    this.#transport = transport;
    this.#process = process;
    feed.listen((text) => {
      // Given up: whatever still comes is not trusted to belong to the books that were closed.
      if (this.#givenUp) return;
      const parsed = parseAgentLine(text);
      if (!parsed.ok) return options.onProblem(`agent: ${parsed.error}`);
      const line = parsed.value;
      if (line.type === 'hello') {
        this.#pid = line.pid;
        this.#hello?.(line.pid);
      }
      if (line.type === 'end') this.#end = { reason: line.reason, message: line.message ?? null };
      options.onLine(line);
    });
    this.#heartbeat = setInterval(() => process.write(encodeLine({ type: 'hb' })), HEARTBEAT_EVERY_MS);
    const exited = process.exited.then(({ code }): AgentEnd => {
      clearInterval(this.#heartbeat);
      return this.#end ?? { reason: 'lost', message: `the agent ended without saying why (exit code ${code ?? 'none: killed or the link closed'})` };
    });
    this.ended = Promise.race([exited, new Promise<AgentEnd>((resolve) => (this.#giveUp = resolve))]);
  }

  /** Starts the agent and sends its configuration; resolves once it said hello. */
  static async start(transport: HostTransport, command: string, config: AgentConfig, options: RemoteAgentOptions, helloTimeoutMs = 20_000): Promise<RemoteAgent> {
    const splitter = new LineSplitter();
    const feed = new LineFeed();
    let stderr = '';
    const process = await transport.start(command, {
      onStdout: (chunk) => splitter.push(chunk).forEach((line) => feed.push(line)),
      onStderr: (chunk) => {
        stderr = (stderr + chunk).slice(-4000);
      },
    });
    const agent = new RemoteAgent(transport, process, feed, options);
    process.write(encodeLine({ type: 'start', version: AGENT_PROTOCOL_VERSION, config }));
    let timer: ReturnType<typeof setTimeout> | undefined;
    const said = await Promise.race([
      new Promise<'hello'>((resolve) => (agent.#hello = () => resolve('hello'))),
      agent.ended.then(() => 'ended' as const),
      new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), helloTimeoutMs))),
    ]);
    clearTimeout(timer);
    if (said !== 'hello') {
      agent.kill();
      const detail = stderr.trim().split('\n').slice(-3).join(' ').slice(0, 400);
      throw new ApiError('unavailable', `the load agent did not start${said === 'timeout' ? ` within ${helloTimeoutMs / 1000} s` : ''}${detail ? `: ${detail}` : ''}`);
    }
    return agent;
  }

  get pid(): number | null {
    return this.#pid;
  }

  /** Sends one command line (the clock role's pings). */
  send(command: AgentCommand): void {
    this.#process.write(encodeLine(command));
  }

  /**
   * Asks the agent to stop; kills its process group if it has not ended within STOP_GRACE_MS, and
   * gives it up if even then its channel does not end (the link is dead).
   */
  async stop(graceMs = STOP_GRACE_MS): Promise<AgentEnd> {
    this.#process.write(encodeLine({ type: 'stop' }));
    const kill = setTimeout(() => this.kill(), graceMs);
    const giveUp = setTimeout(() => this.giveUp({ reason: 'lost', message: `no answer from the agent within ${(graceMs + KILLED_GRACE_MS) / 1000} s of its stop (the link may be down)` }), graceMs + KILLED_GRACE_MS);
    const end = await this.ended;
    clearTimeout(kill);
    clearTimeout(giveUp);
    return end;
  }

  /**
   * Ends it now with `end`, without waiting for its channel: the agent is known gone (it stops by
   * its own heartbeat rule) but the link that would say so is silent. Killed as far as the link
   * allows; lines that still come are dropped.
   */
  giveUp(end: AgentEnd): void {
    if (this.#givenUp) return;
    this.#givenUp = true;
    this.kill();
    this.#giveUp?.(end);
  }

  /** Kills the agent's process group on the host (over a separate command), and the channel. */
  kill(): void {
    clearInterval(this.#heartbeat);
    const pid = this.#pid;
    if (pid !== null) {
      void this.#transport.exec(`kill -KILL -- -${pid} 2>/dev/null || kill -KILL ${pid} 2>/dev/null; true`, { timeoutMs: 5000 }).catch(() => undefined);
    }
    this.#process.kill();
  }
}

/** Lines that arrive before anyone listens are kept for the listener. */
class LineFeed {
  #waiting: string[] = [];
  #listener: ((line: string) => void) | null = null;
  push(line: string): void {
    if (this.#listener) this.#listener(line);
    else this.#waiting.push(line);
  }
  listen(listener: (line: string) => void): void {
    this.#listener = listener;
    for (const line of this.#waiting.splice(0)) listener(line);
  }
}
