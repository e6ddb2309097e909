// The back end's services, created once per process and shared by whichever front door hosts them
// (Electron, web mode, CLI). This module is the facade the CLI uses (docs/architecture.md, "The
// CLI"): the Services object, and the few entry points named at the end of the file for what it
// does before any service is open (where the data lives, the version, reading a plan file).

import { join } from 'node:path';
import type { AppInfo, TransportKind } from '../../app/contract.ts';
import { ComparisonService } from './sessions/comparison-service.ts';
import { ReportExporter } from './sessions/pdf-export.ts';
import { EventBus } from './event-bus.ts';
import { PlanRunner } from './plans/plan-runner.ts';
import { publishedReportChapters } from './plans/study-catalog.ts';
import { ConnectChecks } from './hosts/connect-checks.ts';
import { HostConnections } from './hosts/host-connections.ts';
import { HostService } from './hosts/host-service.ts';
import { Logger } from './logger.ts';
import { RequestGate } from './request-gate.ts';
import { shutDown } from './shutdown.ts';
import { builtInPresetsDir, loadBuiltInPresets, PresetCatalog } from './presets/preset-catalog.ts';
import { PresetService } from './presets/preset-service.ts';
import { ProfilesRepository } from './profiles/profiles-repository.ts';
import { ProfileService } from './profiles/profile-service.ts';
import { StepProfiler } from './profiles/step-profiler.ts';
import { ChangesRepository } from './presets/changes-repository.ts';
import { DraftsRepository } from './drafts/drafts-repository.ts';
import { FormDrafts } from './drafts/form-drafts.ts';
import { EstimateHistory } from './plans/estimate-history.ts';
import { EstimatesRepository } from './plans/estimates-repository.ts';
import { openDatabase, type Db } from './store/database.ts';
import { EventsRepository } from './store/events-repository.ts';
import { StoreWatch } from './store/store-watch.ts';
import { HostsRepository } from './hosts/hosts-repository.ts';
import { PresetsRepository } from './presets/presets-repository.ts';
import { RunsRepository } from './runs/runs-repository.ts';
import { SamplesRepository } from './runs/samples-repository.ts';
import { RunService } from './runs/run-service.ts';
import { SessionSnapshots } from './runs/session-snapshot.ts';
import { SessionRerun } from './sessions/session-rerun.ts';
import { SessionImporter } from './sessions/session-import.ts';
import { SessionExports } from './sessions/session-exports.ts';
import { SessionsRepository } from './runs/sessions-repository.ts';
import { SnapshotsRepository } from './hosts/snapshots-repository.ts';
import { TerminalManager } from './terminals/terminal-service.ts';
import { templateServiceFromEnv, TemplateService } from './templates/template-service.ts';
import { sessionsLoading } from './templates/server-owner.ts';
import { processHolder } from './store/process-owner.ts';

export interface Services {
  readonly db: Db;
  readonly bus: EventBus;
  readonly log: Logger;
  readonly hosts: HostsRepository;
  /** The hosts capability's rules: entries, "This machine", key pinning, connecting, system info. */
  readonly hostService: HostService;
  readonly sessions: SessionsRepository;
  readonly events: EventsRepository;
  readonly snapshots: SnapshotsRepository;
  /** The stored seconds of runs (read-only use outside the run service: a summary's figures it predates). */
  readonly samples: SamplesRepository;
  readonly connections: HostConnections;
  /** What runs on each fresh connection (leftover servers, agents); work needing a clean host awaits settled(). */
  readonly connectChecks: ConnectChecks;
  readonly terminals: TerminalManager;
  readonly templates: TemplateService;
  readonly presetCatalog: PresetCatalog;
  readonly changes: ChangesRepository;
  readonly presets: PresetService;
  readonly runs: RunService;
  /** Both hosts' facts and noise findings: the pre-flight, and each session's snapshot at start. */
  readonly hostFacts: SessionSnapshots;
  readonly compare: ComparisonService;
  readonly rerun: SessionRerun;
  /** Other load tools' results files as sessions (the Sessions page's import and `benchlab import`). */
  readonly imports: SessionImporter;
  readonly reports: ReportExporter;
  /** A session as JSON, CSV per second or an HdrHistogram log (docs/exports.md). */
  readonly exports: SessionExports;
  readonly plans: PlanRunner;
  /** The CPU profile of the server process per run: its capture and the stored folded stacks. */
  readonly profiles: ProfileService;
  readonly drafts: DraftsRepository;
  readonly formDrafts: FormDrafts;
  readonly estimates: EstimateHistory;
  /** The front doors' requests: the dispatcher admits them through it, and shutdown refuses new ones. */
  readonly requests: RequestGate;
  info(): AppInfo;
  /**
   * Shuts down in order (shutdown.ts): refuses new requests, ends the plan, the load and deploys,
   * waits (bounded) for connect checks and requests in flight, then closes connections and the
   * store. Called again, it returns the same promise.
   */
  close(): Promise<void>;
}

/** The drafts-table key of the app's last plan's state, kept as it runs. */
const LAST_PLAN_KEY = 'last-plan';

export interface ServiceOptions {
  dataDir: string;
  transport: TransportKind;
  version: string;
  /** How long shutdown waits for each thing it ends or awaits (tests shorten it); shutdown.ts has the defaults. */
  shutdownWaitMs?: number;
}

export function createServices(options: ServiceOptions): Services {
  const { db, file, notices } = openDatabase(options.dataDir);
  const bus = new EventBus();
  const events = new EventsRepository(db);
  const log = new Logger(events, bus);
  for (const notice of notices) log.warn('store', notice);
  // Other processes on this data dir (a CLI while the app is open): their sessions appear here.
  const storeWatch = new StoreWatch({ db, bus, log });
  const hosts = new HostsRepository(db);
  const connections = new HostConnections({ hosts, bus, log });
  const terminals = new TerminalManager({ bus, transportFor: (hostId) => connections.transportFor(hostId) });
  const connectChecks = new ConnectChecks({ bus, log, hosts, isConnected: (hostId) => connections.state(hostId).state === 'connected' });
  const sessions = new SessionsRepository(db);
  const templates = templateServiceFromEnv({
    bus,
    log,
    hosts,
    connections,
    connectChecks,
    dataDir: options.dataDir,
    holder: processHolder(options.transport),
    frontDoor: options.transport === 'cli' ? 'cli' : 'app',
    loadsOn: (server) => sessionsLoading(sessions.runningLoads(), server),
    // Called only once both exist: a run of this process loading that server stops its load first.
    takingDown: (server) => runs.serverTakenDown(server),
  });
  const builtInPresets = loadBuiltInPresets(builtInPresetsDir());
  for (const problem of builtInPresets.problems) log.warn('presets', `built-in preset skipped: ${problem}`);
  const presetCatalog = new PresetCatalog(builtInPresets.presets, new PresetsRepository(db));
  const changes = new ChangesRepository(db);
  const presets = new PresetService({ catalog: presetCatalog, changes, hosts, connections, bus, log });
  const snapshots = new SnapshotsRepository(db);
  const hostService = new HostService({ hosts, connections, snapshots, log });
  const hostFacts = new SessionSnapshots({ hosts, connections, changes, snapshots, sessions, log });
  const samples = new SamplesRepository(db);
  const profiles = new ProfileService({ repository: new ProfilesRepository(db) });
  const runs = new RunService({
    bus,
    log,
    hosts,
    connections,
    sessions,
    runs: new RunsRepository(db),
    samples,
    portableNode: templates.portableNodeCache,
    databaseFile: file,
    hostFacts,
    connectChecks,
    serverNow: (hostId) => templates.serverNow(hostId),
    // BENCHLAB_PERF: the perf command on server hosts, for a perf outside their PATH.
    profiler: new StepProfiler({ record: (runId, outcome) => profiles.record(runId, outcome), log, perfCommand: () => process.env.BENCHLAB_PERF || 'perf' }),
  });
  const compare = new ComparisonService({ db, sessions });
  const imports = new SessionImporter({ db, sessions, uploadsDir: join(options.dataDir, 'tmp', 'imports') });
  const drafts = new DraftsRepository(db);
  const estimates = new EstimateHistory({ bus, repository: new EstimatesRepository(db) });
  const requests = new RequestGate();
  let closing: Promise<void> | null = null;
  const plans = new PlanRunner({
    bus,
    log,
    hosts,
    connections,
    sessions,
    presetCatalog,
    presets,
    templates,
    runs,
    estimates,
    frontDoor: options.transport === 'cli' ? 'cli' : 'app',
    // A CLI's plan is its own: the runner holds it while the process lives, so it never replaces the
    // app's last plan in the wizard, nor marks a plan the open app is running interrupted.
    store:
      options.transport === 'cli'
        ? { load: () => null, save: () => undefined }
        : { load: () => drafts.get(LAST_PLAN_KEY)?.value ?? null, save: (plan) => drafts.save(LAST_PLAN_KEY, plan) },
  });
  return {
    db,
    bus,
    log,
    events,
    hosts,
    connections,
    connectChecks,
    terminals,
    templates,
    presetCatalog,
    changes,
    presets,
    runs,
    hostService,
    compare,
    rerun: new SessionRerun({ sessions, runs, library: compare, templates }),
    imports,
    reports: new ReportExporter({ folder: join(options.dataDir, 'reports'), chapters: async (comparison) => [...(await publishedReportChapters(comparison)), profiles.reportChapter(comparison)] }),
    exports: new SessionExports({ sessions, runs: new RunsRepository(db), samples, hosts }),
    snapshots,
    samples,
    hostFacts,
    plans,
    profiles,
    drafts,
    formDrafts: new FormDrafts(drafts),
    estimates,
    sessions,
    info: () => ({
      version: options.version,
      dataDir: options.dataDir,
      databaseFile: file,
      transport: options.transport,
      platform: `${process.platform}-${process.arch}`,
      notices: [...notices],
    }),
    requests,
    close: () =>
      (closing ??= shutDown({
        log,
        requests,
        waitMs: options.shutdownWaitMs,
        ending: [
          { what: 'the plan', end: async () => (plans.current()?.status === 'running' ? plans.cancel() : null) },
          { what: 'the load session', end: () => runs.stopAll() },
          { what: 'the deploys', end: () => templates.shutdown() },
        ],
        followUps: () => connectChecks.inProgress().map(({ hostId, settled }) => ({ what: `the connect check of ${hostName(hosts, hostId)}`, settled })),
        closers: [
          () => plans.close(),
          () => runs.closeAll(),
          () => templates.close(),
          () => connectChecks.close(),
          () => terminals.closeAll(),
          () => connections.closeAll(),
          () => storeWatch.close(),
          () => imports.close(),
          () => db.close(),
        ],
      })),
  };
}

function hostName(hosts: HostsRepository, hostId: number): string {
  try {
    return hosts.get(hostId).name;
  } catch {
    return `host ${hostId}`;
  }
}

// The entry points a front door may use besides the Services object: where the data lives and the
// version (before a store is opened), what a plan file is checked and resolved against, and where
// the PDF's Chromium is looked for.
export { defaultDataDir } from './data-dir.ts';
export { appVersion } from './version.ts';
export { builtInStudiesDir, loadStudies } from './plans/study-catalog.ts';
export { resolvePlanFile } from './plans/plan-file-resolver.ts';
export { loadCatalog, templatePathsFromEnv } from './templates/catalog.ts';
export { CHROMIUM_PATH } from './sessions/pdf-export.ts';
