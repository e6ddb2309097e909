// The session that runs, with what it holds while it runs: its live state (live-run-state.ts), its
// point stream, the abort that stops it, its agents, the link watch, the server's readings and the
// watch on the deployed server's pid. And the faults that end it from outside its steps: the hard
// cap, a store out of space (a full data disk: the load stopped as Stop does, the run failed, said
// on runs.live and the log even where the store can no longer record it) and the deployed server
// stopped or replaced under it (server-change.ts: the step degraded with when and what, the session
// failed, so a run is never completed as one template's when it measured two).

import { dirname } from 'node:path';
import { messageOf } from '../../../app/common/errors.ts';
import { expandSteps } from '../../../app/runs/load-profile.ts';
import { ServerReadings } from '../../../app/runs/server-readings.ts';
import { debugNote, type Logger } from '../logger.ts';
import { isStoreOutOfSpace, storeFullMessage } from '../store/store-errors.ts';
import type { LiveRunState } from './live-run-state.ts';
import type { PointStream } from './point-stream.ts';
import type { RemoteAgent } from './remote-agent.ts';
import type { RunLinkWatch } from './run-link-watch.ts';
import type { RunsRepository } from './runs-repository.ts';
import { describeServerChange, serverDegraded, type ServerChange, type ServerPidWatch } from './server-change.ts';

export interface LiveSessionOptions {
  log: Logger;
  runs: Pick<RunsRepository, 'markDegraded'>;
  /** The store's file: a full store names its directory. */
  databaseFile: string;
  hostName: (hostId: number) => string;
  /** What Benchlab runs on the server host now, in words (said when the server changed under a run). */
  serverNow?: ((hostId: number) => Promise<string>) | undefined;
}

export class LiveSession {
  readonly state: LiveRunState;
  readonly points: PointStream;
  readonly startedAtMs: number;
  readonly controller = new AbortController();
  readonly agents = new Set<RemoteAgent>();
  /** The sampler's readings, each stored with the client second it was read in (or none: a gap). */
  readonly server = new ServerReadings();
  /** The current step's load agents by client index, while they run. */
  readonly loads = new Map<number, RemoteAgent>();
  /** The clients on the server's machine (the same boot id at the start): the verdicts name no side for them. */
  readonly clientsOnServerMachine: number[];
  /** The deployed server's pid, watched while the run loads it, and its words (null: no deployment, no watch). */
  readonly serverWatch: { pids: ServerPidWatch; label: string } | null;
  readonly links: RunLinkWatch;
  /** Resolves once the session has ended and its end is stored. */
  done: Promise<void> = Promise.resolve();
  /** The agent's time of the last measured second stored, for what a full store says was kept. */
  lastStoredAtMs: number | null = null;
  /** Set once the store ran out of space: why the run ends. */
  storeFull: string | null = null;
  /** Set once the server changed under the run: resolves to why the run failed. */
  serverChanged: Promise<string> | null = null;
  readonly #options: LiveSessionOptions;
  #capTimer: ReturnType<typeof setTimeout> | null = null;

  constructor(
    options: LiveSessionOptions,
    parts: {
      state: LiveRunState;
      points: PointStream;
      startedAtMs: number;
      clientsOnServerMachine: number[];
      serverWatch: { pids: ServerPidWatch; label: string } | null;
      /** The session's link watch, told what to do with this session when a source goes silent or a client is lost. */
      links: (session: LiveSession) => RunLinkWatch;
    },
  ) {
    this.#options = options;
    this.state = parts.state;
    this.points = parts.points;
    this.startedAtMs = parts.startedAtMs;
    this.clientsOnServerMachine = parts.clientsOnServerMachine;
    this.serverWatch = parts.serverWatch;
    this.links = parts.links(this);
  }

  get name(): string {
    return this.state.run.name;
  }

  /** Seconds since the session started, to the tenth. */
  elapsed(): number {
    return Math.round((Date.now() - this.startedAtMs) / 100) / 10;
  }

  /** Beyond the profile's own caps, the whole session ends at `capS` whatever happens. */
  armCap(capS: number): void {
    this.#capTimer = setTimeout(() => {
      this.#options.log.warn('runs', `${this.name}: the session reached its hard cap of ${capS} s; stopping it`);
      void this.halt(`stopped at the session's hard cap of ${capS} s`);
    }, capS * 1000);
    this.#capTimer.unref?.();
  }

  disarmCap(): void {
    if (this.#capTimer) clearTimeout(this.#capTimer);
  }

  /** Stops the session's load now: `stop` to each agent (each kills its own if it lingers). */
  async halt(message: string | null): Promise<void> {
    if (this.controller.signal.aborted) return;
    this.controller.abort();
    this.state.stopping(message);
    await Promise.all([...this.agents].map((agent) => agent.stop().catch(() => undefined)));
  }

  /** The last of a shutdown: every agent killed, nothing more published (the end can no longer be stored). */
  kill(): void {
    this.done.catch((error: unknown) => debugNote(`${this.name} ended after the store closed: ${messageOf(error)}`));
    this.controller.abort();
    for (const agent of this.agents) agent.kill();
    this.points.close();
    this.links.close();
    this.disarmCap();
  }

  /**
   * Whether `error` says the store is out of space; the first time, the run is ended for it: the
   * load stopped as Stop does, the reason on runs.live and the log (which drops what it cannot store).
   */
  outOfSpace(error: unknown): boolean {
    if (!isStoreOutOfSpace(error)) return false;
    if (this.storeFull === null) {
      this.storeFull = storeFullMessage(dirname(this.#options.databaseFile), this.lastStoredAtMs);
      this.#options.log.error('runs', `${this.name}: ${this.storeFull} (${messageOf(error)})`);
      void this.halt(this.storeFull);
    }
    return true;
  }

  /** Stores that step `stepIndex` (run `runId`) is degraded; a store that fails is said, a full one ends the run. */
  storeDegraded(runId: number | null, stepIndex: number, degraded: Parameters<RunsRepository['markDegraded']>[1]): void {
    try {
      if (runId !== null) this.#options.runs.markDegraded(runId, degraded);
    } catch (error) {
      if (!this.outOfSpace(error)) this.#options.log.error('runs', `${this.name}: could not store that step ${stepIndex + 1} is degraded: ${messageOf(error)}`);
    }
  }

  /**
   * The deployed server stopped or was replaced under the run: the load is stopped at once (it would
   * measure another server, or load another session's), the step marked degraded with when and what
   * (what runs there now, asked of the host), and the session ends failed with that message.
   */
  serverChangedUnder(hostId: number, port: number, change: ServerChange): void {
    const run = this.state.run;
    const stepIndex = run.currentStep ?? 0;
    const step = this.state.step(stepIndex);
    const hostName = this.#options.hostName(hostId);
    const label = this.serverWatch?.label ?? 'the server deployed for it';
    void this.halt(null);
    this.serverChanged = (async () => {
      // Taken down by this Benchlab: said before it goes, so what runs there now is not yet the news.
      const now = change.by ? null : await (this.#options.serverNow?.(hostId) ?? Promise.resolve(null)).catch(() => null);
      const why = describeServerChange(change, { hostName, label, port }, now);
      // The seconds of the step's window that were not measured on the server it started with.
      const load = expandSteps(run.profile)[stepIndex];
      const windowEndS = (step.startedAtS ?? change.atS) + (stepIndex === 0 ? run.profile.warmupS : 0) + (load?.load.durationS ?? 0);
      const degraded = serverDegraded(change, hostName, why, Math.max(0, Math.round(windowEndS - change.atS)));
      this.storeDegraded(step.runId, stepIndex, degraded);
      this.#options.log.error('runs', `${this.name}: step ${stepIndex + 1} (${step.label}) degraded: ${why}`);
      this.state.stepDegraded(stepIndex, degraded);
      return `step ${stepIndex + 1} (${step.label}) degraded: ${why}`;
    })();
  }
}
