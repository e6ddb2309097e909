// A session's pre-flight, everything before it exists: the hosts asked for (each answering, each
// client listed once), the profile's target and steps, the connect check's cleaning awaited, then on
// every client side by side the agent made ready (uploaded once per connection, agent-host.ts), the
// target probed from there and the load engine chosen (engine-choice.ts), each step's load split by
// weight (given, else the host's cores: app/runs/load-split.ts), the clients' clocks measured when
// there are several (clock-sync.ts), and the server's agent made ready for its sampler. The first
// refusal is the answer, and nothing is left running behind it.

import { CLOCK_UNCERTAINTY_LIMIT_MS, type ClockOffset } from '../../../app/runs/clock-offset.ts';
import type { AgentLine, LoadEngine } from '../../../app/runs/agent-protocol.ts';
import { ApiError, messageOf } from '../../../app/common/errors.ts';
import { clockTime } from '../../../app/common/clock-time.ts';
import { decideEngine, DEFAULT_ENGINE_CHOICE, engineLabel, type EngineChoice, type RecordedEngine } from '../../../app/runs/engine-choice.ts';
import { clientWeights, splitStepLoad } from '../../../app/runs/load-split.ts';
import { expandSteps, parseTarget, type LoadProfile, type LoadStep, type ParsedTarget, type StepLoad } from '../../../app/runs/load-profile.ts';
import type { RecordedClient } from '../../../app/runs/run-clients.ts';
import type { RunClient } from '../../../app/runs/runs-contract.ts';
import type { ConnectChecks } from '../hosts/connect-checks.ts';
import type { HostConnections } from '../hosts/host-connections.ts';
import type { HostTransport } from '../hosts/host-transport.ts';
import type { HostsRepository } from '../hosts/hosts-repository.ts';
import type { Logger } from '../logger.ts';
import type { PortableNodeCache } from '../templates/portable-node.ts';
import { prepareAgentHost, prepareNativeEngine, type AgentHost } from './agent-host.ts';
import { measureClockOffset } from './clock-sync.ts';
import { RemoteAgent } from './remote-agent.ts';

const PROBE_TIMEOUT_MS = 3000;

/** The engine a session's steps run on a client: what the session records, and the native binary's path there. */
interface SessionEngine {
  recorded: RecordedEngine;
  config: LoadEngine;
}

/** A client host made ready for a session: its agent's footing, the engine chosen there, its cores (null: unknown). */
interface PreparedClient {
  hostId: number;
  name: string;
  transport: HostTransport;
  agent: AgentHost;
  engine: SessionEngine;
  cores: number | null;
}

/** One load client of a session: as prepared, with its index (the clientIndex of its seconds), its weight and its clock. */
export interface LoadClient extends PreparedClient {
  index: number;
  weight: number;
  /** Its clock's offset to Benchlab's; null with one client (not measured, it starts at once). */
  clock: ClockOffset | null;
}

/** What a session starts from once every check passed. */
export interface Prepared {
  profile: LoadProfile;
  target: ParsedTarget;
  steps: LoadStep[];
  /** Each step's load split over the clients, by client index. */
  splits: StepLoad[][];
  clients: LoadClient[];
  server: { id: number; name: string; transport: HostTransport; agent: AgentHost } | null;
}

export interface PreflightOptions {
  log: Logger;
  hosts: HostsRepository;
  connections: Pick<HostConnections, 'transportFor' | 'state'>;
  connectChecks: Pick<ConnectChecks, 'settled'>;
  portableNode: PortableNodeCache;
  measureClock?: ((transport: HostTransport, agent: AgentHost) => Promise<ClockOffset>) | undefined;
}

export class RunPreflight {
  readonly #options: PreflightOptions;
  readonly #agentHosts = new Map<number, Promise<AgentHost>>();

  constructor(options: PreflightOptions) {
    this.#options = options;
  }

  /** A host that dropped may come back as another machine's image: its agent is prepared anew. */
  forget(hostId: number): void {
    this.#agentHosts.delete(hostId);
  }

  async prepare(args: { profile: LoadProfile; clientHostId?: number | undefined; clients?: RunClient[] | undefined; serverHostId?: number | null | undefined; engine?: EngineChoice | undefined }): Promise<Prepared> {
    const { hosts, connections } = this.#options;
    const profile = args.profile;
    const requested = requestedClients(args, (hostId) => hosts.get(hostId).name);
    const clientHosts = requested.map((client) => hosts.get(client.hostId));
    const server = args.serverHostId ? hosts.get(args.serverHostId) : null;
    const serverTransport = server ? connections.transportFor(server.id) : null;
    for (const host of [...clientHosts, server]) {
      const silentSince = host ? connections.state(host.id).unresponsiveSince : null;
      if (host && silentSince) throw new ApiError('unavailable', `${host.name} has not answered since ${clockTime(silentSince)}: wait until it answers again, or reconnect it`);
    }
    const target = parseTarget(profile.target);
    if (typeof target === 'string') throw new ApiError('invalid_args', `target: ${target}`);
    const steps = expandSteps(profile);

    // Agents a crashed Benchlab left are cleaned by the connect check: wait for it, do not check again.
    for (const host of clientHosts) await this.#options.connectChecks.settled(host.id);
    if (server) await this.#options.connectChecks.settled(server.id);
    // Every client made ready, its target probed and its engine chosen, side by side; the first refusal is the answer.
    const choice = args.engine ?? DEFAULT_ENGINE_CHOICE;
    const prepared = await settleAll(clientHosts.map((host) => this.#prepareClient(host, connections.transportFor(host.id), target, choice)));
    const weights = clientWeights(requested.map((client, index) => ({ weight: client.weight, cores: prepared[index]!.cores })));
    const splits = steps.map((step) => {
      const parts = splitStepLoad(step.load, weights);
      if (typeof parts === 'string') throw new ApiError('invalid_args', `profile: step ${step.index + 1} (${step.label}): ${parts}`);
      return parts;
    });
    // One client runs on its own clock as it always did; several start together on Benchlab's.
    const clocks = prepared.length > 1 ? await settleAll(prepared.map((client) => this.#measureClock(client))) : prepared.map(() => null);
    const clients: LoadClient[] = prepared.map((client, index) => ({ ...client, index, weight: weights[index]!, clock: clocks[index] ?? null }));
    const serverSide = server && serverTransport ? { id: server.id, name: server.name, transport: serverTransport, agent: await this.agentHost(server.id, server.name, serverTransport) } : null;
    return { profile, target, steps, splits, clients, server: serverSide };
  }

  /** The host's agent, prepared once per connection. */
  agentHost(hostId: number, hostName: string, transport: HostTransport): Promise<AgentHost> {
    let prepared = this.#agentHosts.get(hostId);
    if (!prepared) {
      prepared = prepareAgentHost(transport, hostName, {
        portableNode: this.#options.portableNode,
        onStep: (text) => this.#options.log.info('runs', text),
      });
      prepared.catch(() => this.#agentHosts.delete(hostId));
      this.#agentHosts.set(hostId, prepared);
    }
    return prepared;
  }

  /** A client host made ready: the agent's footing, the target probed from it, the engine chosen there. */
  async #prepareClient(host: { id: number; name: string }, transport: HostTransport, target: ParsedTarget, choice: EngineChoice): Promise<PreparedClient> {
    const agent = await this.agentHost(host.id, host.name, transport);
    const cores = await this.#probe(transport, agent, host.name, target);
    const engine = await this.#engineFor(choice, transport, agent, host.name, target);
    return { hostId: host.id, name: host.name, transport, agent, engine, cores };
  }

  /** Checks that the target answers from the host; returns the host's core count as its agent sees it. */
  async #probe(transport: HostTransport, host: AgentHost, hostName: string, target: ParsedTarget): Promise<number | null> {
    let result: Extract<AgentLine, { type: 'probe' }> | null = null;
    let cores: number | null = null;
    const agent = await RemoteAgent.start(transport, host.command, { role: 'probe', target: { hostname: target.hostname, port: target.port }, timeoutMs: PROBE_TIMEOUT_MS }, {
      onLine: (line) => {
        if (line.type === 'hello') cores = line.cores > 0 ? line.cores : null;
        if (line.type === 'probe') result = line;
      },
      onProblem: (message) => this.#options.log.warn('runs', message),
    });
    await agent.ended;
    const answer = result as Extract<AgentLine, { type: 'probe' }> | null;
    if (!answer) throw new ApiError('unavailable', `${hostName}: the reachability check of the target did not answer`);
    if (!answer.reachable) {
      throw new ApiError('unreachable', `target: ${describeTarget(target)} is not reachable from ${hostName}: ${answer.message ?? 'no answer'}`);
    }
    return cores;
  }

  /**
   * The engine the session runs on its client (engine-choice.ts): the native engine where it can run
   * (its binary uploaded beside the agent when missing), else the Node engine, with auto's notice.
   * A forced native engine that cannot run is refused here, before the session exists.
   */
  async #engineFor(choice: EngineChoice, transport: HostTransport, host: AgentHost, hostName: string, target: ParsedTarget): Promise<SessionEngine> {
    const native = choice === 'node' ? null : await prepareNativeEngine(transport, host, hostName, target.protocol, { onStep: (text) => this.#options.log.info('runs', text) });
    const decision = decideEngine(choice, hostName, native === null || 'path' in native ? null : native.obstacle);
    if ('error' in decision) throw new ApiError('unavailable', decision.error);
    const recorded: RecordedEngine = { choice, kind: decision.kind, notice: decision.notice };
    return { recorded, config: decision.kind === 'native' && native && 'path' in native ? { kind: 'native', path: native.path } : { kind: 'node' } };
  }

  /** A client's clock offset to Benchlab's, through its agent; a clock that cannot be read refuses the start. */
  async #measureClock(client: PreparedClient): Promise<ClockOffset> {
    try {
      return await (this.#options.measureClock ?? measureClockOffset)(client.transport, client.agent);
    } catch (error) {
      throw new ApiError('unavailable', `${client.name}: its clock could not be measured for a coordinated start (${messageOf(error)}); check its link and start again`);
    }
  }
}

/**
 * The load clients asked for: `clients`, or the one `clientHostId`. Refuses neither, both, and a
 * host listed twice (each client host takes part once).
 */
function requestedClients(args: { clientHostId?: number | undefined; clients?: RunClient[] | undefined }, nameOf: (hostId: number) => string): RunClient[] {
  if (args.clients && args.clientHostId !== undefined) throw new ApiError('invalid_args', 'clients: give either one client host (clientHostId) or several (clients), not both');
  const clients = args.clients ?? (args.clientHostId === undefined ? [] : [{ hostId: args.clientHostId }]);
  if (clients.length === 0) throw new ApiError('invalid_args', 'clients: give the client host that sends the load');
  const seen = new Set<number>();
  for (const client of clients) {
    if (seen.has(client.hostId)) throw new ApiError('invalid_args', `clients: ${nameOf(client.hostId)} is listed twice: list each client host once`);
    seen.add(client.hostId);
  }
  return clients;
}

/** Resolves with every result once all have settled (nothing left running), or rejects with the first failure. */
async function settleAll<T>(pending: Array<Promise<T>>): Promise<T[]> {
  const settled = await Promise.allSettled(pending);
  const failed = settled.find((outcome) => outcome.status === 'rejected');
  if (failed) throw failed.reason;
  return settled.map((outcome) => (outcome as PromiseFulfilledResult<T>).value);
}

function describeTarget(target: ParsedTarget): string {
  const host = target.hostname.includes(':') ? `[${target.hostname}]` : target.hostname;
  return `${target.protocol}://${host}:${target.port}`;
}

/** A client as the session's config records it. */
export function recordedClient(client: LoadClient): RecordedClient {
  return { index: client.index, hostId: client.hostId, hostName: client.name, weight: client.weight, cores: client.cores, engine: client.engine.recorded, clock: client.clock };
}

/** The client in the start's log line: its host, engine and weight. */
export function describeClient(client: LoadClient): string {
  return `${client.name} (${engineLabel(client.engine.recorded.kind)}, weight ${client.weight})`;
}

/** A warning for each client whose clock is known too loosely for its seconds to line up with the others'. */
export function clockWarnings(clients: readonly LoadClient[]): string[] {
  return clients.flatMap((client) =>
    client.clock && client.clock.uncertaintyMs > CLOCK_UNCERTAINTY_LIMIT_MS
      ? [`the clock of ${client.name} is known only to ±${client.clock.uncertaintyMs.toFixed(1)} ms (over ${CLOCK_UNCERTAINTY_LIMIT_MS} ms): its seconds may not line up with the other clients'`]
      : [],
  );
}
