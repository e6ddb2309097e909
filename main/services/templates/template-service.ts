// Deployments of server templates, one per host, as the app and the CLI ask for them: the catalog,
// a deploy's admission (busy, held by a plan, replacing a ready server only on the user's word),
// cancel, stop, plan holds, runtime installs and shutdown. The work lives beside it: the named
// deploy steps (deploy-steps.ts, run by deploy-pipeline.ts), following a running server
// (server-watch.ts), the server a host's run dir holds (host-server.ts), the shared state and its one
// publish of `templates.progress` (deployment-book.ts).

import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { ApiError, messageOf } from '../../../app/common/errors.ts';
import type { Deployment, ServerOccupant, TemplateCatalog } from '../../../app/templates/templates-contract.ts';
import { resolveDeploySettings, type DeployChoice, type RuntimeName } from '../../../app/templates/templates.ts';
import { describeLoads, describeServer } from '../../../app/templates/server-words.ts';
import { ConnectChecks } from '../hosts/connect-checks.ts';
import { bundledPaths, loadCatalog, templatePathsFromEnv, type BundledPaths, type CatalogEntry } from './catalog.ts';
import { BUSY_STATES, DeploymentBook, type Active, type TemplateServiceOptions } from './deployment-book.ts';
import { runDeploy } from './deploy-pipeline.ts';
import { occupantOf, onConnected, serverNowOn, stopServer } from './host-server.ts';
import { installRuntime } from './runtime-install.ts';
import { PortableNodeCache } from './portable-node.ts';
import { probeHost } from './remote-server.ts';
import { heldByOwnPlan, holdHost, type HostHold } from './server-hold.ts';
import { unfollow } from './server-watch.ts';

export type { TemplateServiceOptions } from './deployment-book.ts';

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

export class TemplateService {
  readonly #options: TemplateServiceOptions;
  readonly #paths: BundledPaths;
  readonly #cache: PortableNodeCache;
  readonly #book: DeploymentBook;
  /** The check every connect runs: a deploy waits for it, so it never races a leftover's cleanup. */
  readonly #connectChecks: ConnectChecks;
  readonly #ownsConnectChecks: boolean;
  /** Set once shutdown has begun: no deploy starts any more. */
  #closing = false;
  /** The hosts this Benchlab's plans hold now, with what holds them (`plan "Overnight"`). */
  readonly #planHolds = new Map<number, string>();

  constructor(options: TemplateServiceOptions) {
    this.#options = options;
    this.#paths = options.paths ?? bundledPaths();
    this.#cache = new PortableNodeCache(options.cacheDir);
    this.#book = new DeploymentBook(options);
    this.#ownsConnectChecks = !options.connectChecks;
    this.#connectChecks = options.connectChecks ?? new ConnectChecks({ ...options, isConnected: (hostId) => isConnected(options.connections, hostId) });
    this.#connectChecks.register({ owner: 'templates', what: 'servers left by an earlier session', run: (hostId) => onConnected(this.#book, hostId) });
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
    return this.#book.all().map((active) => active.deployment);
  }

  async deploy(hostId: number, templateId: string, choice: DeployChoice, options: DeployOptions = {}): Promise<Deployment> {
    this.#refuseWhileClosing();
    const current = this.#book.get(hostId);
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
        `${deployment.hostName} runs ${describeServer(deployment)}, deployed from this Benchlab${describeLoads(this.#book.loadsOn(hostId, deployment.port))}: deploying ${entry.manifest.name} would replace it. Confirm the replace, or stop it first.`,
      );
    }
    const resolved = resolveDeploySettings(entry.manifest, choice);
    if (!resolved.ok) throw new ApiError('invalid_args', `${entry.manifest.name}: ${resolved.errors.join('; ')}`);
    const host = this.#options.hosts.get(hostId);
    const transport = this.#options.connections.transportFor(hostId);
    const { settings } = resolved;

    await this.#connectChecks.settled(hostId);
    this.#refuseWhileClosing();
    const again = this.#book.get(hostId);
    if (again !== current) throw new ApiError('conflict', `${host.name} changed while this deploy waited; try again`);
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
    this.#book.set(active);
    const work = runDeploy({
      book: this.#book,
      active,
      entry,
      host,
      transport,
      signal: active.controller!.signal,
      cache: this.#cache,
      paths: this.#paths,
      previous: current,
      replace: typeof options.replace === 'string' ? options.replace : null,
      held: options.held === true,
      hold: null,
      startedServer: false,
    });
    active.settled = work.catch(() => undefined);
    return work;
  }

  cancel(hostId: number): { cancelled: boolean } {
    const active = this.#book.get(hostId);
    if (!active?.controller || active.controller.signal.aborted) return { cancelled: false };
    active.controller.abort();
    this.#book.log(`${active.deployment.hostName}: cancelling the deploy of ${active.manifest.name}`);
    return { cancelled: true };
  }

  /** The server running on the host that a deploy would have to take down: ours, or one another Benchlab drives. */
  occupant(hostId: number): Promise<ServerOccupant | null> {
    return occupantOf(this.#book, hostId, this.#planHolds.get(hostId) ?? null);
  }

  /** What Benchlab runs on the host now, read there (not from memory), in words: said when a run's server changed. */
  serverNow(hostId: number): Promise<string> {
    return serverNowOn(this.#book, hostId);
  }

  /**
   * Stops what runs on the host: our deployment, or whatever an earlier session left there. A server
   * another live Benchlab holds is refused, unless `deploymentId` names it (the user confirmed).
   */
  stop(hostId: number, options: { deploymentId?: string | undefined } = {}): Promise<Deployment> {
    return stopServer(this.#book, hostId, options);
  }

  /**
   * Holds the host for a plan of this Benchlab until released: another plan (any process, any machine)
   * is refused meanwhile, naming this one. Refused with the holder's name when another holds it.
   */
  async hold(hostId: number, what: string): Promise<HostHold> {
    const host = this.#options.hosts.get(hostId);
    const transport = this.#options.connections.transportFor(hostId);
    const held = await holdHost(transport, host.name, await this.#book.runDir(transport), this.#book.holdRecord(what));
    if (held.unheld) this.#options.log.warn('templates', held.unheld);
    this.#planHolds.set(hostId, what);
    return {
      release: async () => {
        if (this.#planHolds.get(hostId) === what) this.#planHolds.delete(hostId);
        await held.release();
      },
    };
  }

  /** Installs a runtime with the host's package manager, as root (the user asked for it). */
  async install(hostId: number, runtime: RuntimeName): Promise<{ command: string; output: string }> {
    const host = this.#options.hosts.get(hostId);
    const transport = this.#options.connections.transportFor(hostId);
    const facts = await probeHost(transport, this.#options.runtimePath);
    const offers = this.#book.get(hostId)?.deployment.installOffers ?? [];
    const installed = await installRuntime(transport, {
      hostName: host.name,
      runtime,
      packageManager: facts.packageManager,
      offers,
      sudoPassword: this.#options.connections.sudoPasswordFor(hostId),
      log: (message) => this.#book.log(message),
    });
    const active = this.#book.get(hostId);
    if (active) this.#book.update(active, { installOffers: active.deployment.installOffers.filter((offer) => offer.runtime !== runtime) });
    return installed;
  }

  async #entry(templateId: string): Promise<CatalogEntry> {
    const catalog = await loadCatalog(this.#paths.templatesDir);
    const entry = catalog.entries.find((candidate) => candidate.manifest.id === templateId);
    if (entry) return entry;
    const broken = catalog.broken.find((candidate) => candidate.folder === templateId);
    if (broken) throw new ApiError('invalid_args', `template "${templateId}" cannot be used: ${broken.error}`);
    throw new ApiError('not_found', `there is no template "${templateId}"`);
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
    for (const active of this.#book.all()) if (active.controller) this.cancel(active.deployment.hostId);
    await this.#book.quiet();
  }

  /** Stops following (the supervisors stop their servers once the heartbeat is missed). */
  close(): void {
    if (this.#ownsConnectChecks) this.#connectChecks.close();
    for (const active of this.#book.all()) {
      active.controller?.abort();
      unfollow(active);
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
