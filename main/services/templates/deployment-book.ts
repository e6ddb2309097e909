// The template service's shared state: the deployment each host runs (or is deploying), its one
// publish of `templates.progress`, and what every part of the service reads alike (the options, the
// run dir on a host, the sessions loading a server, the follow-ups shutdown waits for).

import type { Host } from '../../../app/hosts/hosts.ts';
import { benchlabRoot } from '../../../app/templates/template-hosts.ts';
import type { Deployment } from '../../../app/templates/templates-contract.ts';
import type { Manifest } from '../../../app/templates/templates.ts';
import type { FrontDoor } from '../../../app/templates/server-words.ts';
import type { EventBus } from '../event-bus.ts';
import type { ConnectChecks } from '../hosts/connect-checks.ts';
import type { HostTransport } from '../hosts/host-transport.ts';
import type { Logger } from '../logger.ts';
import type { BundledPaths } from './catalog.ts';
import type { ServerLogStream } from './log-stream.ts';
import { probeHost } from './remote-server.ts';
import type { HoldRecord } from './server-hold.ts';

/** A heartbeat younger than this means another Benchlab is driving the server: leave it alone. */
const LIVE_HEARTBEAT_AGE_S = 20;
export const BUSY_STATES = new Set<Deployment['state']>(['checking', 'building', 'uploading', 'starting', 'stopping']);

export interface TemplateServiceOptions {
  bus: EventBus;
  log: Logger;
  hosts: { get(id: number): Host };
  connections: { transportFor(hostId: number): HostTransport; sudoPasswordFor(hostId: number): string | undefined };
  /** Where portable Node archives are cached on this machine. */
  cacheDir: string;
  /** Where templates with build steps are copied and built on this machine (see build-workspace.ts). */
  buildDir: string;
  paths?: BundledPaths;
  /** Benchlab's folder on every host instead of the default (tests keep theirs apart). */
  remoteRoot?: string;
  /** Where runtimes are looked for on hosts instead of PATH (tests of a host without them). */
  runtimePath?: string;
  /** The supervisor stops a server whose heartbeat is older than this. Default 60 s. */
  maxHeartbeatAgeSeconds?: number;
  heartbeatIntervalMs?: number;
  /** A server whose heartbeat is younger than this belongs to another live Benchlab. Default 20 s. */
  liveHeartbeatAgeSeconds?: number;
  /** The checks every connect runs (shared with the run service); a service alone makes its own. */
  connectChecks?: ConnectChecks;
  /** This Benchlab process in words, recorded with each server it deploys so another names its holder. */
  holder?: string;
  /** The names of the sessions loading a server (any process on this store), said before it is taken down. */
  loadsOn?: (server: { hostId: number; address: string; port: number }) => string[];
  /** Told right before this Benchlab takes a running server down (a run loading it stops its load first). */
  takingDown?: (server: { hostId: number; port: number; why: string }) => void;
  /** Where refusals are read: the CLI's say the command that would do it, the app's the button. Default app. */
  frontDoor?: FrontDoor;
}

/** What a host runs, with what is needed to keep it, watch it and stop it. */
export interface Active {
  id: string;
  deployment: Deployment;
  manifest: Manifest;
  controller: AbortController | null;
  /** Settles when the deploy in progress has finished, either way. */
  settled: Promise<unknown> | null;
  run: string | null;
  /** The current log watch: a watch that is no longer current is ignored until it ends by itself. */
  watch: object | null;
  heartbeat: ReturnType<typeof setInterval> | null;
  logStream: ServerLogStream | null;
  /** Set while Benchlab itself stops the server, so its end is not reported as a crash. */
  stopping: boolean;
}

function safeName(text: string): string {
  return text.replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 64) || 'host';
}

export class DeploymentBook {
  readonly options: TemplateServiceOptions;
  readonly #active = new Map<number, Active>();
  /** Work started on its own (a server's unasked end being reported): shutdown waits for it. */
  readonly #followUps = new Set<Promise<void>>();

  constructor(options: TemplateServiceOptions) {
    this.options = options;
  }

  get liveAge(): number {
    return this.options.liveHeartbeatAgeSeconds ?? LIVE_HEARTBEAT_AGE_S;
  }

  get(hostId: number): Active | undefined {
    return this.#active.get(hostId);
  }

  set(active: Active): void {
    this.#active.set(active.deployment.hostId, active);
  }

  all(): Active[] {
    return [...this.#active.values()];
  }

  /** The one publish: a deployment no longer current on its host changes without being told. */
  update(active: Active, change: Partial<Deployment>): void {
    active.deployment = { ...active.deployment, ...change, updatedAt: new Date().toISOString() };
    if (this.#active.get(active.deployment.hostId) === active) this.options.bus.publish('templates.progress', active.deployment);
  }

  /** The current step's detail (and its progress line, when given) changed. */
  detail(active: Active, change: { detail?: string | null; progress?: string | null }): void {
    this.update(active, { step: { ...active.deployment.step!, ...change } });
  }

  log(message: string): void {
    this.options.log.info('templates', message);
  }

  /** Benchlab's run dir on the host, where its one server's files and pids are. */
  async runDir(transport: HostTransport): Promise<string> {
    const facts = await probeHost(transport, this.options.runtimePath);
    return runDirOf(this.options.remoteRoot ?? benchlabRoot(facts), facts.hostname);
  }

  /** The sessions loading the server on this host's port, by name (none known without a port). */
  loadsOn(hostId: number, port: number | null): string[] {
    if (port === null || !this.options.loadsOn) return [];
    try {
      const host = this.options.hosts.get(hostId);
      return this.options.loadsOn({ hostId, address: host.kind === 'local' ? '127.0.0.1' : host.address, port });
    } catch {
      return [];
    }
  }

  holdRecord(what: string): HoldRecord {
    return { what, holder: this.options.holder ?? null, since: new Date().toISOString() };
  }

  followUp(work: Promise<void>): void {
    this.#followUps.add(work);
    const forget = () => this.#followUps.delete(work);
    work.then(forget, forget);
  }

  /** Resolves once every deploy in progress has settled and no follow-up is still running. */
  async quiet(): Promise<void> {
    await Promise.all([...this.all().map((active) => active.settled), ...this.#followUps]);
  }
}

/** The run dir under Benchlab's root on a host, named after the host. */
export function runDirOf(root: string, hostname: string): string {
  return `${root}/run/${safeName(hostname)}`;
}
