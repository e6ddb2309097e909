// Orchestrates load sessions: pre-flight (agent and Node on each client, reachability of the target
// from each, leftovers of a crashed Benchlab cleaned, the load engine chosen and recorded per
// client), then the steps one after another with the pause between them, a server sampler
// alongside, each second stored and charted as it arrives, run summaries from merged histograms,
// and the session's status. Stop halts the load within 1 s; a hard cap ends a session that would
// run on; a killed Benchlab leaves `running` rows that the next start marks `interrupted` (with
// summaries of the seconds that were stored).
// Several load clients: each step's load is split by weight (given, else the host's cores:
// app/runs/load-split.ts), each client's clock offset is measured (clock-sync.ts) and every agent
// starts the step at one instant of Benchlab's clock; each client's seconds are stored under its
// index and charted merged (app/runs/merge-seconds.ts). One client runs exactly as it always did.
// Each agent's lines are watched (run-link-watch.ts): a silent source is on the live run within
// seconds, and a client cut off from Benchlab ends the run as "client link lost", stored seconds
// kept. A client that fails to start, dies or loses its link is named; with several, its step is
// marked degraded (when, why, what was lost) and the other clients are stopped.
// A store that runs out of space mid-run (a full data disk) stops the load as Stop does and ends the
// run as failed, saying so on runs.live and the log even where the store can no longer record it.
// Other Benchlab processes may share the store (the app and a CLI): their live sessions, and the
// agents those sessions run, are theirs; only what a dead process left is recovered or killed.
// The deployed server changing under a run (stopped or replaced, from here or another process) is a
// fault: the step is degraded with when and what, the load stopped and the session failed
// (server-change.ts), so a run is never completed as one template's when it measured two.

import { createHash } from 'node:crypto';
import { dirname } from 'node:path';
import { HEARTBEAT_TIMEOUT_MS, type AgentLine, type LoadAgentConfig, type LoadEngine } from '../../../app/runs/agent-protocol.ts';
import { decideEngine, DEFAULT_ENGINE_CHOICE, engineLabel, type EngineChoice, type RecordedEngine } from '../../../app/runs/engine-choice.ts';
import { ApiError, messageOf } from '../../../app/common/errors.ts';
import { clockTime } from '../../../app/common/clock-time.ts';
import { plural } from '../../../app/common/plural.ts';
import { chartPoint, type PointContext } from '../../../app/runs/chart-point.ts';
import { CLOCK_UNCERTAINTY_LIMIT_MS, type ClockOffset } from '../../../app/runs/clock-offset.ts';
import { coordinatedStartLeadMs } from '../../../app/runs/start-lead.ts';
import { clientWeights, splitStepLoad } from '../../../app/runs/load-split.ts';
import { SecondAligner, type AlignedSecond } from '../../../app/runs/merge-seconds.ts';
import { expandSteps, parseTarget, sessionCapSeconds, targetRate, type LoadProfile, type LoadStep, type ParsedTarget, type StepLoad } from '../../../app/runs/load-profile.ts';
import type { RepeatTag, RunClient, RunDeployment } from '../../../app/runs/runs-contract.ts';
import { describeCalibration, type RecordedCalibration } from '../../../app/plans/calibration.ts';
import { summarizeRun, summaryRulesOf } from '../../../app/runs/summarize-run.ts';
import { clientsOnServerMachine } from '../../../app/hosts/host-facts.ts';
import { ServerReadings } from '../../../app/runs/server-readings.ts';
import { liveClientOf, type RecordedClient } from '../../../app/runs/run-clients.ts';
import { latencyMeaning, type LiveClient, type LivePoint, type LiveRun, type StepDegraded, type StoredRun } from '../../../app/runs/runs.ts';
import { storedSecondsEndMs } from '../../../app/runs/run-second.ts';
import type { EventBus } from '../event-bus.ts';
import type { HostConnections } from '../hosts/host-connections.ts';
import type { HostTransport } from '../hosts/host-transport.ts';
import { debugNote, type Logger } from '../logger.ts';
import type { HostsRepository } from '../hosts/hosts-repository.ts';
import type { RunsRepository } from './runs-repository.ts';
import type { SamplesRepository } from './samples-repository.ts';
import type { SessionsRepository } from '../sessions/sessions-repository.ts';
import type { PortableNodeCache } from '../templates/portable-node.ts';
import type { ConnectChecks } from '../hosts/connect-checks.ts';
import { isOwnerAlive } from '../store/process-owner.ts';
import { isStoreOutOfSpace, storeFullMessage } from '../store/store-errors.ts';
import { agentPidFileName, cleanLeftoverAgents, prepareAgentHost, prepareNativeEngine, type AgentHost } from './agent-host.ts';
import { PointStream } from './point-stream.ts';
import type { SessionSnapshots } from './session-snapshot.ts';
import { RemoteAgent, type AgentEnd } from './remote-agent.ts';
import { measureClockOffset } from './clock-sync.ts';
import { RunLinkWatch } from './run-link-watch.ts';
import { StepRecorder } from './step-recorder.ts';
import { describeServerChange, serverDegraded, ServerPidWatch, type ServerChange } from './server-change.ts';
import { runSessionName } from '../../../app/sessions/session-names.ts';

/** Beyond the profile's own caps, main/ ends the whole session this much later whatever happens. */
const SESSION_CAP_MARGIN_S = 30;
/** An agent that outlives its step cap by this much is killed from here. */
const STEP_CAP_MARGIN_MS = 10_000;
const PROBE_TIMEOUT_MS = 3000;
/** The first line comes a second after the agent's load threads are up, which takes a moment on a busy host. */
const THREADS_START_QUIET_MS = 3000;
/** After a window's last second the drain may be quiet for the request timeout and this (agent: DRAIN_GRACE_MS and the last line's wait). */
const DRAIN_QUIET_MS = 1500;

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
interface LoadClient extends PreparedClient {
  index: number;
  weight: number;
  /** Its clock's offset to Benchlab's; null with one client (not measured, it starts at once). */
  clock: ClockOffset | null;
}

/** One step while it runs on its clients. */
interface StepRun {
  step: LoadStep;
  runId: number;
  recorder: StepRecorder;
  /** Several clients: their seconds merged for the charts once each has given its part; null with one client. */
  aligner: SecondAligner | null;
  /** The coordinated start on Benchlab's clock; null with one client (it starts at once). */
  startAtMs: number | null;
  /** The first client lost during the step, if one was. */
  lost: { client: LoadClient } | null;
}

interface Live {
  state: LiveRun;
  startedAtMs: number;
  points: PointStream;
  controller: AbortController;
  agents: Set<RemoteAgent>;
  /** The sampler's readings, each stored with the client second it was read in (or none: a gap). */
  server: ServerReadings;
  done: Promise<void>;
  capTimer: ReturnType<typeof setTimeout> | null;
  links: RunLinkWatch;
  /** The current step's load agents by client index, while they run. */
  loads: Map<number, RemoteAgent>;
  /** The agent's time of the last measured second stored, for what a full store says was kept. */
  lastStoredAtMs: number | null;
  /** Set once the store ran out of space: why the run ends. */
  storeFull: string | null;
  /** The clients on the server's machine (the same boot id at the start): the verdicts name no side for them. */
  clientsOnServerMachine: number[];
  /** The deployed server's pid, watched while the run loads it, and its words (null: no deployment, no watch). */
  serverWatch: { pids: ServerPidWatch; label: string } | null;
  /** Set once the server changed under the run: resolves to why the run failed. */
  serverChanged: Promise<string> | null;
}

export class RunService {
  readonly #options: RunServiceOptions;
  readonly #owner: string;
  readonly #agentHosts = new Map<number, Promise<AgentHost>>();
  readonly #unsubscribe: () => void;
  #live: Live | null = null;
  /** Set once shutdown has begun: no session starts any more. */
  #closing = false;

  constructor(options: RunServiceOptions) {
    this.#options = options;
    this.#owner = agentOwner(options.databaseFile);
    this.#recoverInterrupted();
    // A host that dropped may come back as another machine's image: prepare the agent anew.
    this.#unsubscribe = options.bus.subscribe('hosts.connection', (connection) => {
      if (connection.state !== 'connected') this.#agentHosts.delete(connection.hostId);
    });
    options.connectChecks.register({ owner: 'runs', what: 'agents left by an earlier Benchlab', run: (hostId) => this.#cleanHost(hostId) });
  }

  live(): { run: LiveRun | null; points: LivePoint[] } {
    return { run: this.#live?.state ?? null, points: this.#live?.points.points() ?? [] };
  }

  ack(sessionId: number, seq: number): void {
    if (this.#live?.state.sessionId === sessionId) this.#live.points.ack(seq);
  }

  list(sessionId: number): StoredRun[] {
    this.#options.sessions.get(sessionId);
    return this.#options.runs.forSession(sessionId);
  }

  async start(args: StartArgs): Promise<LiveRun> {
    if (this.#live && !isOver(this.#live.state.status)) {
      throw new ApiError('conflict', `session "${this.#live.state.name}" is still running: stop it first`);
    }
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
    const serverAgent = server && serverTransport ? await this.#agentHost(server.id, server.name, serverTransport) : null;
    if (this.#closing) throw new ApiError('unavailable', 'Benchlab is shutting down: start it again to run a session');

    const first = clients[0]!;
    const now = new Date();
    const name = args.name ?? runSessionName(profile);
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
    const facts = await this.#options.hostFacts?.take(session.id, { clientHostIds: clients.map((client) => client.hostId), serverHostId: server?.id ?? null, port: target.port });
    const clockWarnings = clients.flatMap((client) => (client.clock && client.clock.uncertaintyMs > CLOCK_UNCERTAINTY_LIMIT_MS ? [clockWarning(client)] : []));
    const state: LiveRun = {
      sessionId: session.id,
      name,
      status: 'starting',
      clientHostId: first.hostId,
      clients: clients.map((client) => ({ ...liveClientOf(recordedClient(client), 'starting'), ...shareOf(splits[0]![client.index]!) })),
      serverHostId: server?.id ?? null,
      profile,
      steps: steps.map((step) => ({
        index: step.index,
        label: step.label,
        runId: null,
        status: 'pending',
        startedAtS: null,
        endedAtS: null,
        summary: null,
        bottleneck: null,
        targetRate: targetRate(step.load),
        clientVerdicts: [],
        degraded: null,
      })),
      currentStep: null,
      latencyMeaning: latencyMeaning(profile.load.model, profile.request),
      ...(args.calibration ? { calibration: describeCalibration(args.calibration) } : {}),
      message: clockWarnings.length > 0 ? clockWarnings.join('; ') : null,
      startedAt: now.toISOString(),
      endedAt: null,
      silentSince: { client: null, server: null },
      engine: first.engine.recorded,
    };
    const live: Live = {
      state,
      startedAtMs: now.getTime(),
      points: new PointStream(this.#options.bus, session.id),
      controller: new AbortController(),
      agents: new Set(),
      server: new ServerReadings(),
      done: Promise.resolve(),
      capTimer: null,
      links: new RunLinkWatch({
        connections,
        clients: clients.map((client) => ({ hostId: client.hostId, name: client.name })),
        serverHostId: server?.id ?? null,
        onSilence: (silentSince) => this.#update(live, { silentSince }),
        onClientLost: (clientIndex, message) => {
          this.#options.log.error('runs', `${name}: ${message}`);
          live.loads.get(clientIndex)?.giveUp({ reason: 'link-lost', message });
        },
      }),
      loads: new Map(),
      lastStoredAtMs: null,
      storeFull: null,
      clientsOnServerMachine: clientsOnServerMachine(facts),
      serverWatch: args.deployment ? { pids: new ServerPidWatch(), label: `${args.deployment.templateId} · ${args.deployment.variant}` } : null,
      serverChanged: null,
    };
    this.#live?.points.close();
    this.#live = live;
    const capS = sessionCapSeconds(profile) + SESSION_CAP_MARGIN_S;
    live.capTimer = setTimeout(() => {
      this.#options.log.warn('runs', `${name}: the session reached its hard cap of ${capS} s; stopping it`);
      void this.#halt(live, `stopped at the session's hard cap of ${capS} s`);
    }, capS * 1000);
    live.capTimer.unref?.();
    const on = clients.length === 1 ? `${first.name} with the ${engineLabel(first.engine.recorded.kind)}` : clients.map(describeClient).join(', ');
    this.#options.log.info('runs', `${name}: starting on ${on}${server ? `, sampling ${server.name}` : ''}`);
    for (const client of clients) {
      const notice = client.engine.recorded.notice;
      if (notice) this.#options.log.warn('runs', `${name}: ${notice}`);
    }
    for (const warning of clockWarnings) this.#options.log.warn('runs', `${name}: ${warning}`);
    this.#publish(live);
    live.done = this.#drive(live, {
      steps,
      splits,
      target,
      clients,
      serverTransport,
      serverAgent,
      serverHostId: server?.id ?? null,
      deployment: args.deployment ?? null,
    });
    return state;
  }

  async stop(sessionId: number): Promise<LiveRun> {
    const live = this.#live;
    if (!live || live.state.sessionId !== sessionId) throw new ApiError('not_found', `session ${sessionId} is not running`);
    if (!isOver(live.state.status)) await this.#halt(live, null);
    await live.done;
    return live.state;
  }

  /** Resolves with the session's final state once its load has ended (stopped, failed or done). */
  async finished(sessionId: number): Promise<LiveRun> {
    const live = this.#live;
    if (!live || live.state.sessionId !== sessionId) throw new ApiError('not_found', `session ${sessionId} is not the one running`);
    await live.done;
    return structuredClone(live.state);
  }

  /** Shutdown: no session starts any more; the running one is stopped so its last second is stored. Resolves once it has ended. */
  async stopAll(): Promise<void> {
    this.#closing = true;
    const live = this.#live;
    if (!live) return;
    if (!isOver(live.state.status)) await this.#halt(live, 'stopped: Benchlab shut down');
    await live.done;
  }

  /** Shutdown, the last of it: kills any load still running (its end can no longer be stored). */
  closeAll(): void {
    this.#unsubscribe();
    const live = this.#live;
    if (!live) return;
    live.done.catch((error: unknown) => debugNote(`${live.state.name} ended after the store closed: ${messageOf(error)}`));
    live.controller.abort();
    for (const agent of live.agents) agent.kill();
    live.points.close();
    live.links.close();
    if (live.capTimer) clearTimeout(live.capTimer);
  }

  // ---------------------------------------------------------------------------------------------

  async #drive(
    live: Live,
    context: {
      steps: LoadStep[];
      /** Each step's load split over the clients, by client index. */
      splits: StepLoad[][];
      target: ParsedTarget;
      clients: LoadClient[];
      serverTransport: HostTransport | null;
      serverAgent: AgentHost | null;
      serverHostId: number | null;
      deployment: RunDeployment | null;
    },
  ): Promise<void> {
    const { state } = live;
    const profile = state.profile;
    const several = context.clients.length > 1;
    let sampler: RemoteAgent | null = null;
    let failure: string | null = null;
    try {
      if (context.serverTransport && context.serverAgent && context.serverHostId !== null) {
        sampler = await this.#startSampler(live, context.serverTransport, context.serverAgent, context.serverHostId, context.target.port).catch((error: unknown) => {
          this.#options.log.warn('runs', `${state.name}: no server metrics: ${messageOf(error)}`);
          return null;
        });
      }
      for (const step of context.steps) {
        if (live.controller.signal.aborted) break;
        if (step.index > 0 && profile.pauseS > 0) {
          this.#update(live, { status: 'pausing', currentStep: step.index });
          await sleep(profile.pauseS * 1000, live.controller.signal);
          if (live.controller.signal.aborted) break;
        }
        const outcome = await this.#runStep(live, step, context.splits[step.index]!, context);
        const why = describeFailure(outcome.end, outcome.client.name, several);
        if (why) {
          // A lost link ends the session, whichever step it cut: its message says so on its own.
          const stopped = several ? '; the other clients were stopped' : '';
          failure = `${outcome.end.reason === 'link-lost' ? why : `step ${step.index + 1} (${step.label}): ${why}`}${stopped}`;
          break;
        }
      }
    } catch (error) {
      if (!this.#outOfSpace(live, error)) failure = error instanceof Error ? error.message : String(error);
    } finally {
      live.links.stopped('server');
      live.links.close();
      if (sampler) await sampler.stop().catch(() => undefined);
      if (live.capTimer) clearTimeout(live.capTimer);
      const serverChanged = live.serverChanged ? await live.serverChanged : null;
      failure = live.storeFull ?? serverChanged ?? failure;
      const stopped = live.controller.signal.aborted;
      const status = failure ? 'failed' : stopped ? 'cancelled' : 'completed';
      const ended = new Date();
      this.#storeSessionEnd(state.sessionId, status, ended);
      for (const step of state.steps) if (step.status === 'pending') step.status = 'stopped';
      this.#update(live, { status, currentStep: null, endedAt: ended.toISOString(), message: failure ?? state.message });
      if (failure) this.#options.log.error('runs', `${state.name}: ${failure}`);
      else this.#options.log.info('runs', `${state.name}: ${status}`);
    }
  }

  /**
   * One step on every client at once: each client's agent started with its part of the load (several
   * clients: all at one instant on Benchlab's clock, converted to each client's own), its seconds
   * stored under its index and charted merged. A client that fails to start, dies or loses its link
   * degrades the step: it is named, the others are stopped. Returns how the step ended and by whom.
   */
  async #runStep(
    live: Live,
    step: LoadStep,
    loads: StepLoad[],
    context: { target: ParsedTarget; clients: LoadClient[]; deployment: RunDeployment | null },
  ): Promise<{ end: AgentEnd; client: LoadClient }> {
    const { state } = live;
    const profile = state.profile;
    const warmupS = step.index === 0 ? profile.warmupS : 0;
    const stored = { label: step.label, load: step.load, warmupS, request: profile.request, target: profile.target };
    const runId = this.#options.runs.create({
      sessionId: state.sessionId,
      ordinal: step.index + 1,
      templateId: context.deployment?.templateId ?? 'external',
      variant: context.deployment?.variant ?? '',
      knobs: context.deployment?.knobs ?? {},
      step: stored,
    });
    const liveStep = state.steps[step.index]!;
    liveStep.runId = runId;
    const several = context.clients.length > 1;
    // The rules a stored run is summarized by later, from the same profile and step.
    const recorder = new StepRecorder({ runId, samples: this.#options.samples, runs: this.#options.runs, rules: summaryRulesOf(profile, stored, live.clientsOnServerMachine), clients: context.clients.length });
    this.#options.runs.markStarted(runId);
    liveStep.startedAtS = this.#elapsed(live);
    liveStep.status = warmupS > 0 ? 'warmup' : 'running';
    for (const client of context.clients) Object.assign(state.clients[client.index]!, { status: 'starting', problem: null, ...shareOf(loads[client.index]!) });
    this.#update(live, { status: 'running', currentStep: step.index });

    // The instant every client starts (warm-up first), on Benchlab's clock, far enough ahead for the
    // slowest to be ready: the lead grows with the clients' measured setup (app/runs/start-lead.ts).
    const startAtMs = several ? Date.now() + coordinatedStartLeadMs(context.clients.map((client) => client.clock?.readyMs)) : null;
    const run: StepRun = { step, runId, recorder, aligner: several ? new SecondAligner(context.clients.length) : null, startAtMs, lost: null };
    const ends = await Promise.all(
      context.clients.map((client) => {
        const config: LoadAgentConfig = {
          role: 'load',
          target: context.target,
          request: profile.request,
          load: loads[client.index]!,
          warmupS,
          capS: step.capS,
          pidFile: `${client.agent.pidDir}/${agentPidFileName(this.#owner, state.sessionId, 'load', client.index)}`,
          // Absent is the Node engine (the protocol's default).
          ...(client.engine.config.kind === 'native' ? { engine: client.engine.config } : {}),
          ...(startAtMs !== null ? { startAtMs: startAtMs + (client.clock?.offsetMs ?? 0) } : {}),
        };
        return this.#runClient(live, run, client, config);
      }),
    );
    if (run.aligner) this.#chart(live, run, run.aligner.flush());
    // The step ended as its first lost client ended it, else as the first client that did not complete.
    const ender = run.lost?.client.index ?? Math.max(0, ends.findIndex((end) => end.reason !== 'completed'));
    const end = ends[ender]!;
    // A step cut at its hard cap did not finish what it scheduled: it is stopped, not completed.
    const status = live.storeFull || run.lost || live.serverChanged ? 'failed' : end.reason === 'completed' ? 'completed' : end.reason === 'stopped' || end.reason === 'cap' ? 'stopped' : 'failed';
    if (end.reason === 'cap') this.#options.log.warn('runs', `${state.name}: step ${step.index + 1} (${step.label}) reached its ${step.capS} s cap and was cut short`);
    try {
      ({ summary: liveStep.summary, bottleneck: liveStep.bottleneck } = recorder.finish(status));
    } catch (error) {
      // The run's row stays running; the next start summarizes it from its stored seconds.
      if (!this.#outOfSpace(live, error)) throw error;
      liveStep.summary = recorder.summary();
      liveStep.bottleneck = recorder.bottleneck();
    }
    liveStep.clientVerdicts = recorder.clientVerdicts();
    liveStep.status = status;
    liveStep.endedAtS = this.#elapsed(live);
    this.#update(live, {});
    return { end, client: context.clients[ender]! };
  }

  /** One client's agent through one step: started, its lines recorded, watched, ended. */
  async #runClient(live: Live, run: StepRun, client: LoadClient, config: LoadAgentConfig): Promise<AgentEnd> {
    const { state } = live;
    const source = { client: client.index };
    const liveClient = state.clients[client.index]!;
    const who = state.clients.length > 1 ? ` (${client.name})` : '';
    let end: AgentEnd;
    try {
      const agent = await RemoteAgent.start(client.transport, client.agent.command, config, {
        onLine: (line) => {
          live.links.heard(source);
          this.#onLoadLine(live, run, client, line);
        },
        onProblem: (message) => this.#options.log.warn('runs', `${state.name}${who}: ${message}`),
      });
      live.agents.add(agent);
      live.loads.set(client.index, agent);
      live.links.started(source);
      // Its first line comes a second after its load starts: at the coordinated instant, if there is one.
      const waitsMs = run.startAtMs === null ? 0 : Math.max(0, run.startAtMs - Date.now());
      live.links.allowPause(source, THREADS_START_QUIET_MS + waitsMs);
      liveClient.status = 'running';
      this.#publish(live);
      // Stopped meanwhile, or another client already failed the step: this one ends at once.
      if (live.controller.signal.aborted || run.lost) void agent.stop();
      const watchdog = setTimeout(() => {
        this.#options.log.warn('runs', `${state.name}: the agent${who} outlived its ${run.step.capS} s cap; killing it`);
        agent.kill();
      }, run.step.capS * 1000 + STEP_CAP_MARGIN_MS + waitsMs);
      end = await agent.ended;
      // The channel ended without the end line while the link was down: the link was lost.
      const linkLost = end.reason === 'lost' ? live.links.linkLostMessage(client.index) : null;
      if (linkLost) end = { reason: 'link-lost', message: linkLost };
      clearTimeout(watchdog);
      live.agents.delete(agent);
    } catch (error) {
      end = { reason: 'error', message: error instanceof Error ? error.message : String(error) };
    } finally {
      live.loads.delete(client.index);
      live.links.stopped(source);
    }
    end = live.links.whoWasSilent(end, client.name);
    const why = describeFailure(end, client.name, state.clients.length > 1);
    if (why) this.#clientLost(live, run, client, end, why);
    else liveClient.status = 'done';
    // Its seconds no longer hold the others' back on the charts.
    if (run.aligner) this.#chart(live, run, run.aligner.dropClient(client.index));
    this.#publish(live);
    return end;
  }

  /**
   * A client of a step that ended badly: named on the live run; the first one: with several clients the
   * step is marked degraded (when, why, how many of its seconds are missing), stored with the run,
   * and the other clients are stopped (stop, then kill, as Stop does).
   */
  #clientLost(live: Live, run: StepRun, client: LoadClient, end: AgentEnd, why: string): void {
    const { state } = live;
    const atS = this.#elapsed(live);
    const liveClient = state.clients[client.index]!;
    liveClient.status = end.reason === 'error' ? 'failed' : 'lost';
    liveClient.problem = { atS, message: why };
    // Only the first loss degrades the step and stops the others; the one client of a session fails its step as it always did.
    if (run.lost !== null) return;
    run.lost = { client };
    if (state.clients.length === 1) return;
    const measured = state.clients.map((other) => run.recorder.measuredSeconds(other.index));
    const expectedS = run.step.load.durationS ?? Math.max(...measured);
    const degraded: StepDegraded = { clientIndex: client.index, hostName: client.name, atS, message: why, lostSeconds: Math.max(0, expectedS - measured[client.index]!) };
    state.steps[run.step.index]!.degraded = degraded;
    try {
      this.#options.runs.markDegraded(run.runId, degraded);
    } catch (error) {
      if (!this.#outOfSpace(live, error)) this.#options.log.error('runs', `${state.name}: could not store that step ${run.step.index + 1} is degraded: ${messageOf(error)}`);
    }
    this.#options.log.error('runs', `${state.name}: step ${run.step.index + 1} (${run.step.label}) degraded: ${why}; stopping the other clients`);
    for (const [index, agent] of live.loads) if (index !== client.index) void agent.stop().catch(() => undefined);
  }

  #onLoadLine(live: Live, run: StepRun, client: LoadClient, line: AgentLine): void {
    const several = live.state.clients.length > 1;
    if (line.type === 'log') {
      this.#options.log.info('agent', several ? `${client.name}: ${line.message}` : line.message);
      return;
    }
    const asked = client.engine.recorded.kind;
    if (line.type === 'hello' && (line.engine ?? 'node') !== asked) {
      // The session records the engine it asked for: an agent that runs another is said, not hidden.
      this.#options.log.error('runs', `${live.state.name}: the agent${several ? ` on ${client.name}` : ''} runs the ${engineLabel(line.engine ?? 'node')}, not the ${engineLabel(asked)} the session records`);
    }
    if (line.type !== 'sample') return;
    const loadStep = run.step;
    const stepIndex = loadStep.index;
    const step = live.state.steps[stepIndex]!;
    const recorder = run.recorder;
    if (line.phase === 'measure' && step.status === 'warmup') step.status = 'running';
    const server = live.server.forSecond(client.index, line.at, Date.now());
    const second = recorder.secondOf(line, server, { index: client.index, offsetMs: client.clock?.offsetMs ?? 0 });
    // Once the store was full, what follows is not stored: what was kept ends where the message says.
    if (live.storeFull === null) {
      try {
        const problem = recorder.record(second);
        if (second.phase === 'measure') live.lastStoredAtMs = second.clientMetrics?.at ?? line.at;
        if (problem) this.#options.log.warn('runs', `${live.state.name}: ${problem}`);
      } catch (error) {
        if (!this.#outOfSpace(live, error)) this.#options.log.error('runs', `${live.state.name}: could not store second ${line.second}${several ? ` of ${client.name}` : ''}: ${messageOf(error)}`);
      }
    }
    const windowS = loadStep.load.durationS;
    if (second.phase === 'measure' && windowS !== undefined && second.second + 1 >= windowS) {
      // The window's last second: the drain line comes once the answers still due are in, or at the timeout.
      live.links.allowPause({ client: client.index }, live.state.profile.request.timeoutMs + DRAIN_QUIET_MS);
    }
    // Drawn from the second as stored, by the function replay draws it with; several clients' merged once all gave it.
    // The drain too (not a second of the window): the late answers the table counts are drawn at its end.
    if (run.aligner) this.#chart(live, run, run.aligner.add(second));
    else live.points.push(chartPoint(second, this.#pointContext(live, stepIndex)));
    if (second.phase === 'drain') {
      step.summary = recorder.summary();
      this.#publish(live);
      return;
    }
    if (line.phase === 'measure') {
      step.summary = recorder.summary();
      step.bottleneck = recorder.bottleneck();
      step.clientVerdicts = recorder.clientVerdicts();
      this.#publish(live);
    }
  }

  /** Charts merged seconds the aligner released, each with its clients' parts (the per-client breakdown). */
  #chart(live: Live, run: StepRun, released: AlignedSecond[]): void {
    for (const { merged, parts } of released) live.points.push(chartPoint(merged, this.#pointContext(live, run.step.index), parts));
  }

  #pointContext(live: Live, stepIndex: number): PointContext {
    return { sessionId: live.state.sessionId, step: stepIndex, startedAtMs: live.startedAtMs, stepOffsetS: live.state.steps[stepIndex]!.startedAtS ?? 0 };
  }

  async #startSampler(live: Live, transport: HostTransport, host: AgentHost, hostId: number, port: number): Promise<RemoteAgent> {
    const pidFile = `${host.pidDir}/${agentPidFileName(this.#owner, live.state.sessionId, 'sampler')}`;
    const capS = sessionCapSeconds(live.state.profile) + SESSION_CAP_MARGIN_S;
    const sampler = await RemoteAgent.start(transport, host.command, { role: 'sampler', port, capS, pidFile }, {
      onLine: (line) => {
        live.links.heard('server');
        if (line.type !== 'server') return;
        live.server.add(line.server, Date.now());
        const change = live.serverWatch?.pids.seen(line.server.processPid, this.#elapsed(live));
        if (change) this.#serverChanged(live, hostId, port, change);
      },
      onProblem: (message) => this.#options.log.warn('runs', `${live.state.name} (server sampler): ${message}`),
    });
    live.agents.add(sampler);
    live.links.started('server');
    void sampler.ended.then(() => live.agents.delete(sampler));
    return sampler;
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

  /** A client host made ready: the agent's footing, the target probed from it, the engine chosen there. */
  async #prepareClient(host: { id: number; name: string }, transport: HostTransport, target: ParsedTarget, choice: EngineChoice): Promise<PreparedClient> {
    const agent = await this.#agentHost(host.id, host.name, transport);
    const cores = await this.#probe(transport, agent, host.name, target);
    const engine = await this.#engineFor(choice, transport, agent, host.name, target);
    return { hostId: host.id, name: host.name, transport, agent, engine, cores };
  }

  /** A client's clock offset to Benchlab's, through its agent; a clock that cannot be read refuses the start. */
  async #measureClock(client: PreparedClient): Promise<ClockOffset> {
    try {
      return await (this.#options.measureClock ?? measureClockOffset)(client.transport, client.agent);
    } catch (error) {
      throw new ApiError('unavailable', `${client.name}: its clock could not be measured for a coordinated start (${messageOf(error)}); check its link and start again`);
    }
  }

  /**
   * Whether `error` says the store is out of space; the first time, the run is ended for it: the
   * load stopped as Stop does, the reason on runs.live and the log (which drops what it cannot store).
   */
  #outOfSpace(live: Live, error: unknown): boolean {
    if (!isStoreOutOfSpace(error)) return false;
    if (live.storeFull === null) {
      live.storeFull = storeFullMessage(dirname(this.#options.databaseFile), live.lastStoredAtMs);
      this.#options.log.error('runs', `${live.state.name}: ${live.storeFull} (${messageOf(error)})`);
      void this.#halt(live, live.storeFull);
    }
    return true;
  }

  /** The session's end as stored; a store out of space keeps it running, for the next start to mark interrupted. */
  #storeSessionEnd(sessionId: number, status: 'completed' | 'failed' | 'cancelled', ended: Date): void {
    try {
      this.#options.sessions.setStatus(sessionId, status, { ended });
    } catch (error) {
      if (!isStoreOutOfSpace(error)) throw error;
      debugNote(`could not store the end of session ${sessionId} (${messageOf(error)}): it stays running in the store, and the next start marks it interrupted at its last stored second`);
    }
  }

  /** Stops the session's load now: `stop` to each agent, killed if it lingers. */
  /** This Benchlab is about to take a server down: a run loading it records that, and stops its load first. */
  serverTakenDown(server: { hostId: number; port: number; why: string }): void {
    const live = this.#live;
    if (!live || isOver(live.state.status) || live.state.serverHostId !== server.hostId || !live.serverWatch) return;
    const target = parseTarget(live.state.profile.target);
    if (typeof target === 'string' || target.port !== server.port) return;
    const change = live.serverWatch.pids.takenDown(this.#elapsed(live), server.why);
    if (change) this.#serverChanged(live, server.hostId, server.port, change);
  }

  /**
   * The deployed server stopped or was replaced under the run: the load is stopped at once (it would
   * measure another server, or load another session's), the step marked degraded with when and what
   * (what runs there now, asked of the host), and the session ends failed with that message.
   */
  #serverChanged(live: Live, hostId: number, port: number, change: ServerChange): void {
    const { state } = live;
    const stepIndex = state.currentStep ?? 0;
    const step = state.steps[stepIndex]!;
    const hostName = this.#options.hosts.get(hostId).name;
    const label = live.serverWatch?.label ?? 'the server deployed for it';
    void this.#halt(live, null);
    live.serverChanged = (async () => {
      // Taken down by this Benchlab: said before it goes, so what runs there now is not yet the news.
      const now = change.by ? null : await (this.#options.serverNow?.(hostId) ?? Promise.resolve(null)).catch(() => null);
      const why = describeServerChange(change, { hostName, label, port }, now);
      // The seconds of the step's window that were not measured on the server it started with.
      const load = expandSteps(state.profile)[stepIndex];
      const windowEndS = (step.startedAtS ?? change.atS) + (stepIndex === 0 ? state.profile.warmupS : 0) + (load?.load.durationS ?? 0);
      const degraded = serverDegraded(change, hostName, why, Math.max(0, Math.round(windowEndS - change.atS)));
      step.degraded = degraded;
      try {
        if (step.runId !== null) this.#options.runs.markDegraded(step.runId, degraded);
      } catch (error) {
        if (!this.#outOfSpace(live, error)) this.#options.log.error('runs', `${state.name}: could not store that step ${stepIndex + 1} is degraded: ${messageOf(error)}`);
      }
      this.#options.log.error('runs', `${state.name}: step ${stepIndex + 1} (${step.label}) degraded: ${why}`);
      this.#update(live, {});
      return `step ${stepIndex + 1} (${step.label}) degraded: ${why}`;
    })();
  }

  async #halt(live: Live, message: string | null): Promise<void> {
    if (live.controller.signal.aborted) return;
    live.controller.abort();
    this.#update(live, { status: 'stopping', ...(message ? { message } : {}) });
    await Promise.all([...live.agents].map((agent) => agent.stop().catch(() => undefined)));
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

  #agentHost(hostId: number, hostName: string, transport: HostTransport): Promise<AgentHost> {
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

  async #cleanHost(hostId: number): Promise<void> {
    const host = this.#options.hosts.get(hostId);
    const transport = this.#options.connections.transportFor(hostId);
    // The agents of a session running under a live process (this one or another on the same store) are not leftovers.
    const live = this.#options.sessions.running().filter((session) => ownedByLiveProcess(session.owner));
    const killed = await cleanLeftoverAgents(transport, this.#owner, live.map((session) => session.id));
    if (killed.length > 0) this.#options.log.warn('runs', `${host.name}: stopped ${plural(killed.length, 'agent')} an earlier Benchlab left running (pid ${killed.join(', ')})`);
  }

  /** Ends what a Benchlab that died left `running`: its runs summarized from their stored seconds, its sessions interrupted, all ended at their last stored second. */
  #recoverInterrupted(): void {
    const { runs, samples, sessions, log } = this.#options;
    for (const run of runs.running()) {
      if (ownedByLiveProcess(run.owner)) continue;
      let profile: unknown = null;
      try {
        profile = sessions.get(run.sessionId).config.profile;
      } catch {
        // the session is gone; the run goes with it
      }
      const seconds = samples.forRun(run.id);
      const { summary, histogram } = summarizeRun(seconds, summaryRulesOf(profile, run.step));
      // It ended when its last stored second did (or when it started, if none was stored), not now.
      const startedAtMs = run.startedAt === null ? null : Date.parse(run.startedAt);
      const endedAtMs = storedSecondsEndMs(seconds, { startedAtMs, warmupS: Number(run.step.warmupS) || 0 }) ?? startedAtMs;
      runs.finish(run.id, 'interrupted', { summary, histogram }, endedAtMs === null ? undefined : new Date(endedAtMs));
    }
    const interrupted = sessions.running().filter((session) => !ownedByLiveProcess(session.owner)).map((session) => session.id);
    sessions.interrupt(interrupted);
    if (interrupted.length > 0) log.warn('runs', `session${interrupted.length === 1 ? '' : 's'} ${interrupted.join(', ')} ended without Benchlab (killed or crashed): marked interrupted, with what was stored`);
  }

  #elapsed(live: Live): number {
    return Math.round((Date.now() - live.startedAtMs) / 100) / 10;
  }

  #update(live: Live, change: Partial<LiveRun>): void {
    Object.assign(live.state, change);
    this.#publish(live);
  }

  #publish(live: Live): void {
    this.#options.bus.publish('runs.state', structuredClone(live.state));
  }
}

/**
 * The load clients asked for: `clients`, or the one `clientHostId`. Refuses neither, both, and a
 * host listed twice (each client host takes part once).
 */
function requestedClients(args: StartArgs, nameOf: (hostId: number) => string): RunClient[] {
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

/** Why a step's agent ended badly, in words (naming its host when there are several); null when it ended as planned or on Stop. */
function describeFailure(end: AgentEnd, clientName: string, several: boolean): string | null {
  switch (end.reason) {
    case 'completed':
    case 'cap':
    case 'stopped':
      return null;
    case 'heartbeat':
      return end.message ?? `the link to ${clientName} was lost: its agent heard nothing from Benchlab for ${HEARTBEAT_TIMEOUT_MS / 1000} s and stopped its load`;
    case 'stdin-closed':
      return `the agent on ${clientName} lost its connection to Benchlab and stopped its load`;
    case 'lost':
      return `lost the agent on ${clientName}: ${end.message ?? 'the link closed'}`;
    case 'link-lost':
      return end.message ?? `client link lost: no data from the agent on ${clientName}`;
    case 'error': {
      const message = end.message ?? 'the agent failed';
      return several ? `the agent on ${clientName} failed: ${message}` : message;
    }
  }
}

/** Resolves with every result once all have settled (nothing left running), or rejects with the first failure. */
async function settleAll<T>(pending: Array<Promise<T>>): Promise<T[]> {
  const settled = await Promise.allSettled(pending);
  const failed = settled.find((outcome) => outcome.status === 'rejected');
  if (failed) throw failed.reason;
  return settled.map((outcome) => (outcome as PromiseFulfilledResult<T>).value);
}

/** A client as the session's config records it. */
function recordedClient(client: LoadClient): RecordedClient {
  return { index: client.index, hostId: client.hostId, hostName: client.name, weight: client.weight, cores: client.cores, engine: client.engine.recorded, clock: client.clock };
}

/** A client's share of a step's load, as the live run shows it. */
function shareOf(load: StepLoad): Pick<LiveClient, 'connections' | 'rate'> {
  return { connections: load.connections ?? null, rate: targetRate(load) };
}

function describeClient(client: LoadClient): string {
  return `${client.name} (${engineLabel(client.engine.recorded.kind)}, weight ${client.weight})`;
}

function clockWarning(client: LoadClient): string {
  const clock = client.clock!;
  return `the clock of ${client.name} is known only to ±${clock.uncertaintyMs.toFixed(1)} ms (over ${CLOCK_UNCERTAINTY_LIMIT_MS} ms): its seconds may not line up with the other clients'`;
}

/** The pid-file prefix of one data dir's agents: a crash leftover is only ever cleaned by its own Benchlab. */
export function agentOwner(databaseFile: string): string {
  return `bl${createHash('sha256').update(databaseFile).digest('hex').slice(0, 10)}`;
}

/** Whether a stored owner token names a process that still runs (null: a row from before owners were kept). */
function ownedByLiveProcess(owner: string | null): boolean {
  return owner !== null && isOwnerAlive(owner);
}

function isOver(status: LiveRun['status']): boolean {
  return status === 'completed' || status === 'failed' || status === 'cancelled';
}

function describeTarget(target: ParsedTarget): string {
  const host = target.hostname.includes(':') ? `[${target.hostname}]` : target.hostname;
  return `${target.protocol}://${host}:${target.port}`;
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}
