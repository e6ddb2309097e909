// Deployments of server templates, one per host: the deploy pipeline in named steps (check, build,
// upload, start, ready) with cancel, stop, the heartbeat and log stream of a running server, the
// `templates.progress` event for every change, runtime installs on the user's word, and on each
// connect either resuming our own server or cleaning what an earlier session left behind.

import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import type { Host } from '../../../app/hosts/hosts.ts';
import { ApiError, messageOf } from '../../../app/common/errors.ts';
import { benchlabRoot, describeMissing, judgeRequirements, type HostFacts } from '../../../app/templates/template-hosts.ts';
import { DEPLOY_STEPS, type Deployment, type ServerOccupant, type TemplateCatalog } from '../../../app/templates/templates-contract.ts';
import { renderStartArgv, requirementsFor, resolveDeploySettings, serverEnvironment, toCommandLine, type DeployChoice, type Manifest, type RuntimeName } from '../../../app/templates/templates.ts';
import type { EventBus } from '../event-bus.ts';
import { ConnectChecks } from '../hosts/connect-checks.ts';
import type { HostTransport } from '../hosts/host-transport.ts';
import type { Logger } from '../logger.ts';
import { bundledPaths, loadCatalog, templatePathsFromEnv, type BundledPaths, type CatalogEntry } from './catalog.ts';
import { syncFiles, type SyncItem } from './file-sync.ts';
import { SUPERVISOR_SCRIPT } from './host-scripts.ts';
import { buildInWorkspace } from './build-workspace.ts';
import { describeComponents, readBuildComponents, runtimeVersions } from './build-components.ts';
import { ServerLogStream, tailText } from './log-stream.ts';
import { installRuntime } from './runtime-install.ts';
import { databaseBinaries, planDatabase, startDatabase } from './private-database.ts';
import { ensurePortableNode, PORTABLE_NODE_MAJOR, PortableNodeCache } from './portable-node.ts';
import { beat, inspectRun, probeHost, startSupervised, stopRun, waitReady, watchLogs, type RecordedDeployment } from './remote-server.ts';
import { describeHolder, describeLoads, describeServer, type FrontDoor } from '../../../app/templates/server-words.ts';
import { heldElsewhere, ownershipOf } from './server-owner.ts';
import { heldByOwnPlan, holdForDeploy, holdHost, type HostHold } from './server-hold.ts';

/** A heartbeat younger than this means another Benchlab is driving the server: leave it alone. */
const LIVE_HEARTBEAT_AGE_S = 20;
const BUSY_STATES = new Set<Deployment['state']>(['checking', 'building', 'uploading', 'starting', 'stopping']);

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

/**
 * What a deploy may take down: the deployment the user named (ServerOccupant.deploymentId), or
 * `true`: whatever this Benchlab itself runs there (a caller replacing its own server on purpose).
 */
export interface DeployOptions {
  replace?: string | true | undefined;
  /**
   * The caller holds the host (the plan runner, through hold()). Any other deploy holds it itself
   * while it runs, and is refused while a plan holds it, naming the plan.
   */
  held?: boolean;
}

/** What a host runs, with what is needed to keep it, watch it and stop it. */
interface Active {
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

function urlOf(host: Host, port: number): string {
  const address = host.kind === 'local' ? '127.0.0.1' : host.address;
  return `http://${address.includes(':') && !address.startsWith('[') ? `[${address}]` : address}:${port}/`;
}

function describeSettings(settings: Record<string, string>): string {
  return Object.entries(settings)
    .map(([name, value]) => `${name} ${value}`)
    .join(', ');
}


export class TemplateService {
  readonly #options: TemplateServiceOptions;
  readonly #paths: BundledPaths;
  readonly #cache: PortableNodeCache;
  readonly #active = new Map<number, Active>();
  /** The check every connect runs: a deploy waits for it, so it never races a leftover's cleanup. */
  readonly #connectChecks: ConnectChecks;
  readonly #ownsConnectChecks: boolean;
  /** Work started on its own (a server's unasked end being reported): shutdown waits for it. */
  readonly #followUps = new Set<Promise<void>>();
  /** Set once shutdown has begun: no deploy starts any more. */
  #closing = false;
  /** The hosts this Benchlab's plans hold now, with what holds them (`plan "Overnight"`). */
  readonly #planHolds = new Map<number, string>();

  constructor(options: TemplateServiceOptions) {
    this.#options = options;
    this.#paths = options.paths ?? bundledPaths();
    this.#cache = new PortableNodeCache(options.cacheDir);
    this.#ownsConnectChecks = !options.connectChecks;
    this.#connectChecks = options.connectChecks ?? new ConnectChecks({ ...options, isConnected: (hostId) => isConnected(options.connections, hostId) });
    this.#connectChecks.register({ owner: 'templates', what: 'servers left by an earlier session', run: (hostId) => this.#onConnected(hostId) });
  }

  get #liveAge(): number {
    return this.#options.liveHeartbeatAgeSeconds ?? LIVE_HEARTBEAT_AGE_S;
  }

  get portableNodeCache(): PortableNodeCache {
    return this.#cache;
  }

  async list(): Promise<TemplateCatalog> {
    try {
      const catalog = await loadCatalog(this.#paths.templatesDir);
      return { templates: catalog.entries.map((entry) => entry.manifest), broken: catalog.broken };
    } catch (error) {
      return { templates: [], broken: [{ folder: this.#paths.templatesDir, error: `cannot read the templates folder: ${messageOf(error)}` }] };
    }
  }

  deployments(): Deployment[] {
    return [...this.#active.values()].map((active) => active.deployment);
  }

  async deploy(hostId: number, templateId: string, choice: DeployChoice, options: DeployOptions = {}): Promise<Deployment> {
    this.#refuseWhileClosing();
    const current = this.#active.get(hostId);
    if (current && BUSY_STATES.has(current.deployment.state)) {
      throw new ApiError('conflict', `${current.deployment.hostName} is busy (${current.deployment.state} ${current.deployment.templateName}); cancel or wait first`);
    }
    const entry = await this.#entry(templateId);
    const planHold = this.#planHolds.get(hostId);
    if (planHold && !options.held) throw heldByOwnPlan(current?.deployment.hostName ?? this.#options.hosts.get(hostId).name, planHold, entry.manifest.name);
    if (current?.deployment.state === 'ready' && options.replace !== current.id && options.replace !== true) {
      // Replacing a server takes it from whoever uses it: only on the user's word, naming that server.
      const { deployment } = current;
      throw new ApiError(
        'conflict',
        `${deployment.hostName} runs ${describeServer(deployment)}, deployed from this Benchlab${describeLoads(this.#loadsOn(hostId, deployment.port))}: deploying ${entry.manifest.name} would replace it. Confirm the replace, or stop it first.`,
      );
    }
    const resolved = resolveDeploySettings(entry.manifest, choice);
    if (!resolved.ok) throw new ApiError('invalid_args', `${entry.manifest.name}: ${resolved.errors.join('; ')}`);
    const host = this.#options.hosts.get(hostId);
    const transport = this.#options.connections.transportFor(hostId);
    const { settings } = resolved;

    await this.#connectChecks.settled(hostId);
    this.#refuseWhileClosing();
    const again = this.#active.get(hostId);
    if (again !== current) throw new ApiError('conflict', `${host.name} changed while this deploy waited; try again`);
    const previous = current;
    const active: Active = {
      id: randomUUID(),
      manifest: entry.manifest,
      deployment: {
        hostId,
        hostName: host.name,
        templateId,
        templateName: entry.manifest.name,
        variant: settings.variant,
        knobs: settings.knobs,
        port: settings.port,
        state: 'checking',
        step: null,
        message: null,
        logTail: [],
        url: null,
        installOffers: [],
        startedAt: new Date().toISOString(),
        readyMs: null,
        database: null,
        updatedAt: new Date().toISOString(),
      },
      controller: new AbortController(),
      settled: null,
      run: null,
      watch: null,
      heartbeat: null,
      logStream: null,
      stopping: false,
    };
    this.#active.set(hostId, active);
    const work = this.#pipeline(active, entry, host, transport, previous, typeof options.replace === 'string' ? options.replace : null, options.held === true);
    active.settled = work.catch(() => undefined);
    return work;
  }

  async #pipeline(active: Active, entry: CatalogEntry, host: Host, transport: HostTransport, previous: Active | undefined, replace: string | null, held: boolean): Promise<Deployment> {
    const started = Date.now();
    const { manifest } = entry;
    const { deployment } = active;
    const signal = active.controller!.signal;
    const step = (index: number, state: Deployment['state'], detail: string | null = null) => {
      const named = DEPLOY_STEPS[index]!;
      this.#update(active, { state, step: { id: named.id, label: named.label, index: index + 1, total: DEPLOY_STEPS.length, detail, progress: null } });
    };
    let startedServer = false;
    let hold: HostHold | null = null;
    try {
      this.#log(`${host.name}: deploying ${manifest.name} (${deployment.variant}) on port ${deployment.port}`);
      step(0, 'checking');
      const facts = await probeHost(transport, this.#options.runtimePath, signal);
      const root = this.#options.remoteRoot ?? benchlabRoot(facts);
      const run = `${root}/run/${safeName(facts.hostname)}`;
      // Not a plan's deploy: it holds the host until it has ended, so a plan holding it refuses it
      // (named) before anything is touched, and a plan started meanwhile is refused naming it.
      if (!held) hold = await holdForDeploy(transport, host.name, run, this.#holdRecord(`a deploy of ${manifest.name}`), manifest.name, (message) => this.#options.log.warn('templates', message), signal);
      active.run = run;
      this.#requireTools(host, facts);
      const verdict = judgeRequirements(requirementsFor(manifest, deployment.variant), facts, PORTABLE_NODE_MAJOR);
      if (verdict.missing.length > 0) {
        this.#update(active, { installOffers: verdict.missing.flatMap((item) => (item.install ? [item.install] : [])) });
        throw new ApiError('unavailable', describeMissing(host.name, verdict.missing));
      }
      const database = await planDatabase(manifest, deployment, host.name, transport, facts, signal);
      if (previous?.run && previous.deployment.state === 'ready') {
        // Ours as far as this Benchlab knows: stopped only if the run dir still holds it (the user asked).
        const there = await inspectRun(transport, previous.run, 0, signal);
        if (ownershipOf(there, previous.id, this.#liveAge).kind === 'ours') {
          this.#unfollow(previous);
          this.#options.takingDown?.({ hostId: host.id, port: previous.deployment.port, why: `taken down by this Benchlab to deploy ${manifest.name} in its place` });
          const stopped = await stopRun(transport, previous.run, previous.manifest.stop.signal, previous.manifest.stop.graceSeconds, previous.manifest.logs);
          this.#log(`${host.name}: stopped the running ${previous.manifest.name} (${stopped.how}) to deploy ${manifest.name} in its place, as asked`);
        }
      }
      await this.#clearTheWay(active, host, transport, run, signal, replace);

      step(1, 'building', manifest.build.length === 0 ? 'nothing to build' : null);
      const built =
        manifest.build.length === 0
          ? { dir: entry.dir, artifacts: [] }
          : await buildInWorkspace(entry.dir, manifest, this.#options.buildDir, {
              signal,
              onStep: (name) => this.#update(active, { step: { ...active.deployment.step!, detail: name, progress: null } }),
              onOutput: (line) => this.#log(`${host.name} build: ${line}`),
              onProgress: (text) => {
                this.#options.log.progress('templates', `${host.name} build: ${text}`);
                this.#update(active, { step: { ...active.deployment.step!, progress: text } });
              },
            });

      const bundled = manifest.components ? await readBuildComponents(join(built.dir, manifest.components), manifest.components) : {};
      const binaries = await databaseBinaries(database, () => this.#update(active, { step: { ...active.deployment.step!, detail: 'FerretDB (Go; built once, then cached)', progress: null } }));

      step(2, 'uploading');
      const placeholders = { ...verdict.placeholders };
      const uploadedRuntimes: Record<string, string> = {};
      if (verdict.provisionNode) {
        this.#update(active, { step: { ...active.deployment.step!, detail: `portable Node v${PORTABLE_NODE_MAJOR} (fetching once with npm pack)` } });
        const archive = await this.#cache.archive(verdict.provisionNode, signal);
        this.#update(active, { step: { ...active.deployment.step!, detail: `portable Node v${archive.version}` } });
        const provided = await ensurePortableNode(transport, root, archive, { signal });
        const needed = requirementsFor(manifest, deployment.variant).find((requirement) => requirement.runtime === 'node');
        const minimum = needed && 'minVersion' in needed ? needed.minVersion : PORTABLE_NODE_MAJOR;
        if (provided.uploaded) this.#log(`${host.name}: uploaded the portable Node v${archive.version} (the host has no Node >= ${minimum})`);
        placeholders.node = provided.node;
        uploadedRuntimes.node = archive.version;
      }
      const components = { ...runtimeVersions(placeholders, facts, uploadedRuntimes), ...bundled };
      if (Object.keys(components).length > 0) {
        this.#update(active, { components });
        this.#log(`${host.name}: ${manifest.name} runs with ${describeComponents(components)}`);
      }
      const dir = `${root}/templates/${manifest.id}`;
      const items: SyncItem[] = [
        ...manifest.files.map((name) => ({ name, source: join(entry.dir, name) })),
        ...built.artifacts.map((name) => ({ name, source: join(built.dir, name) })),
      ];
      if (manifest.payload) items.push({ name: manifest.payload, source: this.#paths.payloadFile });
      const synced = await syncFiles(transport, dir, items, {
        signal,
        onFile: (name, bytes, index, count) => this.#update(active, { step: { ...active.deployment.step!, detail: `${name} (${bytes} bytes, ${index + 1} of ${count})` } }),
      });
      await syncFiles(
        transport,
        `${root}/bin`,
        [{ name: 'supervise.sh', source: Buffer.from(SUPERVISOR_SCRIPT), mode: 0o755 }, ...binaries],
        {
          signal,
          onFile: (name, bytes) => this.#update(active, { step: { ...active.deployment.step!, detail: `${name} (${bytes} bytes)` } }),
        },
      );
      this.#log(`${host.name}: ${synced.uploaded.length > 0 ? `uploaded ${synced.uploaded.join(', ')} (${synced.bytes} bytes)` : 'files unchanged, nothing uploaded'}`);

      step(3, 'starting');
      // From here on the host holds something to clean if the deploy fails: the database, then the server.
      startedServer = true;
      let databaseUrl: string | null = null;
      if (database) {
        const started = await startDatabase(
          database,
          transport,
          { root, run, asRoot: facts.uid === 0 },
          (stage) => this.#update(active, { step: { ...active.deployment.step!, detail: stage } }),
          signal,
        );
        databaseUrl = started.url;
        this.#update(active, { database: started.facts, step: { ...active.deployment.step!, detail: null } });
        this.#log(`${host.name}: private ${started.title} ready on 127.0.0.1:${started.facts.port} (${describeSettings(started.facts.settings)})`);
      }
      const argv = renderStartArgv(manifest, { settings: deployment, dir, run, runtimes: placeholders, databaseUrl });
      const record: RecordedDeployment = {
        id: active.id,
        templateId: manifest.id,
        templateName: manifest.name,
        variant: deployment.variant,
        port: deployment.port,
        stopSignal: manifest.stop.signal,
        graceSeconds: manifest.stop.graceSeconds,
        logs: manifest.logs,
        ...(active.deployment.database ? { database: active.deployment.database } : {}),
        ...(this.#options.holder ? { holder: this.#options.holder } : {}),
      };
      await startSupervised(
        transport,
        {
          paths: { root, run },
          deploymentJson: JSON.stringify(record),
          commandLine: toCommandLine(argv, serverEnvironment(manifest, databaseUrl)),
          logs: manifest.logs,
          maxHeartbeatAgeSeconds: this.#options.maxHeartbeatAgeSeconds ?? 60,
          stopSignal: manifest.stop.signal,
          graceSeconds: manifest.stop.graceSeconds,
        },
        signal,
      );
      this.#follow(active, host, transport, true);

      step(4, 'starting', `GET ${manifest.readiness.path} within ${manifest.readiness.timeoutSeconds} s`);
      const readiness = await waitReady(
        transport,
        { run, port: deployment.port, path: manifest.readiness.path, timeoutSeconds: manifest.readiness.timeoutSeconds, node: placeholders.node ?? null },
        signal,
      );
      if (readiness.outcome === 'dead') {
        throw new ApiError('unavailable', `${manifest.name} exited${readiness.exitCode === '?' ? '' : ` with code ${readiness.exitCode}`} before it answered GET ${manifest.readiness.path}`);
      }
      if (readiness.outcome === 'timeout') {
        const status = /^[1-9]\d\d$/.test(readiness.lastStatus) ? `it last answered ${readiness.lastStatus}` : 'it never answered';
        throw new ApiError('timeout', `${manifest.name} did not answer GET ${manifest.readiness.path} with 200 within ${manifest.readiness.timeoutSeconds} s (${status})`);
      }
      const readyMs = Date.now() - started;
      this.#update(active, { state: 'ready', step: null, message: null, url: urlOf(host, deployment.port), readyMs });
      this.#log(`${host.name}: ${manifest.name} (${deployment.variant}) is ready at ${urlOf(host, deployment.port)} after ${(readyMs / 1000).toFixed(2)} s`);
      return active.deployment;
    } catch (error) {
      throw await this.#fail(active, host, transport, error, startedServer);
    } finally {
      active.controller = null;
      await hold?.release();
    }
  }

  #requireTools(host: Host, facts: HostFacts): void {
    const missing = [
      ...(facts.tools.has('setsid') ? [] : ['setsid (util-linux)']),
      ...(facts.tools.has('awk') ? [] : ['awk']),
    ];
    if (missing.length > 0) throw new ApiError('unavailable', `${host.name} is missing ${missing.join(' and ')}, which Benchlab needs to supervise a server`);
  }

  /**
   * Stops a stale leftover on this host, refuses a server another Benchlab holds (unless the user
   * named that very deployment to replace), and checks the port.
   */
  async #clearTheWay(active: Active, host: Host, transport: HostTransport, run: string, signal: AbortSignal, replace: string | null): Promise<void> {
    let inspection = await inspectRun(transport, run, active.deployment.port, signal);
    if (inspection.present) {
      const recorded = inspection.deployment;
      const owner = ownershipOf(inspection, null, this.#liveAge);
      const named = owner.kind === 'other' && replace !== null && recorded?.id === replace;
      if (owner.kind === 'other' && !named) {
        const loads = this.#loadsOn(active.deployment.hostId, recorded?.port ?? null);
        throw new ApiError('conflict', heldElsewhere(host.name, owner, loads, `not replaced by ${active.manifest.name}`, this.#options.frontDoor));
      }
      if (inspection.alive && recorded?.port) this.#options.takingDown?.({ hostId: host.id, port: recorded.port, why: `taken down by this Benchlab to deploy ${active.manifest.name} in its place` });
      const stopped = await stopRun(transport, run, recorded?.stopSignal ?? 'TERM', recorded?.graceSeconds ?? 5, recorded?.logs ?? []);
      if (named) this.#log(`${host.name}: stopped ${describeServer(recorded)} (${stopped.how}), ${describeHolder(recorded?.holder, null)}, to deploy ${active.manifest.name} in its place, as asked`);
      else if (inspection.alive) this.#log(`${host.name}: stopped a leftover ${recorded?.templateName ?? 'server'} (${stopped.how}) before deploying`);
      inspection = await inspectRun(transport, run, active.deployment.port, signal);
    }
    if (inspection.portInUse) {
      throw new ApiError('conflict', `port ${active.deployment.port} is already in use on ${host.name}: another program listens there. Choose another port or stop that program.`);
    }
  }

  /** Streams the server's logs and beats its heartbeat; notices when it ends on its own. */
  #follow(active: Active, host: Host, transport: HostTransport, fromStart: boolean): void {
    this.#unfollow(active);
    const run = active.run!;
    const stream = new ServerLogStream((line) => this.#log(`${host.name} ${active.manifest.id}: ${line}`));
    const watch = {};
    active.logStream = stream;
    active.watch = watch;
    watchLogs(transport, run, active.manifest.logs, { fromStart, onOutput: (chunk) => stream.push(chunk) }).then(
      () => {
        stream.flush();
        if (active.watch === watch) this.#followUp(this.#ended(active, host, transport));
      },
      () => stream.flush(), // the connection dropped: a reconnect resumes
    );
    const interval = this.#options.heartbeatIntervalMs ?? 5000;
    active.heartbeat = setInterval(() => {
      beat(transport, run, active.id).then(
        (state) => {
          if (state !== 'alive' && active.watch === watch) this.#followUp(this.#ended(active, host, transport));
        },
        () => undefined, // the connection is down; the supervisor waits for us up to its limit
      );
    }, interval);
    active.heartbeat.unref?.();
  }

  #unfollow(active: Active): void {
    active.watch = null;
    if (active.heartbeat) clearInterval(active.heartbeat);
    active.heartbeat = null;
  }

  /** The server's group ended without Benchlab stopping it: report it with its log, clean the run dir. */
  async #ended(active: Active, host: Host, transport: HostTransport): Promise<void> {
    if (active.stopping || active.deployment.state !== 'ready' || this.#active.get(active.deployment.hostId) !== active) return;
    active.stopping = true;
    this.#unfollow(active);
    let tail = active.logStream?.tail() ?? [];
    let replacedBy: RecordedDeployment | null = null;
    try {
      // Another Benchlab's deployment in its place is theirs now: named, never stopped from here.
      const there = await inspectRun(transport, active.run!, 0);
      if (there.deployment && there.deployment.id !== active.id) replacedBy = there.deployment;
      else {
        const stopped = await stopRun(transport, active.run!, active.manifest.stop.signal, active.manifest.stop.graceSeconds, active.manifest.logs);
        if (stopped.logTail.length > 0) tail = stopped.logTail;
      }
    } catch {
      // the host is unreachable; the next connect cleans up
    }
    const message = replacedBy
      ? `${active.manifest.name} on ${host.name} was replaced by ${describeServer(replacedBy)}, ${describeHolder(replacedBy.holder, null)}; this Benchlab was not asked.`
      : `${active.manifest.name} stopped running on ${host.name} without being asked to.`;
    this.#update(active, { state: 'failed', step: null, message, logTail: tail });
    this.#options.log.error('templates', `${message}${tailText(tail)}`);
    active.stopping = false;
  }

  async #fail(active: Active, host: Host, transport: HostTransport, error: unknown, startedServer: boolean): Promise<ApiError> {
    this.#unfollow(active);
    const cancelled = active.controller?.signal.aborted === true || (error instanceof ApiError && error.code === 'cancelled');
    let tail = active.logStream?.tail() ?? [];
    let cleaned = true;
    if (startedServer && active.run) {
      try {
        const stopped = await stopRun(transport, active.run, active.manifest.stop.signal, active.manifest.stop.graceSeconds, active.manifest.logs);
        if (stopped.logTail.length > 0) tail = stopped.logTail;
      } catch {
        cleaned = false;
      }
    }
    const step = active.deployment.step?.label.toLowerCase() ?? 'deploy';
    if (cancelled) {
      const message = `Cancelled during "${step}"; ${startedServer ? (cleaned ? 'the server was stopped and the host cleaned' : 'the host could not be cleaned now: it will be on the next connect') : 'nothing was started on the host'}.`;
      this.#update(active, { state: 'stopped', step: null, message, logTail: tail });
      this.#log(`${host.name}: ${message}`);
      return new ApiError('cancelled', message);
    }
    const said = error instanceof Error ? error.message : String(error);
    const reason = /[.!?]$/.test(said) ? said : `${said}.`;
    const after = startedServer ? (cleaned ? ' The server was stopped and the host cleaned.' : ' The host could not be cleaned now: it will be on the next connect.') : '';
    const message = `Deploying ${active.manifest.name} to ${host.name} failed at "${step}": ${reason}${after}`;
    this.#update(active, { state: 'failed', step: null, message, logTail: startedServer ? tail : [] });
    this.#options.log.error('templates', `${message}${startedServer ? tailText(tail) : ''}`);
    const code = error instanceof ApiError ? error.code : 'internal';
    return new ApiError(code, `${message}${startedServer ? tailText(tail) : ''}`, startedServer ? { logTail: tail.join('\n') } : undefined);
  }

  cancel(hostId: number): { cancelled: boolean } {
    const active = this.#active.get(hostId);
    if (!active?.controller || active.controller.signal.aborted) return { cancelled: false };
    active.controller.abort();
    this.#log(`${active.deployment.hostName}: cancelling the deploy of ${active.manifest.name}`);
    return { cancelled: true };
  }

  /** The server running on the host that a deploy would have to take down: ours, or one another Benchlab drives. */
  async occupant(hostId: number): Promise<ServerOccupant | null> {
    const active = this.#active.get(hostId);
    if (active && (active.deployment.state === 'ready' || BUSY_STATES.has(active.deployment.state))) {
      const { deployment } = active;
      return {
        templateName: deployment.templateName,
        variant: deployment.variant,
        port: deployment.port,
        startedBy: 'this',
        state: deployment.state,
        heartbeatAgeSeconds: null,
        deploymentId: active.id,
        holder: this.#options.holder ?? null,
        runs: this.#loadsOn(hostId, deployment.port),
      };
    }
    const transport = this.#options.connections.transportFor(hostId);
    const inspection = await inspectRun(transport, await this.#runDir(transport), 0);
    const owner = ownershipOf(inspection, null, this.#liveAge);
    if (owner.kind !== 'other') return null;
    const recorded = owner.recorded;
    return {
      templateName: recorded?.templateName ?? 'a server',
      variant: recorded?.variant ?? null,
      port: recorded?.port ?? null,
      startedBy: 'other',
      state: 'ready',
      heartbeatAgeSeconds: owner.heartbeatAgeSeconds,
      deploymentId: recorded?.id ?? null,
      holder: recorded?.holder ?? null,
      runs: this.#loadsOn(hostId, recorded?.port ?? null),
    };
  }

  /** What Benchlab runs on the host now, read there (not from memory), in words: said when a run's server changed. */
  async serverNow(hostId: number): Promise<string> {
    const host = this.#options.hosts.get(hostId);
    const transport = this.#options.connections.transportFor(hostId);
    const inspection = await inspectRun(transport, await this.#runDir(transport), 0);
    const recorded = inspection.deployment;
    if (!inspection.alive || !recorded) return `nothing of Benchlab's runs on ${host.name} now`;
    const ours = this.#active.get(hostId)?.id === recorded.id;
    return `${host.name} now runs ${describeServer(recorded)}, ${ours ? 'deployed from this Benchlab' : describeHolder(recorded.holder, inspection.heartbeatAgeSeconds)}`;
  }

  /**
   * Stops what runs on the host: our deployment, or whatever an earlier session left there. A server
   * another live Benchlab holds is refused, unless `deploymentId` names it (the user confirmed).
   */
  async stop(hostId: number, options: { deploymentId?: string | undefined } = {}): Promise<Deployment> {
    const current = this.#active.get(hostId);
    if (current?.controller) {
      current.controller.abort();
      await current.settled;
      return current.deployment;
    }
    const host = this.#options.hosts.get(hostId);
    const transport = this.#options.connections.transportFor(hostId);
    const run = current?.run ?? (await this.#runDir(transport));
    const inspection = await inspectRun(transport, run, 0);
    const recorded = inspection.deployment;
    const owner = ownershipOf(inspection, current?.id ?? null, this.#liveAge);
    if (owner.kind === 'other' && (options.deploymentId === undefined || options.deploymentId !== recorded?.id)) {
      throw new ApiError('conflict', heldElsewhere(host.name, owner, this.#loadsOn(hostId, recorded?.port ?? null), 'not stopped', this.#options.frontDoor));
    }
    // Our card follows the stop only while the run dir holds our server (or nothing any more).
    const active = owner.kind === 'ours' || owner.kind === 'none' ? current : undefined;
    if (owner.kind === 'other') this.#log(`${host.name}: stopping ${describeServer(recorded)}, ${describeHolder(recorded?.holder, owner.heartbeatAgeSeconds)}, as asked`);
    if (active) {
      active.stopping = true;
      this.#unfollow(active);
      this.#update(active, { state: 'stopping', step: null, message: null });
    }
    const port = active?.deployment.port ?? recorded?.port;
    if (inspection.alive && port) this.#options.takingDown?.({ hostId, port, why: 'stopped by this Benchlab' });
    try {
      const stopped = await stopRun(
        transport,
        run,
        active?.manifest.stop.signal ?? recorded?.stopSignal ?? 'TERM',
        active?.manifest.stop.graceSeconds ?? recorded?.graceSeconds ?? 5,
        active?.manifest.logs ?? recorded?.logs ?? [],
      );
      const what = active?.manifest.name ?? recorded?.templateName ?? 'the server';
      const message = stopped.how === 'none' ? `${what} was not running; the host is clean.` : `Stopped ${what} (${stopped.how === 'graceful' ? 'gracefully' : 'killed after the grace period'}); the host is clean.`;
      this.#log(`${host.name}: ${message}`);
      if (active) {
        this.#update(active, { state: 'stopped', step: null, message, url: null, logTail: [] });
        return active.deployment;
      }
      const leftover: Deployment = {
        hostId,
        hostName: host.name,
        templateId: recorded?.templateId ?? 'unknown',
        templateName: recorded?.templateName ?? 'unknown',
        variant: recorded?.variant ?? '',
        knobs: {},
        port: recorded?.port ?? 0,
        state: 'stopped',
        step: null,
        message,
        logTail: [],
        url: null,
        installOffers: [],
        startedAt: null,
        readyMs: null,
        database: null,
        updatedAt: new Date().toISOString(),
      };
      this.#options.bus.publish('templates.progress', leftover);
      return leftover;
    } finally {
      if (active) active.stopping = false;
    }
  }

  /**
   * Holds the host for a plan of this Benchlab until released: another plan (any process, any machine)
   * is refused meanwhile, naming this one. Refused with the holder's name when another holds it.
   */
  async hold(hostId: number, what: string): Promise<HostHold> {
    const host = this.#options.hosts.get(hostId);
    const transport = this.#options.connections.transportFor(hostId);
    const held = await holdHost(transport, host.name, await this.#runDir(transport), this.#holdRecord(what));
    if (held.unheld) this.#options.log.warn('templates', held.unheld);
    this.#planHolds.set(hostId, what);
    return {
      release: async () => {
        if (this.#planHolds.get(hostId) === what) this.#planHolds.delete(hostId);
        await held.release();
      },
    };
  }

  #holdRecord(what: string): { what: string; holder: string | null; since: string } {
    return { what, holder: this.#options.holder ?? null, since: new Date().toISOString() };
  }

  /** Installs a runtime with the host's package manager, as root (the user asked for it). */
  async install(hostId: number, runtime: RuntimeName): Promise<{ command: string; output: string }> {
    const host = this.#options.hosts.get(hostId);
    const transport = this.#options.connections.transportFor(hostId);
    const facts = await probeHost(transport, this.#options.runtimePath);
    const offers = this.#active.get(hostId)?.deployment.installOffers ?? [];
    const installed = await installRuntime(transport, {
      hostName: host.name,
      runtime,
      packageManager: facts.packageManager,
      offers,
      sudoPassword: this.#options.connections.sudoPasswordFor(hostId),
      log: (message) => this.#log(message),
    });
    const active = this.#active.get(hostId);
    if (active) this.#update(active, { installOffers: active.deployment.installOffers.filter((offer) => offer.runtime !== runtime) });
    return installed;
  }

  /** A host (re)connected: resume following our server, or clean what an earlier session left. */
  async #onConnected(hostId: number): Promise<void> {
    const active = this.#active.get(hostId);
    if (active?.controller) return; // a deploy is in progress on this very connection
    let host: Host;
    let transport: HostTransport;
    try {
      host = this.#options.hosts.get(hostId);
      transport = this.#options.connections.transportFor(hostId);
    } catch {
      return;
    }
    if (active?.deployment.state === 'ready' && active.run) {
      const inspection = await inspectRun(transport, active.run, 0);
      if (inspection.alive && inspection.deployment?.id === active.id) {
        this.#follow(active, host, transport, false);
        this.#log(`${host.name}: reconnected; ${active.manifest.name} is still running`);
        return;
      }
      await this.#ended(active, host, transport);
      return;
    }
    const run = await this.#runDir(transport);
    const inspection = await inspectRun(transport, run, 0);
    if (!inspection.present) return;
    const recorded = inspection.deployment;
    const name = recorded?.templateName ?? 'a server';
    if (inspection.alive && inspection.heartbeatAgeSeconds !== null && inspection.heartbeatAgeSeconds < this.#liveAge) {
      this.#options.log.warn('templates', `${host.name}: ${name} runs there for another Benchlab session (heartbeat ${inspection.heartbeatAgeSeconds} s ago); left alone`);
      return;
    }
    const stopped = await stopRun(transport, run, recorded?.stopSignal ?? 'TERM', recorded?.graceSeconds ?? 5, recorded?.logs ?? []);
    this.#options.log.warn(
      'templates',
      stopped.how === 'none'
        ? `${host.name}: removed the files of ${name} an earlier session left (it was no longer running)`
        : `${host.name}: found ${name} left running by an earlier session; stopped it (${stopped.how}) and cleaned up`,
    );
  }

  /** Benchlab's run dir on the host, where its one server's files and pids are. */
  async #runDir(transport: HostTransport): Promise<string> {
    const facts = await probeHost(transport, this.#options.runtimePath);
    return `${this.#options.remoteRoot ?? benchlabRoot(facts)}/run/${safeName(facts.hostname)}`;
  }

  /** The sessions loading the server on this host's port, by name (none known without a port). */
  #loadsOn(hostId: number, port: number | null): string[] {
    if (port === null || !this.#options.loadsOn) return [];
    try {
      const host = this.#options.hosts.get(hostId);
      return this.#options.loadsOn({ hostId, address: host.kind === 'local' ? '127.0.0.1' : host.address, port });
    } catch {
      return [];
    }
  }

  async #entry(templateId: string): Promise<CatalogEntry> {
    const catalog = await loadCatalog(this.#paths.templatesDir);
    const entry = catalog.entries.find((candidate) => candidate.manifest.id === templateId);
    if (entry) return entry;
    const broken = catalog.broken.find((candidate) => candidate.folder === templateId);
    if (broken) throw new ApiError('invalid_args', `template "${templateId}" cannot be used: ${broken.error}`);
    throw new ApiError('not_found', `there is no template "${templateId}"`);
  }

  #update(active: Active, change: Partial<Deployment>): void {
    active.deployment = { ...active.deployment, ...change, updatedAt: new Date().toISOString() };
    if (this.#active.get(active.deployment.hostId) === active) this.#options.bus.publish('templates.progress', active.deployment);
  }

  #log(message: string): void {
    this.#options.log.info('templates', message);
  }

  #followUp(work: Promise<void>): void {
    this.#followUps.add(work);
    const forget = () => this.#followUps.delete(work);
    work.then(forget, forget);
  }

  #refuseWhileClosing(): void {
    if (this.#closing) throw new ApiError('unavailable', 'Benchlab is shutting down: start it again to deploy');
  }

  /**
   * Shutdown: no deploy starts any more, those in progress are cancelled (a server they started is
   * stopped). Resolves once they have ended and no follow-up of a server's end is still running.
   */
  async shutdown(): Promise<void> {
    this.#closing = true;
    for (const [hostId, active] of this.#active) if (active.controller) this.cancel(hostId);
    await Promise.all([...[...this.#active.values()].map((active) => active.settled), ...this.#followUps]);
  }

  /** Stops following (the supervisors stop their servers once the heartbeat is missed). */
  close(): void {
    if (this.#ownsConnectChecks) this.#connectChecks.close();
    for (const active of this.#active.values()) {
      active.controller?.abort();
      this.#unfollow(active);
    }
  }
}

/**
 * The service as the app runs it: portable Node cached under the data dir, templates from the
 * bundled folder or from BENCHLAB_TEMPLATES_DIR (your own templates, with the bundled payload).
 */
export function templateServiceFromEnv(
  options: Pick<TemplateServiceOptions, 'bus' | 'log' | 'hosts' | 'connections' | 'connectChecks' | 'holder' | 'loadsOn' | 'takingDown' | 'frontDoor'> & { dataDir: string },
): TemplateService {
  return new TemplateService({
    ...options,
    cacheDir: join(options.dataDir, 'cache', 'portable-node'),
    buildDir: join(options.dataDir, 'cache', 'template-builds'),
    paths: templatePathsFromEnv(),
  });
}

function isConnected(connections: TemplateServiceOptions['connections'], hostId: number): boolean {
  try {
    connections.transportFor(hostId);
    return true;
  } catch {
    return false;
  }
}
