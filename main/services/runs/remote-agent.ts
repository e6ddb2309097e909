// One running agent on a host, over HostTransport.start: sends the start line and a heartbeat
// every second, parses what comes back line by line (a line that fails its schema is logged, never
// trusted), and stops it — `stop` first, then a kill of its process group if it has not ended
// within the grace, then the channel itself.

import {
  AGENT_PROTOCOL_VERSION,
  encodeLine,
  HEARTBEAT_EVERY_MS,
  LineSplitter,
  parseAgentLine,
  type AgentConfig,
  type AgentLine,
  type EndReason,
} from '../../../app/runs/agent-protocol.ts';
import { ApiError } from '../../../app/common/errors.ts';
import type { HostProcess, HostTransport } from '../hosts/host-transport.ts';

export interface AgentEnd {
  reason: EndReason | 'lost';
  message: string | null;
}

export interface RemoteAgentOptions {
  onLine: (line: AgentLine) => void;
  onProblem: (message: string) => void;
}

/** How long `stop` may take before the agent's process group is killed. */
export const STOP_GRACE_MS = 800;

export class RemoteAgent {
  readonly #transport: HostTransport;
  readonly #process: HostProcess;
  readonly #heartbeat: ReturnType<typeof setInterval>;
  #pid: number | null = null;
  #end: AgentEnd | null = null;
  readonly ended: Promise<AgentEnd>;
  #hello: ((pid: number) => void) | null = null;

  private constructor(transport: HostTransport, process: HostProcess, feed: LineFeed, options: RemoteAgentOptions) {
    this.#transport = transport;
    this.#process = process;
    feed.listen((text) => {
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
    this.ended = process.exited.then(({ code }) => {
      clearInterval(this.#heartbeat);
      return this.#end ?? { reason: 'lost', message: `the agent ended without saying why (exit code ${code ?? 'none: killed or the link closed'})` };
    });
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

  /** Asks the agent to stop; kills its process group if it has not ended within STOP_GRACE_MS. */
  async stop(graceMs = STOP_GRACE_MS): Promise<AgentEnd> {
    this.#process.write(encodeLine({ type: 'stop' }));
    const timer = setTimeout(() => this.kill(), graceMs);
    const end = await this.ended;
    clearTimeout(timer);
    return end;
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
