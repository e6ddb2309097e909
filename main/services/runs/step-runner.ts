// Runs a session's steps one after another on its clients, with the pause between them and the
// server's sampler alongside, and stores the session's end. One step: every client's agent started
// with its part of the load (several: at one instant of Benchlab's clock, converted to each client's
// own), each line stored as a second under its client's index (step-recorder.ts) and charted
// (merged across clients: app/runs/merge-seconds.ts), each agent watched (run-link-watch.ts) and
// killed if it outlives its cap. The lost-client policy: a client that fails to start, dies or loses
// its link is named; with several, its step is marked degraded (when, why, what was lost) and the
// other clients are stopped; a lost link ends the session as "client link lost", seconds kept.

import { HEARTBEAT_TIMEOUT_MS, type AgentLine, type LoadAgentConfig } from '../../../app/runs/agent-protocol.ts';
import { messageOf } from '../../../app/common/errors.ts';
import { chartPoint } from '../../../app/runs/chart-point.ts';
import { engineLabel } from '../../../app/runs/engine-choice.ts';
import { sessionCapSeconds, targetRate, type LoadStep, type StepLoad } from '../../../app/runs/load-profile.ts';
import { SecondAligner, type AlignedSecond } from '../../../app/runs/merge-seconds.ts';
import type { RunDeployment } from '../../../app/runs/runs-contract.ts';
import type { StepDegraded } from '../../../app/runs/runs.ts';
import { coordinatedStartLeadMs } from '../../../app/runs/start-lead.ts';
import { summaryRulesOf } from '../../../app/runs/summarize-run.ts';
import { debugNote, type Logger } from '../logger.ts';
import type { SessionsRepository } from './sessions-repository.ts';
import { isStoreOutOfSpace } from '../store/store-errors.ts';
import { agentPidFileName } from './agent-host.ts';
import type { LiveSession } from './live-session.ts';
import { RemoteAgent, type AgentEnd } from './remote-agent.ts';
import type { LoadClient, Prepared } from './run-preflight.ts';
import type { RunsRepository } from './runs-repository.ts';
import type { SamplesRepository } from './samples-repository.ts';
import { StepRecorder } from './step-recorder.ts';
import type { StepProfiler } from '../profiles/step-profiler.ts';

/** Beyond the profile's own caps, main/ ends the whole session this much later whatever happens. */
export const SESSION_CAP_MARGIN_S = 30;
/** An agent that outlives its step cap by this much is killed from here. */
const STEP_CAP_MARGIN_MS = 10_000;
/** The first line comes a second after the agent's load threads are up, which takes a moment on a busy host. */
const THREADS_START_QUIET_MS = 3000;
/** After a window's last second the drain may be quiet for the request timeout and this (agent: DRAIN_GRACE_MS and the last line's wait). */
const DRAIN_QUIET_MS = 1500;

export interface StepRunnerOptions {
  log: Logger;
  sessions: Pick<SessionsRepository, 'setStatus'>;
  runs: RunsRepository;
  samples: SamplesRepository;
  /** The pid-file prefix of this data dir's agents (run-recovery.ts). */
  owner: string;
  /** Takes each step's CPU profile of the server process (main/services/profiles/step-profiler.ts). */
  profiler?: Pick<StepProfiler, 'begin'> | undefined;
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

type Context = Prepared & { deployment: RunDeployment | null };

export class StepRunner {
  readonly #options: StepRunnerOptions;

  constructor(options: StepRunnerOptions) {
    this.#options = options;
  }

  /** The session's steps in order until one fails or the load is stopped; then its end, stored and shown. */
  async drive(live: LiveSession, context: Context): Promise<void> {
    const { profile } = context;
    const several = context.clients.length > 1;
    let sampler: RemoteAgent | null = null;
    let failure: string | null = null;
    try {
      if (context.server) {
        sampler = await this.#startSampler(live, context.server, context.target.port).catch((error: unknown) => {
          this.#options.log.warn('runs', `${live.name}: no server metrics: ${messageOf(error)}`);
          return null;
        });
      }
      for (const step of context.steps) {
        if (live.controller.signal.aborted) break;
        if (step.index > 0 && profile.pauseS > 0) {
          live.state.pausing(step.index);
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
      if (!live.outOfSpace(error)) failure = messageOf(error);
    } finally {
      live.links.stopped('server');
      live.links.close();
      if (sampler) await sampler.stop().catch(() => undefined);
      live.disarmCap();
      const serverChanged = live.serverChanged ? await live.serverChanged : null;
      failure = live.storeFull ?? serverChanged ?? failure;
      const status = failure ? 'failed' : live.controller.signal.aborted ? 'cancelled' : 'completed';
      const ended = new Date();
      this.#storeSessionEnd(live.state.run.sessionId, status, ended);
      live.state.ended(status, ended, failure);
      if (failure) this.#options.log.error('runs', `${live.name}: ${failure}`);
      else this.#options.log.info('runs', `${live.name}: ${status}`);
    }
  }

  /**
   * One step on every client at once: each client's agent started with its part of the load (several
   * clients: all at one instant on Benchlab's clock, converted to each client's own), its seconds
   * stored under its index and charted merged. A client that fails to start, dies or loses its link
   * degrades the step: it is named, the others are stopped. Returns how the step ended and by whom.
   */
  async #runStep(live: LiveSession, step: LoadStep, loads: StepLoad[], context: Context): Promise<{ end: AgentEnd; client: LoadClient }> {
    const { profile } = context;
    const sessionId = live.state.run.sessionId;
    const warmupS = step.index === 0 ? profile.warmupS : 0;
    const stored = { label: step.label, load: step.load, warmupS, request: profile.request, target: profile.target };
    const deployment = context.deployment;
    const runId = this.#options.runs.create({ sessionId, ordinal: step.index + 1, templateId: deployment?.templateId ?? 'external', variant: deployment?.variant ?? '', knobs: deployment?.knobs ?? {}, step: stored });
    const several = context.clients.length > 1;
    // The rules a stored run is summarized by later, from the same profile and step.
    const recorder = new StepRecorder({ runId, samples: this.#options.samples, runs: this.#options.runs, rules: summaryRulesOf(profile, stored, live.clientsOnServerMachine), clients: context.clients.length });
    this.#options.runs.markStarted(runId);
    live.state.stepStarted(step.index, { runId, atS: live.elapsed(), warmup: warmupS > 0, shares: context.clients.map((client) => ({ connections: loads[client.index]!.connections ?? null, rate: targetRate(loads[client.index]!) })) });

    // The instant every client starts (warm-up first), on Benchlab's clock, far enough ahead for the
    // slowest to be ready: the lead grows with the clients' measured setup (app/runs/start-lead.ts).
    const startAtMs = several ? Date.now() + coordinatedStartLeadMs(context.clients.map((client) => client.clock?.readyMs)) : null;
    const run: StepRun = { step, runId, recorder, aligner: several ? new SecondAligner(context.clients.length) : null, startAtMs, lost: null };
    // Its profile runs while the load does, and is handed over before the next step loads the server.
    const serverProfile = await this.#options.profiler?.begin({
      runId,
      wanted: profile.profileServer !== false,
      server: context.server ? { transport: context.server.transport, name: context.server.name } : null,
      port: context.target.port,
      label: `${live.name}, step ${step.index + 1}`,
    });
    const ends = await Promise.all(
      context.clients.map((client) => {
        const config: LoadAgentConfig = {
          role: 'load',
          target: context.target,
          request: profile.request,
          load: loads[client.index]!,
          warmupS,
          capS: step.capS,
          pidFile: `${client.agent.pidDir}/${agentPidFileName(this.#options.owner, sessionId, 'load', client.index)}`,
          // Absent is the Node engine (the protocol's default).
          ...(client.engine.config.kind === 'native' ? { engine: client.engine.config } : {}),
          ...(startAtMs !== null ? { startAtMs: startAtMs + (client.clock?.offsetMs ?? 0) } : {}),
        };
        return this.#runClient(live, run, client, config);
      }),
    );
    if (run.aligner) this.#chart(live, run, run.aligner.flush());
    // The captured profile joins the step's final verdict (the live one had none yet), as replay reads it.
    const profiled = (await serverProfile?.finish()) ?? null;
    // The step ended as its first lost client ended it, else as the first client that did not complete.
    const ender = run.lost?.client.index ?? Math.max(0, ends.findIndex((end) => end.reason !== 'completed'));
    const end = ends[ender]!;
    // A step cut at its hard cap did not finish what it scheduled: it is stopped, not completed.
    const status = live.storeFull || run.lost || live.serverChanged ? 'failed' : end.reason === 'completed' ? 'completed' : end.reason === 'stopped' || end.reason === 'cap' ? 'stopped' : 'failed';
    if (end.reason === 'cap') this.#options.log.warn('runs', `${live.name}: step ${step.index + 1} (${step.label}) reached its ${step.capS} s cap and was cut short`);
    let result;
    try {
      result = recorder.finish(status, profiled);
    } catch (error) {
      // The run's row stays running; the next start summarizes it from its stored seconds.
      if (!live.outOfSpace(error)) throw error;
      result = { summary: recorder.summary(), bottleneck: recorder.bottleneck(profiled) };
    }
    live.state.stepEnded(step.index, status, { ...result, clientVerdicts: recorder.clientVerdicts() }, live.elapsed());
    return { end, client: context.clients[ender]! };
  }

  /** One client's agent through one step: started, its lines recorded, watched, ended. */
  async #runClient(live: LiveSession, run: StepRun, client: LoadClient, config: LoadAgentConfig): Promise<AgentEnd> {
    const source = { client: client.index };
    const several = live.state.run.clients.length > 1;
    const who = several ? ` (${client.name})` : '';
    let end: AgentEnd;
    try {
      const agent = await RemoteAgent.start(client.transport, client.agent.command, config, {
        onLine: (line) => {
          live.links.heard(source);
          this.#onLoadLine(live, run, client, line);
        },
        onProblem: (message) => this.#options.log.warn('runs', `${live.name}${who}: ${message}`),
      });
      live.agents.add(agent);
      live.loads.set(client.index, agent);
      live.links.started(source);
      // Its first line comes a second after its load starts: at the coordinated instant, if there is one.
      const waitsMs = run.startAtMs === null ? 0 : Math.max(0, run.startAtMs - Date.now());
      live.links.allowPause(source, THREADS_START_QUIET_MS + waitsMs);
      live.state.clientRunning(client.index);
      // Stopped meanwhile, or another client already failed the step: this one ends at once.
      if (live.controller.signal.aborted || run.lost) void agent.stop();
      const watchdog = setTimeout(() => {
        this.#options.log.warn('runs', `${live.name}: the agent${who} outlived its ${run.step.capS} s cap; killing it`);
        agent.kill();
      }, run.step.capS * 1000 + STEP_CAP_MARGIN_MS + waitsMs);
      end = await agent.ended;
      // The channel ended without the end line while the link was down: the link was lost.
      const linkLost = end.reason === 'lost' ? live.links.linkLostMessage(client.index) : null;
      if (linkLost) end = { reason: 'link-lost', message: linkLost };
      clearTimeout(watchdog);
      live.agents.delete(agent);
    } catch (error) {
      end = { reason: 'error', message: messageOf(error) };
    } finally {
      live.loads.delete(client.index);
      live.links.stopped(source);
    }
    end = live.links.whoWasSilent(end, client.name);
    const why = describeFailure(end, client.name, several);
    if (why) this.#clientLost(live, run, client, end, why);
    else live.state.clientDone(client.index);
    // Its seconds no longer hold the others' back on the charts.
    if (run.aligner) this.#chart(live, run, run.aligner.dropClient(client.index));
    return end;
  }

  /**
   * A client of a step that ended badly: named on the live run; the first one: with several clients the
   * step is marked degraded (when, why, how many of its seconds are missing), stored with the run,
   * and the other clients are stopped (stop, then kill, as Stop does).
   */
  #clientLost(live: LiveSession, run: StepRun, client: LoadClient, end: AgentEnd, why: string): void {
    const atS = live.elapsed();
    const clients = live.state.run.clients;
    live.state.clientFailed(client.index, end.reason === 'error' ? 'failed' : 'lost', { atS, message: why });
    // Only the first loss degrades the step and stops the others; the one client of a session fails its step as it always did.
    if (run.lost !== null) return;
    run.lost = { client };
    if (clients.length === 1) return;
    const measured = clients.map((other) => run.recorder.measuredSeconds(other.index));
    const expectedS = run.step.load.durationS ?? Math.max(...measured);
    const degraded: StepDegraded = { clientIndex: client.index, hostName: client.name, atS, message: why, lostSeconds: Math.max(0, expectedS - measured[client.index]!) };
    live.state.stepDegraded(run.step.index, degraded);
    live.storeDegraded(run.runId, run.step.index, degraded);
    this.#options.log.error('runs', `${live.name}: step ${run.step.index + 1} (${run.step.label}) degraded: ${why}; stopping the other clients`);
    for (const [index, agent] of live.loads) if (index !== client.index) void agent.stop().catch(() => undefined);
  }

  #onLoadLine(live: LiveSession, run: StepRun, client: LoadClient, line: AgentLine): void {
    const several = live.state.run.clients.length > 1;
    if (line.type === 'log') {
      this.#options.log.info('agent', several ? `${client.name}: ${line.message}` : line.message);
      return;
    }
    const asked = client.engine.recorded.kind;
    if (line.type === 'hello' && (line.engine ?? 'node') !== asked) {
      // The session records the engine it asked for: an agent that runs another is said, not hidden.
      this.#options.log.error('runs', `${live.name}: the agent${several ? ` on ${client.name}` : ''} runs the ${engineLabel(line.engine ?? 'node')}, not the ${engineLabel(asked)} the session records`);
    }
    if (line.type !== 'sample') return;
    const { step, recorder } = run;
    const server = live.server.forSecond(client.index, line.at, Date.now());
    const second = recorder.secondOf(line, server, { index: client.index, offsetMs: client.clock?.offsetMs ?? 0 });
    // Once the store was full, what follows is not stored: what was kept ends where the message says.
    if (live.storeFull === null) {
      try {
        const problem = recorder.record(second);
        if (second.phase === 'measure') live.lastStoredAtMs = second.clientMetrics?.at ?? line.at;
        if (problem) this.#options.log.warn('runs', `${live.name}: ${problem}`);
      } catch (error) {
        if (!live.outOfSpace(error)) this.#options.log.error('runs', `${live.name}: could not store second ${line.second}${several ? ` of ${client.name}` : ''}: ${messageOf(error)}`);
      }
    }
    const windowS = step.load.durationS;
    if (second.phase === 'measure' && windowS !== undefined && second.second + 1 >= windowS) {
      // The window's last second: the drain line comes once the answers still due are in, or at the timeout.
      live.links.allowPause({ client: client.index }, live.state.run.profile.request.timeoutMs + DRAIN_QUIET_MS);
    }
    // Drawn from the second as stored, by the function replay draws it with; several clients' merged once all gave it.
    // The drain too (not a second of the window): the late answers the table counts are drawn at its end.
    if (run.aligner) this.#chart(live, run, run.aligner.add(second));
    else live.points.push(chartPoint(second, pointContext(live, step.index)));
    if (second.phase === 'drain') live.state.tallied(step.index, 'drain', { summary: recorder.summary() });
    else if (line.phase === 'measure') live.state.tallied(step.index, 'measure', { summary: recorder.summary(), bottleneck: recorder.bottleneck(), clientVerdicts: recorder.clientVerdicts() });
  }

  /** Charts merged seconds the aligner released, each with its clients' parts (the per-client breakdown). */
  #chart(live: LiveSession, run: StepRun, released: AlignedSecond[]): void {
    for (const { merged, parts } of released) live.points.push(chartPoint(merged, pointContext(live, run.step.index), parts));
  }

  /** The server's sampler for the whole session; its readings are paired with the clients' seconds, its pid watched. */
  async #startSampler(live: LiveSession, server: NonNullable<Prepared['server']>, port: number): Promise<RemoteAgent> {
    const pidFile = `${server.agent.pidDir}/${agentPidFileName(this.#options.owner, live.state.run.sessionId, 'sampler')}`;
    const capS = sessionCapSeconds(live.state.run.profile) + SESSION_CAP_MARGIN_S;
    const sampler = await RemoteAgent.start(server.transport, server.agent.command, { role: 'sampler', port, capS, pidFile }, {
      onLine: (line) => {
        live.links.heard('server');
        if (line.type !== 'server') return;
        live.server.add(line.server, Date.now());
        const change = live.serverWatch?.pids.seen(line.server.processPid, live.elapsed());
        if (change) live.serverChangedUnder(server.id, port, change);
      },
      onProblem: (message) => this.#options.log.warn('runs', `${live.name} (server sampler): ${message}`),
    });
    live.agents.add(sampler);
    live.links.started('server');
    void sampler.ended.then(() => live.agents.delete(sampler));
    return sampler;
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
}

function pointContext(live: LiveSession, stepIndex: number) {
  return { sessionId: live.state.run.sessionId, step: stepIndex, startedAtMs: live.startedAtMs, stepOffsetS: live.state.step(stepIndex).startedAtS ?? 0 };
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
