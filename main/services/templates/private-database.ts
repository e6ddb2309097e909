// The private database of one deploy, whichever its knob asks for: at the check step, what it will
// run on (the host's PostgreSQL, refused with the install command when none serves; for MongoDB's
// protocol the host's newest mongod, else FerretDB, refused where its binary cannot run); at the
// build step FerretDB's binary (built here on first use); at the start step the instance itself
// (private-postgres.ts, private-mongo.ts), its URL for the server and its facts for the deployment.

import { ApiError } from '../../../app/common/errors.ts';
import { missingPostgres, pickPostgres, type DatabaseFacts, type FoundPostgres } from '../../../app/templates/template-database.ts';
import type { HostFacts } from '../../../app/templates/template-hosts.ts';
import { pickMongod, runsFerretdb, type FoundMongod } from '../../../app/templates/template-mongo.ts';
import { databaseKindOf, type DeploySettings, type Manifest } from '../../../app/templates/templates.ts';
import type { HostTransport } from '../hosts/host-transport.ts';
import { ferretdbBinary } from './ferretdb-binary.ts';
import type { SyncItem } from './file-sync.ts';
import { findMongo, MONGO_FOLDER, startPrivateMongo } from './private-mongo.ts';
import { DATABASE_FOLDER, findPostgres, startPrivatePostgres } from './private-postgres.ts';

/** FerretDB's binary on the host, in Benchlab's bin folder beside the supervisor (uploaded again only when its bytes changed). */
const FERRETDB_REMOTE_NAME = 'benchlab-ferretdb';

/** The private database a deploy starts, and what on. */
export type DatabasePlan = { kind: 'postgresql'; postgres: FoundPostgres } | { kind: 'mongodb'; mongod: FoundMongod | null } | null;

/** What the deploy's database runs on, when its knob asks for one; refused with the reason when nothing serves. */
export async function planDatabase(
  manifest: Manifest,
  settings: Pick<DeploySettings, 'knobs'>,
  hostName: string,
  transport: HostTransport,
  facts: Pick<HostFacts, 'packageManager'>,
  signal: AbortSignal,
): Promise<DatabasePlan> {
  const kind = databaseKindOf(manifest, settings);
  if (!manifest.database || kind === null) return null;
  if (kind === 'mongodb') {
    const found = await findMongo(transport, signal);
    if (!runsFerretdb(found.arch)) {
      throw new ApiError('unavailable', `${hostName} is ${found.arch}: Benchlab's FerretDB binary, which serves MongoDB's protocol where there is no mongod and seeds a mongod's database, is built for x86_64 only`);
    }
    return { kind, mongod: pickMongod(found.mongods) };
  }
  const found = await findPostgres(transport, signal);
  const postgres = pickPostgres(found, manifest.database.minVersion);
  if (!postgres) throw new ApiError('unavailable', missingPostgres(hostName, manifest.database.minVersion, found, facts.packageManager));
  return { kind, postgres };
}

/** The files of Benchlab's bin folder the plan needs: FerretDB's binary, built first when needed (`onBuild` hears when). */
export async function databaseBinaries(plan: DatabasePlan, onBuild: () => void): Promise<SyncItem[]> {
  if (plan?.kind !== 'mongodb') return [];
  const found = await ferretdbBinary(onBuild);
  if (!found.ok) throw new ApiError('unavailable', `the private MongoDB-protocol database: ${found.reason}`);
  return [{ name: FERRETDB_REMOTE_NAME, source: found.file, mode: 0o755 }];
}

export interface StartedDatabase {
  url: string;
  facts: DatabaseFacts;
  /** For the log: "PostgreSQL 15.14", "FerretDB v1.24.2 (MongoDB 7.0.42)". */
  title: string;
}

/** Starts the planned instance in the run dir; `onProgress` hears each stage. */
export async function startDatabase(
  plan: NonNullable<DatabasePlan>,
  transport: HostTransport,
  where: { root: string; run: string; asRoot: boolean },
  onProgress: (stage: string) => void,
  signal: AbortSignal,
): Promise<StartedDatabase> {
  if (plan.kind === 'mongodb') {
    const spec = { dir: `${where.run}/${MONGO_FOLDER}`, mongod: plan.mongod, ferretdb: `${where.root}/bin/${FERRETDB_REMOTE_NAME}` };
    const started = await startPrivateMongo(transport, spec, onProgress, signal);
    return { ...started, title: `${started.facts.kind === 'mongod' ? 'mongod' : 'FerretDB'} ${started.facts.version}` };
  }
  const started = await startPrivatePostgres(transport, { dir: `${where.run}/${DATABASE_FOLDER}`, postgres: plan.postgres, asRoot: where.asRoot }, onProgress, signal);
  return { ...started, title: `PostgreSQL ${started.facts.version}` };
}
