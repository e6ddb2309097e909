// The runs capability's facade: starts, stops and reports the one session this process runs, over
// the modules that do each job. A start runs the pre-flight (run-preflight.ts: hosts, agents,
// target probes, engines, load split, clocks), creates the session record (its config records the
// clients, engines, repeat, calibration and deployment), takes the hosts' snapshot, builds the live
// run (live-run-state.ts: named transitions, one publish) and hands the steps to the step runner
// (step-runner.ts); the session's resources and the faults that end it from outside (hard cap, full
// store, server changed under it) are live-session.ts's. Stop halts the load within 1 s; shutdown
// stops it so its last second is stored. What a dead Benchlab left (running rows, agents on hosts)
// is run-recovery.ts's, run at construction and at each connect.

import type { StepProfiler } from '../profiles/step-profiler.ts';
import { ApiError } from '../../../app/common/errors.ts';
import { describeCalibration, type RecordedCalibration } from '../../../app/runs/calibration-record.ts';
import { clientsOnServerMachine } from '../../../app/hosts/host-facts.ts';
import type { ClockOffset } from '../../../app/runs/clock-offset.ts';
import { engineLabel, type EngineChoice } from '../../../app/runs/engine-choice.ts';
import { parseTarget, sessionCapSeconds, targetRate, type LoadProfile } from '../../../app/runs/load-profile.ts';
import { liveClientOf } from '../../../app/runs/run-clients.ts';
import type { LivePoint, LiveRun, StoredRun } from '../../../app/runs/runs.ts';
import type { RepeatTag, RunClient, RunDeployment } from '../../../app/runs/runs-contract.ts';
import { coordinatedStartLeadMs } from '../../../app/runs/start-lead.ts';
import { runSessionName } from '../../../app/sessions/session-names.ts';
import type { EventBus } from '../event-bus.ts';
import type { ConnectChecks } from '../hosts/connect-checks.ts';
import type { HostConnections } from '../hosts/host-connections.ts';
import type { HostTransport } from '../hosts/host-transport.ts';
import type { HostsRepository } from '../hosts/hosts-repository.ts';
import type { Logger } from '../logger.ts';
import type { SessionsRepository } from './sessions-repository.ts';
import type { PortableNodeCache } from '../templates/portable-node.ts';
import type { AgentHost } from './agent-host.ts';
import { LiveRunState } from './live-run-state.ts';
import { LiveSession } from './live-session.ts';
import { PointStream } from './point-stream.ts';
import { RunLinkWatch } from './run-link-watch.ts';
import { clockWarnings, describeClient, recordedClient, RunPreflight, type Prepared } from './run-preflight.ts';
import { agentOwner, cleanLeftovers, recoverInterrupted } from './run-recovery.ts';
import type { RunsRepository } from './runs-repository.ts';
import type { SamplesRepository } from './samples-repository.ts';
import { ServerPidWatch } from './server-change.ts';
import type { SessionSnapshots } from './session-snapshot.ts';
import { SESSION_CAP_MARGIN_S, StepRunner } from './step-runner.ts';

// Tests and tools name a data dir's agents by the prefix its run service gives them.
export { agentOwner } from './run-recovery.ts';

export interface RunServiceOptions {
  bus: EventBus;
  log: Logger;
  hosts: HostsRepository;
  connections: Pick<HostConnections, 'transportFor' | 'state' | 'suspect' | 'heard'>;
  sessions: SessionsRepository;
  runs: RunsRepository;
  samples: SamplesRepository;
  portableNode: PortableNodeCache;
  /** Identifies this data dir's agents on shared hosts (pid file prefix). */
  databaseFile: string;
  /** Takes and stores what both hosts are at a session's start (system info, limits, noise findings). */
  hostFacts?: Pick<SessionSnapshots, 'take'>;
  /** The check each connect runs: this service adds its part (agents an earlier Benchlab left). */
  connectChecks: Pick<ConnectChecks, 'register' | 'settled'>;
  /** Measures a client's clock offset when a session has several clients (default: through its agent, clock-sync.ts). */
  measureClock?: (transport: HostTransport, agent: AgentHost) => Promise<ClockOffset>;
  /** What Benchlab runs on the server host now, in words (said when the server changed under a run). */
  serverNow?: (hostId: number) => Promise<string>;
  /** Takes each step's CPU profile of the server process (main/services/profiles/step-profiler.ts). */
  profiler?: Pick<StepProfiler, 'begin'>;
}

export interface StartArgs {
  name?: string | undefined;
  /** One load client; exactly one of clientHostId and clients is given. */
  clientHostId?: number | undefined;
  /** Several load clients, the load split over them by weight. */
  clients?: RunClient[] | undefined;
  serverHostId?: number | null | undefined;
  profile: LoadProfile;
  /** One of several repeats of one configuration; kept in the session's config for Compare. */
  repeat?: RepeatTag | undefined;
  /** The name of the plan's request (endpoint) this run sends, when the plan names its requests; kept in the session's config. */
  requestName?: string | undefined;
  /** What the target serves, as the caller deployed or chose it; none: an external server. */
  deployment?: RunDeployment | undefined;
  /** The load engine asked for; default auto. */
  engine?: EngineChoice | undefined;
  /** The capacity the steps' rates were chosen from; kept in the session's config. */
  calibration?: RecordedCalibration | undefined;
}

export class RunService {
  readonly #options: RunServiceOptions;
  readonly #owner: string;
  readonly #preflight: RunPreflight;
  readonly #steps: StepRunner;
  readonly #unsubscribe: () => void;
  #live: LiveSession | null = null;
  /** Set once shutdown has begun: no session starts any more. */
  #closing = false;

  constructor(options: RunServiceOptions) {
    this.#options = options;
    this.#owner = agentOwner(options.databaseFile);
    this.#preflight = new RunPreflight(options);
    this.#steps = new StepRunner({ log: options.log, sessions: options.sessions, runs: options.runs, samples: options.samples, owner: this.#owner, profiler: options.profiler });
    recoverInterrupted(options);
    // A host that dropped may come back as another machine's image: prepare the agent anew.
    this.#unsubscribe = options.bus.subscribe('hosts.connection', (connection) => {
      if (connection.state !== 'connected') this.#preflight.forget(connection.hostId);
    });
    options.connectChecks.register({ owner: 'runs', what: 'agents left by an earlier Benchlab', run: (hostId) => cleanLeftovers(hostId, this.#owner, options) });
  }

  live(): { run: LiveRun | null; points: LivePoint[] } {
    return { run: this.#live?.state.snapshot() ?? null, points: this.#live?.points.points() ?? [] };
  }

  ack(sessionId: number, seq: number): void {
    if (this.#live?.state.run.sessionId === sessionId) this.#live.points.ack(seq);
  }

  list(sessionId: number): StoredRun[] {
    this.#options.sessions.get(sessionId);
    return this.#options.runs.forSession(sessionId);
  }

  async start(args: StartArgs): Promise<LiveRun> {
    if (this.#live && !this.#live.state.isOver()) {
      throw new ApiError('conflict', `session "${this.#live.name}" is still running: stop it first`);
    }
    const prepared = await this.#preflight.prepare(args);
    if (this.#closing) throw new ApiError('unavailable', 'Benchlab is shutting down: start it again to run a session');
    const { profile, clients, server } = prepared;
    const first = clients[0]!;
    const now = new Date();
    const name = args.name ?? runSessionName(profile);
    const sessionId = this.#createSession(name, args, prepared, now);
    const facts = await this.#options.hostFacts?.take(sessionId, { clientHostIds: clients.map((client) => client.hostId), serverHostId: server?.id ?? null, port: prepared.target.port });
    const warnings = clockWarnings(clients);
    const state = new LiveRunState(
      {
        sessionId,
        name,
        clientHostId: first.hostId,
        clients: clients.map((client) => ({ ...liveClientOf(recordedClient(client), 'starting'), connections: prepared.splits[0]![client.index]!.connections ?? null, rate: targetRate(prepared.splits[0]![client.index]!) })),
        serverHostId: server?.id ?? null,
        profile,
        steps: prepared.steps.map((step) => ({ index: step.index, label: step.label, targetRate: targetRate(step.load) })),
        calibration: args.calibration ? describeCalibration(args.calibration) : undefined,
        message: warnings.length > 0 ? warnings.join('; ') : null,
        startedAt: now.toISOString(),
        engine: first.engine.recorded,
      },
      (run) => this.#options.bus.publish('runs.state', run),
    );
    const live = new LiveSession(
      { log: this.#options.log, runs: this.#options.runs, databaseFile: this.#options.databaseFile, hostName: (hostId) => this.#options.hosts.get(hostId).name, serverNow: this.#options.serverNow },
      {
        state,
        points: new PointStream(this.#options.bus, sessionId),
        startedAtMs: now.getTime(),
        clientsOnServerMachine: clientsOnServerMachine(facts),
        serverWatch: args.deployment ? { pids: new ServerPidWatch(), label: `${args.deployment.templateId} · ${args.deployment.variant}` } : null,
        links: (session) =>
          new RunLinkWatch({
            connections: this.#options.connections,
            clients: clients.map((client) => ({ hostId: client.hostId, name: client.name })),
            serverHostId: server?.id ?? null,
            onSilence: (silentSince) => state.silence(silentSince),
            onClientLost: (clientIndex, message) => {
              this.#options.log.error('runs', `${name}: ${message}`);
              session.loads.get(clientIndex)?.giveUp({ reason: 'link-lost', message });
            },
          }),
      },
    );
    this.#live?.points.close();
    this.#live = live;
    live.armCap(sessionCapSeconds(profile) + SESSION_CAP_MARGIN_S);
    const on = clients.length === 1 ? `${first.name} with the ${engineLabel(first.engine.recorded.kind)}` : clients.map(describeClient).join(', ');
    this.#options.log.info('runs', `${name}: starting on ${on}${server ? `, sampling ${server.name}` : ''}`);
    for (const client of clients) {
      const notice = client.engine.recorded.notice;
      if (notice) this.#options.log.warn('runs', `${name}: ${notice}`);
    }
    for (const warning of warnings) this.#options.log.warn('runs', `${name}: ${warning}`);
    state.opened();
    live.done = this.#steps.drive(live, { ...prepared, deployment: args.deployment ?? null });
    return state.snapshot();
  }

  async stop(sessionId: number): Promise<LiveRun> {
    const live = this.#live;
    if (!live || live.state.run.sessionId !== sessionId) throw new ApiError('not_found', `session ${sessionId} is not running`);
    if (!live.state.isOver()) await live.halt(null);
    await live.done;
    return live.state.snapshot();
  }

  /** Resolves with the session's final state once its load has ended (stopped, failed or done). */
  async finished(sessionId: number): Promise<LiveRun> {
    const live = this.#live;
    if (!live || live.state.run.sessionId !== sessionId) throw new ApiError('not_found', `session ${sessionId} is not the one running`);
    await live.done;
    return live.state.snapshot();
  }

  /** Shutdown: no session starts any more; the running one is stopped so its last second is stored. Resolves once it has ended. */
  async stopAll(): Promise<void> {
    this.#closing = true;
    const live = this.#live;
    if (!live) return;
    if (!live.state.isOver()) await live.halt('stopped: Benchlab shut down');
    await live.done;
  }

  /** Shutdown, the last of it: kills any load still running (its end can no longer be stored). */
  closeAll(): void {
    this.#unsubscribe();
    this.#live?.kill();
  }

  /** This Benchlab is about to take a server down: a run loading it records that, and stops its load first. */
  serverTakenDown(server: { hostId: number; port: number; why: string }): void {
    const live = this.#live;
    if (!live || live.state.isOver() || live.state.run.serverHostId !== server.hostId || !live.serverWatch) return;
    const target = parseTarget(live.state.run.profile.target);
    if (typeof target === 'string' || target.port !== server.port) return;
    const change = live.serverWatch.pids.takenDown(live.elapsed(), server.why);
    if (change) live.serverChangedUnder(server.hostId, server.port, change);
  }

  /** The session record, running from `now`: its config records what Compare and Run again read back. */
  #createSession(name: string, args: StartArgs, prepared: Prepared, now: Date): number {
    const { profile, clients, server } = prepared;
    const first = clients[0]!;
    const session = this.#options.sessions.create({
      name,
      clientHostId: first.hostId,
      serverHostId: server?.id ?? null,
      config: {
        profile,
        target: profile.target,
        clientHost: first.name,
        serverHost: server?.name ?? null,
        engine: first.engine.recorded,
        // A one-client session is stored as it always was.
        ...(clients.length > 1 ? { clients: clients.map(recordedClient), startLeadMs: coordinatedStartLeadMs(clients.map((client) => client.clock?.readyMs)) } : {}),
        ...(args.repeat ? { repeat: args.repeat } : {}),
        ...(args.calibration ? { calibration: args.calibration } : {}),
        ...(args.requestName ? { requestName: args.requestName } : {}),
        ...(args.deployment?.components ? { components: args.deployment.components } : {}),
        ...(args.deployment?.database ? { database: args.deployment.database } : {}),
      },
      status: 'running',
    });
    this.#options.sessions.setStatus(session.id, 'running', { started: now });
    return session.id;
  }
}
