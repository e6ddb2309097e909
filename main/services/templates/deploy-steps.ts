// The deploy's named steps, one function each, in the order DEPLOY_STEPS shows them: check the host
// (and clear the way), build on this machine, upload what changed, start under the supervisor, wait
// for readiness. Each enters its step (one `templates.progress`) and hands the next what it found.

import { join } from 'node:path';
import type { Host } from '../../../app/hosts/hosts.ts';
import { ApiError } from '../../../app/common/errors.ts';
import { benchlabRoot, describeMissing, judgeRequirements, type HostFacts } from '../../../app/templates/template-hosts.ts';
import { DEPLOY_STEPS, type Deployment } from '../../../app/templates/templates-contract.ts';
import { renderStartArgv, requirementsFor, serverEnvironment, toCommandLine } from '../../../app/templates/templates.ts';
import { describeHolder, describeServer } from '../../../app/templates/server-words.ts';
import type { HostTransport } from '../hosts/host-transport.ts';
import type { BundledPaths, CatalogEntry } from './catalog.ts';
import { runDirOf, type Active, type DeploymentBook } from './deployment-book.ts';
import { syncFiles, type SyncItem } from './file-sync.ts';
import { SUPERVISOR_SCRIPT } from './host-scripts.ts';
import { buildInWorkspace } from './build-workspace.ts';
import { describeComponents, readBuildComponents, runtimeVersions } from './build-components.ts';
import { databaseBinaries, planDatabase, startDatabase } from './private-database.ts';
import { ensurePortableNode, PORTABLE_NODE_MAJOR, type PortableNodeCache } from './portable-node.ts';
import { inspectRun, probeHost, startSupervised, stopRun, waitReady, type RecordedDeployment } from './remote-server.ts';
import { heldElsewhere, ownershipOf } from './server-owner.ts';
import { withRuntimeMonitors } from '../../../app/runs/runtime-monitors.ts';
import { holdForDeploy, type HostHold } from './server-hold.ts';
import { follow, unfollow } from './server-watch.ts';

/** One deploy in progress: what every step reads, and what must be undone if it fails. */
export interface DeployRun {
  book: DeploymentBook;
  active: Active;
  entry: CatalogEntry;
  host: Host;
  transport: HostTransport;
  signal: AbortSignal;
  cache: PortableNodeCache;
  paths: BundledPaths;
  /** What the host ran before, as this Benchlab knows it. */
  previous: Active | undefined;
  /** The deployment of another Benchlab the user named to replace. */
  replace: string | null;
  /** The caller (a plan) holds the host; otherwise the deploy holds it itself while it runs. */
  held: boolean;
  hold: HostHold | null;
  /** From the start step on the host holds something to clean if the deploy fails. */
  startedServer: boolean;
}

type StepId = (typeof DEPLOY_STEPS)[number]['id'];
type Database = Awaited<ReturnType<typeof planDatabase>>;
type Verdict = ReturnType<typeof judgeRequirements>;

/** What the check step found: the host, where Benchlab's files go there, and what the server needs. */
export interface Checked {
  facts: HostFacts;
  root: string;
  run: string;
  verdict: Verdict;
  database: Database;
}

export interface Built {
  dir: string;
  artifacts: string[];
  bundled: Record<string, string>;
  binaries: Awaited<ReturnType<typeof databaseBinaries>>;
}

export interface Uploaded {
  /** The template's folder on the host. */
  dir: string;
  /** The runtimes the start line names (a portable Node uploaded here among them). */
  runtimes: Verdict['placeholders'];
  /** Their versions, where known (an uploaded Node's from its package). */
  versions: Record<string, string>;
}

function enter(deploy: DeployRun, id: StepId, state: Deployment['state'], detail: string | null = null): void {
  const index = DEPLOY_STEPS.findIndex((step) => step.id === id);
  const named = DEPLOY_STEPS[index]!;
  deploy.book.update(deploy.active, { state, step: { id: named.id, label: named.label, index: index + 1, total: DEPLOY_STEPS.length, detail, progress: null } });
}

function describeSettings(settings: Record<string, string>): string {
  return Object.entries(settings)
    .map(([name, value]) => `${name} ${value}`)
    .join(', ');
}

function urlOf(host: Host, port: number): string {
  const address = host.kind === 'local' ? '127.0.0.1' : host.address;
  return `http://${address.includes(':') && !address.startsWith('[') ? `[${address}]` : address}:${port}/`;
}

/** Check: the host's facts and tools, its hold, the runtimes and database the server needs, a clear run dir and port. */
export async function checkHost(deploy: DeployRun): Promise<Checked> {
  const { book, active, host, transport, signal } = deploy;
  const { manifest, deployment } = active;
  enter(deploy, 'check', 'checking');
  const facts = await probeHost(transport, book.options.runtimePath, signal);
  const root = book.options.remoteRoot ?? benchlabRoot(facts);
  const run = runDirOf(root, facts.hostname);
  // Not a plan's deploy: it holds the host until it has ended, so a plan holding it refuses it
  // (named) before anything is touched, and a plan started meanwhile is refused naming it.
  if (!deploy.held) deploy.hold = await holdForDeploy(transport, host.name, run, book.holdRecord(`a deploy of ${manifest.name}`), manifest.name, (message) => book.options.log.warn('templates', message), signal);
  active.run = run;
  requireTools(host, facts);
  const verdict = judgeRequirements(requirementsFor(manifest, deployment.variant), facts, PORTABLE_NODE_MAJOR);
  if (verdict.missing.length > 0) {
    book.update(active, { installOffers: verdict.missing.flatMap((item) => (item.install ? [item.install] : [])) });
    throw new ApiError('unavailable', describeMissing(host.name, verdict.missing));
  }
  const database = await planDatabase(manifest, deployment, host.name, transport, facts, signal);
  const { previous } = deploy;
  if (previous?.run && previous.deployment.state === 'ready') {
    // Ours as far as this Benchlab knows: stopped only if the run dir still holds it (the user asked).
    const there = await inspectRun(transport, previous.run, 0, signal);
    if (ownershipOf(there, previous.id, book.liveAge).kind === 'ours') {
      unfollow(previous);
      book.options.takingDown?.({ hostId: host.id, port: previous.deployment.port, why: `taken down by this Benchlab to deploy ${manifest.name} in its place` });
      const stopped = await stopRun(transport, previous.run, previous.manifest.stop.signal, previous.manifest.stop.graceSeconds, previous.manifest.logs);
      book.log(`${host.name}: stopped the running ${previous.manifest.name} (${stopped.how}) to deploy ${manifest.name} in its place, as asked`);
    }
  }
  await clearTheWay(deploy, run);
  return { facts, root, run, verdict, database };
}

function requireTools(host: Host, facts: HostFacts): void {
  const missing = [...(facts.tools.has('setsid') ? [] : ['setsid (util-linux)']), ...(facts.tools.has('awk') ? [] : ['awk'])];
  if (missing.length > 0) throw new ApiError('unavailable', `${host.name} is missing ${missing.join(' and ')}, which Benchlab needs to supervise a server`);
}

/**
 * Stops a stale leftover on this host, refuses a server another Benchlab holds (unless the user
 * named that very deployment to replace), and checks the port.
 */
async function clearTheWay(deploy: DeployRun, run: string): Promise<void> {
  const { book, active, host, transport, signal, replace } = deploy;
  let inspection = await inspectRun(transport, run, active.deployment.port, signal);
  if (inspection.present) {
    const recorded = inspection.deployment;
    const owner = ownershipOf(inspection, null, book.liveAge);
    const named = owner.kind === 'other' && replace !== null && recorded?.id === replace;
    if (owner.kind === 'other' && !named) {
      const loads = book.loadsOn(active.deployment.hostId, recorded?.port ?? null);
      throw new ApiError('conflict', heldElsewhere(host.name, owner, loads, `not replaced by ${active.manifest.name}`, book.options.frontDoor));
    }
    if (inspection.alive && recorded?.port) book.options.takingDown?.({ hostId: host.id, port: recorded.port, why: `taken down by this Benchlab to deploy ${active.manifest.name} in its place` });
    const stopped = await stopRun(transport, run, recorded?.stopSignal ?? 'TERM', recorded?.graceSeconds ?? 5, recorded?.logs ?? []);
    if (named) book.log(`${host.name}: stopped ${describeServer(recorded)} (${stopped.how}), ${describeHolder(recorded?.holder, null)}, to deploy ${active.manifest.name} in its place, as asked`);
    else if (inspection.alive) book.log(`${host.name}: stopped a leftover ${recorded?.templateName ?? 'server'} (${stopped.how}) before deploying`);
    inspection = await inspectRun(transport, run, active.deployment.port, signal);
  }
  if (inspection.portInUse) {
    throw new ApiError('conflict', `port ${active.deployment.port} is already in use on ${host.name}: another program listens there. Choose another port or stop that program.`);
  }
}

/** Build: the template's build steps in a workspace on this machine, its components, the database's binaries. */
export async function buildLocally(deploy: DeployRun, checked: Checked): Promise<Built> {
  const { book, active, entry, host, signal } = deploy;
  const { manifest } = entry;
  enter(deploy, 'build', 'building', manifest.build.length === 0 ? 'nothing to build' : null);
  const built =
    manifest.build.length === 0
      ? { dir: entry.dir, artifacts: [] }
      : await buildInWorkspace(entry.dir, manifest, book.options.buildDir, {
          signal,
          onStep: (name) => book.detail(active, { detail: name, progress: null }),
          onOutput: (line) => book.log(`${host.name} build: ${line}`),
          onProgress: (text) => {
            book.options.log.progress('templates', `${host.name} build: ${text}`);
            book.detail(active, { progress: text });
          },
        });
  const bundled = manifest.components ? await readBuildComponents(join(built.dir, manifest.components), manifest.components) : {};
  const binaries = await databaseBinaries(checked.database, () => book.detail(active, { detail: 'FerretDB (Go; built once, then cached)', progress: null }));
  return { dir: built.dir, artifacts: built.artifacts, bundled, binaries };
}

/** Upload: a portable Node when the host lacks one, the template's files and build, the supervisor. */
export async function uploadFiles(deploy: DeployRun, checked: Checked, built: Built): Promise<Uploaded> {
  const { book, active, entry, host, transport, signal } = deploy;
  const { manifest } = entry;
  const { facts, root, verdict } = checked;
  enter(deploy, 'upload', 'uploading');
  const runtimes = { ...verdict.placeholders };
  const uploadedRuntimes: Record<string, string> = {};
  if (verdict.provisionNode) {
    const { arch, release } = verdict.provisionNode;
    book.detail(active, { detail: `portable Node v${release} (fetching once with npm pack)` });
    const archive = await deploy.cache.archive(arch, release, signal);
    book.detail(active, { detail: `portable Node v${archive.version}` });
    const provided = await ensurePortableNode(transport, root, archive, { signal });
    const needed = requirementsFor(manifest, active.deployment.variant).find((requirement) => requirement.runtime === 'node');
    const why = needed?.runtime === 'node' && needed.version !== undefined ? `${manifest.name} runs on exactly this Node` : `the host has no Node >= ${needed?.runtime === 'node' ? (needed.minVersion ?? 0) : PORTABLE_NODE_MAJOR}`;
    if (provided.uploaded) book.log(`${host.name}: uploaded the portable Node v${archive.version} (${why})`);
    runtimes.node = provided.node;
    uploadedRuntimes.node = archive.version;
  }
  const versions = runtimeVersions(runtimes, facts, uploadedRuntimes);
  const components = { ...versions, ...built.bundled };
  if (Object.keys(components).length > 0) {
    book.update(active, { components });
    book.log(`${host.name}: ${manifest.name} runs with ${describeComponents(components)}`);
  }
  const dir = `${root}/templates/${manifest.id}`;
  const items: SyncItem[] = [
    ...manifest.files.map((name) => ({ name, source: join(entry.dir, name) })),
    ...built.artifacts.map((name) => ({ name, source: join(built.dir, name) })),
  ];
  if (manifest.payload) items.push({ name: manifest.payload, source: deploy.paths.payloadFile });
  const synced = await syncFiles(transport, dir, items, {
    signal,
    onFile: (name, bytes, index, count) => book.detail(active, { detail: `${name} (${bytes} bytes, ${index + 1} of ${count})` }),
  });
  await syncFiles(transport, `${root}/bin`, [{ name: 'supervise.sh', source: Buffer.from(SUPERVISOR_SCRIPT), mode: 0o755 }, ...built.binaries], {
    signal,
    onFile: (name, bytes) => book.detail(active, { detail: `${name} (${bytes} bytes)` }),
  });
  book.log(`${host.name}: ${synced.uploaded.length > 0 ? `uploaded ${synced.uploaded.join(', ')} (${synced.bytes} bytes)` : 'files unchanged, nothing uploaded'}`);
  return { dir, runtimes, versions };
}

/** Start: the private database first (if any), then the server under the supervisor, followed from its first line. */
export async function startServer(deploy: DeployRun, checked: Checked, uploaded: Uploaded): Promise<void> {
  const { book, active, host, transport, signal } = deploy;
  const { manifest, deployment } = active;
  const { facts, root, run, database } = checked;
  enter(deploy, 'start', 'starting');
  // From here on the host holds something to clean if the deploy fails: the database, then the server.
  deploy.startedServer = true;
  let databaseUrl: string | null = null;
  if (database) {
    const started = await startDatabase(database, transport, { root, run, asRoot: facts.uid === 0 }, (stage) => book.detail(active, { detail: stage }), signal);
    databaseUrl = started.url;
    book.update(active, { database: started.facts, step: { ...active.deployment.step!, detail: null } });
    book.log(`${host.name}: private ${started.title} ready on 127.0.0.1:${started.facts.port} (${describeSettings(started.facts.settings)})`);
  }
  // The runtime's own figures per second (a JVM's GC log, a Node server's event-loop monitor), read by the server sampler.
  const argv = renderStartArgv(manifest, { settings: deployment, dir: uploaded.dir, run, runtimes: uploaded.runtimes, databaseUrl });
  const named = /^\{(\w+)\}$/.exec(manifest.start[0] ?? '')?.[1];
  const started = withRuntimeMonitors(manifest.start[0], argv, run, named ? (uploaded.versions[named] ?? null) : null);
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
    ...(book.options.holder ? { holder: book.options.holder } : {}),
  };
  await startSupervised(
    transport,
    {
      paths: { root, run },
      deploymentJson: JSON.stringify(record),
      commandLine: toCommandLine(started.argv, serverEnvironment(manifest, databaseUrl)),
      files: started.files,
      logs: manifest.logs,
      maxHeartbeatAgeSeconds: book.options.maxHeartbeatAgeSeconds ?? 60,
      stopSignal: manifest.stop.signal,
      graceSeconds: manifest.stop.graceSeconds,
    },
    signal,
  );
  follow(book, active, host, transport, true);
}

/** Ready: the server answers its readiness path with 200 in time; the deployment is ready, with its URL. */
export async function awaitReadiness(deploy: DeployRun, checked: Checked, uploaded: Uploaded, startedAt: number): Promise<void> {
  const { book, active, host, transport, signal } = deploy;
  const { manifest, deployment } = active;
  enter(deploy, 'ready', 'starting', `GET ${manifest.readiness.path} within ${manifest.readiness.timeoutSeconds} s`);
  const readiness = await waitReady(
    transport,
    { run: checked.run, port: deployment.port, path: manifest.readiness.path, timeoutSeconds: manifest.readiness.timeoutSeconds, node: uploaded.runtimes.node ?? null },
    signal,
  );
  if (readiness.outcome === 'dead') {
    throw new ApiError('unavailable', `${manifest.name} exited${readiness.exitCode === '?' ? '' : ` with code ${readiness.exitCode}`} before it answered GET ${manifest.readiness.path}`);
  }
  if (readiness.outcome === 'timeout') {
    const status = /^[1-9]\d\d$/.test(readiness.lastStatus) ? `it last answered ${readiness.lastStatus}` : 'it never answered';
    throw new ApiError('timeout', `${manifest.name} did not answer GET ${manifest.readiness.path} with 200 within ${manifest.readiness.timeoutSeconds} s (${status})`);
  }
  const readyMs = Date.now() - startedAt;
  book.update(active, { state: 'ready', step: null, message: null, url: urlOf(host, deployment.port), readyMs });
  book.log(`${host.name}: ${manifest.name} (${deployment.variant}) is ready at ${urlOf(host, deployment.port)} after ${(readyMs / 1000).toFixed(2)} s`);
}
