// A template deployer wired to the lab's server host the way the app wires it (store, event bus,
// logger, host connections, TemplateService), with its own folder on the host so test files never
// share a run dir. Also: the host-side checks that a deployment left nothing behind, and psql on
// the server against a deployment's private database.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LogLine } from '../../app/contract.ts';
import type { Deployment } from '../../app/templates/templates-contract.ts';
import { EventBus } from '../../main/services/event-bus.ts';
import { HostConnections } from '../../main/services/hosts/host-connections.ts';
import { Logger } from '../../main/services/logger.ts';
import { openDatabase } from '../../main/services/store/database.ts';
import { EventsRepository } from '../../main/services/store/events-repository.ts';
import { HostsRepository } from '../../main/services/hosts/hosts-repository.ts';
import { TemplateService, type TemplateServiceOptions } from '../../main/services/templates/template-service.ts';
import { inspectRun } from '../../main/services/templates/remote-server.ts';
import { findPostgres } from '../../main/services/templates/private-postgres.ts';
import { pickPostgres } from '../../app/templates/template-database.ts';
import { shellQuote } from '../../app/common/shell-quote.ts';
import { labLayout, type LabInstance } from '../lab/layout.ts';
import { labTargets } from './lab-hosts.ts';

/** Portable Node archives survive between test runs here, so `npm pack` runs once per machine. */
export const TEST_NODE_CACHE = join(tmpdir(), 'benchlab-test-portable-node');
/** Template builds shared by the lab tests (kept between runs, so Maven builds are incremental). */
export const TEST_BUILD_DIR = join(tmpdir(), 'benchlab-test-template-builds');

export interface TemplateLab {
  service: TemplateService;
  hostId: number;
  address: string;
  connections: HostConnections;
  /** Benchlab's folder on the lab server for this test file. */
  root: string;
  run: string;
  logs: LogLine[];
  progress: Deployment[];
  close(): Promise<void>;
}

export async function templateLab(
  name: string,
  overrides: Partial<Omit<TemplateServiceOptions, 'bus' | 'log' | 'hosts' | 'connections'>> = {},
  instance: LabInstance = 'default',
): Promise<TemplateLab> {
  const targets = await labTargets(instance);
  const dataDir = mkdtempSync(join(tmpdir(), `benchlab-${name}-`));
  const { db } = openDatabase(dataDir);
  const bus = new EventBus();
  const log = new Logger(new EventsRepository(db), bus);
  const hosts = new HostsRepository(db);
  const connections = new HostConnections({ hosts, bus, log });
  const host = hosts.add({ name: 'lab-server', address: targets.server.address, port: 22, user: 'root', auth: 'key', keyPath: targets.keyPath });
  hosts.pinKey(host.id, targets.server.pinnedFingerprint!);
  const root = overrides.remoteRoot ?? `/tmp/benchlab-${name}`;
  const service = new TemplateService({ bus, log, hosts, connections, cacheDir: TEST_NODE_CACHE, buildDir: TEST_BUILD_DIR, remoteRoot: root, ...overrides });
  const logs: LogLine[] = [];
  const progress: Deployment[] = [];
  bus.subscribe('log', (line) => logs.push(line));
  bus.subscribe('templates.progress', (deployment) => progress.push(deployment));
  await connections.connect(host.id);
  return {
    service,
    hostId: host.id,
    address: targets.server.address,
    connections,
    root,
    run: `${root}/run/${labLayout(instance).hosts.server.hostname}`,
    logs,
    progress,
    close: async () => {
      service.close();
      connections.closeAll();
      db.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Nothing of Benchlab's runs or remains in the run dir (no process works in it, a private database included), and the port is free. */
export async function hostIsClean(lab: TemplateLab, port: number): Promise<{ clean: boolean; why: string }> {
  const transport = lab.connections.transportFor(lab.hostId);
  const inspection = await inspectRun(transport, lab.run, port);
  const leftover = await transport.exec(`test -e '${lab.run}' && echo run-dir-exists; true`);
  const working = await processesIn(lab, lab.run);
  const reasons = [
    ...(inspection.present ? [`run dir holds ${JSON.stringify(inspection)}`] : []),
    ...(inspection.portInUse ? [`port ${port} still listens`] : []),
    ...(leftover.stdout.includes('run-dir-exists') ? ['run dir exists'] : []),
    ...(working.length > 0 ? [`processes still work in the run dir: ${working.join('; ')}`] : []),
  ];
  return { clean: reasons.length === 0, why: reasons.join('; ') };
}

/** `pid cwd` of every process on the server whose working directory is `dir` or below (a postmaster works in its data dir). */
export async function processesIn(lab: TemplateLab, dir: string): Promise<string[]> {
  const result = await lab.connections.transportFor(lab.hostId).exec(
    `for p in /proc/[0-9]*; do c=$(readlink "$p/cwd" 2>/dev/null) || continue; case $c in ${shellQuote(dir)}|${shellQuote(dir)}/*) echo "\${p#/proc/} $c" ;; esac; done; true`,
  );
  return result.stdout.split('\n').filter((line) => line.trim() !== '');
}

/** Runs SQL with psql on the lab server against a private database's URL; its unaligned rows. */
export async function psqlOnServer(lab: TemplateLab, url: string, sql: string): Promise<string[]> {
  const transport = lab.connections.transportFor(lab.hostId);
  const postgres = pickPostgres(await findPostgres(transport), 13);
  if (!postgres) throw new Error('the lab server has no PostgreSQL 13+');
  const result = await transport.exec(`${shellQuote(`${postgres.bin}/psql`)} -X -At -v ON_ERROR_STOP=1 ${shellQuote(url)} -c ${shellQuote(sql)}`);
  if (result.code !== 0) throw new Error(`psql on the lab server: ${result.stderr.trim()}`);
  return result.stdout.split('\n').filter((line) => line !== '');
}

/** The URL of the private database in the lab's run dir (written there by its start). */
export async function privateDatabaseUrl(lab: TemplateLab): Promise<string> {
  const result = await lab.connections.transportFor(lab.hostId).exec(`cat ${shellQuote(`${lab.run}/postgres/url`)}`);
  if (result.code !== 0) throw new Error(`no private database in ${lab.run}: ${result.stderr.trim()}`);
  return result.stdout.trim();
}
